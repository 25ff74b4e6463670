import FastDelegates

/// One responder place of a dispatcher, as a behaviour that needs one responder at a time sees
/// it: the end of a chain, a slot's primary or a secondary, an interceptor's receiver, a
/// router's route or its default. One suite checks such behaviours on every dispatcher.
package struct DispatcherUnderTest {
    /// The dispatcher the messages are sent to.
    package let dispatcher: any MessageDispatching
    /// Whether the dispatcher is empty once this place is: false for an interceptor, whose
    /// middle man stays.
    package let emptyWithoutResponder: Bool
    private let place: (AnySendableResponder, Retention) -> Void
    private let clear: () -> Void
    private let holds: (AnyObject) -> Bool
    private let empty: () -> Bool
    /// What the dispatcher needs kept alive besides it (an interceptor's middle man).
    private let companion: AnyObject?

    /// Puts `target` in this place, answering `responses`: adds it to a chain, sets or attaches
    /// it in a pattern (setting again replaces the previous responder).
    package func set<Target: AnyObject & Sendable>(
        _ target: Target, retention: Retention = .weak, responses: SendableResponses<Target>
    ) {
        place(AnySendableResponder(target, responses: responses), retention)
    }

    /// Puts `target` in this place, answering its type's responses.
    package func set<Target: DelegateResponder & Sendable>(_ target: Target, retention: Retention = .weak)
    where Target.DeclaredResponses == SendableResponses<Target> {
        place(AnySendableResponder(target), retention)
    }

    /// The dispatcher's `removeAll()`.
    package func removeAll() { clear() }

    /// The dispatcher's `contains(_:)`.
    package func contains(_ target: AnyObject) -> Bool { holds(target) }

    /// The dispatcher's `isEmpty`.
    package var isEmpty: Bool { withExtendedLifetime(companion) { empty() } }

    fileprivate init(
        _ dispatcher: some MessageDispatching, emptyWithoutResponder: Bool = true, companion: AnyObject? = nil,
        place: @escaping (AnySendableResponder, Retention) -> Void, clear: @escaping () -> Void,
        holds: @escaping (AnyObject) -> Bool, empty: @escaping () -> Bool
    ) {
        self.dispatcher = dispatcher
        self.emptyWithoutResponder = emptyWithoutResponder
        self.companion = companion
        self.place = place
        self.clear = clear
        self.holds = holds
        self.empty = empty
    }
}

/// Every dispatcher, by the place a behaviour's responder takes in it
/// (`@Test(arguments: DispatcherKind.allCases)`).
package enum DispatcherKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case chain = "DelegateChain"
    case concurrentChain = "ConcurrentDelegateChain"
    case slotPrimary = "DelegateSlot primary"
    case slotSecondary = "DelegateSlot secondary"
    case interceptorReceiver = "DelegateInterceptor receiver"
    case routerRoute = "DelegateRouter route"
    case routerDefault = "DelegateRouter default"

    package var description: String { rawValue }

    /// A middle man that intercepts nothing: every message falls through to the receiver.
    private final class Bystander {}

    /// A new, empty dispatcher of this kind.
    package func make() -> DispatcherUnderTest {
        switch self {
        case .chain:
            let chain = DelegateChain()
            return DispatcherUnderTest(
                chain, place: { chain.add(AnyResponder($0), retention: $1) }, clear: chain.removeAll,
                holds: chain.contains, empty: { chain.isEmpty })
        case .concurrentChain:
            let chain = ConcurrentDelegateChain()
            return DispatcherUnderTest(
                chain, place: { chain.add($0, retention: $1) }, clear: chain.removeAll, holds: chain.contains,
                empty: { chain.isEmpty })
        case .slotPrimary, .slotSecondary:
            let slot = DelegateSlot()
            let primary = self == .slotPrimary
            return DispatcherUnderTest(
                slot,
                place: { responder, retention in
                    if primary {
                        slot.setPrimary(AnyResponder(responder), retention: retention)
                    } else {
                        slot.attach(AnyResponder(responder), retention: retention)
                    }
                },
                clear: slot.removeAll, holds: slot.contains, empty: { slot.isEmpty })
        case .interceptorReceiver:
            let middleMan = Bystander()
            let interceptor = DelegateInterceptor(middleMan: middleMan, interceptions: Interceptions())
            return DispatcherUnderTest(
                interceptor, emptyWithoutResponder: false, companion: middleMan,
                place: { interceptor.setReceiver(AnyResponder($0), retention: $1) }, clear: interceptor.removeAll,
                holds: interceptor.contains, empty: { interceptor.isEmpty })
        case .routerRoute, .routerDefault:
            let router = DelegateRouter<Int>(key: 0)
            let route = self == .routerRoute
            return DispatcherUnderTest(
                router,
                place: { responder, retention in
                    if route {
                        router.route(0, to: AnyResponder(responder), retention: retention)
                    } else {
                        router.setDefault(AnyResponder(responder), retention: retention)
                    }
                },
                clear: router.removeAll, holds: router.contains, empty: { router.isEmpty })
        }
    }
}

extension DispatcherKind {
    /// A new dispatcher of this kind with a ``Probe`` named `name` set in its place (weakly),
    /// recording into a log of its own. The caller keeps the probe alive.
    package func make(probe name: String) -> (place: DispatcherUnderTest, log: Log, probe: Probe) {
        let log = Log()
        let probe = Probe(name, log: log)
        let place = make()
        place.set(probe)
        return (place, log, probe)
    }
}
