#if Macros
import AppleDelegates
import FastDelegates
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Knows only the session level: records invalidation.
final class SessionWatcher: AppleDelegates.URLSessionDelegate {
    let log: SendableLog
    init(log: SendableLog) { self.log = log }
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        log.record("watcher.invalid")
    }
}

/// Task level: counts uploaded bytes, nothing else.
final class UploadMeter: AppleDelegates.URLSessionTaskDelegate {
    let log: SendableLog
    init(log: SendableLog) { self.log = log }
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        log.record("meter.sent(\(totalBytesSent))")
    }
}

/// Data level: collects the body.
final class BodyCollector: AppleDelegates.URLSessionDataDelegate {
    let log: SendableLog
    init(log: SendableLog) { self.log = log }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        log.record("collector.data(\(data.count))")
    }
}

/// Refuses redirects to another host.
final class RedirectGuard: AppleDelegates.URLSessionTaskDelegate {
    let log: SendableLog
    init(log: SendableLog) { self.log = log }
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        log.record("guard.redirect")
        completionHandler(request.url?.host == task.originalRequest?.url?.host ? request : nil)
    }
}

/// Cancels every response: implements the response decision.
final class ResponseCanceller: AppleDelegates.URLSessionDataDelegate {
    let log: SendableLog
    let name: String
    init(_ name: String, log: SendableLog) {
        self.name = name
        self.log = log
    }
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        log.record("\(name).response")
        completionHandler(.cancel)
    }
}

/// A session stand-in that calls its delegate as URLSession does, from any thread.
struct FakeLoader: Sendable {
    let delegate: any AppleDelegates.URLSessionDataDelegate
    let session = URLSession(configuration: .ephemeral)

    func task(_ url: String) -> URLSessionDataTask { session.dataTask(with: URL(string: url)!) }

    func redirect(_ task: URLSessionDataTask, to url: String, recorder: CallRecorder<URLRequest?>) {
        let response = HTTPURLResponse(
            url: task.originalRequest!.url!, statusCode: 302, httpVersion: nil, headerFields: nil)!
        delegate.urlSession(
            session, task: task, willPerformHTTPRedirection: response, newRequest: URLRequest(url: URL(string: url)!)
        ) {
            recorder.record($0)
        }
    }

    func respond(_ task: URLSessionDataTask, recorder: CallRecorder<URLSession.ResponseDisposition>) {
        delegate.urlSession(session, dataTask: task, didReceive: sampleResponse()) { recorder.record($0) }
    }

    func challenge(_ task: URLSessionDataTask, recorder: CallRecorder<URLSession.AuthChallengeDisposition>) {
        delegate.urlSession(session, task: task, didReceive: sampleChallenge()) { disposition, _ in
            recorder.record(disposition)
        }
    }
}

@Suite(
    "AppleDelegates.URLSessionDelegate / AppleDelegates.URLSessionTaskDelegate / AppleDelegates.URLSessionDataDelegate proxies (Sendable)"
)
struct URLSessionDelegatesTests {
    @Test(
        "Session-level and task-level listeners on a AppleDelegates.URLSessionDataDelegate proxy receive their parents' messages"
    )
    func parentOnlyListeners() {
        let log = SendableLog()
        let proxy = URLSessionDataDelegateProxy()
        let watcher = SessionWatcher(log: log), meter = UploadMeter(log: log), collector = BodyCollector(log: log)
        proxy.add(watcher)
        proxy.add(meter)
        proxy.add(collector)
        let loader = FakeLoader(delegate: proxy)
        let task = loader.task("https://example.com/upload")
        proxy.urlSession(
            loader.session, task: task, didSendBodyData: 10, totalBytesSent: 10, totalBytesExpectedToSend: 20)
        proxy.urlSession(loader.session, dataTask: task, didReceive: Data(count: 3))
        proxy.urlSession(loader.session, didBecomeInvalidWithError: nil)
        #expect(log.events == ["meter.sent(10)", "collector.data(3)", "watcher.invalid"])
    }

    @Test(
        "Redirect: @DelegateDefault(parameter: \"request\") → with no listener the handler gets the new request, once")
    func redirectDefault() {
        let proxy = URLSessionDataDelegateProxy()
        let loader = FakeLoader(delegate: proxy)
        let recorder = CallRecorder<URLRequest?>()
        loader.redirect(loader.task("https://example.com/a"), to: "https://example.com/b", recorder: recorder)
        #expect(recorder.calls.map { $0?.url?.absoluteString } == ["https://example.com/b"])
        #expect(
            !proxy.chain.responds(
                to: URLSessionTaskDelegateMessages.urlSessionTaskWillPerformHTTPRedirectionNewRequestCompletionHandler))
    }

    @Test("Redirect refused by the guard: the handler is called once, with nil")
    func redirectRefused() {
        let log = SendableLog()
        let proxy = URLSessionDataDelegateProxy()
        let tlsGuard = RedirectGuard(log: log)
        proxy.add(tlsGuard)
        let loader = FakeLoader(delegate: proxy)
        let recorder = CallRecorder<URLRequest?>()
        loader.redirect(loader.task("https://example.com/a"), to: "https://evil.example/b", recorder: recorder)
        #expect(recorder.calls.count == 1)
        #expect(recorder.calls.first! == nil)
    }

    @Test("Response decision: 0 listeners → once with .allow; 2 implementing listeners → once, the first's answer")
    func responseDecision() {
        let log = SendableLog()
        let proxy = URLSessionDataDelegateProxy()
        let loader = FakeLoader(delegate: proxy)
        let none = CallRecorder<URLSession.ResponseDisposition>()
        loader.respond(loader.task("https://example.com"), recorder: none)
        #expect(none.calls == [.allow])
        let first = ResponseCanceller("first", log: log), second = ResponseCanceller("second", log: log)
        proxy.add(first)
        proxy.add(second)
        let two = CallRecorder<URLSession.ResponseDisposition>()
        loader.respond(loader.task("https://example.com"), recorder: two)
        #expect(two.calls == [.cancel])
        #expect(log.events == ["first.response"])
    }

    @Test("Task challenge with no listener: called once with .performDefaultHandling")
    func challengeDefault() {
        let proxy = URLSessionDataDelegateProxy()
        let loader = FakeLoader(delegate: proxy)
        let recorder = CallRecorder<URLSession.AuthChallengeDisposition>()
        loader.challenge(loader.task("https://example.com"), recorder: recorder)
        #expect(recorder.calls == [.performDefaultHandling])
    }

    @Test("willCacheResponse: @DelegateDefault(parameter: \"proposedResponse\"), sync and async")
    func willCacheDefault() async {
        let proxy = URLSessionDataDelegateProxy()
        let loader = FakeLoader(delegate: proxy)
        let proposed = CachedURLResponse(response: sampleResponse(), data: Data([1, 2]))
        let recorder = CallRecorder<Bool>()
        proxy.urlSession(loader.session, dataTask: loader.task("https://example.com"), willCacheResponse: proposed) {
            recorder.record($0 === proposed)
        }
        #expect(recorder.calls == [true])
        let cached = await proxy.urlSession(
            loader.session, dataTask: loader.task("https://example.com"), willCacheResponse: proposed)
        #expect(cached === proposed)
    }

    @Test("needNewBodyStream has an Optional argument and no default: called once with nil")
    func bodyStreamNil() {
        let proxy = URLSessionDataDelegateProxy()
        let loader = FakeLoader(delegate: proxy)
        let recorder = CallRecorder<Bool>()
        proxy.urlSession(
            loader.session, task: loader.task("https://example.com"), needNewBodyStream: { recorder.record($0 == nil) })
        #expect(recorder.calls == [true])
    }

    @Test("Sends from several threads at once reach every listener")
    func concurrentSends() async {
        let log = SendableLog()
        let proxy = URLSessionDataDelegateProxy()
        let collector = BodyCollector(log: log)
        proxy.add(collector)
        let loader = FakeLoader(delegate: proxy)
        let task = loader.task("https://example.com")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { proxy.urlSession(loader.session, dataTask: task, didReceive: Data(count: 1)) }
            }
        }
        #expect(log.events.count == 8)
    }
}
#endif
