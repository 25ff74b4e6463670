#if Macros
import FastDelegates
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WebKit's `WKNavigationDelegate` as the iOS 18 SDK imports it into Swift
/// (`@MainActor protocol WKNavigationDelegate : NSObjectProtocol`, every requirement `optional`).
/// 14 Objective-C methods, imported as 19 Swift requirements: each of the 5 methods with a
/// completion handler comes in its completion-handler form and in the `async` form Swift derives
/// from it (a conformer implements either; WebKit calls whichever it finds).
@DelegateProxy
@MainActor public protocol WKNavigationDelegate: AnyObject {
    // MARK: Allowing or denying navigation requests

    @DelegateDefault(WKNavigationActionPolicy.allow)
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    )
    @DelegateDefault(WKNavigationActionPolicy.allow)
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction
    ) async -> WKNavigationActionPolicy

    // iOS 13. WebKit calls this form instead of the one above when the delegate implements it.
    // Apple's default, `decisionHandler(.allow, preferences)`, combines a constant with the
    // `preferences` parameter: a computed default.
    @DelegateDefault(expression: "(WKNavigationActionPolicy.allow, preferences)")
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    )
    @DelegateDefault(expression: "(WKNavigationActionPolicy.allow, preferences)")
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        preferences: WKWebpagePreferences
    ) async -> (WKNavigationActionPolicy, WKWebpagePreferences)

    // Apple: without this method the web view allows the response if it can show it, and cancels
    // it otherwise.
    @DelegateDefault(
        expression:
            "navigationResponse.canShowMIMEType ? WKNavigationResponsePolicy.allow : WKNavigationResponsePolicy.cancel"
    )
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    )
    @DelegateDefault(
        expression:
            "navigationResponse.canShowMIMEType ? WKNavigationResponsePolicy.allow : WKNavigationResponsePolicy.cancel"
    )
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationResponse: WKNavigationResponse
    ) async -> WKNavigationResponsePolicy

    // MARK: Tracking the load progress of a request

    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didReceiveServerRedirectForProvisionalNavigation navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!)
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!)

    // MARK: Responding to authentication challenges

    // WKNavigationDelegate.h: "If you do not implement this method, the web view will respond to
    // the authentication challenge with the NSURLSessionAuthChallengeRejectProtectionSpace
    // disposition."
    @DelegateDefault((URLSession.AuthChallengeDisposition.rejectProtectionSpace, URLCredential?.none))
    func webView(
        _ webView: WKWebView,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    )
    @DelegateDefault((URLSession.AuthChallengeDisposition.rejectProtectionSpace, URLCredential?.none))
    func webView(
        _ webView: WKWebView,
        respondTo challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?)

    // iOS 14.
    @DelegateDefault(false)
    func webView(
        _ webView: WKWebView,
        authenticationChallenge challenge: URLAuthenticationChallenge,
        shouldAllowDeprecatedTLS decisionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    )
    @DelegateDefault(false)
    func webView(
        _ webView: WKWebView,
        shouldAllowDeprecatedTLSFor challenge: URLAuthenticationChallenge
    ) async -> Bool

    // MARK: Responding to navigation errors

    func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error)
    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error)
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView)

    // MARK: Handling download progress (iOS 14.5)

    func webView(_ webView: WKWebView, navigationAction: WKNavigationAction, didBecome download: WKDownload)
    func webView(_ webView: WKWebView, navigationResponse: WKNavigationResponse, didBecome download: WKDownload)
}
#endif
