#if Macros
import SwiftDiagnostics

/// Why `@DelegateProxy` cannot forward a declaration, with what to do instead.
enum ProxyDiagnostic: DiagnosticMessage {
    case notAProtocol
    case notClassBound(protocolName: String)
    case inheritsRequirements(parent: String)
    case associatedType
    case property
    case `subscript`
    case initializer
    case staticRequirement
    case nonisolatedInMainActorProtocol
    case unsupportedMember
    case generic
    case rethrowing
    case effectsWithCompletionHandler
    case sendingParameter(String)
    case variadicParameter(String)
    case someParameter(String)
    case nonEscapingClosure(String)
    case usesSelf
    case overloadByTypeOnly(selector: String)
    case missingDefault(method: String, returnType: String)
    case defaultOnVoid
    case combiningOnVoid
    case defaultAndCombining
    case defaultParameterNotFound(name: String, parameters: [String])
    case completionWithoutDefault(method: String, arguments: [String])
    case completionHandlerMarkerMisplaced
    case defaultExpressionNotLiteral
    case twoSuperclasses(String, String)
    case concurrentNotNonisolated
    case defaultExpressionInvalid(String)

    var message: String {
        switch self {
        case .notAProtocol:
            "@DelegateProxy applies to a protocol: declare the delegate protocol and put the attribute on it"
        case .notClassBound(let name):
            "@DelegateProxy needs a class-bound protocol, as a host's 'weak var delegate' does: "
                + "declare 'protocol \(name): AnyObject'"
        case .inheritsRequirements(let parent):
            "@DelegateProxy forwards the requirements of parents that are @DelegateProxy protocols themselves, "
                + "and '\(parent)' cannot be: inherit only from AnyObject, Sendable and @DelegateProxy protocols"
        case .associatedType:
            "@DelegateProxy cannot forward a protocol with an associated type: one proxy must serve every conformer; "
                + "use a concrete type (or 'any P') instead"
        case .property:
            "@DelegateProxy forwards methods only: make this property a method "
                + "(for example 'func value() -> T'), or move it to another protocol"
        case .subscript:
            "@DelegateProxy forwards methods only: make this subscript a method, or move it to another protocol"
        case .initializer:
            "@DelegateProxy cannot forward an initializer: a listener already exists when it joins"
        case .staticRequirement:
            "@DelegateProxy cannot forward a static requirement: listeners are instances; make it an instance "
                + "method, or move it to another protocol"
        case .nonisolatedInMainActorProtocol:
            "@DelegateProxy cannot forward a nonisolated requirement of a @MainActor protocol: its proxy "
                + "sends on the main actor; remove 'nonisolated', or move it to a nonisolated protocol"
        case .unsupportedMember:
            "@DelegateProxy cannot forward this declaration: a delegate protocol for a proxy holds methods only"
        case .generic:
            "@DelegateProxy cannot forward a generic method: a message has one input and one output type; "
                + "use concrete types (or 'any P')"
        case .rethrowing:
            "@DelegateProxy cannot forward a 'rethrows' method: whether it throws depends on a closure "
                + "argument the proxy only passes on; declare it 'throws'"
        case .effectsWithCompletionHandler:
            "@DelegateProxy cannot forward an 'async' or throwing method that also takes a completion "
                + "handler: the proxy would answer its caller twice (through the handler and on return); "
                + "declare the completion-handler form synchronous, and the 'async' form, which returns "
                + "the answer, as another requirement"
        case .sendingParameter(let name):
            "@DelegateProxy cannot forward the 'sending' parameter '\(name)': one value cannot go to several "
                + "listeners; remove 'sending' (or pass a copy the listeners may share)"
        case .variadicParameter(let name):
            "@DelegateProxy cannot forward the variadic parameter '\(name)': take an array instead"
        case .someParameter(let name):
            "@DelegateProxy cannot forward the opaque parameter '\(name)': a message has one input type; "
                + "use 'any' instead of 'some'"
        case .nonEscapingClosure(let name):
            "@DelegateProxy cannot forward the non-escaping closure '\(name)': the proxy passes it on as a "
                + "message input; mark it '@escaping'"
        case .usesSelf:
            "@DelegateProxy cannot forward a method whose signature uses 'Self': the proxy answers for every conformer"
        case .overloadByTypeOnly(let selector):
            "@DelegateProxy needs distinct requirements: another requirement is also '\(selector)' with the "
                + "same parameter types; give one of them other argument labels or parameter types"
        case .missingDefault(let method, let returnType):
            "'\(method)' returns '\(returnType)', which the proxy must answer when no listener responds: "
                + "add @DelegateDefault(value), or @DelegateCombining(combination), or return an Optional "
                + "(an Optional spelled through a type alias: add @DelegateDefault(nil))"
        case .defaultOnVoid:
            "@DelegateDefault has no effect on a method that returns nothing and takes no completion handler: remove it"
        case .combiningOnVoid:
            "@DelegateCombining has no effect on a method that returns nothing: remove it"
        case .defaultAndCombining:
            "@DelegateDefault and @DelegateCombining both say what to answer: keep one "
                + "(a combination's initial value is its answer when no listener responds)"
        case .defaultParameterNotFound(let name, let parameters):
            "@DelegateDefault(parameter:) names '\(name)', which is not a parameter of this method"
                + (parameters.isEmpty ? "" : " (its parameters: \(parameters.joined(separator: ", ")))")
        case .completionWithoutDefault(let method, let arguments):
            "'\(method)' takes a completion handler that the proxy must call with '(\(arguments.joined(separator: ", ")))' "
                + "when no listener implements it: add @DelegateDefault(value) (a tuple for several arguments), "
                + "or @DelegateDefault(parameter: \"name\") to pass one of the method's parameters"
        case .concurrentNotNonisolated:
            "@DelegateProxy(concurrent: true) is for a protocol that is neither @MainActor nor Sendable, nor refines "
                + "@DelegateProxy protocols: a Sendable protocol's proxy is concurrent already, and a @MainActor one's "
                + "runs on the main actor; remove 'concurrent: true'"
        case .twoSuperclasses(let superclass, let base):
            "@DelegateProxy(superclass: \(superclass).self) and 'where Self: \(base)' both name the proxy's superclass: "
                + "keep one"
        case .defaultExpressionNotLiteral:
            "@DelegateDefault(expression:) takes the expression as a string literal, type-checked in the method: "
                + "write @DelegateDefault(expression: \"String(name.prefix(1))\")"
        case .defaultExpressionInvalid(let text):
            "@DelegateDefault(expression:) holds '\(text)', which is not one Swift expression: write an expression of "
                + "the method's parameters, such as \"String(name.prefix(1))\""
        case .completionHandlerMarkerMisplaced:
            "@DelegateCompletionHandler marks the last parameter as the completion handler, but it is not an "
                + "'@escaping' closure that returns nothing: mark it '@escaping', or remove @DelegateCompletionHandler"
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "FastDelegatesMacros", id: "\(self)".prefix { $0 != "(" }.description)
    }

    var severity: DiagnosticSeverity { .error }
}
#endif
