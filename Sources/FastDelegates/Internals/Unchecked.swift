import Synchronization

/// A value carried across the mutex's `sending` boundary. Only for values that the chain's
/// mutex or the caller already makes safe to hand over.
struct Unchecked<Value>: @unchecked Sendable {
    // Sound: each use is, and only these: a target the caller keeps alive, which the critical
    // section only compares by identity (`retention(of:)`); the handlers of an
    // `AnySendableResponder` (`register`, `SendableResponderCache`), immutable objects with
    // `@Sendable` bodies; the array of `ReaderRecord`s, `Sendable` themselves; a send's input or
    // invocation, handed only to streams of its message id, made where `Input` is `Sendable`
    // (`invocations(of:)`), and a message id implies `Sendable` where its types could hide it
    // (`Message`'s identity: the same runtime types, and the same known-`Sendable` bit when they
    // contain an existential); the one exception is a message made by generic code without a
    // `Sendable` constraint over `any Sendable`, which `Message` documents. Targets no longer
    // need it: every target of a concurrent chain is `Sendable` (`targets`).
    var value: Value
    init(_ value: Value) { self.value = value }
}
