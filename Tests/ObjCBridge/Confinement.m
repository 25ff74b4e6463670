// A multicaster belongs to the thread that made it: in debug builds, use from another thread
// raises NSInternalInconsistencyException (the listeners are untouched).
#include "FDTestSupport.h"

#include <pthread.h>

static FDDelegateMulticaster *shared;
static int raised;

static void *use_off_thread(void *unused) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    @try {
        [shared addListener:[FDRecorder recorderNamed:@"off" log:nil]];
    } @catch (NSException *exception) {
        if ([[exception name] isEqual:NSInternalInconsistencyException]) raised++;
    }
    @try {
        [shared.proxy scrollViewDidScroll:nil];
    } @catch (NSException *exception) {
        if ([[exception name] isEqual:NSInternalInconsistencyException]) raised++;
    }
    [pool release];
    return NULL;
}

static void useFromAnotherThreadRaisesInDebugBuilds(void) {
    shared = fd_table_multicaster();
    FDRecorder *listener = [FDRecorder recorderNamed:@"on" log:nil];
    [shared addListener:listener];
    [NSThread currentThread]; // GNUstep: the main thread is registered before another starts
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, use_off_thread, NULL) == 0);
    pthread_join(thread, NULL);
    CHECK(raised == 2);
    CHECK([shared.listeners isEqual:[NSArray arrayWithObject:listener]]);
    CHECK(listener->ticks == 0);
    [shared.proxy scrollViewDidScroll:nil];
    CHECK(listener->ticks == 1);
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(useFromAnotherThreadRaisesInDebugBuilds);
    [pool release];
    return fd_finish("Confinement");
}
