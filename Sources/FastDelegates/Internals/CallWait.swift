import CDispatchTable
import Synchronization

// How a removal waits for the calls of removed registrations that other threads are running.
//
// A send names the registration it calls in its thread's record (`ReaderRecord.calls`) and
// clears the slot after the call; nested deeper than `announcedDepth`, it counts the call in
// `ConcurrentRegistration.inFlight` instead, in units of `callUnit`. A remover, after setting
// `removed` (under the chain's mutex), runs a heavy fence and scans the slots: a slot that does
// not name the registration then can only come to name it for a call that sees `removed` and
// skips. It waits for each slot that does to change, and for `inFlight` to drain: a brief spin,
// then it blocks on the park word, after counting itself in the busy record's
// `waitingRemovers` (so that the call, when it ends, wakes it) or setting `inFlight`'s `waiterBit`.

/// What one running call adds to `inFlight`.
@usableFromInline
let callUnit = 2
/// The bit of `inFlight` that asks the last call to wake its waiters.
@usableFromInline
let waiterBit = 1
/// How many times a remover re-reads a busy slot or counter before it blocks.
let spinsBeforeBlocking = 128

/// Ends a call announced in `registration.inFlight`, waking a waiting remover if it was the last.
@inlinable @inline(__always)
func endCall(of registration: ConcurrentRegistration) {
    let before = registration.inFlight.wrappingSubtract(callUnit, ordering: .sequentiallyConsistent).oldValue
    if before == callUnit | waiterBit { cdt_park_wake_all() }
}

/// The call slots that name one of `registrations` now, seen after a heavy fence.
private func busySlots(of registrations: [ConcurrentRegistration], _ readSide: ReadSide)
    -> [(record: ReaderRecord, level: Int, registration: UInt)]
{
    let addresses = Set(registrations.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) })
    return readSide.withFencedRecords { records in
        var busy: [(record: ReaderRecord, level: Int, registration: UInt)] = []
        for record in records {
            for level in 0..<announcedDepth {
                let called = record.announcedCall(level: level)
                if called != 0 && addresses.contains(called) { busy.append((record, level, called)) }
            }
        }
        return busy
    }
}

/// Those of `registrations` that some thread may be running a call of (one heavy fence and
/// one scan for all of them).
func stillCalled(_ registrations: [ConcurrentRegistration], _ readSide: ReadSide) -> [ConcurrentRegistration] {
    let busy = Set(busySlots(of: registrations, readSide).map(\.registration))
    return registrations.filter {
        $0.inFlight.load(ordering: .sequentiallyConsistent) >= callUnit
            || busy.contains(UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()))
    }
}

/// Waits until no thread is running a call of one of `registrations`, which are all removed:
/// spins briefly (calls are usually short), then blocks until the call ends; then marks each
/// one drained. Never called with a lock held.
func waitForCalls(of registrations: [ConcurrentRegistration], _ readSide: ReadSide) {
    guard !registrations.isEmpty else { return }
    for (record, level, registration) in busySlots(of: registrations, readSide) {
        var spins = 0
        while record.announcedCall(level: level) == registration {
            spins += 1
            if spins < spinsBeforeBlocking { continue }
            // Read the park word before announcing and re-checking, so a wake-up in between is seen.
            let seen = cdt_park_sequence()
            record.waitingRemovers.add(1, ordering: .sequentiallyConsistent)
            cdt_heavy_fence()
            if record.announcedCall(level: level) == registration { cdt_park_wait(seen) }
            record.waitingRemovers.subtract(1, ordering: .sequentiallyConsistent)
        }
    }
    for registration in registrations {
        var spins = 0
        while registration.inFlight.load(ordering: .sequentiallyConsistent) >= callUnit {
            spins += 1
            if spins < spinsBeforeBlocking { continue }
            let seen = cdt_park_sequence()
            let value = registration.inFlight.bitwiseOr(waiterBit, ordering: .sequentiallyConsistent).newValue
            if value >= callUnit { cdt_park_wait(seen) }
        }
        registration.drained.store(true, ordering: .releasing)
    }
}
