import CDispatchTable

/// Where a message is declared in source: part of its identity (see `Message`).
struct MessageSite: Equatable, CustomStringConvertible {
    let fileID: String
    let line: UInt
    let column: UInt

    var description: String { "\(fileID):\(line):\(column)" }
}

/// The rule that turns a message's declaration into its interning key: its name, its site, the
/// runtime metadata of its `Message<Input, Output>` type and what the declaration knew of
/// `Input` and `Output` being `Sendable`.
enum MessageIdentity {
    /// Interns the message `name` of `signature` declared at `site`, and returns its id.
    static func intern<Input, Output>(
        _ name: String, of signature: Message<Input, Output>.Type, knownSendable: (input: Bool, output: Bool),
        at site: MessageSite
    ) -> UInt32 {
        precondition(!name.isEmpty, "FastDelegates: a Message needs a non-empty name")
        // Metadata is pointer-aligned: bits 0 and 1 of its address are free for what the
        // declaration knew, which one place in a macro's expansion needs to tell types apart.
        var key = UInt(bitPattern: ObjectIdentifier(signature))
        if knownSendable.input { key |= 1 }
        if knownSendable.output { key |= 2 }
        var id: UInt32 = 0
        var fileID = site.fileID
        let status = name.utf8CString.withUnsafeBufferPointer { bytes in
            fileID.withUTF8 { file in
                file.withMemoryRebound(to: CChar.self) { file in
                    var place = cdt_message_site(
                        file: file.baseAddress, file_length: file.count, line: UInt64(site.line),
                        column: UInt64(site.column))
                    return cdt_intern_declared(
                        bytes.baseAddress, bytes.count - 1, &place, UnsafeRawPointer(bitPattern: key),
                        String(reflecting: signature), &id)
                }
            }
        }
        guard status == CDT_INTERN_OK else { fatalError("FastDelegates: out of memory interning message \"\(name)\"") }
        return id
    }

    /// Where message `id` was declared, or nil for an id without a site (an Objective-C selector).
    static func site(of id: UInt32) -> MessageSite? {
        var site = cdt_message_site()
        guard cdt_intern_site(id, &site), let file = site.file else { return nil }
        let fileID = String(
            decoding: UnsafeRawBufferPointer(start: file, count: site.file_length), as: UTF8.self)
        return MessageSite(fileID: fileID, line: UInt(site.line), column: UInt(site.column))
    }
}
