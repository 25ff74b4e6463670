// A protocol's methods as the multicaster serves them: selector, type encoding, interned
// message id, the call shape its encoding allows, and the span cache of its typed path.
#ifndef FD_METHODS_H
#define FD_METHODS_H

#include "FDPlatform.h"
#include "cdt_chain.h"

/// How a method is dispatched, read from its type encoding: a typed IMP for the common shapes,
/// `forwardInvocation:` for the rest.
typedef enum fd_shape {
    FD_SHAPE_FORWARD = 0,
    FD_SHAPE_VOID_1,       // v@:@
    FD_SHAPE_VOID_2,       // v@:@@
    FD_SHAPE_VOID_3,       // v@:@@@
    FD_SHAPE_VOID_POINT,   // v@:@{dd}: an object and a CGPoint-like struct of two doubles
    FD_SHAPE_BOOL_1,       // B@:@ (or c, or C: GCC's BOOL)
    FD_SHAPE_BOOL_2,
    FD_SHAPE_INT32_1,      // i or I
    FD_SHAPE_INT32_2,
    FD_SHAPE_INT64_1,      // q, Q, l or L of 8 bytes
    FD_SHAPE_INT64_2,
    FD_SHAPE_DOUBLE_1,     // d
    FD_SHAPE_DOUBLE_2,
    FD_SHAPE_OBJECT_1,     // @@:@
    FD_SHAPE_OBJECT_2,
} fd_shape;

typedef struct fd_method {
    SEL selector;
    char *types;            // as the protocol (or the methods table) gives it
    char *signature_types;  // for NSMethodSignature on this runtime
    uint32_t message;       // cdt_intern_selector's id
    fd_shape shape;
    BOOL has_block;         // an argument of type `@?`: first responder only, never lost
    BOOL answered;          // some live listener answered it when the host last looked
    cdt_span_cache cache;   // the typed path's remembered span
    const void *signature;  // its NSMethodSignature, retained, made on first use
} fd_method;

/// The methods of a multicaster, with a SEL -> method cache for the typed path.
typedef struct fd_method_table {
    fd_method *methods;
    uint32_t count;
    uint32_t cache_mask;    // cache capacity - 1
    SEL *cache_keys;
    uint32_t *cache_values; // index into methods
} fd_method_table;

/// Fills `table` with `protocol`'s instance methods (and those of the protocols it adopts, but
/// NSObject's) and `methods` (name -> encoding; an entry wins). Raises on an unparsable
/// encoding or when out of memory.
void fd_methods_load(fd_method_table *table, Protocol *protocol, NSDictionary *methods);
void fd_methods_free(fd_method_table *table);

/// The method for `selector` (any registered variant of its name), or NULL if not the protocol's.
fd_method *fd_methods_find(fd_method_table *table, SEL selector);

/// `method`'s NSMethodSignature (made once per multicaster).
NSMethodSignature *fd_method_signature(fd_method *method);

/// `types` with a block argument (`@?`) spelled `@` and class names dropped where this
/// runtime's NSMethodSignature needs it; malloc'd.
char *fd_signature_types(const char *types);

/// The shape a typed IMP serves for `types`, or FD_SHAPE_FORWARD.
fd_shape fd_shape_of(const char *types, BOOL *has_block);

/// One type of an encoding starting at `types`: returns the next one (after its offset
/// digits), and the type's own characters through `start` / `length` (qualifiers skipped).
/// NULL at the end or on a malformed encoding.
const char *fd_next_type(const char *types, const char **start, size_t *length);

#endif
