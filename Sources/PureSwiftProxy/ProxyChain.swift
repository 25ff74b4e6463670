/// A delegate proxy written in plain Swift, the way a careful author would write one without a
/// C core: a `[String: [Entry]]` table keyed by selector name, each entry holding a weak (or
/// strong) box and a closure.
///
/// It mirrors `FastDelegates.DelegateChain` so it can serve both as a benchmark variant and as a
/// reference model in differential tests:
///
/// ```swift
/// let tick = ProxyMessage<Int, Void>("scrollViewDidScroll:")
/// let chain = ProxyChain(mode: .nonBreaking)
/// chain.add(target) { $0.on(tick) { me, v in me.sum += v } }   // weak by default
/// chain.send(tick, 5)                                           // every responder, in order
/// ```
///
/// Semantics (the same as `DelegateChain`):
/// - Targets are ordered by registration; ``insert(_:at:retention:_:)`` places one anywhere.
///   A target added twice is one target (it keeps its place; handlers are merged, new ones win).
/// - Targets are held weakly unless added with ``ProxyRetention/strong``; a dead target is
///   skipped and its entries are dropped at the next mutation.
/// - A void message reaches every live responder (``Mode/nonBreaking``) or only the first
///   (``Mode/breaking``). A message with an answer returns the first live responder's answer,
///   or `nil`.
/// - Reentrancy: a removal takes effect at once, even inside the running dispatch; an addition
///   takes effect from the next dispatch (a dispatch iterates a snapshot of the entries).
///
/// Not thread-safe: confine a chain to one thread or actor.
public final class ProxyChain {
    /// Whether a void message stops at its first responder.
    public enum Mode: Sendable, Hashable {
        /// A void message reaches every live responder, in order.
        case nonBreaking
        /// A void message reaches only the first live responder.
        case breaking
    }

    /// This chain's dispatch mode for void messages.
    public let mode: Mode

    /// Registrations in dispatch order.
    private var registrations: [Registration] = []
    /// Registration of each live target, by identity.
    private var byIdentity: [ObjectIdentifier: Registration] = [:]
    /// Selector name → the responders to that message, in dispatch order.
    private var table: [String: [Entry]] = [:]

    /// An empty chain.
    public init(mode: Mode = .nonBreaking) {
        self.mode = mode
    }

    // MARK: - Mutation

    /// Adds `target` at the end (or, if already present, merges `build`'s handlers into its own
    /// and sets its retention), answering the messages `build` declares.
    public func add<Target: AnyObject>(
        _ target: Target, retention: ProxyRetention = .weak,
        _ build: (ProxyResponses<Target>) -> ProxyResponses<Target>
    ) {
        register(target, retention: retention, responses: build(ProxyResponses()), at: nil)
    }

    /// Adds `target` at the end, answering `responses`.
    public func add<Target: AnyObject>(
        _ target: Target, retention: ProxyRetention = .weak, responses: ProxyResponses<Target>
    ) {
        register(target, retention: retention, responses: responses, at: nil)
    }

    /// Inserts `target` so that it becomes the live target at `index`; a target already in the
    /// chain moves there.
    /// - Precondition: `0 <= index <= ` the number of other live targets.
    public func insert<Target: AnyObject>(
        _ target: Target, at index: Int, retention: ProxyRetention = .weak,
        _ build: (ProxyResponses<Target>) -> ProxyResponses<Target>
    ) {
        register(target, retention: retention, responses: build(ProxyResponses()), at: index)
    }

    /// Removes `target`; it receives nothing more, even from a dispatch already running.
    /// - Returns: whether `target` was in the chain.
    @discardableResult
    public func remove(_ target: AnyObject) -> Bool {
        guard let registration = liveRegistration(of: target) else { return false }
        registration.isRemoved = true
        byIdentity[registration.identity] = nil
        registrations.removeAll { $0 === registration }
        rebuildTable()
        return true
    }

    /// Removes every target.
    public func removeAll() {
        for registration in registrations { registration.isRemoved = true }
        registrations.removeAll()
        byIdentity.removeAll()
        table.removeAll()
    }

    // MARK: - Inspecting

    /// The live targets, in dispatch order.
    public var targets: [AnyObject] {
        registrations.compactMap { $0.isRemoved ? nil : $0.target }
    }

    /// Whether `target` is in the chain.
    public func contains(_ target: AnyObject) -> Bool {
        liveRegistration(of: target) != nil
    }

    // MARK: - Dispatch

    /// Whether some live target answers `message`.
    public func responds<Input, Output>(to message: ProxyMessage<Input, Output>) -> Bool {
        guard let entries = table[message.name] else { return false }
        for entry in entries where !entry.registration.isRemoved && entry.registration.target != nil {
            return true
        }
        return false
    }

    /// Sends a void message to every live responder in order, or only the first in
    /// ``Mode/breaking`` mode.
    public func send<Input>(_ message: ProxyMessage<Input, Void>, _ input: Input) {
        guard let entries = table[message.name] else { return }
        for entry in entries {
            guard let responder = entry.responder(to: message) else { continue }
            responder.handler.body(responder.target, input)
            if mode == .breaking { return }
        }
    }

    /// Sends a message with an answer to the first live responder.
    /// - Returns: its answer, or `nil` if no live target answers.
    public func send<Input, Output>(_ message: ProxyMessage<Input, Output>, _ input: Input) -> Output? {
        guard let entries = table[message.name] else { return nil }
        for entry in entries {
            guard let responder = entry.responder(to: message) else { continue }
            return responder.handler.body(responder.target, input)
        }
        return nil
    }

    /// Sends a message with an answer; `defaultValue` when no live target answers.
    public func send<Input, Output>(
        _ message: ProxyMessage<Input, Output>, _ input: Input, default defaultValue: @autoclosure () -> Output
    ) -> Output {
        send(message, input) ?? defaultValue()
    }

    // MARK: - Internals

    private func liveRegistration(of target: AnyObject) -> Registration? {
        guard let registration = byIdentity[ObjectIdentifier(target)] else { return nil }
        if registration.target === target { return registration }
        // The registered target died and another object now has its address.
        registration.isRemoved = true
        byIdentity[registration.identity] = nil
        registrations.removeAll { $0 === registration }
        return nil
    }

    private func register<Target: AnyObject>(
        _ target: Target, retention: ProxyRetention, responses: ProxyResponses<Target>, at index: Int?
    ) {
        // Forget dead weak targets so the tables stay bounded.
        registrations.removeAll { registration in
            guard registration.target == nil else { return false }
            registration.isRemoved = true
            byIdentity[registration.identity] = nil
            return true
        }
        let registration: Registration
        if let existing = liveRegistration(of: target) {
            registration = existing
            existing.handlers.merge(responses.handlers) { _, new in new }
            if let index {
                registrations.removeAll { $0 === existing }
                precondition(index >= 0 && index <= registrations.count, "ProxyChain: insert index out of range")
                registrations.insert(existing, at: index)
            }
        } else {
            registration = Registration(target: target, handlers: responses.handlers)
            byIdentity[registration.identity] = registration
            if let index {
                precondition(index >= 0 && index <= registrations.count, "ProxyChain: insert index out of range")
                registrations.insert(registration, at: index)
            } else {
                registrations.append(registration)
            }
        }
        registration.setRetention(retention, of: target)
        rebuildTable()
    }

    /// Rebuilds the selector table from the ordered registrations. A running dispatch keeps
    /// iterating its own (copy-on-write) snapshot, so additions reach only the next dispatch.
    private func rebuildTable() {
        var fresh: [String: [Entry]] = [:]
        for registration in registrations {
            for (name, handler) in registration.handlers {
                fresh[name, default: []].append(Entry(registration: registration, handler: handler))
            }
        }
        table = fresh
    }
}

@available(*, unavailable, message: "ProxyChain is not thread-safe; confine it to one thread or actor")
extension ProxyChain: Sendable {}

/// How a ``ProxyChain`` holds a target.
public enum ProxyRetention: Sendable, Hashable {
    /// Held weakly: the target leaves the chain when it dies.
    case weak
    /// Held strongly until removed.
    case strong
}

/// One responder to one message: its registration and its handler.
struct Entry {
    let registration: Registration
    let handler: AnyProxyHandler

    /// The target and the handler that answer `message`; nil when the target was removed or has
    /// died, or when the handler is of another message type of that name.
    // Inlined: the sends run unspecialized, and a call per entry costs them instructions (callgrind).
    @inline(__always)
    func responder<Input, Output>(
        to message: ProxyMessage<Input, Output>
    ) -> (target: AnyObject, handler: ProxyHandler<Input, Output>)? {
        if registration.isRemoved { return nil }
        guard let target = registration.target, let handler = handler as? ProxyHandler<Input, Output> else {
            return nil
        }
        return (target, handler)
    }
}

/// One target in a chain, with its handlers by selector name.
final class Registration {
    let identity: ObjectIdentifier
    weak var weakTarget: AnyObject?
    var strongTarget: AnyObject?
    var handlers: [String: AnyProxyHandler]
    /// Set when the target is removed, so a running dispatch skips it at once.
    var isRemoved = false

    init(target: AnyObject, handlers: [String: AnyProxyHandler]) {
        identity = ObjectIdentifier(target)
        weakTarget = target
        self.handlers = handlers
    }

    /// The target, if it is alive (a strong target always is).
    var target: AnyObject? {
        if let strongTarget { return strongTarget }
        return weakTarget
    }

    func setRetention(_ retention: ProxyRetention, of target: AnyObject) {
        strongTarget = retention == .strong ? target : nil
    }
}
