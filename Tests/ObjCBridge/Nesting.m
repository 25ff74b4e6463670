// Nested multicasters flatten: a multicaster whose listener is another multicaster's proxy
// (two SDKs calling installOnHost:key: on one slot) answers, at each call, what the inner one's
// live listeners answer, and sets a caching host's slot to nil and back when that changes. Two
// SDKs installing on one slot, in either order, and uninstalling in either order, leave the
// slot behaving as a single multicaster would.
#include "FDTestSupport.h"

@protocol FDNestDelegate <NSObject>
@optional
- (void)ping:(id)sender;
- (double)heightFor:(id)table row:(id)row;
- (void)decide:(id)sender handler:(id)handler;
@end

static NSDictionary *fd_nest_methods(void) {
    const char *o = @encode(id);
    return [NSDictionary dictionaryWithObjectsAndKeys:
        fd_encoding(@encode(void), o, NULL), @"ping:",
        fd_encoding(@encode(double), o, o, NULL), @"heightFor:row:",
        fd_encoding(@encode(void), o, "@?", NULL), @"decide:handler:", nil];
}

static FDDelegateMulticaster *fd_nest_multicaster(void) {
    return [[[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDNestDelegate) methods:fd_nest_methods()]
        autorelease];
}

/// Caches, as UIKit does, what its delegate answers when the delegate is set.
@interface FDCachingHost : NSObject {
@public
    id delegate;
    int sets;
    BOOL answersPing, answersHeight;
}
- (id)delegate;
- (void)setDelegate:(id)delegate;
@end

@implementation FDCachingHost
- (id)delegate {
    return delegate;
}
- (void)setDelegate:(id)newDelegate {
    delegate = newDelegate;
    sets++;
    answersPing = [delegate respondsToSelector:@selector(ping:)];
    answersHeight = [delegate respondsToSelector:@selector(heightFor:row:)];
}
- (void)ping {
    if (answersPing) [delegate ping:self];
}
- (double)height {
    return answersHeight ? [delegate heightFor:self row:nil] : -1; // -1: the host's own
}
@end

/// Logs its pings ("<name>"); answers heightFor:row: with `height` when `answersHeight`.
@interface FDNestListener : NSObject <FDNestDelegate> {
@public
    NSString *name;
    NSMutableArray *log;
}
+ (instancetype)named:(NSString *)name log:(NSMutableArray *)log;
@end

@implementation FDNestListener
+ (instancetype)named:(NSString *)name log:(NSMutableArray *)log {
    FDNestListener *listener = [[self new] autorelease];
    listener->name = [name copy];
    listener->log = [log retain];
    return listener;
}
- (void)ping:(id)sender {
    [log addObject:name];
}
- (void)dealloc {
    [name release];
    [log release];
    [super dealloc];
}
@end

@interface FDNestHeight : NSObject <FDNestDelegate> {
@public
    double height;
}
+ (instancetype)height:(double)height;
@end

@implementation FDNestHeight
+ (instancetype)height:(double)height {
    FDNestHeight *listener = [[self new] autorelease];
    listener->height = height;
    return listener;
}
- (double)heightFor:(id)table row:(id)row {
    return height;
}
@end

static NSArray *fd_names(NSString *first, ...) {
    NSMutableArray *names = [NSMutableArray array];
    va_list more;
    va_start(more, first);
    for (NSString *name = first; name; name = va_arg(more, NSString *)) [names addObject:name];
    va_end(more);
    return names;
}

// The issue's first case: the outer multicaster answers ping: once the inner one gains a ping:
// listener, and the host, which cached NO, is told.
static void theOuterAnswersWhatTheInnerGains(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDCachingHost *host = [[FDCachingHost new] autorelease];
    FDDelegateMulticaster *inner = fd_nest_multicaster(), *outer = fd_nest_multicaster();
    [inner installOnHost:host key:@"delegate"];
    [outer installOnHost:host key:@"delegate"];
    CHECK(host->delegate == outer.proxy);
    CHECK([outer.listeners isEqual:[NSArray arrayWithObject:inner.proxy]]);
    CHECK(!host->answersPing && ![outer.proxy respondsToSelector:@selector(ping:)]);
    int sets = host->sets;
    [inner addListener:[FDNestListener named:@"inner" log:log]];
    CHECK([outer.proxy respondsToSelector:@selector(ping:)]);
    CHECK(host->sets == sets + 2 && host->delegate == outer.proxy); // nil and back
    CHECK(host->answersPing);
    [host ping];
    CHECK([log isEqual:fd_names(@"inner", nil)]);
    [outer uninstall];
    [inner uninstall];
    CHECK(host->delegate == nil);
}

// The issue's second case: once the inner one loses its heightFor:row: listener, the outer one
// asks its next listener (44) instead of answering 0 for the inner one.
static void theOuterAsksItsNextListenerWhenTheInnerLosesItsOwn(void) {
    FDCachingHost *host = [[FDCachingHost new] autorelease];
    FDDelegateMulticaster *inner = fd_nest_multicaster(), *outer = fd_nest_multicaster();
    FDNestHeight *ten = [FDNestHeight height:10], *fortyFour = [FDNestHeight height:44];
    [inner addListener:ten];
    [inner installOnHost:host key:@"delegate"];
    [outer installOnHost:host key:@"delegate"];
    [outer addListener:fortyFour];
    CHECK([host height] == 10);
    [inner removeListener:ten];
    CHECK([host height] == 44);
    CHECK([outer.proxy heightFor:nil row:nil] == 44);
    [outer removeListener:fortyFour]; // nobody answers: the host is told, and keeps its own
    CHECK(!host->answersHeight && [host height] == -1);
    [inner addListener:ten];
    CHECK(host->answersHeight && [host height] == 10);
    [outer uninstall];
    [inner uninstall];
}

// A change made inside the inner multicaster during a call through the outer one reaches the
// host after the outermost call, once.
static void aChangeDuringANestedCallIsToldAfterTheOutermostCall(void);

@interface FDNestAdder : NSObject <FDNestDelegate> {
@public
    FDDelegateMulticaster *into;
    id added;
    FDCachingHost *host;
    int setsDuringCall;
}
@end

@implementation FDNestAdder
- (void)ping:(id)sender {
    int before = host->sets;
    [into addListener:added];
    setsDuringCall = host->sets - before;
}
@end

static void aChangeDuringANestedCallIsToldAfterTheOutermostCall(void) {
    FDCachingHost *host = [[FDCachingHost new] autorelease];
    FDDelegateMulticaster *inner = fd_nest_multicaster(), *outer = fd_nest_multicaster();
    FDNestAdder *adder = [[FDNestAdder new] autorelease];
    adder->into = inner;
    adder->added = [FDNestHeight height:7];
    adder->host = host;
    [inner addListener:adder];
    [inner installOnHost:host key:@"delegate"];
    [outer installOnHost:host key:@"delegate"];
    CHECK(!host->answersHeight);
    int sets = host->sets;
    [host ping];
    CHECK(adder->setsDuringCall == 0);
    CHECK(host->sets == sets + 2);
    CHECK(host->answersHeight && [host height] == 7);
    [outer uninstall];
    [inner uninstall];
}

// Three deep: a change at the innermost multicaster reaches the host through two others.
static void threeDeepFlattens(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDCachingHost *host = [[FDCachingHost new] autorelease];
    FDDelegateMulticaster *a = fd_nest_multicaster(), *b = fd_nest_multicaster(), *c = fd_nest_multicaster();
    [a installOnHost:host key:@"delegate"];
    [b installOnHost:host key:@"delegate"];
    [c installOnHost:host key:@"delegate"];
    [c addListener:[FDNestHeight height:3]];
    CHECK(!host->answersPing && [host height] == 3);
    FDNestListener *deep = [FDNestListener named:@"a" log:log];
    [a addListener:deep];
    CHECK(host->answersPing);
    [b addListener:[FDNestListener named:@"b" log:log]];
    [host ping];
    CHECK([log isEqual:fd_names(@"a", @"b", nil)]);
    [a insertListener:[FDNestHeight height:1] atIndex:0];
    CHECK([host height] == 1);
    [a removeListener:deep];
    [log removeAllObjects];
    [host ping];
    CHECK([log isEqual:fd_names(@"b", nil)]);
    [c uninstall];
    [b uninstall];
    [a uninstall];
    CHECK(host->delegate == nil);
}

// A cycle (a multicaster listening, through others, to its own proxy) is refused.
static void aCycleIsRefused(void) {
    FDDelegateMulticaster *a = fd_nest_multicaster(), *b = fd_nest_multicaster();
    [b addListener:a.proxy];
    BOOL raised = NO;
    @try {
        [a addListener:b.proxy];
    } @catch (NSException *exception) {
        raised = [[exception name] isEqual:NSInvalidArgumentException];
    }
    CHECK(raised);
    CHECK([a.listeners count] == 0);
    CHECK(![a.proxy respondsToSelector:@selector(ping:)]);
}

// Two SDKs on one slot: `first` installs, then `second`; `firstOut` uninstalls, then the other.
// At each step the slot answers as one multicaster with the remaining listeners would: the
// app's delegate first, then the SDKs' listeners in the order they installed.
static void twoSDKs(BOOL firstUninstallsFirst) {
    NSMutableArray *log = [NSMutableArray array];
    FDCachingHost *host = [[FDCachingHost new] autorelease];
    FDNestListener *app = [FDNestListener named:@"app" log:log];
    [host setDelegate:app];
    FDDelegateMulticaster *first = fd_nest_multicaster(), *second = fd_nest_multicaster();
    [first addListener:[FDNestListener named:@"first" log:log]];
    [first addListener:[FDNestHeight height:11]];
    [second addListener:[FDNestListener named:@"second" log:log]];
    [first installOnHost:host key:@"delegate"];
    [second installOnHost:host key:@"delegate"];
    [host ping];
    CHECK([log isEqual:fd_names(@"app", @"first", @"second", nil)]);
    CHECK([host height] == 11);
    FDDelegateMulticaster *out = firstUninstallsFirst ? first : second;
    FDDelegateMulticaster *stays = firstUninstallsFirst ? second : first;
    [out uninstall];
    [log removeAllObjects];
    [host ping];
    CHECK([log isEqual:fd_names(@"app", firstUninstallsFirst ? @"second" : @"first", nil)]);
    // What only `first` answered is gone with it, and the caching host was told.
    CHECK([host height] == (firstUninstallsFirst ? -1 : 11));
    CHECK(host->delegate == stays.proxy);
    // The one left still flattens and reassigns as a single multicaster.
    [stays addListener:[FDNestHeight height:5]];
    CHECK([host height] == (firstUninstallsFirst ? 5 : 11));
    [stays uninstall];
    CHECK(host->delegate == app);
    [log removeAllObjects];
    [host ping];
    CHECK([log isEqual:fd_names(@"app", nil)]);
    // The uninstalled one's listeners are no longer reached from the slot.
    CHECK([host height] == -1 || !host->answersHeight);
}

static void twoSDKsUninstallingInInstallOrder(void) {
    twoSDKs(YES);
}

static void twoSDKsUninstallingInReverseOrder(void) {
    twoSDKs(NO);
}

// Without an app delegate, the first SDK out leaves the other with no trace of it.
static void twoSDKsWithoutAnAppDelegate(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDCachingHost *host = [[FDCachingHost new] autorelease];
    FDDelegateMulticaster *first = fd_nest_multicaster(), *second = fd_nest_multicaster();
    [first addListener:[FDNestListener named:@"first" log:log]];
    [first installOnHost:host key:@"delegate"];
    [second installOnHost:host key:@"delegate"];
    CHECK(host->answersPing);
    [first uninstall];
    CHECK([second.listeners count] == 0);
    CHECK(host->delegate == second.proxy && !host->answersPing);
    [second uninstall];
    CHECK(host->delegate == nil);
}

// A handler method reaches the first answering listener once, through the nesting.
@interface FDNestDecider : NSObject <FDNestDelegate> {
@public
    int decisions;
}
@end

@implementation FDNestDecider
- (void)decide:(id)sender handler:(id)handler {
    decisions++;
}
@end

static void aForwardedFirstAnswerGoesPastAnInnerWithoutAnswer(void) {
    FDDelegateMulticaster *inner = fd_nest_multicaster(), *outer = fd_nest_multicaster();
    FDNestDecider *innerDecider = [[FDNestDecider new] autorelease];
    FDNestDecider *outerDecider = [[FDNestDecider new] autorelease];
    [outer addListener:inner.proxy];
    [outer addListener:outerDecider];
    [outer.proxy decide:nil handler:nil];
    CHECK(innerDecider->decisions == 0 && outerDecider->decisions == 1);
    [inner addListener:innerDecider];
    [outer.proxy decide:nil handler:nil];
    CHECK(innerDecider->decisions == 1 && outerDecider->decisions == 1);
}

// The inner multicaster goes (its SDK let it go) while the outer one holds its proxy: what the
// outer one answers changes, and the host is told.
static void anInnerMulticasterThatGoesIsAChange(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDCachingHost *host = [[FDCachingHost new] autorelease];
    FDDelegateMulticaster *outer = fd_nest_multicaster();
    FDNestHeight *height = [FDNestHeight height:9];
    id innerProxy;
    {
        NSAutoreleasePool *pool = [NSAutoreleasePool new];
        FDDelegateMulticaster *inner =
            [[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDNestDelegate) methods:fd_nest_methods()];
        [inner addListener:[FDNestListener named:@"inner" log:log]];
        [inner addListener:height];
        innerProxy = [inner.proxy retain]; // someone keeps the proxy: only the multicaster goes
        [outer addListener:innerProxy];
        [outer installOnHost:host key:@"delegate"];
        CHECK(host->answersPing && [host height] == 9);
        [inner release];
        [pool release];
    }
    CHECK(!host->answersPing && !host->answersHeight);
    CHECK(![outer.proxy respondsToSelector:@selector(ping:)]);
    [outer addListener:[FDNestHeight height:4]];
    CHECK([host height] == 4);
    [outer uninstall];
    [innerProxy release];
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(theOuterAnswersWhatTheInnerGains);
    RUN(theOuterAsksItsNextListenerWhenTheInnerLosesItsOwn);
    RUN(aChangeDuringANestedCallIsToldAfterTheOutermostCall);
    RUN(threeDeepFlattens);
    RUN(aCycleIsRefused);
    RUN(twoSDKsUninstallingInInstallOrder);
    RUN(twoSDKsUninstallingInReverseOrder);
    RUN(twoSDKsWithoutAnAppDelegate);
    RUN(aForwardedFirstAnswerGoesPastAnInnerWithoutAnswer);
    RUN(anInnerMulticasterThatGoesIsAChange);
    [pool release];
    return fd_finish("Nesting");
}
