// The few Swift runtime entry points the zeroing hold needs, wrapped for Swift.
//
// Trade-off: these tie the C core to the Swift runtime's ABI. The ABI is stable on Apple
// platforms; on Linux it is not promised across Swift versions, though these entry points have
// kept their C signatures for years. They apply to native Swift objects only (not Objective-C
// objects). Everything else in the C core is independent of Swift.
//
// The `cdt_swift_*` wrappers are out of line. Hot paths (and the benchmark's zeroing floor) call
// the runtime's own entry points, declared below exactly as libswiftCore exports them, so that a
// call costs no wrapper frame. Swift code calls them through this header, never through
// `@_silgen_name`.
#ifndef CDT_SWIFT_RUNTIME_H
#define CDT_SWIFT_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The Swift runtime's `swift_tryRetain`: takes a strong reference unless the object has started
/// to deinitialize, and returns the object, or NULL when it took none. The object's memory must
/// be valid (held by an unowned reference).
extern void *swift_tryRetain(void *object);

/// The Swift runtime's `swift_release`: gives back a strong reference.
extern void swift_release(void *object);

/// The Swift runtime's `swift_unownedRetain`: takes an unowned reference; returns the object.
extern void *swift_unownedRetain(void *object);

/// The Swift runtime's `swift_unownedRelease`: gives back an unowned reference.
extern void swift_unownedRelease(void *object);

/// The Swift runtime's `swift_isDeallocating`: whether the object has started to deinitialize.
extern bool swift_isDeallocating(void *object);

/// The Swift runtime's `swift_unownedRetainCount`: the object's unowned reference count.
extern size_t swift_unownedRetainCount(void *object);

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

/// The kind of the Swift type metadata at `metadata`, as the runtime's ABI numbers it
/// (`MetadataKind`): 0 for a class, whatever its runtime (on Apple platforms a class's first
/// word is an Objective-C isa pointer, any value above 0x7FF, reported as 0 too), 0x204 for a
/// C++ foreign reference type, 0x305 for an Objective-C class wrapper.
uintptr_t cdt_swift_metadata_kind(const void *metadata);

#ifdef __cplusplus
}
#endif

#endif
