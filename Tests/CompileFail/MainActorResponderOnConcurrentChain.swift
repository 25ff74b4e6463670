// A @MainActor type's responses call its isolated methods: they can never run on another
// thread, so a ConcurrentDelegateChain rejects the type.
import FastDelegates

enum Scroll { static let didScroll = Message<Double, Void>("scrollViewDidScroll:") }

@MainActor final class ViewController {
    var offset = 0.0
    func apply(_ y: Double) { offset = y }
}
extension ViewController: @MainActor DelegateResponder {
    static let responses = Responses<ViewController>().on(Scroll.didScroll) { me, y in me.apply(y) }
}

@MainActor func wire(_ chain: ConcurrentDelegateChain, _ controller: ViewController) {
    chain.add(controller)
}
// expect-error: instance method 'add(_:retention:)' requires the types 'Responses<ViewController>' and 'SendableResponses<ViewController>' be equivalent
