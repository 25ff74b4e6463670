// The proxy's class and answers, dispatch order and modes, first answers, listener vocabulary,
// signatures for every protocol method, and the selectors' own interning tag.
#include "FDTestSupport.h"
#include "cdt_intern.h"

#include <string.h>

/// Answers the result-returning methods with `value`-derived answers.
@interface FDAnswerer : NSObject <FDTableDelegate> {
@public
    double value;
    int calls;
}
@end

@implementation FDAnswerer
- (double)tableView:(id)tableView heightForRowAtIndexPath:(id)indexPath {
    calls++;
    return value;
}
- (BOOL)scrollViewShouldScrollToTop:(id)scrollView {
    calls++;
    return YES;
}
- (NSInteger)tableView:(id)tableView indentationLevelForRowAtIndexPath:(id)indexPath {
    calls++;
    return (NSInteger)value * 1000000000LL;
}
- (int)tableView:(id)tableView badgeForRowAtIndexPath:(id)indexPath {
    calls++;
    return -(int)value;
}
- (id)viewForZoomingInScrollView:(id)scrollView {
    calls++;
    return self;
}
@end

@protocol FDRequiredOnly <NSObject>
- (void)requiredPing:(id)sender;
- (int)requiredCount:(id)sender;
@end

/// Refines FDRequiredOnly, as UITableViewDelegate refines UIScrollViewDelegate.
@protocol FDRefined <FDRequiredOnly>
- (void)refinedPing:(id)sender;
@end

@interface FDPinger : NSObject <FDRefined> {
@public
    int pings;
}
@end

@implementation FDPinger
- (void)requiredPing:(id)sender {
    pings++;
}
- (int)requiredCount:(id)sender {
    return 41 + pings;
}
- (void)refinedPing:(id)sender {
    pings += 10;
}
@end

static void proxyIsAnNSObjectOfARuntimeClassAdoptingTheProtocol(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    id proxy = multicaster.proxy;
    CHECK(proxy != nil);
    CHECK([proxy isKindOfClass:[NSObject class]]);
    CHECK(![proxy isKindOfClass:[FDRecorder class]]);
    CHECK(![proxy isProxy]);
    CHECK([proxy conformsToProtocol:@protocol(FDTableDelegate)]);
    CHECK([proxy conformsToProtocol:@protocol(NSObject)]);
    CHECK(![proxy conformsToProtocol:@protocol(FDRequiredOnly)]);
    CHECK(strncmp(class_getName([proxy class]), "FDProxy_FDTableDelegate_", 24) == 0);
    // Adding a listener that is an FDRecorder does not make the proxy one.
    [multicaster addListener:[FDRecorder recorderNamed:@"a" log:[NSMutableArray array]]];
    CHECK(![proxy isKindOfClass:[FDRecorder class]]);
    CHECK([proxy respondsToSelector:@selector(isKindOfClass:)]);
}

static void respondsOnlyWhenSomeLiveListenerResponds(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    id proxy = multicaster.proxy;
    CHECK(![proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
    CHECK(![proxy respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)]);
    FDRecorder *recorder = [FDRecorder recorderNamed:@"a" log:[NSMutableArray array]];
    [multicaster addListener:recorder];
    CHECK([proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
    CHECK(![proxy respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)]);
    FDAnswerer *answerer = [[FDAnswerer new] autorelease];
    [multicaster addListener:answerer];
    CHECK([proxy respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)]);
    CHECK([multicaster removeListener:answerer]);
    CHECK(![proxy respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)]);
    CHECK(![multicaster removeListener:answerer]);
}

static void voidReachesEveryResponderInOrderOrTheFirstWhenBreaking(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDRecorder *a = [FDRecorder recorderNamed:@"a" log:log];
    FDRecorder *b = [FDRecorder recorderNamed:@"b" log:log];
    FDAnswerer *silent = [[FDAnswerer new] autorelease]; // answers no void method
    FDRecorder *c = [FDRecorder recorderNamed:@"c" log:log];
    [multicaster addListener:a];
    [multicaster addListener:silent];
    [multicaster addListener:b];
    [multicaster addListener:c];
    id proxy = multicaster.proxy;
    [proxy scrollViewDidScroll:nil];                          // typed path
    [proxy tableView:nil didSelectRowAtIndexPath:nil];        // typed path, two objects
    CHECK([log isEqual:([NSArray arrayWithObjects:@"a:scrollViewDidScroll:", @"b:scrollViewDidScroll:",
                                                  @"c:scrollViewDidScroll:", @"a:tableView:didSelectRowAtIndexPath:",
                                                  @"b:tableView:didSelectRowAtIndexPath:",
                                                  @"c:tableView:didSelectRowAtIndexPath:", nil])]);
    [log removeAllObjects];
    multicaster.breaking = YES;
    CHECK(multicaster.breaking);
    [proxy scrollViewDidScroll:nil];
    CHECK([log isEqual:[NSArray arrayWithObject:@"a:scrollViewDidScroll:"]]);
}

static void aResultIsTheFirstResponderAnswerOrZero(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    id proxy = multicaster.proxy;
    // Nobody: zero, NO, nil.
    CHECK([proxy tableView:nil heightForRowAtIndexPath:nil] == 0.0);
    CHECK([proxy scrollViewShouldScrollToTop:nil] == NO);
    CHECK([proxy viewForZoomingInScrollView:nil] == nil);
    CHECK([proxy tableView:nil indentationLevelForRowAtIndexPath:nil] == 0);
    [multicaster addListener:[FDRecorder recorderNamed:@"r" log:[NSMutableArray array]]];
    FDAnswerer *first = [[FDAnswerer new] autorelease];
    first->value = 44;
    FDAnswerer *second = [[FDAnswerer new] autorelease];
    second->value = 60;
    [multicaster addListener:first];
    [multicaster addListener:second];
    CHECK([proxy tableView:nil heightForRowAtIndexPath:nil] == 44.0);
    CHECK([proxy scrollViewShouldScrollToTop:nil] == YES);
    CHECK([proxy tableView:nil indentationLevelForRowAtIndexPath:nil] == 44000000000LL);
    CHECK([proxy tableView:nil badgeForRowAtIndexPath:nil] == -44);
    CHECK([proxy viewForZoomingInScrollView:nil] == first);
    CHECK(first->calls == 5);
    CHECK(second->calls == 0);
    [multicaster insertListener:second atIndex:0]; // already added: keeps its place
    CHECK([proxy tableView:nil heightForRowAtIndexPath:nil] == 44.0);
}

static void listenersKeepTheirPlaceAndInsertAtAnIndex(void) {
    NSMutableArray *log = [NSMutableArray array];
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDRecorder *a = [FDRecorder recorderNamed:@"a" log:log];
    FDRecorder *b = [FDRecorder recorderNamed:@"b" log:log];
    FDRecorder *c = [FDRecorder recorderNamed:@"c" log:log];
    FDRecorder *d = [FDRecorder recorderNamed:@"d" log:log];
    [multicaster addListener:a];
    [multicaster addListener:b];
    [multicaster addListener:a];
    CHECK([multicaster.listeners isEqual:([NSArray arrayWithObjects:a, b, nil])]);
    [multicaster insertListener:c atIndex:0];
    [multicaster insertListener:d atIndex:2];
    CHECK([multicaster.listeners isEqual:([NSArray arrayWithObjects:c, a, d, b, nil])]);
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK([log isEqual:([NSArray arrayWithObjects:@"c:scrollViewDidScroll:", @"a:scrollViewDidScroll:",
                                                  @"d:scrollViewDidScroll:", @"b:scrollViewDidScroll:", nil])]);
    CHECK([multicaster removeListener:a]);
    [multicaster insertListener:a atIndex:100];
    CHECK([multicaster.listeners isEqual:([NSArray arrayWithObjects:c, d, b, a, nil])]);
    // Many insertions at the front exhaust the gaps between sort keys and renumber them.
    NSMutableArray *expected = [NSMutableArray arrayWithArray:multicaster.listeners];
    for (int i = 0; i < 40; i++) {
        FDRecorder *front = [FDRecorder recorderNamed:[NSString stringWithFormat:@"f%d", i] log:log];
        [multicaster insertListener:front atIndex:1];
        [expected insertObject:front atIndex:1];
    }
    CHECK([multicaster.listeners isEqual:expected]);
    [log removeAllObjects];
    [multicaster.proxy scrollViewDidScroll:nil];
    CHECK([log count] == [expected count]);
    CHECK([[log objectAtIndex:1] isEqual:@"f39:scrollViewDidScroll:"]);
    CHECK([[log lastObject] isEqual:@"a:scrollViewDidScroll:"]);
}

static void everyProtocolMethodHasASignatureAndNoneIsUnrecognized(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    id proxy = multicaster.proxy;
    NSDictionary *methods = fd_table_methods();
    for (NSString *name in methods) {
        CHECK([proxy methodSignatureForSelector:NSSelectorFromString(name)] != nil);
    }
    // Forwarded methods with nobody to answer: zero results, no exception.
    FDRect rect = [proxy tableView:nil rectForSection:nil];
    CHECK(rect.x == 0 && rect.y == 0 && rect.width == 0 && rect.height == 0);
    FDPoint point = [proxy scrollView:nil anchorForView:nil];
    CHECK(point.x == 0 && point.y == 0);
    CHECK([proxy tableView:nil numberOfRowsInSection:3] == 0);
    [proxy tableView:nil a:nil b:nil c:nil];
    // Outside the protocol, with no original delegate: no signature, not answered.
    CHECK(![proxy respondsToSelector:@selector(_privateTableViewThing:)]);
    CHECK([proxy methodSignatureForSelector:@selector(_privateTableViewThing:)] == nil);
}

static void aProtocolsRequiredMethodsComeFromTheRuntime(void) {
    FDDelegateMulticaster *multicaster =
        [[[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDRequiredOnly)] autorelease];
    FDPinger *pinger = [[FDPinger new] autorelease];
    id proxy = multicaster.proxy;
    CHECK(![proxy respondsToSelector:@selector(requiredPing:)]);
    [multicaster addListener:pinger];
    CHECK([proxy respondsToSelector:@selector(requiredPing:)]);
    [proxy requiredPing:nil];
    [proxy requiredPing:nil];
    CHECK(pinger->pings == 2);
    CHECK([proxy requiredCount:nil] == 43);
    CHECK([proxy conformsToProtocol:@protocol(FDRequiredOnly)]);
}

// libobjc2, as Apple's runtime, lists a protocol's @optional methods: initWithProtocol: alone
// serves a UIKit-like protocol whose methods are all optional. GCC's runtime lists none.
static void aProtocolsOptionalMethodsComeFromTheRuntimeWhereItListsThem(void) {
    FDDelegateMulticaster *multicaster =
        [[[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDTableDelegate)] autorelease];
    id proxy = multicaster.proxy;
    FDAnswerer *answerer = [[FDAnswerer new] autorelease];
    answerer->value = 31;
    FDRecorder *recorder = [FDRecorder recorderNamed:@"optional" log:nil];
    [multicaster addListener:answerer];
    [multicaster addListener:recorder];
#if defined(GNUSTEP_RUNTIME)
    CHECK([proxy respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)]);
    CHECK([proxy respondsToSelector:@selector(scrollViewDidScroll:)]);
    CHECK([proxy tableView:nil heightForRowAtIndexPath:nil] == 31);
    [proxy scrollViewDidScroll:nil];
    CHECK(recorder->ticks == 1);
    CHECK([[proxy methodSignatureForSelector:@selector(tableView:rectForSection:)] methodReturnLength] ==
          sizeof(FDRect));
#else
    CHECK(![proxy respondsToSelector:@selector(tableView:heightForRowAtIndexPath:)]); // not listed here
#endif
    CHECK(![proxy respondsToSelector:@selector(tableView:badgeForRowAtIndexPath:)] ||
          [proxy tableView:nil badgeForRowAtIndexPath:nil] == -31);
}

static void commonShapesHaveTypedImplementationsTheRestIsForwarded(void) {
    Class proxyClass = [fd_table_multicaster().proxy class];
    const char *typed[] = {"scrollViewDidScroll:", "tableView:didSelectRowAtIndexPath:",
                           "tableView:willDisplayCell:forRowAtIndexPath:", "tableView:heightForRowAtIndexPath:",
                           "scrollViewShouldScrollToTop:", "tableView:indentationLevelForRowAtIndexPath:",
                           "tableView:badgeForRowAtIndexPath:", "viewForZoomingInScrollView:", "scrollView:didMoveTo:"};
    const char *forwarded[] = {"scrollViewWillEndDragging:withVelocity:targetContentOffset:", "scrollView:anchorForView:",
                               "tableView:rectForSection:", "tableView:a:b:c:", "tableView:numberOfRowsInSection:"};
    for (size_t i = 0; i < sizeof typed / sizeof *typed; i++) {
        CHECK(class_getInstanceMethod(proxyClass, sel_registerName(typed[i])) != NULL);
    }
    for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) {
        CHECK(class_getInstanceMethod(proxyClass, sel_registerName(forwarded[i])) == NULL);
    }
    // One class per protocol and method list.
    CHECK([fd_table_multicaster().proxy class] == proxyClass);
}

static void aRefinedProtocolBringsItsParentsMethodsButNotNSObjects(void) {
    FDDelegateMulticaster *multicaster =
        [[[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDRefined)] autorelease];
    FDPinger *pinger = [[FDPinger new] autorelease];
    [multicaster addListener:pinger];
    id proxy = multicaster.proxy;
    [proxy refinedPing:nil];
    [proxy requiredPing:nil];
    CHECK(pinger->pings == 11);
    CHECK([proxy conformsToProtocol:@protocol(FDRequiredOnly)]);
    // NSObject's own methods are the proxy's, not forwarded.
    CHECK([proxy respondsToSelector:@selector(description)]);
    CHECK([[proxy description] rangeOfString:@"FDDelegateMulticaster proxy"].location != NSNotFound);
    CHECK([proxy class] != [pinger class]);
}

static void misuseRaisesClearErrors(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    BOOL raised = NO;
    @try {
        [multicaster addListener:multicaster.proxy];
    } @catch (NSException *exception) {
        raised = [[exception name] isEqual:NSInvalidArgumentException];
    }
    CHECK(raised);
    raised = NO;
    @try {
        [multicaster addListener:nil];
    } @catch (NSException *exception) {
        raised = [[exception name] isEqual:NSInvalidArgumentException];
    }
    CHECK(raised);
    raised = NO;
    @try {
        [[[FDDelegateMulticaster alloc] init] release];
    } @catch (NSException *exception) {
        raised = [[exception name] isEqual:NSInvalidArgumentException];
    }
    CHECK(raised);
    raised = NO;
    @try {
        NSDictionary *bad = [NSDictionary dictionaryWithObject:@"" forKey:@"broken:"];
        [[[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDTableDelegate) methods:bad] release];
    } @catch (NSException *exception) {
        raised = [[exception name] isEqual:NSInvalidArgumentException];
    }
    CHECK(raised);
}

static void aSelectorIsInternedUnderATagOfItsOwn(void) {
    const char *name = "scrollViewDidScroll:";
    static const char swift_message_metadata; // what a Swift Message passes: its type's metadata
    uint32_t selector = 0, message = 0, again = 0;
    CHECK(cdt_intern_selector(name, strlen(name), &selector) == CDT_INTERN_OK);
    CHECK(cdt_intern(name, strlen(name), &swift_message_metadata, "Message<Double, Void>", &message) == CDT_INTERN_OK);
    CHECK(cdt_intern_selector(name, strlen(name), &again) == CDT_INTERN_OK);
    CHECK(selector != 0 && selector != message && selector == again);
    CHECK(strcmp(cdt_intern_signature_name(selector), "Objective-C selector") == 0);
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(proxyIsAnNSObjectOfARuntimeClassAdoptingTheProtocol);
    RUN(respondsOnlyWhenSomeLiveListenerResponds);
    RUN(voidReachesEveryResponderInOrderOrTheFirstWhenBreaking);
    RUN(aResultIsTheFirstResponderAnswerOrZero);
    RUN(listenersKeepTheirPlaceAndInsertAtAnIndex);
    RUN(everyProtocolMethodHasASignatureAndNoneIsUnrecognized);
    RUN(aProtocolsRequiredMethodsComeFromTheRuntime);
    RUN(aProtocolsOptionalMethodsComeFromTheRuntimeWhereItListsThem);
    RUN(commonShapesHaveTypedImplementationsTheRestIsForwarded);
    RUN(aRefinedProtocolBringsItsParentsMethodsButNotNSObjects);
    RUN(misuseRaisesClearErrors);
    RUN(aSelectorIsInternedUnderATagOfItsOwn);
    [pool release];
    return fd_finish("MulticasterBasics");
}
