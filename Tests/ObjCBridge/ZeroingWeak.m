// Listeners are held weakly on GCC's runtime too, which has no weak references: the emulation
// asks nothing of the listener's class (a plain NSObject subclass, an NSProxy), serves several
// multicasters holding one listener, and leaves a listener that outlives its multicaster alone.
#include "FDTestSupport.h"

/// An NSProxy listener that forwards to a recorder.
@interface FDForwardingListener : NSProxy {
@public
    FDRecorder *target;
    int *deallocs;
}
@end

@implementation FDForwardingListener
- (BOOL)respondsToSelector:(SEL)selector {
    return [target respondsToSelector:selector];
}
- (NSMethodSignature *)methodSignatureForSelector:(SEL)selector {
    return [target methodSignatureForSelector:selector];
}
- (void)forwardInvocation:(NSInvocation *)invocation {
    [invocation invokeWithTarget:target];
}
- (void)dealloc {
    (*deallocs)++;
    [target release];
    [super dealloc];
}
@end

static void oneListenerDyingIsDroppedByEveryMulticaster(void) {
    FDDelegateMulticaster *first = fd_table_multicaster();
    FDDelegateMulticaster *second = fd_table_multicaster();
    FDRecorder *shared = [FDRecorder newRecorderNamed:@"shared" log:nil];
    FDRecorder *stays = [FDRecorder recorderNamed:@"stays" log:nil];
    [first addListener:shared];
    [second addListener:shared];
    [second addListener:stays];
    [first.proxy scrollViewDidScroll:nil];
    [second.proxy scrollViewDidScroll:nil];
    CHECK(shared->ticks == 2);
    [shared release];
    CHECK([first.listeners count] == 0);
    CHECK([second.listeners isEqual:[NSArray arrayWithObject:stays]]);
    CHECK(![first.proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
    [first.proxy scrollViewDidScroll:nil];
    [second.proxy scrollViewDidScroll:nil];
    CHECK(stays->ticks == 2);
}

static void anNSProxyListenerIsHeldWeaklyToo(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    int deallocs = 0;
    FDForwardingListener *proxyListener = [FDForwardingListener alloc];
    proxyListener->target = [FDRecorder newRecorderNamed:@"behind" log:nil];
    proxyListener->deallocs = &deallocs;
    FDRecorder *behind = proxyListener->target;
    [multicaster addListener:proxyListener];
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK(behind->ticks == 1);
    [behind retain];
    [proxyListener release];
    CHECK(deallocs == 1);
    CHECK([multicaster.listeners count] == 0);
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK(behind->ticks == 1);
    [behind release];
}

static void aListenerOutlivesItsMulticaster(void) {
    FDRecorder *listener = [FDRecorder newRecorderNamed:@"outlives" log:nil];
    {
        NSAutoreleasePool *pool = [NSAutoreleasePool new];
        FDDelegateMulticaster *multicaster = fd_table_multicaster();
        [multicaster addListener:listener];
        [multicaster.proxy scrollViewDidScroll:nil];
        [pool release]; // the multicaster goes first
    }
    int deallocs = fd_deallocs;
    [listener release]; // its watch is gone: nothing touches the freed multicaster
    CHECK(fd_deallocs == deallocs + 1);
}

static void aRemovedListenerIsNoLongerWatched(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDRecorder *listener = [FDRecorder newRecorderNamed:@"removed" log:nil];
    [multicaster addListener:listener];
    CHECK([multicaster removeListener:listener]);
    [listener release];
    FDRecorder *other = [FDRecorder recorderNamed:@"other" log:nil];
    [multicaster addListener:other]; // may reuse the freed listener's address
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK(other->ticks == 1);
    CHECK([multicaster.listeners isEqual:[NSArray arrayWithObject:other]]);
}

/// Sends a scroll tick through `multicaster`'s proxy from its own -dealloc (its teardown makes
/// the host scroll), counting the ticks that reach it.
@interface FDDyingScroller : NSObject <FDTableDelegate> {
@public
    FDDelegateMulticaster *multicaster;
    int *ticksAfterDeallocBegan;
    BOOL deallocating;
}
@end

@implementation FDDyingScroller
- (void)scrollViewDidScroll:(id)scrollView {
    if (deallocating) (*ticksAfterDeallocBegan)++;
}
- (void)dealloc {
    deallocating = YES;
    [multicaster.proxy scrollViewDidScroll:nil];
    [super dealloc];
}
@end

// The Apple branch (libobjc2's leg) loads each listener's __weak reference per call: from the
// moment its deallocation begins, a listener reads nil, and a call made from its own -dealloc
// does not reach it. GCC's runtime counts it dead only from -[NSObject dealloc], after its
// -dealloc body (the DocC article says so), so there the tick reaches it.
static void aListenerIsNotCalledFromItsOwnDealloc(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    int ticks = 0;
    FDDyingScroller *scroller = [FDDyingScroller new];
    scroller->multicaster = multicaster;
    scroller->ticksAfterDeallocBegan = &ticks;
    FDRecorder *other = [FDRecorder recorderNamed:@"other" log:nil];
    [multicaster addListener:scroller];
    [multicaster addListener:other];
    [scroller release];
#if defined(GNUSTEP_RUNTIME)
    CHECK(ticks == 0);
#else
    CHECK(ticks == 1);
#endif
    CHECK(other->ticks == 1);
    CHECK([multicaster.listeners isEqual:[NSArray arrayWithObject:other]]);
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(oneListenerDyingIsDroppedByEveryMulticaster);
    RUN(anNSProxyListenerIsHeldWeaklyToo);
    RUN(aListenerOutlivesItsMulticaster);
    RUN(aRemovedListenerIsNoLongerWatched);
    RUN(aListenerIsNotCalledFromItsOwnDealloc);
    [pool release];
    return fd_finish("ZeroingWeak");
}
