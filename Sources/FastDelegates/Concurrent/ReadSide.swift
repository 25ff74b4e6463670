import CDispatchTable
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The read side of every ConcurrentDelegateChain: epoch-based reclamation of snapshots.
//
// A send announces itself in its *own thread's* record (one store of the global epoch on
// entering the outermost dispatch, one store of 0 on leaving it), then reads the chain's current
// snapshot pointer without retaining it. Nothing a send writes is written by a send on another
// thread, so two sending cores trade no cache line; the global epoch and a chain's retired count
// are written only by mutations and read by sends.
//
// A writer swaps in a new snapshot and *retires* the old one with a fresh epoch E (the global
// epoch, advanced after the swap). The old snapshot is released once every thread is either
// outside any dispatch of that chain or announced an epoch >= E: such a thread entered after the
// swap, so it read the new pointer. A record names the chains its thread is dispatching in
// (one per nesting level, up to `trackedDepth`; deeper, it holds back every chain's snapshots),
// so a long handler of one chain never delays the release of another chain's snapshots. All the announcing, swapping and scanning operations are sequentially
// consistent, so a thread that read the old pointer announced before the swap, and the scan
// (after the swap) sees that announcement until the thread leaves. The writer never waits for a
// reader: a snapshot still in use stays retired, and the last thread to leave a dispatch of
// that chain that overlapped the retirement releases it (on leaving its outermost dispatch, a
// deinit that runs then, of a removed strong target, runs outside every dispatch).

/// One thread's read-side state. Padded so that no other object's frequently written memory
/// shares a cache line with `epoch`.
@usableFromInline
final class ReaderRecord: @unchecked Sendable {
    private let leadingPad: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0)
    /// 0 outside any dispatch; inside, the global epoch read on entering the outermost one.
    @usableFromInline
    let epoch = Atomic<UInt64>(0)
    /// How many `ConcurrentDelegateChain` dispatches (of any chain) run on the owning thread.
    /// Only the owning thread touches it.
    @usableFromInline @exclusivity(unchecked)
    var depth = 0
    /// The cell of the chain dispatched at each nesting level (0 for none), up to `trackedDepth`.
    @usableFromInline
    let chain0 = Atomic<UInt>(0)
    @usableFromInline
    let chain1 = Atomic<UInt>(0)
    @usableFromInline
    let chain2 = Atomic<UInt>(0)
    @usableFromInline
    let chain3 = Atomic<UInt>(0)
    /// Nonzero while the thread is nested deeper than `trackedDepth`: it holds back every chain.
    @usableFromInline
    let deep = Atomic<Int>(0)
    /// Whether a live thread owns this record (records of ended threads are reused).
    let owned = Atomic<Bool>(true)
    private let trailingPad: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0)

    init() {}

    /// Whether this record's thread may be reading a snapshot of the chain whose cell is `cell`,
    /// retired at `epoch`.
    func mayRead(cell: UInt, retiredAt epoch: UInt64) -> Bool {
        let announced = self.epoch.load(ordering: .sequentiallyConsistent)
        guard announced != 0, announced < epoch else { return false }
        if deep.load(ordering: .sequentiallyConsistent) != 0 { return true }
        return chain0.load(ordering: .sequentiallyConsistent) == cell
            || chain1.load(ordering: .sequentiallyConsistent) == cell
            || chain2.load(ordering: .sequentiallyConsistent) == cell
            || chain3.load(ordering: .sequentiallyConsistent) == cell
    }
}

/// How many nesting levels of dispatch a `ReaderRecord` names chains for.
@usableFromInline
let trackedDepth = 4

/// The process-wide part of the read side: the epoch and every thread's record (each chain's
/// `SnapshotCell` keeps its own retired snapshots). One instance (`shared`); each chain keeps a
/// reference so a send reaches it without a lazy-global check.
@usableFromInline
final class ReadSide: Sendable {
    static let shared = ReadSide()

    /// Advanced by every retirement. Starts at 1: 0 in a record means "outside".
    @usableFromInline
    let epoch = Atomic<UInt64>(1)
    private let records = HandoffMutex<[ReaderRecord]>([])

    /// Releases a thread's record when the thread ends, so a new thread can reuse it.
    private let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            let record = Unmanaged<ReaderRecord>.fromOpaque(pointer).takeUnretainedValue()
            cdt_thread_set_record(nil)
            // A thread that ends inside a handler keeps its record announced (and reserved).
            if record.depth == 0 { record.owned.store(false, ordering: .releasing) }
        }
        precondition(created == 0, "FastDelegates: no pthread key for the reader records")
        return key
    }()

    private init() {}

    /// This thread's record, made or reused on its first dispatch.
    @usableFromInline @inline(never)
    func registerCurrentThread() -> Unmanaged<ReaderRecord> {
        let record = records.withLock { records -> Unchecked<ReaderRecord> in
            for record in records
            where record.owned.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                return Unchecked(record)
            }
            let record = ReaderRecord()
            records.append(record)
            return Unchecked(record)
        }.value
        let pointer = Unmanaged.passUnretained(record).toOpaque()
        cdt_thread_set_record(pointer)
        pthread_setspecific(threadKey, pointer)
        return Unmanaged.passUnretained(record)
    }

    /// Whether some thread may still be reading a snapshot of the chain whose cell is `cell`,
    /// retired at `epoch`.
    func isRead(cell: UInt, retiredAt epoch: UInt64) -> Bool {
        records.withLock { records in
            records.contains { $0.mayRead(cell: cell, retiredAt: epoch) }
        }
    }
}

// MARK: - Entering and leaving a dispatch

/// Enters a dispatch on this thread: announces it in the thread's record (outermost dispatch
/// only). No lock, no allocation (but the first dispatch of a thread).
/// `cell` is the address of the chain's `SnapshotCell`.
@inlinable @inline(__always)
func enterConcurrentDispatch(_ readSide: ReadSide, cell: UInt) -> Unmanaged<ReaderRecord> {
    let record =
        cdt_thread_record().map { Unmanaged<ReaderRecord>.fromOpaque($0) }
        ?? readSide.registerCurrentThread()
    record._withUnsafeGuaranteedRef { record in
        // Sequentially consistent announcements: ordered before the snapshot load.
        switch record.depth {
        case 0:
            // The epoch's store publishes the chain's (a reclaimer loads the epoch first).
            record.chain0.store(cell, ordering: .relaxed)
            record.epoch.store(
                readSide.epoch.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
        case 1: record.chain1.store(cell, ordering: .sequentiallyConsistent)
        case 2: record.chain2.store(cell, ordering: .sequentiallyConsistent)
        case 3: record.chain3.store(cell, ordering: .sequentiallyConsistent)
        default: record.deep.add(1, ordering: .sequentiallyConsistent)
        }
        record.depth &+= 1
    }
    return record
}

/// Leaves a dispatch of `cell`'s chain entered with `enterConcurrentDispatch`; then releases
/// the snapshots of that chain retired meanwhile if no thread still reads them (on leaving the
/// outermost dispatch, so that deinits it runs run outside every dispatch).
@inlinable @inline(__always)
func leaveConcurrentDispatch(_ readSide: ReadSide, _ record: Unmanaged<ReaderRecord>, cell: SnapshotCell) {
    let reclaim = record._withUnsafeGuaranteedRef { record -> Bool in
        record.depth &-= 1
        switch record.depth {
        case 0:
            let announced = record.epoch.load(ordering: .relaxed)
            record.epoch.store(0, ordering: .sequentiallyConsistent)
            // A retirement since the announcement may have been held back by this thread.
            return cell.pending.load(ordering: .sequentiallyConsistent) != 0
                && readSide.epoch.load(ordering: .sequentiallyConsistent) != announced
        case 1: record.chain1.store(0, ordering: .sequentiallyConsistent)
        case 2: record.chain2.store(0, ordering: .sequentiallyConsistent)
        case 3: record.chain3.store(0, ordering: .sequentiallyConsistent)
        default: record.deep.subtract(1, ordering: .sequentiallyConsistent)
        }
        return cell.pending.load(ordering: .sequentiallyConsistent) != 0
    }
    if reclaim { cell.reclaim(readSide) }
}

/// Whether a `ConcurrentDelegateChain` dispatch is running on this thread (we are in a handler).
func isInsideConcurrentDispatch() -> Bool {
    guard let pointer = cdt_thread_record() else { return false }
    return Unmanaged<ReaderRecord>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.depth != 0 }
}
