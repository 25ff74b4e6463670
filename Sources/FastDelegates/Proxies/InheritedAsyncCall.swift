// How a protocol that inherits its isolation from the protocol it refines makes the calls of its
// own `async` requirements: through its root's messages namespace, whose kind says where the
// requirements run. For generated code.

extension MainActorProxyMessages {
    /// A call on the caller's isolation (the main actor's): ``AsyncCall/init(_:_:)``.
    public static func _asyncCall<Target: AnyObject, Output, Failure>(
        _ target: Target, _ body: nonisolated(nonsending) @escaping (Target) async throws(Failure) -> Output
    ) -> AsyncCall<Output, Failure> {
        AsyncCall(target, body)
    }
}

extension SendableProxyMessages {
    /// A call on the caller's isolation: ``AsyncCall/init(_:_:)``.
    public static func _asyncCall<Target: AnyObject, Output, Failure>(
        _ target: Target, _ body: nonisolated(nonsending) @escaping (Target) async throws(Failure) -> Output
    ) -> AsyncCall<Output, Failure> {
        AsyncCall(target, body)
    }
}

extension NonisolatedProxyMessages {
    /// A call on no actor, as a nonisolated requirement runs in default Swift 6 settings:
    /// ``AsyncCall/init(concurrent:_:)``.
    public static func _asyncCall<Target: AnyObject, Output, Failure>(
        _ target: Target, _ body: @escaping @concurrent (Target) async throws(Failure) -> Output
    ) -> AsyncCall<Output, Failure> {
        AsyncCall(concurrent: target, body)
    }
}
