import CDispatchTable

/// What a creation site of a `Message` knew of its types, and where it is: the parts of a
/// message's identity beyond its name and runtime types (see `Message`'s notes on identity).
struct MessageKnowledge {
    /// Whether the compiler knew `Input` to be `Sendable` where the message was made.
    var inputSendable: Bool
    /// Whether the compiler knew `Output` to be `Sendable` where the message was made.
    var outputSendable: Bool
}

/// Where a message was made in source: told apart per file, line and column.
struct MessageSite: Equatable, CustomStringConvertible {
    let fileID: String
    let line: UInt
    let column: UInt

    var description: String { "\(fileID):\(line):\(column)" }
}

/// The rule that turns a message's types and creation site into its interning key.
enum MessageIdentity {
    /// Generic types whose `Sendable` conformance follows their arguments, as `Optional`'s does:
    /// a marker inside them is told apart by whether the whole type is `Sendable`.
    private static let structural: [Any.Type] = [
        [Int].self, ContiguousArray<Int>.self, ArraySlice<Int>.self, [Int: Int].self, Set<Int>.self,
        Result<Int, Never>.self,
    ]

    /// Where each message whose types the key cannot tell apart is declared: one place in source,
    /// so that all its values have the one static type of that declaration.
    private static let claims = HandoffMutex<[UInt32: MessageSite]>([:])

    private static func metadata(_ type: Any.Type) -> UnsafeRawPointer? {
        UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(type)))
    }

    /// Where `type`'s runtime metadata may hide a marker protocol (`cdt_type_marker_positions`).
    static func positions(of type: Any.Type) -> cdt_marker_positions {
        structural.map(metadata).withUnsafeBufferPointer { list in
            cdt_type_marker_positions(metadata(type), list.baseAddress, list.count)
        }
    }

    /// Whether every site that makes a type with `positions`, knowing it `Sendable` or not
    /// (`known`), means the same static type: with no position; or known `Sendable` with every
    /// position in structural containers, where each then carries the marker. Not known
    /// `Sendable` says nothing: generic code without the constraint knows nothing either.
    static func isExact(_ positions: cdt_marker_positions, knownSendable known: Bool) -> Bool {
        switch positions {
        case CDT_MARKER_POSITIONS_NONE: true
        case CDT_MARKER_POSITIONS_ONE, CDT_MARKER_POSITIONS_SEVERAL: known
        default: false
        }
    }

    /// Interns the message `name` of `Input` and `Output` made at `site` with `knowledge`, and
    /// returns its id. Traps when a message whose types the key cannot tell apart is declared at a
    /// second place.
    static func intern<Input, Output>(
        _ name: String, _: Input.Type, _: Output.Type, knowledge: MessageKnowledge, site: MessageSite
    ) -> UInt32 {
        precondition(!name.isEmpty, "FastDelegates: a Message needs a non-empty name")
        let signature = Message<Input, Output>.self
        let input = positions(of: Input.self)
        let output = positions(of: Output.self)
        // Metadata is pointer-aligned, so bits 0 and 1 of its address are free for what the site
        // knew; each joins the key only where its type has a position the metadata may hide.
        var key = UInt(bitPattern: ObjectIdentifier(signature))
        var described = String(reflecting: signature)
        var clauses: [String] = []
        if input != CDT_MARKER_POSITIONS_NONE && knowledge.inputSendable {
            key |= 1
            clauses.append("Input: Sendable")
        }
        if output != CDT_MARKER_POSITIONS_NONE && knowledge.outputSendable {
            key |= 2
            clauses.append("Output: Sendable")
        }
        if !clauses.isEmpty { described += " where " + clauses.joined(separator: ", ") }
        var id: UInt32 = 0
        let status = name.utf8CString.withUnsafeBufferPointer { bytes in
            cdt_intern(bytes.baseAddress, bytes.count - 1, UnsafeRawPointer(bitPattern: key), described, &id)
        }
        guard status == CDT_INTERN_OK else { fatalError("FastDelegates: out of memory interning message \"\(name)\"") }
        let exact =
            isExact(input, knownSendable: knowledge.inputSendable)
            && isExact(output, knownSendable: knowledge.outputSendable)
        if !exact { claim(id, name: name, described: described, site: site) }
        return id
    }

    /// Records `site` as the one place in source that makes message `id`, or traps if another
    /// place did.
    private static func claim(_ id: UInt32, name: String, described: String, site: MessageSite) {
        let first = claims.withLock { claims -> MessageSite in
            if let first = claims[id] { return first }
            claims[id] = site
            return site
        }
        guard first != site else { return }
        fatalError(
            """
            FastDelegates: the message "\(name)" of \(described) is declared at \(first) and again at \
            \(site). Its types are not known to be Sendable and hide a place where `Sendable` may stand \
            unseen by the run time (an existential or a class), so the two declarations may be of \
            different types that must not share handlers. Declare the message once, in a constant, and \
            use that constant everywhere (or give each declaration a name of its own).
            """)
    }
}
