/// A type whose instances all answer the same messages, declared once in `responses`.
///
/// Conform and a dispatcher can take an instance with no per-registration setup:
/// `chain.add(analytics)`. Declare the responses as ``SendableResponses`` in a nonisolated type
/// (a static constant must be `Sendable` there; a ``ConcurrentDelegateChain`` also requires
/// it), or as ``Responses`` in a `@MainActor` type, whose conformance is then isolated to the
/// main actor and whose handlers may call its isolated methods:
///
/// ```swift
/// final class Analytics: DelegateResponder {
///     static let responses = SendableResponses<Analytics>().on(Scroll.didScroll) { me, y in me.record(y) }
/// }
/// extension ViewController: @MainActor DelegateResponder {
///     static let responses = Responses<ViewController>().on(Scroll.didScroll) { me, y in me.apply(y) }
/// }
/// ```
///
/// A non-final class cannot state `Responses<Self>`; register its instances with
/// ``DelegateRegistering/add(_:retention:responses:)-(_,_,Responses<Target>)`` instead.
public protocol DelegateResponder: AnyObject {
    /// ``Responses`` or ``SendableResponses`` of this type.
    associatedtype DeclaredResponses: ResponseSet where DeclaredResponses.Target == Self

    /// The messages every instance of this type answers, and how.
    static var responses: DeclaredResponses { get }
}
