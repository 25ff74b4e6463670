#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How often the calling thread has been taken off its CPU so far: its involuntary context
/// switches (`getrusage(RUSAGE_THREAD)`'s `ru_nivcsw`: preempted by another thread, of this
/// process or another, or moved to another CPU by the load balancer). A sample whose thread was
/// preempted while it ran measured another thread's time slice as well as its own dispatches.
struct ThreadSchedule: Equatable {
    /// Involuntary context switches of the calling thread so far, or -1 where the OS does not
    /// count them.
    var involuntarySwitches: Int

    /// The calling thread's count now.
    @inline(never)
    static func now() -> ThreadSchedule {
        #if os(Linux)
        var usage = rusage()
        // RUSAGE_THREAD (1): the calling thread only. Glibc does not export the name to Swift.
        return ThreadSchedule(involuntarySwitches: getrusage(__rusage_who_t(1), &usage) == 0 ? usage.ru_nivcsw : -1)
        #else
        return ThreadSchedule(involuntarySwitches: -1)
        #endif
    }

    /// Whether the thread was preempted between `self` and `later` (never, where the OS does not
    /// count it).
    func wasInterrupted(before later: ThreadSchedule) -> Bool {
        later.involuntarySwitches != involuntarySwitches
    }
}

/// One timed batch: its duration, and whether the thread was preempted while it ran.
struct Sample: Equatable {
    var nanoseconds: UInt64
    var interrupted: Bool
}

/// The sample the harness keeps of a runner in one round: the first attempt that was not
/// interrupted, retaken up to `retakes` times; when every attempt was interrupted, the fastest
/// of them (the one the interruption cost least), flagged as interrupted.
///
/// On a machine with more runnable threads than cores, the scheduler preempts the harness thread
/// for a time slice (about 4 ms under Linux's CFS) every few milliseconds. A 2 ms sample that
/// contains one slice measures 3× its dispatches' time; when preemptions fall in step with the
/// round-robin order, the same variant's samples are hit round after round, and its median
/// moves by that factor while its instruction count does not.
struct SampleTaking {
    /// Attempts beyond the first for one kept sample.
    let retakes: Int

    /// Takes the sample of one round with `attempt` (which times one batch).
    /// - Returns: the sample kept and how many attempts were discarded before it.
    func take(_ attempt: () -> Sample) -> (sample: Sample, discarded: Int) {
        var fastest = attempt()
        var discarded = 0
        while fastest.interrupted && discarded < retakes {
            let next = attempt()
            discarded += 1
            if !next.interrupted { return (next, discarded) }
            if next.nanoseconds < fastest.nanoseconds { fastest = next }
        }
        return (fastest, discarded)
    }
}

/// The order of the runners' samples in each round: a fresh seeded permutation per round.
///
/// A rotated fixed order (each round the same cycle, starting one runner later) has every runner
/// follow the same runner in all but one round in `count`: whatever state that one leaves behind
/// (branch and indirect-call predictor entries, caches, the scheduler's phase) meets the same
/// runner round after round, and can move its median while its instruction count does not. With
/// a permutation per round, each runner follows each other runner about equally often.
struct RoundOrder {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// The next round's order of the runners `0..<count`.
    mutating func next(_ count: Int) -> [Int] {
        var order = Array(0..<count)
        // Fisher–Yates, with the seeded generator.
        for i in stride(from: count - 1, to: 0, by: -1) {
            let j = Int(random.next() % UInt64(i + 1))
            order.swapAt(i, j)
        }
        return order
    }
}
