import Testing

@_spi(Testing) @testable import FastDelegates

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sizes for the tests that build very large chains: full size normally, scaled down when the
/// Makefile runs the suites under a sanitizer (`FASTDELEGATES_TEST_SCALE=sanitizer`), where
/// every memory access costs several times more.
enum TestScale {
    static let underSanitizer = getenv("FASTDELEGATES_TEST_SCALE").map { String(cString: $0) } == "sanitizer"

    /// `full`, or `full / divisor` under a sanitizer.
    static func count(_ full: Int, sanitizerDivisor divisor: Int = 10) -> Int {
        underSanitizer ? full / divisor : full
    }
}

/// A weakly held target whose deinit can run code (e.g. send to the chain it was in).
final class Mortal {
    let name: String
    let log: Log
    var onScroll: ((Mortal, Int) -> Void)?
    var onDeinit: (() -> Void)?

    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }

    deinit {
        log.record("\(name).deinit")
        onDeinit?()
    }

    static let responses = SendableResponses<Mortal>().on(Scroll.didScroll) { me, offset in
        me.log.record("\(me.name).didScroll(\(offset))")
        me.onScroll?(me, offset)
    }
}

/// A minimal target for the very large tests: counts its calls and its deaths.
final class Counter {
    var hits = 0
    let deaths: DeathCount?

    init(deaths: DeathCount? = nil) { self.deaths = deaths }

    deinit { deaths?.value += 1 }

    /// One shared set of responses, so a million registrations make no million closures.
    static let responses = SendableResponses<Counter>().on(Scroll.didScroll) { me, _ in me.hits += 1 }
}

/// A counterpart of ``Counter`` that chains hold with a Swift `weak` reference, as they hold
/// Objective-C-rooted objects on Apple platforms (``Counter`` is on the zeroing hold).
final class WeakPathCounter: DelegateResponder {
    var hits = 0
    let deaths: DeathCount

    init(deaths: DeathCount) {
        _ = Self.onWeakPath
        self.deaths = deaths
    }

    private static let onWeakPath: Void = useWeakReferenceHold(for: WeakPathCounter.self)

    deinit { deaths.value += 1 }

    static let responses = SendableResponses<WeakPathCounter>().on(Scroll.didScroll) { me, _ in me.hits += 1 }
}

final class DeathCount {
    var value = 0
}

/// A weak reference, to check afterwards that an object is gone.
struct WeakBox {
    weak var object: AnyObject?
}

/// Checks what every misuse test checks afterwards: the C table's invariants hold, nothing is
/// left parked, and a new send reaches exactly the live targets named `expected`, in order.
func expectChainStillWorks(
    _ chain: DelegateChain, reaches expected: [String], log: Log, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(chain.invariantViolation == 0, "C table invariant broken", sourceLocation: sourceLocation)
    let before = log.events.count
    chain.send(Scroll.didScroll, 4242)
    let received = Array(log.events.dropFirst(before)).filter { $0.hasSuffix(".didScroll(4242)") }
    #expect(received == expected.map { "\($0).didScroll(4242)" }, sourceLocation: sourceLocation)
    #expect(chain.invariantViolation == 0, "C table invariant broken after a send", sourceLocation: sourceLocation)
    #expect(chain.table.graveyard.isEmpty, sourceLocation: sourceLocation)
    #expect(chain.table.stats.retired_blocks == 0, sourceLocation: sourceLocation)
}

/// Runs `body` to completion on a new thread with a `stackSize`-byte stack.
func runOnThread(stackSize: Int, _ body: @escaping () -> Void) {
    final class Box: @unchecked Sendable {
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
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
