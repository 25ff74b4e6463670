import FastDelegates
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The proxied protocol, expanded by the macro with the `Macros` trait; every other build compiles
// its checked-in expansion, URLSessionListener+Generated.swift (`make generate` rewrites it).
#if Macros
/// `URLSessionDelegate` with its task, data and download refinements, transcribed in one
/// protocol as Foundation declares them: add listeners to a ``URLSessionListenerProxy``, the
/// session's delegate (`URLSession(configuration:delegate:delegateQueue:)`), which conforms to
/// `URLSessionDataDelegate` and `URLSessionDownloadDelegate`. `Sendable`, as Foundation
/// declares it: the session calls from its delegate queue while the app adds and removes
/// listeners. A completion handler goes to the first listener that implements its requirement,
/// which must call it once; when nobody does, the proxy calls it once with Foundation's default.
@DelegateProxy(superclass: NSObject.self)
public protocol URLSessionListener: AnyObject, Sendable {
    /// `URLSessionDelegate.urlSession(_:didBecomeInvalidWithError:)`.
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?)
    /// `URLSessionDelegate.urlSession(_:didReceive:completionHandler:)`, a session-level
    /// challenge (not sent by swift-corelibs-foundation). Nobody: `.performDefaultHandling`,
    /// "as if this delegate were not implemented".
    @DelegateDefault((URLSession.AuthChallengeDisposition.performDefaultHandling, URLCredential?.none))
    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void)

    /// `URLSessionTaskDelegate.urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)`.
    /// Nobody: the proposed `request`, so the task follows the redirect ("The default is to
    /// follow redirections"; `nil` would refuse it).
    @DelegateDefault(parameter: "request")
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void)
    /// `URLSessionTaskDelegate.urlSession(_:task:didReceive:completionHandler:)`, a task's
    /// challenge (HTTP Basic authentication). Nobody: `.performDefaultHandling`.
    @DelegateDefault((URLSession.AuthChallengeDisposition.performDefaultHandling, URLCredential?.none))
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void)
    /// `URLSessionTaskDelegate.urlSession(_:task:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:)`.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64)
    /// `URLSessionTaskDelegate.urlSession(_:task:didCompleteWithError:)`.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
    /// `URLSessionTaskDelegate.urlSession(_:task:willBeginDelayedRequest:completionHandler:)` (not
    /// sent by swift-corelibs-foundation). Nobody: `.continueLoading`, "the task should proceed
    /// with the original request".
    @DelegateDefault((URLSession.DelayedRequestDisposition.continueLoading, URLRequest?.none))
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willBeginDelayedRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLSession.DelayedRequestDisposition, URLRequest?) -> Void)
    /// `URLSessionTaskDelegate.urlSession(_:task:didFinishCollecting:)` (not sent by
    /// swift-corelibs-foundation).
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics)

    /// `URLSessionDataDelegate.urlSession(_:dataTask:didReceive:completionHandler:)`. Nobody:
    /// `.allow` ("If you don't provide this delegate method, the session always allows the task
    /// to continue").
    @DelegateDefault(URLSession.ResponseDisposition.allow)
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void)
    /// `URLSessionDataDelegate.urlSession(_:dataTask:didBecome:)` for a download task.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didBecome downloadTask: URLSessionDownloadTask)
    /// `URLSessionDataDelegate.urlSession(_:dataTask:didBecome:)` for a stream task.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didBecome streamTask: URLSessionStreamTask)
    /// `URLSessionDataDelegate.urlSession(_:dataTask:didReceive:)`: every listener, in order.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
    /// `URLSessionDataDelegate.urlSession(_:dataTask:willCacheResponse:completionHandler:)`.
    /// Nobody: the `proposedResponse`, "the default caching behavior" (`nil` would not cache).
    @DelegateDefault(parameter: "proposedResponse")
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void)

    /// `URLSessionDownloadDelegate.urlSession(_:downloadTask:didFinishDownloadingTo:)`: every
    /// listener, in order, while the file exists (the session removes it after the call).
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL)
    /// `URLSessionDownloadDelegate.urlSession(_:downloadTask:didWriteData:totalBytesWritten:totalBytesExpectedToWrite:)`.
    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64)
    /// `URLSessionDownloadDelegate.urlSession(_:downloadTask:didResumeAtOffset:expectedTotalBytes:)`.
    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
        expectedTotalBytes: Int64)
}
#endif
