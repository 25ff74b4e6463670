import Dispatch
import FastDelegatesTestSupport
import Testing

@testable import FastDelegates

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread that sent on a concurrent chain and then ended gives its reader record back: the
/// records every mutation scans track the threads alive now, not the most that ever sent.
@Suite("Concurrent reader records of ended threads")
struct ConcurrentReaderRecordTests {
    /// Runs `count` threads at once, each running `body` and then waiting until all have; joins them.
    static func runTogether(_ count: Int, _ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable {
            // Sound: each thread only calls `body` and signals the semaphores, which are thread-safe.
            let body: @Sendable () -> Void
            let arrived = DispatchSemaphore(value: 0)
            let go = DispatchSemaphore(value: 0)
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Box(body)
        var threads: [pthread_t] = []
        for _ in 0..<count {
            #if canImport(Glibc)
            var thread = pthread_t()
            #else
            var thread: pthread_t?
            #endif
            let context = Unmanaged.passRetained(box).toOpaque()
            let status = pthread_create(
                &thread, nil,
                { context in
                    let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                    box.body()
                    box.arrived.signal()
                    box.go.wait()
                    return nil
                }, context)
            precondition(status == 0, "pthread_create failed: \(status)")
            #if canImport(Glibc)
            threads.append(thread)
            #else
            threads.append(thread!)
            #endif
        }
        for _ in 0..<count { box.arrived.wait() }
        for _ in 0..<count { box.go.signal() }
        for thread in threads { pthread_join(thread, nil) }
    }

    @Test func endedThreadsGiveTheirRecordsBack() {
        let threads = 64
        let log = Log()
        let probe = Probe("p", log: log)
        let chain = ConcurrentDelegateChain()
        chain.add(probe)
        let before = ReadSide.shared.recordCountForTesting
        Self.runTogether(threads) { chain.send(Scroll.didScroll, 1) }
        let after = ReadSide.shared.recordCountForTesting
        #expect(log.events.count == threads)
        // Other suites' threads may come and go meanwhile: allow them a few records.
        #expect(after < before + threads / 2, "records before \(before), after \(after)")
        withExtendedLifetime(probe) {}
    }
}
