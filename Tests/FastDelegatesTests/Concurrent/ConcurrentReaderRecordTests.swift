import CDispatchTable
import Dispatch
import FastDelegatesTestSupport
import Foundation
import Synchronization
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

    final class Box: @unchecked Sendable {
        // Sound: only the new thread reads it, after `pthread_create`.
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// The bodies run by `runOnThread`, kept reachable: a thread that ends with `pthread_exit`
    /// never releases what its frames held, which LeakSanitizer would otherwise report.
    static let kept = Mutex<[Box]>([])

    /// Runs `body` on a new thread and joins it (`body` may end the thread with `pthread_exit`).
    static func runOnThread(_ body: @escaping @Sendable () -> Void) {
        let box = Box(body)
        kept.withLock { $0.append(box) }
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let context = Unmanaged.passRetained(box).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        pthread_join(thread!, nil)
        #endif
    }

    final class Exiter: @unchecked Sendable {
        // Sound: `record` is written by the exiting thread before it ends and read after the join.
        var record: UInt = 0
    }

    @Test func aThreadThatEndsInsideAHandlerGivesItsRecordBack() {
        let log = Log()
        let probe = Probe("p", log: log)
        let exiter = Exiter()
        let chain = ConcurrentDelegateChain()
        chain.add(probe)
        chain.add(
            exiter,
            responses: SendableResponses<Exiter>().on(Scroll.didScroll) { me, _ in
                me.record = UInt(bitPattern: cdt_thread_record())
                pthread_exit(nil)
            })
        Self.runOnThread { chain.send(Scroll.didScroll, 1) }
        #expect(log.events == ["p.didScroll(1)"])
        #expect(exiter.record != 0)
        #expect(!ReadSide.shared.holdsRecordForTesting(exiter.record), "the ended thread's record stays listed")
        // Its snapshot is released by the next mutation's reclaim, and a removal of the target
        // whose call the thread never finished returns.
        chain.add(Probe("q", log: log))
        #expect(chain.retiredSnapshotCountForTesting == 0)
        #expect(chain.remove(exiter))
        withExtendedLifetime(probe) {}
    }

    final class DeepExiter: @unchecked Sendable {
        // Sound: written by the exiting thread before it ends and read after the join.
        var record: UInt = 0
        var depth = 0
    }

    /// A thread that ends inside a call more than `announcedDepth` sends deep gives back what
    /// those levels counted: the chain's deep dispatches and the calls its registration counts
    /// in `inFlight`, so a removal of that target returns. (Before, the removal waited forever
    /// for the call the thread never finished, and the chain kept counting its deep dispatches.)
    @Test(arguments: [announcedDepth + 1, announcedDepth + 3])
    func aThreadThatEndsDeepInsideNestedSendsGivesEverythingBack(sends: Int) {
        let exiter = DeepExiter()
        let chain = ConcurrentDelegateChain()
        chain.add(
            exiter,
            // Unowned, not weak: the thread ends inside `send`, so the strong reference each
            // level takes is never given back and the chain is never freed; a weak capture would
            // give it a side table, which LeakSanitizer then reports (the object's header names
            // its side table in a form it does not trace).
            responses: SendableResponses<DeepExiter>().on(Scroll.didScroll) { [unowned chain] me, _ in
                me.depth += 1
                if me.depth < sends {
                    chain.send(Scroll.didScroll, me.depth)
                } else {
                    me.record = UInt(bitPattern: cdt_thread_record())
                    pthread_exit(nil)
                }
            })
        Self.runOnThread { chain.send(Scroll.didScroll, 0) }
        #expect(exiter.depth == sends)
        #expect(exiter.record != 0)
        #expect(!ReadSide.shared.holdsRecordForTesting(exiter.record), "the ended thread's record stays listed")
        #expect(chain.deepDispatchCountForTesting == 0)
        // The removal waits for the calls it thinks run: on another thread, so that a wait that
        // never ends fails the test instead of hanging it.
        let removed = DispatchSemaphore(value: 0)
        let result = Mutex<Bool?>(nil)
        let remover = Thread {
            let removedIt = chain.remove(exiter)
            result.withLock { $0 = removedIt }
            removed.signal()
        }
        remover.start()
        #expect(removed.wait(timeout: .now() + 20) == .success, "the removal waits for a call of an ended thread")
        #expect(result.withLock { $0 } == true)
        #expect(chain.retiredSnapshotCountForTesting == 0)
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
