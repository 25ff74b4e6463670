import MallocInterposerSwift

#if canImport(Glibc)
import Glibc
#endif

/// Counts heap allocations with ordo-one's malloc-interposer.
///
/// On Linux the interposer only sees `malloc` when its library is preloaded; ``ensurePreloaded()``
/// re-executes the benchmark with `LD_PRELOAD` pointing at `libMallocInterposerSwift.so` next to
/// the executable. ``selfTest()`` checks that a known allocation is counted before any figure is
/// reported; if it is not, allocation figures are reported as unknown (`null`), never guessed.
enum AllocationCounter {
    private static let reexecMarker = "FASTDELEGATES_BENCH_PRELOADED"

    /// A class instance: allocating one is exactly one `malloc`.
    private final class Probe {
        var value = 0
    }

    /// Where probes escape to, so the optimizer cannot promote them to the stack.
    nonisolated(unsafe) private static var escaped: Probe?

    @inline(never)
    private static func allocateProbes(_ count: Int) {
        for _ in 0..<count { escaped = Probe() }
        escaped = nil
    }

    /// Whether counting works: 100 known allocations must count at least 100.
    static func selfTest() -> Bool {
        MallocInterposerSwift.initialize()
        let counted = count { allocateProbes(100) }
        return counted >= 100 && counted < 200
    }

    /// The number of allocations `body` performs.
    static func count(_ body: () -> Void) -> Int {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        body()
        MallocInterposerSwift.unhook()
        return MallocInterposerSwift.getStatistics().mallocCount
    }

    /// The interposer's figures (allocations, frees) over `body`.
    static func statistics(_ body: () -> Void) -> MallocInterposerSwift.Statistics {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        body()
        MallocInterposerSwift.unhook()
        return MallocInterposerSwift.getStatistics()
    }

    /// If counting does not work yet, re-executes this process with the interposer preloaded.
    /// Returns only if no re-execution happened (counting works, or preloading is impossible).
    static func ensurePreloaded() {
        #if os(Linux)
        if selfTest() || getenv(reexecMarker) != nil { return }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        let library = directory + "/libMallocInterposerSwift.so"
        guard access(library, R_OK) == 0 else { return }
        setenv("LD_PRELOAD", library, 1)
        setenv(reexecMarker, "1", 1)
        execv(executable, CommandLine.unsafeArgv)
        #endif
    }
}
