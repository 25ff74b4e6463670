import Testing

// Exhaustive interleaving checks of the concurrent chain's lock-free protocols, on abstract
// models of their memory operations (one model step per load, store, read-modify-write or fence
// of the code), under a store-buffer (x86-TSO) memory model.
//
// Why store buffers: a send's fence (`cdt_light_fence`) is only a compiler barrier where the OS
// has a process-wide barrier, so a sending thread's stores (its record's epoch, its call slots)
// may wait in its CPU's store buffer while its later loads run. The mutation side's heavy fence
// (`cdt_heavy_fence`, `membarrier`) is what makes them visible. So in the models:
// - each reader (sending) thread has a FIFO buffer of its pending stores to its own record, at
//   most `bufferDepth` deep (a store blocks while the buffer is full); "write the oldest
//   buffered store to memory" is a separate step the search may take at any time;
// - a reader's load of its own record reads its newest buffered value, if any, else memory;
//   every other load reads memory;
// - the heavy fence writes every buffer to memory in one step; a read-modify-write, a
//   sequentially consistent store and a mutex (registering a record, the retired list) empty
//   the executing thread's own buffer. Loads are not reordered with loads, nor stores with
//   stores (x86-TSO), so only a store followed by a load can appear out of order.
// - `bufferDepth` 0 makes every store immediate: the sequentially consistent model, where the
//   defects that need a store buffer are *not* found (the tests check that too).
//
// The models:
// - the read side (`ReadSide`, `SnapshotCell`): readers register their record (once, under the
//   records' mutex), announce an epoch (buffered), load the snapshot pointer, re-load the global
//   epoch and, if it moved, announce it again with the mark (the low bit: "holds any snapshot
//   retired after this", buffered) and load the pointer again (`SnapshotCell.load(for:_:)`), use
//   the snapshot, leave (store 0, buffered), load `pending` and the epoch, and reclaim if a
//   retirement overlapped them; writers load the epoch (`opened`), swap the pointer, advance the
//   epoch by 2, retire the old snapshot with the new epoch and the epoch read before its own
//   swap, count it and reclaim. A reclaim keeps a candidate for a record as `ReaderRecord.mayRead`
//   does for an outermost dispatch: announced before its retirement, and marked or announced at
//   or after its `opened`. A reclaim takes the candidates, lists the registered records, runs the heavy
//   fence (or, in `.skippedWhenAlone` mode as in `withFencedRecords`, only its own fence when no
//   other listed thread has a record) and scans the listed records. Checked: no snapshot is used
//   after it is released, and once every thread is done every displaced snapshot is released.
// - the call announcement (`CallWait.swift`, `ConcurrentSnapshot.forEachResponder`): callers
//   name the registration in their call slot (buffered), load `removed`, call, clear the slot
//   (buffered), load `waiters` and wake the parked removers if it is nonzero; one remover sets
//   `removed` (visible at once: the chain's mutex), runs the heavy fence, scans the slots and
//   waits for each busy one: a spin, then it reads the park word, counts itself in `waiters`,
//   runs the heavy fence, re-checks the slot and sleeps until the park word changes. Checked: once
//   the remover is done no call runs or starts, and the remover never sleeps forever. (The code
//   keeps the count per record, `ReaderRecord.waitingRemovers`, and a remover counts itself in
//   the busy slot's record; one shared `waiters` word, as here, wakes at least as often.)
// - the deep-nesting fallback (`inFlight`, `CallWaitModel`): every operation is a
//   read-modify-write or sequentially consistent, so it is modelled as interleavings only.
//
// Not modelled here: more than one chain or nesting level (`NestedReadSideModelTests` models two
// chains, two levels, one of them possibly deeper than `announcedDepth`, and a mutation inside a
// handler), a remover that is itself inside a dispatch, the reuse of an ended thread's record,
// `stillDraining`, several registrations, the records' per-candidate re-loads, hardware weaker
// than TSO (the code relies on `membarrier`'s program-order guarantee, which the heavy-fence step
// stands for on any architecture; the light fence must then stop only the compiler; one
// reordering ARM allows and TSO does not, a reader's later `.relaxed` store performed before its
// earlier use of a snapshot and before its earlier `.releasing` store, is modelled in
// `NestedReadSideModelTests`' `WeakOrderingReadSideModelTests`, where it matters: a reader that
// leaves one chain and enters another; no other reordering of loads is modelled), and buffers
// deeper than `bufferDepth` (two in the tests; three adds states to some configurations and, run
// by hand, found nothing more). In the `.skippedWhenAlone` mode an unregistered reader has an
// empty buffer (registering empties it, and precedes its first store), so skipping the fence
// changes nothing by itself; what matters is that the records are listed after the candidates
// are taken (after `removed` is set), which `.recordsListedBeforeCandidates` shows. A depth-first search over every interleaving of the
// steps (with the states already explored remembered) covers every execution of a model within
// those bounds.

/// Explores every interleaving of `threads` steps from `initial`.
///
/// `step(state, thread)` performs the thread's next step and returns false if the thread is
/// done or blocked (then `state` must be left as it was). `check` is called on every reached
/// state and returns a violation or nil; `final` on every state where no thread can move.
/// - Returns: the first violation found, and how many states were explored.
func exploreInterleavings<State: Hashable>(
    _ initial: State, threads: Int,
    step: (inout State, Int) -> Bool,
    check: (State) -> String?,
    final: (State) -> String?
) -> (violation: String?, states: Int) {
    var visited: Set<State> = [initial]
    var stack: [State] = [initial]
    while let state = stack.popLast() {
        if let problem = check(state) { return (problem, visited.count) }
        var moved = false
        for thread in 0..<threads {
            var next = state
            guard step(&next, thread) else { continue }
            moved = true
            if visited.insert(next).inserted { stack.append(next) }
        }
        if !moved, let problem = final(state) { return (problem, visited.count) }
    }
    return (nil, visited.count)
}

/// Reader threads' records behind their store buffers, as both read-side models keep them.
protocol StoreBuffers {
    /// Empties reader `owner`'s buffer into memory (its read-modify-write, mutex, or full fence).
    mutating func drain(_ owner: Int)
}

/// A thread of either read-side model, as far as its rounds go.
protocol RoundThread {
    /// The rounds (dispatches, or publications) left to take.
    var remaining: Int { get }
    /// Whether the thread has taken them all.
    var done: Bool { get set }
}

/// A reader's first step of a round, as both read-side models take it: with no rounds left it is
/// done, and before its first round it registers its record (under the records' mutex, which
/// drains its store buffer). Whether the round begins in this step.
func beginsRound(
    _ thread: inout some RoundThread, registered: inout Bool, records: inout some StoreBuffers, of reader: Int
) -> Bool {
    if thread.remaining == 0 {
        thread.done = true
    } else if !registered {
        registered = true
        records.drain(reader)
    } else {
        return true
    }
    return false
}

/// One word per reader thread (its record's epoch, or its call slot) as memory holds it, and the
/// stores to it still in the thread's store buffer, oldest first.
struct BufferedWords: Hashable, StoreBuffers {
    var memory: [Int]
    var buffers: [[Int]]
    /// How many stores a buffer holds at most; 0: every store goes straight to memory.
    let depth: Int

    init(count: Int, depth: Int) {
        memory = Array(repeating: 0, count: count)
        buffers = Array(repeating: [], count: count)
        self.depth = depth
    }

    /// Reader `owner` stores `value` to its word; false (and nothing changed) if its buffer is full.
    mutating func store(_ value: Int, by owner: Int) -> Bool {
        if depth == 0 {
            memory[owner] = value
            return true
        }
        guard buffers[owner].count < depth else { return false }
        buffers[owner].append(value)
        return true
    }

    /// Reader `owner`'s load of its own word: its newest buffered store, else memory.
    func ownLoad(_ owner: Int) -> Int { buffers[owner].last ?? memory[owner] }

    /// Writes reader `owner`'s oldest buffered store to memory; false if its buffer is empty.
    mutating func flushOldest(of owner: Int) -> Bool {
        guard !buffers[owner].isEmpty else { return false }
        memory[owner] = buffers[owner].removeFirst()
        return true
    }

    /// Empties reader `owner`'s buffer into memory (its read-modify-write, mutex, or full fence).
    mutating func drain(_ owner: Int) {
        if let last = buffers[owner].last { memory[owner] = last }
        buffers[owner] = []
    }

    /// The heavy fence: every buffer written to memory.
    mutating func drainAll() {
        for owner in memory.indices { drain(owner) }
    }

    var isDrained: Bool { buffers.allSatisfy(\.isEmpty) }
}

/// Whether a reclaimer or remover runs the heavy fence always, or (as `withFencedRecords` does)
/// only when a thread other than itself has a record.
enum HeavyFenceMode: Hashable, Sendable {
    case always
    case skippedWhenAlone
}

// MARK: - The read side

/// The abstract read side: one chain, its snapshot pointer, its retired list, the global epoch,
/// and one record per reader thread (its epoch word, behind the thread's store buffer).
struct ReadSideModel: Hashable {
    /// Deliberate defects, to show that the search finds the bugs they cause.
    enum Defect: Hashable, Sendable {
        case none
        /// The reader loads the pointer before announcing itself.
        case announceAfterLoad
        /// A reader leaving never reclaims.
        case leaverNeverReclaims
        /// A reclaimer that finds another one busy returns without leaving a request.
        case noRequests
        /// The reclaimer scans the records after a fence of its own only (no heavy fence): a
        /// reader's announcement may still sit in its store buffer. Needs a store buffer.
        case noHeavyFence
        /// The reclaimer lists the records (the ones it fences and scans) before it takes the
        /// candidates: a reader that registers in between, and loads the pointer before the swap
        /// of a candidate, is not scanned.
        case recordsListedBeforeCandidates
        /// The reader uses the snapshot it loaded without re-checking the global epoch (and so
        /// never re-announces with the mark), while the reclaimer still releases every snapshot
        /// swapped in after the announced epoch: it may have loaded one of those.
        case noEpochRecheck
    }

    struct Retired: Hashable {
        /// The epoch its replacement advanced the global epoch to.
        var epoch: Int
        /// The global epoch read just before it was swapped in (`SnapshotCell.Retired.opened`).
        var opened: Int
        var snapshot: Int
    }

    enum Role: Hashable {
        case reader
        case writer
    }

    struct Thread: Hashable, RoundThread {
        var role: Role
        var pc = 0
        var done = false
        /// The announced epoch (readers; with the mark, the low bit, after a re-announcement; the
        /// writer's new epoch), the pointer read, the request count seen, and the global epoch a
        /// writer read before its swap (`opened`).
        var announced = 0, pointer = 0, seen = 0, opened = 0
        /// Whether the leaving reader saw `pending` nonzero.
        var sawPending = false
        var remaining = 0
        /// The reclaimer's candidates, the ones it keeps, the ones it frees, the records it
        /// listed (a bit per reader) and the record it scans next.
        var candidates: [Retired] = []
        var kept: [Retired] = []
        var freeing: [Int] = []
        var listed = 0
        var scanned = 0
        var blocked: [Bool] = []
    }

    let defect: Defect
    let fence: HeavyFenceMode
    /// The global epoch: even, advanced by 2 (the low bit of an announcement is the mark).
    var epoch = 2
    var current = 0
    /// The global epoch read just before the published snapshot was swapped in (0 for the first).
    var currentOpened = 0
    var nextSnapshot = 1
    var retired: [Retired] = []
    var pending = 0
    var reclaiming = false
    var requests = 0
    /// The chain's mutex, which serializes the writers' publications.
    var publishing = false
    /// Each reader's record epoch (0: outside), by reader index.
    var records: BufferedWords
    /// Whether each reader registered its record (under the records' mutex).
    var registered: [Bool]
    var released: Set<Int> = []
    var useAfterRelease = false
    var threads: [Thread]

    var readerCount: Int { registered.count }

    init(readers: [Int], writers: [Int], bufferDepth: Int, fence: HeavyFenceMode, defect: Defect) {
        self.defect = defect
        self.fence = fence
        records = BufferedWords(count: readers.count, depth: bufferDepth)
        registered = Array(repeating: false, count: readers.count)
        threads =
            readers.map { Thread(role: .reader, remaining: $0) }
            + writers.map { Thread(role: .writer, pc: 10, remaining: $0) }
    }

    // Program counters. Reader (`enterConcurrentDispatch`, `SnapshotCell.load(for:_:)`,
    // `leaveConcurrentDispatch`): 0 register (once) or load the epoch, 1 announce (store), 2 load
    // the pointer, 7 re-load the epoch: unchanged, go on to 3; moved, 8 announce it with the mark
    // (store) and 9 load the pointer again (the snapshot loaded first is never used); 3 use, 4
    // leave (store 0), 5 load pending, 6 load the epoch. Writer (`SnapshotCell.publish`): 10 take
    // the chain's mutex and load the epoch (`opened`), 14 swap, 11 advance the epoch by 2, 12
    // append (with the displaced one's `opened`), 13 count it and unlock. Reclaim (both): 20 request, 21 try to become
    // the reclaimer, 22 read requests, 23 take the candidates, 29 list the records, 30 fence,
    // 24 scan one record, 25 put back the kept and count down, 26 let go, 27 release, 28
    // re-check the requests.

    /// Thread `index`'s next step, or (for `index` past the threads) a store buffer's oldest
    /// store written to memory.
    mutating func step(_ index: Int) -> Bool {
        if index >= threads.count { return records.flushOldest(of: index - threads.count) }
        var thread = threads[index]
        guard !thread.done else { return false }
        switch thread.pc {
        case 0:
            guard beginsRound(&thread, registered: &registered[index], records: &records, of: index) else { break }
            if defect == .announceAfterLoad { thread.pointer = current }
            thread.announced = epoch
            thread.pc = 1
        case 1:
            guard records.store(thread.announced, by: index) else { return false }
            thread.pc = defect == .announceAfterLoad ? 3 : 2
        case 2:
            thread.pointer = current
            thread.pc = defect == .noEpochRecheck ? 3 : 7
        case 7:
            if epoch == thread.announced {
                thread.pc = 3
            } else {
                thread.announced = epoch | 1
                thread.pointer = 0
                thread.pc = 8
            }
        case 8:
            guard records.store(thread.announced, by: index) else { return false }
            thread.pc = 9
        case 9:
            thread.pointer = current
            thread.pc = 3
        case 3:
            if released.contains(thread.pointer) { useAfterRelease = true }
            thread.pointer = 0
            thread.pc = 4
        case 4:
            guard records.store(0, by: index) else { return false }
            thread.pc = 5
        case 5:
            thread.sawPending = pending != 0
            thread.pc = 6
        case 6:
            thread.remaining -= 1
            let reclaim = thread.sawPending && epoch != thread.announced && defect != .leaverNeverReclaims
            thread.pc = reclaim ? 20 : 0
            thread.announced = 0
            thread.sawPending = false
        case 10:
            if thread.remaining == 0 {
                thread.done = true
            } else {
                guard !publishing else { return false }
                publishing = true
                thread.opened = epoch
                thread.pc = 14
            }
        case 14:
            thread.pointer = current
            current = nextSnapshot
            nextSnapshot += 1
            thread.pc = 11
        case 11:
            epoch += 2
            thread.announced = epoch
            thread.pc = 12
        case 12:
            retired.append(Retired(epoch: thread.announced, opened: currentOpened, snapshot: thread.pointer))
            currentOpened = thread.opened
            thread.pc = 13
        case 13:
            pending += 1
            publishing = false
            thread.remaining -= 1
            thread.pc = 20
        case 20:
            if defect != .noRequests { requests += 1 }
            if thread.role == .reader { records.drain(index) }
            thread.pc = 21
        case 21:
            if reclaiming {
                thread.pc = afterReclaim(thread)
            } else {
                reclaiming = true
                thread.pc = 22
            }
        case 22:
            thread.seen = requests
            thread.pc = defect == .recordsListedBeforeCandidates ? 29 : 23
        case 23:
            thread.candidates = retired
            retired = []
            thread.blocked = Array(repeating: false, count: thread.candidates.count)
            if thread.candidates.isEmpty {
                thread.listed = 0
                thread.pc = 26
            } else {
                thread.pc = defect == .recordsListedBeforeCandidates ? 30 : 29
            }
        case 29:
            thread.listed = 0
            for reader in registered.indices where registered[reader] { thread.listed |= 1 << reader }
            thread.pc = defect == .recordsListedBeforeCandidates ? 23 : 30
        case 30:
            let others = thread.listed & ~(thread.role == .reader ? 1 << index : 0)
            let heavy = defect != .noHeavyFence && (fence == .always || others != 0)
            if heavy { records.drainAll() }
            thread.scanned = nextListed(thread.listed, from: 0)
            thread.pc = thread.scanned < readerCount ? 24 : 25
        case 24:
            let raw =
                thread.role == .reader && thread.scanned == index
                ? records.ownLoad(index) : records.memory[thread.scanned]
            // `ReaderRecord.mayRead` for an outermost dispatch of the chain: it holds a snapshot
            // retired after its announcement only if marked, or if the snapshot was swapped in
            // while the epoch was at most the announced one.
            let announced = raw & ~1
            for (offset, item) in thread.candidates.enumerated()
            where raw != 0 && announced < item.epoch && (raw & 1 != 0 || item.opened <= announced) {
                thread.blocked[offset] = true
            }
            thread.scanned = nextListed(thread.listed, from: thread.scanned + 1)
            if thread.scanned == readerCount { thread.pc = 25 }
        case 25:
            thread.kept = []
            thread.freeing = []
            for (offset, item) in thread.candidates.enumerated() {
                if thread.blocked[offset] { thread.kept.append(item) } else { thread.freeing.append(item.snapshot) }
            }
            retired = thread.kept + retired
            pending -= thread.freeing.count
            thread.candidates = []
            thread.blocked = []
            thread.kept = []
            thread.listed = 0
            thread.scanned = 0
            thread.pc = 26
        case 26:
            reclaiming = false
            thread.pc = 27
        case 27:
            released.formUnion(thread.freeing)
            thread.freeing = []
            thread.pc = 28
        case 28:
            thread.pc = requests == thread.seen ? afterReclaim(thread) : 21
        default:
            fatalError("no step \(thread.pc)")
        }
        if thread.pc == 0 || thread.pc == 10 { thread.seen = 0 }
        threads[index] = thread
        return true
    }

    /// The first reader at or after `start` in `listed` (`readerCount` if none).
    func nextListed(_ listed: Int, from start: Int) -> Int {
        var reader = start
        while reader < readerCount && listed & (1 << reader) == 0 { reader += 1 }
        return reader
    }

    func afterReclaim(_ thread: Thread) -> Int { thread.role == .reader ? 0 : 10 }

    var violation: String? { useAfterRelease ? "a snapshot was used after its release" : nil }

    /// Every displaced snapshot (all but the current one) released.
    var finalViolation: String? {
        if threads.contains(where: { !$0.done }) || !records.isDrained { return "deadlock" }
        let displaced = Set(0..<nextSnapshot).subtracting([current])
        let stranded = displaced.subtracting(released)
        return stranded.isEmpty ? nil : "snapshots \(stranded.sorted()) retired and never released"
    }

    /// Explores the model; `safetyOnly` checks only that no snapshot is used after its release
    /// (so that a defect's unsafe interleaving is reported rather than a stranded snapshot).
    static func check(
        readers: [Int], writers: [Int], bufferDepth: Int = 2, fence: HeavyFenceMode = .always,
        defect: Defect = .none, safetyOnly: Bool = false
    ) -> (violation: String?, states: Int) {
        let initial = ReadSideModel(
            readers: readers, writers: writers, bufferDepth: bufferDepth, fence: fence, defect: defect)
        return exploreInterleavings(
            initial, threads: readers.count + writers.count + readers.count,
            step: { $0.step($1) }, check: \.violation, final: { safetyOnly ? nil : $0.finalViolation })
    }
}

// MARK: - The call announcement (call slots)

/// The abstract call announcement: one registration R, its `removed` flag, one call slot per
/// caller thread (0 or R, behind the thread's store buffer), `waiters`, the park word, callers
/// making `calls` calls of R each, one remover.
struct CallSlotModel: Hashable {
    enum Defect: Hashable, Sendable {
        case none
        /// The caller checks `removed` before naming the registration in its slot.
        case checkBeforeAnnounce
        /// The remover reads the park word after counting itself and re-checking (a wake-up in
        /// between is lost).
        case parkWordReadLate
        /// The remover scans the slots without the heavy fence: a caller's announcement may still
        /// sit in its store buffer. Needs a store buffer.
        case noHeavyFenceBeforeScan
        /// The remover re-checks the slot before sleeping without the heavy fence: the caller's
        /// clearing store may still sit in its buffer while it loaded `waiters` as 0. Needs a
        /// store buffer.
        case noHeavyFenceBeforeSleep
    }

    struct Caller: Hashable {
        /// 0 register (once) or announce, 1 load `removed`, 2 in the handler, 3 clear the slot,
        /// 4 load `waiters`, 5 wake, 6 done; 7 announce after the early check
        /// (`.checkBeforeAnnounce`).
        var pc = 0
        var calls: Int
    }

    let defect: Defect
    let fence: HeavyFenceMode
    var removed = false
    var slots: BufferedWords
    var registered: [Bool]
    var waiters = 0
    var parkWord = 0
    var callers: [Caller]
    /// Remover: 0 set `removed`, 1 list the records, 2 heavy fence, 3 scan one slot, 4 load the
    /// busy slot (spin), 5 read the park word, 6 count itself in `waiters`, 7 heavy fence, 8
    /// re-check the slot, 9 asleep until the park word differs from `seen`, 10 uncount itself,
    /// 11 done.
    var remover = 0
    var listed = 0
    var busy = 0
    /// The slot the remover scans or waits for.
    var slot = 0
    var spins = 0
    var seen = 0

    /// What a slot holds while the caller calls (or is about to check) R.
    static let named = 1
    /// How many times the remover re-reads a busy slot before it parks.
    static let spinsBeforeParking = 1

    init(callers: Int, calls: Int, bufferDepth: Int, fence: HeavyFenceMode, defect: Defect) {
        self.defect = defect
        self.fence = fence
        slots = BufferedWords(count: callers, depth: bufferDepth)
        registered = Array(repeating: false, count: callers)
        self.callers = Array(repeating: Caller(calls: calls), count: callers)
    }

    var removerDone: Bool { remover == 11 }

    /// Caller `index`'s step, the remover's (`index` == callers), or a caller's store buffer
    /// writing its oldest store (past that).
    mutating func step(_ index: Int) -> Bool {
        if index < callers.count { return stepCaller(index) }
        if index > callers.count { return slots.flushOldest(of: index - callers.count - 1) }
        switch remover {
        case 0:
            removed = true
            remover = 1
        case 1:
            listed = 0
            for caller in registered.indices where registered[caller] { listed |= 1 << caller }
            remover = 2
        case 2:
            if defect != .noHeavyFenceBeforeScan && (fence == .always || listed != 0) { slots.drainAll() }
            slot = nextSlot(listed, from: 0)
            remover = slot < callers.count ? 3 : 11
        case 3:
            if slots.memory[slot] == Self.named { busy |= 1 << slot }
            slot = nextSlot(listed, from: slot + 1)
            if slot == callers.count {
                slot = nextSlot(busy, from: 0)
                remover = slot < callers.count ? 4 : 11
            }
        case 4:
            if slots.memory[slot] != Self.named {
                spins = 0
                slot = nextSlot(busy, from: slot + 1)
                if slot == callers.count { remover = 11 }
            } else if spins < Self.spinsBeforeParking {
                spins += 1
            } else {
                remover = defect == .parkWordReadLate ? 6 : 5
            }
        case 5:
            seen = parkWord
            remover = defect == .parkWordReadLate ? 9 : 6
        case 6:
            waiters += 1
            remover = 7
        case 7:
            if defect != .noHeavyFenceBeforeSleep { slots.drainAll() }
            remover = 8
        case 8:
            if slots.memory[slot] == Self.named {
                remover = defect == .parkWordReadLate ? 5 : 9
            } else {
                remover = 10
            }
        case 9:
            guard parkWord != seen else { return false } // asleep
            remover = 10
        case 10:
            waiters -= 1
            remover = 4
        default:
            return false
        }
        if remover == 11 {
            busy = 0
            listed = 0
            slot = 0
            spins = 0
            seen = 0
        }
        return true
    }

    /// The first caller at or after `start` in the bit set `set` (`callers.count` if none).
    func nextSlot(_ set: Int, from start: Int) -> Int {
        var caller = start
        while caller < callers.count && set & (1 << caller) == 0 { caller += 1 }
        return caller
    }

    mutating func stepCaller(_ index: Int) -> Bool {
        var caller = callers[index]
        switch caller.pc {
        case 0:
            if caller.calls == 0 {
                caller.pc = 6
            } else if !registered[index] {
                registered[index] = true
                slots.drain(index)
            } else if defect == .checkBeforeAnnounce {
                if removed {
                    caller.calls -= 1
                } else {
                    caller.pc = 7
                }
            } else {
                guard slots.store(Self.named, by: index) else { return false }
                caller.pc = 1
            }
        case 7:
            guard slots.store(Self.named, by: index) else { return false }
            caller.pc = 2
        case 1:
            caller.pc = removed ? 3 : 2
        case 2:
            caller.pc = 3
        case 3:
            guard slots.store(0, by: index) else { return false }
            caller.pc = 4
        case 4:
            if waiters != 0 {
                caller.pc = 5
            } else {
                caller.calls -= 1
                caller.pc = 0
            }
        case 5:
            slots.drain(index)
            parkWord += 1
            caller.calls -= 1
            caller.pc = 0
        default:
            return false
        }
        callers[index] = caller
        return true
    }

    /// A call of R runs (pc 2) while the removal has returned.
    var violation: String? {
        removerDone && callers.contains { $0.pc == 2 } ? "a call ran after the removal returned" : nil
    }

    var finalViolation: String? {
        if remover == 9 { return "the remover sleeps forever" }
        return callers.allSatisfy { $0.pc == 6 } && removerDone && slots.isDrained ? nil : "stuck"
    }

    static func check(
        callers: Int, calls: Int, bufferDepth: Int = 2, fence: HeavyFenceMode = .always, defect: Defect = .none
    ) -> (violation: String?, states: Int) {
        exploreInterleavings(
            CallSlotModel(callers: callers, calls: calls, bufferDepth: bufferDepth, fence: fence, defect: defect),
            threads: callers + 1 + callers,
            step: { $0.step($1) }, check: \.violation, final: \.finalViolation)
    }
}

// MARK: - The call wait, nested deeper than the call slots (`inFlight`)

/// The abstract deep-nesting call wait (sequentially consistent throughout): one registration's `removed` flag and `inFlight` word (calls in units
/// of 2, bit 0 = a waiter parked), the park word, callers making one call each, one remover.
struct CallWaitModel: Hashable {
    enum Defect: Hashable {
        case none
        /// The waiter reads the park word after announcing itself (a wake-up in between is lost).
        case parkWordReadLate
        /// The caller checks `removed` before announcing its call.
        case checkBeforeAnnounce
    }

    var defect: Defect
    var removed = false
    var inFlight = 0
    var parkWord = 0
    var calling = 0
    var removerDone = false
    var callAfterRemoval = false
    /// Callers' program counters: 0 announce, 1 check removed, 2 in the handler, 3 end, 4 done.
    var callers: [Int]
    /// Remover: 0 set removed, 1 load inFlight, 2 read the park word, 3 set the waiter bit,
    /// 4 asleep until the park word differs from `seen`, 5 done.
    var remover = 0
    var seen = 0
    var spins = 0

    init(callers: Int, defect: Defect = .none) {
        self.defect = defect
        self.callers = Array(repeating: 0, count: callers)
    }

    mutating func step(_ index: Int) -> Bool {
        if index < callers.count { return stepCaller(index) }
        switch remover {
        case 0:
            removed = true
            remover = 1
        case 1:
            if inFlight >= 2 {
                // One spin, then block: the search covers a spin that happens to see the end too.
                if spins < 1 {
                    spins += 1
                } else {
                    remover = defect == .parkWordReadLate ? 3 : 2
                }
            } else {
                remover = 5
                removerDone = true
                if calling > 0 { callAfterRemoval = true }
            }
        case 2:
            seen = parkWord
            remover = defect == .parkWordReadLate ? 4 : 3
        case 3:
            inFlight |= 1
            if defect == .parkWordReadLate {
                remover = 2
            } else {
                remover = inFlight >= 2 ? 4 : 1
            }
        case 4:
            guard parkWord != seen else { return false } // asleep
            remover = 1
        default:
            return false
        }
        return true
    }

    mutating func stepCaller(_ index: Int) -> Bool {
        switch callers[index] {
        case 0:
            if defect == .checkBeforeAnnounce {
                if removed {
                    callers[index] = 4
                    return true
                }
                callers[index] = 1
            } else {
                inFlight += 2
                callers[index] = 1
            }
        case 1:
            if defect == .checkBeforeAnnounce {
                inFlight += 2
                calling += 1
                if removerDone { callAfterRemoval = true }
                callers[index] = 2
            } else if removed {
                callers[index] = 3 // skips the call, still ends the announcement
            } else {
                calling += 1
                if removerDone { callAfterRemoval = true }
                callers[index] = 2
            }
        case 2:
            calling -= 1
            callers[index] = 3
        case 3:
            let before = inFlight
            inFlight -= 2
            if before == 3 { parkWord += 1 }
            callers[index] = 4
        default:
            return false
        }
        return true
    }

    var violation: String? { callAfterRemoval ? "a call ran after the removal returned" : nil }

    var finalViolation: String? {
        if remover == 4 { return "the remover sleeps forever" }
        return callers.allSatisfy { $0 == 4 } && removerDone ? nil : "stuck"
    }

    static func check(callers: Int, defect: Defect = .none) -> (violation: String?, states: Int) {
        exploreInterleavings(
            CallWaitModel(callers: callers, defect: defect), threads: callers + 1,
            step: { $0.step($1) }, check: \.violation, final: \.finalViolation)
    }
}

@Suite("Concurrent chain protocols, every interleaving")
struct ReadSideModelTests {
    static let usedAfterRelease = "a snapshot was used after its release"
    static let stranded = "never released"
    static let calledAfterRemoval = "a call ran after the removal returned"
    static let sleepsForever = "the remover sleeps forever"

    /// Readers (dispatches each) and writers (publications each, serialized by the chain's
    /// mutex), every store of a reader buffered up to two deep, the heavy fence on every reclaim.
    @Test(
        arguments: [([1], [1]), ([1], [2]), ([2], [1]), ([2], [2]), ([1, 1], [1]), ([1], [1, 1])] as [([Int], [Int])])
    func readSideNeverUsesAReleasedSnapshotAndReleasesEveryDisplacedOne(readers: [Int], writers: [Int]) {
        let result = ReadSideModel.check(readers: readers, writers: writers)
        #expect(result.violation == nil)
        #expect(result.states > 1000)
    }

    /// As `withFencedRecords` does it: no heavy fence while no other thread has a record.
    @Test(arguments: [([1], [2]), ([2], [1]), ([1], [1, 1])] as [([Int], [Int])])
    func readSideIsSafeWhenTheHeavyFenceIsSkippedForALoneThread(readers: [Int], writers: [Int]) {
        let result = ReadSideModel.check(readers: readers, writers: writers, fence: .skippedWhenAlone)
        #expect(result.violation == nil)
        #expect(result.states > 1000)
    }

    /// The search finds the bug each deliberate defect causes: the checks have teeth.
    @Test(
        arguments: [
            (ReadSideModel.Defect.announceAfterLoad, [1], [2], HeavyFenceMode.always, usedAfterRelease),
            (.leaverNeverReclaims, [1], [2], .always, stranded),
            (.noRequests, [1], [2], .always, stranded),
            (.noHeavyFence, [1], [1], .always, stranded),
            (.recordsListedBeforeCandidates, [1], [1, 1], .skippedWhenAlone, usedAfterRelease),
            (.noEpochRecheck, [1], [3], .always, usedAfterRelease),
        ] as [(ReadSideModel.Defect, [Int], [Int], HeavyFenceMode, String)])
    func readSideDefectsAreFound(
        defect: ReadSideModel.Defect, readers: [Int], writers: [Int], fence: HeavyFenceMode, expected: String
    ) {
        let result = ReadSideModel.check(readers: readers, writers: writers, fence: fence, defect: defect)
        #expect(result.violation?.contains(expected) == true, "\(result.violation ?? "none")")
    }

    /// Without the heavy fence a reclaimer frees a snapshot that a reader loaded after an
    /// announcement still in its store buffer; with every store immediate (no buffer) the same
    /// defect goes unnoticed: only the store-buffer model finds it.
    @Test func readSideWithoutTheHeavyFenceUsesAReleasedSnapshotOnlyWithStoreBuffers() {
        let buffered = ReadSideModel.check(
            readers: [1], writers: [1], bufferDepth: 1, defect: .noHeavyFence, safetyOnly: true)
        #expect(buffered.violation == Self.usedAfterRelease)
        #expect(ReadSideModel.check(readers: [1], writers: [1], bufferDepth: 0, defect: .noHeavyFence).violation == nil)
        #expect(ReadSideModel.check(readers: [2], writers: [2], bufferDepth: 0, defect: .noHeavyFence).violation == nil)
    }

    /// Callers (calls of the removed registration each) against one remover, every slot store
    /// buffered up to two deep; the heavy fence always, or skipped while no caller has a record.
    @Test(
        arguments: [
            (1, 1, HeavyFenceMode.always), (1, 2, .always), (2, 1, .always), (2, 2, .always),
            (1, 2, .skippedWhenAlone), (2, 1, .skippedWhenAlone),
        ] as [(Int, Int, HeavyFenceMode)])
    func aRemovalReturnsOnlyOnceNoCallRunsAndNeverSleepsForever(callers: Int, calls: Int, fence: HeavyFenceMode) {
        let result = CallSlotModel.check(callers: callers, calls: calls, fence: fence)
        #expect(result.violation == nil)
        #expect(result.states > 100)
    }

    @Test(
        arguments: [
            (CallSlotModel.Defect.checkBeforeAnnounce, calledAfterRemoval), (.parkWordReadLate, sleepsForever),
            (.noHeavyFenceBeforeScan, calledAfterRemoval), (.noHeavyFenceBeforeSleep, sleepsForever),
        ] as [(CallSlotModel.Defect, String)])
    func callSlotDefectsAreFound(defect: CallSlotModel.Defect, expected: String) {
        let result = CallSlotModel.check(callers: 2, calls: 1, defect: defect)
        #expect(result.violation == expected)
    }

    /// The missing heavy fences go unnoticed without store buffers: only the store-buffer model
    /// finds them.
    @Test(arguments: [CallSlotModel.Defect.noHeavyFenceBeforeScan, .noHeavyFenceBeforeSleep])
    func callSlotFenceDefectsNeedStoreBuffers(defect: CallSlotModel.Defect) {
        #expect(CallSlotModel.check(callers: 2, calls: 2, bufferDepth: 0, defect: defect).violation == nil)
        #expect(CallSlotModel.check(callers: 1, calls: 1, bufferDepth: 1, defect: defect).violation != nil)
    }

    /// The deep-nesting fallback (`inFlight`), sequentially consistent throughout.
    @Test(arguments: [1, 2, 3])
    func aDeepRemovalReturnsOnlyOnceNoCallRunsAndNeverSleepsForever(callers: Int) {
        let result = CallWaitModel.check(callers: callers)
        #expect(result.violation == nil)
        #expect(result.states > 10)
    }

    @Test(arguments: [CallWaitModel.Defect.parkWordReadLate, .checkBeforeAnnounce])
    func deepCallWaitDefectsAreFound(defect: CallWaitModel.Defect) {
        let result = CallWaitModel.check(callers: 2, defect: defect)
        #expect(result.violation != nil)
    }
}
