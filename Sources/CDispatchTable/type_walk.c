// Swift runtime metadata walk (cdt_type_walk.h). Independent of the rest of the core.
//
// The layouts read here are the Swift ABI's (docs/ABI/TypeMetadata.rst and
// include/swift/ABI/Metadata.h in the Swift repository), stable since Swift 5.0 on Apple
// platforms and the same on Linux: every record starts with a pointer-sized kind; the fields
// below are given as pointer-sized words from the record's start, or bytes from a context
// descriptor's start.
#include "cdt_type_walk.h"

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

// A generic parameter descriptor byte: its kind in the low 6 bits (0: a type; packs and values
// are other kinds), 0x80 when it has a key argument in the metadata's generic arguments.
enum { param_kind_mask = 0x3F, param_kind_type = 0, param_has_key_argument = 0x80 };

// Function type flags (word 1 of a function's metadata): the parameter count in the low 16 bits;
// the top bit announces extended flags (typed throws, isolation), which this walk does not read.
static const uintptr_t function_num_params_mask = 0xFFFFu;
static const uintptr_t function_extended_flags = 0x80000000u;

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

static bool may_hide(const void *metadata, int depth);

// A generic struct or enum: its key type arguments, in parameter order, at word 2 onwards.
static bool value_type_may_hide(const void *metadata, int depth) {
    const void *descriptor = (const void *)word(metadata, 1);
    if (!descriptor) return true;
    if (!(u32_at(descriptor, 0) & context_is_generic)) return false;
    uint16_t count = u16_at(descriptor, generic_header_num_params);
    const unsigned char *params = (const unsigned char *)descriptor + generic_header_params;
    size_t argument = value_generic_arguments_word;
    for (uint16_t i = 0; i < count; i++) {
        unsigned char param = params[i];
        if ((param & param_kind_mask) != param_kind_type) return true; // a pack or a value
        if (!(param & param_has_key_argument)) return true;            // not in the arguments
        const void *type = (const void *)word(metadata, argument++);
        if (!type || may_hide(type, depth + 1)) return true;
    }
    return false;
}

// A class: a non-generic Swift class, or an Objective-C class, has one metadata record per type;
// a generic Swift class's arguments sit at an offset this walk does not compute: "may hide".
static bool class_may_hide(const void *metadata) {
#if defined(__APPLE__)
    // Bits 0-1 of the data word mark a Swift class; an Objective-C class has no descriptor and
    // no Swift generic arguments (Objective-C generics are erased at run time).
    if (!(word(metadata, class_data_word) & 3)) return false;
#endif
    const void *descriptor = (const void *)word(metadata, class_description_word);
    if (!descriptor) return true;
    return (u32_at(descriptor, 0) & context_is_generic) != 0;
}

static bool may_hide(const void *metadata, int depth) {
    if (depth > max_depth) return true;
    uintptr_t kind = word(metadata, 0);
    if (kind > kind_last_enumerated || kind == kind_class) return class_may_hide(metadata);
    switch (kind) {
    case kind_existential:
    case kind_existential_metatype:
    case kind_extended_existential:
        return true;
    case kind_struct:
    case kind_enum:
    case kind_optional:
        return value_type_may_hide(metadata, depth);
    case kind_tuple: {
        // Word 1: the element count; word 2: the labels; then (type, offset) per element.
        size_t count = (size_t)word(metadata, 1);
        for (size_t i = 0; i < count; i++) {
            if (may_hide((const void *)word(metadata, 3 + 2 * i), depth + 1)) return true;
        }
        return false;
    }
    case kind_function: {
        // Word 1: the flags; word 2: the result; then one word per parameter.
        uintptr_t flags = word(metadata, 1);
        if (flags & function_extended_flags) return true;
        size_t count = (size_t)(flags & function_num_params_mask);
        if (may_hide((const void *)word(metadata, 2), depth + 1)) return true;
        for (size_t i = 0; i < count; i++) {
            if (may_hide((const void *)word(metadata, 3 + i), depth + 1)) return true;
        }
        return false;
    }
    case kind_metatype:
        return may_hide((const void *)word(metadata, 1), depth + 1);
    case kind_foreign_class:
    case kind_foreign_reference_type:
    case kind_opaque:
    case kind_objc_class_wrapper:
        return false;
    default:
        return true;
    }
}

bool cdt_type_may_hide_marker(const void *metadata) {
    if (!metadata) return true;
    return may_hide(metadata, 0);
}
