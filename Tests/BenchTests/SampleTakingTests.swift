import Testing

@testable import fastdelegates_bench

/// What the harness keeps of a round's attempts when the scheduler preempts its thread, and the
/// order of the runners in each round. No timing: scripted attempts and seeded orders.
@Suite struct SampleTakingTests {
    /// Replays `samples` in order, one per attempt, and counts the attempts.
    final class Script {
        var samples: [Sample]
        var attempts = 0
        init(_ samples: [Sample]) { self.samples = samples }
        func attempt() -> Sample {
            attempts += 1
            return samples.removeFirst()
        }
    }

    @Test func anUninterruptedFirstAttemptIsKept() {
        let script = Script([Sample(nanoseconds: 10, interrupted: false), Sample(nanoseconds: 1, interrupted: false)])
        let (sample, discarded) = SampleTaking(retakes: 5).take(script.attempt)
        #expect(sample == Sample(nanoseconds: 10, interrupted: false))
        #expect(discarded == 0)
        #expect(script.attempts == 1)
    }

    /// A preempted attempt (3× its dispatches' time, as one 4 ms time slice in a 2 ms sample) is
    /// thrown away, and the first clean one kept, even when slower than a preempted one.
    @Test func preemptedAttemptsAreTakenAgain() {
        let script = Script([
            Sample(nanoseconds: 300, interrupted: true), Sample(nanoseconds: 90, interrupted: true),
            Sample(nanoseconds: 100, interrupted: false), Sample(nanoseconds: 50, interrupted: false),
        ])
        let (sample, discarded) = SampleTaking(retakes: 5).take(script.attempt)
        #expect(sample == Sample(nanoseconds: 100, interrupted: false))
        #expect(discarded == 2)
        #expect(script.attempts == 3)
    }

    /// When every attempt is preempted, the harness stops after `retakes` more and keeps the
    /// fastest, flagged.
    @Test func everyAttemptPreemptedKeepsTheFastest() {
        let script = Script([300, 120, 200, 400, 1].map { Sample(nanoseconds: $0, interrupted: true) })
        let (sample, discarded) = SampleTaking(retakes: 3).take(script.attempt)
        #expect(sample == Sample(nanoseconds: 120, interrupted: true))
        #expect(discarded == 3)
        #expect(script.attempts == 4)
    }

    /// A thread's involuntary switches only grow; the same count is no interruption.
    @Test func theScheduleCountsInvoluntarySwitches() {
        let before = ThreadSchedule.now()
        let after = ThreadSchedule.now()
        #expect(after.involuntarySwitches >= before.involuntarySwitches)
        #expect(!before.wasInterrupted(before: before))
        #expect(before.wasInterrupted(before: ThreadSchedule(involuntarySwitches: before.involuntarySwitches + 1)))
    }

    /// Each round is a permutation of the runners, the same for the same seed, and over rounds
    /// each runner follows every other one (a rotated fixed order would give each one the same
    /// predecessor in all but one round in `count`).
    @Test func roundsArePermutationsWithVaryingPredecessors() {
        let count = 6
        var order = RoundOrder(seed: 42)
        var again = RoundOrder(seed: 42)
        var followed = Set<[Int]>()
        for _ in 0..<200 {
            let round = order.next(count)
            #expect(round.sorted() == Array(0..<count))
            #expect(round == again.next(count))
            for (a, b) in zip(round, round.dropFirst()) { followed.insert([a, b]) }
        }
        #expect(followed.count == count * (count - 1))
        var small = RoundOrder(seed: 1)
        #expect(small.next(1) == [0])
        #expect(small.next(0).isEmpty)
    }

    /// Through the harness: every sample of every runner is kept once, whatever the retakes, and
    /// the work is checked as before.
    @Test func theHarnessKeepsOneSamplePerRound() throws {
        final class Counting: Runner {
            var sum = 0
            func run(_ count: Int, base: Int) { for i in 0..<count { sum &+= base &+ i } }
            var checksum: Int { sum }
        }
        let settings = HarnessSettings(
            samples: 9, warmupSamples: 1, sampleNanoseconds: 50_000, allocationDispatches: 10,
            countAllocations: false, seed: 3)
        let variants = (0..<3).map { k in Variant(name: "v\(k)") { _, _ in AnyRunner(Counting()) } }
        let measurements = Harness(settings: settings).measure([.tick], targets: 1, variants: variants)
        #expect(measurements.count == 3)
        for m in measurements {
            #expect(m.samples.count == 9)
            #expect(m.checksum == m.expectedChecksum)
            #expect(m.interruptedKept <= m.samples.count)
        }
    }
}
