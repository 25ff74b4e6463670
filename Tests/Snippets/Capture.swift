// A capture framework's frame and session, as <doc:DelegateProxies> uses them.

struct CapturedFrame: Sendable {}

final class CaptureSession { // calls its delegate on its own queue
    weak var delegate: (any FrameDelegate)?
}
