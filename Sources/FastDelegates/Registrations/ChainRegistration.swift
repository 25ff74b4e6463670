import CDispatchTable

/// One target in a ``DelegateChain``: a ``Registration``, how it holds its target, and where its
/// C slot is.
@usableFromInline
final class ChainRegistration: Registration, ListedRegistration {
    /// A chain of one target keeps no array of registrations.
    typealias ListStorage = ListEntries<ChainRegistration>

    enum Hold {
        /// A Swift weak reference (``WeakHold/weakReference``).
        case weak
        /// One strong reference (``Retention/strong``).
        case strong
        /// One unowned reference, each call under `swift_tryRetain` (``WeakHold/zeroing``).
        case zeroing
    }

    // The one-byte and four-byte fields first: they fill the superclass's tail (a smaller object).
    // Every stored property here is unchecked: each access is a plain read or write, and none
    // runs code that could reach the registration again.

    /// Set by a dispatch that found the target gone, or when the registration was removed.
    @usableFromInline @exclusivity(unchecked)
    var isDead = false

    /// How the target is held now.
    @exclusivity(unchecked) private(set) var hold = Hold.weak

    /// Its C slot (generation 0 once released).
    @exclusivity(unchecked) var handle = cdt_handle(slot: 0, generation: 0)

    /// The target, in the `.weak` hold only (a weak reference costs the target its inline
    /// reference count, so the other holds never take one).
    @usableFromInline @exclusivity(unchecked)
    weak var weakTarget: AnyObject?

    /// The target's address when the registration owns a reference to it, what its C slot
    /// mirrors: one strong reference (`.strong`) or a ``ZeroingHold``'s unowned one (`.zeroing`);
    /// nil in the `.weak` hold.
    @exclusivity(unchecked) private(set) var heldTarget: UnsafeMutableRawPointer?

    /// Its handlers not entered into the C table yet (see PendingEntries.swift): a bit mask, no
    /// allocation.
    @exclusivity(unchecked) var pending = PendingHandlers()

    init(target: AnyObject, serial: UInt64, retention: Retention, responses: [UInt32: AnyHandler]) {
        super.init(target: target, serial: serial, responses: responses)
        setRetention(retention, of: target)
    }

    deinit {
        releaseHeldTarget()
    }

    /// Holds `target` (this registration's target) as `retention` asks: strongly, or else as
    /// ``weakHold(for:)`` decides for its class (zeroing, or a weak reference).
    func setRetention(_ retention: Retention, of target: AnyObject) {
        let wanted: Hold =
            retention == .strong ? .strong : (weakHold(for: type(of: target)) == .zeroing ? .zeroing : .weak)
        guard wanted != hold || (hold == .weak && weakTarget == nil) else { return }
        let new: UnsafeMutableRawPointer?
        switch wanted {
        case .strong: new = Unmanaged.passRetained(target).toOpaque()
        case .zeroing: new = ZeroingHold(target).pointer
        case .weak:
            weakTarget = target
            new = nil
        }
        releaseHeldTarget()
        hold = wanted
        heldTarget = new
    }

    /// Lets go of the target of a removed registration, so that it may linger in its chain's
    /// list until the next sweep without keeping the target (or its memory) alive; `target` is
    /// nil from now on.
    func releaseTarget() {
        weakTarget = nil
        releaseHeldTarget()
    }

    /// Gives back the reference the hold owns, after leaving the `.weak` hold: a deinit the
    /// release runs finds the registration holding nothing.
    private func releaseHeldTarget() {
        let (kind, pointer) = (hold, heldTarget)
        hold = .weak
        heldTarget = nil
        switch kind {
        case .strong: Unmanaged<AnyObject>.fromOpaque(pointer.unsafelyUnwrapped).release()
        case .zeroing: zeroing(pointer).release()
        case .weak: break
        }
    }

    /// The zeroing hold whose reference `heldTarget` carries (in the `.zeroing` hold).
    private func zeroing(_ pointer: UnsafeMutableRawPointer?) -> ZeroingHold {
        ZeroingHold(owning: pointer.unsafelyUnwrapped)
    }

    var retention: Retention { hold == .strong ? .strong : .weak }

    /// How the hot path reaches the target.
    var targetKind: cdt_target_kind {
        switch hold {
        case .weak: CDT_TARGET_INDIRECT
        case .strong: CDT_TARGET_STRONG
        case .zeroing: CDT_TARGET_ZEROING
        }
    }

    /// The target, if it is still alive (and not deinitializing).
    var target: AnyObject? {
        switch hold {
        case .weak: weakTarget
        case .strong: Unmanaged<AnyObject>.fromOpaque(heldTarget.unsafelyUnwrapped).takeUnretainedValue()
        case .zeroing: zeroing(heldTarget).target
        }
    }

    /// Whether the target is alive (not deinitializing). For a zeroing hold this only reads the
    /// reference count, so it never runs a deinit, whoever else lets go of the target meanwhile.
    var isAlive: Bool {
        switch hold {
        case .weak: weakTarget != nil
        case .strong: true
        case .zeroing: zeroing(heldTarget).isAlive
        }
    }

    /// Whether the target is `object` and alive. A zeroing or strong hold keeps the target's
    /// memory, so no other object can have its address: the address decides.
    func holds(_ object: AnyObject) -> Bool {
        switch hold {
        case .weak: weakTarget === object
        case .strong: heldTarget == Unmanaged.passUnretained(object).toOpaque()
        case .zeroing: zeroing(heldTarget).holds(object)
        }
    }

    /// Whether a zeroing hold keeps the memory of a target that has died: what a chain's
    /// sweep gives back.
    var holdsDeadAllocation: Bool {
        hold == .zeroing && !zeroing(heldTarget).isAlive
    }
}
