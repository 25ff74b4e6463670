// ConcurrentDelegateChain calls its targets from any thread, so every way of registering one
// requires a `Sendable` target: `insert(_:at:retention:)` of a DelegateResponder.
import FastDelegates

enum Clock { static let tick = Message<Int, Void>("clock.tick:") }
final class Declared: DelegateResponder { // not Sendable
    var n = 0
    static let responses = SendableResponses<Declared>().on(Clock.tick) { me, _ in me.n += 1 }
}

func wire(_ chain: ConcurrentDelegateChain, _ target: Declared) {
    chain.insert(target, at: 0)
}
// expect-error: type 'Declared' does not conform to the 'Sendable' protocol
