#if Macros
import SwiftSyntax

/// How a parameter is passed, as its forwarding needs it: `borrowing` and `consuming` values are
/// copied into the message, an `inout` value travels in a box that every listener writes through.
enum ParameterConvention: Equatable {
    case plain
    /// `borrowing` or `consuming`: the message carries a copy (`copy x`).
    case ownership
    /// `inout`: the message carries a `FastDelegates.InoutArgument`, whose last value returns to
    /// the caller.
    case `inout`
}

/// A parameter's declared type, read for its message: its convention and the type a message
/// input carries (no specifier, no `@escaping`/`@autoclosure`, `T!` as `T?`).
struct ParameterShape {
    let convention: ParameterConvention
    /// The value's type (`WKNavigation?` for `WKNavigation!`, `Double` for `inout Double`).
    let valueType: String
    /// Whether the parameter is `sending`, which a proxy cannot forward.
    let isSending: Bool

    /// The type the message input carries for this parameter.
    var inputType: String {
        convention == .inout ? "FastDelegates.InoutArgument<\(valueType)>" : valueType
    }

    init(_ type: TypeSyntax) {
        var convention = ParameterConvention.plain
        var isSending = false
        var bare = type
        if let attributed = type.as(AttributedTypeSyntax.self) {
            for token in attributed.specifiers.tokens(viewMode: .sourceAccurate) {
                switch token.tokenKind {
                case .keyword(.inout): convention = .inout
                case .keyword(.borrowing), .keyword(.consuming), .keyword(.__shared), .keyword(.__owned):
                    convention = .ownership
                case .keyword(.sending): isSending = true
                default: break
                }
            }
            let kept = attributed.attributes.filter { element in
                let name = element.as(AttributeSyntax.self)?.attributeName.trimmedDescription
                return name != "escaping" && name != "autoclosure"
            }
            bare =
                kept.isEmpty
                ? attributed.baseType : TypeSyntax(attributed.with(\.specifiers, []).with(\.attributes, kept))
        }
        self.convention = convention
        self.isSending = isSending
        valueType = Self.optionalSpelling(of: bare)
    }

    /// `T!` as `T?` (a generic argument cannot be implicitly unwrapped); other types as written.
    static func optionalSpelling(of type: TypeSyntax) -> String {
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return unwrapped.wrappedType.trimmedDescription + "?"
        }
        return type.trimmedDescription
    }
}
#endif
