import FastDelegates
import FastDelegatesFoundation
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Logs each task's completion and the session's invalidation.
final class SessionLogger: URLSessionListener {
    let events = Mutex<[String]>([])
    let done = Signal()
    let invalidated = Signal()
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        events.withLock { $0.append(error == nil ? "complete" : "failed") }
        done.fire()
    }
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        events.withLock { $0.append("invalid") }
        invalidated.fire()
    }
}

/// Shows a download's progress.
final class ProgressView: URLSessionListener {
    let totals = Mutex<[Int64]>([])
    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) { totals.withLock { $0.append(totalBytesWritten) } }
}

/// Keeps the downloaded file's contents, as an app moves the file.
final class DownloadKeeper: URLSessionListener {
    let contents = Mutex<Data?>(nil)
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        contents.withLock { $0 = try? Data(contentsOf: location) }
    }
}

/// Collects a data task's body; optionally removes itself from `proxy` after its first chunk.
final class BodyCollector: URLSessionListener {
    let body = Mutex(Data())
    let chunks = Mutex(0)
    private let leaving: URLSessionDelegateProxy?
    init(leaving proxy: URLSessionDelegateProxy? = nil) { leaving = proxy }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        body.withLock { $0.append(data) }
        chunks.withLock { $0 += 1 }
        leaving?.remove(self) // inside its own call, on the session's delegate queue
    }
}

/// Answers redirects: follows them, or refuses them (`nil`).
final class Redirector: URLSessionListener {
    let follows: Bool
    let asked = Mutex(0)
    init(follows: Bool) { self.follows = follows }
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        asked.withLock { $0 += 1 }
        completionHandler(follows ? request : nil)
    }
}

/// Answers Basic challenges with `user:secret`.
final class Authenticator: URLSessionListener {
    let asked = Mutex(0)
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        asked.withLock { $0 += 1 }
        completionHandler(.useCredential, URLCredential(user: "user", password: "secret", persistence: .forSession))
    }
}

/// Refuses every response (`.cancel`) and every caching (`nil`), and counts the questions.
final class Refuser: URLSessionListener {
    let responses = Mutex(0)
    let cachings = Mutex(0)
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        responses.withLock { $0 += 1 }
        completionHandler(.cancel)
    }
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        cachings.withLock { $0 += 1 }
        completionHandler(nil)
    }
}

/// A plain data delegate that collects the body and implements no decision: Foundation's own
/// answers (its protocol extensions) decide.
final class PlainDataDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let body = Mutex(Data())
    let done = Signal()
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        body.withLock { $0.append(data) }
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        done.fire()
    }
}

/// A session delegate that implements nothing: Foundation's own behaviour.
final class SilentSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {}

@Suite("URLSessionListenerProxy in a real URLSession against a loopback server", .serialized)
struct URLSessionProxyTests {
    /// The served body (computed: a `static let` of it shows as a leak under LeakSanitizer).
    static var body: Data { Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }) }

    /// One data task of `path`, with `delegate` as the session's delegate, until `done` fires;
    /// answers the response's status.
    func fetch(
        _ path: String, on server: LoopbackServer, delegate: any URLSessionDelegate, done: Signal
    ) async -> Int? {
        let (finished, status) = await attempt(path, on: server, delegate: delegate, done: done, seconds: 20)
        #expect(finished, "the task did not complete")
        return status
    }

    /// One data task of `path` for at most `seconds`: whether `done` fired, and the status.
    func attempt(
        _ path: String, on server: LoopbackServer, delegate: any URLSessionDelegate, done: Signal, seconds: Int
    ) async -> (Bool, Int?) {
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: server.url(path))
        task.resume()
        let finished = await done.wait(seconds: seconds)
        return (finished, (task.response as? HTTPURLResponse)?.statusCode)
    }

    @Test("A download multicast to a logger, a progress view and the app; the session's invalidation to the logger")
    func download() async throws {
        let server = try LoopbackServer(body: Self.body)
        defer { server.stop() }
        let proxy = URLSessionDelegateProxy()
        let (logger, progress, app) = (SessionLogger(), ProgressView(), DownloadKeeper())
        proxy.add(logger)
        proxy.add(progress)
        proxy.add(app)
        let session = URLSession(configuration: .ephemeral, delegate: proxy, delegateQueue: nil)
        session.downloadTask(with: server.url("/file")).resume()
        #expect(await logger.done.wait(seconds: 20))
        session.finishTasksAndInvalidate()
        #expect(await logger.invalidated.wait(seconds: 20))
        #expect(app.contents.withLock { $0 } == Self.body)
        let totals = progress.totals.withLock { $0 }
        #expect(totals.last == Int64(Self.body.count))
        #expect(totals == totals.sorted())
        #expect(logger.events.withLock { $0 } == ["complete", "invalid"])
    }

    @Test("Redirects: followed by default (as with a plain delegate); the first implementer decides, once")
    func redirect() async throws {
        let server = try LoopbackServer(body: Self.body)
        defer { server.stop() }
        let plain = PlainDataDelegate()
        #expect(await fetch("/redirect", on: server, delegate: plain, done: plain.done) == 200)
        #expect(plain.body.withLock { $0 } == Self.body)

        let proxy = URLSessionDelegateProxy()
        let (collector, logger) = (BodyCollector(), SessionLogger())
        proxy.add(collector)
        proxy.add(logger)
        #expect(await fetch("/redirect", on: server, delegate: proxy, done: logger.done) == 200)
        #expect(collector.body.withLock { $0 } == Self.body)

        let refusing = URLSessionDelegateProxy()
        let (refuser, follower, other, log2) = (
            Redirector(follows: false), Redirector(follows: true), BodyCollector(), SessionLogger()
        )
        for listener in [other, refuser, follower, log2] as [any URLSessionListener] { refusing.add(listener) }
        #expect(await fetch("/redirect", on: server, delegate: refusing, done: log2.done) == 302)
        #expect(other.body.withLock { $0 } == Data("moved".utf8))
        #expect(refuser.asked.withLock { $0 } == 1)
        #expect(follower.asked.withLock { $0 } == 0)
        #expect(server.served.filter { $0 == "GET /redirect" }.count == 3)
    }

    @Test(
        "Basic auth: default handling without an answer (as with a plain delegate); credentials from the first implementer"
    )
    func basicAuth() async throws {
        let server = try LoopbackServer(body: Self.body)
        defer { server.stop() }
        // No answer: `.performDefaultHandling`, with no stored credential. The proxy does what a
        // plain delegate that implements no challenge method does: swift-corelibs-foundation
        // sends no credential, and (on this toolchain) does not complete the task.
        let plain = PlainDataDelegate()
        let plainOutcome = await attempt("/private", on: server, delegate: plain, done: plain.done, seconds: 3)
        #expect(plainOutcome.0 == false, "the 401 answered with the default completed the task")
        let proxy = URLSessionDelegateProxy()
        let (collector, logger) = (BodyCollector(), SessionLogger())
        proxy.add(collector)
        proxy.add(logger)
        let proxyOutcome = await attempt("/private", on: server, delegate: proxy, done: logger.done, seconds: 3)
        #expect(proxyOutcome == plainOutcome)
        #expect(collector.body.withLock { $0 } == plain.body.withLock { $0 })
        #expect(server.served == ["GET /private", "GET /private"])

        let answering = URLSessionDelegateProxy()
        let (first, second, body, log2) = (Authenticator(), Authenticator(), BodyCollector(), SessionLogger())
        for listener in [body, first, second, log2] as [any URLSessionListener] { answering.add(listener) }
        #expect(await fetch("/private", on: server, delegate: answering, done: log2.done) == 200)
        // swift-corelibs-foundation hands the 401's own body to the data delegate before the
        // authorized body.
        #expect(body.body.withLock { $0 } == Data("denied".utf8) + Self.body)
        #expect(first.asked.withLock { $0 } == 1)
        #expect(second.asked.withLock { $0 } == 0)
    }

    /// What *Foundation's delegates* says swift-corelibs-foundation ignores on Linux: it asks
    /// for the response's disposition but goes on after `.cancel`, and never asks whether to
    /// cache (every HTTP response gets a `.notAllowed` cache policy).
    @Test("Linux: the response's disposition is asked and ignored; willCacheResponse is never asked")
    func ignoredAnswers() async throws {
        let server = try LoopbackServer(body: Self.body)
        defer { server.stop() }
        let proxy = URLSessionDelegateProxy()
        let (refuser, collector, logger) = (Refuser(), BodyCollector(), SessionLogger())
        for listener in [refuser, collector, logger] as [any URLSessionListener] { proxy.add(listener) }
        #expect(await fetch("/file", on: server, delegate: proxy, done: logger.done) == 200)
        #expect(refuser.responses.withLock { $0 } == 1)
        #expect(collector.body.withLock { $0 } == Self.body)
        #expect(logger.events.withLock { $0 }.first == "complete") // not "failed": not cancelled
        #expect(refuser.cachings.withLock { $0 } == 0)
    }

    @Test("With no listener at all, a redirected data task ends as with a delegate that implements nothing")
    func noListener() async throws {
        let server = try LoopbackServer(body: Self.body)
        defer { server.stop() }
        let plain = await run("/redirect", on: server, delegate: SilentSessionDelegate())
        let proxied = await run("/redirect", on: server, delegate: URLSessionDelegateProxy())
        #expect(plain.state == URLSessionTask.State.completed)
        #expect(proxied.state == plain.state)
        #expect(proxied.status == plain.status)
        #expect(plain.status == 200) // the redirect followed, the response allowed
        #expect(server.served == ["GET /redirect", "GET /file", "GET /redirect", "GET /file"])
    }

    /// One data task with `delegate` and nothing listening: its final state and status, polled.
    func run(_ path: String, on server: LoopbackServer, delegate: any URLSessionDelegate) async -> (
        state: URLSessionTask.State, status: Int?
    ) {
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: server.url(path))
        task.resume()
        for _ in 0..<2_000 where task.state != .completed { try? await Task.sleep(for: .milliseconds(10)) }
        return (task.state, (task.response as? HTTPURLResponse)?.statusCode)
    }

    @Test("A listener that removes itself in its first data call gets that chunk only; no deadlock")
    func removedMidStream() async throws {
        let server = try LoopbackServer(body: Self.body)
        defer { server.stop() }
        let proxy = URLSessionDelegateProxy()
        let leaving = BodyCollector(leaving: proxy)
        let (staying, logger) = (BodyCollector(), SessionLogger())
        proxy.add(leaving)
        proxy.add(staying)
        proxy.add(logger)
        #expect(await fetch("/file", on: server, delegate: proxy, done: logger.done) == 200)
        #expect(leaving.chunks.withLock { $0 } == 1)
        #expect(staying.body.withLock { $0 } == Self.body)
        #expect(staying.chunks.withLock { $0 } > 1)
        #expect(proxy.chain.count == 2)
    }

    @Test("Listeners come and go on another task while the session's queue sends")
    func concurrent() async throws {
        let server = try LoopbackServer(body: Self.body)
        defer { server.stop() }
        let proxy = URLSessionDelegateProxy()
        let (steady, logger) = (BodyCollector(), SessionLogger())
        proxy.add(steady)
        proxy.add(logger)
        let churn = Task.detached {
            var added = 0
            while !Task.isCancelled {
                let transient = BodyCollector()
                let token = proxy.add(transient)
                await Task.yield()
                token.cancel()
                added += 1
            }
            return added
        }
        let session = URLSession(configuration: .ephemeral, delegate: proxy, delegateQueue: nil)
        for _ in 0..<3 {
            session.dataTask(with: server.url("/file")).resume()
        }
        for _ in 0..<200 where logger.events.withLock({ $0.count }) < 3 { try await Task.sleep(for: .milliseconds(50)) }
        churn.cancel()
        #expect(await churn.value > 0)
        session.finishTasksAndInvalidate()
        #expect(logger.events.withLock { $0.filter { $0 == "complete" }.count } == 3)
        #expect(steady.body.withLock { $0.count } == 3 * Self.body.count)
        #expect(proxy.chain.count == 2)
    }
}
