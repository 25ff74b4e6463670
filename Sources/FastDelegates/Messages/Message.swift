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
/// A message is its declaration: the place in source that makes it (file, line and column, and
/// the declaration around it: the type or function, `#function`), its name, and its `Input` and
/// `Output` types. Making it again at the same place (a static constant,
/// or a function that makes it on each call) gives the same message; any other place makes another
/// message, whatever its name. So:
/// - Declare each message once, in a constant, and register and send with that constant.
/// - Two libraries, or two private protocols, that use one name never share handlers, and no
///   declaration stops the program.
/// - A `@DelegateProxy` protocol's generated messages belong to the protocol's declaration; a
///   protocol that refines it (in any module) sends the parent's own constants.
///
/// The guarantee: two messages with one ``id`` were made at one place, with one name, the same
/// runtime types, and the same knowledge of whether `Input` and `Output` are `Sendable`. A place
/// outside generic code, macros and `#sourceLocation` has one static type, so the handlers,
/// answers and streams of one id agree on `Input` and `Output`, `Sendable` included. What falls
/// outside it, because the run time cannot see `Sendable` (a marker protocol) and the place is
/// what the compiler's `#fileID`, `#line`, `#column` and `#function` say:
/// - One generic place made for types that differ only by `Sendable` (`Any` and `any Sendable`,
///   a class `C` and `C & Sendable`) makes one message for both. Constrain such code
///   (`T: Sendable`), or give each type a place of its own.
/// - Code that a macro expands (an `#expect`, say) makes every message at the macro's own place:
///   the compiler gives default arguments that place. There, messages are told apart by name,
///   runtime types and whether `Input` and `Output` as a whole are known `Sendable`, but not by a
///   `Sendable` hidden deeper (`(Any) -> Void` and `(any Sendable) -> Void`): give such messages
///   other names, or declare them outside the macro.
/// - `#sourceLocation(file:line:)`, which code generators emit (and `@DelegateProxy` around each
///   `@DelegateDefault(expression:)`), rewrites `#fileID` (to the module and the file's base name)
///   and `#line`, not `#column` or `#function`. Two declarations it puts at one file and line are
///   still told apart by their column or their enclosing type or function, but those at one
///   column in one type or function (`static let a = Message<A, Void>("x")` and
///   `static let b = Message<B, Void>("x")` one under the other) are one message when their types
///   differ only by a `Sendable` hidden deeper (as in the macro case above). Give such declarations
///   other names, or keep them out of one `#sourceLocation` line.
/// - Swift's own dynamic casts ignore `Sendable`: `as? Message<(any Sendable) -> Void, Void>`
///   succeeds on a `Message<(Any) -> Void, Void>`, as it does on any generic type. Don't cast
///   messages.
/// - The `fileID`, `line`, `column` and `function` parameters are the place: passing them
///   yourself declares the message at that place, so pass them only for a declaration of your own
///   (as generated code does for the protocol it belongs to).
public struct Message<Input, Output>: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The interned id of the message: unique per declaration (place, name and types) within the
    /// process, within the limits the type's notes list; never 0.
    public let id: UInt32

    /// The message called `name`, declared here: interned on first use (see the type's notes on
    /// identity). Where the compiler knows `Input` or `Output` to be `Sendable`, overload
    /// resolution picks one of the initializers below instead.
    ///
    /// - Parameters:
    ///   - name: The message's name, a label: messages declared elsewhere may share it.
    ///   - fileID: The file that declares the message: leave it to its default.
    ///   - line: The line that declares the message: leave it to its default.
    ///   - column: The column that declares the message: leave it to its default.
    ///   - function: The declaration around the message (its type, or the function that makes
    ///     it): leave it to its default.
    /// - Precondition: `name` is not empty.
    /// - Complexity: O(`name.utf8.count` + `fileID.utf8.count` + `function.utf8.count`) expected;
    ///   keep the message in a constant.
    public init(
        _ name: String, fileID: String = #fileID, line: UInt = #line, column: UInt = #column,
        function: String = #function
    ) {
        self.init(
            name, knownSendable: (false, false),
            MessageSite(fileID: fileID, line: line, column: column, function: function))
    }

    /// The message called `name`, declared here, where the compiler knows `Input` to be `Sendable`
    /// but not `Output`.
    public init(
        _ name: String, fileID: String = #fileID, line: UInt = #line, column: UInt = #column,
        function: String = #function
    )
    where Input: Sendable {
        self.init(
            name, knownSendable: (true, false),
            MessageSite(fileID: fileID, line: line, column: column, function: function))
    }

    /// The message called `name`, declared here, where the compiler knows `Output` to be
    /// `Sendable` but not `Input`.
    public init(
        _ name: String, fileID: String = #fileID, line: UInt = #line, column: UInt = #column,
        function: String = #function
    )
    where Output: Sendable {
        self.init(
            name, knownSendable: (false, true),
            MessageSite(fileID: fileID, line: line, column: column, function: function))
    }

    /// The message called `name`, declared here, where the compiler knows both `Input` and
    /// `Output` to be `Sendable`: so that `Message<any Sendable, Void>("x")` is not
    /// `Message<Any, Void>("x")` even where both share a place (in one macro's expansion).
    public init(
        _ name: String, fileID: String = #fileID, line: UInt = #line, column: UInt = #column,
        function: String = #function
    )
    where Input: Sendable, Output: Sendable {
        self.init(
            name, knownSendable: (true, true),
            MessageSite(fileID: fileID, line: line, column: column, function: function))
    }

    private init(_ name: String, knownSendable: (input: Bool, output: Bool), _ site: MessageSite) {
        id = MessageIdentity.intern(name, of: Message.self, knownSendable: knownSendable, at: site)
    }

    /// The message interned as `id`, with this type: for a handler of that message to forward it.
    init(interned id: UInt32) { self.id = id }

    /// The name the message was declared with (messages declared elsewhere may share it).
    public var name: String {
        var length = 0
        guard let bytes = cdt_intern_name(id, &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// The message's name, as written in its declaration.
    public var description: String { name }

    /// The message's name, type and place, e.g. `scrollViewDidScroll: (FastDelegates.Message<Swift.Double, ()>,
    /// declared at App/Scroll.swift:4:23)`, to tell apart messages that share a name.
    public var debugDescription: String {
        guard let signature = cdt_intern_signature_name(id) else { return name }
        guard let site = MessageIdentity.site(of: id) else { return "\(name) (\(String(cString: signature)))" }
        return "\(name) (\(String(cString: signature)), declared at \(site))"
    }
}
