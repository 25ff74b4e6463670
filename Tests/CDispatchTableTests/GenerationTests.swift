import CDispatchTable
import Testing

/// Generations wrap from UINT32_MAX to 1; `cdt_chain_debug_set_next_generation` gets there in a
/// few acquisitions instead of 2^32.
@Suite("Generations")
struct GenerationTests {
    @Test(arguments: [false, true])
    func afterTheWrapTheCounterStepsOverLiveGenerations(forcedCollisions: Bool) {
        let chain = TestChain(forcedCollisions: forcedCollisions)
        let early = (0..<3).map { chain.acquire($0, order: UInt64($0 + 1)) }
        #expect(early.map(\.generation) == [1, 2, 3])
        for handle in early { chain.insert(handle, 5, handler: Int(handle.generation)) }
        cdt_chain_debug_set_next_generation(chain.raw, UInt32.max - 1)
        let late = (3..<8).map { chain.acquire($0, order: UInt64($0 + 1)) }
        #expect(late.map(\.generation) == [UInt32.max - 1, UInt32.max, 4, 5, 6])
        #expect(Set((early + late).map(\.generation)).count == 8)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        // A released generation that nothing names any more may be issued again when the counter
        // comes round to it; the new target starts with no entries.
        chain.release(early[1], messages: [5])
        cdt_chain_debug_set_next_generation(chain.raw, 2)
        let reuse = chain.acquire(9, order: 20)
        #expect(reuse.generation == 2)
        #expect(chain.objects(5) == [0, 2])
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    @Test func movingTheCounterBackStepsOverEveryLiveGeneration() {
        let chain = TestChain(forcedCollisions: false)
        let handles = (0..<6).map { chain.acquire($0, order: UInt64($0 + 1)) }
        chain.release(handles[2], messages: []) // generation 3 is free again
        cdt_chain_debug_set_next_generation(chain.raw, 0) // 0 means 1
        let again = (0..<3).map { chain.acquire(10 + $0, order: UInt64(10 + $0)) }
        #expect(again.map(\.generation) == [3, 7, 8])
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    /// A dispatch holding a span of a released target: after the wrap its generation is not
    /// handed to the target that reuses its slot, so the held entry still reads as gone.
    @Test func aGenerationADispatchMayStillReadIsNotReissued() {
        let (chain, a, _) = TestChain.twoResponders(of: 4)
        cdt_chain_enter(chain.raw)
        let span = cdt_chain_lookup(chain.raw, 4)
        let held = span.entries[0]
        chain.release(a, messages: [4])
        cdt_chain_debug_set_next_generation(chain.raw, a.generation)
        let c = chain.acquire(3, order: 3)
        #expect(c.slot == a.slot) // the freed slot is reused...
        #expect(c.generation != a.generation) // ...under another generation
        #expect(cdt_chain_object(chain.raw, held) == nil)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_leave(chain.raw) == 1)
        cdt_chain_reclaim(chain.raw)
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    @Test func theCheckerFindsDuplicateAndReissuableGenerations() {
        let chain = TestChain(forcedCollisions: false)
        let a = chain.acquire(1, order: 1)
        let b = chain.acquire(2, order: 2)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        chain.raw.pointee.slots[Int(b.slot)].generation = a.generation
        #expect(chain.invariants == CDT_INVARIANT_GENERATION_DUPLICATE)
        chain.raw.pointee.slots[Int(b.slot)].generation = b.generation
        // The counter behind a live generation, with no skip list: it would issue it again.
        chain.raw.pointee.last_generation = 0
        #expect(chain.invariants == CDT_INVARIANT_GENERATION_REISSUE)
        chain.raw.pointee.last_generation = b.generation
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }
}
