import CDispatchTable
import Testing

/// The first arrays inside the chain (`CDT_INLINE_SLOTS`, cdt_chain.h): a chain of one target
/// answering one message allocates nothing, and grows to the heap as before, also during a
/// dispatch, without rewriting an array the dispatch reads.
@Suite("Inline arrays")
struct InlineArrayTests {
    /// How many allocations of the C core `body` makes (counted with the failure hook's countdown).
    private func allocations(_ body: () -> Void) -> Int64 {
        let budget: Int64 = 1 << 40
        _ = cdt_debug_fail_allocation_after(budget)
        body()
        return budget - cdt_debug_fail_allocation_after(-1)
    }

    /// Whether `pointer` lies inside the chain's own storage.
    private func isInside(_ chain: TestChain, _ pointer: UnsafeRawPointer?) -> Bool {
        guard let pointer else { return false }
        let start = UnsafeRawPointer(chain.raw)
        return pointer >= start && pointer < start + MemoryLayout<cdt_chain>.size
    }

    @Test func oneTargetAnsweringOneMessageAllocatesNothing() {
        let chain = TestChain(forcedCollisions: false)
        let count = allocations {
            let a = chain.acquire(1, order: 1)
            chain.insert(a, 3, handler: 1)
            cdt_chain_set_target(chain.raw, a, TestChain.object(1), CDT_TARGET_STRONG)
            cdt_chain_enter(chain.raw)
            #expect(chain.objects(3) == [1])
            #expect(cdt_chain_leave(chain.raw) == 0)
            // Released and added again: the inline arrays are used again.
            chain.release(a, messages: [3])
            let b = chain.acquire(2, order: 2)
            chain.insert(b, 4, handler: 2)
            chain.insert(b, 4, handler: 3) // replaced in place
            #expect(chain.responders(4).map(\.handler) == [3])
            #expect(cdt_chain_remove_entry(chain.raw, b, 4) == 0)
            chain.insert(b, 5, handler: 4)
        }
        #expect(count == 0)
        #expect(isInside(chain, chain.raw.pointee.slots))
        #expect(isInside(chain, chain.raw.pointee.buckets))
        #expect(isInside(chain, cdt_chain_lookup(chain.raw, 5).entries))
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    /// Past one target, one message or one responder, the arrays move to the heap (the sizes
    /// they always had: TableTests), and the inline arrays are left.
    @Test func growingLeavesTheInlineArraysForTheHeap() {
        let chain = TestChain(forcedCollisions: false)
        let a = chain.acquire(1, order: 1)
        chain.insert(a, 3, handler: 1)
        let b = chain.acquire(2, order: 2)
        #expect(!isInside(chain, chain.raw.pointee.slots))
        chain.insert(b, 3, handler: 2)
        #expect(!isInside(chain, cdt_chain_lookup(chain.raw, 3).entries))
        chain.insert(a, 4, handler: 3) // the inline entry array, free again, takes message 4
        #expect(!isInside(chain, chain.raw.pointee.buckets))
        #expect(isInside(chain, cdt_chain_lookup(chain.raw, 4).entries))
        chain.insert(b, 5, handler: 4) // taken: a heap array
        #expect(!isInside(chain, cdt_chain_lookup(chain.raw, 5).entries))
        #expect(chain.objects(3) == [1, 2])
        #expect(chain.objects(4) == [1])
        #expect(chain.objects(5) == [2])
        #expect(chain.invariants == CDT_INVARIANT_OK)
        // Shrunk back to 2 buckets, the table takes its inline array again.
        for (handle, message) in [(a, 3), (b, 3), (a, 4), (b, 5)] as [(cdt_handle, UInt32)] {
            #expect(cdt_chain_remove_entry(chain.raw, handle, message) == 0)
        }
        #expect(chain.stats.bucket_capacity == 4) // one halving per removal, 8 to 4
        chain.insert(a, 6, handler: 5)
        #expect(cdt_chain_remove_entry(chain.raw, a, 6) == 0)
        #expect(chain.stats.bucket_capacity == 2)
        #expect(isInside(chain, chain.raw.pointee.buckets))
        chain.insert(b, 7, handler: 6)
        #expect(chain.objects(7) == [2])
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    /// During a dispatch that reads the inline entry array, a chain grows out of every inline
    /// array: the span the dispatch holds stays as it was (its slot addresses following the
    /// slots to the heap), and the inline entry array is not handed out again until the
    /// dispatch has left.
    @Test func growingDuringADispatchKeepsTheSpanItReads() {
        let chain = TestChain(forcedCollisions: false)
        let a = chain.acquire(1, order: 1)
        chain.insert(a, 3, handler: 1)
        cdt_chain_enter(chain.raw)
        let held = cdt_chain_lookup(chain.raw, 3)
        #expect(isInside(chain, held.entries))
        let seen = held.entries[0]
        let b = chain.acquire(2, order: 2) // the slots move to the heap
        chain.insert(b, 3, handler: 2) // a copy: the inline entry array is retired
        chain.insert(a, 4, handler: 3) // the buckets move to the heap, the new array too
        chain.insert(b, 5, handler: 4)
        chain.release(a, messages: [3, 4])
        let c = chain.acquire(3, order: 3) // takes a's slot, with a new generation
        #expect(c.slot == a.slot)
        chain.insert(c, 6, handler: 5)
        #expect(!isInside(chain, chain.raw.pointee.slots))
        #expect(!isInside(chain, chain.raw.pointee.buckets))
        for message: UInt32 in [3, 5, 6] { #expect(!isInside(chain, cdt_chain_lookup(chain.raw, message).entries)) }
        #expect(chain.stats.retired_blocks == 1)
        let now = held.entries[0]
        #expect(held.count == 1)
        #expect(now.slot == seen.slot && now.generation == seen.generation && now.handler == seen.handler)
        #expect(now.slot_address == UnsafePointer(chain.raw.pointee.slots + Int(now.slot)))
        #expect(cdt_chain_object(chain.raw, now) == nil) // a was released: the dispatch skips it
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_leave(chain.raw) == 1)
        cdt_chain_reclaim(chain.raw)
        #expect(chain.stats.retired_blocks == 0)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        // Given back by the reclaim: the next message's first array is the inline one.
        let count = allocations { chain.insert(c, 7, handler: 6) }
        #expect(count == 0)
        #expect(isInside(chain, cdt_chain_lookup(chain.raw, 7).entries))
        #expect(chain.objects(3) == [2])
        #expect(chain.objects(5) == [2])
        #expect(chain.objects(6) == [3])
        #expect(chain.objects(7) == [3])
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    /// A copy made in the open copy window is freed at once when replaced at that depth (no
    /// dispatch reads it): the inline entry array made as such a copy is handed out again in the
    /// same window, while the array the dispatch reads stays retired.
    @Test func anInlineCopyInTheWindowIsUsedAgainAtOnce() {
        let chain = TestChain(forcedCollisions: false)
        let a = chain.acquire(1, order: 1)
        chain.insert(a, 3, handler: 1) // the inline entry array
        chain.insert(a, 4, handler: 2) // a heap array of 1
        #expect(cdt_chain_remove_entry(chain.raw, a, 3) == 0) // the inline array is free again
        cdt_chain_enter(chain.raw)
        let held = cdt_chain_lookup(chain.raw, 4)
        #expect(!isInside(chain, held.entries))
        chain.insert(a, 4, handler: 3) // copy-on-write, into the inline array
        #expect(isInside(chain, cdt_chain_lookup(chain.raw, 4).entries))
        #expect(chain.stats.retired_blocks == 1)
        #expect(cdt_chain_remove_entry(chain.raw, a, 4) == 0) // the copy is freed at once
        chain.insert(a, 5, handler: 4)
        #expect(isInside(chain, cdt_chain_lookup(chain.raw, 5).entries))
        #expect(chain.stats.retired_blocks == 1)
        #expect(held.count == 1 && held.entries[0].handler == TestChain.handler(2))
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_leave(chain.raw) == 1)
        cdt_chain_reclaim(chain.raw)
        #expect(chain.objects(4) == [])
        #expect(chain.responders(5).map(\.handler) == [4])
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    /// The invariant check knows the inline arrays: the entry array marked taken while no one
    /// holds it is reported.
    @Test func theInvariantCheckSeesTheInlineEntryArray() {
        let chain = TestChain(forcedCollisions: false)
        let a = chain.acquire(1, order: 1)
        chain.insert(a, 3, handler: 1)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_remove_entry(chain.raw, a, 3) == 0)
        #expect(chain.raw.pointee.inline_entries_taken == 0)
        chain.raw.pointee.inline_entries_taken = 1
        #expect(chain.invariants == CDT_INVARIANT_INLINE_ARRAYS)
        chain.raw.pointee.inline_entries_taken = 0
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }
}
