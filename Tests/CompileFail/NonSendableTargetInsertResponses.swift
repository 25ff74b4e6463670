// ConcurrentDelegateChain calls its targets from any thread, so every way of registering one
// requires a `Sendable` target: `insert(_:at:retention:responses:)`.
import FastDelegates

enum Clock { static let tick = Message<Int, Void>("clock.tick:") }
final class Counter { var n = 0 } // not Sendable: a data race if two threads send

func wire(_ chain: ConcurrentDelegateChain, _ counter: Counter) {
    chain.insert(counter, at: 0, responses: SendableResponses<Counter>())
}
// expect-error: type 'Counter' does not conform to the 'Sendable' protocol
