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
/// answers (`Void` for a notification-style message). Creating a message interns its name into a
/// process-wide 32-bit id, so a send never hashes or compares strings. The same name always gives
/// the same message; declaring a name again with other `Input` or `Output` types stops the program
/// at once with a message naming both types, so a handler can never run with the wrong types.
public struct Message<Input, Output>: Hashable, Sendable, CustomStringConvertible {
    /// The interned id of the message's name: unique per name within the process, never 0.
    public let id: UInt32

    /// The message called `name`, interned on first use.
    ///
    /// - Precondition: `name` is not empty, and every earlier message with this name has the
    ///   same `Input` and `Output` types.
    /// - Complexity: O(`name.utf8.count`), once; keep the message in a constant.
    public init(_ name: String) {
        precondition(!name.isEmpty, "FastDelegates: a Message needs a non-empty name")
        let signature = Message<Input, Output>.self
        let signatureName = String(reflecting: signature)
        var id: UInt32 = 0
        var existingName: UnsafePointer<CChar>? = nil
        let status = name.utf8CString.withUnsafeBufferPointer { bytes in
            cdt_intern(
                bytes.baseAddress, bytes.count - 1,
                UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(signature))),
                signatureName, &id, &existingName)
        }
        switch status {
        case CDT_INTERN_OK:
            self.id = id
        case CDT_INTERN_SIGNATURE_MISMATCH:
            let existing = existingName.map { String(cString: $0) } ?? "another type"
            fatalError(
                "FastDelegates: message \"\(name)\" is declared as \(signatureName) but was first declared as \(existing)")
        default:
            fatalError("FastDelegates: out of memory interning message \"\(name)\"")
        }
    }

    /// The name the message was declared with.
    public var name: String {
        var length = 0
        guard let bytes = cdt_intern_name(id, &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// The message's name, as written in its declaration.
    public var description: String { name }
}
