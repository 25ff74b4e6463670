import CDispatchTable

/// Where a message is declared in source: part of its identity (see `Message`).
struct MessageSite: CustomStringConvertible {
    let fileID: String
    let line: UInt
    let column: UInt
    /// The declaration around the message (`#function`: the type of a static property, the
    /// function that makes it), which `#sourceLocation` does not rewrite. Empty for a site read
    /// back with ``MessageIdentity/site(of:)``.
    var function = ""

    var description: String { "\(fileID):\(line):\(column)" }
}

/// The rule that turns a message's declaration into its interning key: its name, its site (with
/// the declaration around it), the runtime metadata of its `Message<Input, Output>` type and
/// what the declaration knew of `Input` and `Output` being `Sendable`.
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
        var function = site.function
        var name = name
        let status = name.withUTF8 { bytes in
            fileID.withUTF8 { fileID in
                function.withUTF8 { function in
                    // The site's file is the file ID, a NUL (which no file ID holds), then the
                    // declaration around the message: `#sourceLocation` rewrites the first, not
                    // the second. On the stack for the usual lengths: no allocation.
                    let length = fileID.count + 1 + function.count
                    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length) { file in
                        let raw = UnsafeMutableRawBufferPointer(file)
                        raw.copyMemory(from: UnsafeRawBufferPointer(fileID))
                        raw[fileID.count] = 0
                        UnsafeMutableRawBufferPointer(rebasing: raw[(fileID.count + 1)...])
                            .copyMemory(from: UnsafeRawBufferPointer(function))
                        let bytes = UnsafeRawBufferPointer(bytes).bindMemory(to: CChar.self)
                        var place = cdt_message_site(
                            file: UnsafePointer(file.baseAddress), file_length: file.count, line: UInt64(site.line),
                            column: UInt64(site.column))
                        let tag = UnsafeRawPointer(bitPattern: key)
                        // A message made again at its place is found without describing its type.
                        id = cdt_intern_lookup_declared(bytes.baseAddress, bytes.count, &place, tag)
                        if id != 0 { return CDT_INTERN_OK }
                        return cdt_intern_declared(
                            bytes.baseAddress, bytes.count, &place, tag, String(reflecting: signature), &id)
                    }
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
        // The file ID ends at the NUL before the declaration around the message (see `intern`).
        let bytes = UnsafeRawBufferPointer(start: file, count: site.file_length)
        let fileID = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        return MessageSite(fileID: fileID, line: UInt(site.line), column: UInt(site.column))
    }
}
