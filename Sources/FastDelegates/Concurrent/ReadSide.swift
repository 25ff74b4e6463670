import CDispatchTable
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The read side of every ConcurrentDelegateChain: epoch-based reclamation of snapshots, and
// the announcement of each handler call, both in the sending thread's own record.
//
// A send announces itself in its *own thread's* record (one store of the global epoch on
// entering the outermost dispatch, one store of 0 on leaving it), then reads the chain's current
// snapshot pointer without retaining it. Before each handler call it names the call's
// registration in the record's call slot for its nesting level, then checks the registration's
// `removed` flag; after the call it clears the slot. Nothing a send writes is written by a send
// on another thread, so two sending cores trade no cache line; the global epoch, a chain's
// retired count and a record's count of waiting removers are written only by mutations and
// read by sends.
//
// A writer swaps in a new snapshot and *retires* the old one with a fresh epoch E (the global
// epoch, advanced after the swap). The old snapshot is released once every thread is either
// outside any dispatch of that chain or announced an epoch >= E: such a thread entered after the
// swap, so it read the new pointer. A record names the chains its thread is dispatching in
// (one per nesting level, up to `trackedDepth`; deeper, a count in the record and in the chain),
// so a long handler of one chain never delays the release of another chain's snapshots. The
// writer never waits for a reader: a snapshot still in use stays retired, and the last thread
// to leave a dispatch of that chain that overlapped the retirement releases it (on leaving its
// outermost dispatch, a deinit that runs then, of a removed strong target, runs outside every
// dispatch). A remover sets `removed`, then scans the call slots and waits until no slot names
// the registration (see `CallWait.swift`).
//
// Both protocols are Dekker's pattern: each side stores, fences, then loads what the other side
// stores. The send side's fence is `cdt_light_fence`, the mutation side's is `cdt_heavy_fence`
// (`withFencedRecords`): where the OS offers a process-wide barrier (Linux `membarrier`), the
// light fence is only a compiler barrier, so a send makes no locked instruction and no hardware
// fence of its own; each mutation pays one system call instead (none while no other thread has
// a record). Either way, a scan after the heavy fence sees every announcement a reader made
// before its last light fence, and a reader's load after its light fence sees every store a
// writer made before the heavy fence.

/// The size, in bytes, of the unit of cache coherence (what two cores writing near each other
/// contend for) on a CPU architecture: 128 on 64-bit ARM (Apple Silicon's cache lines; on other
/// ARM cores it covers the pair of lines their prefetchers fetch together), 64 elsewhere.
func cacheLineBytes(arm64: Bool) -> Int {
    arm64 ? 128 : 64
}

#if arch(arm64)
/// The cache line size of the architecture this is built for.
let cacheLineSize = cacheLineBytes(arm64: true)
/// Fills one cache line (``cacheLineSize`` bytes).
typealias CacheLinePad = (
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
)
let cacheLinePadding: CacheLinePad = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#else
/// The cache line size of the architecture this is built for.
let cacheLineSize = cacheLineBytes(arm64: false)
/// Fills one cache line (``cacheLineSize`` bytes).
typealias CacheLinePad = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
let cacheLinePadding: CacheLinePad = (0, 0, 0, 0, 0, 0, 0, 0)
#endif

/// One thread's read-side state. Padded so that no other object's frequently written memory
/// shares a cache line with `epoch` and the call slots.
@usableFromInline
final class ReaderRecord: @unchecked Sendable {
    private let leadingPad: CacheLinePad = cacheLinePadding
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
    /// Nonzero while the thread is nested deeper than `trackedDepth`: it then holds back the
    /// chains whose `SnapshotCell.deepDispatches` is nonzero.
    @usableFromInline
    let deep = Atomic<Int>(0)
    /// The call slots: the registration (its address) whose handler the thread calls at each
    /// nesting level, or 0, up to `trackedDepth` (deeper calls count themselves in the
    /// registration's `inFlight`). Allocated with the record, on a cache line of their own, and
    /// never freed: records are reused, never released (`ReadSide` keeps every one).
    @usableFromInline
    let calls: UnsafeMutablePointer<Atomic<UInt>>
    /// How many removers are blocked waiting for a call of this thread to end: a call that ends
    /// while it is nonzero wakes them. Per thread, so that a blocked remover is woken only by the
    /// thread it waits for, and other threads' calls pay nothing for it.
    @usableFromInline
    let waitingRemovers = Atomic<Int>(0)
    /// Chains whose retired snapshots this thread's outermost dispatch must try to release
    /// when it leaves: noted by a nested leave or a mutation made inside a dispatch, so that
    /// the releases (and the deinits they run) happen outside every dispatch. Only the owning
    /// thread touches it.
    @usableFromInline @exclusivity(unchecked)
    var deferredReclaims: [SnapshotCell] = []
    /// Whether a live thread owns this record (records of ended threads are reused).
    let owned = Atomic<Bool>(true)
    private let trailingPad: CacheLinePad = cacheLinePadding

    init() {
        // A cache line of its own: another thread's record must not share it.
        let line = cacheLineSize
        precondition(MemoryLayout<Atomic<UInt>>.stride * trackedDepth <= line)
        calls = UnsafeMutableRawPointer.allocate(byteCount: line, alignment: line)
            .bindMemory(to: Atomic<UInt>.self, capacity: trackedDepth)
        for level in 0..<trackedDepth { (calls + level).initialize(to: Atomic(0)) }
    }

    deinit {
        // Only a record no `ReadSide` keeps (made by a test) ever ends.
        UnsafeMutableRawPointer(calls).deallocate()
    }

    /// Whether this record's thread may be reading a snapshot of the chain whose cell is `cell`,
    /// retired at `epoch`. Call it after a heavy fence (`ReadSide.withFencedRecords`).
    /// `deepDispatches` is the cell's count of dispatches nested deeper than `trackedDepth`.
    func mayRead(cell: UInt, deepDispatches: Int, retiredAt epoch: UInt64) -> Bool {
        let announced = self.epoch.load(ordering: .acquiring)
        guard announced != 0, announced < epoch else { return false }
        if deepDispatches != 0 && deep.load(ordering: .acquiring) != 0 { return true }
        return chain0.load(ordering: .acquiring) == cell
            || chain1.load(ordering: .acquiring) == cell
            || chain2.load(ordering: .acquiring) == cell
            || chain3.load(ordering: .acquiring) == cell
    }

    /// The call slot of nesting level `level` (0 ..< `trackedDepth`): what the thread calls now.
    @inlinable @inline(__always)
    func announcedCall(level: Int) -> UInt {
        calls[level].load(ordering: .acquiring)
    }

    /// Names `registration` (an address, or 0 for none) in the call slot of `level`.
    @inlinable @inline(__always)
    func announceCall(_ registration: UInt, level: Int) {
        calls[level].store(registration, ordering: .releasing)
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
    /// Whether the heavy fence is the OS's process-wide barrier (`cdt_asymmetric_fences`), so a
    /// send's fences are compiler barriers only.
    @usableFromInline
    let asymmetric: Bool = cdt_asymmetric_fences()
    private let records = HandoffMutex<[ReaderRecord]>([])

    /// Releases a thread's record when the thread ends, so a new thread can reuse it.
    private let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        // The destructor's parameter is optional on Linux and not on Darwin: passing it on to a
        // function taking an optional compiles on both.
        let created = pthread_key_create(&key) { releaseThreadRecord($0) }
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

    /// Runs `body` with every thread's record, after a heavy fence: `body` sees every
    /// announcement a send made before its last light fence, and every send's next load after a
    /// light fence sees what this thread stored before calling this.
    ///
    /// The system call is skipped while no other thread owns a record: a thread that registers
    /// later takes the records' lock first, so it sees those stores anyway.
    func withFencedRecords<Result>(_ body: ([ReaderRecord]) -> Result) -> Result {
        let mine = UInt(bitPattern: cdt_thread_record())
        let records = Unchecked(records.withLock { $0 })
        let others = records.value.contains {
            $0.owned.load(ordering: .acquiring) && UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) != mine
        }
        if others { cdt_heavy_fence() } else { atomicMemoryFence(ordering: .sequentiallyConsistent) }
        return body(records.value)
    }
}

/// The destructor of the reader records' thread key: gives the ending thread's record back for
/// reuse, unless the thread ends inside a handler (its record then stays announced and reserved).
/// Does nothing for nil (the key's value is never nil when the destructor runs; the parameter
/// is optional because `pthread_key_create` passes one on Linux).
func releaseThreadRecord(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    let record = Unmanaged<ReaderRecord>.fromOpaque(pointer).takeUnretainedValue()
    cdt_thread_set_record(nil)
    if record.depth == 0 { record.owned.store(false, ordering: .releasing) }
}

// MARK: - Entering and leaving a dispatch

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

extension ReaderRecord {
    /// Names `cell`'s chain at this nested level (`depth` > 0); nested deeper than
    /// `trackedDepth`, counts the dispatch in the record and in the cell instead.
    @usableFromInline
    func enterNested(cell: SnapshotCell) {
        switch depth {
        case 1: chain1.store(cell.address, ordering: .releasing)
        case 2: chain2.store(cell.address, ordering: .releasing)
        case 3: chain3.store(cell.address, ordering: .releasing)
        default:
            cell.deepDispatches.add(1, ordering: .sequentiallyConsistent)
            deep.add(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Notes that `cell`'s retired snapshots are to be released when this thread's outermost
    /// dispatch leaves.
    @usableFromInline
    func deferReclaim(of cell: SnapshotCell) {
        if !deferredReclaims.contains(where: { $0 === cell }) { deferredReclaims.append(cell) }
    }

    /// Releases the retired snapshots of the chains noted by `deferReclaim` (outside every
    /// dispatch: `depth` is 0).
    @inlinable @inline(__always)
    func runDeferredReclaims(_ readSide: ReadSide) {
        if !deferredReclaims.isEmpty { reclaimDeferred(readSide) }
    }

    @usableFromInline
    func reclaimDeferred(_ readSide: ReadSide) {
        // A reclaim may run a deinit that dispatches and mutates again, noting more cells.
        while let cell = deferredReclaims.popLast() { cell.reclaim(readSide) }
    }

    /// Undoes `enterNested` (`depth` already decremented, > 0).
    @usableFromInline
    func leaveNested(cell: SnapshotCell) {
        switch depth {
        case 1: chain1.store(0, ordering: .releasing)
        case 2: chain2.store(0, ordering: .releasing)
        case 3: chain3.store(0, ordering: .releasing)
        default:
            deep.subtract(1, ordering: .sequentiallyConsistent)
            cell.deepDispatches.subtract(1, ordering: .sequentiallyConsistent)
        }
    }
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
