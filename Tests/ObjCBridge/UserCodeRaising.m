// User code that raises where the multicaster calls it: a listener's or the original delegate's
// respondsToSelector: (addListener:, installOnHost:key:) and the host's setter (the nil-and-back
// reassignment, uninstall). The exception reaches the caller, and the multicaster is left as it
// was: no entry of the half-added listener (AddressSanitizer would see its freed record), no
// call to it, and the host still told of later changes.
#include "FDTestSupport.h"

/// Answers respondsToSelector: normally, but raises at its `raiseAt`th question (0: never):
/// the last of a table's, so that it answered YES for some methods before.
@interface FDRaisingResponder : FDRecorder {
@public
    NSUInteger questions, raiseAt;
}
@end

@implementation FDRaisingResponder
- (BOOL)respondsToSelector:(SEL)selector {
    if (raiseAt && ++questions == raiseAt) [NSException raise:@"FDTestException" format:@"respondsToSelector: raised"];
    return [super respondsToSelector:selector];
}
@end

static void fd_raise_at_last_question(FDRaisingResponder *responder) {
    responder->questions = 0;
    responder->raiseAt = [fd_table_methods() count];
}

/// A caching host (assign) whose setter raises once `raisesAfter` more sets have passed (-1: never).
@interface FDRaisingHost : NSObject {
@public
    id delegate;
    int sets, raisesAfter;
    BOOL answersScroll, answersHeight;
}
- (id)delegate;
- (void)setDelegate:(id)delegate;
@end

@implementation FDRaisingHost
- (instancetype)init {
    if ((self = [super init])) raisesAfter = -1;
    return self;
}
- (id)delegate {
    return delegate;
}
- (void)setDelegate:(id)newDelegate {
    if (raisesAfter >= 0 && raisesAfter-- == 0) [NSException raise:@"FDTestException" format:@"the setter raised"];
    delegate = newDelegate;
    sets++;
    answersScroll = [delegate respondsToSelector:@selector(scrollViewDidScroll:)];
    answersHeight = [delegate respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)];
}
- (void)scroll {
    if (answersScroll) [delegate scrollViewDidScroll:self];
}
@end

@interface FDRaisingHeight : NSObject <FDTableDelegate>
@end

@implementation FDRaisingHeight
- (double)tableView:(id)tableView heightForRowAtIndexPath:(id)indexPath {
    return 3;
}
@end

// Runs `body` in a pool of its own, so that whatever it autoreleased (a
// half-made record) is freed before the next call; YES if it raised FDTestException.
static BOOL fd_raised(void (*body)(id, id), id a, id b) {
    BOOL raised = NO;
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    @try {
        body(a, b);
    } @catch (NSException *exception) {
        raised = [[exception name] isEqual:@"FDTestException"];
    }
    [pool release];
    return raised;
}

static void add_listener(id multicaster, id listener) {
    [multicaster addListener:listener];
}

static void install(id multicaster, id host) {
    [multicaster installOnHost:host key:@"delegate"];
}

static void uninstall(id multicaster, id unused) {
    [multicaster uninstall];
}

static void aListenerWhoseRespondsToSelectorRaisesIsNotAdded(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDRecorder *before = [FDRecorder recorderNamed:@"before" log:log];
    [multicaster addListener:before];
    FDRaisingResponder *raiser = (FDRaisingResponder *)[FDRaisingResponder recorderNamed:@"raiser" log:log];
    fd_raise_at_last_question(raiser);
    CHECK(fd_raised(add_listener, multicaster, raiser));
    CHECK([multicaster.listeners isEqual:[NSArray arrayWithObject:before]]);
    [multicaster.proxy scrollViewDidScroll:nil];
    [multicaster.proxy tableView:nil didSelectRowAtIndexPath:nil];
    CHECK(([log isEqual:[NSArray arrayWithObjects:@"before:scrollViewDidScroll:",
                                                  @"before:tableView:didSelectRowAtIndexPath:", nil]]));
    // Once it answers, it is added as any listener, once.
    raiser->raiseAt = 0;
    [multicaster addListener:raiser];
    [log removeAllObjects];
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK(([log isEqual:[NSArray arrayWithObjects:@"before:scrollViewDidScroll:", @"raiser:scrollViewDidScroll:",
                                                  nil]]));
}

static void anOriginalWhoseRespondsToSelectorRaisesFailsTheInstall(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDRaisingHost *host = [[FDRaisingHost new] autorelease];
    FDRaisingResponder *original = (FDRaisingResponder *)[FDRaisingResponder recorderNamed:@"app" log:log];
    [host setDelegate:original];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster addListener:[FDRecorder recorderNamed:@"sdk" log:log]];
    fd_raise_at_last_question(original);
    CHECK(fd_raised(install, multicaster, host));
    CHECK(host->delegate == original);
    CHECK([multicaster.listeners count] == 1);
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK([log isEqual:[NSArray arrayWithObject:@"sdk:scrollViewDidScroll:"]]);
    [multicaster uninstall]; // not installed: the slot stays
    CHECK(host->delegate == original);
    original->raiseAt = 0;
    [multicaster installOnHost:host key:@"delegate"];
    [log removeAllObjects];
    [host scroll];
    CHECK(([log isEqual:[NSArray arrayWithObjects:@"app:scrollViewDidScroll:", @"sdk:scrollViewDidScroll:", nil]]));
    [multicaster uninstall];
    CHECK(host->delegate == original);
}

// The setter raises during the nil-and-back reassignment: the change's caller gets the
// exception, and the next change is told to the host as before.
static void aRaisingSetterLeavesTheHostToldOfLaterChanges(void) {
    FDRaisingHost *host = [[FDRaisingHost new] autorelease];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster installOnHost:host key:@"delegate"];
    CHECK(!host->answersScroll && !host->answersHeight);
    host->raisesAfter = 0;
    FDRaisingHeight *height = [[FDRaisingHeight new] autorelease];
    CHECK(fd_raised(add_listener, multicaster, height));
    CHECK([multicaster.listeners isEqual:[NSArray arrayWithObject:height]]); // added before the host was told
    int sets = host->sets;
    NSMutableArray *log = [NSMutableArray array];
    FDRecorder *scroller = [FDRecorder recorderNamed:@"scroller" log:log];
    [multicaster addListener:scroller];
    CHECK(host->sets == sets + 2 && host->delegate == multicaster.proxy);
    CHECK(host->answersScroll && host->answersHeight);
    [host scroll];
    CHECK([log isEqual:[NSArray arrayWithObject:@"scroller:scrollViewDidScroll:"]]);
    // A death is still told (the dead are purged and the host asks again).
    {
        NSAutoreleasePool *pool = [NSAutoreleasePool new];
        FDRecorder *dying = [FDRecorder newRecorderNamed:@"dying" log:nil];
        [multicaster removeListener:scroller];
        [multicaster addListener:dying];
        CHECK(host->answersScroll);
        [dying release];
        [pool release];
    }
    CHECK(!host->answersScroll);
    [multicaster uninstall];
    CHECK(host->delegate == nil);
}

// The setter raises during uninstall: the exception reaches the caller, and the host no longer
// keeps the multicaster.
static void aRaisingSetterDuringUninstallLetsTheMulticasterGo(void) {
    FDRaisingHost *host = [[FDRaisingHost new] autorelease];
    NSMutableArray *log = [NSMutableArray array];
    FDRecorder *listener = [FDRecorder recorderNamed:@"kept" log:log];
    id proxy;
    {
        NSAutoreleasePool *pool = [NSAutoreleasePool new];
        FDDelegateMulticaster *multicaster =
            [[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDTableDelegate) methods:fd_table_methods()];
        [multicaster addListener:listener];
        [multicaster installOnHost:host key:@"delegate"];
        proxy = [multicaster.proxy retain];
        host->raisesAfter = 0;
        CHECK(fd_raised(uninstall, multicaster, nil));
        [multicaster release];
        [pool release];
    }
    // The host is alive: had it kept the multicaster, the proxy would still answer.
    CHECK(![proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
    [proxy release];
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(aListenerWhoseRespondsToSelectorRaisesIsNotAdded);
    RUN(anOriginalWhoseRespondsToSelectorRaisesFailsTheInstall);
    RUN(aRaisingSetterLeavesTheHostToldOfLaterChanges);
    RUN(aRaisingSetterDuringUninstallLetsTheMulticasterGo);
    [pool release];
    return fd_finish("UserCodeRaising");
}
