// The slot's original delegate is held weakly (GCC's runtime: watched and zeroed as a listener
// is): when it dies before uninstall, uninstall gives the slot nil, a multicaster installed over
// this one gets nil in its place, and selectors outside the protocol are no longer answered.
// Installing over a delegate only the slot owned lets it die (on GCC's runtime inside the set),
// and the host is told: its cached answers never name the dead delegate.
#include "FDTestSupport.h"

static int fd_app_deallocs;

/// The app's delegate: answers scrolls and the row height (8), and a private selector.
@interface FDLifetimeApp : FDRecorder
- (int)_privateThing:(id)sender;
@end

@implementation FDLifetimeApp
- (double)tableView:(id)tableView heightForRowAtIndexPath:(id)indexPath {
    return 8;
}
- (int)_privateThing:(id)sender {
    return 17;
}
- (void)dealloc {
    fd_app_deallocs++;
    [super dealloc];
}
@end

/// Caches what its delegate answers when set. `retains`: the slot owns its delegate (the old
/// one released last, as a retaining setter does); else assign.
@interface FDLifetimeHost : NSObject {
@public
    id delegate;
    BOOL retains;
    int sets;
    BOOL answersScroll, answersHeight;
}
- (id)delegate;
- (void)setDelegate:(id)delegate;
@end

@implementation FDLifetimeHost
- (id)delegate {
    return delegate;
}
- (void)setDelegate:(id)newDelegate {
    id old = delegate;
    delegate = retains ? [newDelegate retain] : newDelegate;
    sets++;
    answersScroll = [delegate respondsToSelector:@selector(scrollViewDidScroll:)];
    answersHeight = [delegate respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)];
    if (retains) [old release];
}
- (double)height {
    return answersHeight ? [delegate tableView:self heightForRowAtIndexPath:nil] : -1; // -1: the host's own
}
- (void)dealloc {
    if (retains) [delegate release];
    [super dealloc];
}
@end

static void anOriginalThatDiedIsNilOnUninstall(void) {
    FDLifetimeHost *host = [[FDLifetimeHost new] autorelease];
    FDLifetimeApp *app = (FDLifetimeApp *)[FDLifetimeApp newRecorderNamed:@"app" log:nil];
    [host setDelegate:app];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster installOnHost:host key:@"delegate"];
    CHECK([multicaster.proxy respondsToSelector:@selector(_privateThing:)]);
    CHECK(host->answersHeight && [host height] == 8);
    int deallocs = fd_app_deallocs;
    [app release];
    CHECK(fd_app_deallocs == deallocs + 1);
    CHECK(![multicaster.proxy respondsToSelector:@selector(_privateThing:)]);
    CHECK(![multicaster.proxy respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)]);
    CHECK(!host->answersHeight && [host height] == -1); // told, as of a listener's death
    [multicaster uninstall];
    CHECK(host->delegate == nil);
}

// Two SDKs: the app's delegate dies, then the lower one uninstalls: the upper one takes nil in
// its place, not the dead delegate.
static void anOriginalThatDiedIsNotSplicedIntoAnother(void) {
    FDLifetimeHost *host = [[FDLifetimeHost new] autorelease];
    FDLifetimeApp *app = (FDLifetimeApp *)[FDLifetimeApp newRecorderNamed:@"app" log:nil];
    [host setDelegate:app];
    FDDelegateMulticaster *lower = fd_table_multicaster(), *upper = fd_table_multicaster();
    NSMutableArray *log = [NSMutableArray array];
    FDRecorder *listener = [FDRecorder recorderNamed:@"upper" log:log];
    [upper addListener:listener];
    [lower installOnHost:host key:@"delegate"];
    [upper installOnHost:host key:@"delegate"];
    [app release];
    [lower uninstall];
    CHECK([upper.listeners isEqual:[NSArray arrayWithObject:listener]]);
    CHECK(![upper.proxy respondsToSelector:@selector(_privateThing:)]);
    CHECK(host->delegate == upper.proxy && host->answersScroll && !host->answersHeight);
    [upper uninstall];
    CHECK(host->delegate == nil);
}

// The slot owned its delegate alone: installing lets it go (listeners and the original are
// held weakly), and the host, told, caches what the multicaster's own listeners answer.
static void installingOverADelegateOnlyTheSlotOwns(void) {
    FDLifetimeHost *host = [[FDLifetimeHost new] autorelease];
    host->retains = YES;
    FDLifetimeApp *app = (FDLifetimeApp *)[FDLifetimeApp newRecorderNamed:@"app" log:nil];
    [host setDelegate:app];
    int deallocs = fd_app_deallocs;
    [app release]; // the slot's hold is the only one
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    NSMutableArray *log = [NSMutableArray array];
    [multicaster addListener:[FDRecorder recorderNamed:@"sdk" log:log]];
    {
        NSAutoreleasePool *pool = [NSAutoreleasePool new];
        [multicaster installOnHost:host key:@"delegate"];
        [pool release];
    }
    CHECK(fd_app_deallocs == deallocs + 1);
    CHECK(host->delegate == multicaster.proxy);
    CHECK(host->answersScroll && !host->answersHeight && [host height] == -1);
    CHECK([multicaster.listeners count] == 1);
    CHECK(![multicaster.proxy respondsToSelector:@selector(_privateThing:)]);
    [multicaster uninstall];
    CHECK(host->delegate == nil);
    // What to do instead: keep a strong reference to the delegate while the multicaster is installed.
    FDLifetimeApp *kept = (FDLifetimeApp *)[FDLifetimeApp newRecorderNamed:@"kept" log:nil];
    [host setDelegate:kept];
    [multicaster installOnHost:host key:@"delegate"];
    CHECK(host->answersHeight && [host height] == 8);
    [multicaster uninstall];
    CHECK(host->delegate == kept);
    [kept release]; // the slot's hold remains
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(anOriginalThatDiedIsNilOnUninstall);
    RUN(anOriginalThatDiedIsNotSplicedIntoAnother);
    RUN(installingOverADelegateOnlyTheSlotOwns);
    [pool release];
    return fd_finish("OriginalLifetime");
}
