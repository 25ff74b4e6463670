import Synchronization

/// A value carried across the mutex's `sending` boundary. Only for values that the chain's
/// mutex or the caller already makes safe to hand over.
struct Unchecked<Value>: @unchecked Sendable {
    // Sound as each use makes it, and only for these uses: a value that crosses into or out of
    // a chain's mutex and is then used by one thread at a time (the mutex orders the accesses);
    // a target the caller keeps alive, which the critical section only compares or returns; a
    // send's input or invocation, handed only to streams made where it is `Sendable`
    // (`ObserverTable.stream`); the array of `ReaderRecord`s, which are `Sendable` themselves;
    // the handlers of an `AnySendableResponder` (`SendableResponderCache`), immutable objects
    // with `@Sendable` bodies.
    var value: Value
    init(_ value: Value) { self.value = value }
}
