import CDispatchTable
import Synchronization

/// One thread's read-side state. Padded so that no other object's frequently written memory
/// shares a cache line with `epoch` and the call slots.
@usableFromInline
final class ReaderRecord: @unchecked Sendable {
    // Sound: other threads read only the atomics (`epoch`, the chain slots, `deep`, `calls`,
    // `waitingRemovers`, `owned`); `depth` and `deferredReclaims` are touched by the owning
    // thread alone, and a record has one owner at a time (`owned`, taken with a compare-exchange
    // under the records' lock). `calls` points to memory allocated in `init` and never moved.
    private let leadingPad: CacheLinePad = cacheLinePadding
    /// 0 outside any dispatch; inside, the global epoch read on entering the outermost one.
    @usableFromInline
    let epoch = Atomic<UInt64>(0)
    /// How many `ConcurrentDelegateChain` dispatches (of any chain) run on the owning thread.
    /// Only the owning thread touches it.
    @usableFromInline @exclusivity(unchecked)
    var depth = 0
    /// The cell of the chain dispatched at each nesting level (0 for none), up to `announcedDepth`.
    @usableFromInline
    let chain0 = Atomic<UInt>(0)
    @usableFromInline
    let chain1 = Atomic<UInt>(0)
    @usableFromInline
    let chain2 = Atomic<UInt>(0)
    @usableFromInline
    let chain3 = Atomic<UInt>(0)
    /// Nonzero while the thread is nested deeper than `announcedDepth`: it then holds back the
    /// chains whose `SnapshotCell.deepDispatches` is nonzero.
    @usableFromInline
    let deep = Atomic<Int>(0)
    /// The call slots: the registration (its address) whose handler the thread calls at each
    /// nesting level, or 0, up to `announcedDepth` (deeper calls count themselves in the
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
    /// What snapshots released inside a dispatch held whose deinit may run user code (handlers
    /// and strong targets; see `park`), one reference each, let go of when the thread's outermost
    /// dispatch leaves. Only the owning thread touches it.
    @exclusivity(unchecked)
    var parked: [ObjectIdentifier: AnyObject] = [:]
    /// The cell of the chain dispatched at each nesting level deeper than `announcedDepth`, and
    /// the registration called at each such level: what a thread that ends that deep must take
    /// back (`withdraw`). Only the owning thread touches them; capacity for a few levels is
    /// reserved up front, so that a deep send allocates only beyond them.
    @exclusivity(unchecked)
    var deepCells: [SnapshotCell] = []
    @exclusivity(unchecked)
    var deepCalls: [ConcurrentRegistration] = []
    /// Whether a live thread owns this record (records of ended threads are reused).
    let owned = Atomic<Bool>(true)
    private let trailingPad: CacheLinePad = cacheLinePadding

    init() {
        // A cache line of its own: another thread's record must not share it.
        let line = cacheLineSize
        precondition(MemoryLayout<Atomic<UInt>>.stride * announcedDepth <= line)
        calls = UnsafeMutableRawPointer.allocate(byteCount: line, alignment: line)
            .bindMemory(to: Atomic<UInt>.self, capacity: announcedDepth)
        for level in 0..<announcedDepth { (calls + level).initialize(to: Atomic(0)) }
        deepCells.reserveCapacity(announcedDepth)
        deepCalls.reserveCapacity(announcedDepth)
    }

    deinit {
        // A record ends once its thread ended outside every dispatch and no scan holds it.
        UnsafeMutableRawPointer(calls).deallocate()
    }

    /// Whether this record's thread may be reading a snapshot of the chain whose cell is `cell`,
    /// swapped in after the global epoch was read as `opened` and retired at `epoch`. Call it
    /// after a heavy fence (`ReadSide.withFencedRecords`). `deepDispatches` is the cell's count of
    /// dispatches nested deeper than `announcedDepth`.
    ///
    /// A dispatch of the chain nested in another one may read any snapshot retired after the
    /// thread's announcement (the cautious rule): it loads the newest snapshot (it must see what
    /// an outer handler added), and the record names only its chain at its level, not the epoch
    /// it loaded at, so a reclaimer cannot tell which snapshot that is. Such snapshots are held
    /// only while the nested dispatch runs (`LongHandlerMemoryTests`); holding exactly one would
    /// need an epoch per level and the outermost's re-check in every nested load.
    ///
    /// The outermost one, when its announcement is not marked (low bit
    /// clear), holds only a snapshot swapped in when the epoch was at most the announced one
    /// (`SnapshotCell.load(for:_:)`): so the snapshots published and replaced while a long handler
    /// runs are released, and a chain mutated while a handler runs keeps at most two of them.
    func mayRead(cell: UInt, deepDispatches: Int, openedAt opened: UInt64, retiredAt epoch: UInt64) -> Bool {
        let raw = self.epoch.load(ordering: .acquiring)
        let announced = raw & ~1
        guard raw != 0, announced < epoch else { return false }
        if deepDispatches != 0 && deep.load(ordering: .acquiring) != 0 { return true }
        let outermost = chain0.load(ordering: .acquiring) == cell
        if chain1.load(ordering: .acquiring) == cell || chain2.load(ordering: .acquiring) == cell
            || chain3.load(ordering: .acquiring) == cell
        {
            return true
        }
        return outermost && (raw & 1 != 0 || opened <= announced)
    }

    /// The call slot of nesting level `level` (0 ..< `announcedDepth`): what the thread calls now.
    @inlinable @inline(__always)
    func announcedCall(level: Int) -> UInt {
        calls[level].load(ordering: .acquiring)
    }

    /// The call slot of nesting level `level`, where a walk names each registration it calls (its
    /// address, stored `.releasing` before the call) and then none (0, after it).
    @inlinable @inline(__always)
    func callSlot(level: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        calls + level
    }
}

/// How many nesting levels of dispatch a `ReaderRecord` names chains for.
@usableFromInline
let announcedDepth = 4

extension ReaderRecord {
    /// Names `cell`'s chain at this nested level (`depth` > 0); nested deeper than
    /// `announcedDepth`, counts the dispatch in the record and in the cell instead.
    @usableFromInline
    func enterNested(cell: SnapshotCell) {
        switch depth {
        case 1: chain1.store(cell.address, ordering: .releasing)
        case 2: chain2.store(cell.address, ordering: .releasing)
        case 3: chain3.store(cell.address, ordering: .releasing)
        default:
            deepCells.append(cell)
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
        // A reclaim or a release may run a deinit that dispatches and mutates again, noting more
        // cells or parking more objects.
        while true {
            while let cell = deferredReclaims.popLast() { cell.reclaim(readSide) }
            if parked.isEmpty { return }
            releaseParked()
        }
    }

    /// Keeps a reference to each object of a snapshot's `owners` whose deinit may run user code,
    /// before a reclaim inside a dispatch releases the snapshot (and of what a mutation inside a
    /// dispatch took out of its chain, `Garbage.park`): its handlers and strong targets
    /// (a handler's deinit releases what its closure captured). Not its registrations: one that
    /// is no longer listed holds no target or handler (`retire`, `sweep`), and one still listed
    /// is held by its chain. Each object is parked once, however many snapshots held it, so the
    /// record holds the handlers and strong targets removed meanwhile and those of the chain, not
    /// one snapshot per mutation. The owning thread only, inside a dispatch; every parked object
    /// is let go of by `reclaimDeferred` (the caller notes a chain with `deferReclaim`).
    func park(_ owners: [AnyObject]) {
        for object in owners where !(object is ConcurrentRegistration) {
            parked[ObjectIdentifier(object)] = object
        }
    }

    /// Lets go of the parked objects (outside every dispatch: `depth` is 0). Their deinits may
    /// dispatch, mutate and park again.
    func releaseParked() {
        var objects: [ObjectIdentifier: AnyObject] = [:]
        swap(&objects, &parked)
        withExtendedLifetime(objects) {}
    }

    /// How many objects the record parks, for tests.
    var parkedCountForTesting: Int { parked.count }

    /// Withdraws every announcement of a thread that ends inside a dispatch (from its key's
    /// destructor, on that thread): no call runs and no snapshot is read any more. The chains'
    /// retired snapshots are released by their next reclaim; the thread's deferred reclaims are
    /// dropped (they would run deinits on an ending thread). However deep the thread was, its
    /// dispatches nested deeper than `announcedDepth` are taken out of their chains'
    /// `deepDispatches`, and its calls there out of their registrations' `inFlight` (waking a
    /// remover waiting for them), as `deepCells` and `deepCalls` list them.
    func withdraw() {
        for level in 0..<announcedDepth { calls[level].store(0, ordering: .sequentiallyConsistent) }
        while let registration = deepCalls.popLast() { endCall(of: registration) }
        while let cell = deepCells.popLast() { cell.deepDispatches.subtract(1, ordering: .sequentiallyConsistent) }
        chain1.store(0, ordering: .releasing)
        chain2.store(0, ordering: .releasing)
        chain3.store(0, ordering: .releasing)
        deep.store(0, ordering: .sequentiallyConsistent)
        epoch.store(0, ordering: .sequentiallyConsistent)
        depth = 0
        deferredReclaims.removeAll()
        // Outside every dispatch now: their deinits may run (on the ending thread).
        releaseParked()
        // Removers blocked on one of its calls re-check their condition (a wake-up for each,
        // whatever `waitingRemovers` says: a rare path).
        cdt_park_wake_all()
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
            deepCells.removeLast()
        }
    }
}

/// Announces a call of `registration` in a dispatch nested deeper than `announcedDepth` (so the
/// thread has a record): in its `inFlight` counter (sequentially consistent, before the caller
/// checks `removed`), and in the record's `deepCalls`, for `withdraw`. Not inlined: the walk's
/// rare path stays a call, and the common path's code stays as it was.
@usableFromInline @inline(never)
func beginDeepCall(of registration: ConcurrentRegistration) {
    if let pointer = cdt_thread_record() {
        Unmanaged<ReaderRecord>.fromOpaque(pointer).takeUnretainedValue().deepCalls.append(registration)
    }
    registration.inFlight.wrappingAdd(callUnit, ordering: .sequentiallyConsistent)
}

/// Ends a call announced with `beginDeepCall`.
@usableFromInline @inline(never)
func endDeepCall(of registration: ConcurrentRegistration) {
    endCall(of: registration)
    if let pointer = cdt_thread_record() {
        Unmanaged<ReaderRecord>.fromOpaque(pointer).takeUnretainedValue().deepCalls.removeLast()
    }
}
