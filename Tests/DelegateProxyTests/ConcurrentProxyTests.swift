#if Macros
import FastDelegates
import Foundation
import Synchronization
import Testing

// A nonisolated protocol, as ARKit, Core Data and UserNotifications declare theirs, whose proxy a
// framework's delegate queue and the main thread share: `@DelegateProxy(concurrent: true)`.

/// A frame, as a capture session's delegate queue delivers it.
struct CapturedFrame: Sendable {
    let index: Int
    let timestamp: Double
}

@DelegateProxy(concurrent: true)
protocol FrameDelegate: AnyObject {
    func session(didUpdate frame: CapturedFrame)
    @DelegateDefault(true) func sessionShouldKeepRunning(afterFrame index: Int) -> Bool
    func session(didFailWith message: String)
}

/// A `Sendable` listener: its state behind a mutex, as a listener called from the delegate queue
/// while the main thread reads it keeps it.
final class FrameCounter: FrameDelegate, Sendable {
    private let state = Mutex<(count: Int, last: Int)>((0, -1))
    var count: Int { state.withLock { $0.count } }
    var last: Int { state.withLock { $0.last } }
    func session(didUpdate frame: CapturedFrame) {
        state.withLock {
            $0.count += 1
            $0.last = frame.index
        }
    }
}

/// Stops the session after a given frame.
final class FrameLimiter: FrameDelegate, Sendable {
    let limit: Int
    init(limit: Int) { self.limit = limit }
    func sessionShouldKeepRunning(afterFrame index: Int) -> Bool { index < limit }
}

/// The framework's side: a session that calls its delegate from its own queue.
final class CaptureSession: @unchecked Sendable {
    // Sound: `delegate` is set before `run` and read only on `queue` afterwards (test code).
    weak var delegate: (any FrameDelegate)?
    let queue = DispatchQueue(label: "capture.delegate")

    /// Delivers `frames` frames on the delegate queue, stopping when the delegate says so.
    func run(frames: Int, done: @escaping @Sendable (Int) -> Void) {
        queue.async { [self] in
            var delivered = 0
            for index in 0..<frames {
                guard let delegate else { break }
                delegate.session(didUpdate: CapturedFrame(index: index, timestamp: Double(index) / 60))
                delivered += 1
                if !delegate.sessionShouldKeepRunning(afterFrame: index) { break }
            }
            done(delivered)
        }
    }
}

@Suite("A concurrent proxy for a nonisolated protocol: a delegate queue and the main actor share it")
struct ConcurrentProxyTests {
    @Test("Frames from the delegate queue reach listeners added from the main actor")
    func delegateQueue() async {
        let proxy = FrameDelegateProxy()
        let session = CaptureSession()
        session.delegate = proxy
        let counter = FrameCounter()
        let limiter = FrameLimiter(limit: 499)
        await MainActor.run {
            proxy.add(counter)
            proxy.add(limiter)
        }
        let delivered = await withCheckedContinuation { continuation in
            session.run(frames: 1_000) { continuation.resume(returning: $0) }
        }
        #expect(delivered == 500)
        #expect(counter.count == 500)
        #expect(counter.last == 499)
        // The limiter declined the frames; the counter declined the decision.
        #expect(proxy.chain.count == 2)
    }

    @Test("Listeners join and leave from the main actor while the queue sends; remove waits")
    func addAndRemoveWhileSending() async {
        let proxy = FrameDelegateProxy()
        let session = CaptureSession()
        session.delegate = proxy
        let steady = FrameCounter()
        proxy.add(steady)
        let finished = Atomic<Int>(-1)
        let done = DispatchSemaphore(value: 0)
        session.run(frames: 20_000) {
            finished.store($0, ordering: .releasing)
            done.signal()
        }
        for _ in 0..<50 {
            let visitor = FrameCounter()
            await MainActor.run { _ = proxy.add(visitor) }
            await Task.yield()
            await MainActor.run { _ = proxy.remove(visitor) }
            // Once `remove` returned, the visitor is called no more.
            let seen = visitor.count
            try? await Task.sleep(for: .milliseconds(1))
            #expect(visitor.count == seen)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        #expect(finished.load(ordering: .acquiring) == 20_000)
        #expect(steady.count == 20_000)
    }

    @Test("Without listeners, the defaults answer")
    func defaults() {
        let proxy = FrameDelegateProxy()
        #expect(proxy.sessionShouldKeepRunning(afterFrame: 3))
        proxy.session(didFailWith: "nothing listens")
    }
}
#endif
