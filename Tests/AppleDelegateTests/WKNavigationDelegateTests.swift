#if Macros
import AppleDelegates
import FastDelegates
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Blocks one host; implements only the action decision.
@MainActor final class HostBlocker: WKNavigationDelegate {
    let blockedHost: String
    let log: EventLog
    init(blocking host: String, log: EventLog) {
        blockedHost = host
        self.log = log
    }
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {
        log.record("blocker.decide")
        decisionHandler(navigationAction.request.url?.host == blockedHost ? .cancel : .allow)
    }
}

/// Progress bar: implements only the load-progress messages (with `WKNavigation!`).
@MainActor final class ProgressBar: WKNavigationDelegate {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {
        log.record("progress.start")
    }
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) { log.record("progress.finish") }
}

/// Answers challenges with a credential.
@MainActor final class Authenticator: WKNavigationDelegate {
    func webView(
        _ webView: WKWebView,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.useCredential, URLCredential(user: "u", password: "p", persistence: .none))
    }
}

/// A web view stand-in that asks its navigation delegate as WebKit does.
extension WKWebView {
    func load(_ url: URL, recorder: CallRecorder<WKNavigationActionPolicy>) {
        let action = WKNavigationAction(request: URLRequest(url: url))
        guard let delegate = navigationDelegate else { return recorder.record(.allow) }
        delegate.webView(self, decidePolicyFor: action) { policy in
            recorder.record(policy)
            guard policy == .allow else { return }
            let navigation = WKNavigation()
            delegate.webView(self, didStartProvisionalNavigation: navigation)
            delegate.webView(self, didFinish: navigation)
        }
    }
}

func sampleChallenge() -> URLAuthenticationChallenge {
    let space = URLProtectionSpace(
        host: "example.com", port: 443, protocol: "https", realm: nil,
        authenticationMethod: NSURLAuthenticationMethodHTTPBasic)
    return URLAuthenticationChallenge(
        protectionSpace: space, proposedCredential: nil, previousFailureCount: 0, failureResponse: nil, error: nil,
        sender: NoSender())
}

final class NoSender: NSObject, URLAuthenticationChallengeSender {
    func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
    func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
    func cancel(_ challenge: URLAuthenticationChallenge) {}
    func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
    func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}

@MainActor
@Suite("WKNavigationDelegate proxy")
struct WKNavigationDelegateTests {
    @Test("0 listeners: the decision handler is called once, with .allow")
    func decisionDefault() {
        let webView = WKWebView()
        let proxy = WKNavigationDelegateProxy()
        webView.navigationDelegate = proxy
        let recorder = CallRecorder<WKNavigationActionPolicy>()
        webView.load(URL(string: "https://example.com")!, recorder: recorder)
        #expect(recorder.calls == [.allow])
    }

    @Test("2 implementing listeners: the decision handler is called once, with the first one's answer")
    func decisionOnce() {
        let log = EventLog()
        let webView = WKWebView()
        let proxy = WKNavigationDelegateProxy()
        webView.navigationDelegate = proxy
        let first = HostBlocker(blocking: "ads.example", log: log)
        let second = HostBlocker(blocking: "example.com", log: log)
        let progress = ProgressBar(log: log)
        proxy.add(progress)
        proxy.add(first)
        proxy.add(second)
        let recorder = CallRecorder<WKNavigationActionPolicy>()
        webView.load(URL(string: "https://example.com")!, recorder: recorder)
        #expect(recorder.calls == [.allow])
        #expect(log.events == ["blocker.decide", "progress.start", "progress.finish"])
    }

    @Test("The async form answers the default with no listener")
    func asyncDefault() async {
        let proxy = WKNavigationDelegateProxy()
        let policy = await proxy.webView(
            WKWebView(),
            decidePolicyFor: WKNavigationAction(request: URLRequest(url: URL(string: "https://a.example")!)))
        #expect(policy == .allow)
        let response = await proxy.webView(
            WKWebView(), decidePolicyFor: WKNavigationResponse(response: sampleResponse()))
        #expect(response == .allow)
    }

    @Test(
        "Authentication challenge: 0 listeners → once with (.rejectProtectionSpace, nil); a listener → once with its answer"
    )
    func challenge() {
        let proxy = WKNavigationDelegateProxy()
        let webView = WKWebView()
        let recorder = CallRecorder<URLSession.AuthChallengeDisposition>()
        proxy.webView(webView, didReceive: sampleChallenge()) { disposition, credential in
            recorder.record(disposition)
            #expect(credential == nil)
        }
        #expect(recorder.calls == [.rejectProtectionSpace])
        let first = Authenticator(), second = Authenticator()
        proxy.add(first)
        proxy.add(second)
        let answered = CallRecorder<URLSession.AuthChallengeDisposition>()
        proxy.webView(webView, didReceive: sampleChallenge()) { disposition, _ in answered.record(disposition) }
        #expect(answered.calls == [.useCredential])
    }

    // Apple's default hands the `preferences` parameter back: a computed default,
    // `@DelegateDefault(expression: "(WKNavigationActionPolicy.allow, preferences)")`.
    @Test("The preferences form: with no listener the handler is called once, with .allow and the preferences")
    func preferencesDefault() {
        let proxy = WKNavigationDelegateProxy()
        let preferences = WKWebpagePreferences()
        let recorder = CallRecorder<WKNavigationActionPolicy>()
        proxy.webView(
            WKWebView(),
            decidePolicyFor: WKNavigationAction(request: URLRequest(url: URL(string: "https://a.example")!)),
            preferences: preferences
        ) { policy, answered in
            recorder.record(policy)
            #expect(answered === preferences)
        }
        #expect(recorder.calls == [.allow])
        #expect(
            !proxy.chain.responds(to: WKNavigationDelegateMessages.webViewDecidePolicyForPreferencesDecisionHandler))
    }

    @Test("A progress-only listener: responds(to:) is true for its messages only, once each was sent")
    func responds() {
        let proxy = WKNavigationDelegateProxy()
        let log = EventLog()
        let progress = ProgressBar(log: log)
        proxy.add(progress)
        let webView = WKWebView(), navigation = WKNavigation()
        proxy.webView(webView, didFinish: navigation)
        proxy.webView(webView, didCommit: navigation)
        #expect(log.events == ["progress.finish"])
        #expect(proxy.chain.responds(to: WKNavigationDelegateMessages.webViewDidFinish))
        #expect(!proxy.chain.responds(to: WKNavigationDelegateMessages.webViewDidCommit))
    }
}
#endif
