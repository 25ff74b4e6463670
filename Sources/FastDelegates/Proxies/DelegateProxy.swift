#if Macros
/// Generates, from a class-bound delegate protocol, a proxy class that forwards every
/// requirement to any number of listeners, with no code per method.
///
/// ```swift
/// @DelegateProxy
/// @MainActor public protocol FeedScrollDelegate: AnyObject {
///     func scrollViewDidScroll(_ offset: Double)
///     @DelegateDefault(true) func scrollViewShouldScrollToTop() -> Bool
///     func viewForZooming() -> String?
///     @DelegateCombining(.allTrue) func scrollViewShouldBeginEditing() -> Bool
/// }
///
/// let proxy = FeedScrollDelegateProxy()     // owned by the host's owner
/// scrollView.delegate = proxy               // weak var delegate: (any FeedScrollDelegate)?
/// proxy.add(header)                         // one line per listener, held weakly
/// proxy.add(analytics)
/// ```
///
/// Beside the protocol it writes `FeedScrollDelegateMessages` (one ``Message`` per
/// requirement), `FeedScrollDelegateProxy` (the proxy, over a ``DelegateChain``, or a
/// ``ConcurrentDelegateChain`` for a protocol that refines `Sendable`), and an extension with
/// `feedScrollDelegateResponder`, which puts any conformer on any dispatcher. Requirements
/// it cannot forward are reported on their declarations. Available with the package's `Macros`
/// trait; see <doc:DelegateProxies>.
///
/// Requirements are optional, as in Apple's delegate protocols: the extension also gives every
/// requirement a default implementation, so a listener implements only what it needs. A listener
/// that does not implement a requirement is not called for it and does not count as responding
/// (see ``RequirementDispatching``). `async` and throwing requirements are awaited and rethrown
/// (``AsyncRequirement``), completion handlers called exactly once, and a protocol may refine
/// other `@DelegateProxy` protocols (``DelegateForwarding``).
@attached(peer, names: suffixed(Messages), suffixed(Proxy))
@attached(extension, names: arbitrary)
public macro DelegateProxy() = #externalMacro(module: "FastDelegatesMacros", type: "DelegateProxyMacro")

/// `@DelegateProxy`, whose generated proxy subclasses `superclass`, which needs an accessible
/// `init()`: `@DelegateProxy(superclass: NSObject.self)` makes the proxy an `NSObject`, so that it
/// can also conform to a Foundation delegate protocol that refines `NSObjectProtocol`
/// (`extension URLSessionDataDelegateProxy: Foundation.URLSessionDataDelegate {}`), and fill that
/// slot. See <doc:DelegateProxies>.
@attached(peer, names: suffixed(Messages), suffixed(Proxy))
@attached(extension, names: arbitrary)
public macro DelegateProxy(superclass: AnyObject.Type) =
    #externalMacro(module: "FastDelegatesMacros", type: "DelegateProxyMacro")

/// `@DelegateProxy` for a protocol that is neither `@MainActor` nor `Sendable`, whose proxy a
/// framework's queue and the main thread share: with `concurrent: true`, the proxy is `Sendable`,
/// over a ``ConcurrentDelegateChain`` (sends from any thread, no lock; `remove` waits for running
/// calls), and its `add` takes `Sendable` listeners only, registered with `@Sendable` handlers
/// (the protocol's `…SendableResponder`). A listener whose state is not `Sendable` does not
/// compile; one isolated to an actor cannot witness the protocol's nonisolated requirements. See
/// <doc:DelegateProxies>.
@attached(peer, names: suffixed(Messages), suffixed(Proxy))
@attached(extension, names: arbitrary)
public macro DelegateProxy(concurrent: Bool, superclass: AnyObject.Type? = nil) =
    #externalMacro(module: "FastDelegatesMacros", type: "DelegateProxyMacro")

/// What a `@DelegateProxy` proxy answers for this requirement when no listener responds.
///
/// Required on a requirement with a non-`Optional` answer (unless it has
/// ``DelegateCombining(_:)-63355``): `@DelegateDefault(true) func shouldScrollToTop() -> Bool`. On a
/// requirement with a completion handler, the value the proxy completes with when no listener
/// implements it, a tuple for several arguments:
/// `@DelegateDefault((AuthChallengeDisposition.performDefaultHandling, URLCredential?.none))`.
/// It is also the answer of the protocol's generated default implementation, which a listener
/// that does not implement the requirement inherits.
@attached(peer)
public macro DelegateDefault<Value>(_ value: Value) =
    #externalMacro(module: "FastDelegatesMacros", type: "RequirementMarkerMacro")

/// What a `@DelegateProxy` proxy answers for this requirement when no listener responds: an
/// expression computed from the method's parameters, as Apple's defaults often are
/// (`@DelegateDefault(expression: "String(name.prefix(1))")`, the name's first letter). The
/// expression is a string because Swift type-checks a marker's arguments where the attribute is
/// written, before any parameter exists; the macro writes it into a function of the parameters,
/// so it is type-checked there, and an error in it points at this attribute. On a requirement
/// with a completion handler, the value the proxy completes with.
@attached(peer)
public macro DelegateDefault(expression: String) =
    #externalMacro(module: "FastDelegatesMacros", type: "RequirementMarkerMacro")

/// `@DelegateDefault(nil)`: `nil` is what a `@DelegateProxy` proxy answers for this requirement
/// when no listener responds, or completes its completion handler with. The macro reads a
/// requirement's shape from its spelling: an answer spelled `T?` needs no marker, but one spelled
/// through a type alias (`-> MaybeValue`, `typealias MaybeValue = Int?`) needs this one.
@attached(peer)
public macro DelegateDefault(_ value: DelegateNilDefault) =
    #externalMacro(module: "FastDelegatesMacros", type: "RequirementMarkerMacro")

/// The argument of `@DelegateDefault(nil)`: the `nil` literal, which has no type of its own for
/// the marker's generic form to infer.
public struct DelegateNilDefault: ExpressibleByNilLiteral, Sendable {
    /// `nil`.
    public init(nilLiteral: ()) {}
}

/// What a `@DelegateProxy` proxy answers for this requirement when no listener implements it:
/// the value of the method's parameter named `parameter`, as UIKit does for
/// `@DelegateDefault(parameter: "indexPath") func tableView(_:willSelectRowAt indexPath:) -> IndexPath?`
/// (the proposed index path). On a requirement with a completion handler, the value the proxy
/// completes with: `@DelegateDefault(parameter: "request")`.
@attached(peer)
public macro DelegateDefault(parameter: String) =
    #externalMacro(module: "FastDelegatesMacros", type: "RequirementMarkerMacro")

/// Marks the last parameter of a `@DelegateProxy` requirement, an `@escaping` closure that
/// returns nothing, as a completion handler, as its name already does for `completionHandler`,
/// `decisionHandler` and `completion`: the proxy hands it to exactly one listener, the first
/// that implements the requirement, and otherwise calls it once itself with the requirement's
/// `@DelegateDefault` (a tuple for several arguments), or `nil` for an Optional argument.
@attached(peer)
public macro DelegateCompletionHandler() =
    #externalMacro(module: "FastDelegatesMacros", type: "RequirementMarkerMacro")

/// Makes a `@DelegateProxy` proxy ask every listener for this requirement and combine their
/// answers: `@DelegateCombining(.allTrue) func shouldBeginEditing() -> Bool`. The
/// combination's initial value is the answer when no listener responds.
///
/// A proxy's method returns what each listener's method returns, so the combination's answers
/// and result have the requirement's return type: `.allTrue` and `.anyTrue` (`Bool`),
/// `.reduce(initial, next)`, `.all` (a collection: every listener's elements joined in order)
/// and `.first` (an `Optional`: the first listener's answer).
@attached(peer)
public macro DelegateCombining<Answer>(_ combination: AnswerCombination<Answer, Answer>) =
    #externalMacro(module: "FastDelegatesMacros", type: "RequirementMarkerMacro")

/// `@DelegateCombining(.all)`: every listener's collection joined in order. The attribute
/// cannot see the requirement's return type; the proxy's method type-checks the combination
/// against it.
@attached(peer)
public macro DelegateCombining(_ combination: AnswerCombination<[Any], [Any]>) =
    #externalMacro(module: "FastDelegatesMacros", type: "RequirementMarkerMacro")

/// `@DelegateCombining(.first)`: the first listener's optional answer. The attribute cannot see
/// the requirement's return type; the proxy's method type-checks the combination against it.
@attached(peer)
public macro DelegateCombining(_ combination: AnswerCombination<Any?, Any?>) =
    #externalMacro(module: "FastDelegatesMacros", type: "RequirementMarkerMacro")
#else
// Without the `Macros` trait, the same attributes are declared unavailable, so that writing one
// says how to get it instead of "unknown attribute". Their definition names a macro of the
// toolchain's own Observation plugin, which every Swift 5.9 or later toolchain ships (so the
// declarations build without a warning); being unavailable, none is ever expanded.

/// Unavailable without the `Macros` trait: see <doc:ShippingProxiesWithoutSwiftSyntax>.
@available(
    *, unavailable,
    message:
        "@DelegateProxy needs FastDelegates' `Macros` trait (.package(…, traits: [\"Macros\"])); an SDK can instead check in its proxies with `swift package generate-delegate-proxies`"
)
@attached(peer)
public macro DelegateProxy() = #externalMacro(module: "ObservationMacros", type: "ObservationTrackedMacro")

/// Unavailable without the `Macros` trait: see <doc:ShippingProxiesWithoutSwiftSyntax>.
@available(
    *, unavailable,
    message:
        "@DelegateProxy needs FastDelegates' `Macros` trait (.package(…, traits: [\"Macros\"])); an SDK can instead check in its proxies with `swift package generate-delegate-proxies`"
)
@attached(peer)
public macro DelegateProxy(superclass: AnyObject.Type) =
    #externalMacro(module: "ObservationMacros", type: "ObservationTrackedMacro")

/// Unavailable without the `Macros` trait: see <doc:ShippingProxiesWithoutSwiftSyntax>.
@available(
    *, unavailable,
    message:
        "@DelegateProxy needs FastDelegates' `Macros` trait (.package(…, traits: [\"Macros\"])); an SDK can instead check in its proxies with `swift package generate-delegate-proxies`"
)
@attached(peer)
public macro DelegateProxy(concurrent: Bool, superclass: AnyObject.Type? = nil) =
    #externalMacro(module: "ObservationMacros", type: "ObservationTrackedMacro")

/// Unavailable without the `Macros` trait, as `@DelegateProxy` is.
@available(
    *, unavailable,
    message:
        "@DelegateDefault marks a requirement of a @DelegateProxy protocol, which needs FastDelegates' `Macros` trait"
)
@attached(peer)
public macro DelegateDefault<Value>(_ value: Value) =
    #externalMacro(module: "ObservationMacros", type: "ObservationTrackedMacro")

/// Unavailable without the `Macros` trait, as `@DelegateProxy` is.
@available(
    *, unavailable,
    message:
        "@DelegateDefault marks a requirement of a @DelegateProxy protocol, which needs FastDelegates' `Macros` trait"
)
@attached(peer)
public macro DelegateDefault(expression: String) =
    #externalMacro(module: "ObservationMacros", type: "ObservationTrackedMacro")

/// Unavailable without the `Macros` trait, as `@DelegateProxy` is.
@available(
    *, unavailable,
    message:
        "@DelegateDefault marks a requirement of a @DelegateProxy protocol, which needs FastDelegates' `Macros` trait"
)
@attached(peer)
public macro DelegateDefault(parameter: String) =
    #externalMacro(module: "ObservationMacros", type: "ObservationTrackedMacro")

/// Unavailable without the `Macros` trait, as `@DelegateProxy` is.
@available(
    *, unavailable,
    message:
        "@DelegateCompletionHandler marks a requirement of a @DelegateProxy protocol, which needs FastDelegates' `Macros` trait"
)
@attached(peer)
public macro DelegateCompletionHandler() = #externalMacro(module: "ObservationMacros", type: "ObservationTrackedMacro")

/// Unavailable without the `Macros` trait, as `@DelegateProxy` is.
@available(
    *, unavailable,
    message:
        "@DelegateCombining marks a requirement of a @DelegateProxy protocol, which needs FastDelegates' `Macros` trait"
)
@attached(peer)
public macro DelegateCombining<Answer>(_ combination: AnswerCombination<Answer, Answer>) =
    #externalMacro(module: "ObservationMacros", type: "ObservationTrackedMacro")
#endif
