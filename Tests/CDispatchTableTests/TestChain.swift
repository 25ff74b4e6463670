import CDispatchTable

/// A C chain for tests; objects and handlers are fake pointers the chain never dereferences.
final class TestChain {
    let raw: UnsafeMutablePointer<cdt_chain>

    init(forcedCollisions: Bool) {
        raw = cdt_chain_create()!
        if forcedCollisions { precondition(cdt_chain_debug_force_collisions(raw) == 0) }
    }

    deinit { cdt_chain_destroy(raw) }

    static func object(_ n: Int) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: (n + 1) << 4)! }
    static func handler(_ n: Int) -> UnsafeRawPointer { UnsafeRawPointer(bitPattern: (n + 1) << 4)! }

    func acquire(_ n: Int, order: UInt64) -> cdt_handle {
        var handle = cdt_handle()
        precondition(cdt_chain_acquire(raw, Self.object(n), order, &handle) == 0)
        return handle
    }

    @discardableResult
    func release(_ handle: cdt_handle, messages: [UInt32]) -> UnsafeMutableRawPointer? {
        cdt_chain_release(raw, handle, messages, messages.count)
    }

    func insert(_ handle: cdt_handle, _ message: UInt32, handler: Int) {
        precondition(cdt_chain_insert_entry(raw, handle, message, Self.handler(handler)) == 0)
    }

    /// A chain whose objects 1 and 2 (sort keys `orders`) answer `message` with handlers 1 and 2.
    static func twoResponders(
        of message: UInt32, orders: (UInt64, UInt64) = (1, 2)
    ) -> (chain: TestChain, first: cdt_handle, second: cdt_handle) {
        let chain = TestChain(forcedCollisions: false)
        let first = chain.acquire(1, order: orders.0)
        let second = chain.acquire(2, order: orders.1)
        chain.insert(first, message, handler: 1)
        chain.insert(second, message, handler: 2)
        return (chain, first, second)
    }

    /// The live objects' numbers and handler numbers answering `message`, in order.
    func responders(_ message: UInt32) -> [(object: Int, handler: Int)] {
        let span = cdt_chain_lookup(raw, message)
        return (0..<span.count).compactMap { i in
            let entry = span.entries[i]
            guard let object = cdt_chain_object(raw, entry) else { return nil }
            return (Int(bitPattern: object) >> 4 - 1, Int(bitPattern: entry.handler) >> 4 - 1)
        }
    }

    func objects(_ message: UInt32) -> [Int] { responders(message).map(\.object) }

    /// The capacity of `message`'s entry array, or nil if the message has no bucket.
    func entryCapacity(of message: UInt32) -> UInt32? {
        let table = raw.pointee
        return (0..<Int(table.bucket_capacity)).lazy.map { table.buckets[$0] }.first { $0.message == message }?.capacity
    }

    var stats: cdt_chain_stats {
        var stats = cdt_chain_stats()
        cdt_chain_get_stats(raw, &stats)
        return stats
    }

    var invariants: cdt_invariant_violation { cdt_chain_check_invariants(raw) }
}
