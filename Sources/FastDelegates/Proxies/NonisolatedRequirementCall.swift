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
    public static func verify(_ caller: any Actor, _ requirements: (any Actor)?, _ requirement: StaticString) {
        guard let requirements, requirements === caller else {
            fatalError(
                "\(requirement) is a nonisolated async requirement, which runs on no actor: await it through its proxy's method, not through AsyncRequirement on an actor"
            )
        }
    }
}
