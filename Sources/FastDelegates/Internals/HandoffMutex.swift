import Synchronization

/// A `Mutex` whose critical sections ThreadSanitizer sees as ordered.
///
/// When contended, `Mutex` on Linux hands the lock over inside the kernel (a priority-inheriting
/// futex), which ThreadSanitizer cannot see; it would then report the critical sections as
/// racing. A release-increment of `handoff` at the end of each critical section, read with
/// acquire at the start of the next, states the ordering the mutex already gives. `package`: the
/// tests share state across threads through it too.
package struct HandoffMutex<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    private let handoff = Atomic<UInt64>(0)

    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` under the mutex.
    package borrowing func withLock<Result: ~Copyable>(_ body: (inout sending Value) throws -> sending Result) rethrows
        -> sending Result
    {
        try mutex.withLock { value in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}
