#if Macros
import FastDelegates
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Foundation's URLSession delegate family as the iOS 18 SDK imports it into Swift. Choice:
// `Sendable`, as the SDK declares it (NSURLSessionDelegate is NS_SWIFT_SENDABLE, imported as
// `protocol URLSessionDelegate : NSObjectProtocol, Sendable`), so the requirements are
// nonisolated and the completion handlers `@Sendable`. These declarations shadow
// swift-corelibs-foundation's own protocols of the same names inside this module; every type in
// their signatures is the real Foundation type.

/// `URLSessionDelegate` (`: NSObjectProtocol, Sendable`). 4 requirements.
@DelegateProxy
public protocol URLSessionDelegate: AnyObject, Sendable {
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?)

    // URLSession.AuthChallengeDisposition.performDefaultHandling: "Use the default handling for the
    // challenge as though this delegate method were not implemented."
    @DelegateDefault((URLSession.AuthChallengeDisposition.performDefaultHandling, URLCredential?.none))
    func urlSession(
        _ session: URLSession,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    )
    @DelegateDefault((URLSession.AuthChallengeDisposition.performDefaultHandling, URLCredential?.none))
    func urlSession(
        _ session: URLSession,
        didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?)

    // iOS only (API_UNAVAILABLE(macos)); transcribed unconditionally.
    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession)
}

/// `URLSessionTaskDelegate` (`: URLSessionDelegate`). 16 requirements of its own (8 Objective-C
/// methods without a completion handler, 4 with one, each of those also in its `async` form),
/// plus the 4 of `URLSessionDelegate`.
@DelegateProxy
public protocol URLSessionTaskDelegate: URLSessionDelegate {
    // iOS 16.
    func urlSession(_ session: URLSession, didCreateTask task: URLSessionTask)

    // URLSession.DelayedRequestDisposition.continueLoading: "Indicates that the task should
    // proceed with the original request. When using this disposition, the URL request parameter of
    // the completion handler is ignored."
    @DelegateDefault((URLSession.DelayedRequestDisposition.continueLoading, URLRequest?.none))
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willBeginDelayedRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLSession.DelayedRequestDisposition, URLRequest?) -> Void
    )
    @DelegateDefault((URLSession.DelayedRequestDisposition.continueLoading, URLRequest?.none))
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willBeginDelayedRequest request: URLRequest
    ) async -> (URLSession.DelayedRequestDisposition, URLRequest?)

    func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask)

    // Without a delegate the task follows the redirect: it loads `request`. (`nil` would refuse it.)
    @DelegateDefault(parameter: "request")
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    )
    @DelegateDefault(parameter: "request")
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest
    ) async -> URLRequest?

    // Task-level challenges. For session-wide challenges URLSession calls the session-level
    // requirement above when this one is not implemented.
    @DelegateDefault((URLSession.AuthChallengeDisposition.performDefaultHandling, URLCredential?.none))
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    )
    @DelegateDefault((URLSession.AuthChallengeDisposition.performDefaultHandling, URLCredential?.none))
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?)

    // The `async` form's name is NS_SWIFT_ASYNC_NAME(URLSession(_:needNewBodyStreamForTask:)).
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    )
    func urlSession(_ session: URLSession, needNewBodyStreamForTask task: URLSessionTask) async -> InputStream?

    // iOS 17.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        needNewBodyStreamFrom offset: Int64,
        completionHandler: @escaping @Sendable (InputStream?) -> Void
    )
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        needNewBodyStreamFrom offset: Int64
    ) async -> InputStream?

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    )

    // iOS 17.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceiveInformationalResponse response: HTTPURLResponse)

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics)

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
}

/// `URLSessionDataDelegate` (`: URLSessionTaskDelegate`). 7 requirements of its own (5
/// Objective-C methods, 2 of them with a completion handler and so also `async`), plus the 16 of
/// `URLSessionTaskDelegate` and the 4 of `URLSessionDelegate`.
@DelegateProxy
public protocol URLSessionDataDelegate: URLSessionTaskDelegate {
    // Apple: "If you don't provide this delegate method, the session always allows the task to
    // continue."
    @DelegateDefault(URLSession.ResponseDisposition.allow)
    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    )
    // Same Swift name as `urlSession(_:dataTask:didReceive:)` for `Data` below (type-only overload).
    @DelegateDefault(URLSession.ResponseDisposition.allow)
    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse
    ) async -> URLSession.ResponseDisposition

    // Type-only overloads of each other: `urlSession(_:dataTask:didBecome:)`.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didBecome downloadTask: URLSessionDownloadTask)
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didBecome streamTask: URLSessionStreamTask)

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)

    // `proposedResponse`: "The default caching behavior." (`nil` would not cache.)
    @DelegateDefault(parameter: "proposedResponse")
    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    )
    @DelegateDefault(parameter: "proposedResponse")
    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        willCacheResponse proposedResponse: CachedURLResponse
    ) async -> CachedURLResponse?
}
#endif
