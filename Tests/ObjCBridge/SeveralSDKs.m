// Two SDKs on one slot with different protocols (a UIScrollViewDelegate-like multicaster and a
// UITableViewDelegate-like one), in every install and uninstall order, and an SDK installing
// again where it already is (viewWillAppear code), at every depth: the slot answers as one
// multicaster with the app's delegate and the remaining SDKs' listeners would, each once.
#include "FDTestSupport.h"

@protocol FDWideDelegate <NSObject>
@optional
- (void)ping:(id)sender;
- (double)heightFor:(id)table row:(id)row;
- (void)select:(id)table row:(id)row;
@end

/// The scroll-like protocol, a part of the table-like one.
@protocol FDNarrowDelegate <NSObject>
@optional
- (void)ping:(id)sender;
@end

static FDDelegateMulticaster *fd_narrow_multicaster(void) {
    NSDictionary *methods =
        [NSDictionary dictionaryWithObjectsAndKeys:fd_encoding(@encode(void), @encode(id), NULL), @"ping:", nil];
    return [[[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDNarrowDelegate) methods:methods] autorelease];
}

// The table-like protocol: ping:, heightFor:row: and select:row:.
static FDDelegateMulticaster *fd_wide_multicaster(void) {
    const char *o = @encode(id);
    NSDictionary *methods = [NSDictionary dictionaryWithObjectsAndKeys:
        fd_encoding(@encode(void), o, NULL), @"ping:",
        fd_encoding(@encode(double), o, o, NULL), @"heightFor:row:",
        fd_encoding(@encode(void), o, o, NULL), @"select:row:", nil];
    return [[[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDWideDelegate) methods:methods] autorelease];
}

/// Caches, as UIKit does, what its delegate answers when the delegate is set (assign).
@interface FDWideHost : NSObject {
@public
    id delegate;
    int sets;
    BOOL answersPing, answersHeight, answersSelect;
}
- (id)delegate;
- (void)setDelegate:(id)delegate;
@end

@implementation FDWideHost
- (id)delegate {
    return delegate;
}
- (void)setDelegate:(id)newDelegate {
    delegate = newDelegate;
    sets++;
    answersPing = [delegate respondsToSelector:@selector(ping:)];
    answersHeight = [delegate respondsToSelector:@selector(heightFor:row:)];
    answersSelect = [delegate respondsToSelector:@selector(select:row:)];
}
- (void)ping {
    if (answersPing) [delegate ping:self];
}
- (double)height {
    return answersHeight ? [delegate heightFor:self row:nil] : -1; // -1: the host's own
}
- (void)select {
    if (answersSelect) [delegate select:self row:nil];
}
@end

/// Logs "<name>" for ping: and "<name>:select" for select:row:; the app's delegate also
/// answers heightFor:row: with 7.
@interface FDWidePinger : NSObject <FDWideDelegate> {
@public
    NSString *name;
    NSMutableArray *log;
}
+ (instancetype)named:(NSString *)name log:(NSMutableArray *)log;
@end

@implementation FDWidePinger
+ (instancetype)named:(NSString *)name log:(NSMutableArray *)log {
    FDWidePinger *pinger = [[self new] autorelease];
    pinger->name = [name copy];
    pinger->log = [log retain];
    return pinger;
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

@interface FDWideSelector : FDWidePinger
@end

@implementation FDWideSelector
- (void)select:(id)table row:(id)row {
    [log addObject:[name stringByAppendingString:@":select"]];
}
@end

@interface FDWideApp : FDWideSelector
@end

@implementation FDWideApp
- (double)heightFor:(id)table row:(id)row {
    return 7;
}
@end

/// An app delegate that answers only what the narrow protocol lacks.
@interface FDWideTableOnly : NSObject <FDWideDelegate>
@end

@implementation FDWideTableOnly
- (double)heightFor:(id)table row:(id)row {
    return 7;
}
- (void)select:(id)table row:(id)row {
}
@end

@interface FDWideHeight : NSObject <FDWideDelegate>
@end

@implementation FDWideHeight
- (double)heightFor:(id)table row:(id)row {
    return 5;
}
@end

static NSArray *fd_strings(NSString *first, ...) {
    NSMutableArray *strings = [NSMutableArray array];
    va_list more;
    va_start(more, first);
    for (NSString *string = first; string; string = va_arg(more, NSString *)) [strings addObject:string];
    va_end(more);
    return strings;
}

// What the host does now: each of its three calls, logged, the height appended.
static NSArray *fd_host_run(FDWideHost *host, NSMutableArray *log) {
    [log removeAllObjects];
    [host ping];
    [host select];
    [log addObject:[NSString stringWithFormat:@"%g", [host height]]];
    return [[log copy] autorelease];
}

// The narrow SDK ("n", a ping: listener) and the wide one ("w", ping: and select:row:) on a slot
// whose app delegate answers all three; `narrowFirst` installs first, `firstOut` uninstalls first.
static void twoProtocols(BOOL narrowFirst, BOOL firstOut) {
    NSMutableArray *log = [NSMutableArray array];
    FDWideHost *host = [[FDWideHost new] autorelease];
    FDWideApp *app = [FDWideApp named:@"app" log:log];
    [host setDelegate:app];
    FDDelegateMulticaster *narrow = fd_narrow_multicaster(), *wide = fd_wide_multicaster();
    [narrow addListener:[FDWidePinger named:@"n" log:log]];
    [wide addListener:[FDWideSelector named:@"w" log:log]];
    FDDelegateMulticaster *first = narrowFirst ? narrow : wide, *second = narrowFirst ? wide : narrow;
    NSString *firstName = narrowFirst ? @"n" : @"w", *secondName = narrowFirst ? @"w" : @"n";
    [first installOnHost:host key:@"delegate"];
    [second installOnHost:host key:@"delegate"];
    CHECK(host->delegate == second.proxy);
    CHECK(host->answersPing && host->answersHeight && host->answersSelect);
    NSArray *both = fd_strings(@"app", firstName, secondName, @"app:select", @"w:select", @"7", nil);
    CHECK([fd_host_run(host, log) isEqual:both]);
    FDDelegateMulticaster *out = firstOut ? first : second, *stays = firstOut ? second : first;
    [out uninstall];
    CHECK(host->delegate == stays.proxy);
    NSString *left = stays == narrow ? @"n" : @"w";
    NSArray *expected = stays == narrow ? fd_strings(@"app", @"n", @"app:select", @"7", nil)
                                        : fd_strings(@"app", @"w", @"app:select", @"w:select", @"7", nil);
    CHECK([fd_host_run(host, log) isEqual:expected]);
    CHECK([[stays.listeners lastObject] isKindOfClass:[FDWidePinger class]] &&
          [((FDWidePinger *)[stays.listeners lastObject])->name isEqual:left]);
    [stays uninstall];
    CHECK(host->delegate == app);
    CHECK([fd_host_run(host, log) isEqual:fd_strings(@"app", @"app:select", @"7", nil)]);
}

static void narrowThenWideNarrowOutFirst(void) {
    twoProtocols(YES, YES);
}

static void narrowThenWideWideOutFirst(void) {
    twoProtocols(YES, NO);
}

static void wideThenNarrowWideOutFirst(void) {
    twoProtocols(NO, YES);
}

static void wideThenNarrowNarrowOutFirst(void) {
    twoProtocols(NO, NO);
}

// The wide multicaster over the narrow one answers what the narrow one's original answers; when
// that original dies (the narrow one's own answers unchanged), the wide one re-asks the host.
static void theOuterReasksWhenTheInnersOriginalDies(void) {
    FDWideHost *host = [[FDWideHost new] autorelease];
    FDWideTableOnly *app = [FDWideTableOnly new]; // only this reference: released below
    [host setDelegate:app];
    FDDelegateMulticaster *narrow = fd_narrow_multicaster(), *wide = fd_wide_multicaster();
    [narrow installOnHost:host key:@"delegate"];
    [wide installOnHost:host key:@"delegate"];
    CHECK(host->answersHeight && [host height] == 7);
    int sets = host->sets;
    [app release];
    CHECK(host->sets == sets + 2);
    CHECK(!host->answersHeight && !host->answersSelect && [host height] == -1);
    [wide uninstall];
    [narrow uninstall];
    CHECK(host->delegate == nil);
}

// The narrow multicaster over the wide one: what the wide one answers outside the narrow one's
// table changes, and the narrow one, whose own answers did not, re-asks the host.
static void theOuterReasksWhenTheInnerChangesOutsideItsTable(void) {
    FDWideHost *host = [[FDWideHost new] autorelease];
    FDDelegateMulticaster *narrow = fd_narrow_multicaster(), *wide = fd_wide_multicaster();
    [wide installOnHost:host key:@"delegate"];
    [narrow installOnHost:host key:@"delegate"];
    CHECK(!host->answersHeight);
    FDWideHeight *height = [[FDWideHeight new] autorelease];
    [wide addListener:height];
    CHECK(host->answersHeight && [host height] == 5);
    [wide removeListener:height];
    CHECK(!host->answersHeight && [host height] == -1);
    [narrow uninstall];
    [wide uninstall];
}

// `count` SDKs of alternating protocols install on one slot; the one at `position` (0: the
// first, the deepest) installs again. Nothing changes: each listener hears each message once.
static void reinstallAt(int count, int position) {
    NSMutableArray *log = [NSMutableArray array];
    FDWideHost *host = [[FDWideHost new] autorelease];
    [host setDelegate:[FDWideApp named:@"app" log:log]];
    NSMutableArray *sdks = [NSMutableArray array];
    NSMutableArray *pings = [NSMutableArray arrayWithObject:@"app"];
    for (int i = 0; i < count; i++) {
        FDDelegateMulticaster *sdk = i % 2 ? fd_narrow_multicaster() : fd_wide_multicaster();
        NSString *name = [NSString stringWithFormat:@"sdk%d", i];
        [sdk addListener:[FDWidePinger named:name log:log]];
        [sdk installOnHost:host key:@"delegate"];
        [sdks addObject:sdk];
        [pings addObject:name];
    }
    NSMutableArray *expected = [[pings mutableCopy] autorelease];
    [expected addObjectsFromArray:fd_strings(@"app:select", @"7", nil)];
    CHECK([fd_host_run(host, log) isEqual:expected]);
    id slot = host->delegate;
    int sets = host->sets;
    FDDelegateMulticaster *again = [sdks objectAtIndex:position];
    NSArray *listeners = again.listeners;
    [again installOnHost:host key:@"delegate"];
    CHECK(host->delegate == slot && host->sets == sets);
    CHECK([again.listeners isEqual:listeners]);
    CHECK([fd_host_run(host, log) isEqual:expected]);
    // Uninstalling from the top leaves the app's delegate, heard once.
    for (NSInteger i = count - 1; i >= 0; i--) [[sdks objectAtIndex:i] uninstall];
    CHECK([fd_host_run(host, log) isEqual:fd_strings(@"app", @"app:select", @"7", nil)]);
}

static void reinstallingTheLowerOfTwo(void) {
    reinstallAt(2, 0);
}

static void reinstallingTheUpperOfTwo(void) {
    reinstallAt(2, 1);
}

static void reinstallingEachOfThree(void) {
    for (int position = 0; position < 3; position++) reinstallAt(3, position);
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(narrowThenWideNarrowOutFirst);
    RUN(narrowThenWideWideOutFirst);
    RUN(wideThenNarrowWideOutFirst);
    RUN(wideThenNarrowNarrowOutFirst);
    RUN(theOuterReasksWhenTheInnersOriginalDies);
    RUN(theOuterReasksWhenTheInnerChangesOutsideItsTable);
    RUN(reinstallingTheLowerOfTwo);
    RUN(reinstallingTheUpperOfTwo);
    RUN(reinstallingEachOfThree);
    [pool release];
    return fd_finish("SeveralSDKs");
}
