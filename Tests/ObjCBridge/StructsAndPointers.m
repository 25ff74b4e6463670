// Arguments and results beyond objects: a CGPoint-like struct on the typed path; struct
// arguments, inout pointers, 16- and 32-byte struct results, four objects and an integer
// argument through forwardInvocation:; an unknown private selector.
#include "FDTestSupport.h"

@interface NSObject (FDPrivateSelectors)
- (void)_tableView:(id)tableView privateThing:(id)thing;
@end

@interface FDGeometry : NSObject <FDTableDelegate> {
@public
    double scale;
    FDPoint moved;
    int moves;
    id seen[4];
}
@end

@implementation FDGeometry
- (void)scrollView:(id)scrollView didMoveTo:(FDPoint)point {
    moved = point;
    moves++;
}
- (void)scrollViewWillEndDragging:(id)scrollView withVelocity:(FDPoint)velocity targetContentOffset:(inout FDPoint *)offset {
    offset->x = offset->x * scale + velocity.x;
    offset->y = offset->y * scale + velocity.y;
}
- (FDPoint)scrollView:(id)scrollView anchorForView:(id)view {
    return (FDPoint){scale, -scale};
}
- (FDRect)tableView:(id)tableView rectForSection:(id)section {
    return (FDRect){1 * scale, 2 * scale, 3 * scale, 4 * scale};
}
- (void)tableView:(id)tableView a:(id)a b:(id)b c:(id)c {
    seen[0] = tableView;
    seen[1] = a;
    seen[2] = b;
    seen[3] = c;
}
- (NSInteger)tableView:(id)tableView numberOfRowsInSection:(NSInteger)section {
    return section * (NSInteger)scale;
}
@end

static FDGeometry *fd_geometry(double scale) {
    FDGeometry *geometry = [[FDGeometry new] autorelease];
    geometry->scale = scale;
    return geometry;
}

static void aPointReachesEveryListenerOnTheTypedPath(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDGeometry *a = fd_geometry(1), *b = fd_geometry(2);
    [multicaster addListener:a];
    [multicaster addListener:b];
    id proxy = multicaster.proxy;
    CHECK(class_getMethodImplementation([proxy class], @selector(scrollView:didMoveTo:)) !=
          class_getMethodImplementation([proxy class], @selector(scrollViewWillEndDragging:withVelocity:targetContentOffset:)));
    [proxy scrollView:nil didMoveTo:(FDPoint){3.5, -7.25}];
    CHECK(a->moves == 1 && b->moves == 1);
    CHECK(a->moved.x == 3.5 && a->moved.y == -7.25);
    CHECK(b->moved.x == 3.5 && b->moved.y == -7.25);
}

static void anInoutPointerIsSharedInOrder(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster addListener:fd_geometry(2)];
    [multicaster addListener:fd_geometry(10)];
    FDPoint offset = {1, 1};
    [multicaster.proxy scrollViewWillEndDragging:nil withVelocity:(FDPoint){0.5, -0.5} targetContentOffset:&offset];
    // (1 * 2 + 0.5) * 10 + 0.5, (1 * 2 - 0.5) * 10 - 0.5
    CHECK(offset.x == 25.5 && offset.y == 14.5);
}

static void structResultsAreTheFirstAnswer(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster addListener:[FDRecorder recorderNamed:@"r" log:[NSMutableArray array]]];
    [multicaster addListener:fd_geometry(3)];
    [multicaster addListener:fd_geometry(5)];
    FDPoint anchor = [multicaster.proxy scrollView:nil anchorForView:nil];
    CHECK(anchor.x == 3 && anchor.y == -3);
    FDRect rect = [multicaster.proxy tableView:nil rectForSection:nil];
    CHECK(rect.x == 3 && rect.y == 6 && rect.width == 9 && rect.height == 12);
    CHECK([multicaster.proxy tableView:nil numberOfRowsInSection:7] == 21);
}

static void fourObjectsArriveInPlace(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    FDGeometry *geometry = fd_geometry(1);
    [multicaster addListener:geometry];
    [multicaster.proxy tableView:@"t" a:@"a" b:@"b" c:@"c"];
    CHECK([geometry->seen[0] isEqual:@"t"] && [geometry->seen[1] isEqual:@"a"]);
    CHECK([geometry->seen[2] isEqual:@"b"] && [geometry->seen[3] isEqual:@"c"]);
}

static void anUnknownPrivateSelectorIsNotAnswered(void) {
    FDDelegateMulticaster *multicaster = fd_table_multicaster();
    [multicaster addListener:fd_geometry(1)];
    id proxy = multicaster.proxy;
    CHECK(![proxy respondsToSelector:@selector(_tableView:privateThing:)]);
    CHECK([proxy methodSignatureForSelector:@selector(_tableView:privateThing:)] == nil);
    // Sent anyway (a framework that does not ask): the runtime's usual error, not a crash.
    BOOL raised = NO;
    @try {
        [proxy _tableView:nil privateThing:nil];
    } @catch (NSException *exception) {
        raised = YES;
    }
    CHECK(raised);
    [proxy scrollViewDidScroll:nil]; // still serving
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(aPointReachesEveryListenerOnTheTypedPath);
    RUN(anInoutPointerIsSharedInOrder);
    RUN(structResultsAreTheFirstAnswer);
    RUN(fourObjectsArriveInPlace);
    RUN(anUnknownPrivateSelectorIsNotAnswered);
    [pool release];
    return fd_finish("StructsAndPointers");
}
