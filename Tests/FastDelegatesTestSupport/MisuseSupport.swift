@_spi(Testing) import FastDelegates
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks what every misuse test checks afterwards: the C table's invariants hold, nothing is
/// left parked, and a new send reaches exactly the live targets named `expected`, in order.
package func expectChainStillWorks(
    _ chain: DelegateChain, reaches expected: [String], log: Log, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(chain.invariantViolation == 0, "C table invariant broken", sourceLocation: sourceLocation)
    let before = log.events.count
    chain.send(Scroll.didScroll, 4242)
    let received = Array(log.events.dropFirst(before)).filter { $0.hasSuffix(".didScroll(4242)") }
    #expect(received == expected.map { "\($0).didScroll(4242)" }, sourceLocation: sourceLocation)
    #expect(chain.invariantViolation == 0, "C table invariant broken after a send", sourceLocation: sourceLocation)
    #expect(chain.parkedCountForTesting == 0, sourceLocation: sourceLocation)
    #expect(chain.retiredBlocksForTesting == 0, sourceLocation: sourceLocation)
}

/// Runs `body` to completion on a new thread with a `stackSize`-byte stack.
package func runOnThread(stackSize: Int, _ body: @escaping () -> Void) {
    final class Box: @unchecked Sendable {
        // Sound: handed to the new thread once, which alone calls `body`; the caller waits for it.
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0)
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let status = pthread_create(
        &thread, &attributes,
        { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, context)
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Glibc)
    pthread_join(thread, nil)
    #else
    pthread_join(thread!, nil)
    #endif
}

/// Monotonic seconds, for the tests that bound their own running time.
package func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
