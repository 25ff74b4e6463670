import Foundation

/// What `make soak` (scripts/soak.sh) passes to the randomized tests through the environment.
package enum Soak {
    /// `FASTDELEGATES_SEED=N` replaces a test's fixed seeds with N, N+1, … (as many); unset, the
    /// fixed seeds run. Failures name their seed, so a soak failure replays with the same N.
    package static func seeds(_ fixed: [UInt64]) -> [UInt64] {
        guard let text = ProcessInfo.processInfo.environment["FASTDELEGATES_SEED"], let first = UInt64(text) else {
            return fixed
        }
        return fixed.indices.map { first &+ UInt64($0) }
    }

    /// Whether the soak is running (it reads the tests' `soak:` lines for its figures).
    package static let reporting = ProcessInfo.processInfo.environment["FASTDELEGATES_SOAK"] != nil

    /// `FASTDELEGATES_STRESS_SECONDS=S` makes the stress test hammer for S seconds; unset, nil.
    package static let stressDuration: Duration? = ProcessInfo.processInfo.environment["FASTDELEGATES_STRESS_SECONDS"]
        .flatMap(Double.init).map { .milliseconds(Int($0 * 1000)) }
}
