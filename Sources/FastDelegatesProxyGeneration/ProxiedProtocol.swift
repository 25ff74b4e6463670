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
        /// Neither, but refines `@DelegateProxy` protocols: the isolation of the first of them,
        /// which the generated code names through its messages namespace
        /// (`ParentMessages.ProxyIsolationRoot.ProxyChain`), with sends that are not prepared.
        case inherited
    }

    /// The protocol's name as declared (`FeedScrollDelegate`).
    let name: String
    /// The names of the types the protocol is nested in, outermost first.
    let outerTypes: [String]
    /// The protocol's access modifier followed by a space (`public `), or nothing.
    let access: String
    var isolation: Isolation
    /// The `@DelegateProxy` protocols this one refines, as written (`ProxyFixture.ScrollDelegate`).
    let parents: [String]
    /// The class of `where Self: Base`, which the proxy subclasses.
    let baseClass: String?
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

    /// The static responses of every requirement, the parents' included: what a child protocol's
    /// responses merge (`uiScrollViewDelegateResponses`).
    var responsesName: String { Self.responsesName(of: name) }

    init(_ declaration: ProtocolDeclSyntax, outerTypes: [String]) {
        name = declaration.name.text
        self.outerTypes = outerTypes
        // `private` at file scope is `fileprivate`: the generated declarations must see each other.
        let declaredAccess = Self.access(of: declaration.modifiers)
        access = declaredAccess == "private " ? "fileprivate " : declaredAccess
        var diagnostics: [Diagnostic] = []

        // `AnyObject & Sendable` counts as its two parts.
        let parents: [TypeSyntax] = (declaration.inheritanceClause?.inheritedTypes ?? []).flatMap { inherited in
            inherited.type.as(CompositionTypeSyntax.self)?.elements.map(\.type) ?? [inherited.type]
        }
        let classBound = ["AnyObject", "Swift.AnyObject", "class"]
        let sendable = ["Sendable", "Swift.Sendable"]
        let isClassBound = parents.contains { classBound.contains($0.trimmedDescription) }
        let refinesSendable = parents.contains { sendable.contains($0.trimmedDescription) }
        let refined = parents.filter { !(classBound + sendable).contains($0.trimmedDescription) }
        for parent in refined where Self.notProxied.contains(parent.trimmedDescription) {
            diagnostics.append(
                Diagnostic(
                    node: parent, message: ProxyDiagnostic.inheritsRequirements(parent: parent.trimmedDescription)))
        }
        self.parents = refined.map(\.trimmedDescription).filter { !Self.notProxied.contains($0) }
        baseClass =
            declaration.genericWhereClause?.requirements.lazy.compactMap { element in
                guard case .conformanceRequirement(let requirement) = element.requirement,
                    requirement.leftType.trimmedDescription == "Self",
                    !(classBound + sendable).contains(requirement.rightType.trimmedDescription)
                else { return nil }
                return requirement.rightType.trimmedDescription
            }.first
        // A protocol that refines another (a `@DelegateProxy` protocol, so class-bound) or whose
        // `Self` is a class is class-bound itself.
        if !isClassBound, refined.isEmpty, baseClass == nil {
            diagnostics.append(
                Diagnostic(node: declaration.name, message: ProxyDiagnostic.notClassBound(protocolName: name)))
        }
        let isMainActor = declaration.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            return ["MainActor", "_Concurrency.MainActor"].contains(attribute.attributeName.trimmedDescription)
        }
        isolation =
            isMainActor ? .mainActor : refinesSendable ? .sendable : self.parents.isEmpty ? .nonisolated : .inherited

        var requirements: [Requirement] = []
        var signatures: Set<String> = []
        for member in declaration.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self) else {
                diagnostics.append(Self.unsupported(member.decl))
                continue
            }
            let requirement = Requirement(function, inMainActorProtocol: isMainActor)
            // Overloads by parameter types get typed message names; by return type alone, no
            // typed name tells them apart for a caller either.
            if requirement.diagnostics.isEmpty, !signatures.insert(requirement.typedSelector).inserted {
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

    /// Protocols that no `@DelegateProxy` protocol can refine: the standard library's, which
    /// carry no `@DelegateProxy` (and most are not class-bound).
    static let notProxied: Set<String> = [
        "Equatable", "Hashable", "Comparable", "Identifiable", "CustomStringConvertible",
        "CustomDebugStringConvertible", "Codable", "Encodable", "Decodable", "Error", "Actor", "AnyActor",
        "NSObjectProtocol", "BitwiseCopyable", "Copyable", "Escapable",
    ]

    /// The name of the static responses of a `@DelegateProxy` protocol named `name` (possibly
    /// module-qualified): `feedScrollDelegateResponses`.
    static func responsesName(of name: String) -> String {
        lowercasedFirstWord(String(name.split(separator: ".").last ?? Substring(name))) + "Responses"
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
