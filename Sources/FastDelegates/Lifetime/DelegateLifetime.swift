import Synchronization

/// A target that tells its chains when it dies, so they can hold it without a weak reference.
///
/// Conform by storing a lifetime:
///
/// ```swift
/// final class ScrollTracker: DelegateResponder, DelegateLifetimeTracking {
///     let delegateLifetime = DelegateLifetime()
///     static let responses = SendableResponses<ScrollTracker>().on(Scroll.didScroll) { me, y in … }
/// }
/// chain.add(tracker)        // held in the tracked mode instead of weakly
/// ```
///
/// A chain then holds such a target in the *tracked* mode whenever it would hold it weakly:
/// - it keeps no strong and no weak reference, so the target is freed when its owners let go,
///   and its retains and releases elsewhere stay on the fast inline path (a Swift `weak`
///   reference moves an object's reference count to a side table for good);
/// - each call takes a strong reference only if the target has not started to deinitialize,
///   and gives it back after the call, so a target is never called during or after its
///   `deinit`, even when its last release happens on another thread mid-send, and never freed
///   during its own handler;
/// - when the target dies, its lifetime hands the target's slot back to each chain, which
///   reclaims it on its next operation without searching for it.
///
/// The target must be a native Swift class (not an Objective-C object).
public protocol DelegateLifetimeTracking: AnyObject {
    /// The lifetime this object owns; it must live exactly as long as the object (a `let`).
    var delegateLifetime: DelegateLifetime { get }
}

/// The part of a ``DelegateLifetimeTracking`` target that reports its death to its chains.
///
/// Store one in a `let` property of the target and never share it.
public final class DelegateLifetime: Sendable {
    private let memberships = Mutex<[Membership]>([])

    private struct Membership: Sendable {
        let inbox: DeathInbox
        let generation: UInt32
    }

    /// A lifetime that belongs to no chain yet.
    public init() {}

    deinit {
        let memberships = memberships.withLock { $0 }
        for membership in memberships { membership.inbox.post(membership.generation) }
    }

    /// How many chain registrations this lifetime reports to (for tests).
    var membershipCount: Int { memberships.withLock { $0.count } }

    func join(_ inbox: DeathInbox, generation: UInt32) {
        memberships.withLock { $0.append(Membership(inbox: inbox, generation: generation)) }
    }

    func leave(_ inbox: DeathInbox, generation: UInt32) {
        memberships.withLock { list in
            if let index = list.firstIndex(where: { $0.inbox === inbox && $0.generation == generation }) {
                list.remove(at: index)
            }
        }
    }
}
