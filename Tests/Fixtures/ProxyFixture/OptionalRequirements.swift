#if Macros
import FastDelegates

/// A view, as the delegate protocols below pass one.
public struct PageView: Hashable, Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }
}

/// Shaped like UIScrollViewDelegate (and one requirement of UITableViewDelegate): every
/// requirement optional, as Apple declares them.
@DelegateProxy
@MainActor public protocol PageScrollDelegate: AnyObject {
    func scrollViewDidScroll(_ offset: Double)
    func viewForZooming(in scrollView: PageView) -> PageView?
    @DelegateDefault(true) func scrollViewShouldScrollToTop(_ scrollView: PageView) -> Bool
    @DelegateCombining(.allTrue) func scrollViewShouldBeginDragging(_ scrollView: PageView) -> Bool
    @DelegateDefault(parameter: "indexPath")
    func tableView(_ tableView: PageView, willSelectRowAt indexPath: Int) -> Int?
}

/// What a navigation delegate decides.
public enum NavigationPolicy: Sendable, Equatable {
    case allow, cancel, download
}

/// How a challenge is answered (URLSession's shape: a disposition and an optional credential).
public enum ChallengeDisposition: Sendable, Equatable {
    case useCredential, performDefaultHandling, cancel
}

/// Shaped like WKNavigationDelegate and URLSessionTaskDelegate: requirements that pass a
/// completion handler that must be called exactly once.
@DelegateProxy
@MainActor public protocol PageNavigationDelegate: AnyObject {
    @DelegateDefault(NavigationPolicy.allow)
    func decidePolicy(for url: String, decisionHandler: @escaping (NavigationPolicy) -> Void)
    func didFinish(_ url: String)
    @DelegateDefault((ChallengeDisposition.performDefaultHandling, String?.none))
    func didReceive(challenge host: String, completionHandler: @escaping (ChallengeDisposition, String?) -> Void)
    @DelegateDefault(parameter: "request") @DelegateCompletionHandler
    func willRedirect(to request: String, then proceed: @escaping (String?) -> Void)
    func prepare(_ url: String, completion: @escaping (String?) -> Void)
    func finishLoading(completion: @escaping () -> Void)
}

/// What a transfer's listener decides before it starts.
public enum TransferDisposition: Sendable, Equatable {
    case proceed, wait
}

/// A `Sendable` protocol with optional requirements: its proxy is callable from any task.
@DelegateProxy
public protocol TransferDelegate: AnyObject, Sendable {
    func transfer(_ id: Int, didSend bytes: Int)
    func destination(for id: Int) -> String?
    @DelegateDefault(3) func retryLimit(for id: Int) -> Int
    @DelegateCombining(.reduce(0, +)) func reservedBytes() -> Int
    @DelegateDefault(TransferDisposition.proceed)
    func transfer(_ id: Int, willStart completionHandler: @escaping @Sendable (TransferDisposition) -> Void)
}
#endif
