import CDispatchTable
import Synchronization

// How a removal waits for the calls of a removed registration that other threads are running.
//
// `ConcurrentRegistration.inFlight` counts running calls in units of `callUnit`; its low bit
// (`waiterBit`) says that some thread is, or was, blocked waiting for the count to drain. A call
// that ends and finds the count drained with the bit set wakes the waiters (through the
// process-wide park word of cdt_thread.h); a call that finds it clear, the usual case, only pays
// the subtraction it makes anyway.

/// What one running call adds to `inFlight`.
@usableFromInline
let callUnit = 2
/// The bit of `inFlight` that asks the last call to wake its waiters.
@usableFromInline
let waiterBit = 1

/// Ends a call announced in `registration.inFlight`, waking a waiting remover if it was the last.
@inlinable @inline(__always)
func endCall(of registration: ConcurrentRegistration) {
    let before = registration.inFlight.wrappingSubtract(callUnit, ordering: .sequentiallyConsistent).oldValue
    if before == callUnit | waiterBit { cdt_park_wake_all() }
}

/// Waits until no thread is running a call of `registration`: spins briefly (calls are usually
/// short), then blocks until the last call ends. Never called with a lock held.
func waitForCalls(of registration: ConcurrentRegistration) {
    var spins = 0
    while registration.inFlight.load(ordering: .sequentiallyConsistent) >= callUnit {
        spins += 1
        if spins < 128 { continue }
        // Read the park word before announcing and re-checking, so a wake-up in between is seen.
        let seen = cdt_park_sequence()
        let value = registration.inFlight.bitwiseOr(waiterBit, ordering: .sequentiallyConsistent).newValue
        if value >= callUnit { cdt_park_wait(seen) }
    }
}
