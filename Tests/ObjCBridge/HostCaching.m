// Installation on a UIKit-like host that caches respondsToSelector: when its delegate is set:
// the original delegate becomes the first listener, the slot is reassigned when the answered
// methods change (after the outermost forwarded call), listeners released while the host
// cached YES, selectors outside the protocol, uninstall, and the host keeping the multicaster.
#include "FDTestSupport.h"

static int fd_table_view_deallocs;

/// Caches, as UITableView does, which methods its delegate answers when the delegate is set;
/// holds the delegate weakly (unretained, as `assign`).
@interface FDFakeTableView : NSObject {
@public
    id delegate;
    int delegateSets;
    BOOL answersScroll, answersHeight, answersSelect;
}
- (id)delegate;
- (void)setDelegate:(id)delegate;
- (void)scroll;
- (double)rowHeight;
- (void)select;
@end

@implementation FDFakeTableView
- (id)delegate {
    return delegate;
}
- (void)setDelegate:(id)newDelegate {
    delegate = newDelegate;
    delegateSets++;
    answersScroll = [delegate respondsToSelector:@selector(scrollViewDidScroll:)];
    answersHeight = [delegate respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)];
    answersSelect = [delegate respondsToSelector:@selector(tableView:didSelectRowAtIndexPath:)];
}
- (void)scroll {
    if (answersScroll) [delegate scrollViewDidScroll:self];
}
- (double)rowHeight {
    return answersHeight ? [delegate tableView:self heightForRowAtIndexPath:nil] : -1; // -1: the host's default
}
- (void)select {
    if (answersSelect) [delegate tableView:self didSelectRowAtIndexPath:nil];
}
- (void)dealloc {
    fd_table_view_deallocs++;
    [super dealloc];
}
@end

@interface FDHeight : NSObject <FDTableDelegate> {
@public
    double height;
}
@end

@implementation FDHeight
- (double)tableView:(id)tableView heightForRowAtIndexPath:(id)indexPath {
    return height;
}
@end

/// The app's own delegate, with a private method the framework may call.
@interface FDOriginal : FDRecorder
- (int)_privateTableViewThing:(id)sender;
@end

@implementation FDOriginal
- (int)_privateTableViewThing:(id)sender {
    return 17;
}
@end

/// On scroll, adds `added` to the multicaster (a listener that answers the row height).
@interface FDAdder : NSObject <FDTableDelegate> {
@public
    FDDelegateMulticaster *multicaster;
    id added;
    FDFakeTableView *host;
    int setsDuringCall;
}
@end

@implementation FDAdder
- (void)scrollViewDidScroll:(id)scrollView {
    int before = host->delegateSets;
    [multicaster addListener:added];
    setsDuringCall = host->delegateSets - before;
}
@end

static void installMakesTheCurrentDelegateTheFirstListener(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDFakeTableView *table = [[FDFakeTableView new] autorelease];
    FDOriginal *original = (FDOriginal *)[FDOriginal recorderNamed:@"original" log:log];
    FDRecorder *listener = [FDRecorder recorderNamed:@"listener" log:log];
    [table setDelegate:original];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster addListener:listener];
    [multicaster installOnHost:table key:@"delegate"];
    CHECK(table->delegate == multicaster.proxy);
    CHECK([multicaster.listeners isEqual:([NSArray arrayWithObjects:original, listener, nil])]);
    [table scroll];
    CHECK([log isEqual:([NSArray arrayWithObjects:@"original:scrollViewDidScroll:", @"listener:scrollViewDidScroll:", nil])]);
    // A selector outside the protocol reaches the original delegate, which answers it.
    CHECK([table->delegate respondsToSelector:@selector(_privateTableViewThing:)]);
    CHECK([table->delegate _privateTableViewThing:nil] == 17);
    CHECK(![table->delegate respondsToSelector:@selector(_unknownPrivateSelector:)]);
    [multicaster uninstall];
    CHECK(table->delegate == original);
    [log removeAllObjects];
    [table scroll];
    CHECK([log isEqual:[NSArray arrayWithObject:@"original:scrollViewDidScroll:"]]);
}

static void theHostAsksAgainWhenTheAnsweredMethodsChange(void) {
    FDFakeTableView *table = [[FDFakeTableView new] autorelease];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster installOnHost:table key:@"delegate"];
    CHECK(!table->answersHeight);
    CHECK([table rowHeight] == -1);
    int sets = table->delegateSets;
    FDHeight *height = [[FDHeight new] autorelease];
    height->height = 52;
    [multicaster addListener:height];
    CHECK(table->delegateSets == sets + 2); // nil, then the proxy
    CHECK(table->delegate == multicaster.proxy);
    CHECK(table->answersHeight);
    CHECK([table rowHeight] == 52);
    // A listener that changes nothing the host sees: no reassignment.
    FDHeight *second = [[FDHeight new] autorelease];
    [multicaster addListener:second];
    CHECK(table->delegateSets == sets + 2);
    [multicaster removeListener:second];
    CHECK(table->delegateSets == sets + 2);
    [multicaster removeListener:height];
    CHECK(table->delegateSets == sets + 4);
    CHECK(!table->answersHeight);
    [multicaster uninstall];
}

static void aChangeDuringAForwardedCallReassignsAfterTheOutermostCall(void) {
    FDFakeTableView *table = [[FDFakeTableView new] autorelease];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDAdder *adder = [[FDAdder new] autorelease];
    FDHeight *height = [[FDHeight new] autorelease];
    height->height = 30;
    adder->multicaster = multicaster;
    adder->added = height;
    adder->host = table;
    [multicaster addListener:adder];
    [multicaster installOnHost:table key:@"delegate"];
    CHECK(!table->answersHeight);
    int sets = table->delegateSets;
    [table scroll];
    CHECK(adder->setsDuringCall == 0);
    CHECK(table->delegateSets == sets + 2);
    CHECK(table->answersHeight);
    CHECK([table rowHeight] == 30);
    [multicaster uninstall];
}

static void aListenerReleasedWhileTheHostCachedYes(void) {
    FDFakeTableView *table = [[FDFakeTableView new] autorelease];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDHeight *height = [FDHeight new];
    height->height = 70;
    FDRecorder *scroller = [FDRecorder newRecorderNamed:@"s" log:[NSMutableArray array]];
    [multicaster addListener:height];
    [multicaster addListener:scroller];
    [multicaster installOnHost:table key:@"delegate"];
    CHECK(table->answersHeight && table->answersScroll);
    CHECK([table rowHeight] == 70);
    int deallocs = fd_deallocs;
    int sets = table->delegateSets;
    [height release]; // its death is a change: the host is told at once
    CHECK(table->delegateSets == sets + 2);
    CHECK(!table->answersHeight && table->answersScroll);
    CHECK([table rowHeight] == -1); // the host's own answer, not the proxy's zero
    [scroller release];
    CHECK(fd_deallocs == deallocs + 1); // FDRecorder counts its deallocations
    CHECK([multicaster.listeners count] == 0);
    CHECK(table->delegateSets == sets + 4);
    CHECK(!table->answersHeight && !table->answersScroll);
    [multicaster uninstall];
}

/// On scroll, releases `victim` (its last reference): a death during a call.
@interface FDKiller : NSObject <FDTableDelegate> {
@public
    id victim;
    FDFakeTableView *host;
    int setsDuringCall;
}
@end

@implementation FDKiller
- (void)scrollViewDidScroll:(id)scrollView {
    int before = host->delegateSets;
    [victim release];
    victim = nil;
    setsDuringCall = host->delegateSets - before;
}
@end

static void aListenerDyingDuringACallIsToldAfterTheOutermostCall(void) {
    FDFakeTableView *table = [[FDFakeTableView new] autorelease];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDKiller *killer = [[FDKiller new] autorelease];
    FDHeight *height = [FDHeight new];
    height->height = 12;
    killer->victim = height;
    killer->host = table;
    [multicaster addListener:killer];
    [multicaster addListener:height];
    [multicaster installOnHost:table key:@"delegate"];
    CHECK(table->answersHeight);
    int sets = table->delegateSets;
    [table scroll];
    CHECK(killer->setsDuringCall == 0);
    CHECK(table->delegateSets == sets + 2);
    CHECK(!table->answersHeight && [table rowHeight] == -1);
    [multicaster uninstall];
}

/// A slot key-value coding can read but not write (no setter, no instance variable of its name).
@interface FDReadOnlySlotHost : FDFakeTableView
- (id)fixedDelegate;
@end

@implementation FDReadOnlySlotHost
- (id)fixedDelegate {
    return delegate;
}
@end

static void aFailedInstallLeavesNoTrace(void) {
    FDReadOnlySlotHost *table = [[FDReadOnlySlotHost new] autorelease];
    FDOriginal *original = (FDOriginal *)[FDOriginal recorderNamed:@"original" log:nil];
    [table setDelegate:original];
    id proxy;
    {
        NSAutoreleasePool *inner = [NSAutoreleasePool new];
        FDDelegateMulticaster *multicaster =
            [[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDTableDelegate) methods:fd_table_methods()];
        proxy = [multicaster.proxy retain];
        BOOL raised = NO;
        @try {
            [multicaster installOnHost:table key:@"fixedDelegate"];
        } @catch (NSException *exception) {
            raised = YES;
        }
        CHECK(raised);
        CHECK([multicaster.listeners count] == 0); // the original was not made a listener
        CHECK(![proxy respondsToSelector:@selector(_privateTableViewThing:)]); // nor answers for it
        CHECK(table->delegate == original);
        [multicaster addListener:original];
        CHECK([proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
        [multicaster release];
        [inner release];
    }
    // The host does not keep it: the last release let it go, and its proxy answers nothing.
    CHECK(![proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
    [proxy release];
    // After a failure, an install on a writable key works.
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    @try {
        [multicaster installOnHost:table key:@"fixedDelegate"];
    } @catch (NSException *exception) {
    }
    [multicaster uninstall]; // not installed: nothing
    CHECK(table->delegate == original);
    [multicaster installOnHost:table key:@"delegate"];
    CHECK(table->delegate == multicaster.proxy);
    CHECK([multicaster.listeners isEqual:[NSArray arrayWithObject:original]]);
    [multicaster uninstall];
    CHECK(table->delegate == original);
}

static void aFailedInstallKeepsAListenerThatWasOne(void) {
    FDReadOnlySlotHost *table = [[FDReadOnlySlotHost new] autorelease];
    FDOriginal *original = (FDOriginal *)[FDOriginal recorderNamed:@"original" log:nil];
    [table setDelegate:original];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster addListener:original];
    @try {
        [multicaster installOnHost:table key:@"fixedDelegate"];
    } @catch (NSException *exception) {
    }
    CHECK([multicaster.listeners isEqual:[NSArray arrayWithObject:original]]);
}

static void theHostKeepsTheMulticasterAlive(void) {
    FDFakeTableView *table = [FDFakeTableView new];
    NSMutableArray *log = [NSMutableArray array];
    FDRecorder *listener = [FDRecorder recorderNamed:@"kept" log:log];
    id proxy;
    {
        NSAutoreleasePool *inner = [NSAutoreleasePool new];
        FDDelegateMulticaster *multicaster = [[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDTableDelegate)
                                                                                    methods:fd_table_methods()];
        [multicaster addListener:listener];
        [multicaster installOnHost:table key:@"delegate"];
#if defined(GNUSTEP_RUNTIME)
        // The Apple branch: the host holds the multicaster as an associated object.
        CHECK(objc_getAssociatedObject(table, multicaster) == multicaster);
#endif
        proxy = [multicaster.proxy retain];
        [multicaster release]; // only the host holds it now
        [inner release];
    }
    [table scroll];
    CHECK([log count] == 1);
    CHECK([proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
    int deallocs = fd_table_view_deallocs;
    [table release]; // the host goes, and lets the multicaster go
    CHECK(fd_table_view_deallocs == deallocs + 1);
    // The proxy outlived its multicaster: it answers nothing and never crashes.
    CHECK(![proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
    [proxy scrollViewDidScroll:nil];
    CHECK([proxy tableView:nil heightForRowAtIndexPath:nil] == 0);
    FDRect rect = [proxy tableView:nil rectForSection:nil];
    CHECK(rect.width == 0);
    CHECK([log count] == 1);
    [proxy release];
}

static void aSlotSomeoneElseSetIsLeftAlone(void) {
    FDFakeTableView *table = [[FDFakeTableView new] autorelease];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDOriginal *original = (FDOriginal *)[FDOriginal recorderNamed:@"original" log:nil];
    FDRecorder *later = [FDRecorder recorderNamed:@"later" log:nil];
    [table setDelegate:original];
    [multicaster installOnHost:table key:@"delegate"];
    [table setDelegate:later]; // the app replaces the delegate
    FDHeight *height = [[FDHeight new] autorelease];
    [multicaster addListener:height]; // answers change: no reassignment over `later`
    CHECK(table->delegate == later);
    [multicaster uninstall];
    CHECK(table->delegate == later);
}

static void uninstallWithoutAnOriginalLeavesTheSlotEmpty(void) {
    FDFakeTableView *table = [[FDFakeTableView new] autorelease];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster installOnHost:table key:@"delegate"];
    CHECK(table->delegate == multicaster.proxy);
    // Installing again (on another host) uninstalls first.
    FDFakeTableView *other = [[FDFakeTableView new] autorelease];
    [multicaster installOnHost:other key:@"delegate"];
    CHECK(table->delegate == nil);
    CHECK(other->delegate == multicaster.proxy);
    [multicaster uninstall];
    CHECK(other->delegate == nil);
    [multicaster uninstall]; // twice: nothing
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(installMakesTheCurrentDelegateTheFirstListener);
    RUN(theHostAsksAgainWhenTheAnsweredMethodsChange);
    RUN(aChangeDuringAForwardedCallReassignsAfterTheOutermostCall);
    RUN(aListenerReleasedWhileTheHostCachedYes);
    RUN(aListenerDyingDuringACallIsToldAfterTheOutermostCall);
    RUN(aFailedInstallLeavesNoTrace);
    RUN(aFailedInstallKeepsAListenerThatWasOne);
    RUN(theHostKeepsTheMulticasterAlive);
    RUN(aSlotSomeoneElseSetIsLeftAlone);
    RUN(uninstallWithoutAnOriginalLeavesTheSlotEmpty);
    [pool release];
    return fd_finish("HostCaching");
}
