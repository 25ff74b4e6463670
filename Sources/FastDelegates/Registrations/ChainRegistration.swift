import CDispatchTable

/// One target in a ``DelegateChain``: a ``Registration``, how it holds its target, and where its
/// C slot is.
@usableFromInline
final class ChainRegistration: Registration, ListedRegistration {
    enum Hold {
        /// A Swift weak reference (``WeakHold/weakReference``).
        case weak
        /// One strong reference (``Retention/strong``).
        case strong
        /// One unowned reference, each call under `swift_tryRetain` (``WeakHold/zeroing``).
        case zeroing
    }

    /// The target, in the `.weak` hold only (a weak reference costs the target its inline
    /// reference count, so the other holds never take one).
    @usableFromInline @exclusivity(unchecked)
    weak var weakTarget: AnyObject?

    /// How the target is held besides `weakTarget`: nothing, one strong reference, or a
    /// zeroing hold (one unowned reference).
    private enum Held {
        case weak
        case strong(Unmanaged<AnyObject>)
        case zeroing(ZeroingHold)
    }
    private var held = Held.weak

    /// Set by a dispatch that found the target gone, or when the registration was removed.
    @usableFromInline @exclusivity(unchecked)
    var isDead = false

    /// Its C slot (generation 0 once released).
    var handle = cdt_handle(slot: 0, generation: 0)

    /// The messages of its handlers not entered into the C table yet (see PendingEntries.swift);
    /// nil when there are none, which costs a registration of a plain chain nothing.
    @exclusivity(unchecked) var pending: [UInt32]?

    init(target: AnyObject, serial: UInt64, retention: Retention, responses: [UInt32: AnyHandler]) {
        super.init(target: target, serial: serial, responses: responses)
        setRetention(retention, of: target)
    }

    deinit {
        releaseHeldTarget()
    }

    /// How the target is held now.
    var hold: Hold {
        switch held {
        case .weak: .weak
        case .strong: .strong
        case .zeroing: .zeroing
        }
    }

    /// The target's address when the registration owns a reference to it (`.strong` or
    /// `.zeroing`), what its C slot mirrors; nil in the `.weak` hold.
    var heldTarget: UnsafeMutableRawPointer? {
        switch held {
        case .weak: nil
        case .strong(let target): target.toOpaque()
        case .zeroing(let zeroing): zeroing.pointer
        }
    }

    /// Holds `target` (this registration's target) as `retention` asks: strongly, or else as
    /// ``weakHold(for:)`` decides for its class (zeroing, or a weak reference).
    func setRetention(_ retention: Retention, of target: AnyObject) {
        let wanted: Hold =
            retention == .strong ? .strong : (weakHold(for: type(of: target)) == .zeroing ? .zeroing : .weak)
        guard wanted != hold || (hold == .weak && weakTarget == nil) else { return }
        let new: Held
        switch wanted {
        case .strong: new = .strong(Unmanaged.passRetained(target))
        case .zeroing: new = .zeroing(ZeroingHold(target))
        case .weak:
            weakTarget = target
            new = .weak
        }
        releaseHeldTarget()
        held = new
    }

    /// Lets go of the target of a removed registration, so that it may linger in its chain's
    /// list until the next sweep without keeping the target (or its memory) alive; `target` is
    /// nil from now on.
    func releaseTarget() {
        weakTarget = nil
        releaseHeldTarget()
    }

    private func releaseHeldTarget() {
        switch held {
        case .strong(let target): target.release()
        case .zeroing(let zeroing): zeroing.release()
        case .weak: break
        }
        held = .weak
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
        switch held {
        case .weak: weakTarget
        case .strong(let target): target.takeUnretainedValue()
        case .zeroing(let zeroing): zeroing.target
        }
    }

    /// Whether the target is alive (not deinitializing). For a zeroing hold this only reads the
    /// reference count, so it never runs a deinit, whoever else lets go of the target meanwhile.
    var isAlive: Bool {
        switch held {
        case .weak: weakTarget != nil
        case .strong: true
        case .zeroing(let zeroing): zeroing.isAlive
        }
    }

    /// Whether the target is `object` and alive. A zeroing or strong hold keeps the target's
    /// memory, so no other object can have its address: the address decides.
    func holds(_ object: AnyObject) -> Bool {
        switch held {
        case .weak: weakTarget === object
        case .strong(let target): target.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
        case .zeroing(let zeroing): zeroing.holds(object)
        }
    }

    /// Whether a zeroing hold keeps the memory of a target that has died: what a chain's
    /// sweep gives back.
    var holdsDeadAllocation: Bool {
        guard case .zeroing(let zeroing) = held else { return false }
        return !zeroing.isAlive
    }
}
