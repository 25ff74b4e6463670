import CDispatchTable

/// The zeroing hold of one target: an *unowned* reference, which keeps the object's memory but
/// not the object alive, and a strong reference taken with `swift_tryRetain` for each use.
///
/// `tryRetain` fails once the object has started to deinitialize, so a target reached through
/// the hold is never used during or after its `deinit`, even when its last release happens on
/// another thread meanwhile, and the strong reference keeps it alive for the whole use. Because
/// the hold keeps the object's memory, no other object can take its address while it lasts: the
/// address alone tells whether the hold is on a given object. Only for classes that
/// ``weakHold(for:)`` puts on the zeroing path (native Swift reference counting), as the chains
/// themselves are.
///
/// The one place the library takes, uses and gives back an unowned reference: the single-thread
/// chain's ``ChainRegistration`` (which mirrors ``pointer`` into its C slot), the concurrent
/// chain's ``ConcurrentRegistration``, and the tokens of both (``DelegateToken``,
/// ``ConcurrentDelegateToken``), which hold their chain this way rather than weakly, so that a
/// token costs the chain no weak side table. A value type over one pointer, as `Unmanaged` is:
/// its owner calls ``release()`` exactly once.
@usableFromInline
struct ZeroingHold {
    /// The target's address, with the unowned reference this hold owns.
    @usableFromInline
    let pointer: UnsafeMutableRawPointer

    /// The hold whose unowned reference `pointer` already carries (one taken by ``init(_:)`` and
    /// stored as its ``pointer``): takes no new reference.
    init(owning pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer
    }

    /// Takes an unowned reference to `target`.
    /// Inlinable, calling the runtime directly: a token is made in its caller's code.
    @inlinable
    init(_ target: AnyObject) {
        pointer = Unmanaged.passUnretained(target).toOpaque()
        _ = swift_unownedRetain(pointer)
    }

    /// Gives the unowned reference back, which frees the memory of a target that has died. Call
    /// it once; the hold is not used afterwards.
    @inlinable
    func release() {
        swift_unownedRelease(pointer)
    }

    /// The target, as a new strong reference, if it is alive (not deinitializing).
    var target: AnyObject? {
        guard cdt_swift_try_retain(pointer) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Whether the target is alive (not deinitializing). Reads the reference count only, so it
    /// never runs a deinit, whoever else lets go of the target meanwhile.
    @inlinable
    var isAlive: Bool { !cdt_swift_is_deallocating(pointer) }

    /// Whether the target is `object` and alive (the caller keeps `object` alive).
    func holds(_ object: AnyObject) -> Bool {
        pointer == Unmanaged.passUnretained(object).toOpaque() && isAlive
    }

    /// Calls `body` with the target at `pointer`, an address under a zeroing hold, under the
    /// strong reference of the call; nil, without calling it, if the target is deinitializing.
    ///
    /// The hot path of both chains: the runtime's entry points are called directly
    /// (`cdt_swift_runtime.h`), with no wrapper frame.
    @inlinable @inline(__always)
    static func withTarget<Result>(at pointer: UnsafeMutableRawPointer, _ body: (AnyObject) -> Result) -> Result? {
        guard swift_tryRetain(pointer) != nil else { return nil }
        defer { swift_release(pointer) }
        return Unmanaged<AnyObject>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }
}
