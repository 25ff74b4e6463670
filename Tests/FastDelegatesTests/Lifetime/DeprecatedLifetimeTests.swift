import Testing

@testable import FastDelegates

/// A class written for the deprecated opt-in (declared in a deprecated context, so the package
/// builds without warnings).
@available(*, deprecated)
final class LegacyTracked: DelegateResponder, DelegateLifetimeTracking {
    let delegateLifetime = DelegateLifetime()
    var hits = 0
    static let responses = SendableResponses<LegacyTracked>().on(Scroll.didScroll) { me, _ in me.hits += 1 }
}

@Suite("Deprecated lifetime tracking")
struct DeprecatedLifetimeTests {
    /// Code that still conforms keeps compiling and working: its target is held like any other
    /// native class, on the zeroing hold.
    @available(*, deprecated)
    @Test func aTargetThatStillConformsIsHeldLikeAnyOther() {
        let chain = DelegateChain()
        let target = LegacyTracked()
        chain.add(target)
        #expect(chain.holdForTesting(of: target) == .zeroing)
        chain.send(Scroll.didScroll, 1)
        #expect(target.hits == 1)
    }
}
