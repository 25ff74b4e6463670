#if Macros
import Testing

/// `FastDelegatesFoundation` ships `@DelegateProxy`'s expansions of its transcriptions, checked
/// in, so that it builds without the `Macros` trait (its users never fetch swift-syntax). Each
/// file quotes its source in its header, after `// Source:`; this test expands that source and
/// fails when the file differs from the result. `make generate` rewrites the files.
@Suite("Checked-in expansions of FastDelegatesFoundation")
struct FoundationExpansionTests {
    /// The files, relative to the package root.
    static let files = [
        "Sources/FastDelegatesFoundation/XMLParserListener+Generated.swift",
        "Sources/FastDelegatesFoundation/NSCacheListener+Generated.swift",
        "Sources/FastDelegatesFoundation/FileManagerListener+Generated.swift",
        "Sources/FastDelegatesFoundation/NSKeyedArchiverListener+Generated.swift",
        "Sources/FastDelegatesFoundation/NSKeyedUnarchiverListener+Generated.swift",
        "Sources/FastDelegatesFoundation/URLSessionListener+Generated.swift",
    ]

    @Test("The file is the macro's expansion of the source its header quotes", arguments: files)
    func upToDate(_ path: String) throws {
        let url = packageRoot + "/" + path
        let current = try readFile(url)
        let expected = try regenerated(current, at: path)
        if environmentValue("FASTDELEGATES_REGENERATE") == "1", expected != current {
            try writeFile(url, expected)
            return
        }
        #expect(current == expected, "\(path) is stale: run `make generate`")
    }

    /// The file's header (its leading comment), then the expansion of the source the header
    /// quotes after its `// Source:` line, as the file at `path` declares it.
    func regenerated(_ file: String, at path: String) throws -> String {
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
        let headerEnd = lines.firstIndex { !$0.hasPrefix("//") } ?? lines.endIndex
        guard let marker = lines[..<headerEnd].firstIndex(of: "// Source:"), marker + 1 < headerEnd else {
            throw SourceError.noSource
        }
        let header = lines[..<headerEnd].joined(separator: "\n")
        let source = lines[(marker + 1)..<headerEnd]
            .map { $0 == "//" ? "" : String($0.dropFirst(3)) }
            .joined(separator: "\n")
        let (expanded, diagnostics) = expand(source, asFileAt: path)
        guard diagnostics.isEmpty else { throw SourceError.rejected(diagnostics.map(\.message)) }
        let body = expanded.drop { $0.isNewline }.reversed().drop { $0.isNewline }.reversed()
        return header + "\n\n" + String(body) + "\n"
    }

    enum SourceError: Error {
        case noSource
        case rejected([String])
    }
}
#endif
