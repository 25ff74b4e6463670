// Responses (any closures) is not what a ConcurrentDelegateChain takes: it needs SendableResponses.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }
final class Plain {}

func register(_ chain: ConcurrentDelegateChain, _ target: Plain) {
    chain.add(target, responses: Responses<Plain>().on(Scroll.didScroll) { _, _ in })
}
// expect-error: cannot convert value of type 'Responses<Plain>' to expected argument type 'SendableResponses<Plain>'
