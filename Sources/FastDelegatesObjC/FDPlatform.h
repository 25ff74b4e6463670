// The two Objective-C runtimes the multicaster compiles for, and the few places they differ:
// Apple's (ARC, weak references, associated objects, objc_msgSend) and GCC's under GNUstep
// (manual retain/release, none of those: emulated in FDZeroingWeak.m).
#ifndef FD_PLATFORM_H
#define FD_PLATFORM_H

#import <Foundation/Foundation.h>
#include <objc/runtime.h>
#if defined(__APPLE__)
#include <objc/message.h>
#endif
#ifndef FD_APPLE_RUNTIME // predefined only to syntax-check the Apple branch with clang -fobjc-arc off Apple
#if defined(__APPLE__)
#define FD_APPLE_RUNTIME 1
#else
#define FD_APPLE_RUNTIME 0
#endif
#endif

#if __has_feature(objc_arc)
#define FD_BRIDGE __bridge
#define FD_UNRETAINED __unsafe_unretained
#define FD_WEAK __weak
#define FD_AUTORELEASE(object) (object)
#define FD_RETURNS_RETAINED __attribute__((ns_returns_retained)) // the caller takes the +1: no extra retain
#else
#define FD_RETURNS_RETAINED
#define FD_BRIDGE
#define FD_UNRETAINED
#define FD_WEAK
#define FD_AUTORELEASE(object) [(object) autorelease]
#endif

// The implementation `target` runs for `selector`, for a typed call: objc_msgSend on Apple (a
// message send, so swizzled and KVO classes behave), the runtime's lookup on GCC's.
#if FD_APPLE_RUNTIME
#define FD_IMP(target, selector) ((void *)objc_msgSend)
#else
#define FD_IMP(target, selector) ((void *)objc_msg_lookup((target), (selector)))
#endif

// A function as an IMP, or an IMP as a function type (through a plain function pointer, as gcc
// asks of casts between function types).
#define FD_AS_IMP(function) ((IMP)(void (*)(void))(function))
#define FD_AS_FUNCTION(type, imp) ((type)(void (*)(void))(imp))

// GCC's NSMethodSignature aborts on block types (`@?`): signatures built there spell them `@`.
#define FD_SIGNATURES_SPELL_BLOCKS FD_APPLE_RUNTIME

#endif
