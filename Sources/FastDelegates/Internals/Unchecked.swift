import Synchronization

/// A value carried across the mutex's `sending` boundary. Only for values that the chain's
/// mutex or the caller already makes safe to hand over.
struct Unchecked<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
