#if Macros
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

/// A requirement's completion handler: its last parameter, an `@escaping` closure that returns
/// nothing, named `completionHandler`, `decisionHandler` or `completion` (as its argument label
/// or its parameter name) or marked `@DelegateCompletionHandler`. The proxy hands it to exactly
/// one listener, the first that implements the requirement, and calls it itself, once, when none
/// does.
struct CompletionHandler {
    /// The names that make a last closure parameter a completion handler without the marker.
    static let conventionalNames: Set<String> = ["completionHandler", "decisionHandler", "completion"]

    /// The name the method body calls it by.
    let name: String
    /// The closure's parameter types, as written; nil when its type is spelled through a type
    /// alias, which the macro cannot see into (the proxy then completes it through
    /// `FastDelegates.CompletionDefault`, whose overloads count the arguments).
    let argumentTypes: [String]?
    /// Whether each of those is an Optional (then `nil` completes it without a default).
    let argumentsAreOptional: [Bool]

    /// The completion handler of `function`, or nil when it has none. Reports a
    /// `@DelegateCompletionHandler` marker on a method whose last parameter is not one.
    init?(_ function: FunctionDeclSyntax, parameterName: (Int) -> String, reject: (ProxyDiagnostic) -> Void) {
        let marked = function.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            return ["DelegateCompletionHandler", "FastDelegates.DelegateCompletionHandler"].contains(
                attribute.attributeName.trimmedDescription)
        }
        let parameters = function.signature.parameterClause.parameters
        guard let last = parameters.last, let closure = Self.escapingClosure(last.type) else {
            if marked { reject(.completionHandlerMarkerMisplaced) }
            return nil
        }
        let names = [last.firstName.text, last.secondName?.text].compactMap { $0 }
        guard marked || names.contains(where: Self.conventionalNames.contains) else { return nil }
        name = parameterName(parameters.count - 1)
        switch closure {
        case .spelled(let function):
            argumentTypes = function.parameters.map { $0.type.trimmedDescription }
            argumentsAreOptional = function.parameters.map { Self.isOptional($0.type) }
        case .aliased:
            argumentTypes = nil
            argumentsAreOptional = []
        case .returnsValue:
            if marked { reject(.completionHandlerMarkerMisplaced) }
            return nil
        }
    }

    /// Whether the proxy can complete it with no `@DelegateDefault`: no arguments, or only
    /// Optional ones (`nil`); for a type alias, the compiler says (`FastDelegates.CompletionDefault`).
    var completesWithoutDefault: Bool { !argumentsAreOptional.contains(false) }

    /// The statements that call it once with `defaultValue` (an expression of the closure's
    /// argument, or a tuple of its arguments), or with `nil`s when there is none.
    func completionStatements(defaultValue: String?) -> [String] {
        guard let argumentTypes else {
            return ["FastDelegates.CompletionDefault.complete(\(name)\(defaultValue.map { ", with: \($0)" } ?? ""))"]
        }
        guard let defaultValue, !argumentTypes.isEmpty else {
            return ["\(name)(\(argumentTypes.map { _ in "nil" }.joined(separator: ", ")))"]
        }
        if argumentTypes.count == 1 { return ["\(name)(\(defaultValue))"] }
        let elements = argumentTypes.indices.map { "value.\($0)" }.joined(separator: ", ")
        return [
            "let value: (\(argumentTypes.joined(separator: ", "))) = \(defaultValue)",
            "\(name)(\(elements))",
        ]
    }

    /// What an `@escaping` parameter's type says of the closure.
    private enum EscapingClosure {
        /// A function type that returns nothing, spelled out.
        case spelled(FunctionTypeSyntax)
        /// A name (a type alias), whose function type the macro cannot see.
        case aliased
        /// A function type that returns a value: no completion handler.
        case returnsValue
    }

    /// The closure of an `@escaping` parameter, or nil for a parameter that is not `@escaping`.
    private static func escapingClosure(_ type: TypeSyntax) -> EscapingClosure? {
        guard let attributed = type.as(AttributedTypeSyntax.self),
            attributed.attributes.contains(where: {
                $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "escaping"
            })
        else { return nil }
        var base = attributed.baseType
        while let inner = base.as(AttributedTypeSyntax.self) { base = inner.baseType }
        guard let function = base.as(FunctionTypeSyntax.self) else { return .aliased }
        return ["Void", "Swift.Void", "()"].contains(function.returnClause.type.trimmedDescription)
            ? .spelled(function) : .returnsValue
    }

    private static func isOptional(_ type: TypeSyntax) -> Bool {
        type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
            || type.trimmedDescription.hasPrefix("Optional<") || type.trimmedDescription.hasPrefix("Swift.Optional<")
    }
}

extension Requirement {
    /// The `@DelegateDefault` argument: the value as written, or for `parameter: "name"` the
    /// name of that parameter in the method body; reports a name that is no parameter's.
    static func defaultValue(
        of attribute: AttributeSyntax, parameters: [Parameter], reject: (ProxyDiagnostic) -> Void
    ) -> String? {
        guard let argument = attribute.arguments?.as(LabeledExprListSyntax.self)?.first else { return nil }
        if argument.label?.text == "expression" { return nil } // `computedDefault`
        guard argument.label?.text == "parameter" else { return argument.expression.trimmedDescription }
        let written =
            argument.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
            ?? argument.expression.trimmedDescription
        if let parameter = parameters.first(where: { $0.name == written || $0.label == written }) {
            return parameter.name
        }
        reject(.defaultParameterNotFound(name: written, parameters: parameters.map(\.name)))
        return nil
    }

    /// The expression of `@DelegateDefault(expression: "…")`, a string literal that must hold one
    /// Swift expression, or nil for another form; reports anything else.
    static func computedDefault(of attribute: AttributeSyntax, reject: (ProxyDiagnostic) -> Void) -> String? {
        guard let argument = attribute.arguments?.as(LabeledExprListSyntax.self)?.first,
            argument.label?.text == "expression"
        else { return nil }
        guard let text = argument.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue else {
            reject(.defaultExpressionNotLiteral)
            return nil
        }
        let parsed = ExprSyntax("\(raw: text)")
        guard !parsed.hasError, text.contains(where: { !$0.isWhitespace }) else {
            reject(.defaultExpressionInvalid(text))
            return nil
        }
        return parsed.trimmedDescription
    }
}
#endif
