import Synchronization

/// Objects to release after the mutex is let go of: releasing a target or a handler may run a
/// deinit, and a deinit may use the chain.
struct Garbage: @unchecked Sendable {
    var items: [Any] = []
}
