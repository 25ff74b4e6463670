#if Macros
import SwiftDiagnostics
import SwiftSyntax

/// A delegate protocol as `@DelegateProxy` reads it: what it forwards, and where it cannot.
struct ProxiedProtocol {
    /// How the generated code is isolated, and which chain it sends through.
    enum Isolation {
        /// `@MainActor`: a main-actor proxy over `DelegateChain`.
        case mainActor
        /// Refines `Sendable`: a `Sendable` proxy over `ConcurrentDelegateChain`.
        case sendable
        /// Neither: a nonisolated proxy over `DelegateChain`.
        case nonisolated
    }

    /// The protocol's name as declared (`FeedScrollDelegate`).
    let name: String
    /// The names of the types the protocol is nested in, outermost first.
    let outerTypes: [String]
    /// The protocol's access modifier followed by a space (`public `), or nothing.
    let access: String
    let isolation: Isolation
    let requirements: [Requirement]
    /// Every reason the macro cannot forward the protocol; nothing is generated if any.
    let diagnostics: [Diagnostic]

    /// The protocol as the generated code refers to it from outside its scope.
    var qualifiedName: String { (outerTypes + [name]).joined(separator: ".") }
    var messagesName: String { name + "Messages" }
    var qualifiedMessagesName: String { (outerTypes + [messagesName]).joined(separator: ".") }
    var proxyName: String { name + "Proxy" }

    /// The property that maps a conformer to its responder, named after the protocol so that a
    /// class conforming to two proxied protocols has both unambiguously.
    var responderName: String { lowercasedFirstWord(name) + "Responder" }

    init(_ declaration: ProtocolDeclSyntax, outerTypes: [String]) {
        name = declaration.name.text
        self.outerTypes = outerTypes
        access = Self.access(of: declaration.modifiers)
        var diagnostics: [Diagnostic] = []

        // `AnyObject & Sendable` counts as its two parts.
        let parents: [TypeSyntax] = (declaration.inheritanceClause?.inheritedTypes ?? []).flatMap { inherited in
            inherited.type.as(CompositionTypeSyntax.self)?.elements.map(\.type) ?? [inherited.type]
        }
        let classBound = ["AnyObject", "Swift.AnyObject", "class"]
        let sendable = ["Sendable", "Swift.Sendable"]
        let isClassBound = parents.contains { classBound.contains($0.trimmedDescription) }
        let refinesSendable = parents.contains { sendable.contains($0.trimmedDescription) }
        for parent in parents where !(classBound + sendable).contains(parent.trimmedDescription) {
            diagnostics.append(
                Diagnostic(
                    node: parent, message: ProxyDiagnostic.inheritsRequirements(parent: parent.trimmedDescription)))
        }
        if !isClassBound {
            diagnostics.append(
                Diagnostic(node: declaration.name, message: ProxyDiagnostic.notClassBound(protocolName: name)))
        }
        let isMainActor = declaration.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            return ["MainActor", "_Concurrency.MainActor"].contains(attribute.attributeName.trimmedDescription)
        }
        isolation = isMainActor ? .mainActor : refinesSendable ? .sendable : .nonisolated

        var requirements: [Requirement] = []
        var selectors: Set<String> = []
        for member in declaration.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self) else {
                diagnostics.append(Self.unsupported(member.decl))
                continue
            }
            let requirement = Requirement(function, inMainActorProtocol: isMainActor)
            if requirement.diagnostics.isEmpty, !selectors.insert(requirement.selector).inserted {
                diagnostics.append(
                    Diagnostic(
                        node: function.name, message: ProxyDiagnostic.overloadByTypeOnly(selector: requirement.selector)
                    ))
            }
            diagnostics += requirement.diagnostics
            requirements.append(requirement)
        }
        self.requirements = Requirement.assigningMemberNames(requirements)
        self.diagnostics = diagnostics
    }

    private static func access(of modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers
        where ["public", "package", "internal", "fileprivate", "private"].contains(modifier.name.text) {
            return modifier.name.text + " "
        }
        return ""
    }

    private static func unsupported(_ declaration: DeclSyntax) -> Diagnostic {
        let message: ProxyDiagnostic =
            if declaration.is(AssociatedTypeDeclSyntax.self) {
                .associatedType
            } else if declaration.is(VariableDeclSyntax.self) {
                .property
            } else if declaration.is(SubscriptDeclSyntax.self) {
                .subscript
            } else if declaration.is(InitializerDeclSyntax.self) {
                .initializer
            } else {
                .unsupportedMember
            }
        return Diagnostic(node: declaration, message: message)
    }
}

/// `FeedScrollDelegate` → `feedScrollDelegate`, `URLSessionDelegate` → `urlSessionDelegate`.
func lowercasedFirstWord(_ name: String) -> String {
    let characters = Array(name)
    var end = 0
    while end < characters.count, characters[end].isUppercase { end += 1 }
    // The last capital of a run followed by lowercase letters starts the next word.
    if end < characters.count, end > 1 { end -= 1 }
    return String(characters[..<end]).lowercased() + String(characters[end...])
}
#endif
