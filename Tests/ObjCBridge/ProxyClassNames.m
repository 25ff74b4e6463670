// Two copies of the Objective-C front in one process (an SDK that links its own static copy):
// each makes its proxy classes at run time, and a class name another copy took first is
// stepped over, never an exception.
#include "FDTestSupport.h"

#include <string.h>

@protocol FDTakenNames <NSObject>
@optional
- (void)takenPing:(id)sender;
@end

@protocol FDOtherTakenNames <NSObject>
@optional
- (void)otherPing:(id)sender;
@end

@interface FDTakenPinger : NSObject <FDTakenNames, FDOtherTakenNames> {
@public
    int pings;
}
@end

@implementation FDTakenPinger
- (void)takenPing:(id)sender {
    pings++;
}
- (void)otherPing:(id)sender {
    pings += 10;
}
@end

/// Registers classes named as this copy names its proxy classes ("FDProxy_<protocol>_<n>"),
/// n = 1 ... count, as another copy of the library would have.
static void take_names(const char *protocol, unsigned count) {
    for (unsigned n = 1; n <= count; n++) {
        char name[128];
        snprintf(name, sizeof name, "FDProxy_%s_%u", protocol, n);
        if (objc_getClass(name)) continue;
        Class taken = objc_allocateClassPair([NSObject class], name, 0);
        if (taken) objc_registerClassPair(taken);
    }
}

static void aProxyClassNameTakenFirstIsSteppedOver(void) {
    take_names("FDTakenNames", 40);
    take_names("FDOtherTakenNames", 40);
    FDDelegateMulticaster *multicaster = nil;
    @try {
        multicaster = [[[FDDelegateMulticaster alloc]
            initWithProtocol:@protocol(FDTakenNames)
                     methods:[NSDictionary dictionaryWithObject:fd_encoding(@encode(void), @encode(id), NULL)
                                                         forKey:@"takenPing:"]] autorelease];
    } @catch (NSException *exception) {
        fprintf(stderr, "initWithProtocol: raised %s: %s\n", [[exception name] UTF8String],
                [[exception reason] UTF8String]);
    }
    CHECK(multicaster != nil);
    if (!multicaster) return;
    const char *name = class_getName([multicaster.proxy class]);
    CHECK(strncmp(name, "FDProxy_FDTakenNames_", 21) == 0);
    CHECK(class_getSuperclass([multicaster.proxy class]) != [NSObject class]); // not one of the taken ones
    CHECK([multicaster.proxy conformsToProtocol:@protocol(FDTakenNames)]);
    FDTakenPinger *pinger = [[FDTakenPinger new] autorelease];
    [multicaster addListener:pinger];
    [multicaster.proxy takenPing:nil];
    CHECK(pinger->pings == 1);
    // A second protocol, whose names were taken too, gets a class of its own.
    FDDelegateMulticaster *other = [[[FDDelegateMulticaster alloc]
        initWithProtocol:@protocol(FDOtherTakenNames)
                 methods:[NSDictionary dictionaryWithObject:fd_encoding(@encode(void), @encode(id), NULL)
                                                     forKey:@"otherPing:"]] autorelease];
    CHECK(other != nil && [other.proxy class] != [multicaster.proxy class]);
    [other addListener:pinger];
    [other.proxy otherPing:nil];
    CHECK(pinger->pings == 11);
}

int main(void) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    RUN(aProxyClassNameTakenFirstIsSteppedOver);
    [pool release];
    return fd_finish("ProxyClassNames");
}
