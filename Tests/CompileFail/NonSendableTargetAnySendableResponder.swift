// ConcurrentDelegateChain calls its targets from any thread, so every way of registering one
// requires a `Sendable` target: `AnySendableResponder(_:responses:)`.
import FastDelegates

enum Clock { static let tick = Message<Int, Void>("clock.tick:") }
final class Counter { var n = 0 } // not Sendable: a data race if two threads send

func wire(_ chain: ConcurrentDelegateChain, _ counter: Counter) {
    chain.add(AnySendableResponder(counter, responses: SendableResponses<Counter>()))
}
// expect-error: type 'Counter' does not conform to the 'Sendable' protocol
