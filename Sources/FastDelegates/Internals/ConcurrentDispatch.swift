import CDispatchTable
import Synchronization

// Entering and leaving a ConcurrentDelegateChain dispatch on the sending thread (see ReadSide.swift).

/// A dispatch that `enterConcurrentDispatch` announced: the thread's record and the dispatch's
/// nesting level on this thread (0 for the outermost).
@usableFromInline
struct AnnouncedDispatch {
    @usableFromInline let record: Unmanaged<ReaderRecord>
    @usableFromInline let level: Int

    @inlinable
    init(record: Unmanaged<ReaderRecord>, level: Int) {
        self.record = record
        self.level = level
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
    let level = record._withUnsafeGuaranteedRef { record -> Int in
        let level = record.depth
        if level == 0 {
            // The epoch's store publishes the chain's (a reclaimer loads the epoch first).
            record.chain0.store(cell.address, ordering: .relaxed)
            record.epoch.store(readSide.epoch.load(ordering: .acquiring), ordering: .releasing)
        } else {
            record.enterNested(cell: cell)
        }
        cdt_light_fence(readSide.asymmetric)
        record.depth = level &+ 1
        return level
    }
    return AnnouncedDispatch(record: record, level: level)
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
