// Whether a Swift type's runtime metadata may stand for several types that differ only by a
// marker protocol (`Sendable`): the one-time check behind a message's identity (`Message.init`).
//
// Marker protocols leave no trace at run time, so `Any` and `any Sendable` share one metadata
// record, as do `[AnyObject]` and `[any AnyObject & Sendable]`. A marker protocol can only be
// hidden inside an existential (`Any`, `AnyObject`, `any P`, `any P.Type`, a constrained
// existential): a type with no existential anywhere in it (a concrete struct, enum, class,
// tuple, function or metatype built of such types) has one metadata record per type.
//
// Thread safety: pure; reads immutable runtime metadata only.
#ifndef CDT_TYPE_WALK_H
#define CDT_TYPE_WALK_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the type whose Swift runtime metadata is `metadata` (a `T.self` of a concrete type,
/// never NULL) may contain an existential, so that its metadata may hide a marker protocol.
///
/// Walks the metadata by kind: an existential, existential metatype or extended existential
/// answers true; a tuple its elements, a function its parameters and result, a metatype its
/// instance type, a generic struct or enum (Optional included) its generic type arguments; a
/// non-generic nominal type, an Objective-C or foreign class, and a builtin answer false.
/// Whatever it cannot read with certainty (a generic class, a function with extended flags, a
/// parameter pack or value parameter, an unknown kind, nesting deeper than 64) answers true:
/// the answer errs only towards "may hide". O(size of the type), no allocation.
bool cdt_type_may_hide_marker(const void *metadata);

#ifdef __cplusplus
}
#endif

#endif
