// The Objective-C multicaster's benchmark (make bench-objc), on whatever runtime it is built
// for: ns per call of a scroll tick sent to N listeners, by
//   direct-send          one listener, messaged directly (the floor: one message send);
//   handwritten-weak     a hand-written forwarder to one delegate in a `__weak` instance
//                        variable, compiled with ARC (FDBenchPeers.m): what an app writes by hand,
//                        and the floor of any design that holds its listener weakly; on GCC's
//                        runtime, which has no weak references, a plain `assign` delegate
//                        (handwritten-assign);
//   handwritten-weak-property  the same through a synthesized `weak` property, `self.delegate`
//                        (handwritten-assign-property on GCC's runtime);
//   typed-path           the proxy's typed IMP (the C core's span for the selector);
//   forward-invocation   the proxy's forwardInvocation: path (a four-object method);
//   mdc-multiplexer      a hand-written multiplexer, one method per selector, observers in a
//                        weak NSPointerArray, respondsToSelector: per observer per call
//                        (MDC's ScrollViewDelegateMultiplexer style).
// Each row runs `samples` timed batches, interleaved round-robin with the other rows, after a
// warm-up batch; the median batch gives ns per call. Every listener counts its calls, and the
// counts must equal the calls made (the checksum): otherwise the program fails.
// Prints one tab-separated line per row: variant, N, median ns per call, checksum.
// `FDBench --only VARIANT N CALLS` makes only that row's calls, once, with no timing and no
// warm-up, and checks its count: what scripts/bench-objc.sh --callgrind counts instructions of.
#include "FDTestSupport.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

@interface FDBenchListener : NSObject <FDTableDelegate> {
@public
    unsigned long calls;
}
@end

@implementation FDBenchListener
- (void)scrollViewDidScroll:(id)scrollView {
    calls++;
}
- (void)tableView:(id)tableView a:(id)a b:(id)b c:(id)c {
    calls++;
}
@end

/// MDC's ScrollViewDelegateMultiplexer, reduced to one selector: written by hand per method.
@interface FDHandWrittenMultiplexer : NSObject <FDTableDelegate> {
@public
    NSPointerArray *observers;
}
@end

@implementation FDHandWrittenMultiplexer
- (instancetype)init {
    if ((self = [super init])) observers = [[NSPointerArray weakObjectsPointerArray] retain];
    return self;
}
- (void)addObserver:(id)observer {
    [observers addPointer:observer];
}
- (void)scrollViewDidScroll:(id)scrollView {
    // GNUstep's NSPointerArray has no fast enumeration: by index, as cheap.
    NSUInteger count = [observers count];
    for (NSUInteger i = 0; i < count; i++) {
        id observer = [observers pointerAtIndex:i];
        if (observer && [observer respondsToSelector:_cmd]) [observer scrollViewDidScroll:scrollView];
    }
}
- (void)dealloc {
    [observers release];
    [super dealloc];
}
@end

// FDBenchPeers.m, compiled with ARC where the runtime has it.
int fd_bench_peers_hold_weakly(void);
int fd_bench_peers_verify_weak(void);
id fd_bench_forwarder(id delegate, int property);

typedef enum { DIRECT, PEER, PEER_PROPERTY, TYPED, FORWARD, MULTIPLEXER } fd_kind;

typedef struct fd_row {
    const char *variant;
    fd_kind kind;
    int listeners;
    long calls;              // per batch
    id target;               // what the batch messages
    NSMutableArray *counted; // the listeners
    double *samples;
} fd_row;

static double now_ns(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec * 1e9 + (double)time.tv_nsec;
}

static double batch(fd_row *row) {
    id target = row->target;
    long calls = row->calls;
    double start = now_ns();
    switch (row->kind) {
    case DIRECT:
    case PEER:
    case PEER_PROPERTY:
    case TYPED:
    case MULTIPLEXER:
        for (long i = 0; i < calls; i++) [target scrollViewDidScroll:nil];
        break;
    case FORWARD:
        for (long i = 0; i < calls; i++) [target tableView:nil a:nil b:nil c:nil];
        break;
    }
    return (now_ns() - start) / (double)calls;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    const char *only = NULL;
    int onlyListeners = 0;
    long onlyCalls = 0;
    if (argc == 5 && strcmp(argv[1], "--only") == 0) {
        only = argv[2];
        onlyListeners = atoi(argv[3]);
        onlyCalls = atol(argv[4]);
        if (onlyCalls < 1) return 2;
    }
    int samples = only ? 1 : argc > 1 ? atoi(argv[1]) : 15;
    long scale = only ? 1 : argc > 2 ? atol(argv[2]) : 1000000;
    if (samples < 1 || scale < 1) return 2;
    int weakly = fd_bench_peers_hold_weakly();
    if (!fd_bench_peers_verify_weak()) {
        fprintf(stderr, "bench-objc: the hand-written __weak peers do not hold weakly\n");
        return 1;
    }
    fd_row rows[] = {
        {"direct-send", DIRECT, 1, scale, nil, nil, NULL},
        {weakly ? "handwritten-weak" : "handwritten-assign", PEER, 1, scale, nil, nil, NULL},
        {weakly ? "handwritten-weak-property" : "handwritten-assign-property", PEER_PROPERTY, 1, scale, nil, nil, NULL},
        {"typed-path", TYPED, 1, scale, nil, nil, NULL},
        {"typed-path", TYPED, 4, scale, nil, nil, NULL},
        {"typed-path", TYPED, 16, scale / 4, nil, nil, NULL},
        {"forward-invocation", FORWARD, 1, scale / 100 > 0 ? scale / 100 : 1, nil, nil, NULL},
        {"mdc-multiplexer", MULTIPLEXER, 1, scale, nil, nil, NULL},
        {"mdc-multiplexer", MULTIPLEXER, 4, scale, nil, nil, NULL},
        {"mdc-multiplexer", MULTIPLEXER, 16, scale / 4, nil, nil, NULL},
    };
    int count = (int)(sizeof rows / sizeof rows[0]);
    NSMutableArray *keep = [NSMutableArray array];
    for (int r = 0; r < count; r++) {
        fd_row *row = &rows[r];
        row->counted = [NSMutableArray array];
        for (int i = 0; i < row->listeners; i++) [row->counted addObject:[[FDBenchListener new] autorelease]];
        if (row->kind == DIRECT) {
            row->target = [row->counted objectAtIndex:0];
        } else if (row->kind == PEER || row->kind == PEER_PROPERTY) {
            row->target = fd_bench_forwarder([row->counted objectAtIndex:0], row->kind == PEER_PROPERTY);
            [keep addObject:row->target];
        } else if (row->kind == MULTIPLEXER) {
            FDHandWrittenMultiplexer *multiplexer = [[FDHandWrittenMultiplexer new] autorelease];
            for (id listener in row->counted) [multiplexer addObserver:listener];
            row->target = multiplexer;
            [keep addObject:multiplexer];
        } else {
            FDDelegateMulticaster *multicaster = fd_table_multicaster();
            for (id listener in row->counted) [multicaster addListener:listener];
            row->target = multicaster.proxy;
            [keep addObject:multicaster];
        }
        row->samples = calloc((size_t)samples, sizeof(double));
        if (!only) batch(row); // warm-up
    }
    if (only) {
        for (int r = 0; r < count; r++) {
            fd_row *row = &rows[r];
            if (strcmp(row->variant, only) != 0 || row->listeners != onlyListeners) continue;
            row->calls = onlyCalls;
            batch(row);
            unsigned long checksum = 0;
            for (FDBenchListener *listener in row->counted) checksum += listener->calls;
            if (checksum != (unsigned long)onlyCalls * (unsigned long)row->listeners) {
                fprintf(stderr, "bench-objc: %s N=%d: checksum %lu, expected %lu\n", only, onlyListeners, checksum,
                        (unsigned long)onlyCalls * (unsigned long)row->listeners);
                return 1;
            }
            return 0;
        }
        fprintf(stderr, "bench-objc: no row %s with N = %d\n", only, onlyListeners);
        return 2;
    }
    for (int s = 0; s < samples; s++) {
        for (int r = 0; r < count; r++) rows[r].samples[s] = batch(&rows[r]);
    }
    int status = 0;
    for (int r = 0; r < count; r++) {
        fd_row *row = &rows[r];
        unsigned long checksum = 0;
        for (FDBenchListener *listener in row->counted) checksum += listener->calls;
        unsigned long expected = (unsigned long)row->calls * (unsigned long)(samples + 1) * (unsigned long)row->listeners;
        if (checksum != expected) {
            fprintf(stderr, "bench-objc: %s N=%d: checksum %lu, expected %lu\n", row->variant, row->listeners, checksum,
                    expected);
            status = 1;
        }
        qsort(row->samples, (size_t)samples, sizeof(double), compare);
        printf("%s\t%d\t%.2f\t%lu\n", row->variant, row->listeners, row->samples[samples / 2], checksum);
        free(row->samples);
    }
    [pool release];
    return status;
}
