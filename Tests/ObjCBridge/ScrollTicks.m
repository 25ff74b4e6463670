// 10^6 scroll ticks through the typed path with three listeners, one of which dies half way,
// and 10^5 forwarded calls: every tick counted, nothing called after its death, and the
// multicaster's memory bounded (ASan and LeakSanitizer watch the rest).
#include "FDTestSupport.h"

static void aMillionTicks(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    NSMutableArray *log = nil; // FDRecorder logs only when given a log
    FDRecorder *a = [FDRecorder recorderNamed:@"a" log:log];
    FDRecorder *b = [FDRecorder newRecorderNamed:@"b" log:log];
    FDRecorder *c = [FDRecorder recorderNamed:@"c" log:log];
    [multicaster addListener:a];
    [multicaster addListener:b];
    [multicaster addListener:c];
    id proxy = multicaster.proxy;
    long ticks = 1000000;
    for (long i = 0; i < ticks; i++) {
        if (i == ticks / 2) {
            CHECK(b->ticks == ticks / 2);
            [b release];
        }
        [proxy scrollViewDidScroll:nil];
    }
    CHECK(a->ticks == ticks);
    CHECK(c->ticks == ticks);
    CHECK([multicaster.listeners count] == 2);
}

static void aHundredThousandForwardedCalls(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDRecorder *a = [FDRecorder recorderNamed:@"a" log:nil];
    [multicaster addListener:a];
    id proxy = multicaster.proxy;
    FDPoint offset = {0, 0};
    long calls = 100000;
    for (long i = 0; i < calls; i++) {
        NSAutoreleasePool *pool = [NSAutoreleasePool new];
        [proxy scrollViewWillEndDragging:nil withVelocity:(FDPoint){1, 2} targetContentOffset:&offset];
        [proxy tableView:nil didSelectRowAtIndexPath:nil];
        [pool release];
    }
    CHECK(offset.x == 0); // nobody answers the drag: untouched
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(aMillionTicks);
    RUN(aHundredThousandForwardedCalls);
    [pool release];
    return fd_finish("ScrollTicks");
}
