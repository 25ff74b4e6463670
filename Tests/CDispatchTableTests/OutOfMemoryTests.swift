import CDispatchTable
import Testing

/// Each allocation site of the chain, failed on purpose with `cdt_debug_fail_allocation_after`
/// (thread-local, so parallel tests are unaffected): the operation reports the failure and the
/// chain stays as it was, or (a release during a dispatch) completes without the allocation.
@Suite("Out of memory")
struct OutOfMemoryTests {
    /// Runs `body` with the `after`-th allocation failing; returns whether that failure happened.
    private func failing<T>(after: Int64 = 0, _ body: () -> T) -> (T, failed: Bool) {
        _ = cdt_debug_fail_allocation_after(after)
        let result = body()
        return (result, cdt_debug_fail_allocation_after(-1) == -1)
    }

    @Test func createReportsNil() {
        let (chain, failed) = failing { cdt_chain_create() }
        #expect(failed)
        #expect(chain == nil)
    }

    /// A chain initialized in its owner's storage allocates nothing, so that step cannot fail; nor
    /// do its first acquisition and entry (the arrays inside the chain), and deinit leaves them.
    @Test func initInPlaceAllocatesNothing() {
        let storage = UnsafeMutablePointer<cdt_chain>.allocate(capacity: 1)
        defer { storage.deallocate() }
        let (_, failed) = failing { cdt_chain_init(storage) }
        #expect(!failed)
        #expect(storage.pointee.slots == nil && storage.pointee.buckets == nil)
        var handle = cdt_handle()
        let (_, firstUseFailed) = failing {
            #expect(cdt_chain_acquire(storage, TestChain.object(1), 1, &handle) == 0)
            #expect(cdt_chain_insert_entry(storage, handle, 3, TestChain.handler(1)) == 0)
        }
        #expect(!firstUseFailed)
        #expect(cdt_chain_lookup(storage, 3).count == 1)
        #expect(cdt_chain_check_invariants(storage) == CDT_INVARIANT_OK)
        cdt_chain_deinit(storage)
    }

    /// The first acquisition takes the chain's inline slot and cannot fail; the second moves the
    /// slots to the heap, and failing that changes nothing.
    @Test func acquireFailsAndChangesNothing() {
        let chain = TestChain(forcedCollisions: false)
        let a = chain.acquire(1, order: 1)
        chain.insert(a, 3, handler: 1)
        let inline = chain.raw.pointee.slots
        var handle = cdt_handle()
        let (rc, failed) = failing { cdt_chain_acquire(chain.raw, TestChain.object(2), 2, &handle) }
        #expect(failed)
        #expect(rc == -1)
        #expect(chain.stats.live_slots == 1)
        #expect(chain.stats.slot_capacity == 1)
        #expect(chain.raw.pointee.slots == inline)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(chain.acquire(2, order: 2).generation == 2)
        #expect(chain.objects(3) == [1])
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    /// A message's first entry goes into the chain's inline arrays and cannot fail; a second
    /// message needs a heap bucket array (allocation 0) and entry array (allocation 1), and
    /// failing either changes nothing, during a dispatch too.
    @Test(arguments: [Int64(0), 1], [false, true])
    func insertFailsAndChangesNothing(after: Int64, dispatching: Bool) {
        let chain = TestChain(forcedCollisions: false)
        let a = chain.acquire(1, order: 1)
        let (first, firstFailed) = failing { cdt_chain_insert_entry(chain.raw, a, 3, TestChain.handler(1)) }
        #expect(!firstFailed)
        #expect(first == 0)
        let buckets = chain.raw.pointee.buckets
        if dispatching { cdt_chain_enter(chain.raw) }
        let (rc, failed) = failing(after: after) { cdt_chain_insert_entry(chain.raw, a, 4, TestChain.handler(2)) }
        #expect(failed)
        #expect(rc == -1)
        #expect(chain.stats.entries == 1)
        #expect(chain.stats.messages == 1)
        // Failing the entry array (allocation 1) leaves the grown, still valid, bucket array.
        if after == 0 { #expect(chain.raw.pointee.buckets == buckets) }
        #expect(chain.invariants == CDT_INVARIANT_OK)
        chain.insert(a, 4, handler: 2)
        #expect(chain.objects(3) == [1])
        #expect(chain.objects(4) == [1])
        if dispatching {
            _ = cdt_chain_leave(chain.raw)
            cdt_chain_reclaim(chain.raw)
        }
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    /// A second responder moves a message's entries out of the chain's inline array: failing that
    /// changes nothing (the inline array stays in use), during a dispatch too.
    @Test(arguments: [false, true])
    func leavingTheInlineEntryArrayFailsAndChangesNothing(dispatching: Bool) {
        let chain = TestChain(forcedCollisions: false)
        let a = chain.acquire(1, order: 1)
        chain.insert(a, 3, handler: 1)
        let b = chain.acquire(2, order: 2)
        let inline = cdt_chain_lookup(chain.raw, 3).entries
        if dispatching { cdt_chain_enter(chain.raw) }
        let (rc, failed) = failing { cdt_chain_insert_entry(chain.raw, b, 3, TestChain.handler(2)) }
        #expect(failed)
        #expect(rc == -1)
        #expect(cdt_chain_lookup(chain.raw, 3).entries == inline)
        #expect(chain.objects(3) == [1])
        #expect(chain.stats.retired_blocks == 0)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        chain.insert(b, 3, handler: 2)
        #expect(chain.objects(3) == [1, 2])
        if dispatching {
            #expect(chain.stats.retired_blocks == 1) // the inline array, read by the dispatch
            _ = cdt_chain_leave(chain.raw)
            cdt_chain_reclaim(chain.raw)
        }
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    @Test func aRemovalDuringADispatchFailsAndChangesNothing() {
        let (chain, a, b) = TestChain.twoResponders(of: 3)
        cdt_chain_enter(chain.raw)
        let (rc, failed) = failing { cdt_chain_remove_entry(chain.raw, a, 3) }
        #expect(failed)
        #expect(rc == -1)
        #expect(chain.objects(3) == [1, 2])
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_remove_entry(chain.raw, a, 3) == 0)
        #expect(chain.objects(3) == [2])
        _ = cdt_chain_leave(chain.raw)
        cdt_chain_reclaim(chain.raw)
        // At depth 0 a removal never needs memory.
        let (again, _) = failing { cdt_chain_remove_entry(chain.raw, b, 3) }
        #expect(again == 0)
        #expect(chain.objects(3) == [])
    }

    /// The one operation that cannot refuse: the target is skipped at once, its entries stay
    /// behind as orphans until the outermost dispatch leaves, and then they are purged.
    @Test(arguments: [false, true])
    func aReleaseDuringADispatchAlwaysTakesEffect(forcedCollisions: Bool) {
        let chain = TestChain(forcedCollisions: forcedCollisions)
        let handles = (0..<4).map { chain.acquire($0, order: UInt64($0 + 1)) }
        for (i, handle) in handles.enumerated() {
            chain.insert(handle, 3, handler: i)
            chain.insert(handle, 4, handler: 10 + i)
        }
        cdt_chain_enter(chain.raw)
        let span = cdt_chain_lookup(chain.raw, 3)
        let before = (0..<span.count).map { span.entries[$0].generation }
        let (object, failed) = failing { chain.release(handles[1], messages: [3, 4]) }
        #expect(failed)
        #expect(object == TestChain.object(1))
        #expect(chain.stats.orphaned_entries == 1)
        #expect(chain.stats.live_slots == 3)
        #expect(chain.objects(3) == [0, 2, 3])
        #expect(chain.objects(4) == [0, 2, 3])
        #expect((0..<span.count).map { span.entries[$0].generation } == before)
        #expect(cdt_chain_object(chain.raw, span.entries[1]) == nil)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        // The chain keeps working around the orphan: a new target takes the freed slot.
        let added = chain.acquire(7, order: 2)
        #expect(added.slot == handles[1].slot)
        chain.insert(added, 3, handler: 7)
        #expect(chain.objects(3) == [0, 7, 2, 3])
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_leave(chain.raw) == 1)
        cdt_chain_reclaim(chain.raw)
        #expect(chain.stats.orphaned_entries == 0)
        #expect(chain.stats.entries == 7)
        #expect(chain.responders(3).map(\.handler) == [0, 7, 2, 3])
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    @Test func compactionFailsAndChangesNothing() {
        let chain = TestChain(forcedCollisions: false)
        let handles = (0..<64).map { chain.acquire($0, order: UInt64($0 + 1)) }
        for handle in handles { chain.insert(handle, 2, handler: Int(handle.slot)) }
        for handle in handles.dropFirst(8) { chain.release(handle, messages: [2]) }
        let (moved, failed) = failing { cdt_chain_compact(chain.raw) }
        #expect(failed)
        #expect(moved == 0)
        #expect(chain.stats.slot_count == 64)
        #expect(chain.invariants == CDT_INVARIANT_OK)
        #expect(cdt_chain_compact(chain.raw) == 1)
        #expect(chain.objects(2) == Array(0..<8))
    }

    @Test func theWrapFailsCleanlyWithoutMemoryForItsSkipList() {
        let chain = TestChain(forcedCollisions: false)
        let a = chain.acquire(1, order: 1)
        // The slot array's growth past its inline slot, out of the way (generation 2 is free again).
        chain.release(chain.acquire(9, order: 9), messages: [])
        cdt_chain_debug_set_next_generation(chain.raw, UInt32.max)
        var handle = cdt_handle()
        let (rc, failed) = failing { cdt_chain_acquire(chain.raw, TestChain.object(2), 2, &handle) }
        #expect(failed)
        #expect(rc == -1)
        #expect(chain.stats.live_slots == 1)
        #expect(chain.acquire(2, order: 2).generation == UInt32.max)
        // The wrap itself: the skip list (generation 1 is live) cannot be allocated.
        let (wrapped, wrapFailed) = failing { cdt_chain_acquire(chain.raw, TestChain.object(3), 3, &handle) }
        #expect(wrapFailed)
        #expect(wrapped == -1)
        #expect(chain.acquire(3, order: 3).generation == 2)
        #expect(a.generation == 1)
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }
}
