/// The calls with which a `@DelegateProxy` proxy completes a completion handler that no listener
/// took, for a handler whose type is spelled through a type alias
/// (`completion: @escaping LoadCompletion`): the macro reads only spelling, so it cannot count
/// the handler's arguments, and overload resolution does it instead. For generated code.
// swift-format-ignore: AmbiguousTrailingClosureOverload
// (overloads by the handler's arity are the point: generated code passes the handler by name)
public enum CompletionDefault {
    /// Calls a handler without arguments.
    public static func complete(_ handler: () -> Void) { handler() }

    /// Calls a handler of one Optional argument with `nil`.
    public static func complete<A>(_ handler: (A?) -> Void) { handler(nil) }

    /// Calls a handler of two Optional arguments with `nil`s.
    public static func complete<A, B>(_ handler: (A?, B?) -> Void) { handler(nil, nil) }

    /// Calls a handler of three Optional arguments with `nil`s.
    public static func complete<A, B, C>(_ handler: (A?, B?, C?) -> Void) { handler(nil, nil, nil) }

    /// A handler whose arguments are not all Optionals needs a default to be called with.
    @available(
        *, unavailable,
        message:
            "this completion handler takes arguments that are not Optionals: add @DelegateDefault(value) to the requirement (a tuple for several arguments)"
    )
    public static func complete<Handler>(_ handler: Handler) {}

    /// Calls a handler of one argument with `value`.
    public static func complete<A>(_ handler: (A) -> Void, with value: A) { handler(value) }

    /// Calls a handler of two arguments with the elements of `value`.
    public static func complete<A, B>(_ handler: (A, B) -> Void, with value: (A, B)) { handler(value.0, value.1) }

    /// Calls a handler of three arguments with the elements of `value`.
    public static func complete<A, B, C>(_ handler: (A, B, C) -> Void, with value: (A, B, C)) {
        handler(value.0, value.1, value.2)
    }
}
