// Message interning: a message's name and signature become a stable 32-bit id, once per
// process.
//
// Identity: a message is its name together with its signature (an opaque tag; the Swift side
// passes the metadata of its `Message<Input, Output>` type). The same name with the same
// signature gives the same id wherever it is interned, so two modules that declare one message
// talk about one message; the same name with another signature is another message with its own
// id, never an error.
//
// Ownership: the interner copies every name and signature description it is given into
// storage it owns for the life of the process (messages are few and are never forgotten, like
// Objective-C selectors). The caller keeps ownership of the buffers it passes in. Nothing here
// needs freeing.
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
    /// Memory for a new message could not be allocated; nothing changed.
    CDT_INTERN_NO_MEMORY = 1,
} cdt_intern_status;

/// Returns (through `id_out`) the id of the message called `name` (`length` bytes, no
/// terminator needed) with `signature`, interning it on first use. Ids start at 1 and are
/// dense; 0 is never an id. `signature_name` (a NUL-terminated description of the signature,
/// copied; may be NULL) is stored with the first interning, for diagnostics. Expected
/// O(length).
cdt_intern_status cdt_intern(const char *name, size_t length, const void *signature,
                             const char *signature_name, uint32_t *id_out);

/// Returns (through `id_out`) the id of the Objective-C selector called `name` (`length` bytes),
/// interning it on first use. Selectors are interned under a signature tag of their own, which no
/// other caller of `cdt_intern` can pass: a selector never shares an id with a Swift `Message`
/// of the same name. Its signature description is "Objective-C selector". Expected O(length).
cdt_intern_status cdt_intern_selector(const char *name, size_t length, uint32_t *id_out);

/// The name of an interned id, or NULL for an id never returned by `cdt_intern`.
/// The returned bytes live as long as the process; `*length_out` receives their length.
const char *cdt_intern_name(uint32_t id, size_t *length_out);

/// The signature description an id was first interned with (NUL-terminated, lives as long as
/// the process), or NULL if it had none or the id was never returned by `cdt_intern`.
const char *cdt_intern_signature_name(uint32_t id);

/// How many distinct messages (name and signature) have been interned so far.
uint32_t cdt_intern_count(void);

#ifdef __cplusplus
}
#endif

#endif
