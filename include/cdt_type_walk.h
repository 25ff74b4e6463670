// Where a Swift type's runtime metadata may stand for several types that differ only by a marker
// protocol (`Sendable`): the one-time check behind a message's identity (`Message.init`).
//
// Marker protocols leave no trace at run time, so `Any` and `any Sendable` share one metadata
// record, as do `NS` and `NS & Sendable` for a class `NS`, and `[AnyObject]` and
// `[any AnyObject & Sendable]`. A marker can be added at a *position*: an existential (`Any`,
// `AnyObject`, `any P`, a composition) or a class type. A type with no such position anywhere in
// it (a concrete struct, enum, tuple, function or metatype built of other such types) has one
// metadata record per type.
//
// Whether the type as a whole is `Sendable` (which the caller knows at compile time) tells the
// static type apart exactly when every position sits in a *structural* container, one whose
// `Sendable` conformance follows its elements (a tuple, an `Optional`, or one of the caller's
// `structural` types: `Array`, `Dictionary`, `Set`, `Result`...), and either there is one
// position, or the type is `Sendable` (then every position carries the marker). A position
// inside anything else (a function's parameters or result, another generic type, a metatype, a
// parameterized existential) cannot be told apart that way: the answer is "opaque".
//
// Thread safety: pure; reads immutable runtime metadata only.
#ifndef CDT_TYPE_WALK_H
#define CDT_TYPE_WALK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How many positions of a type may hide a marker protocol, and where they are.
typedef enum cdt_marker_positions {
    /// None: the metadata is the type.
    CDT_MARKER_POSITIONS_NONE = 0,
    /// Exactly one, inside structural containers only (or the type itself).
    CDT_MARKER_POSITIONS_ONE = 1,
    /// Several, all inside structural containers.
    CDT_MARKER_POSITIONS_SEVERAL = 2,
    /// At least one inside a non-structural part, or metadata this walk cannot read with certainty.
    CDT_MARKER_POSITIONS_OPAQUE = 3,
} cdt_marker_positions;

/// Classifies the positions of the type whose Swift runtime metadata is `metadata` (a `T.self`
/// of a concrete type; NULL answers opaque). `structural` lists the metadata of
/// `structural_count` instances of generic structs or enums (`[Int].self`, `Set<Int>.self`...):
/// any instance of their nominal types counts as structural, besides `Optional`; it may be NULL
/// when the count is 0.
///
/// Walks the metadata by kind: an existential or a class (Swift, Objective-C or foreign) is a
/// position; a tuple, an `Optional` or a listed generic type is walked structurally; a function
/// (its parameters, result, thrown error and global actor), a metatype's instance type, and the
/// arguments of any other generic struct or enum are walked as non-structural (value generic
/// arguments such as `InlineArray`'s count are skipped). A parameterized existential, a generic
/// class (whose arguments this walk does not read), a parameter pack, a differentiable
/// function, unknown extended function flags, an unknown kind, or nesting deeper than 64 answer
/// opaque: the answer errs only towards "opaque". O(size of the type), no allocation.
cdt_marker_positions cdt_type_marker_positions(const void *metadata, const void *const *structural,
                                               size_t structural_count);

#ifdef __cplusplus
}
#endif

#endif
