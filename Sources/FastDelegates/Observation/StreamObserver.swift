import Synchronization

/// One stream observing one message.
@usableFromInline
class AnyStreamObserver {
    @usableFromInline
    let ended = EndFlag()

    init() {}
}

@usableFromInline
final class StreamObserver<Input>: AnyStreamObserver {
    /// Yields to the stream's continuation (made where `Input` is known to be `Sendable`).
    @usableFromInline
    let yield: (Input) -> Void
    private let finish: () -> Void

    init(yield: @escaping (Input) -> Void, finish: @escaping () -> Void) {
        self.yield = yield
        self.finish = finish
    }

    deinit {
        // The dispatcher is gone (or stopped observing): end the consumer's loop.
        finish()
    }
}
