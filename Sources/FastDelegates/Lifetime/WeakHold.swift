import Synchronization

#if canImport(ObjectiveC)
import ObjectiveC
#endif

/// How a chain holds a target added with ``Retention/weak`` (the default): the one decision
/// between the zeroing fast path and a Swift `weak` reference, made per class by
/// ``weakHold(for:)``.
///
/// - `zeroing`: the chain takes an *unowned* reference, which keeps the object's memory but not
///   the object alive, and wraps each call in `swift_tryRetain`/`swift_release`. `tryRetain`
///   fails once the object has started to deinitialize, so the target is never called during or
///   after its `deinit`, even when its last release happens on another thread mid-send, and the
///   call's own strong reference keeps it alive for the whole call. Unlike a `weak` reference,
///   it leaves the object's reference count inline (a weak reference moves it to a side table
///   for good, which slows every retain and release of the object everywhere) and costs no weak
///   load per call. Only the Swift runtime's native reference counting supports it.
/// - `weakReference`: a Swift `weak` reference, for objects whose reference count the Swift
///   runtime does not own: Objective-C-rooted objects on Apple platforms (`NSObject`
///   subclasses, Swift classes inheriting from them, bridged and boxed values), for which the
///   runtime's unowned and `tryRetain` entry points would corrupt the reference count.
enum WeakHold: Sendable, Hashable {
    case zeroing
    case weakReference
}

/// The hold a weakly retained target of class `type` gets: ``WeakHold/zeroing`` for a native
/// Swift class, ``WeakHold/weakReference`` for a class rooted in Objective-C or a class object
/// (only on Apple platforms; elsewhere every class is native and no class object is an object)
/// or one a test or benchmark sent to the weak path with ``useWeakReferenceHold(for:)``.
///
/// The answer depends on the class alone; it is the only place this decision is made.
func weakHold(for type: AnyClass) -> WeakHold {
    if WeakHoldOverrides.any.load(ordering: .acquiring),
        WeakHoldOverrides.classes.withLock({ $0.contains(ObjectIdentifier(type)) })
    {
        return .weakReference
    }
    #if canImport(ObjectiveC)
    return weakHold(
        for: type, superclass: { class_getSuperclass($0) }, isMetaclass: { class_isMetaClass($0) },
        isNativeRoot: { ObjectIdentifier($0) == swiftNativeRoot })
    #else
    // No Objective-C runtime: every class uses Swift's native reference counting, and a class
    // object cast to `AnyObject` is boxed in a native object of its own.
    return .zeroing
    #endif
}

/// The decision itself, with the Objective-C runtime's lookups passed in so that it is testable
/// on every platform.
///
/// - A metaclass means the target is a *class object* (`SomeClass.self as AnyObject` on Apple
///   platforms, an Objective-C object whose class is the metaclass): ``WeakHold/weakReference``.
///   Class objects are immortal and not reference counted by the Swift runtime: `swift_tryRetain`
///   on one would treat class metadata as a heap object. Their Objective-C root answers
///   `+allowsWeakReference` and `+retainWeakReference` with YES (both `NSObject` and Swift's
///   root), so a `weak` reference to one is valid and never zeroes. Walking a metaclass's
///   superclasses would be wrong anyway: it ends at the root *class*, after the root metaclass,
///   so it would find the native root for every Swift class object.
/// - Otherwise walks `type`'s superclasses to its root, and holds it zeroing only if
///   `isNativeRoot` says that root is Swift's native one.
func weakHold(
    for type: AnyClass, superclass: (AnyClass) -> AnyClass?, isMetaclass: (AnyClass) -> Bool,
    isNativeRoot: (AnyClass) -> Bool
) -> WeakHold {
    if isMetaclass(type) { return .weakReference }
    return isNativeRoot(rootClass(of: type, superclass: superclass)) ? .zeroing : .weakReference
}

/// The root of `type`'s class hierarchy: `type` itself if `superclass` gives it none.
func rootClass(of type: AnyClass, superclass: (AnyClass) -> AnyClass?) -> AnyClass {
    var root: AnyClass = type
    while let parent = superclass(root) { root = parent }
    return root
}

/// A class declared in Swift with no superclass: its root is, by construction, the root every
/// native Swift class has (on Apple platforms an Objective-C class the Swift runtime defines,
/// whose name is the runtime's business, not ours).
final class NativeRootProbe {}

#if canImport(ObjectiveC)
/// The Objective-C root class of every native Swift class, found from ``NativeRootProbe``;
/// Objective-C-rooted classes end in `NSObject` or `NSProxy` instead.
private let swiftNativeRoot = ObjectIdentifier(
    rootClass(of: NativeRootProbe.self, superclass: { class_getSuperclass($0) }))
#endif

/// Classes sent to the weak-reference path by ``useWeakReferenceHold(for:)``.
private enum WeakHoldOverrides {
    /// Whether any class was sent: until then the decision skips the lock.
    static let any = Atomic<Bool>(false)
    /// A `HandoffMutex`, so that ThreadSanitizer sees the ordering a contended lock gives.
    static let classes = HandoffMutex<Set<ObjectIdentifier>>([])
}

/// Makes chains hold weakly retained targets of class `type` (exactly this class, not its
/// subclasses) with a Swift `weak` reference instead of the zeroing fast path, as they hold
/// Objective-C-rooted objects on Apple platforms.
///
/// For benchmarks and tests that measure or check that path on any platform; it changes the
/// hold of targets added from now on. Not for production use.
@_spi(Testing)
public func useWeakReferenceHold(for type: AnyClass) {
    WeakHoldOverrides.classes.withLock { _ = $0.insert(ObjectIdentifier(type)) }
    WeakHoldOverrides.any.store(true, ordering: .releasing)
}
