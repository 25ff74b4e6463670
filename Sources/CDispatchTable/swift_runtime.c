#include "cdt_swift_runtime.h"

#include <stddef.h>

// Swift runtime entry points (C calling convention), as libswiftCore exports them.
extern void *swift_tryRetain(void *object); // the object, or NULL if it is deinitializing
extern void swift_release(void *object);
extern void *swift_unownedRetain(void *object);
extern void swift_unownedRelease(void *object);
extern bool swift_isDeallocating(void *object);
extern size_t swift_unownedRetainCount(void *object);

bool cdt_swift_try_retain(void *object) { return swift_tryRetain(object) != 0; }

void cdt_swift_release(void *object) { swift_release(object); }

void cdt_swift_unowned_retain(void *object) { (void)swift_unownedRetain(object); }

void cdt_swift_unowned_release(void *object) { swift_unownedRelease(object); }

bool cdt_swift_is_deallocating(void *object) { return swift_isDeallocating(object); }

size_t cdt_swift_unowned_count(void *object) { return swift_unownedRetainCount(object); }
