#if Macros
import FastDelegates
import Synchronization

/// A library's public `Sendable` delegate protocol: its proxy may be called from any thread.
@DelegateProxy
public protocol DownloadDelegate: AnyObject, Sendable {
    func download(_ id: Int, didReceive bytes: Int)
    @DelegateDefault(false) func shouldRetry(_ id: Int) -> Bool
    @DelegateCombining(.reduce(0, +)) func reservedBytes() -> Int
}

/// A host that reports progress from whatever thread its work runs on.
public final class Downloader: Sendable {
    private let weakDelegate = Mutex<WeakDownloadDelegate>(WeakDownloadDelegate())

    public init() {}

    /// Held weakly, as a delegate is.
    public var delegate: (any DownloadDelegate)? {
        get { weakDelegate.withLock { $0.value } }
        set { weakDelegate.withLock { $0.value = newValue } }
    }

    public func receive(_ bytes: Int, for id: Int) { delegate?.download(id, didReceive: bytes) }
}

/// The downloader's delegate reference, only ever used under its mutex.
struct WeakDownloadDelegate {
    weak var value: (any DownloadDelegate)?
}
#endif
