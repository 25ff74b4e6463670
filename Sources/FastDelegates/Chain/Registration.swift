import CDispatchTable

/// One target in a chain: how it is held, what it answers and where its C slot is.
@usableFromInline
final class Registration {
    enum Hold {
        case weak, strong, tracked
    }

    /// The identity of the target it was made for (valid while the target lives).
    let identity: ObjectIdentifier

    /// The target, in the `.weak` hold only (a weak reference costs the target its inline
    /// reference count, so the other holds never take one).
    @usableFromInline @exclusivity(unchecked)
    weak var weakTarget: AnyObject?

    /// The target's address, with one strong (`.strong`) or unowned (`.tracked`) reference
    /// owned by this registration.
    private(set) var heldTarget: UnsafeMutableRawPointer?
    private(set) var hold = Hold.weak

    /// The target's lifetime, while the registration is joined to it (`.tracked`).
    weak var lifetime: DelegateLifetime?

    /// Set by a dispatch that found the target gone, or when the registration was removed.
    @usableFromInline @exclusivity(unchecked)
    var isDead = false

    var responses: [UInt32: AnyHandler]
    var handle = cdt_handle(slot: 0, generation: 0)
    var order: UInt64

    init(target: AnyObject, retention: Retention, responses: [UInt32: AnyHandler], order: UInt64) {
        identity = ObjectIdentifier(target)
        self.responses = responses
        self.order = order
        setRetention(retention, of: target)
    }

    deinit {
        releaseHeldTarget()
    }

    /// Holds `target` (this registration's target) as `retention` asks: weakly, or tracked when
    /// the target tracks its lifetime, or with a strong retain.
    func setRetention(_ retention: Retention, of target: AnyObject) {
        let wanted: Hold = retention == .strong ? .strong : (target is DelegateLifetimeTracking ? .tracked : .weak)
        guard wanted != hold || (hold == .weak && weakTarget == nil) else { return }
        let pointer = Unmanaged.passUnretained(target).toOpaque()
        switch wanted {
        case .strong: _ = Unmanaged.passRetained(target)
        case .tracked: cdt_swift_unowned_retain(pointer)
        case .weak: weakTarget = target
        }
        releaseHeldTarget()
        hold = wanted
        heldTarget = wanted == .weak ? nil : pointer
    }

    /// Lets go of the target of a removed registration, so that it may linger in its chain's
    /// list until the next sweep without keeping the target alive; `target` is nil from now on.
    func releaseTarget() {
        weakTarget = nil
        releaseHeldTarget()
        hold = .weak
    }

    private func releaseHeldTarget() {
        guard let heldTarget else { return }
        switch hold {
        case .strong: Unmanaged<AnyObject>.fromOpaque(heldTarget).release()
        case .tracked: cdt_swift_unowned_release(heldTarget)
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
        case .tracked: CDT_TARGET_TRACKED
        }
    }

    /// The target, if it is still alive (and not deinitializing).
    var target: AnyObject? {
        switch hold {
        case .weak:
            return weakTarget
        case .strong:
            return Unmanaged<AnyObject>.fromOpaque(heldTarget.unsafelyUnwrapped).takeUnretainedValue()
        case .tracked:
            let pointer = heldTarget.unsafelyUnwrapped
            guard cdt_swift_try_retain(pointer) else { return nil }
            return Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
        }
    }
}
