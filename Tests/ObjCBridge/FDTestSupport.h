// What the Objective-C bridge's test programs share: checks that count, the UIKit-like
// protocol of the tests, listeners that record what reaches them, and type encodings spelled
// with @encode (GCC's runtime lists no @optional method, so the tests give them explicitly).
#ifndef FD_TEST_SUPPORT_H
#define FD_TEST_SUPPORT_H

#import <Foundation/Foundation.h>
#include <objc/runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FDDelegateMulticaster.h"

static int fd_checks;
static int fd_failures;

#define CHECK(condition)                                                                  \
    do {                                                                                  \
        fd_checks++;                                                                      \
        if (!(condition)) {                                                               \
            fd_failures++;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
        }                                                                                 \
    } while (0)

#define RUN(test)                                               \
    do {                                                        \
        NSAutoreleasePool *pool = [NSAutoreleasePool new];      \
        int before = fd_failures;                               \
        test();                                                 \
        [pool release];                                         \
        printf("  %s %s\n", fd_failures == before ? "ok  " : "FAIL", #test); \
    } while (0)

// GCC's runtime: GNUstep counts the live instances of every class (LeakSanitizer cannot tell
// the multicaster's objects from the runtime's own, which lsan.supp lets go there). Not in an
// optimized build (the benchmark): GNUstep declares its counters only without NDEBUG. libobjc2
// (the ARC leg, GNUSTEP_RUNTIME): LeakSanitizer runs with no suppression and sees every
// object, and Base's counters there miss some allocations (an object allocated through an
// overridden +allocWithZone: and released uninitialized counted -1).
#if !defined(NDEBUG) && !defined(GNUSTEP_RUNTIME)
#define FD_TEST_COUNTS_INSTANCES 1
#endif

#if FD_TEST_COUNTS_INSTANCES
// GNUstep counts the live instances of every class from here on.
__attribute__((constructor)) static void fd_count_instances(void) {
    GSDebugAllocationActive(YES);
}
#endif

/// Prints the summary, after checking that no multicaster, listener record or proxy outlived
/// the program's autorelease pools.
static inline int fd_finish(const char *program) {
    int live = 0;
#if FD_TEST_COUNTS_INSTANCES
    Class *classes = GSDebugAllocationClassList();
    for (int i = 0; classes && classes[i]; i++) {
        const char *name = class_getName(classes[i]);
        if (strcmp(name, "FDMulticasterImpl") && strcmp(name, "FDListener") && strncmp(name, "FDProxy_", 8)) continue;
        int count = GSDebugAllocationCount(classes[i]);
        if (count != 0) fprintf(stderr, "%s: %d live %s at the end\n", program, count, name);
        live += count;
    }
    free(classes);
#endif
    fd_checks++;
    if (live != 0) fd_failures++;
    printf("%s: %d checks, %d failed\n", program, fd_checks, fd_failures);
    return fd_failures == 0 ? 0 : 1;
}

typedef struct FDPoint {
    double x, y;
} FDPoint;

typedef struct FDRect {
    double x, y, width, height;
} FDRect;

/// A UIScrollViewDelegate / UITableViewDelegate look-alike: every method optional, as in UIKit.
@protocol FDTableDelegate <NSObject>
@optional
- (void)scrollViewDidScroll:(id)scrollView;
- (void)tableView:(id)tableView didSelectRowAtIndexPath:(id)indexPath;
- (void)tableView:(id)tableView willDisplayCell:(id)cell forRowAtIndexPath:(id)indexPath;
- (double)tableView:(id)tableView heightForRowAtIndexPath:(id)indexPath;
- (BOOL)scrollViewShouldScrollToTop:(id)scrollView;
- (NSInteger)tableView:(id)tableView indentationLevelForRowAtIndexPath:(id)indexPath;
- (int)tableView:(id)tableView badgeForRowAtIndexPath:(id)indexPath;
- (id)viewForZoomingInScrollView:(id)scrollView;
- (void)scrollView:(id)scrollView didMoveTo:(FDPoint)point;
- (void)scrollViewWillEndDragging:(id)scrollView withVelocity:(FDPoint)velocity targetContentOffset:(inout FDPoint *)offset;
- (FDPoint)scrollView:(id)scrollView anchorForView:(id)view;
- (FDRect)tableView:(id)tableView rectForSection:(id)section;
- (void)tableView:(id)tableView a:(id)a b:(id)b c:(id)c;
- (NSInteger)tableView:(id)tableView numberOfRowsInSection:(NSInteger)section;
@end

/// An encoding from @encode spellings: result, then the arguments after self and _cmd.
static inline NSString *fd_encoding(const char *result, ...) {
    NSMutableString *types = [NSMutableString stringWithFormat:@"%s%s%s", result, @encode(id), @encode(SEL)];
    va_list arguments;
    va_start(arguments, result);
    for (const char *type = va_arg(arguments, const char *); type; type = va_arg(arguments, const char *)) {
        [types appendFormat:@"%s", type];
    }
    va_end(arguments);
    return types;
}

/// FDTableDelegate's methods with their encodings, as `initWithProtocol:methods:` takes them.
static inline NSDictionary *fd_table_methods(void) {
    const char *o = @encode(id);
    return [NSDictionary dictionaryWithObjectsAndKeys:
        fd_encoding(@encode(void), o, NULL), @"scrollViewDidScroll:",
        fd_encoding(@encode(void), o, o, NULL), @"tableView:didSelectRowAtIndexPath:",
        fd_encoding(@encode(void), o, o, o, NULL), @"tableView:willDisplayCell:forRowAtIndexPath:",
        fd_encoding(@encode(double), o, o, NULL), @"tableView:heightForRowAtIndexPath:",
        fd_encoding(@encode(BOOL), o, NULL), @"scrollViewShouldScrollToTop:",
        fd_encoding(@encode(NSInteger), o, o, NULL), @"tableView:indentationLevelForRowAtIndexPath:",
        fd_encoding(@encode(int), o, o, NULL), @"tableView:badgeForRowAtIndexPath:",
        fd_encoding(@encode(id), o, NULL), @"viewForZoomingInScrollView:",
        fd_encoding(@encode(void), o, @encode(FDPoint), NULL), @"scrollView:didMoveTo:",
        fd_encoding(@encode(void), o, @encode(FDPoint), @encode(FDPoint *), NULL),
            @"scrollViewWillEndDragging:withVelocity:targetContentOffset:",
        fd_encoding(@encode(FDPoint), o, o, NULL), @"scrollView:anchorForView:",
        fd_encoding(@encode(FDRect), o, o, NULL), @"tableView:rectForSection:",
        fd_encoding(@encode(void), o, o, o, o, NULL), @"tableView:a:b:c:",
        fd_encoding(@encode(NSInteger), o, @encode(NSInteger), NULL), @"tableView:numberOfRowsInSection:",
        nil];
}

static inline FDDelegateMulticaster *fd_table_multicaster(void) {
    return [[[FDDelegateMulticaster alloc] initWithProtocol:@protocol(FDTableDelegate) methods:fd_table_methods()]
        autorelease];
}

static int fd_deallocs;

/// A listener that appends "<name>:<selector>" to a shared log for each message it receives.
/// Implements only the scroll and selection methods.
@interface FDRecorder : NSObject <FDTableDelegate> {
@public
    NSString *name;
    NSMutableArray *log;
    long ticks;
}
+ (instancetype)recorderNamed:(NSString *)name log:(NSMutableArray *)log;
/// Not autoreleased: the caller's release is the last one.
+ (instancetype)newRecorderNamed:(NSString *)name log:(NSMutableArray *)log;
@end

@implementation FDRecorder
+ (instancetype)recorderNamed:(NSString *)name log:(NSMutableArray *)log {
    return [[self newRecorderNamed:name log:log] autorelease];
}
+ (instancetype)newRecorderNamed:(NSString *)name log:(NSMutableArray *)log {
    FDRecorder *recorder = [self new];
    recorder->name = [name copy];
    recorder->log = [log retain];
    return recorder;
}
- (void)note:(SEL)selector {
    if (!log) return;
    [log addObject:[NSString stringWithFormat:@"%@:%s", name, sel_getName(selector)]];
}
- (void)scrollViewDidScroll:(id)scrollView {
    ticks++;
    [self note:_cmd];
}
- (void)tableView:(id)tableView didSelectRowAtIndexPath:(id)indexPath {
    [self note:_cmd];
}
- (void)dealloc {
    fd_deallocs++;
    [name release];
    [log release];
    [super dealloc];
}
@end

#endif
