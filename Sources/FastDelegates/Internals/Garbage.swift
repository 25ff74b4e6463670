import Synchronization

/// Objects to release after the mutex is let go of: releasing a target or a handler may run a
/// deinit, and a deinit may use the chain.
struct Garbage: @unchecked Sendable {
    // Sound: made inside one critical section and handed to the thread that ran it, which only
    // lets go of it (`withExtendedLifetime`) after the mutex: no thread but that one ever reads
    // `items`, and the objects' deinits run there.
    var items: [Any] = []
}
