import CDispatchTable
import Testing

/// Each 32-bit growth of the C core stops at its limit and fails as out of memory does there,
/// instead of wrapping: reached through `cdt_debug_set_capacity_limit`, which caps the calling
/// thread's growths (thread-local, so parallel tests are unaffected).
@Suite("Capacity limits")
struct CapacityLimitTests {
    /// Runs `body` with this thread's growths capped at `limit`.
    private func capped<T>(at limit: UInt32, _ body: () -> T) -> T {
        let previous = cdt_debug_set_capacity_limit(limit)
        defer { _ = cdt_debug_set_capacity_limit(previous) }
        return body()
    }

    private func intern(_ name: String) -> cdt_intern_status {
        var id: UInt32 = 0
        return name.utf8CString.withUnsafeBufferPointer {
            cdt_intern($0.baseAddress, $0.count - 1, UnsafeRawPointer(bitPattern: 0x3000), "Sig", &id)
        }
    }

    /// Ids stop at the record limit: a new name past it is refused, and nothing changes.
    @Test func theInternerRefusesARecordPastItsLimit() {
        #expect(intern("capacity.record.first") == CDT_INTERN_OK) // a count of 0 would disarm the cap
        let count = cdt_intern_count()
        let status = capped(at: count) { intern("capacity.record.\(count)") }
        #expect(status == CDT_INTERN_NO_MEMORY)
        #expect(intern("capacity.record.\(count)") == CDT_INTERN_OK) // uncapped, it fits
    }

    /// The hash index stops doubling at its limit: the name that needs the index to double
    /// past it is refused, while the records still have room.
    @Test func theInternerRefusesToDoubleItsIndexPastItsLimit() {
        var refusedBelowRecordLimit = false
        #expect(intern("capacity.index.first") == CDT_INTERN_OK) // the index exists (0 would disarm the cap)
        capped(at: cdt_debug_intern_index_capacity()) {
            for n in 0..<(1 << 22) {
                let limit = cdt_debug_intern_index_capacity()
                if intern("capacity.index.\(n).\(limit)") == CDT_INTERN_NO_MEMORY {
                    refusedBelowRecordLimit = cdt_intern_count() < limit
                    break
                }
            }
        }
        #expect(refusedBelowRecordLimit)
    }

    /// A message's entry array stops growing at its limit: the insert that needs more fails,
    /// and the chain is as it was.
    @Test func aMessageRefusesAnEntryPastItsLimit() {
        let chain = TestChain(forcedCollisions: false)
        let handles = (0..<5).map { chain.acquire($0, order: UInt64($0 + 1)) }
        let codes = capped(at: 4) {
            handles.map { cdt_chain_insert_entry(chain.raw, $0, 2, TestChain.handler(Int($0.slot))) }
        }
        #expect(codes == [0, 0, 0, 0, -1])
        #expect(chain.objects(2) == Array(0..<4))
        #expect(chain.invariants == CDT_INVARIANT_OK)
        chain.insert(handles[4], 2, handler: 4)
        #expect(chain.objects(2) == Array(0..<5))
    }

    /// Compaction's new slot array past its limit: the gaps close, and the larger array stays.
    @Test func compactionKeepsTheLargerArrayPastItsLimit() {
        let chain = TestChain(forcedCollisions: false)
        let handles = (0..<64).map { chain.acquire($0, order: UInt64($0 + 1)) }
        for handle in handles { chain.insert(handle, 2, handler: Int(handle.slot)) }
        for handle in handles.dropFirst(10) { chain.release(handle, messages: [2]) }
        let capacity = chain.stats.slot_capacity
        let moved = capped(at: 16) { cdt_chain_compact(chain.raw) }
        #expect(moved == 1)
        #expect(chain.stats.slot_count == 10)
        #expect(chain.stats.slot_capacity == capacity)
        #expect(chain.objects(2) == Array(0..<10))
        #expect(chain.invariants == CDT_INVARIANT_OK)
    }
}
