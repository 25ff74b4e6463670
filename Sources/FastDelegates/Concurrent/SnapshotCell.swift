import CDispatchTable
import Synchronization

/// The published snapshot of a chain (one atomic pointer, holding one strong reference) and the
/// snapshots it displaced that some dispatch may still be walking.
///
/// A send reads the pointer inside a dispatch (`enterConcurrentDispatch`) and uses the snapshot
/// unretained for as long as the dispatch runs: no reference counting, no write to memory that
/// another sending thread writes. A writer (serialized by the chain's mutex) swaps in a new
/// snapshot and retires the old one, with its reference and a fresh epoch; `reclaim` releases
/// it once no dispatch that might have read it is still running (see `ReadSide`).
@usableFromInline
final class SnapshotCell: Sendable {
    @usableFromInline
    let current: Atomic<Unmanaged<ConcurrentSnapshot>>

    /// How many retired snapshots wait for their readers to leave. Written by writers and
    /// reclaimers only; a send reads it when it leaves.
    @usableFromInline
    let pending = Atomic<Int>(0)

    /// Dispatches of this chain nested deeper than `announcedDepth` running now, on any thread
    /// (such a dispatch is not named in its thread's record).
    @usableFromInline
    let deepDispatches = Atomic<Int>(0)

    private struct Retired: Sendable {
        /// The epoch its replacement advanced the global epoch to, after the swap.
        let epoch: UInt64
        /// The global epoch read just before it was swapped in.
        let opened: UInt64
        /// Holds the reference the cell held.
        let snapshot: Unmanaged<ConcurrentSnapshot>
    }

    /// The global epoch read just before the published snapshot was swapped in (0 for the first
    /// one). Written by the publisher only, under the chain's mutex.
    private let currentOpened = Atomic<UInt64>(0)

    private let retired = HandoffMutex<[Retired]>([])
    /// One reclaimer at a time; a thread that finds it busy leaves a request instead.
    private let reclaiming = Atomic<Bool>(false)
    private let requests = Atomic<UInt64>(0)

    /// This cell's address: how a thread's `ReaderRecord` names the chain it dispatches in.
    @inlinable
    var address: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    init(_ snapshot: ConcurrentSnapshot) {
        current = Atomic(.passRetained(snapshot))
    }

    deinit {
        // No dispatch can be running: each holds the chain, which holds this cell.
        current.load(ordering: .acquiring).release()
        for item in retired.withLock({ $0 }) { item.snapshot.release() }
    }

    /// The current snapshot, unretained, for `dispatch` (entered with `enterConcurrentDispatch`
    /// on this cell, whose light fence orders this load after the thread's announcement; see
    /// `ReadSide`): valid until it leaves. The only way a send reads the pointer.
    ///
    /// The outermost dispatch then holds exactly the snapshot that was published when it
    /// announced its epoch (or the one that replaced it, if a swap was under way), so that a
    /// reclaimer may release every other snapshot retired since (`ReaderRecord.mayRead`): if the
    /// global epoch moved between the announcement and the load, the snapshot loaded may be a
    /// later one, so the dispatch announces again, marked as holding any snapshot retired after
    /// it, and loads again. It never reads the snapshot it drops (a reclaimer may have released
    /// it). Nested dispatches hold any snapshot retired after the outermost announcement.
    @inlinable @inline(__always)
    func load(for dispatch: AnnouncedDispatch, _ readSide: ReadSide) -> Unmanaged<ConcurrentSnapshot> {
        let snapshot = current.load(ordering: .acquiring)
        if dispatch.level != 0 || readSide.epoch.load(ordering: .acquiring) == dispatch.epoch { return snapshot }
        return reannounce(dispatch, readSide)
    }

    /// The slow path of `load(for:_:)`: announces the current epoch with the mark "holds any
    /// snapshot retired after it" (the low bit; epochs are even), fences, and loads again.
    @usableFromInline @inline(never)
    func reannounce(_ dispatch: AnnouncedDispatch, _ readSide: ReadSide) -> Unmanaged<ConcurrentSnapshot> {
        dispatch.record._withUnsafeGuaranteedRef { record in
            record.epoch.store(readSide.epoch.load(ordering: .acquiring) | 1, ordering: .releasing)
            cdt_light_fence(readSide.asymmetric)
        }
        return current.load(ordering: .acquiring)
    }

    /// How many retired snapshots wait for their readers, for tests.
    var retiredCountForTesting: Int { retired.withLock { $0.count } }

    /// The current snapshot, unretained, for the writer: valid until it publishes another.
    /// - Precondition: the caller may publish (it holds the chain's mutex).
    var published: Unmanaged<ConcurrentSnapshot> {
        current.load(ordering: .relaxed)
    }

    /// Publishes `snapshot` and retires the one it displaces (released by `reclaim` once no
    /// dispatch can be reading it). Only one thread at a time may call this (the chain's mutex).
    func publish(_ snapshot: ConcurrentSnapshot, readSide: ReadSide) {
        // Before the swap: an outermost dispatch that loads `snapshot` and then finds the global
        // epoch still at the one it announced announced at least this one.
        let opened = readSide.epoch.load(ordering: .sequentiallyConsistent)
        let displaced = current.exchange(.passRetained(snapshot), ordering: .sequentiallyConsistent)
        // After the swap: a thread that announces this epoch or a later one reads `snapshot`.
        // By 2, so that epochs stay even: the low bit of an announcement is a mark (`load(for:_:)`).
        let epoch = readSide.epoch.add(2, ordering: .sequentiallyConsistent).newValue
        let displacedOpened = currentOpened.exchange(opened, ordering: .relaxed)
        if displaced.toOpaque() == Unmanaged.passUnretained(ConcurrentSnapshot.empty).toOpaque() {
            // The shared empty snapshot (a new chain's): it lives as long as the process, so a
            // dispatch still walking it needs nothing from the read side, and a chain's first
            // mutation retires nothing (no list to grow, nothing for `reclaim` to scan).
            displaced.release()
            return
        }
        retired.withLock { $0.append(Retired(epoch: epoch, opened: displacedOpened, snapshot: displaced)) }
        pending.add(1, ordering: .sequentiallyConsistent)
    }

    /// Releases every retired snapshot that no thread can still be reading. Outside every
    /// dispatch, the releases may run deinits of removed strong targets and handlers; inside one
    /// (a mutation made by a handler), the objects a released snapshot holds whose deinit may run
    /// user code are parked in the thread's record first (`ReaderRecord.park`), and let go of
    /// when its outermost dispatch leaves.
    ///
    /// Never waits: if another thread is reclaiming, this leaves a request that it serves
    /// before it returns (it re-checks the requests after letting go of `reclaiming`).
    @usableFromInline
    func reclaim(_ readSide: ReadSide) {
        requests.add(1, ordering: .sequentiallyConsistent)
        while true {
            guard
                reclaiming.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent)
                    .exchanged
            else { return }
            let seen = requests.load(ordering: .sequentiallyConsistent)
            // Take the candidates first: only snapshots swapped out before the scan are judged by it.
            var candidates = retired.withLock { retired -> [Retired] in
                var taken: [Retired] = []
                swap(&taken, &retired)
                return taken
            }
            // Partitioned in place, so that a reclaim allocates no array: those some thread may
            // read first (in their order), then the free ones, from `kept` on.
            var kept = 0
            if !candidates.isEmpty {
                let cell = address
                readSide.withFencedRecords { records in
                    let deep = deepDispatches.load(ordering: .sequentiallyConsistent)
                    for index in candidates.indices {
                        let item = candidates[index]
                        if records.contains(where: {
                            $0.mayRead(cell: cell, deepDispatches: deep, openedAt: item.opened, retiredAt: item.epoch)
                        }) {
                            candidates.swapAt(index, kept)
                            kept += 1
                        }
                    }
                }
                if kept > 0 {
                    let held = Array(candidates[..<kept])
                    retired.withLock { $0.insert(contentsOf: held, at: 0) }
                }
                pending.subtract(candidates.count - kept, ordering: .sequentiallyConsistent)
            }
            reclaiming.store(false, ordering: .sequentiallyConsistent)
            let free = candidates[kept...]
            if !free.isEmpty, let record = currentDispatchRecord() {
                // Inside a dispatch: no deinit of a target or a handler may run here.
                for item in free { item.snapshot._withUnsafeGuaranteedRef { record.park($0.owners) } }
                record.deferReclaim(of: self)
            }
            // Outside every lock: a release may run a deinit that uses a chain.
            for item in free { item.snapshot.release() }
            if requests.load(ordering: .sequentiallyConsistent) == seen { return }
        }
    }
}
