// The few Swift runtime entry points the tracked retention mode needs, wrapped for Swift.
//
// Trade-off: these tie the C core to the Swift runtime's ABI. The ABI is stable on Apple
// platforms; on Linux it is not promised across Swift versions, though these entry points have
// kept their C signatures for years. They apply to native Swift objects only (not Objective-C
// objects). Everything else in the C core is independent of Swift.
//
// They are out-of-line on purpose: the Swift compiler declares some of these runtime symbols
// itself, with its own LLVM types, and a header-inline call would mix the two declarations in
// one LLVM module.
#ifndef CDT_SWIFT_RUNTIME_H
#define CDT_SWIFT_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Takes a strong reference unless the object has started to deinitialize; the object's memory
/// must be valid (held by an unowned reference). Returns whether it took one.
bool cdt_swift_try_retain(void *object);

/// Gives back a strong reference taken by `cdt_swift_try_retain`.
void cdt_swift_release(void *object);

/// Takes an unowned reference: the object may deinitialize, but its memory stays allocated
/// (so `cdt_swift_try_retain` stays safe to call) until the matching unowned release.
void cdt_swift_unowned_retain(void *object);

/// Gives back an unowned reference; the last one frees a deinitialized object's memory.
void cdt_swift_unowned_release(void *object);

/// Whether the object has started to deinitialize; the object's memory must be valid (held by
/// an unowned reference). Reads the reference count only: it takes and gives back nothing, so
/// it can never run a deinit.
bool cdt_swift_is_deallocating(void *object);

/// The object's unowned reference count (for tests: whether a holder gave its reference back).
size_t cdt_swift_unowned_count(void *object);

#ifdef __cplusplus
}
#endif

#endif
