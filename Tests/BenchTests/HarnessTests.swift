import Foundation
import Testing

@testable import fastdelegates_bench

/// The harness's calibration of each runner's batch.
@Suite struct HarnessTests {
    /// A runner whose first dispatch is slow (a one-time initialization, as NotificationCenter's
    /// first post), and every later one cheap.
    final class SlowStart: Runner {
        var sum = 0
        var started = false

        func run(_ count: Int, base: Int) {
            if !started {
                started = true
                usleep(5_000)
            }
            for i in 0..<count { sum &+= base &+ i }
        }

        var checksum: Int { sum }
    }

    /// Calibrated on a first dispatch that lasts longer than a sample, the batch would be one
    /// dispatch, and each sample would time one cold call: the first is left untimed.
    @Test func aSlowFirstDispatchDoesNotSetTheBatch() throws {
        let settings = HarnessSettings(
            samples: 3, warmupSamples: 1, sampleNanoseconds: 300_000, allocationDispatches: 10,
            countAllocations: false, seed: 1)
        let variant = Variant(name: "slow-start") { _, _ in AnyRunner(SlowStart()) }
        let measurements = Harness(settings: settings).measure([.tick], targets: 1, variants: [variant])
        let measurement = try #require(measurements.first)
        #expect(measurement.checksum == measurement.expectedChecksum)
        // A cheap dispatch (a few nanoseconds) fills a 0.3 ms sample thousands of times over.
        #expect(measurement.batch > 1_000)
    }
}
