/// The check that the handler of an `async` requirement of a nonisolated `@DelegateProxy`
/// protocol makes before it calls its listener. For generated code.
///
/// In default Swift 6 settings such a requirement runs on no actor, and so do the proxy's method
/// that awaits the listeners and the listeners' own methods: the host sent the proxy, and with it
/// its listeners, to the task that awaits it. Awaited on an actor instead, through
/// ``AsyncRequirement`` directly, the call would hand a listener that the actor holds to code
/// running off it: the check stops that with a clear error. In a module with
/// `NonisolatedNonsendingByDefault`, the requirements run on their caller's isolation, and any
/// caller passes.
public enum NonisolatedRequirementCall {
    /// Stops the program, naming `requirement`, when `caller` (the isolation the call is awaited
    /// on) is not `requirements` (the isolation the requirement's module gives a nonisolated
    /// `async` function called from there).
    /// The listener and the input of a call that ``verify(_:_:_:)`` let through, handed on to the
    /// listener's method: the stored closure's parameters, which the compiler keeps in the
    /// caller's region, though the call and the method run in one region, the awaiting task's.
    public struct Arguments<Value>: @unchecked Sendable {
        // Sound: made and read only inside the generated call of one requirement, after `verify`
        // passed: the call then runs on no actor (default settings) or on the caller's, and so
        // does the listener's method it passes these to (see the type's documentation).
        /// The listener, or the listener and the input.
        public let value: Value

        /// Wraps `value` for the call.
        public init(_ value: Value) { self.value = value }
    }

    public static func verify(_ caller: any Actor, _ requirements: (any Actor)?, _ requirement: StaticString) {
        guard let requirements, requirements === caller else {
            fatalError(
                "\(requirement) is a nonisolated async requirement, which runs on no actor: await it through its proxy's method, not through AsyncRequirement on an actor"
            )
        }
    }
}

extension MainActorProxyMessages {
    /// Where the `async` requirements of a `@MainActor` `@DelegateProxy` protocol run: on the main
    /// actor. What the handlers of a refining protocol that inherits that isolation check their
    /// caller against (``NonisolatedRequirementCall``). For generated code.
    @MainActor public static func _requirementIsolation() async -> (any Actor)? { #isolation }
}

extension SendableProxyMessages {
    /// Where the `async` requirements of a `Sendable` `@DelegateProxy` protocol run: on their
    /// caller's isolation, whatever it is, so a refining protocol's handlers accept any caller.
    /// For generated code.
    nonisolated(nonsending) public static func _requirementIsolation() async -> (any Actor)? { #isolation }
}
