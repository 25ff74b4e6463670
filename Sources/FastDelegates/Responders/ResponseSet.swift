/// A declaration of the messages a `Target` answers: ``Responses`` (any handlers) or
/// ``SendableResponses`` (`@Sendable` handlers only).
///
/// The single-thread dispatchers take either form wherever they take responses, and a
/// ``DelegateResponder`` declares its type's responses in either. Only a
/// ``ConcurrentDelegateChain`` insists on ``SendableResponses``, since its handlers run on any
/// thread.
public protocol ResponseSet<Target> {
    /// The type of the targets that answer.
    associatedtype Target: AnyObject

    /// The handlers, as responses a single-thread dispatcher registers.
    var responses: Responses<Target> { get }
}
