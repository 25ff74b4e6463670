import Testing

// Exhaustive interleaving checks of the concurrent chain's two lock-free protocols, on abstract
// models of their atomic steps (one model step per atomic operation of the code):
//
// - the read side (`ReadSide`, `SnapshotCell`): readers announce an epoch, load the snapshot
//   pointer, use it and leave (reclaiming if a retirement overlapped them); writers swap the
//   pointer, retire the old snapshot with a new epoch and reclaim. Checked: no snapshot is used
//   after it is released, and once every thread is done every displaced snapshot is released.
// - the call wait (`CallWait.swift`): callers announce a call in `inFlight`, check `removed`,
//   call, end (waking parked waiters when they were the last); a remover sets `removed` and
//   waits, spinning and then parking on the park word. Checked: once the remover is done no
//   call is running or starts, and the remover never sleeps forever.
//
// Every operation of the code that these protocols rely on is sequentially consistent, so an
// execution is an interleaving of the steps: a depth-first search over every interleaving (with
// the states already explored remembered) covers every execution of the model.

/// Explores every interleaving of `threads` steps from `initial`.
///
/// `step(state, thread)` performs the thread's next atomic step and returns false if the thread
/// is done or blocked (then `state` must be left as it was). `check` is called on every reached
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

// MARK: - The read side

/// The abstract read side: one chain, its snapshot pointer, its retired list, the global epoch,
/// and one record per reader thread.
struct ReadSideModel: Hashable {
    /// Deliberate defects, to show that the search finds the bugs they cause.
    enum Defect: Hashable {
        case none
        /// The reader loads the pointer before announcing itself.
        case announceAfterLoad
        /// A reader leaving never reclaims.
        case leaverNeverReclaims
        /// A reclaimer that finds another one busy returns without leaving a request.
        case noRequests
    }

    struct Retired: Hashable {
        var epoch: Int
        var snapshot: Int
    }

    enum Role: Hashable {
        case reader(dispatches: Int)
        case writer(publishes: Int)
    }

    struct Thread: Hashable {
        var role: Role
        var pc = 0
        var done = false
        /// The announced epoch (readers), the pointer read, the request count seen.
        var announced = 0, pointer = 0, seen = 0
        var remaining = 0
        /// The reclaimer's candidates, the ones it keeps, the ones it frees, and the record it
        /// scans next.
        var candidates: [Retired] = []
        var kept: [Retired] = []
        var freeing: [Int] = []
        var scanned = 0
        var blocked: [Bool] = []
    }

    var defect: Defect
    var epoch = 1
    var current = 0
    var nextSnapshot = 1
    var retired: [Retired] = []
    var pending = 0
    var reclaiming = false
    var requests = 0
    /// The epoch each reader thread announced (0: outside), by reader index.
    var records: [Int]
    var released: Set<Int> = []
    var useAfterRelease = false
    var threads: [Thread]

    init(readers: [Int], writers: [Int], defect: Defect = .none) {
        self.defect = defect
        records = Array(repeating: 0, count: readers.count)
        threads =
            readers.map { Thread(role: .reader(dispatches: $0), remaining: $0) }
            + writers.map { Thread(role: .writer(publishes: $0), remaining: $0) }
    }

    // Program counters. Reader: 0 load epoch, 1 announce, 2 load pointer, 3 use, 4 leave,
    // 5 read pending and epoch. Writer: 10 swap, 11 advance the epoch, 12 append, 13 count it.
    // Reclaim (both): 20 request, 21 try to become the reclaimer, 22 read requests, 23 take the
    // candidates, 24 scan one record, 25 put back the kept and count down, 26 let go, 27
    // release, 28 re-check the requests.

    mutating func step(_ index: Int) -> Bool {
        var thread = threads[index]
        guard !thread.done else { return false }
        switch thread.pc {
        case 0:
            if thread.remaining == 0 {
                thread.done = true
            } else if defect == .announceAfterLoad {
                thread.pointer = current
                thread.announced = epoch
                thread.pc = 1
            } else {
                thread.announced = epoch
                thread.pc = 1
            }
        case 1:
            records[index] = thread.announced
            thread.pc = defect == .announceAfterLoad ? 3 : 2
        case 2:
            thread.pointer = current
            thread.pc = 3
        case 3:
            if released.contains(thread.pointer) { useAfterRelease = true }
            thread.pc = 4
        case 4:
            records[index] = 0
            thread.pc = 5
        case 5:
            thread.remaining -= 1
            if pending != 0, epoch != thread.announced, defect != .leaverNeverReclaims {
                thread.pc = 20
            } else {
                thread.pc = 0
            }
        case 10:
            if thread.remaining == 0 {
                thread.done = true
            } else {
                thread.pointer = current
                current = nextSnapshot
                nextSnapshot += 1
                thread.pc = 11
            }
        case 11:
            epoch += 1
            thread.announced = epoch
            thread.pc = 12
        case 12:
            retired.append(Retired(epoch: thread.announced, snapshot: thread.pointer))
            thread.pc = 13
        case 13:
            pending += 1
            thread.remaining -= 1
            thread.pc = 20
        case 20:
            if defect != .noRequests { requests += 1 }
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
            thread.pc = 23
        case 23:
            thread.candidates = retired
            retired = []
            thread.blocked = Array(repeating: false, count: thread.candidates.count)
            thread.scanned = 0
            thread.pc = thread.candidates.isEmpty ? 26 : 24
        case 24:
            let announced = records[thread.scanned]
            for (offset, item) in thread.candidates.enumerated() where announced != 0 && announced < item.epoch {
                thread.blocked[offset] = true
            }
            thread.scanned += 1
            if thread.scanned == records.count { thread.pc = 25 }
        case 25:
            thread.kept = []
            thread.freeing = []
            for (offset, item) in thread.candidates.enumerated() {
                if thread.blocked[offset] { thread.kept.append(item) } else { thread.freeing.append(item.snapshot) }
            }
            retired = thread.kept + retired
            pending -= thread.freeing.count
            thread.candidates = []
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
        threads[index] = thread
        return true
    }

    func afterReclaim(_ thread: Thread) -> Int {
        if case .reader = thread.role { return 0 }
        return 10
    }

    var violation: String? { useAfterRelease ? "a snapshot was used after its release" : nil }

    /// Every displaced snapshot (all but the current one) released.
    var finalViolation: String? {
        if threads.contains(where: { !$0.done }) { return "deadlock" }
        let displaced = Set(0..<nextSnapshot).subtracting([current])
        let stranded = displaced.subtracting(released)
        return stranded.isEmpty ? nil : "snapshots \(stranded.sorted()) retired and never released"
    }

    static func check(readers: [Int], writers: [Int], defect: Defect = .none) -> (violation: String?, states: Int) {
        var initial = ReadSideModel(readers: readers, writers: writers, defect: defect)
        for index in readers.count..<(readers.count + writers.count) { initial.threads[index].pc = 10 }
        return exploreInterleavings(
            initial, threads: readers.count + writers.count,
            step: { $0.step($1) }, check: \.violation, final: \.finalViolation)
    }
}

// MARK: - The call wait

/// The abstract call wait: one registration's `removed` flag and `inFlight` word (calls in units
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
    /// Readers (dispatches each) and writers (publications each): every pairing of one or two
    /// dispatches with one or two publications, and two readers with one writer (203,543
    /// states; larger configurations take minutes in a debug build).
    @Test(arguments: [([1], [1]), ([1], [2]), ([2], [1]), ([2], [2]), ([1, 1], [1])] as [([Int], [Int])])
    func readSideNeverUsesAReleasedSnapshotAndReleasesEveryDisplacedOne(readers: [Int], writers: [Int]) {
        let result = ReadSideModel.check(readers: readers, writers: writers)
        #expect(result.violation == nil)
        #expect(result.states > 100)
    }

    /// The search finds the bug each deliberate defect causes: the checks have teeth.
    @Test(arguments: [
        ReadSideModel.Defect.announceAfterLoad, .leaverNeverReclaims, .noRequests,
    ])
    func readSideDefectsAreFound(defect: ReadSideModel.Defect) {
        let result = ReadSideModel.check(readers: [1], writers: [2], defect: defect)
        #expect(result.violation != nil)
    }

    @Test(arguments: [1, 2, 3])
    func aRemovalReturnsOnlyOnceNoCallRunsAndNeverSleepsForever(callers: Int) {
        let result = CallWaitModel.check(callers: callers)
        #expect(result.violation == nil)
        #expect(result.states > 10)
    }

    @Test(arguments: [CallWaitModel.Defect.parkWordReadLate, .checkBeforeAnnounce])
    func callWaitDefectsAreFound(defect: CallWaitModel.Defect) {
        let result = CallWaitModel.check(callers: 2, defect: defect)
        #expect(result.violation != nil)
    }
}
