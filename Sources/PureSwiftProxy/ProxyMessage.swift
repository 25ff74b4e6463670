/// A typed message for a ``ProxyChain``, identified by its selector-style name.
///
/// Unlike `FastDelegates.Message`, nothing is interned: every send hashes the name, as a
/// pure-Swift `[String: …]` proxy does.
public struct ProxyMessage<Input, Output>: Hashable, Sendable {
    /// The selector-style name, e.g. `"scrollViewDidScroll:"`.
    public let name: String

    /// The message called `name`.
    public init(_ name: String) {
        self.name = name
    }
}

/// The messages a target answers in a ``ProxyChain``, each with its handler.
///
/// Handlers receive the target as their first parameter, so they need not capture it.
/// Registering a second handler for the same message replaces the first.
public struct ProxyResponses<Target: AnyObject>: Sendable {
    var handlers: [String: AnyProxyHandler] = [:]

    /// Responses that answer nothing yet.
    public init() {}

    /// These responses plus `handler` answering `message`.
    public func on<Input, Output>(
        _ message: ProxyMessage<Input, Output>, _ handler: @escaping @Sendable (Target, Input) -> Output
    ) -> ProxyResponses<Target> {
        var copy = self
        copy.handlers[message.name] = ProxyHandler<Input, Output> { target, input in
            // A checked cast: the proxy keeps no unsafe promises.
            handler(target as! Target, input)
        }
        return copy
    }

    /// Whether these responses answer `message`.
    public func answers<Input, Output>(_ message: ProxyMessage<Input, Output>) -> Bool {
        handlers[message.name] != nil
    }
}

/// A handler of some message type.
class AnyProxyHandler: @unchecked Sendable {
    // Sound: it has no stored state; its one subclass, `ProxyHandler`, stores a `let` of a
    // `@Sendable` closure.
}

/// A handler of a `ProxyMessage<Input, Output>`, taking its target type-erased.
final class ProxyHandler<Input, Output>: AnyProxyHandler, @unchecked Sendable {
    // Sound: immutable; its only stored property is a `@Sendable` closure (unchecked only because
    // a subclass of a non-final class cannot state a checked `Sendable`).
    let body: @Sendable (AnyObject, Input) -> Output

    init(_ body: @escaping @Sendable (AnyObject, Input) -> Output) {
        self.body = body
    }
}
