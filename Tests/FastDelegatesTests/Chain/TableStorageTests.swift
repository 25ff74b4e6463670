import CDispatchTable
import FastDelegatesTestSupport
import Testing

@testable import FastDelegates

/// Where a chain's C table lives: inside the `DispatchTable` object, so that a chain costs one
/// heap block fewer than with a C chain of its own allocation.
@Suite("Table storage")
struct TableStorageTests {
    @Test func theCChainLivesInsideTheTableObject() {
        let chain = DelegateChain()
        let table = chain.table
        let object = UnsafeRawPointer(Unmanaged.passUnretained(table).toOpaque())
        let offset = UnsafeRawPointer(table.chain) - object
        #expect(offset > 0)
        #expect(offset + MemoryLayout<cdt_chain>.size <= heapBlockSize(object))
        // It is a working chain, at that address for good.
        let log = Log()
        let probe = Probe("a", log: log)
        chain.add(probe)
        chain.send(Scroll.didScroll, 7)
        #expect(log.events == ["a.didScroll(7)"])
        #expect(UnsafeRawPointer(table.chain) - object == offset)
        #expect(chain.invariantViolation == 0)
    }

    /// The C chain's fields leave no padding (cdt_chain.h): 104 bytes, then its inline arrays.
    @Test func theCChainHasNoPadding() {
        #expect(MemoryLayout<cdt_chain>.size == 224)
        #expect(MemoryLayout<cdt_chain>.offset(of: \.inline_slots) == 104)
    }

    /// How many allocations the C core makes in `body` (counted with its failure hook's countdown).
    private static func cAllocations(_ body: () -> Void) -> Int64 {
        let budget: Int64 = 1 << 40
        _ = cdt_debug_fail_allocation_after(budget)
        body()
        return budget - cdt_debug_fail_allocation_after(-1)
    }

    /// A chain of one listener answering one message keeps its C table in the table object: the
    /// slot, bucket and entry arrays are the chain's inline ones, so the C core allocates nothing.
    @Test(arguments: [Retention.weak, .strong])
    func oneListenerAnsweringOneMessageAllocatesNoCBlock(retention: Retention) {
        let log = Log()
        let plain = Plain("a", log: log)
        // The message's interned id, once per process, out of the count.
        DelegateChain().send(Scroll.didScroll, 0)
        var chain: DelegateChain?
        let count = Self.cAllocations {
            chain = DelegateChain()
            chain?.add(plain, retention: retention, responses: .scrolls)
            chain?.send(Scroll.didScroll, 7)
            chain?.remove(plain)
            chain?.add(plain, retention: retention, responses: .scrolls)
            chain?.send(Scroll.didScroll, 8)
        }
        #expect(count == 0)
        #expect(chain?.table.stats.slot_capacity == 1)
        #expect(chain?.invariantViolation == 0)
        #expect(Self.cAllocations { chain = nil } == 0)
        #expect(log.events == ["a.didScroll(7)", "a.didScroll(8)"])
    }

    /// A second listener added by a handler, while the dispatch reads the inline arrays, moves the
    /// C arrays to the heap: the running send still reaches the listeners it started with only,
    /// and the next one reaches both.
    @Test func aListenerAddedDuringASendMovesTheArraysToTheHeap() {
        let log = Log()
        let chain = DelegateChain()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        a.onScroll = { _, offset in
            if offset == 1 { chain.add(b) }
        }
        chain.add(a)
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["a.didScroll(1)", "a.didScroll(2)", "b.didScroll(2)"])
        #expect(chain.invariantViolation == 0)
        #expect(chain.table.stats.retired_blocks == 0)
    }

    /// The usable size of the block malloc gives a request of `bytes` (glibc: 8 bytes of header
    /// in 16-byte steps; Darwin: 16-byte steps).
    private static func blockSize(forRequest bytes: Int) -> Int {
        #if canImport(Darwin)
        (bytes + 15) / 16 * 16
        #else
        (bytes + 8 + 15) / 16 * 16 - 8
        #endif
    }

    /// A chain and each of its registrations fit in 88 bytes, one malloc size class below the
    /// 96 bytes and more they took before their flags filled the padding.
    @Test func aChainAndItsRegistrationsAreSmall() {
        let chain = DelegateChain()
        let probes = [Probe("a", log: Log()), Probe("b", log: Log())]
        chain.add(probes[0])
        chain.add(probes[1], retention: .strong)
        let chainObject = UnsafeRawPointer(Unmanaged.passUnretained(chain).toOpaque())
        #expect(heapBlockSize(chainObject) <= Self.blockSize(forRequest: 88))
        #expect(chain.list.entries.count == 2)
        for registration in chain.list.entries {
            let object = UnsafeRawPointer(Unmanaged.passUnretained(registration).toOpaque())
            #expect(heapBlockSize(object) <= Self.blockSize(forRequest: 88))
        }
        #expect(chain.retention(of: probes[1]) == .strong)
        #expect(chain.retention(of: probes[0]) == .weak)
    }

    /// Issue 53: a chain of one target keeps its registration inline in its list (no array
    /// block), and one of up to four makes the list's array once.
    @Test func aChainOfOneTargetKeepsNoListArrayAndOfFourMakesItOnce() {
        // The room of the array the list's registrations take (an array's own, were they kept in one).
        func roomOf(_ entries: ListEntries<ChainRegistration>) -> Int { entries.arrayCapacity }
        func roomOf(_ entries: [ChainRegistration]) -> Int { entries.capacity }
        func arrayCapacity(_ chain: DelegateChain) -> Int { roomOf(chain.list.entries) }
        let chain = DelegateChain()
        let probes = (0..<4).map { Probe("p\($0)", log: Log()) }
        chain.add(probes[0])
        #expect(arrayCapacity(chain) == 0)
        chain.add(probes[1])
        let capacity = arrayCapacity(chain)
        #expect(capacity > 0)
        chain.add(probes[2])
        chain.add(probes[3])
        #expect(arrayCapacity(chain) == capacity)
        #expect(chain.targets.map { ($0 as! Probe).name } == ["p0", "p1", "p2", "p3"])
        chain.remove(probes[0])
        chain.insert(probes[0], at: 0)
        #expect(chain.targets.map { ($0 as! Probe).name } == ["p0", "p1", "p2", "p3"])
        withExtendedLifetime(probes) {} // held weakly by the chain: alive through the checks
    }
}
