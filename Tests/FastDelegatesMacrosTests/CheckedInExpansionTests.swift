#if Macros
import Testing

/// The benchmark compiles a checked-in expansion of `@DelegateProxy` (its release build must not
/// build swift-syntax). This test keeps that file equal to what the macro generates today;
/// `make generate` rewrites it.
@Suite("Checked-in expansions")
struct CheckedInExpansionTests {
    /// The files, relative to the package root.
    static let files = [
        "Sources/fastdelegates-bench/Variants/BenchScrollDelegate+Generated.swift",
        "Sources/fastdelegates-bench/Variants/BenchScrollDelegateCopy1+Generated.swift",
        "Sources/fastdelegates-bench/Variants/BenchScrollDelegateCopy2+Generated.swift",
        "Sources/fastdelegates-bench/Variants/BenchScrollDelegateCopy3+Generated.swift",
        "Sources/fastdelegates-bench/Variants/BenchFrameDelegate+Generated.swift",
    ]

    @Test("The file is what the macro generates from the declaration in its header", arguments: files)
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

    /// The file's header, then the expansion of the declaration the header quotes, as the
    /// file at `path` (`Sources/<target>/.../<file>`) of its target's module declares it.
    func regenerated(_ file: String, at path: String) throws -> String {
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("// @DelegateProxy") }),
            let end = lines[start...].firstIndex(of: "// }")
        else {
            throw ExpansionFileError.noDeclaration
        }
        let header = lines[...end].joined(separator: "\n")
        let declaration = lines[start...end].map { $0.dropFirst(3) }.joined(separator: "\n")
        let (expanded, diagnostics) = expand(declaration, asFileAt: path)
        guard diagnostics.isEmpty else { throw ExpansionFileError.rejected(diagnostics.map(\.message)) }
        return header + "\n\nimport FastDelegates\n\n" + expanded.trimmingNewlines() + "\n"
    }

    enum ExpansionFileError: Error {
        case noDeclaration
        case rejected([String])
    }
}

extension String {
    fileprivate func trimmingNewlines() -> Substring {
        self.drop { $0.isNewline }.reversed().drop { $0.isNewline }.reversed().reduce(into: "") { $0.append($1) }
    }
}
#endif
