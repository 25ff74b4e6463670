import FastDelegates

// ScrollKit's proxied protocols, compiled with the macro under the `GenerateProxies` trait.
// `swift package --traits GenerateProxies generate-delegate-proxies` writes their expansion,
// which every other build compiles, to FeedScrollDelegate+Generated.swift.
#if GenerateProxies
/// What a ``FeedScrollView`` tells its delegate.
@DelegateProxy
@MainActor public protocol FeedScrollDelegate: AnyObject {
    /// The view scrolled to `offset`.
    func feedDidScroll(to offset: Double)
    /// Whether a tap on the status bar scrolls to the top; `true` when no listener answers.
    @DelegateDefault(true) func feedShouldScrollToTop() -> Bool
    /// Every listener agrees that the feed may refresh.
    @DelegateCombining(.allTrue) func feedShouldRefresh() -> Bool
}
#endif
