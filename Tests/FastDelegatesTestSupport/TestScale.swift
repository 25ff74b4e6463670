#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sizes for the tests that build very large chains: full size normally, scaled down when the
/// Makefile runs the suites under a sanitizer (`FASTDELEGATES_TEST_SCALE=sanitizer`), where
/// every memory access costs several times more.
package enum TestScale {
    package static let underSanitizer = getenv("FASTDELEGATES_TEST_SCALE").map { String(cString: $0) } == "sanitizer"

    /// `full`, or `full / divisor` under a sanitizer.
    package static func count(_ full: Int, sanitizerDivisor divisor: Int = 10) -> Int {
        underSanitizer ? full / divisor : full
    }
}
