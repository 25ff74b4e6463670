/// Standalone delegates chosen per send by a runtime key, with a default.
///
/// The Swift form of a controller that forwards each delegate message to the helper object of
/// the selected search scope, falling back to a default helper, and answering `0` when the
/// chosen helper does not implement a method:
///
/// ```swift
/// enum SearchScope { case people, places }
/// @MainActor final class SearchController {
///     let searchBar = SearchBar()
///     let router: DelegateRouter<SearchScope>
///     init() {
///         router = DelegateRouter(key: { [unowned searchBar] in searchBar.scope })
///         router.route(.people, to: PeopleSource())
///         router.route(.places, to: PlacesSource())
///         router.setDefault(EmptySource())
///     }
///     func rows(in section: Int) -> Int { router.send(Table.numberOfRows, section, default: 0) }
/// }
/// ```
///
/// Semantics:
/// - The *active route* is the live target routed for the current key, else the default
///   target. Each send, and ``responds(to:)``, reads the current key afresh (the stored
///   ``key``, or the key closure).
/// - A send reaches the active route only. A message with an answer that the active route does
///   not answer returns `nil` or the caller's default; it does not fall back to the default
///   target.
/// - Routes and the default are held strongly unless added with ``Retention/weak``: standalone
///   delegates usually have no other owner.
///
/// Not thread-safe, and not `Sendable`: a router lives in its owner's isolation domain, and its
/// key closure and handlers, which may be any closure, run there.
public final class DelegateRouter<Key: Hashable>: MessageDispatching {
    @usableFromInline
    var routes: [Key: DelegateChain] = [:]
    @usableFromInline
    let fallback = DelegateChain()
    @usableFromInline
    var keyProvider: (() -> Key)?
    @usableFromInline
    var storedKey: Key

    @usableFromInline
    @exclusivity(unchecked) var observers: ObserverTable?

    /// A router whose current key is `key` until you set ``key``.
    public init(key: Key) {
        storedKey = key
    }

    /// A router that reads its current key from `key` on every send.
    public init(key: @escaping () -> Key) {
        storedKey = key()
        keyProvider = key
    }

    /// The current key. Setting it replaces a key closure given at init.
    public var key: Key {
        get { keyProvider?() ?? storedKey }
        set {
            keyProvider = nil
            storedKey = newValue
        }
    }

    // MARK: - Routes

    /// Routes sends made under `key` to `responder`, replacing any previous route for `key`.
    public func route(_ key: Key, to responder: AnyResponder, retention: Retention = .strong) {
        let chain = DelegateChain()
        chain.add(responder, retention: retention)
        // The replaced route is released once `routes` is no longer being mutated: a target it
        // held strongly may use the router in its deinit.
        let replaced = routes.updateValue(chain, forKey: key)
        withExtendedLifetime(replaced) {}
    }

    /// Routes sends made under `key` to `target`, answering its type's responses.
    public func route<Target: DelegateResponder>(_ key: Key, to target: Target, retention: Retention = .strong) {
        route(key, to: AnyResponder(target), retention: retention)
    }

    /// Routes sends made under `key` to `target`, answering `responses`.
    public func route<Target: AnyObject>(
        _ key: Key, to target: Target, retention: Retention = .strong, responses: Responses<Target>
    ) {
        route(key, to: AnyResponder(target, responses: responses), retention: retention)
    }

    /// As the overload taking ``Responses``, with `responses` in another form, such as
    /// a type's ``SendableResponses``.
    public func route<Target: AnyObject>(
        _ key: Key, to target: Target, retention: Retention = .strong, responses: some ResponseSet<Target>
    ) {
        route(key, to: AnyResponder(target, responses: responses), retention: retention)
    }

    /// Removes the route for `key`; sends under it go to the default from then on.
    /// - Returns: whether there was a route for `key`.
    @discardableResult
    public func removeRoute(for key: Key) -> Bool {
        let removed = routes.removeValue(forKey: key)
        return removed != nil
    }

    /// The live target routed for `key`, if any.
    public func target(for key: Key) -> AnyObject? {
        routes[key]?.targets.first
    }

    /// Makes `responder` the default target, for keys with no live route; `nil` clears it.
    public func setDefault(_ responder: AnyResponder?, retention: Retention = .strong) {
        fallback.removeAll()
        if let responder { fallback.add(responder, retention: retention) }
    }

    /// Makes `target` the default, answering its type's responses.
    public func setDefault<Target: DelegateResponder>(_ target: Target, retention: Retention = .strong) {
        setDefault(AnyResponder(target), retention: retention)
    }

    /// Makes `target` the default, answering `responses`.
    public func setDefault<Target: AnyObject>(
        _ target: Target, retention: Retention = .strong, responses: Responses<Target>
    ) {
        setDefault(AnyResponder(target, responses: responses), retention: retention)
    }

    /// As the overload taking ``Responses``, with `responses` in another form, such as
    /// a type's ``SendableResponses``.
    public func setDefault<Target: AnyObject>(
        _ target: Target, retention: Retention = .strong, responses: some ResponseSet<Target>
    ) {
        setDefault(AnyResponder(target, responses: responses), retention: retention)
    }

    /// Removes every route and the default: every send then reaches nobody, as on an empty
    /// ``DelegateChain`` (the membership vocabulary every dispatcher shares).
    public func removeAll() {
        // As in `route(_:to:retention:)`: the routes are released after the mutation.
        let removed = routes
        routes = [:]
        withExtendedLifetime(removed) {}
        fallback.removeAll()
    }

    /// Whether `target` is routed for some key or is the default.
    public func contains(_ target: AnyObject) -> Bool {
        fallback.contains(target) || routes.values.contains { $0.contains(target) }
    }

    /// Whether the router has no live route and no live default.
    public var isEmpty: Bool { fallback.isEmpty && routes.values.allSatisfy(\.isEmpty) }

    /// The default target, if it is set and alive.
    public var defaultTarget: AnyObject? { fallback.targets.first }

    /// The target a send would reach now: the route of the current key, else the default.
    public var activeTarget: AnyObject? { activeChain.targets.first }

    // MARK: - Dispatch

    /// The chain of the current key's live route, else the default's.
    @usableFromInline
    var activeChain: DelegateChain {
        if let chain = routes[key], !chain.isEmpty { return chain }
        return fallback
    }

    /// Hands `message` to the active route, passing its answer to `body`.
    @inlinable
    public func forEachAnswer<Input, Output>(
        to message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool
    ) -> Bool {
        observedWalk(message, input, body)
    }

    /// The active route's answers.
    @inlinable
    func walk<Input, Output>(_ message: Message<Input, Output>, _ input: Input, _ body: (Output) -> Bool) -> Bool {
        activeChain.forEachAnswer(to: message, input, body)
    }

    /// Whether the active route answers `message`.
    public func responds<Input, Output>(to message: Message<Input, Output>) -> Bool {
        activeChain.responds(to: message)
    }

    /// A stream of every send of `message` through this router, from now on, seen at `timing`
    /// (see ``InvocationObserving``).
    public func invocations<Input, Output, Element: Sendable>(
        of message: Message<Input, Output>, timing: InvocationTiming<Input, Output, Element>,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        ObserverTable.stream(of: message, timing: timing, in: &observers, bufferingPolicy: bufferingPolicy)
    }
}

@available(*, unavailable, message: "DelegateRouter is not thread-safe; confine it to one thread or actor")
extension DelegateRouter: Sendable {}

extension DelegateRouter: ObservedDispatcher, InvocationObserving {}
