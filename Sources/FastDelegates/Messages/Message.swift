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
/// A message's identity is its name together with its `Input` and `Output` types. The same name
/// with the same types is the same message wherever it is declared, so two modules that declare
/// `Message<Double, Void>("scrollViewDidScroll:")` talk about one message. The same name with
/// other types is another message: `Message<CGPoint, Void>("scrollViewDidScroll:")` in a second
/// library has its own id and its own handlers, and neither declaration stops the program. A
/// handler therefore only ever runs with the types it was written for.
public struct Message<Input, Output>: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The interned id of the message: unique per name and `Input`/`Output` types within the
    /// process, never 0.
    public let id: UInt32

    /// The message called `name` with this type's `Input` and `Output`, interned on first use.
    ///
    /// - Precondition: `name` is not empty.
    /// - Complexity: O(`name.utf8.count`), once; keep the message in a constant.
    public init(_ name: String) {
        precondition(!name.isEmpty, "FastDelegates: a Message needs a non-empty name")
        let signature = Message<Input, Output>.self
        var id: UInt32 = 0
        let status = name.utf8CString.withUnsafeBufferPointer { bytes in
            cdt_intern(
                bytes.baseAddress, bytes.count - 1,
                UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(signature))),
                String(reflecting: signature), &id)
        }
        guard status == CDT_INTERN_OK else { fatalError("FastDelegates: out of memory interning message \"\(name)\"") }
        self.id = id
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
