// What tests (and the benchmark) inspect of a DelegateChain: sizes, holds and the C table's
// state. Internal, or `package` for the test-support target; none of it is on a send's path.

extension DelegateChain {
    /// How many streams observe `message`.
    func observerCount<Input, Output>(of message: Message<Input, Output>) -> Int {
        observers?.count(of: message.id) ?? 0
    }

    /// Test hook: the C table's next slot takes generation `next` + 1 (see
    /// `cdt_chain_debug_set_next_generation`).
    func setNextGenerationForTesting(_ next: UInt32) {
        table.setNextGeneration(next)
    }

    /// The C generation of `target`'s slot, for tests.
    func generationForTesting(of target: AnyObject) -> UInt32? {
        liveRegistration(of: target)?.handle.generation
    }

    /// Registrations whose zeroing hold keeps the memory of a dead target, for tests: what
    /// memory a chain that never sends holds beyond its live targets.
    var deadAllocationsHeld: Int {
        list.entries.reduce(0) { $0 + ($1.holdsDeadAllocation ? 1 : 0) }
    }

    /// Sizes of the C table, for tests and the benchmark.
    var tableStats: (liveSlots: Int, slotCapacity: Int, messages: Int, entries: Int) {
        let stats = table.stats
        return (Int(stats.live_slots), Int(stats.slot_capacity), Int(stats.messages), Int(stats.entries))
    }

    /// Registrations whose handler of `message` is not entered into the C table yet, for tests
    /// (see PendingEntries.swift).
    func pendingCountForTesting<Input, Output>(of message: Message<Input, Output>) -> Int {
        table.pendingCount(of: message.id)
    }

    /// How `target` is held, or nil if it is not in the chain, for tests.
    func holdForTesting(of target: AnyObject) -> ChainRegistration.Hold? {
        liveRegistration(of: target)?.hold
    }

    /// Registrations not removed: live, or dead and not yet swept.
    package var registrationCount: Int {
        list.listedCount
    }

    /// Registrations the chain's list holds, removed ones not yet swept included: what its
    /// memory grows with.
    var registrationListCount: Int {
        list.entries.count
    }

    /// 0 when every invariant of the C table holds, else the first broken one's code.
    package var invariantViolation: Int32 { table.invariantViolation }

    /// Objects parked until the outermost dispatch leaves (none outside a dispatch).
    package var parkedCountForTesting: Int { table.graveyard.count }

    /// Entry arrays the C table retired and has not freed yet (none outside a dispatch).
    package var retiredBlocksForTesting: Int { Int(table.stats.retired_blocks) }
}
