import CDispatchTable
import Synchronization

// Entering and leaving a ConcurrentDelegateChain dispatch on the sending thread (see ReadSide.swift).

/// A dispatch that `enterConcurrentDispatch` announced: the thread's record, the dispatch's
/// nesting level on this thread (0 for the outermost) and, for the outermost, the epoch it
/// announced (`SnapshotCell.load(for:_:)` checks it).
@usableFromInline
struct AnnouncedDispatch {
    @usableFromInline let record: Unmanaged<ReaderRecord>
    @usableFromInline let level: Int
    @usableFromInline let epoch: UInt64

    @inlinable
    init(record: Unmanaged<ReaderRecord>, level: Int, epoch: UInt64) {
        self.record = record
        self.level = level
        self.epoch = epoch
    }
}

/// Enters a dispatch on this thread: announces it in the thread's record (the epoch on the
/// outermost dispatch, the chain at each level), then a light fence, so that the snapshot load
/// that follows is ordered after the announcement. No lock, no allocation (but the first
/// dispatch of a thread).
@inlinable @inline(__always)
func enterConcurrentDispatch(_ readSide: ReadSide, cell: SnapshotCell) -> AnnouncedDispatch {
    let record =
        cdt_thread_record().map { Unmanaged<ReaderRecord>.fromOpaque($0) }
        ?? readSide.registerCurrentThread()
    var epoch: UInt64 = 0
    let level = record._withUnsafeGuaranteedRef { record -> Int in
        let level = record.depth
        if level == 0 {
            // What each store orders (a reclaimer, after its heavy fence, loads the epoch, then
            // the chain slots, `.acquiring`; see `ReaderRecord.mayRead`):
            // - The epoch's `.releasing` store publishes `chain0`'s: a reclaimer that loads this
            //   dispatch's epoch then loads this chain (or a later one), never the one before.
            // - `chain0`'s own store must be `.releasing` too: it overwrites the chain of this
            //   thread's previous outermost dispatch, which its leave did not clear (it stored only
            //   `epoch = 0`). A `.relaxed` store may be performed before that dispatch's last loads
            //   of its snapshot are satisfied and before `epoch = 0` is visible (a later store
            //   passing an earlier load or release store: allowed on ARM, not on x86-TSO); in
            //   membarrier mode, where the light fences are compiler barriers, a reclaimer could
            //   then load the previous, still nonzero epoch with this chain, judge that the thread
            //   reads no snapshot of the previous chain, and release one it is still reading.
            //   `.releasing` orders every earlier load and store of this thread (the previous
            //   dispatch's reads and its `epoch = 0`) before it: a reclaimer that loads this chain
            //   finds the previous dispatch over. It costs no instruction on x86 (a plain `mov`)
            //   and is `stlr` instead of `str` on ARM. Re-checking the epoch in the reclaimer
            //   instead would not do: the reclaimer could load the previous epoch, this chain,
            //   and the previous epoch again, since nothing orders this store after `epoch = 0`.
            // - Nested levels (`enterNested`, `leaveNested`) store `chain1…3` `.releasing`, both
            //   on entering and on clearing: the clear is performed only after the nested
            //   dispatch's reads of its snapshot, and a new name only after those of the
            //   dispatch it replaces; the deep count (`deep`, `deepDispatches`) is changed by
            //   sequentially consistent read-modify-writes, ordered with every earlier access.
            // - The leave's `epoch = 0` is `.releasing`: performed only after the dispatch's reads.
            record.chain0.store(cell.address, ordering: .releasing)
            epoch = readSide.epoch.load(ordering: .acquiring)
            record.epoch.store(epoch, ordering: .releasing)
        } else {
            record.enterNested(cell: cell)
        }
        cdt_light_fence(readSide.asymmetric)
        record.depth = level &+ 1
        return level
    }
    return AnnouncedDispatch(record: record, level: level, epoch: epoch)
}

/// Leaves a dispatch of `cell`'s chain entered with `enterConcurrentDispatch`. On leaving the
/// outermost dispatch, releases the snapshots of that chain retired meanwhile, and those of
/// every chain a nested dispatch or a handler's mutation noted, if no thread still reads them:
/// so deinits they run (of removed strong targets) run outside every dispatch.
@inlinable @inline(__always)
func leaveConcurrentDispatch(_ readSide: ReadSide, _ dispatch: AnnouncedDispatch, cell: SnapshotCell) {
    let reclaim = dispatch.record._withUnsafeGuaranteedRef { record -> Bool in
        record.depth = dispatch.level
        if dispatch.level == 0 {
            let announced = record.epoch.load(ordering: .relaxed)
            // `.releasing`: performed only after this dispatch's reads of its snapshots. `chain0`
            // keeps naming the chain; the next outermost entry's `.releasing` store of `chain0`
            // is ordered after this one (see `enterConcurrentDispatch`).
            record.epoch.store(0, ordering: .releasing)
            cdt_light_fence(readSide.asymmetric)
            // A retirement since the announcement may have been held back by this thread.
            return cell.pending.load(ordering: .acquiring) != 0
                && readSide.epoch.load(ordering: .acquiring) != announced
        }
        record.leaveNested(cell: cell)
        cdt_light_fence(readSide.asymmetric)
        // Released by the outermost leave, outside every dispatch.
        if cell.pending.load(ordering: .acquiring) != 0 { record.deferReclaim(of: cell) }
        return false
    }
    if reclaim { cell.reclaim(readSide) }
    if dispatch.level == 0 { dispatch.record._withUnsafeGuaranteedRef { $0.runDeferredReclaims(readSide) } }
}

/// Whether a `ConcurrentDelegateChain` dispatch is running on this thread (we are in a handler).
func isInsideConcurrentDispatch() -> Bool {
    currentDispatchRecord() != nil
}

/// This thread's record while a `ConcurrentDelegateChain` dispatch runs on it; nil outside.
func currentDispatchRecord() -> ReaderRecord? {
    guard let pointer = cdt_thread_record() else { return nil }
    let record = Unmanaged<ReaderRecord>.fromOpaque(pointer).takeUnretainedValue()
    return record.depth != 0 ? record : nil
}
