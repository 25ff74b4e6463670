import CDispatchTable
import Testing

@Suite("Slot array")
struct SlotTests {
    @Test(arguments: [false, true])
    func releasedSlotIsNeverReachedByAStaleHandleOrEntry(forcedCollisions: Bool) {
        let chain = TestChain(forcedCollisions: forcedCollisions)
        let first = chain.acquire(1, order: 10)
        chain.insert(first, 7, handler: 1)
        let staleSpan = cdt_chain_lookup(chain.raw, 7)
        let staleEntry = staleSpan.entries[0]
        #expect(chain.release(first, messages: [7]) == TestChain.object(1))
        // The freed index is reused with a new generation.
        let second = chain.acquire(2, order: 20)
        #expect(second.slot == first.slot)
        #expect(second.generation != first.generation)
        #expect(cdt_chain_object(chain.raw, staleEntry) == nil)
        #expect(chain.release(first, messages: [7]) == nil)
        #expect(chain.stats.live_slots == 1)
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    @Test func generationsAreUniqueAcrossTheChain() {
        let chain = TestChain(forcedCollisions: false)
        var seen = Set<UInt32>()
        for round in 0..<50 {
            let handles = (0..<10).map { chain.acquire(round * 10 + $0, order: UInt64($0 + 1)) }
            for handle in handles { #expect(seen.insert(handle.generation).inserted) }
            for handle in handles { chain.release(handle, messages: []) }
        }
        #expect(chain.stats.live_slots == 0)
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    @Test func acquireRejectsANullObject() {
        let chain = TestChain(forcedCollisions: false)
        var handle = cdt_handle()
        #expect(cdt_chain_acquire(chain.raw, nil, 1, &handle) == -1)
        #expect(chain.stats.live_slots == 0)
    }

    @Test func compactionClosesGapsAndRemapsEntries() {
        let chain = TestChain(forcedCollisions: false)
        var handles = (0..<100).map { chain.acquire($0, order: UInt64($0 + 1) * 100) }
        for (i, handle) in handles.enumerated() { chain.insert(handle, 3, handler: i) }
        #expect(cdt_chain_compact(chain.raw) == 0) // nothing free yet
        let survivors = Set(stride(from: 0, to: 100, by: 5))
        for (i, handle) in handles.enumerated() where !survivors.contains(i) { chain.release(handle, messages: [3]) }
        let before = chain.stats
        #expect(cdt_chain_compact(chain.raw) == 1)
        let after = chain.stats
        #expect(after.slot_count == 20)
        #expect(after.slot_capacity < before.slot_capacity)
        #expect(chain.objects(3) == survivors.sorted())
        #expect(chain.responders(3).map(\.handler) == survivors.sorted())
        #expect(chain.invariants == CDT_INVARIANT_OK)
        // Handles are re-read from the slots, as an owner does after compaction.
        handles = []
        for index in 0..<Int(after.slot_count) {
            let slot = chain.raw.pointee.slots[index]
            handles.append(cdt_handle(slot: UInt32(index), generation: slot.generation))
        }
        for handle in handles { chain.release(handle, messages: [3]) }
        #expect(chain.stats.live_slots == 0)
        #expect(chain.stats.entries == 0)
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    @Test func entriesFollowTheSlotArrayWhenItGrowsDuringADispatch() {
        let chain = TestChain(forcedCollisions: false)
        let handles = (0..<4).map { chain.acquire($0, order: UInt64($0 + 1) * 10) }
        for (i, handle) in handles.enumerated() { chain.insert(handle, 5, handler: i) }
        cdt_chain_enter(chain.raw)
        let held = cdt_chain_lookup(chain.raw, 5)
        // A responder added while the dispatch is inside retires the array the dispatch reads.
        chain.insert(chain.acquire(4, order: 50), 5, handler: 4)
        #expect(chain.stats.retired_blocks == 1)
        let before = chain.raw.pointee.slots
        for n in 5..<40 { _ = chain.acquire(n, order: UInt64(n + 1) * 10) }
        let slots = chain.raw.pointee.slots!
        #expect(slots != before)
        // The retired array's entries point into the new slot array, still live.
        for i in 0..<held.count {
            let entry = held.entries[i]
            #expect(entry.slot_address == UnsafePointer(slots + Int(entry.slot)))
            #expect(entry.slot_address.pointee.generation == entry.generation)
        }
        #expect(chain.objects(5) == [0, 1, 2, 3, 4])
        #expect(chain.invariants == CDT_INVARIANT_OK) // the table's entries point there too
        #expect(cdt_chain_leave(chain.raw) == 1)
        cdt_chain_reclaim(chain.raw)
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }

    @Test func compactionWaitsWhileADispatchIsInside() {
        let chain = TestChain(forcedCollisions: false)
        let handles = (0..<64).map { chain.acquire($0, order: UInt64($0 + 1)) }
        for handle in handles.dropFirst(4) { chain.release(handle, messages: []) }
        cdt_chain_enter(chain.raw)
        #expect(cdt_chain_compact(chain.raw) == 0)
        _ = cdt_chain_leave(chain.raw)
        #expect(cdt_chain_compact(chain.raw) == 1)
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }
}
