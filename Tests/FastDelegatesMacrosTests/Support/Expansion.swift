#if Macros
import FastDelegatesProxyGeneration
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros as a user's module sees them.
let proxyMacros: [String: any Macro.Type] = [
    "DelegateProxy": DelegateProxyMacro.self,
    "DelegateDefault": RequirementMarkerMacro.self,
    "DelegateCombining": RequirementMarkerMacro.self,
]

/// What the macros make of `source`, as file `fileName` of module `moduleName`: the expanded file
/// and the diagnostics they reported.
func expand(_ source: String, moduleName: String = "TestModule", fileName: String = "test.swift") -> (
    source: String, diagnostics: [Diagnostic]
) {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext(
        sourceFiles: [file: .init(moduleName: moduleName, fullFilePath: fileName)])
    let expanded = file.expand(
        macros: proxyMacros,
        contextGenerator: {
            BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts())
        },
        indentationWidth: .spaces(4))
    return (expanded.description, context.diagnostics)
}

/// What the macros make of `source` as the file at `path` (`Sources/<target>/.../<file>`, from
/// the package root) of its target's module: how a checked-in expansion is regenerated, so that
/// its messages belong to that file.
func expand(_ source: String, asFileAt path: String) -> (source: String, diagnostics: [Diagnostic]) {
    let components = path.split(separator: "/")
    let module = components.dropFirst().first.map { String($0.map { $0 == "-" ? "_" : $0 }) } ?? "Module"
    return expand(source, moduleName: module, fileName: String(components.last ?? ""))
}

/// Checks that `source` expands to `expected` with the `diagnostics`, as the compiler would.
func assertExpansion(
    _ source: String, expandsTo expected: String, diagnostics: [DiagnosticSpec] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source, expandedSource: expected, diagnostics: diagnostics,
        macroSpecs: proxyMacros.mapValues { MacroSpec(type: $0) },
        failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) })
}

/// Checks that `source` is rejected with exactly the `messages`, each on the line that holds
/// its marker, and that nothing is generated for it.
func assertRejected(
    _ source: String, _ messages: [(marker: String, message: String)],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let specs = messages.map { expected in
        let line = (lines.firstIndex { $0.contains(expected.marker) } ?? -1) + 1
        #expect(line > 0, "no line holds \(expected.marker)", sourceLocation: sourceLocation)
        return (line, expected.message)
    }
    let (expanded, diagnostics) = expand(source)
    let reported = diagnostics.map { diagnostic -> (Int, String) in
        let converter = SourceLocationConverter(fileName: "test.swift", tree: diagnostic.node.root)
        return (diagnostic.location(converter: converter).line, diagnostic.message)
    }
    #expect(reported.map { $0.0 } == specs.map { $0.0 }, sourceLocation: sourceLocation)
    #expect(reported.map { $0.1 } == specs.map { $0.1 }, sourceLocation: sourceLocation)
    #expect(diagnostics.allSatisfy { $0.diagMessage.severity == .error }, sourceLocation: sourceLocation)
    #expect(
        !expanded.contains("Proxy:") && !expanded.contains("Messages"), "generated code for a rejected protocol",
        sourceLocation: sourceLocation)
}
#endif
