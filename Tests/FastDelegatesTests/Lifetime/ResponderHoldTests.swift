import Testing

@testable import FastDelegates

/// A native class that declares its responses once, as the deprecated lifetime opt-in's
/// conformers did.
final class DeclaredResponder: DelegateResponder {
    var hits = 0
    static let responses = SendableResponses<DeclaredResponder>().on(Scroll.didScroll) { me, _ in me.hits += 1 }
}

@Suite("Responder hold")
struct ResponderHoldTests {
    /// A `DelegateResponder` added with its type's responses is held like any other native
    /// class, on the zeroing hold, and answers.
    @Test func aDeclaredResponderIsHeldOnTheZeroingHold() {
        let chain = DelegateChain()
        let target = DeclaredResponder()
        chain.add(target)
        #expect(chain.holdForTesting(of: target) == .zeroing)
        chain.send(Scroll.didScroll, 1)
        #expect(target.hits == 1)
    }
}
