#if Macros
import SwiftDiagnostics
import SwiftSyntax

/// One method requirement of a proxied protocol, as its message and its forwarding need it.
struct Requirement {
    struct Parameter {
        /// The argument label, nil for `_`.
        let label: String?
        /// A name the proxy's method body can use.
        let name: String
        /// The type as declared, for the proxy's signature.
        let declaredType: String
        /// The type as a message input carries it (no `@escaping`, no specifier, `T!` as `T?`,
        /// an `inout` value boxed).
        let valueType: String
        /// How the value is passed (`borrowing`, `inout`…).
        var convention: ParameterConvention = .plain
    }

    /// The method's name as written, backticks included.
    let name: String
    /// The method's name without backticks.
    let baseName: String
    let parameters: [Parameter]
    /// The declared return type, nil for a method that returns nothing.
    let returnType: String?
    let returnsOptional: Bool
    /// The `@DelegateDefault` argument, as written (nil for a computed one).
    let defaultValue: String?
    /// The expression of `@DelegateDefault(expression:)`, and its attribute (where its errors
    /// point: the generator wraps the expression in a `#sourceLocation` of it).
    let computedDefault: (expression: String, attribute: AttributeSyntax)?
    /// The `@DelegateCombining` argument, as written.
    let combination: String?
    /// The completion handler the proxy hands to one listener (see `CompletionHandler`).
    let completion: CompletionHandler?
    /// The requirement's other attributes (`@discardableResult`, `@available`), for the proxy.
    let attributes: [String]
    /// Whether the requirement is `async`: its message answers a `FastDelegates.AsyncCall`,
    /// which the proxy awaits (`FastDelegates.AsyncRequirement`).
    let isAsync: Bool
    /// The error type of a throwing requirement (`any Error` for a plain `throws`), or nil.
    let failureType: String?
    /// The effects as declared (` async throws`), for the proxy's and the defaults' signatures.
    let effects: String
    let diagnostics: [Diagnostic]
    /// The requirement's static member in the messages namespace (set once all are known).
    var memberName = ""

    /// Whether an `@available` attribute deprecates the requirement.
    var isDeprecated: Bool {
        attributes.contains { $0.hasPrefix("@available") && $0.contains("deprecated") }
    }

    /// `tableView(_:didSelectRowAt:)`.
    var selector: String { selectorText(baseName, parameters) }

    /// What the message carries: `Void`, the one parameter's type, or a tuple of them.
    var inputType: String {
        switch parameters.count {
        case 0: "Void"
        case 1: parameters[0].valueType
        default: "(" + parameters.map(\.valueType).joined(separator: ", ") + ")"
        }
    }

    /// What the requirement answers: the return type, `T!` spelled `T?`.
    var answerType: String { outputSpelling ?? "Void" }

    /// What the message answers: the answer, or for an `async` requirement the call that the
    /// proxy awaits for it, or for a synchronous throwing one the answer or the error.
    var outputType: String {
        if isAsync { return "FastDelegates.AsyncCall<\(answerType), \(failureType ?? "Never")>" }
        if let failureType { return "Swift.Result<\(answerType), \(failureType)>" }
        return answerType
    }
    /// The return type as a generic argument can spell it (nil for none).
    let outputSpelling: String?
    /// The name of the message (`FeedDelegate.scroll(to:)`), with the parameter types where
    /// another requirement has the same selector (set once all are known).
    var messageName = ""

    init(_ function: FunctionDeclSyntax, inMainActorProtocol: Bool) {
        name = function.name.text
        baseName = function.name.identifier?.name ?? function.name.text
        var diagnostics: [Diagnostic] = []
        func reject(_ node: some SyntaxProtocol, _ message: ProxyDiagnostic) {
            diagnostics.append(Diagnostic(node: node, message: message))
        }

        if let modifier = function.modifiers.first(where: { ["static", "class"].contains($0.name.text) }) {
            reject(modifier, .staticRequirement)
        }
        if inMainActorProtocol, let modifier = function.modifiers.first(where: { $0.name.text == "nonisolated" }) {
            reject(modifier, .nonisolatedInMainActorProtocol)
        }
        if let generics = function.genericParameterClause {
            reject(generics, .generic)
        } else if let clause = function.genericWhereClause {
            reject(clause, .generic)
        }
        let effectSpecifiers = function.signature.effectSpecifiers
        isAsync = effectSpecifiers?.asyncSpecifier != nil
        effects = effectSpecifiers.map { " " + $0.trimmedDescription } ?? ""
        let throwsClause = effectSpecifiers?.throwsClause
        failureType = throwsClause.map { $0.type?.trimmedDescription ?? "any Error" }
        if let throwsClause, throwsClause.throwsSpecifier.tokenKind == .keyword(.rethrows) {
            reject(throwsClause, .rethrowing)
        }

        var parameters: [Parameter] = []
        for (index, parameter) in function.signature.parameterClause.parameters.enumerated() {
            let first = parameter.firstName.text
            let second = parameter.secondName?.text
            let declaredName = second ?? first
            let displayName = declaredName == "_" ? first : declaredName
            if parameter.ellipsis != nil { reject(parameter, .variadicParameter(displayName)) }
            let type = parameter.type
            if Self.mentions(.some, in: type) { reject(type, .someParameter(displayName)) }
            let shape = ParameterShape(type)
            if shape.isSending { reject(type, .sendingParameter(displayName)) }
            if Self.isNonEscapingClosure(type) { reject(type, .nonEscapingClosure(displayName)) }
            parameters.append(
                Parameter(
                    label: first == "_" ? nil : first,
                    name: declaredName == "_" ? "argument\(index)" : declaredName,
                    declaredType: type.trimmedDescription,
                    valueType: shape.inputType,
                    convention: shape.convention))
        }
        self.parameters = parameters
        let completion = CompletionHandler(
            function, parameterName: { parameters[$0].name }, reject: { reject(function.name, $0) })
        self.completion = completion
        if completion != nil, let effectSpecifiers {
            reject(effectSpecifiers, .effectsWithCompletionHandler)
        }

        let returned = function.signature.returnClause?.type
        returnType = returned.flatMap {
            ["Void", "Swift.Void", "()"].contains($0.trimmedDescription) ? nil : $0.trimmedDescription
        }
        outputSpelling = returnType == nil ? nil : returned.map(ParameterShape.optionalSpelling)
        returnsOptional = returned.map(Self.isOptional) ?? false
        if Self.mentions(.Self, in: function.signature) { reject(function.signature, .usesSelf) }

        var defaultValue: String?
        var computedDefault: (expression: String, attribute: AttributeSyntax)?
        var rejectedDefault = false
        var combination: String?
        var attributes: [String] = []
        for element in function.attributes {
            guard case .attribute(let attribute) = element else {
                attributes.append(element.trimmedDescription)
                continue
            }
            let argument = attribute.arguments.flatMap {
                $0.as(LabeledExprListSyntax.self)?.first?.expression.trimmedDescription
            }
            switch attribute.attributeName.trimmedDescription {
            case "DelegateDefault", "FastDelegates.DelegateDefault":
                defaultValue = Self.defaultValue(of: attribute, parameters: parameters) { reject(attribute, $0) }
                computedDefault = Self.computedDefault(of: attribute) { problem in
                    reject(attribute, problem)
                    rejectedDefault = true // the default is there, only wrong: no second error
                }.map { ($0, attribute) }
                if returnType == nil, completion == nil { reject(attribute, .defaultOnVoid) }
            case "DelegateCompletionHandler", "FastDelegates.DelegateCompletionHandler":
                break
            case "DelegateCombining", "FastDelegates.DelegateCombining":
                combination = argument
                if returnType == nil { reject(attribute, .combiningOnVoid) }
            default:
                attributes.append(attribute.trimmedDescription)
            }
        }
        let hasDefault = defaultValue != nil || computedDefault != nil || rejectedDefault
        if hasDefault, combination != nil {
            reject(function.name, .defaultAndCombining)
        }
        if let completion, !hasDefault, !completion.completesWithoutDefault {
            reject(
                function.name,
                .completionWithoutDefault(
                    method: selectorText(baseName, parameters), arguments: completion.argumentTypes ?? []))
        }
        if let returnType, !returnsOptional, !hasDefault, combination == nil {
            reject(function.name, .missingDefault(method: selectorText(baseName, parameters), returnType: returnType))
        }
        self.defaultValue = defaultValue
        self.computedDefault = computedDefault
        self.combination = combination
        self.attributes = attributes
        self.diagnostics = diagnostics
    }

    /// Names each requirement's message after its method and labels (`tableViewDidSelectRowAt`),
    /// with the labels spelled out (`tableView__didSelectRowAt`) where two would share a name, and
    /// the parameter types that tell apart overloads that differ only in types
    /// (`webViewDecidePolicyForDecisionHandler_WKNavigationAction`): their message names then
    /// carry every parameter type (`webView(_: WKWebView, decidePolicyFor: WKNavigationAction, …)`).
    static func assigningMemberNames(_ requirements: [Requirement]) -> [Requirement] {
        let selectorCounts = Dictionary(requirements.map { ($0.selector, 1) }, uniquingKeysWith: +)
        let overloaded = requirements.map { selectorCounts[$0.selector, default: 0] > 1 }
        func readable(_ requirement: Requirement) -> String {
            requirement.baseName
                + requirement.parameters.compactMap(\.label).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }
        func spelledOut(_ requirement: Requirement) -> String {
            requirement.baseName + requirement.parameters.map { "_" + ($0.label ?? "") }.joined()
        }
        let readableCounts = Dictionary(requirements.map { (readable($0), 1) }, uniquingKeysWith: +)
        var taken: Set<String> = []
        return requirements.enumerated().map { index, requirement in
            var named = requirement
            var candidate = readableCounts[readable(requirement)] == 1 ? readable(requirement) : spelledOut(requirement)
            named.messageName = requirement.selector
            if overloaded[index] {
                named.messageName = requirement.typedSelector
                let siblings = requirements.filter { $0.selector == requirement.selector }
                candidate = readable(requirement) + "_" + requirement.distinguishingTypes(among: siblings)
            }
            if taken.contains(candidate) {
                var suffix = 2
                while taken.contains("\(candidate)_\(suffix)") { suffix += 1 }
                candidate = "\(candidate)_\(suffix)"
            }
            taken.insert(candidate)
            named.memberName =
                requirement.name.hasPrefix("`") && candidate == requirement.baseName ? "`\(candidate)`" : candidate
            return named
        }
    }

    /// `webView(_: WKWebView, decidePolicyFor: WKNavigationAction)`: the selector with the types.
    var typedSelector: String {
        baseName + "(" + parameters.map { ($0.label ?? "_") + ": " + $0.valueType }.joined(separator: ", ") + ")"
    }

    /// The parameter types (as identifier characters) where this requirement differs from a
    /// sibling with the same selector, joined by `_`; the return type if only that differs.
    func distinguishingTypes(among siblings: [Requirement]) -> String {
        let differing = parameters.indices.filter { index in
            siblings.contains { $0.parameters[index].valueType != parameters[index].valueType }
        }
        let types = differing.isEmpty ? [answerType] : differing.map { parameters[$0].valueType }
        return types.map { type in String(type.map { $0.isLetter || $0.isNumber ? $0 : "_" }) }.joined(separator: "_")
    }

    private static func mentions(_ kind: Keyword, in node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(kind) }
    }

    private static func isNonEscapingClosure(_ type: TypeSyntax) -> Bool {
        if type.is(FunctionTypeSyntax.self) { return true }
        guard let attributed = type.as(AttributedTypeSyntax.self) else { return false }
        let escapes = attributed.attributes.contains {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "escaping"
        }
        return !escapes && isNonEscapingClosure(attributed.baseType)
    }

    private static func isOptional(_ type: TypeSyntax) -> Bool {
        type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
            || type.trimmedDescription.hasPrefix("Optional<") || type.trimmedDescription.hasPrefix("Swift.Optional<")
    }

}

private func selectorText(_ baseName: String, _ parameters: [Requirement.Parameter]) -> String {
    baseName + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
}
#endif
