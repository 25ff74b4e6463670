/// A type whose instances all answer the same messages, declared once in `responses`.
///
/// Conform and a chain can take an instance with no per-registration setup:
/// `chain.add(analytics)`. A non-final class cannot state `Responses<Self>`; register its
/// instances with ``DelegateChain/add(_:retention:responses:)`` instead.
public protocol DelegateResponder: AnyObject {
    /// The messages every instance of this type answers, and how.
    static var responses: Responses<Self> { get }
}
