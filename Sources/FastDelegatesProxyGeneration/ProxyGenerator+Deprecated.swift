#if Macros
/// Deprecated requirements. The proxy's methods copy the requirement's `@available`, so they
/// call nothing deprecated from a non-deprecated context; the responder's handlers must call the
/// conformer's deprecated method, though. They are built in a deprecated static method (where a
/// deprecated call warns about nothing) that witnesses a non-deprecated requirement of a
/// generated protocol, and the responses call it through that requirement: a call through a
/// protocol requirement is not a use of the deprecated witness, so no warning remains.
extension ProxyGenerator {
    private var deprecated: [Requirement] { proto.requirements.filter(\.isDeprecated) }

    /// `SendableResponses<Target>` or `Responses<Target>`.
    private var targetResponses: String {
        responsesType(of: "Target")
    }

    /// In the messages namespace, for a protocol with deprecated requirements: the protocol
    /// whose requirement adds their handlers, its deprecated witness, and the generic call
    /// through the requirement.
    var deprecatedCalls: String {
        guard !deprecated.isEmpty else { return "" }
        let isolation = isMainActor ? "@MainActor " : ""
        let signature =
            "static func adding<Target: \(proto.qualifiedName)>(to responses: \(targetResponses)) -> \(targetResponses)"
        return """


                /// Adds the handlers of the deprecated requirements of ``\(proto.name)`` (see `DeprecatedHandlers`).
                \(access)protocol DeprecatedCalls {
                    \(isolation)\(signature)
                }

                /// The handlers that call the deprecated requirements: deprecated themselves, and called only
                /// through ``DeprecatedCalls``, so that no warning reaches a user of the protocol.
                \(access)enum DeprecatedHandlers: DeprecatedCalls {
                    @available(*, deprecated, message: "called through DeprecatedCalls only")
                    \(isolation)\(access)\(signature) {
                        responses\(deprecated.map(handler).joined())
                    }
                }

                /// `Calls.adding(to:)`, through the protocol requirement.
                \(isolation)\(access)static func addingDeprecated<Calls: DeprecatedCalls, Target: \(proto.qualifiedName)>(
                    _ calls: Calls.Type, to responses: \(targetResponses)
                ) -> \(targetResponses) {
                    Calls.adding(to: responses)
                }
            """
    }

    /// `responses` with the handlers of the deprecated requirements added.
    func addingDeprecated(_ responses: String) -> String {
        guard !deprecated.isEmpty else { return responses }
        let messages = proto.qualifiedMessagesName
        return "\(messages).addingDeprecated(\(messages).DeprecatedHandlers.self, to: \(responses))"
    }
}
#endif
