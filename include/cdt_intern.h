// Message interning: a message's name and signature become a stable 32-bit id, once per
// process.
//
// Identity: a message is its name, its signature (an opaque tag; the Swift side passes the
// metadata of its `Message<Input, Output>` type) and, for a declared message, its declaration
// site (file, line and column). The same triple gives the same id wherever it is interned; any
// other is another message with its own id, never an error. The Swift side interns every
// `Message` with its site, so two declarations are two messages whatever their names; selectors
// and `cdt_intern` have no site.
//
// Ownership: the interner copies every name and signature description it is given into
// storage it owns for the life of the process (messages are few and are never forgotten, like
// Objective-C selectors). The caller keeps ownership of the buffers it passes in. Nothing here
// needs freeing.
//
// Thread safety: every function may be called from any thread at any time.
#ifndef CDT_INTERN_H
#define CDT_INTERN_H

#include <stdbool.h>
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

/// Where a message is declared: part of its identity (`cdt_intern_declared`).
typedef struct cdt_message_site {
    /// The declaring file's id (`Module/File.swift`), `file_length` bytes, no terminator needed.
    const char *file;
    size_t file_length;
    uint64_t line;
    uint64_t column;
} cdt_message_site;

/// Returns (through `id_out`) the id of the message called `name` (`length` bytes, no
/// terminator needed) with `signature`, declared at `site` (NULL for none: a message without a
/// site is never one with a site), interning it on first use. Ids start at 1 and are dense; 0 is
/// never an id. The name and the site's file are copied. `signature_name` (a NUL-terminated
/// description of the signature, copied; may be NULL) is stored with the first interning, for
/// diagnostics. Expected O(length + site->file_length).
cdt_intern_status cdt_intern_declared(const char *name, size_t length, const cdt_message_site *site,
                                      const void *signature, const char *signature_name, uint32_t *id_out);

/// The id `cdt_intern_declared` would return for the same arguments if the message is interned
/// already, or 0: a lookup that lets the caller describe the signature only for a new message.
/// Expected O(length + site->file_length).
uint32_t cdt_intern_lookup_declared(const char *name, size_t length, const cdt_message_site *site,
                                    const void *signature);

/// `cdt_intern_declared` with no site.
cdt_intern_status cdt_intern(const char *name, size_t length, const void *signature,
                             const char *signature_name, uint32_t *id_out);

/// The declaration site an id was interned with (its file's bytes live as long as the process),
/// into `*site_out`; false for an id without a site or never returned.
bool cdt_intern_site(uint32_t id, cdt_message_site *site_out);

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
