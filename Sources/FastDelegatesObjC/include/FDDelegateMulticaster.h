// FDDelegateMulticaster: many listeners behind one delegate slot of a framework (UIKit, WebKit,
// AppKit), keyed by selector over the C core's dispatch tables. Objective-C only: compiled
// with Apple's clang (ARC) or with GNUstep's gcc; an empty unit elsewhere.
#if defined(__APPLE__) || defined(GNUSTEP)
#import <Foundation/Foundation.h>
#ifndef NS_SWIFT_NAME                      // GNUstep defines none
#define NS_SWIFT_NAME(name)
#endif
#if __has_feature(objc_generics)           // GCC's Objective-C has no lightweight generics
#define FD_METHOD_TABLE NSDictionary<NSString *, NSString *>
#else
#define FD_METHOD_TABLE NSDictionary
#endif

/// A delegate multicaster: `proxy` goes into a framework's delegate slot, and every message of
/// `protocol` it receives reaches the live listeners that respond to it, in order.
///
/// - Void methods reach every responding listener (`breaking`: the first only); a method with a
///   return value gets the first responding listener's answer (zero, nil or NO when none); a
///   method with a block argument (a completion or decision handler) reaches the first
///   responding listener only, so that the handler runs once, and with no listener the block is
///   called once, through its own signature, with every parameter zero (a block without a
///   signature, or with a union or bit-field parameter, is logged and not called).
/// - `proxy` answers `respondsToSelector:` YES for a protocol method exactly when some live
///   listener responds, and never raises "unrecognized selector" for a protocol method.
/// - Listeners are held weakly and never called once deallocated. A listener that is another
///   multicaster's proxy responds to a method exactly when that proxy would: one of that
///   multicaster's live listeners does, or, outside its protocol, its original delegate does,
///   asked at each call (nesting flattens); a cycle raises.
///
/// Exceptions: a listener's exception leaves the call (the multicaster stays consistent) and
/// reaches the caller; so does one from a listener's `respondsToSelector:` (the listener is not
/// added) or from the host's setter (later changes are still told to the host). Under ARC the frames it unwinds release what they hold only when this
/// target is compiled with `-fobjc-arc-exceptions` (the package's tests do); without it, as
/// SwiftPM builds it, an exception leaks the listener's retain and what the call held, as any
/// ARC code does: Cocoa's rule, exceptions are programmer errors.
///
/// Confinement: a multicaster belongs to the thread that created it (its host's thread: the main
/// thread for UIKit). Debug builds (`DEBUG`) raise `NSInternalInconsistencyException` on use from
/// another thread.
NS_SWIFT_NAME(DelegateMulticaster)
@interface FDDelegateMulticaster : NSObject
/// A multicaster for `protocol`'s instance methods, required and optional, and those of the
/// protocols it adopts (but `NSObject`), as the runtime lists them. GCC's runtime lists no
/// optional method: give those with `initWithProtocol:methods:`.
- (instancetype)initWithProtocol:(Protocol *)protocol;
/// A multicaster for `protocol` whose methods are also (or only, for an informal protocol)
/// `methods`: selector name -> Objective-C type encoding, e.g. `@"scrollViewDidScroll:"` ->
/// `@"v24@0:8@16"`. An entry replaces the runtime's encoding of the same selector.
- (instancetype)initWithProtocol:(Protocol *)protocol methods:(FD_METHOD_TABLE *)methods; // selector name -> type encoding
/// What goes into the host's slot: an `NSObject` of a class made at run time that adopts the
/// protocol. It does not keep the multicaster alive (`installOnHost:key:` makes the host do so).
@property (nonatomic, readonly) id proxy;       // what goes into the host's slot
/// NO (the default): void methods reach every responding listener; YES: the first only.
@property (nonatomic) BOOL breaking;            // NO: void methods reach every listener; YES: the first
/// Adds `listener` (held weakly) after the others; a listener already added keeps its place.
- (void)addListener:(id)listener;
/// Adds `listener` at `index` of `listeners` (clamped to its count); a listener already added
/// keeps its place.
- (void)insertListener:(id)listener atIndex:(NSUInteger)index;
/// Removes `listener`; YES if it was a listener. Takes effect at once, also for the rest of a
/// call being forwarded.
- (BOOL)removeListener:(id)listener;
/// The live listeners, in order.
@property (nonatomic, readonly) NSArray *listeners;  // the live ones, in order
/// Puts `proxy` into `host`'s slot `key` by key-value coding; the slot's current delegate
/// becomes the first listener, and the host keeps the multicaster alive. Whenever the set of
/// protocol methods that some live listener answers changes (a listener added or removed, a
/// listener's death when it happens, a nested multicaster's change), the slot is set to nil
/// and back to `proxy` (after the outermost forwarded call), so that a host that caches
/// `respondsToSelector:` asks again; a slot someone else has set since is left alone.
/// Installing elsewhere uninstalls first; installing where it is already, under other
/// multicasters installed since or not, does nothing. When the slot cannot be set (KVC raises),
/// the exception reaches the caller and nothing is left of the attempt. The original delegate is
/// held weakly, as listeners are: one that only the slot owned dies here, so keep a strong
/// reference to it (the app's view controller, say) while the multicaster is installed.
- (void)installOnHost:(id)host key:(NSString *)key;
/// Gives the slot its original delegate back (nil if it has died), unless someone else has set
/// the slot since, and lets the host go. When another multicaster was installed on the slot
/// since (over this one), this one's place among its listeners, and its original delegate, go
/// to this one's original delegate. The original delegate stays a listener until removed.
- (void)uninstall;
@end
#endif
