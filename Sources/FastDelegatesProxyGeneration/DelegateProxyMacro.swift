#if Macros
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@DelegateProxy`: from a class-bound delegate protocol, its messages and proxy class (peers)
/// and its conformers' responder (an extension). Reports every requirement it cannot forward,
/// each on its declaration, and then generates nothing.
public struct DelegateProxyMacro: PeerMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let proto = forwardable(declaration, in: context, reporting: true) else { return [] }
        var generator = ProxyGenerator(proto: proto)
        generator.superclass = superclass(of: node)
        if let site = context.location(of: declaration, at: .afterLeadingTrivia, filePathMode: .fileID) {
            generator.declarationSite =
                ", fileID: \(site.file.trimmedDescription), line: \(site.line.trimmedDescription), "
                + "column: \(site.column.trimmedDescription)"
        }
        if isConcurrent(node) {
            guard proto.isolation == .nonisolated else {
                context.diagnose(Diagnostic(node: node, message: ProxyDiagnostic.concurrentNotNonisolated))
                return []
            }
            // The messages stay the nonisolated protocol's; the proxy is a `Sendable` one.
            var concurrent = proto
            concurrent.isolation = .sendable
            var proxy = ProxyGenerator(proto: concurrent)
            proxy.superclass = generator.superclass
            proxy.listenerConstraint = " & Sendable"
            proxy.defaultLocations = generator.defaultLocations
            return [generator.messages, proxy.proxyClass]
        }
        if let superclass = generator.superclass, let base = proto.baseClass {
            context.diagnose(
                Diagnostic(node: node, message: ProxyDiagnostic.twoSuperclasses(superclass, base)))
            return []
        }
        for requirement in proto.requirements {
            guard let attribute = requirement.computedDefault?.attribute,
                let location = context.location(of: attribute, at: .afterLeadingTrivia, filePathMode: .filePath)
            else { continue }
            generator.defaultLocations[requirement.memberName] =
                "#sourceLocation(file: \(location.file.trimmedDescription), line: \(location.line.trimmedDescription))"
        }
        return [generator.messages, generator.proxyClass]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        // The peer expansion reports the diagnostics; this one only stays silent on them.
        guard let proto = forwardable(declaration, in: context, reporting: false),
            superclass(of: node) == nil || proto.baseClass == nil
        else { return [] }
        let generator = ProxyGenerator(proto: proto)
        guard isConcurrent(node), proto.isolation == .nonisolated else {
            return generator.responderExtensions(for: type)
        }
        return generator.responderExtensions(for: type) + [generator.sendableResponderExtension(for: type)]
    }

    private static func forwardable(
        _ declaration: some SyntaxProtocol, in context: some MacroExpansionContext, reporting: Bool
    ) -> ProxiedProtocol? {
        guard let protocolDeclaration = declaration.as(ProtocolDeclSyntax.self) else {
            if reporting { context.diagnose(Diagnostic(node: declaration, message: ProxyDiagnostic.notAProtocol)) }
            return nil
        }
        let proto = ProxiedProtocol(protocolDeclaration, outerTypes: outerTypeNames(in: context))
        guard proto.diagnostics.isEmpty else {
            if reporting { proto.diagnostics.forEach(context.diagnose) }
            return nil
        }
        return proto
    }

    /// Whether the attribute is `@DelegateProxy(concurrent: true)`.
    private static func isConcurrent(_ node: AttributeSyntax) -> Bool {
        node.arguments?.as(LabeledExprListSyntax.self)?.contains {
            $0.label?.text == "concurrent" && $0.expression.trimmedDescription == "true"
        } ?? false
    }

    /// The class `C` of `@DelegateProxy(superclass: C.self)`.
    private static func superclass(of node: AttributeSyntax) -> String? {
        guard
            let argument = node.arguments?.as(LabeledExprListSyntax.self)?.first(where: {
                $0.label?.text == "superclass"
            })
        else { return nil }
        if let member = argument.expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
            let base = member.base
        {
            return base.trimmedDescription
        }
        return argument.expression.trimmedDescription
    }

    /// The names of the types around the protocol, outermost first.
    private static func outerTypeNames(in context: some MacroExpansionContext) -> [String] {
        context.lexicalContext.reversed().compactMap { scope in
            if let type = scope.asProtocol(NamedDeclSyntax.self), !scope.is(ProtocolDeclSyntax.self) {
                return type.name.text
            }
            return scope.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription
        }
    }
}

/// `@DelegateDefault` and `@DelegateCombining`: markers that `@DelegateProxy` reads on a
/// requirement; they generate nothing themselves.
public struct RequirementMarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
#endif
