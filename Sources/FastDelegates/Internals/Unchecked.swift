import Synchronization

/// A value carried across the mutex's `sending` boundary. Only for values that the chain's
/// mutex or the caller already makes safe to hand over.
struct Unchecked<Value>: @unchecked Sendable {
    // Sound: each use is, and only these: a target the caller keeps alive, which the critical
    // section only compares by identity (`retention(of:)`, `commitCall`); the handlers of an
    // `AnySendableResponder` (`register`, `SendableResponderCache`), immutable objects with
    // `@Sendable` bodies; the array of `ReaderRecord`s, `Sendable` themselves; a send's input or
    // invocation, handed only to streams of its message id, made where `Input` is `Sendable`
    // (`invocations(of:)`); a nonisolated `async` requirement's call and listener, handed by a
    // send that runs on no actor to a function that runs on none, and its answer back
    // (`AsyncCall.call`); the nested proxies a concurrent chain forwards a requirement to
    // (`forwarders(of:)`), `Sendable` targets with the immutable forwarding of their handlers,
    // which walk a `ConcurrentDelegateChain`, itself `Sendable`; a nested proxy's registration in
    // its outer chain (`NestedLink`), a `Sendable` `ConcurrentRegistration` or a `DelegateChain`'s,
    // read only on that chain's thread. A message id stands for one declaration (`Message`'s identity): one
    // place, one name, the same runtime types, so one static `Input` and `Output`, `Sendable`
    // alike. (One generic place made for two types that differ only by `Sendable` is the
    // exception `Message` documents.) Targets no longer need it: every target of a concurrent
    // chain is `Sendable` (`targets`).
    var value: Value
    init(_ value: Value) { self.value = value }
}
