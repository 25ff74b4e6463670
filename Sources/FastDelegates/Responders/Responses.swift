/// The messages a target answers, each with the handler that answers it.
///
/// A handler receives the target as its first parameter, so it never has to capture the target
/// (no retain cycle, no `weak self` dance) and never casts it: the compiler already knows its type.
/// Build a set of responses once per type and share it (like an Objective-C method list), or
/// build one per registration:
///
/// ```swift
/// final class Analytics: DelegateResponder {
///     var ticks = 0
///     static let responses = Responses<Analytics>()
///         .on(Scroll.didScroll) { me, offset in me.ticks += 1 }
/// }
/// ```
///
/// Registering a second handler for the same message replaces the first.
public struct Responses<Target: AnyObject>: Sendable {
    @usableFromInline
    var handlers: [UInt32: AnyHandler]

    /// Responses that answer nothing yet.
    public init() {
        handlers = [:]
    }

    /// These responses plus `handler` answering `message`.
    ///
    /// - Complexity: O(1) amortized when nothing else shares these responses, as in a chain of
    ///   `.on` calls or `responses = (consume responses).on(…)`; otherwise O(*n*) for *n*
    ///   handlers, to copy them first.
    @inlinable
    public consuming func on<Input, Output>(
        _ message: Message<Input, Output>,
        _ handler: @escaping @Sendable (Target, Input) -> Output
    ) -> Responses<Target> {
        // `self` is owned here: when the caller shares it with nothing, this adds in place.
        self.handlers[message.id] = Handler<Input, Output> { target, input in
            // Sound: a handler only ever receives the target it was registered with, whose
            // static type was `Target` at registration (see `DelegateChain.add`).
            handler(unsafeDowncast(target, to: Target.self), input)
        }
        return self
    }

    /// These responses plus `handler` answering `message`, a message that carries no input.
    @inlinable
    public consuming func on<Output>(
        _ message: Message<Void, Output>,
        _ handler: @escaping @Sendable (Target) -> Output
    ) -> Responses<Target> {
        on(message) { target, _ in handler(target) }
    }

    /// These responses plus every handler of `other`; where both answer a message, `other` wins.
    public func merging(_ other: Responses<Target>) -> Responses<Target> {
        var copy = self
        copy.handlers.merge(other.handlers) { _, new in new }
        return copy
    }

    /// Whether these responses answer `message`.
    public func answers<Input, Output>(_ message: Message<Input, Output>) -> Bool {
        handlers[message.id] != nil
    }

    /// How many messages these responses answer.
    public var count: Int { handlers.count }
}
