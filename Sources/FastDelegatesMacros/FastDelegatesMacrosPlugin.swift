#if Macros
import FastDelegatesProxyGeneration
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

@main
struct FastDelegatesMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [DelegateProxyMacro.self, RequirementMarkerMacro.self]
}

// The compiler asks this plugin for `FastDelegatesMacros.<type>` (the library's `#externalMacro`
// declarations): these are those types, over FastDelegatesProxyGeneration's implementation, which
// the `generate-delegate-proxies` tool shares.

/// `@DelegateProxy`: FastDelegatesProxyGeneration's ``DelegateProxyMacro``.
struct DelegateProxyMacro: PeerMacro, ExtensionMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try FastDelegatesProxyGeneration.DelegateProxyMacro.expansion(
            of: node, providingPeersOf: declaration, in: context)
    }

    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try FastDelegatesProxyGeneration.DelegateProxyMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}

/// The requirement markers (`@DelegateDefault`, `@DelegateCombining`, `@DelegateCompletionHandler`).
struct RequirementMarkerMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try FastDelegatesProxyGeneration.RequirementMarkerMacro.expansion(
            of: node, providingPeersOf: declaration, in: context)
    }
}
#else
// Without the `Macros` trait swift-syntax is not a dependency, and nothing uses this plugin; a
// build of every target (`swift test`) still links it, so it needs an entry point.
@main
enum FastDelegatesMacrosPlugin {
    static func main() {}
}
#endif
