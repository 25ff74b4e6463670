import CDispatchTable
import Testing

/// Mutations during a dispatch copy a message's entry array once per dispatch level, not once
/// per mutation (the copy window of `cdt_chain.h`), and never touch an array a running dispatch
/// reads.
@Suite("Copy windows")
struct CopyWindowTests {
    static func entries(_ span: cdt_span) -> [cdt_entry] { (0..<span.count).map { span.entries[$0] } }

    static func same(_ a: [cdt_entry], _ b: [cdt_entry]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { $0.slot == $1.slot && $0.generation == $1.generation && $0.handler == $1.handler }
    }

    @Test(arguments: [false, true])
    func manyMutationsInsideADispatchRetireOneArray(forcedCollisions: Bool) {
        let chain = TestChain(forcedCollisions: forcedCollisions)
        let targets = 100
        let handles = (0..<targets).map { chain.acquire($0, order: UInt64($0 + 1) * 10) }
        for (i, handle) in handles.enumerated() { chain.insert(handle, 9, handler: i) }
        cdt_chain_enter(chain.raw)
        let span = cdt_chain_lookup(chain.raw, 9)
        let before = Self.entries(span)
        // 1,000 add / remove pairs at the end, at the front and in the middle, and replacements.
        for round in 0..<1_000 {
            let order: UInt64 = [UInt64(targets + 1) * 10, 5, 505][round % 3]
            let extra = chain.acquire(1_000 + round, order: order)
            chain.insert(extra, 9, handler: 1_000 + round)
            chain.insert(handles[round % targets], 9, handler: 2_000 + round)
            chain.release(extra, messages: [9])
        }
        // The running dispatch's span is as it was; one array is retired, not thousands.
        #expect(Self.same(Self.entries(span), before))
        #expect(chain.stats.retired_blocks == 1)
        #expect(chain.objects(9) == Array(0..<targets))
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_leave(chain.raw) == 1)
        cdt_chain_reclaim(chain.raw)
        #expect(chain.stats.retired_blocks == 0)
        #expect(chain.responders(9).map(\.handler) == (0..<targets).map { 2_000 + 900 + $0 })
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    @Test func aNestedDispatchThatReadsTheCopyMakesTheNextMutationCopyAgain() {
        let chain = TestChain(forcedCollisions: false)
        let handles = (0..<4).map { chain.acquire($0, order: UInt64($0 + 1) * 10) }
        for (i, handle) in handles.enumerated() { chain.insert(handle, 9, handler: i) }
        cdt_chain_enter(chain.raw)
        let extra = chain.acquire(10, order: 100)
        chain.insert(extra, 9, handler: 10) // the copy, at depth 1
        // A nested dispatch reads the copy; a mutation made while it runs must not change it.
        let nestedSpan = cdt_chain_lookup(chain.raw, 9)
        cdt_chain_enter(chain.raw)
        let nested = Self.entries(nestedSpan)
        chain.release(handles[0], messages: [9])
        chain.insert(handles[1], 9, handler: 11)
        #expect(Self.same(Self.entries(nestedSpan), nested))
        #expect(chain.stats.retired_blocks == 2)
        #expect(cdt_chain_leave(chain.raw) == 0)
        // Back at depth 1: the nested dispatch is gone, the depth-2 copy is not read by anyone
        // running at depth 1, but it was made in the nested level's window, now closed: one more
        // copy, then in place again.
        chain.insert(handles[2], 9, handler: 12)
        #expect(chain.stats.retired_blocks == 3)
        chain.insert(handles[3], 9, handler: 13)
        chain.release(extra, messages: [9])
        #expect(chain.stats.retired_blocks == 3)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_leave(chain.raw) == 1)
        cdt_chain_reclaim(chain.raw)
        #expect(chain.responders(9).map(\.handler) == [11, 12, 13])
    }

    @Test func aDispatchThatStartsAfterTheCopyAtTheSameDepthSeesNoInPlaceChange() {
        // Depth 2 copies, the depth-2 dispatch leaves, another enters at depth 2 and reads the
        // copy: the window closed when the depth fell to 1, so the next mutation copies.
        let chain = TestChain(forcedCollisions: false)
        let handles = (0..<3).map { chain.acquire($0, order: UInt64($0 + 1) * 10) }
        for (i, handle) in handles.enumerated() { chain.insert(handle, 9, handler: i) }
        cdt_chain_enter(chain.raw)
        cdt_chain_enter(chain.raw)
        chain.insert(handles[0], 9, handler: 20) // the copy, at depth 2
        #expect(cdt_chain_leave(chain.raw) == 0)
        let span = cdt_chain_lookup(chain.raw, 9)
        cdt_chain_enter(chain.raw)
        let seen = Self.entries(span)
        chain.release(handles[1], messages: [9])
        chain.insert(handles[2], 9, handler: 22)
        #expect(Self.same(Self.entries(span), seen))
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_leave(chain.raw) == 0)
        #expect(cdt_chain_leave(chain.raw) == 1)
        cdt_chain_reclaim(chain.raw)
        #expect(chain.responders(9).map(\.handler) == [20, 22])
    }

    @Test func aGrowingCopyFreesTheArrayItReplaces() {
        // Growth past the copy's capacity inside the window reallocates; the array it replaces
        // was read by no dispatch, so it is freed, not retired.
        let chain = TestChain(forcedCollisions: false)
        let first = chain.acquire(0, order: 1)
        chain.insert(first, 9, handler: 0)
        cdt_chain_enter(chain.raw)
        for n in 1...1_000 { chain.insert(chain.acquire(n, order: UInt64(n + 1)), 9, handler: n) }
        #expect(chain.stats.retired_blocks == 1)
        #expect(chain.objects(9) == Array(0...1_000))
        #expect(cdt_chain_leave(chain.raw) == 1)
        cdt_chain_reclaim(chain.raw)
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }
}
