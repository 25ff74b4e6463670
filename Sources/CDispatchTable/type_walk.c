// Swift runtime metadata walk (cdt_type_walk.h). Independent of the rest of the core.
//
// The layouts read here are the Swift ABI's (docs/ABI/TypeMetadata.rst and
// include/swift/ABI/Metadata.h in the Swift repository), stable since Swift 5.0 on Apple
// platforms and the same on Linux: every record starts with a pointer-sized kind; the fields
// below are given as pointer-sized words from the record's start, or bytes from a context
// descriptor's start.
#include "cdt_type_walk.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// Metadata kinds (MetadataKind.def). A value above kind_last_enumerated is an Objective-C isa
// pointer: a class object.
enum {
    kind_class = 0x0,
    kind_struct = 0x200,
    kind_enum = 0x201,
    kind_optional = 0x202,
    kind_foreign_class = 0x203,
    kind_foreign_reference_type = 0x204,
    kind_opaque = 0x300,
    kind_tuple = 0x301,
    kind_function = 0x302,
    kind_existential = 0x303,
    kind_metatype = 0x304,
    kind_objc_class_wrapper = 0x305,
    kind_existential_metatype = 0x306,
    kind_extended_existential = 0x307,
    kind_last_enumerated = 0x7FF,
};

// Context descriptor flags (first 32 bits of every context descriptor): bit 7 is `isGeneric`.
enum { context_is_generic = 0x80 };

// A struct or enum descriptor is 28 bytes (flags, parent, name, access function, fields, and two
// 32-bit counts); its generic header follows: two 32-bit relative pointers, then the 16-bit
// NumParams, NumRequirements, NumKeyArguments and Flags, then one byte per parameter.
enum {
    value_descriptor_size = 28,
    generic_header_num_params = value_descriptor_size + 8,
    generic_header_params = value_descriptor_size + 16,
};

// A generic parameter descriptor byte: its kind in the low 6 bits (0: a type, 1: a pack, 2: a
// value such as `InlineArray`'s count), 0x80 when it has a key argument in the metadata's
// generic arguments.
enum { param_kind_mask = 0x3F, param_kind_type = 0, param_kind_value = 2, param_has_key_argument = 0x80 };

// Function type flags (word 1 of a function's metadata): the parameter count in the low 16 bits,
// then flags that announce trailing records after the parameters: one 32-bit flags word per
// parameter, a differentiability kind, a global actor's metadata, and the extended flags.
static const uintptr_t function_num_params_mask = 0xFFFFu;
static const uintptr_t function_has_param_flags = 0x02000000u;
static const uintptr_t function_differentiable = 0x08000000u;
static const uintptr_t function_global_actor = 0x10000000u;
static const uintptr_t function_extended_flags = 0x80000000u;
// Extended function flags (32 bits): typed throws (a thrown error's metadata follows), the
// isolation (`@isolated(any)`, `nonisolated(nonsending)`), a `sending` result, and the inverted
// `Copyable`/`Escapable` bits; none but typed throws adds a record.
static const uint32_t extended_typed_throws = 0x1u;
static const uint32_t extended_known = 0x7Fu;

// A value type's generic arguments start right after its kind and description words.
enum { value_generic_arguments_word = 2 };

// Where a Swift class's description pointer is: after isa/kind and superclass, the Objective-C
// cache and data words where there is Objective-C interop, then five 32-bit fields and two
// 16-bit ones (24 bytes).
#if defined(__APPLE__)
enum { class_data_word = 4, class_description_word = 8 };
#else
enum { class_description_word = 5 };
#endif

enum { max_depth = 64 };

static uintptr_t word(const void *record, size_t index) {
    uintptr_t value;
    memcpy(&value, (const char *)record + index * sizeof(uintptr_t), sizeof value);
    return value;
}

static uintptr_t word_at(const void *record, size_t offset) {
    uintptr_t value;
    memcpy(&value, (const char *)record + offset, sizeof value);
    return value;
}

static uint32_t u32_at(const void *base, size_t offset) {
    uint32_t value;
    memcpy(&value, (const char *)base + offset, sizeof value);
    return value;
}

static uint16_t u16_at(const void *base, size_t offset) {
    uint16_t value;
    memcpy(&value, (const char *)base + offset, sizeof value);
    return value;
}

static size_t align_up(size_t offset, size_t alignment) { return (offset + alignment - 1) & ~(alignment - 1); }

typedef struct walk_state {
    const void *const *structural;
    size_t structural_count;
    unsigned positions; // saturates at 2
    bool opaque;
} walk_state;

static void walk(walk_state *state, const void *metadata, int depth, bool structural);

// A position that may hide a marker: countable inside structural containers, opaque elsewhere.
static void position(walk_state *state, bool structural) {
    if (!structural) state->opaque = true;
    else if (state->positions < 2) state->positions += 1;
}

static bool listed_structural(const walk_state *state, const void *descriptor) {
    for (size_t i = 0; i < state->structural_count; i++) {
        if (state->structural[i] && (const void *)word(state->structural[i], 1) == descriptor) return true;
    }
    return false;
}

// A struct or enum: nothing if it is not generic; its key type arguments otherwise, in parameter
// order at word 2 onwards, structurally for `Optional` and the listed types.
static void walk_value_type(walk_state *state, const void *metadata, int depth, bool structural, bool optional) {
    const void *descriptor = (const void *)word(metadata, 1);
    if (!descriptor) {
        state->opaque = true;
        return;
    }
    if (!(u32_at(descriptor, 0) & context_is_generic)) return;
    bool arguments_structural = structural && (optional || listed_structural(state, descriptor));
    uint16_t count = u16_at(descriptor, generic_header_num_params);
    const unsigned char *params = (const unsigned char *)descriptor + generic_header_params;
    size_t argument = value_generic_arguments_word;
    for (uint16_t i = 0; i < count && !state->opaque; i++) {
        unsigned char param = params[i];
        if (!(param & param_has_key_argument)) {
            state->opaque = true; // not in the arguments
            return;
        }
        unsigned char kind = param & param_kind_mask;
        if (kind == param_kind_value) { // a value (an integer), not a type
            argument++;
            continue;
        }
        if (kind != param_kind_type) { // a pack
            state->opaque = true;
            return;
        }
        const void *type = (const void *)word(metadata, argument++);
        if (!type) {
            state->opaque = true;
            return;
        }
        walk(state, type, depth + 1, arguments_structural);
    }
}

// A class is a position (`C & Sendable` has `C`'s metadata). A non-generic Swift class, or an
// Objective-C class, has one metadata record per type; a generic Swift class's arguments sit at
// an offset this walk does not compute: opaque.
static void walk_class(walk_state *state, const void *metadata, bool structural) {
#if defined(__APPLE__)
    // Bits 0-1 of the data word mark a Swift class; an Objective-C class has no descriptor and
    // no Swift generic arguments (Objective-C generics are erased at run time).
    if (!(word(metadata, class_data_word) & 3)) {
        position(state, structural);
        return;
    }
#endif
    const void *descriptor = (const void *)word(metadata, class_description_word);
    if (!descriptor || (u32_at(descriptor, 0) & context_is_generic)) {
        state->opaque = true;
        return;
    }
    position(state, structural);
}

// A function: word 1 the flags, word 2 the result, then one word per parameter, then the
// trailing records the flags announce, each at its own alignment. Its types are not structural.
static void walk_function(walk_state *state, const void *metadata, int depth) {
    uintptr_t flags = word(metadata, 1);
    if (flags & function_differentiable) {
        state->opaque = true;
        return;
    }
    size_t count = (size_t)(flags & function_num_params_mask);
    walk(state, (const void *)word(metadata, 2), depth + 1, false);
    for (size_t i = 0; i < count; i++) walk(state, (const void *)word(metadata, 3 + i), depth + 1, false);
    if (!(flags & function_extended_flags)) return;
    size_t offset = (3 + count) * sizeof(uintptr_t);
    if (flags & function_has_param_flags) offset += count * sizeof(uint32_t);
    if (flags & function_global_actor) offset = align_up(offset, sizeof(uintptr_t)) + sizeof(uintptr_t);
    offset = align_up(offset, sizeof(uint32_t));
    uint32_t extended = u32_at(metadata, offset);
    offset += sizeof(uint32_t);
    if (extended & ~extended_known) {
        state->opaque = true;
        return;
    }
    if (extended & extended_typed_throws) {
        const void *thrown = (const void *)word_at(metadata, align_up(offset, sizeof(uintptr_t)));
        if (!thrown) {
            state->opaque = true;
            return;
        }
        walk(state, thrown, depth + 1, false);
    }
}

static void walk(walk_state *state, const void *metadata, int depth, bool structural) {
    if (state->opaque) return;
    if (!metadata || depth > max_depth) {
        state->opaque = true;
        return;
    }
    uintptr_t kind = word(metadata, 0);
    if (kind > kind_last_enumerated || kind == kind_class) {
        walk_class(state, metadata, structural);
        return;
    }
    switch (kind) {
    case kind_existential:
    case kind_foreign_class:
    case kind_foreign_reference_type:
    case kind_objc_class_wrapper:
        position(state, structural);
        return;
    case kind_struct:
    case kind_enum:
    case kind_optional:
        walk_value_type(state, metadata, depth, structural, kind == kind_optional);
        return;
    case kind_tuple: {
        // Word 1: the element count; word 2: the labels; then (type, offset) per element.
        size_t count = (size_t)word(metadata, 1);
        for (size_t i = 0; i < count; i++) walk(state, (const void *)word(metadata, 3 + 2 * i), depth + 1, structural);
        return;
    }
    case kind_function:
        walk_function(state, metadata, depth);
        return;
    case kind_metatype:
    case kind_existential_metatype:
        // Word 1: the instance type. A metatype is `Sendable` whatever its instance type.
        walk(state, (const void *)word(metadata, 1), depth + 1, false);
        return;
    case kind_opaque:
        return;
    default: // an extended (parameterized) existential, or a kind this walk does not know
        state->opaque = true;
        return;
    }
}

cdt_marker_positions cdt_type_marker_positions(const void *metadata, const void *const *structural,
                                               size_t structural_count) {
    walk_state state = {structural, structural_count, 0, false};
    walk(&state, metadata, 0, true);
    if (state.opaque) return CDT_MARKER_POSITIONS_OPAQUE;
    return (cdt_marker_positions)state.positions;
}
