import CDispatchTable

/// One target in a chain: how it is held, what it answers and where its C slot is.
@usableFromInline
final class Registration: ListedRegistration {
    enum Hold {
        /// A Swift weak reference (``WeakHold/weakReference``).
        case weak
        /// One strong reference (``Retention/strong``).
        case strong
        /// One unowned reference, each call under `swift_tryRetain` (``WeakHold/zeroing``).
        case zeroing
    }

    /// The identity of the target it was made for (valid while the target lives).
    let identity: ObjectIdentifier

    /// Unique within its chain for the chain's whole life (64 bits never wrap): what tokens
    /// name. The C slot's 32-bit generation wraps, so it never identifies a registration alone.
    let serial: UInt64

    /// The target, in the `.weak` hold only (a weak reference costs the target its inline
    /// reference count, so the other holds never take one).
    @usableFromInline @exclusivity(unchecked)
    weak var weakTarget: AnyObject?

    /// The target's address, with one strong (`.strong`) or unowned (`.zeroing`) reference
    /// owned by this registration.
    private(set) var heldTarget: UnsafeMutableRawPointer?
    private(set) var hold = Hold.weak

    /// Set by a dispatch that found the target gone, or when the registration was removed.
    @usableFromInline @exclusivity(unchecked)
    var isDead = false

    /// Set when the registration left its chain's indexes (``RegistrationList``).
    var isUnlisted = false

    var responses: [UInt32: AnyHandler]
    var handle = cdt_handle(slot: 0, generation: 0)
    /// Its sort key in the chain (set by the chain's ``RegistrationList``, mirrored in its C slot).
    var order: UInt64 = 0

    init(target: AnyObject, serial: UInt64, retention: Retention, responses: [UInt32: AnyHandler]) {
        identity = ObjectIdentifier(target)
        self.serial = serial
        self.responses = responses
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
        let pointer = Unmanaged.passUnretained(target).toOpaque()
        switch wanted {
        case .strong: _ = Unmanaged.passRetained(target)
        case .zeroing: cdt_swift_unowned_retain(pointer)
        case .weak: weakTarget = target
        }
        releaseHeldTarget()
        hold = wanted
        heldTarget = wanted == .weak ? nil : pointer
    }

    /// Lets go of the target of a removed registration, so that it may linger in its chain's
    /// list until the next sweep without keeping the target (or its memory) alive; `target` is
    /// nil from now on.
    func releaseTarget() {
        weakTarget = nil
        releaseHeldTarget()
        hold = .weak
    }

    private func releaseHeldTarget() {
        guard let heldTarget else { return }
        switch hold {
        case .strong: Unmanaged<AnyObject>.fromOpaque(heldTarget).release()
        case .zeroing: cdt_swift_unowned_release(heldTarget)
        case .weak: break
        }
        self.heldTarget = nil
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
        case .weak:
            return weakTarget
        case .strong:
            return Unmanaged<AnyObject>.fromOpaque(heldTarget.unsafelyUnwrapped).takeUnretainedValue()
        case .zeroing:
            let pointer = heldTarget.unsafelyUnwrapped
            guard cdt_swift_try_retain(pointer) else { return nil }
            return Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
        }
    }

    /// Whether the target is alive (not deinitializing). For a zeroing hold this only reads the
    /// reference count, so it never runs a deinit, whoever else lets go of the target meanwhile.
    var isAlive: Bool {
        switch hold {
        case .weak: weakTarget != nil
        case .strong: true
        case .zeroing: !cdt_swift_is_deallocating(heldTarget.unsafelyUnwrapped)
        }
    }

    /// Whether the target is `object` and alive. A zeroing or strong hold keeps the target's
    /// memory, so no other object can have its address: the address decides.
    func holds(_ object: AnyObject) -> Bool {
        switch hold {
        case .weak: weakTarget === object
        case .strong: heldTarget == Unmanaged.passUnretained(object).toOpaque()
        case .zeroing:
            heldTarget == Unmanaged.passUnretained(object).toOpaque()
                && !cdt_swift_is_deallocating(heldTarget.unsafelyUnwrapped)
        }
    }

    /// Whether a zeroing hold keeps the memory of a target that has died: what a chain's
    /// sweep gives back.
    var holdsDeadAllocation: Bool {
        hold == .zeroing && cdt_swift_is_deallocating(heldTarget.unsafelyUnwrapped)
    }
}
