import FastDelegates
import Testing

// The two snippets of issue 12, as written: app code in Swift 6 language mode that depends on
// FastDelegates only. Each compiles unchanged; the tests below run them.

enum Scroll {
    static let didScroll = Message<Double, Void>("adoption.scrollViewDidScroll:")
}

final class Plain {}

// --- snippet 1, verbatim ---
@MainActor final class ViewController {
    var offset = 0.0
    func apply(_ y: Double) { offset = y }
    let chain = DelegateChain()
    func wire() {
        chain.add(self) { $0.on(Scroll.didScroll) { me, y in me.apply(y) } }
    }
}

// --- snippet 2, verbatim ---
final class Counter { var n = 0 }
func count() {
    let chain = DelegateChain(), counter = Counter(), target = Plain()
    chain.add(target) { $0.on(Scroll.didScroll) { _, _ in counter.n += 1 } }
}

@Suite("Issue 12 snippets")
struct IssueSnippetTests {
    @Test @MainActor func aMainActorControllerRegistersItselfAndItsHandlerCallsItsMethods() {
        let controller = ViewController()
        controller.wire()
        controller.chain.send(Scroll.didScroll, 42)
        #expect(controller.offset == 42)
    }

    @Test func theCountingSnippetRuns() {
        count()
    }

    /// Snippet 2 with its counter and target kept, to see the non-Sendable capture work.
    @Test func aHandlerCapturesANonSendableCounter() {
        let chain = DelegateChain(), counter = Counter(), target = Plain()
        chain.add(target) { $0.on(Scroll.didScroll) { _, _ in counter.n += 1 } }
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(counter.n == 2)
        withExtendedLifetime(target) {}
    }
}
