import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Dispatch depth per thread

/// The pthread key of each thread's dispatch depth: how many `ConcurrentDelegateChain`
/// dispatches (of any chain) are running on this thread. The value pointer *is* the count; it is
/// never dereferenced.
private let dispatchDepthKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "FastDelegates: no pthread key for the dispatch depth")
    return key
}()

/// Enters a dispatch on this thread. No allocation.
@usableFromInline
func enterConcurrentDispatch() {
    let depth = Int(bitPattern: pthread_getspecific(dispatchDepthKey))
    pthread_setspecific(dispatchDepthKey, UnsafeRawPointer(bitPattern: depth &+ 1))
}

/// Leaves a dispatch on this thread.
@usableFromInline
func leaveConcurrentDispatch() {
    let depth = Int(bitPattern: pthread_getspecific(dispatchDepthKey))
    pthread_setspecific(dispatchDepthKey, UnsafeRawPointer(bitPattern: depth &- 1))
}

/// Whether a `ConcurrentDelegateChain` dispatch is running on this thread (we are in a handler).
func isInsideConcurrentDispatch() -> Bool {
    pthread_getspecific(dispatchDepthKey) != nil
}

/// Waits until no other thread is calling `registration`'s handlers.
func waitForCalls(of registration: ConcurrentRegistration) {
    var spins = 0
    while registration.inFlight.load(ordering: .sequentiallyConsistent) != 0 {
        spins += 1
        if spins > 64 { sched_yield() }
    }
}
