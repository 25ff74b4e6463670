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
        let epoch: UInt64
        /// Holds the reference the cell held.
        let snapshot: Unmanaged<ConcurrentSnapshot>
    }

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

    /// The current snapshot, unretained: valid until the caller's dispatch leaves.
    /// - Precondition: the calling thread is inside a dispatch of this cell's chain (whose light
    ///   fence orders this load after the thread's announcement; see `ReadSide`).
    @inlinable @inline(__always)
    func load() -> Unmanaged<ConcurrentSnapshot> {
        current.load(ordering: .acquiring)
    }

    /// The current snapshot, unretained, for the writer: valid until it publishes another.
    /// - Precondition: the caller may publish (it holds the chain's mutex).
    var published: Unmanaged<ConcurrentSnapshot> {
        current.load(ordering: .relaxed)
    }

    /// Publishes `snapshot` and retires the one it displaces (released by `reclaim` once no
    /// dispatch can be reading it). Only one thread at a time may call this (the chain's mutex).
    func publish(_ snapshot: ConcurrentSnapshot, readSide: ReadSide) {
        let displaced = current.exchange(.passRetained(snapshot), ordering: .sequentiallyConsistent)
        // After the swap: a thread that announces this epoch or a later one reads `snapshot`.
        let epoch = readSide.epoch.add(1, ordering: .sequentiallyConsistent).newValue
        retired.withLock { $0.append(Retired(epoch: epoch, snapshot: displaced)) }
        pending.add(1, ordering: .sequentiallyConsistent)
    }

    /// Releases every retired snapshot that no thread can still be reading. Call it outside any
    /// dispatch when possible: the releases may run deinits of removed strong targets.
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
            let candidates = retired.withLock { retired -> [Retired] in
                let taken = retired
                retired.removeAll()
                return taken
            }
            var free: [Unmanaged<ConcurrentSnapshot>] = []
            if !candidates.isEmpty {
                var kept: [Retired] = []
                let cell = address
                readSide.withFencedRecords { records in
                    let deep = deepDispatches.load(ordering: .sequentiallyConsistent)
                    for item in candidates {
                        if records.contains(where: {
                            $0.mayRead(cell: cell, deepDispatches: deep, retiredAt: item.epoch)
                        }) {
                            kept.append(item)
                        } else {
                            free.append(item.snapshot)
                        }
                    }
                }
                if !kept.isEmpty { retired.withLock { $0.insert(contentsOf: kept, at: 0) } }
                pending.subtract(free.count, ordering: .sequentiallyConsistent)
            }
            reclaiming.store(false, ordering: .sequentiallyConsistent)
            // Outside every lock: a release may run a deinit that uses a chain.
            for snapshot in free { snapshot.release() }
            if requests.load(ordering: .sequentiallyConsistent) == seen { return }
        }
    }
}
