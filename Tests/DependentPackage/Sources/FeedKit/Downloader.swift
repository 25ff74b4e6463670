import FastDelegates
import Synchronization

/// What a downloader reports, from whatever thread its work runs on.
@DelegateProxy
public protocol DownloadDelegate: AnyObject, Sendable {
    func download(_ id: Int, didReceive bytes: Int)
    @DelegateDefault(false) func shouldRetry(_ id: Int) -> Bool
}

/// A downloader whose delegate is held weakly and called from background threads.
public final class Downloader: Sendable {
    private let delegateReference = Mutex<DelegateReference>(DelegateReference())

    public init() {}

    public var delegate: (any DownloadDelegate)? {
        get { delegateReference.withLock { $0.delegate } }
        set { delegateReference.withLock { $0.delegate = newValue } }
    }

    /// Downloads `chunks` chunks of `id` on `threads` threads at once.
    public func download(_ id: Int, chunks: Int, threads: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    for _ in 0..<chunks { self.delegate?.download(id, didReceive: 1) }
                }
            }
        }
    }
}

private struct DelegateReference {
    weak var delegate: (any DownloadDelegate)?
}
