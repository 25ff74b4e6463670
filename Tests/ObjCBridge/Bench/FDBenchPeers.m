// The benchmark's hand-written peers (make bench-objc): what an app writes by hand, without any
// library, to forward a delegate call to one object it holds weakly. Compiled apart from FDBench.m,
// with ARC on libobjc2 (scripts/bench-objc.sh) so that the compiler emits exactly what it emits
// for an app's code, and with manual retain/release on GCC's runtime, which has no weak
// references: there the delegate is a plain `assign` pointer, the pre-ARC idiom.
//   handwritten-weak            `[_delegate scrollViewDidScroll:]` through a `__weak` instance
//                               variable: ARC loads and retains it (objc_loadWeakRetained), sends,
//                               and releases. The floor any design that holds its listener
//                               weakly pays per listener on this runtime.
//   handwritten-weak-property   `[self.delegate scrollViewDidScroll:]` through a synthesized
//                               `weak` property: the getter's load, its return through the
//                               autorelease-return handshake, the send, the release.
#import <Foundation/Foundation.h>

#ifndef __has_feature
#define __has_feature(feature) 0 // gcc 12
#endif

#if __has_feature(objc_arc)
#define FD_PEER_WEAK __weak
#define FD_PEER_WEAK_PROPERTY weak
#define FD_PEER_HOLDS_WEAKLY 1
#else
#define FD_PEER_WEAK
#define FD_PEER_WEAK_PROPERTY assign
#define FD_PEER_HOLDS_WEAKLY 0
#endif

@protocol FDBenchScrolling
- (void)scrollViewDidScroll:(id)scrollView;
@end

/// `[_delegate scrollViewDidScroll:]`, the delegate held in a `__weak` instance variable.
@interface FDHandWrittenWeakForwarder : NSObject <FDBenchScrolling> {
@public
    FD_PEER_WEAK id<FDBenchScrolling> _delegate;
}
@end

@implementation FDHandWrittenWeakForwarder
- (void)scrollViewDidScroll:(id)scrollView {
    [_delegate scrollViewDidScroll:scrollView];
}
@end

/// `[self.delegate scrollViewDidScroll:]`, the delegate held by a synthesized `weak` property.
@interface FDHandWrittenWeakPropertyForwarder : NSObject <FDBenchScrolling> {
    FD_PEER_WEAK id<FDBenchScrolling> delegate;
}
@property (nonatomic, FD_PEER_WEAK_PROPERTY) id<FDBenchScrolling> delegate;
@end

@implementation FDHandWrittenWeakPropertyForwarder
@synthesize delegate;
- (void)scrollViewDidScroll:(id)scrollView {
    [self.delegate scrollViewDidScroll:scrollView];
}
@end

/// Whether the peers hold their delegate weakly (ARC), or as a plain pointer (GCC's runtime).
int fd_bench_peers_hold_weakly(void) {
    return FD_PEER_HOLDS_WEAKLY;
}

/// Whether the peers really hold weakly, where they claim to (ARC): a forwarder's delegate,
/// released, reads nil through the instance variable and through the property.
int fd_bench_peers_verify_weak(void) {
#if __has_feature(objc_arc)
    FDHandWrittenWeakForwarder *byIvar = [FDHandWrittenWeakForwarder new];
    FDHandWrittenWeakPropertyForwarder *byProperty = [FDHandWrittenWeakPropertyForwarder new];
    @autoreleasepool {
        id delegate = [NSObject new];
        byIvar->_delegate = delegate;
        byProperty.delegate = delegate;
        if (byIvar->_delegate != delegate || byProperty.delegate != delegate) return 0;
    }
    return byIvar->_delegate == nil && byProperty.delegate == nil;
#else
    return 1; // plain pointers: nothing to verify
#endif
}

/// A new forwarder (autoreleased) to `delegate`: through the instance variable, or the property.
id fd_bench_forwarder(id delegate, int property) {
    if (property) {
        FDHandWrittenWeakPropertyForwarder *forwarder = [FDHandWrittenWeakPropertyForwarder new];
        forwarder.delegate = delegate;
#if __has_feature(objc_arc)
        return forwarder;
#else
        return [forwarder autorelease];
#endif
    }
    FDHandWrittenWeakForwarder *forwarder = [FDHandWrittenWeakForwarder new];
    forwarder->_delegate = delegate;
#if __has_feature(objc_arc)
    return forwarder;
#else
    return [forwarder autorelease];
#endif
}
