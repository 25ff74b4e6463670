#include "cdt_swift_runtime.h"

#include <stddef.h>

bool cdt_swift_try_retain(void *object) { return swift_tryRetain(object) != 0; }

void cdt_swift_release(void *object) { swift_release(object); }

void cdt_swift_unowned_retain(void *object) { (void)swift_unownedRetain(object); }

void cdt_swift_unowned_release(void *object) { swift_unownedRelease(object); }

bool cdt_swift_is_deallocating(void *object) { return swift_isDeallocating(object); }

size_t cdt_swift_unowned_count(void *object) { return swift_unownedRetainCount(object); }

uintptr_t cdt_swift_metadata_kind(const void *metadata) {
    uintptr_t kind = *(const uintptr_t *)metadata;
    // Values above the last kind (0x7FF) are isa pointers: class metadata.
    return kind > 0x7FF ? 0 : kind;
}
