import CDispatchTable

/// A typed delegate message: the Swift counterpart of an Objective-C selector.
///
/// Declare each message once, as a static constant, and use it to register handlers and to send:
///
/// ```swift
/// enum Scroll {
///     static let didScroll = Message<Double, Void>("scrollViewDidScroll:")
///     static let viewForZooming = Message<Void, String?>("viewForZoomingInScrollView:")
/// }
/// ```
///
/// `Input` is what a sender passes (use a tuple for several values) and `Output` what a responder
/// answers (`Void` for a notification-style message). Creating a message interns it into a
/// process-wide 32-bit id, so a send never hashes or compares strings.
///
/// A message's identity is its name together with its `Input` and `Output` types, as the
/// compiler knows them where the message is made. The same name with the same types is the same
/// message wherever it is declared, so two modules that declare
/// `Message<Double, Void>("scrollViewDidScroll:")` talk about one message. The same name with
/// other types is another message: `Message<CGPoint, Void>("scrollViewDidScroll:")` in a second
/// library has its own id and its own handlers, and neither declaration stops the program.
///
/// Types that differ only by `Sendable` are different types, although the Swift runtime cannot
/// tell them apart (marker protocols leave no trace at run time): `Any` and `any Sendable`, a
/// class `C` and `C & Sendable`, `(Any) -> Void` and `(any Sendable) -> Void` each have one
/// runtime type. Where `Sendable` can hide like this, in a *position*, an existential (`Any`,
/// `AnyObject`, `any P`) or a class anywhere in `Input` or `Output`, a message's identity also
/// records what the place that made it knew, so that a value that is not `Sendable` never
/// reaches, through another message's send, a `@Sendable` handler, a `Sendable` stream or a
/// `Sendable` answer. Exactly:
/// - Two messages are the same message if and only if they have the same name, the same runtime
///   types, and, for `Input` and for `Output` apart, wherever that type has a position, agree on
///   whether the compiler knew it to be `Sendable` where each was made (overload resolution
///   picks the initializer that says so).
/// - That is exact when the type has no position, or is known `Sendable` and its positions sit
///   only in tuples, optionals, arrays, dictionaries, sets and `Result`s (each position then
///   carries `Sendable`). Otherwise (a position in a type not known `Sendable`, or inside a
///   function, a metatype or another generic type) one runtime type may stand for several: such
///   a message belongs to the one place in source that declares it, and a declaration of it at
///   a second place stops the program with a message that names both. Declare each message once,
///   as a constant, and use that constant everywhere.
/// - So `Message<Any, Void>("x")` and `Message<any Sendable, Void>("x")` are two messages; two
///   modules that both declare `Message<Any, Void>("x")`, or `Message<(Any) -> Void, Void>("x")`
///   and `Message<(any Sendable) -> Void, Void>("x")`, stop at the second declaration.
/// - Generic code makes the message concrete code makes for every type without a position
///   (`func make<T>() -> Message<T, Void> { Message("x") }` with `T == Double`, or `[Int]`,
///   `InlineArray<2, Int>`, `@Sendable () throws(E) -> Void` with a concrete `E`, is
///   `Message<Double, Void>("x")`...), and, where its constraints say `Sendable` (`T: Sendable`),
///   for every type whose positions are in those containers. Without the constraint it knows
///   nothing, and its message is a declaration of its own: constrain such generic code. One
///   generic declaration made for several types that differ only by `Sendable` inside a
///   position the key cannot tell apart is the one case no check sees: avoid it.
public struct Message<Input, Output>: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The interned id of the message: unique per name and `Input`/`Output` types within the
    /// process, never 0.
    public let id: UInt32

    /// The message called `name` with this type's `Input` and `Output`, interned on first use,
    /// where the compiler knows neither type to be `Sendable` (see the type's notes on identity).
    ///
    /// - Parameters:
    ///   - name: The message's name. Messages of other types may share it.
    ///   - fileID: The file that declares the message: leave it to its default.
    ///   - line: The line that declares the message: leave it to its default.
    ///   - column: The column that declares the message: leave it to its default.
    /// - Precondition: `name` is not empty; a message whose types the key cannot tell apart is
    ///   declared at one place only (see the type's notes on identity).
    /// - Complexity: O(`name.utf8.count`) plus a walk of the types' metadata, once; keep the
    ///   message in a constant.
    public init(_ name: String, fileID: String = #fileID, line: UInt = #line, column: UInt = #column) {
        self.init(name, MessageKnowledge(inputSendable: false, outputSendable: false), fileID, line, column)
    }

    /// The message called `name`, where the compiler knows `Input` to be `Sendable` but not
    /// `Output`: overload resolution picks this initializer then.
    public init(_ name: String, fileID: String = #fileID, line: UInt = #line, column: UInt = #column)
    where Input: Sendable {
        self.init(name, MessageKnowledge(inputSendable: true, outputSendable: false), fileID, line, column)
    }

    /// The message called `name`, where the compiler knows `Output` to be `Sendable` but not
    /// `Input`: overload resolution picks this initializer then.
    public init(_ name: String, fileID: String = #fileID, line: UInt = #line, column: UInt = #column)
    where Output: Sendable {
        self.init(name, MessageKnowledge(inputSendable: false, outputSendable: true), fileID, line, column)
    }

    /// The message called `name`, where the compiler knows both `Input` and `Output` to be
    /// `Sendable`: overload resolution picks this initializer then, so that
    /// `Message<any Sendable, Void>("x")` is not `Message<Any, Void>("x")`.
    public init(_ name: String, fileID: String = #fileID, line: UInt = #line, column: UInt = #column)
    where Input: Sendable, Output: Sendable {
        self.init(name, MessageKnowledge(inputSendable: true, outputSendable: true), fileID, line, column)
    }

    private init(_ name: String, _ knowledge: MessageKnowledge, _ fileID: String, _ line: UInt, _ column: UInt) {
        id = MessageIdentity.intern(
            name, Input.self, Output.self, knowledge: knowledge,
            site: MessageSite(fileID: fileID, line: line, column: column))
    }

    /// The name the message was declared with (messages of other types may share it).
    public var name: String {
        var length = 0
        guard let bytes = cdt_intern_name(id, &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// The message's name, as written in its declaration.
    public var description: String { name }

    /// The message's name and type, e.g. `scrollViewDidScroll: (FastDelegates.Message<Swift.Double, ()>)`,
    /// to tell apart messages that share a name.
    public var debugDescription: String {
        guard let signature = cdt_intern_signature_name(id) else { return name }
        return "\(name) (\(String(cString: signature)))"
    }
}
