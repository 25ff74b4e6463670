import FastDelegates

/// What either chain's `add` and `insert` return: a token whose `cancel()` removes the
/// registration it came from.
package protocol TokenUnderTest: AnyObject {
    func cancel()
}

extension DelegateToken: TokenUnderTest {}
extension ConcurrentDelegateToken: TokenUnderTest {}

/// The surface `DelegateChain` and `ConcurrentDelegateChain` share, so that one suite checks a
/// behaviour on both (as swift-collections' conformance checkers run one checker over many
/// types). Handlers are `@Sendable` (``SendableResponses``) and targets `Sendable`, which both
/// chains accept.
package protocol ChainUnderTest: MessageDispatching {
    /// How `targets` types a target: `AnyObject`, or `any AnyObject & Sendable` on the concurrent
    /// chain (seen through `any ChainUnderTest`, either is an `AnyObject`).
    associatedtype TargetReference: AnyObject
    var mode: DelegateChain.Mode { get }
    var targets: [TargetReference] { get }
    var count: Int { get }
    var isEmpty: Bool { get }
    func contains(_ target: AnyObject) -> Bool
    func retention(of target: AnyObject) -> Retention?
    @discardableResult func remove(_ target: AnyObject) -> Bool
    func removeAll()
    /// The live registrations and the dead ones not yet reclaimed.
    var registrationCount: Int { get }
    /// The C table's first broken invariant (0: none); always 0 for the concurrent chain.
    var invariantViolation: Int32 { get }
    /// Adds `target` at the end (`index` nil) or inserts it at `index`, answering `responses`.
    func enroll<Target: AnyObject & Sendable>(
        _ target: Target, at index: Int?, retention: Retention, responses: SendableResponses<Target>
    ) -> any TokenUnderTest
}

extension DelegateChain: ChainUnderTest {
    package func enroll<Target: AnyObject & Sendable>(
        _ target: Target, at index: Int?, retention: Retention, responses: SendableResponses<Target>
    ) -> any TokenUnderTest {
        register(AnyResponder(target, responses: responses), retention: retention, at: index)
    }
}

extension ConcurrentDelegateChain: ChainUnderTest {
    package var invariantViolation: Int32 { 0 }

    package func enroll<Target: AnyObject & Sendable>(
        _ target: Target, at index: Int?, retention: Retention, responses: SendableResponses<Target>
    ) -> any TokenUnderTest {
        register(AnySendableResponder(target, responses: responses), retention: retention, at: index)
    }
}

/// The `add` and `insert` forms the chains share, over ``ChainUnderTest/enroll(_:at:retention:responses:)``:
/// for a chain seen as `any ChainUnderTest`. Disfavored, so that on a chain of a known type its
/// own forms are chosen.
extension ChainUnderTest {
    @discardableResult @_disfavoredOverload
    package func add<Target: DelegateResponder & Sendable>(_ target: Target, retention: Retention = .weak)
        -> any TokenUnderTest where Target.DeclaredResponses == SendableResponses<Target>
    {
        enroll(target, at: nil, retention: retention, responses: Target.responses)
    }

    @discardableResult @_disfavoredOverload
    package func add<Target: AnyObject & Sendable>(
        _ target: Target, retention: Retention = .weak, responses: SendableResponses<Target>
    ) -> any TokenUnderTest {
        enroll(target, at: nil, retention: retention, responses: responses)
    }

    @discardableResult @_disfavoredOverload
    package func add<Target: AnyObject & Sendable>(
        _ target: Target, retention: Retention = .weak,
        _ build: (SendableResponses<Target>) -> SendableResponses<Target>
    ) -> any TokenUnderTest {
        enroll(target, at: nil, retention: retention, responses: build(SendableResponses()))
    }

    @discardableResult @_disfavoredOverload
    package func insert<Target: DelegateResponder & Sendable>(
        _ target: Target, at index: Int, retention: Retention = .weak
    )
        -> any TokenUnderTest where Target.DeclaredResponses == SendableResponses<Target>
    {
        enroll(target, at: index, retention: retention, responses: Target.responses)
    }

    @discardableResult @_disfavoredOverload
    package func insert<Target: AnyObject & Sendable>(
        _ target: Target, at index: Int, retention: Retention = .weak, responses: SendableResponses<Target>
    ) -> any TokenUnderTest {
        enroll(target, at: index, retention: retention, responses: responses)
    }
}

/// Each chain a behaviour suite runs over (`@Test(arguments: ChainKind.allCases)`).
package enum ChainKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `DelegateChain` over the C table.
    case chain = "DelegateChain"
    /// `DelegateChain` whose C table puts every message in one probe run.
    case chainWithForcedCollisions = "DelegateChain (forced collisions)"
    /// `ConcurrentDelegateChain`.
    case concurrent = "ConcurrentDelegateChain"

    /// The two chain types, each once.
    package static let types: [ChainKind] = [.chain, .concurrent]

    package var description: String { rawValue }

    /// Whether this chain is the concurrent one (whose handlers may run on several threads).
    package var isConcurrent: Bool { self == .concurrent }

    /// A new, empty chain of this kind.
    package func make(mode: DelegateChain.Mode = .nonBreaking) -> any ChainUnderTest {
        switch self {
        case .chain: DelegateChain(mode: mode)
        case .chainWithForcedCollisions: DelegateChain(mode: mode, forcedCollisions: true)
        case .concurrent: ConcurrentDelegateChain(mode: mode)
        }
    }
}

extension ChainKind {
    /// A new chain of this kind with a ``Probe`` of each of `names` added in that order (weakly),
    /// all recording into one log: the set-up most chain behaviours start from. The caller keeps
    /// the probes alive.
    package func make(probes names: String..., mode: DelegateChain.Mode = .nonBreaking)
        -> (chain: any ChainUnderTest, log: Log, probes: [Probe])
    {
        make(probes: names, mode: mode)
    }

    /// A new chain of this kind with a ``Probe`` of each of `names` added in that order (weakly),
    /// all recording into one log (for names the test also checks against).
    package func make(probes names: [String], mode: DelegateChain.Mode = .nonBreaking)
        -> (chain: any ChainUnderTest, log: Log, probes: [Probe])
    {
        let log = Log()
        let probes = names.map { Probe($0, log: log) }
        return (make(adding: probes, mode: mode), log, probes)
    }

    /// A new chain of this kind with `targets` added in that order (weakly), answering their
    /// type's responses. The caller keeps them alive.
    package func make<Target: DelegateResponder & Sendable>(
        adding targets: [Target], mode: DelegateChain.Mode = .nonBreaking
    )
        -> any ChainUnderTest where Target.DeclaredResponses == SendableResponses<Target>
    {
        let chain = make(mode: mode)
        for target in targets { chain.add(target) }
        return chain
    }

    /// A new chain of this kind with one ``Probe`` named `name` added (weakly), recording into a
    /// log of its own. The caller keeps the probe alive.
    package func make(probe name: String) -> (chain: any ChainUnderTest, log: Log, probe: Probe) {
        let (chain, log, probes) = make(probes: name)
        return (chain, log, probes[0])
    }
}
