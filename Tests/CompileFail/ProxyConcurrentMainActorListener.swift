// @DelegateProxy(concurrent: true): a main-actor listener cannot join the proxy that a delegate
// queue calls. Its conformance to the nonisolated protocol is isolated to the main actor, and
// the proxy needs one it may use from any thread.
import FastDelegates

@DelegateProxy(concurrent: true)
protocol FrameDelegate: AnyObject {
    func didUpdate(_ frame: Int)
}

@MainActor final class FrameView: @MainActor FrameDelegate {
    var frames: [Int] = []
    func didUpdate(_ frame: Int) { frames.append(frame) }
}

@MainActor func attach(_ proxy: FrameDelegateProxy, _ view: FrameView) {
    proxy.add(view)
}
// expect-error: main actor-isolated conformance of 'FrameView' to 'FrameDelegate' cannot satisfy conformance requirement for a 'Sendable' type parameter
