// Message interning: a message name becomes a stable 32-bit id, once per process.
//
// Ownership: the interner copies every name it is given into storage it owns for the
// life of the process (names are few and are never forgotten, like Objective-C selectors).
// The caller keeps ownership of the buffers it passes in. Nothing here needs freeing.
//
// Thread safety: every function may be called from any thread at any time.
#ifndef CDT_INTERN_H
#define CDT_INTERN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The outcome of `cdt_intern`.
typedef enum cdt_intern_status {
    /// `*id_out` holds the message id (new or existing).
    CDT_INTERN_OK = 0,
    /// The name is already interned with another signature; `*id_out` holds its id and
    /// `*existing_signature_name_out` the description of the signature it was first given.
    CDT_INTERN_SIGNATURE_MISMATCH = 1,
    /// Memory for the new name could not be allocated; nothing changed.
    CDT_INTERN_NO_MEMORY = 2,
} cdt_intern_status;

/// Returns (through `id_out`) the id of the message called `name` (`length` bytes, no
/// terminator needed), interning it on first use. Ids start at 1 and are dense; 0 is never
/// an id. `signature` is an opaque tag (the Swift side passes its message type's metadata)
/// stored with the first interning, with `signature_name` (a NUL-terminated description,
/// copied; may be NULL) for diagnostics. Interning the same name with another tag reports
/// `CDT_INTERN_SIGNATURE_MISMATCH`. Expected O(length).
cdt_intern_status cdt_intern(const char *name, size_t length, const void *signature,
                             const char *signature_name, uint32_t *id_out,
                             const char **existing_signature_name_out);

/// The name of an interned id, or NULL for an id never returned by `cdt_intern`.
/// The returned bytes live as long as the process; `*length_out` receives their length.
const char *cdt_intern_name(uint32_t id, size_t *length_out);

/// How many distinct names have been interned so far.
uint32_t cdt_intern_count(void);

#ifdef __cplusplus
}
#endif

#endif
