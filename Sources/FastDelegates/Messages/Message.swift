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
/// tell them apart (marker protocols leave no trace at run time): `Message<Any, Void>("x")` and
/// `Message<any Sendable, Void>("x")` are two messages with two ids, and so are `AnyObject` and
/// `any AnyObject & Sendable`, `any P` and `any P & Sendable`, `[Any]` and `[any Sendable]`,
/// `Any?` and `(any Sendable)?`. Exactly:
/// - Two messages share an id if and only if they have the same name, the same runtime types,
///   and, when `Input` or `Output` contains an existential anywhere (`Any`, `AnyObject`, `any P`,
///   `any P.Type`, also inside an optional, tuple, function, array, dictionary or other generic
///   argument; a generic class counts as one), agree on whether the compiler knew both `Input`
///   and `Output` to be `Sendable` where each was made.
/// - So a handler written for `Message<any Sendable, Void>` only receives values sent through a
///   message whose types were known `Sendable`, and a stream of it only sees those sends.
/// - Generic code makes the same message as concrete code for types without an existential
///   (`func make<T>() -> Message<T, Void> { Message("x") }` with `T == Double` is
///   `Message<Double, Void>("x")`). Over an existential, generic code makes the `Sendable` message
///   only if its own constraints say so (`T: Sendable`): with `T == any Sendable`, an
///   unconstrained `make<T>()` makes the message not known `Sendable`, the id of
///   `Message<Any, Void>("x")`, not that of `Message<any Sendable, Void>("x")`. Its handlers and
///   streams then see the sends of `Message<Any, Void>("x")`: constrain such generic code.
/// - Metatypes are `Sendable` whatever their instance type, so `Message<Any.Type, Void>("x")` and
///   `Message<any Sendable.Type, Void>("x")` are one message.
public struct Message<Input, Output>: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The interned id of the message: unique per name and `Input`/`Output` types within the
    /// process, never 0.
    public let id: UInt32

    /// The message called `name` with this type's `Input` and `Output`, interned on first use,
    /// where the compiler does not know both types to be `Sendable`.
    ///
    /// - Precondition: `name` is not empty.
    /// - Complexity: O(`name.utf8.count`) plus a walk of the types' metadata, once; keep the
    ///   message in a constant.
    public init(_ name: String) {
        self.init(name, knownSendable: false)
    }

    /// The message called `name` with this type's `Input` and `Output`, interned on first use,
    /// where the compiler knows both types to be `Sendable`: overload resolution picks this
    /// initializer then, so that `Message<any Sendable, Void>("x")` is not `Message<Any, Void>("x")`
    /// (see the type's notes on identity).
    ///
    /// - Precondition: `name` is not empty.
    /// - Complexity: O(`name.utf8.count`) plus a walk of the types' metadata, once; keep the
    ///   message in a constant.
    public init(_ name: String) where Input: Sendable, Output: Sendable {
        self.init(name, knownSendable: true)
    }

    private init(_ name: String, knownSendable: Bool) {
        precondition(!name.isEmpty, "FastDelegates: a Message needs a non-empty name")
        let signature = Message<Input, Output>.self
        var key = UInt(bitPattern: ObjectIdentifier(signature))
        var described = String(reflecting: signature)
        // The runtime metadata of `Message<Input, Output>` drops marker protocols: where the types
        // may hide one, the Sendable bit joins the key (metadata is pointer-aligned, so bit 0 of
        // its address is free); elsewhere it is left out, so generic code agrees with concrete.
        if knownSendable && Self.typesMayHideMarker {
            key |= 1
            described += " where Input: Sendable, Output: Sendable"
        }
        var id: UInt32 = 0
        let status = name.utf8CString.withUnsafeBufferPointer { bytes in
            cdt_intern(bytes.baseAddress, bytes.count - 1, UnsafeRawPointer(bitPattern: key), described, &id)
        }
        guard status == CDT_INTERN_OK else { fatalError("FastDelegates: out of memory interning message \"\(name)\"") }
        self.id = id
    }

    /// Whether `Input` or `Output` contains an existential, so that its runtime metadata may stand
    /// for types that differ by `Sendable` (`cdt_type_may_hide_marker`).
    static var typesMayHideMarker: Bool {
        func mayHide(_ type: Any.Type) -> Bool {
            cdt_type_may_hide_marker(UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(type))))
        }
        return mayHide(Input.self) || mayHide(Output.self)
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
