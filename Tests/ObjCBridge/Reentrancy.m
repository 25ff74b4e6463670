// Mutation during a call: a removal takes effect at once (also for the rest of the running
// call, typed or forwarded), an addition from the next call; a listener that dies during a
// call is not called; nested calls; an exception thrown by a listener leaves the multicaster
// usable; a multicaster released during its own call finishes that call safely.
#include "FDTestSupport.h"

/// On scroll (typed path) and on tableView:a:b:c: (forwarded), runs `action`, then records.
@interface FDActor : FDRecorder {
@public
    void (*action)(id actor);
    FDDelegateMulticaster *multicaster;
    id other;
    int depth;
}
@end

@implementation FDActor
- (void)scrollViewDidScroll:(id)scrollView {
    if (action) action(self);
    [super scrollViewDidScroll:scrollView];
}
- (void)tableView:(id)tableView a:(id)a b:(id)b c:(id)c {
    if (action) action(self);
    [self note:_cmd];
}
@end

/// A slot that counts how often it is set.
@interface FDCountingHost : NSObject {
@public
    id delegate;
    int sets;
}
@end

@implementation FDCountingHost
- (id)delegate {
    return delegate;
}
- (void)setDelegate:(id)newDelegate {
    delegate = newDelegate;
    sets++;
}
@end

@interface FDHeightOnly : NSObject <FDTableDelegate>
@end

@implementation FDHeightOnly
- (double)tableView:(id)tableView heightForRowAtIndexPath:(id)indexPath {
    return 1;
}
@end

static void remove_other(id listener) {
    FDActor *actor = listener;
    [actor->multicaster removeListener:actor->other];
}

static void remove_self(id listener) {
    FDActor *actor = listener;
    [actor->multicaster removeListener:actor];
}

static void add_other(id listener) {
    FDActor *actor = listener;
    [actor->multicaster addListener:actor->other];
}

static void release_other(id listener) {
    FDActor *actor = listener;
    [actor->other release];
    actor->other = nil;
}

static void release_multicaster(id listener) {
    FDActor *actor = listener;
    [actor->multicaster release]; // the last reference
    actor->multicaster = nil;
}

static void send_again(id listener) {
    FDActor *actor = listener;
    if (actor->depth++ == 0) [actor->multicaster.proxy scrollViewDidScroll:nil];
}

static void throw_once(id listener) {
    FDActor *actor = listener;
    if (actor->depth++ == 0) [NSException raise:@"FDTestException" format:@"thrown by a listener"];
}

static FDActor *fd_actor(NSString *name, NSMutableArray *log, FDDelegateMulticaster *multicaster,
                         void (*action)(id)) {
    FDActor *actor = (FDActor *)[FDActor recorderNamed:name log:log];
    actor->multicaster = multicaster;
    actor->action = action;
    return actor;
}

static void aRemovalTakesEffectAtOnceOnBothPaths(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDActor *remover = fd_actor(@"remover", log, multicaster, remove_other);
    FDRecorder *removed = [FDRecorder recorderNamed:@"removed" log:log];
    FDActor *after = fd_actor(@"after", log, multicaster, NULL);
    remover->other = removed;
    [multicaster addListener:remover];
    [multicaster addListener:removed];
    [multicaster addListener:after];
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK([log isEqual:([NSArray arrayWithObjects:@"remover:scrollViewDidScroll:", @"after:scrollViewDidScroll:", nil])]);
    // Forwarded: the removed listener (an FDActor this time) misses the rest of the call.
    [log removeAllObjects];
    FDActor *removedActor = fd_actor(@"removed", log, multicaster, NULL);
    remover->other = removedActor;
    [multicaster insertListener:removedActor atIndex:1];
    [multicaster.proxy tableView:nil a:nil b:nil c:nil];
    CHECK([log isEqual:([NSArray arrayWithObjects:@"remover:tableView:a:b:c:", @"after:tableView:a:b:c:", nil])]);
    CHECK([multicaster.listeners isEqual:([NSArray arrayWithObjects:remover, after, nil])]);
}

static void breakingStopsAForwardedVoidCallAtTheFirstResponder(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster addListener:fd_actor(@"first", log, multicaster, NULL)];
    [multicaster addListener:fd_actor(@"second", log, multicaster, NULL)];
    multicaster.breaking = YES;
    [multicaster.proxy tableView:nil a:nil b:nil c:nil];
    CHECK([log isEqual:[NSArray arrayWithObject:@"first:tableView:a:b:c:"]]);
    multicaster.breaking = NO;
    [multicaster.proxy tableView:nil a:nil b:nil c:nil];
    CHECK([log count] == 3);
}

static void aListenerMayRemoveItself(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDActor *once = fd_actor(@"once", log, multicaster, remove_self);
    FDActor *after = fd_actor(@"after", log, multicaster, NULL);
    [multicaster addListener:once];
    [multicaster addListener:after];
    [multicaster.proxy scrollViewDidScroll:nil];
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK([log isEqual:([NSArray arrayWithObjects:@"once:scrollViewDidScroll:", @"after:scrollViewDidScroll:",
                                                  @"after:scrollViewDidScroll:", nil])]);
}

static void anAdditionTakesEffectFromTheNextCall(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDActor *adder = fd_actor(@"adder", log, multicaster, add_other);
    adder->other = [FDRecorder recorderNamed:@"added" log:log];
    [multicaster addListener:adder];
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK([log isEqual:[NSArray arrayWithObject:@"adder:scrollViewDidScroll:"]]);
    [log removeAllObjects];
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK([log isEqual:([NSArray arrayWithObjects:@"adder:scrollViewDidScroll:", @"added:scrollViewDidScroll:", nil])]);
    // Forwarded too.
    [log removeAllObjects];
    FDActor *forwardedAdder = fd_actor(@"fadder", log, multicaster, add_other);
    forwardedAdder->other = fd_actor(@"fadded", log, multicaster, NULL);
    [multicaster removeListener:adder];
    [multicaster addListener:forwardedAdder];
    [multicaster.proxy tableView:nil a:nil b:nil c:nil];
    CHECK([log isEqual:[NSArray arrayWithObject:@"fadder:tableView:a:b:c:"]]);
    [log removeAllObjects];
    [multicaster.proxy tableView:nil a:nil b:nil c:nil];
    CHECK([log isEqual:([NSArray arrayWithObjects:@"fadder:tableView:a:b:c:", @"fadded:tableView:a:b:c:", nil])]);
}

static void aListenerThatDiesDuringACallIsNotCalled(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDActor *killer = fd_actor(@"killer", log, multicaster, release_other);
    FDRecorder *victim = [FDRecorder newRecorderNamed:@"victim" log:log];
    killer->other = victim;
    [multicaster addListener:killer];
    [multicaster addListener:victim];
    int deallocs = fd_deallocs;
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK(fd_deallocs == deallocs + 1);
    CHECK([log isEqual:[NSArray arrayWithObject:@"killer:scrollViewDidScroll:"]]);
    CHECK([multicaster.listeners isEqual:[NSArray arrayWithObject:killer]]);
    // Forwarded.
    [log removeAllObjects];
    FDActor *forwardedVictim = (FDActor *)[FDActor newRecorderNamed:@"fvictim" log:log];
    killer->other = forwardedVictim;
    [multicaster addListener:forwardedVictim];
    [multicaster.proxy tableView:nil a:nil b:nil c:nil];
    CHECK([log isEqual:[NSArray arrayWithObject:@"killer:tableView:a:b:c:"]]);
}

static void aMulticasterReleasedDuringItsOwnCallFinishesTheCall(void) {
    NSMutableArray *log = [NSMutableArray array];
    for (int forwarded = 0; forwarded <= 1; forwarded++) {
        FDDelegateMulticaster *multicaster =
            [[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDTableDelegate) methods:fd_table_methods()];
        FDActor *releaser = fd_actor(@"releaser", log, multicaster, release_multicaster);
        FDActor *after = fd_actor(@"after", log, multicaster, NULL);
        [multicaster addListener:releaser];
        [multicaster addListener:after];
        id proxy = [multicaster.proxy retain];
        [log removeAllObjects];
        if (forwarded) {
            [proxy tableView:nil a:nil b:nil c:nil];
            CHECK([log isEqual:([NSArray arrayWithObjects:@"releaser:tableView:a:b:c:", @"after:tableView:a:b:c:", nil])]);
        } else {
            [proxy scrollViewDidScroll:nil];
            CHECK([log isEqual:([NSArray arrayWithObjects:@"releaser:scrollViewDidScroll:", @"after:scrollViewDidScroll:", nil])]);
        }
        // The proxy outlives the multicaster: it answers nothing, and never crashes.
        CHECK(![proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
        [proxy scrollViewDidScroll:nil];
        [proxy tableView:nil a:nil b:nil c:nil];
        CHECK([log count] == 2);
        [proxy release];
    }
}

static void aMulticasterNeverInitializedDeallocates(void) {
    [[FDDelegateMulticaster alloc] release];
    CHECK(YES);
}

static void nestedCallsReachEveryoneInOrder(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDActor *nester = fd_actor(@"nester", log, multicaster, send_again);
    [multicaster addListener:nester];
    [multicaster addListener:[FDRecorder recorderNamed:@"b" log:log]];
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK([log isEqual:([NSArray arrayWithObjects:@"nester:scrollViewDidScroll:", @"b:scrollViewDidScroll:",
                                                  @"nester:scrollViewDidScroll:", @"b:scrollViewDidScroll:", nil])]);
}

static void anExceptionFromAListenerLeavesTheMulticasterUsable(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDActor *thrower = fd_actor(@"thrower", log, multicaster, throw_once);
    [multicaster addListener:thrower];
    FDCountingHost *host = [[FDCountingHost new] autorelease];
    [multicaster installOnHost:host key:@"delegate"];
    BOOL caught = NO;
    @try {
        [multicaster.proxy tableView:nil a:nil b:nil c:nil];
    } @catch (NSException *exception) {
        caught = [[exception name] isEqual:@"FDTestException"];
    }
    CHECK(caught);
    // The typed path too.
    thrower->depth = 0;
    caught = NO;
    @try {
        [multicaster.proxy scrollViewDidScroll:nil];
    } @catch (NSException *exception) {
        caught = [[exception name] isEqual:@"FDTestException"];
    }
    CHECK(caught);
    // Both dispatches were left: a change of answers reassigns the slot at once.
    int sets = host->sets;
    [multicaster addListener:[[FDHeightOnly new] autorelease]];
    CHECK(host->sets == sets + 2);
    [multicaster uninstall];
    // Out of the dispatch: a removal frees at once, and the host-facing answers are current.
    FDRecorder *later = [FDRecorder recorderNamed:@"later" log:log];
    [multicaster addListener:later];
    CHECK([multicaster removeListener:later]);
    [multicaster.proxy tableView:nil a:nil b:nil c:nil];
    CHECK([log isEqual:[NSArray arrayWithObject:@"thrower:tableView:a:b:c:"]]);
    // A listener that left during the call that threw is gone, and the host-facing answer is current.
    CHECK([multicaster removeListener:thrower]);
    CHECK(![multicaster.proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(aRemovalTakesEffectAtOnceOnBothPaths);
    RUN(aListenerMayRemoveItself);
    RUN(breakingStopsAForwardedVoidCallAtTheFirstResponder);
    RUN(anAdditionTakesEffectFromTheNextCall);
    RUN(aListenerThatDiesDuringACallIsNotCalled);
    RUN(nestedCallsReachEveryoneInOrder);
    RUN(aMulticasterNeverInitializedDeallocates);
    RUN(aMulticasterReleasedDuringItsOwnCallFinishesTheCall);
    RUN(anExceptionFromAListenerLeavesTheMulticasterUsable);
    [pool release];
    return fd_finish("Reentrancy");
}
