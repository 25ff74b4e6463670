// @DelegateProxy(concurrent: true): the proxy a delegate queue and the main thread share takes
// `Sendable` listeners only. A listener with plain mutable state would be called from the queue
// while the main thread uses it: the compiler refuses to add it.
import FastDelegates

@DelegateProxy(concurrent: true)
protocol FrameDelegate: AnyObject {
    func didUpdate(_ frame: Int)
}

final class FrameLog: FrameDelegate {
    var frames: [Int] = []
    func didUpdate(_ frame: Int) { frames.append(frame) }
}

func attach(_ proxy: FrameDelegateProxy, _ log: FrameLog) {
    proxy.add(log)
}
// expect-error: argument type 'FrameLog' does not conform to expected type 'Sendable'
