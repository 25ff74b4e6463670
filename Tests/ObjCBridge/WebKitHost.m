// A WebKit-like host whose decision handler must run exactly once: a method with a block
// argument (`@?`) reaches the first responding listener only, and with nobody to answer the
// block is called once with zero values. GCC has no blocks: the handler here is an object laid
// out as the Block ABI lays out every block (isa, flags, reserved, invoke, descriptor), which is
// all the multicaster reads.
#include "FDTestSupport.h"

#include <stddef.h>
#include <string.h>

enum { FD_TEST_BLOCK_HAS_SIGNATURE = 1 << 30 };

typedef struct FDTestBlockDescriptor {
    unsigned long reserved;
    unsigned long size;
    const char *signature;
} FDTestBlockDescriptor;

@interface FDTestBlock : NSObject {
@public
    int flags;
    int reserved;
    void *invoke;
    FDTestBlockDescriptor *descriptor;
    int calls;
    long policy;
}
@end

@implementation FDTestBlock
@end

static void decision_invoke(id handler, long policy) {
    FDTestBlock *block = handler;
    block->calls++;
    block->policy = policy;
}

static void point_invoke(id handler, FDPoint point) {
    FDTestBlock *block = handler;
    block->calls++;
    block->policy = point.x == 0 && point.y == 0 ? 0 : 1;
}

/// Every kind of parameter a handler may take, eight integer-class ones (more than x86-64's six
/// registers, so some travel on the stack) and a struct passed in memory.
static void mixed_invoke(id handler, int i, BOOL b, float f, double d, id o, FDPoint p, FDRect r, long l1, long l2,
                         long l3, unsigned char c) {
    FDTestBlock *block = handler;
    block->calls++;
    block->policy = (i == 0 && b == NO && f == 0 && d == 0 && o == nil && p.x == 0 && p.y == 0 && r.x == 0 && r.y == 0 &&
                     r.width == 0 && r.height == 0 && l1 == 0 && l2 == 0 && l3 == 0 && c == 0)
                        ? 0
                        : 1;
}

static FDTestBlockDescriptor decision_descriptor = {0, sizeof(void *) * 4, "v12@?0q8"};
static FDTestBlockDescriptor point_descriptor = {0, sizeof(void *) * 4, "v24@?0{FDPoint=dd}8"};
static FDTestBlockDescriptor mixed_descriptor = {0, sizeof(void *) * 4, NULL}; // made from @encode in main

static FDTestBlock *fd_block(FDTestBlockDescriptor *descriptor, int flags) {
    FDTestBlock *block = [[FDTestBlock new] autorelease];
    block->flags = flags;
    block->invoke = (void *)decision_invoke;
    block->descriptor = descriptor;
    block->policy = -1;
    return block;
}

/// What compiled code does for `handler(policy)`.
static void fd_call_handler(id handler, long policy) {
    FDTestBlock *block = handler;
    ((void (*)(id, long))block->invoke)(handler, policy);
}

@protocol FDNavigationDelegate <NSObject>
@optional
- (void)webView:(id)webView decidePolicyForNavigationAction:(id)action decisionHandler:(id)decisionHandler;
- (void)webView:(id)webView didFinishNavigation:(id)navigation;
- (void)webView:(id)webView didReceiveChallenge:(id)challenge completionHandler:(id)completionHandler;
@end

static NSDictionary *fd_navigation_methods(void) {
    return [NSDictionary dictionaryWithObjectsAndKeys:
        @"v48@0:8@16@24@?32", @"webView:decidePolicyForNavigationAction:decisionHandler:",
        @"v32@0:8@16@24", @"webView:didFinishNavigation:",
        @"v40@0:8@16@24@?32", @"webView:didReceiveChallenge:completionHandler:", nil];
}

/// Asks its navigation delegate, as WKWebView does, and checks that the handler ran once.
@interface FDFakeWebView : NSObject {
@public
    id navigationDelegate;
    BOOL answersDecide;
    int handlerViolations;
    long lastPolicy;
}
@end

@implementation FDFakeWebView
- (id)navigationDelegate {
    return navigationDelegate;
}
- (void)setNavigationDelegate:(id)delegate {
    navigationDelegate = delegate;
    answersDecide = [delegate respondsToSelector:@selector(webView:decidePolicyForNavigationAction:decisionHandler:)];
}
- (void)navigate {
    FDTestBlock *handler = fd_block(&decision_descriptor, FD_TEST_BLOCK_HAS_SIGNATURE);
    if (answersDecide) {
        [navigationDelegate webView:self decidePolicyForNavigationAction:@"action" decisionHandler:handler];
    } else {
        fd_call_handler(handler, 1); // allow
    }
    if (handler->calls != 1) handlerViolations++;
    lastPolicy = handler->policy;
    if ([navigationDelegate respondsToSelector:@selector(webView:didFinishNavigation:)]) {
        [navigationDelegate webView:self didFinishNavigation:@"navigation"];
    }
}
@end

@interface FDNavigator : NSObject <FDNavigationDelegate> {
@public
    long policy;
    int decisions;
    int finishes;
}
@end

@implementation FDNavigator
- (void)webView:(id)webView decidePolicyForNavigationAction:(id)action decisionHandler:(id)decisionHandler {
    decisions++;
    fd_call_handler(decisionHandler, policy);
}
- (void)webView:(id)webView didFinishNavigation:(id)navigation {
    finishes++;
}
@end

static FDDelegateMulticaster *fd_navigation_multicaster(void) {
    return [[[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDNavigationDelegate)
                                                    methods:fd_navigation_methods()] autorelease];
}

static void theTestBlockHasTheBlockLayout(void) {
    CHECK(ivar_getOffset(class_getInstanceVariable([FDTestBlock class], "flags")) == sizeof(void *));
    CHECK(ivar_getOffset(class_getInstanceVariable([FDTestBlock class], "invoke")) == 2 * sizeof(void *));
    CHECK(ivar_getOffset(class_getInstanceVariable([FDTestBlock class], "descriptor")) == 3 * sizeof(void *));
}

static void theDecisionReachesTheFirstListenerOnlyAndTheHandlerRunsOnce(void) {
    FDFakeWebView *webView = [[FDFakeWebView new] autorelease];
    FDDelegateMulticaster *multicaster = fd_navigation_multicaster();
    FDNavigator *first = [[FDNavigator new] autorelease];
    FDNavigator *second = [[FDNavigator new] autorelease];
    first->policy = 1;
    second->policy = 2;
    [multicaster addListener:first];
    [multicaster addListener:second];
    [multicaster installOnHost:webView key:@"navigationDelegate"];
    CHECK(webView->answersDecide);
    [webView navigate];
    [webView navigate];
    CHECK(webView->handlerViolations == 0);
    CHECK(webView->lastPolicy == 1);
    CHECK(first->decisions == 2 && second->decisions == 0);
    CHECK(first->finishes == 2 && second->finishes == 2); // void without a block: everyone
    [multicaster uninstall];
}

// The last decider's death is a change the host is told at once: WebKit-like, it then decides
// for itself (allow), instead of getting the proxy's zero (cancel) at its next navigation.
static void theLastDecidersDeathLetsTheHostDecide(void) {
    FDFakeWebView *webView = [[FDFakeWebView new] autorelease];
    FDDelegateMulticaster *multicaster = fd_navigation_multicaster();
    FDNavigator *navigator = [FDNavigator new];
    navigator->policy = 2;
    [multicaster addListener:navigator];
    [multicaster installOnHost:webView key:@"navigationDelegate"];
    CHECK(webView->answersDecide);
    [navigator release]; // dies: the host asks again at once
    CHECK(!webView->answersDecide);
    [webView navigate];
    CHECK(webView->handlerViolations == 0 && webView->lastPolicy == 1); // the host's own default
    [multicaster uninstall];
}

// GCC's runtime aborts on `@?` in a signature: the library spells a block `@` there. The Apple
// branch (libobjc2's leg) keeps `@?`, as Apple's NSMethodSignature takes it.
static void signaturesSpellTheBlockAsThisRuntimeTakesIt(void) {
    FDDelegateMulticaster *multicaster = fd_navigation_multicaster();
    NSMethodSignature *signature =
        [multicaster.proxy methodSignatureForSelector:@selector(webView:decidePolicyForNavigationAction:decisionHandler:)];
    CHECK(signature != nil);
    CHECK([signature numberOfArguments] == 5);
#if defined(GNUSTEP_RUNTIME)
    CHECK(strcmp([signature getArgumentTypeAtIndex:4], "@?") == 0);
#else
    CHECK(strcmp([signature getArgumentTypeAtIndex:4], "@") == 0);
#endif
}

static void aProxyOutlivingItsMulticasterStillCallsTheHandlerOnce(void) {
    FDFakeWebView *webView = [[FDFakeWebView new] autorelease];
    FDDelegateMulticaster *multicaster = [[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDNavigationDelegate)
                                                                                 methods:fd_navigation_methods()];
    FDNavigator *navigator = [[FDNavigator new] autorelease];
    navigator->policy = 1;
    [multicaster addListener:navigator];
    id proxy = [multicaster.proxy retain];
    [webView setNavigationDelegate:proxy]; // set by hand, not installed: the host caches YES
    [multicaster release];
    [webView navigate];
    CHECK(webView->handlerViolations == 0);
    CHECK(webView->lastPolicy == 0);
    CHECK(navigator->decisions == 0);
    [webView setNavigationDelegate:nil];
    [proxy release];
}

// An unanswered handler is called once, through its own signature, with exact zeros: integer,
// BOOL, float, double, object, struct (in registers and in memory) parameters.
static void anUnansweredHandlerGetsExactZerosThroughItsSignature(void) {
    FDDelegateMulticaster *multicaster = fd_navigation_multicaster();
    id proxy = multicaster.proxy;
    FDTestBlock *pointBlock = fd_block(&point_descriptor, FD_TEST_BLOCK_HAS_SIGNATURE);
    pointBlock->invoke = (void *)point_invoke;
    [proxy webView:nil didReceiveChallenge:nil completionHandler:pointBlock];
    CHECK(pointBlock->calls == 1 && pointBlock->policy == 0);
    FDTestBlock *mixed = fd_block(&mixed_descriptor, FD_TEST_BLOCK_HAS_SIGNATURE);
    mixed->invoke = (void *)mixed_invoke;
    [proxy webView:nil didReceiveChallenge:nil completionHandler:mixed];
    CHECK(mixed->calls == 1 && mixed->policy == 0);
#if __has_feature(blocks)
    // Real blocks (clang's runtime leg): their invoke functions, called through their signatures.
    __block int calls = 0, nonzero = 0;
    void (^handler)(int, BOOL, float, double, id, FDPoint, FDRect, long, long, long, unsigned char) =
        ^(int i, BOOL b, float f, double d, id o, FDPoint p, FDRect r, long l1, long l2, long l3, unsigned char c) {
            calls++;
            nonzero += !(i == 0 && b == NO && f == 0 && d == 0 && o == nil && p.x == 0 && p.y == 0 && r.x == 0 &&
                         r.y == 0 && r.width == 0 && r.height == 0 && l1 == 0 && l2 == 0 && l3 == 0 && c == 0);
        };
    [proxy webView:nil didReceiveChallenge:nil completionHandler:handler];
    CHECK(calls == 1 && nonzero == 0);
    __block long policy = -1;
    [proxy webView:nil decidePolicyForNavigationAction:nil decisionHandler:^(long decided) {
        calls++;
        policy = decided;
    }];
    CHECK(calls == 2 && policy == 0);
#endif
}

static void aBlockThatCannotBeCalledWithZerosIsNotCalled(void) {
    FDDelegateMulticaster *multicaster = fd_navigation_multicaster();
    id proxy = multicaster.proxy;
    FDTestBlock *unsigned_ = fd_block(&decision_descriptor, 0);
    [proxy webView:nil didReceiveChallenge:nil completionHandler:unsigned_];
    CHECK(unsigned_->calls == 0);  // no signature: its parameters are unknown
    static FDTestBlockDescriptor union_descriptor = {0, sizeof(void *) * 4, "v16@?0(FDEither=qd)8"};
    FDTestBlock *unionBlock = fd_block(&union_descriptor, FD_TEST_BLOCK_HAS_SIGNATURE);
    [proxy webView:nil didReceiveChallenge:nil completionHandler:unionBlock];
    CHECK(unionBlock->calls == 0); // a union parameter: how it travels is not in the encoding
    FDTestBlock *handler = fd_block(&decision_descriptor, FD_TEST_BLOCK_HAS_SIGNATURE);
    [proxy webView:nil didReceiveChallenge:nil completionHandler:handler];
    CHECK(handler->calls == 1 && handler->policy == 0);
    [proxy webView:nil decidePolicyForNavigationAction:nil decisionHandler:nil]; // a nil block: nothing to call
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    NSString *mixed = [NSString stringWithFormat:@"v@?%s%s%s%s%s%s%s%s%s%s%s", @encode(int), @encode(BOOL),
                                                 @encode(float), @encode(double), @encode(id), @encode(FDPoint),
                                                 @encode(FDRect), @encode(long), @encode(long), @encode(long),
                                                 @encode(unsigned char)];
    mixed_descriptor.signature = [mixed UTF8String];
    RUN(theTestBlockHasTheBlockLayout);
    RUN(theDecisionReachesTheFirstListenerOnlyAndTheHandlerRunsOnce);
    RUN(theLastDecidersDeathLetsTheHostDecide);
    RUN(signaturesSpellTheBlockAsThisRuntimeTakesIt);
    RUN(aProxyOutlivingItsMulticasterStillCallsTheHandlerOnce);
    RUN(anUnansweredHandlerGetsExactZerosThroughItsSignature);
    RUN(aBlockThatCannotBeCalledWithZerosIsNotCalled);
    [pool release];
    return fd_finish("WebKitHost");
}
