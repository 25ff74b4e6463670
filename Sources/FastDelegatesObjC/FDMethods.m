// A protocol's methods: listed from the runtime and the caller's table, classified by type
// encoding, interned in the C core under the selector tag, found again by SEL.
#if defined(__APPLE__) || defined(GNUSTEP)
#include "FDMethods.h"
#include "cdt_intern.h"

#include <stdlib.h>
#include <string.h>

const char *fd_next_type(const char *types, const char **start, size_t *length) {
    if (!types) return NULL;
    while (*types && strchr("rnNoORVA", *types)) types++;
    if (!*types) return NULL;
    const char *begin = types;
    int depth = 0;
    do {
        char c = *types;
        if (!c) return NULL;
        types++;
        if (c == '{' || c == '(' || c == '[') {
            depth++;
        } else if (c == '}' || c == ')' || c == ']') {
            depth--;
        } else if (c == '"' ) {               // a field or class name
            while (*types && *types != '"') types++;
            if (!*types) return NULL;
            types++;
        } else if (depth == 0 && c == '^') {
            continue;                          // a pointer: its pointee follows
        } else if (depth == 0 && c == '@') {
            if (*types == '?') types++;
            else if (*types == '"') {
                types++;
                while (*types && *types != '"') types++;
                if (!*types) return NULL;
                types++;
            }
        } else if (depth == 0 && c == 'b') {
            while (*types >= '0' && *types <= '9') types++;
        }
    } while (depth > 0);
    *start = begin;
    *length = (size_t)(types - begin);
    if (*types == '-' || *types == '+') types++;
    while (*types >= '0' && *types <= '9') types++;
    return types;
}

static BOOL is(const char *type, size_t length, const char *spelled) {
    return length == strlen(spelled) && memcmp(type, spelled, length) == 0;
}

static BOOL is_object(const char *type, size_t length) {
    return type[0] == '@' && !(length >= 2 && type[1] == '?');
}

// A struct of exactly two doubles: `{name=dd}` or `{dd}`.
static BOOL is_point(const char *type, size_t length) {
    if (type[0] != '{' || length < 4) return NO;
    const char *body = memchr(type, '=', length);
    body = body ? body + 1 : type + 1;
    return (size_t)(type + length - body) == 3 && memcmp(body, "dd}", 3) == 0;
}

fd_shape fd_shape_of(const char *types, BOOL *has_block) {
    const char *parts[8];
    size_t lengths[8];
    int count = 0;
    *has_block = NO;
    const char *cursor = types;
    const char *type;
    size_t length;
    BOOL overflow = NO;
    while ((cursor = fd_next_type(cursor, &type, &length))) {
        if (length >= 2 && type[0] == '@' && type[1] == '?') *has_block = YES;
        if (count < 8) {
            parts[count] = type;
            lengths[count] = length;
            count++;
        } else {
            overflow = YES;
        }
    }
    if (overflow || count < 3 || *has_block) return FD_SHAPE_FORWARD;
    int arguments = count - 3; // return, self, _cmd
    for (int i = 3; i < count; i++) {
        if (!is_object(parts[i], lengths[i]) && !(arguments == 2 && i == 4 && is_point(parts[i], lengths[i]))) {
            return FD_SHAPE_FORWARD;
        }
    }
    BOOL objects = YES;
    for (int i = 3; i < count; i++) objects = objects && is_object(parts[i], lengths[i]);
    const char *result = parts[0];
    size_t result_length = lengths[0];
    if (is(result, result_length, "v")) {
        if (!objects) return arguments == 2 && is_object(parts[3], lengths[3]) ? FD_SHAPE_VOID_POINT : FD_SHAPE_FORWARD;
        if (arguments == 1) return FD_SHAPE_VOID_1;
        if (arguments == 2) return FD_SHAPE_VOID_2;
        if (arguments == 3) return FD_SHAPE_VOID_3;
        return FD_SHAPE_FORWARD;
    }
    if (!objects || arguments < 1 || arguments > 2) return FD_SHAPE_FORWARD;
    int two = arguments == 2;
    if (is(result, result_length, "B") || is(result, result_length, "c") || is(result, result_length, "C")) return two ? FD_SHAPE_BOOL_2 : FD_SHAPE_BOOL_1;
    if (is(result, result_length, "i") || is(result, result_length, "I")) return two ? FD_SHAPE_INT32_2 : FD_SHAPE_INT32_1;
    if (is(result, result_length, "q") || is(result, result_length, "Q") ||
        ((is(result, result_length, "l") || is(result, result_length, "L")) && sizeof(long) == 8)) {
        return two ? FD_SHAPE_INT64_2 : FD_SHAPE_INT64_1;
    }
    if (is(result, result_length, "d")) return two ? FD_SHAPE_DOUBLE_2 : FD_SHAPE_DOUBLE_1;
    if (is_object(result, result_length)) return two ? FD_SHAPE_OBJECT_2 : FD_SHAPE_OBJECT_1;
    return FD_SHAPE_FORWARD;
}

char *fd_signature_types(const char *types) {
    size_t size = strlen(types) + 1;
    char *out = malloc(size);
    if (!out) return NULL;
#if FD_SIGNATURES_SPELL_BLOCKS
    memcpy(out, types, size);
#else
    char *write = out;
    for (const char *read = types; *read;) {
        if (read[0] == '@' && read[1] == '?') {
            *write++ = '@';
            read += 2;
        } else if (read[0] == '@' && read[1] == '"') {
            *write++ = '@';
            read += 2;
            while (*read && *read != '"') read++;
            if (*read) read++;
        } else {
            *write++ = *read++;
        }
    }
    *write = 0;
#endif
    return out;
}

static void add_method(NSMutableDictionary *found, const char *name, const char *types) {
    if (!name || !types) return;
    NSString *key = [NSString stringWithUTF8String:name];
    if (![found objectForKey:key]) [found setObject:[NSString stringWithUTF8String:types] forKey:key];
}

static void collect(NSMutableDictionary *found, Protocol *protocol, NSMutableSet *seen) {
    if (!protocol) return;
    NSString *name = [NSString stringWithUTF8String:protocol_getName(protocol)];
    if ([name isEqualToString:@"NSObject"] || [seen containsObject:name]) return;
    [seen addObject:name];
    for (int required = 1; required >= 0; required--) {
        unsigned int count = 0;
        struct objc_method_description *list = protocol_copyMethodDescriptionList(protocol, (BOOL)required, YES, &count);
        for (unsigned int i = 0; i < count; i++) add_method(found, sel_getName(list[i].name), list[i].types);
        free(list);
    }
    unsigned int count = 0;
    Protocol *FD_UNRETAINED *adopted = protocol_copyProtocolList(protocol, &count);
    for (unsigned int i = 0; i < count; i++) collect(found, adopted[i], seen);
    free(adopted);
}

static uint32_t hash_selector(SEL selector, uint32_t mask) {
    return (uint32_t)(((uint64_t)(uintptr_t)(const void *)selector * 0x9e3779b97f4a7c15ULL) >> 40) & mask;
}

void fd_methods_load(fd_method_table *table, Protocol *protocol, NSDictionary *methods) {
    NSMutableDictionary *found = [NSMutableDictionary dictionary];
    collect(found, protocol, [NSMutableSet set]);
    for (NSString *name in methods) {
        id types = [methods objectForKey:name];
        if (![name isKindOfClass:[NSString class]] || ![types isKindOfClass:[NSString class]]) {
            [NSException raise:NSInvalidArgumentException
                        format:@"FDDelegateMulticaster: methods: maps selector names to type encodings (NSString to NSString)"];
        }
        [found setObject:types forKey:name];
    }
    NSArray *names = [[found allKeys] sortedArrayUsingSelector:@selector(compare:)];
    uint32_t count = (uint32_t)[names count];
    uint32_t capacity = 16;
    while (capacity < count * 4) capacity *= 2;
    table->methods = calloc(count ? count : 1, sizeof *table->methods);
    table->cache_keys = calloc(capacity, sizeof *table->cache_keys);
    table->cache_values = calloc(capacity, sizeof *table->cache_values);
    table->cache_mask = capacity - 1;
    if (!table->methods || !table->cache_keys || !table->cache_values) {
        fd_methods_free(table);
        [NSException raise:NSMallocException format:@"FDDelegateMulticaster: out of memory"];
    }
    for (NSString *name in names) {
        const char *types = [[found objectForKey:name] UTF8String];
        const char *cursor = types, *type;
        size_t length;
        int parts = 0;
        while ((cursor = fd_next_type(cursor, &type, &length))) parts++;
        if (parts < 3 || !fd_next_type(types, &type, &length)) {
            fd_methods_free(table);
            [NSException raise:NSInvalidArgumentException
                        format:@"FDDelegateMulticaster: %@ has no usable type encoding (\"%s\")", name, types];
        }
        fd_method *method = &table->methods[table->count];
        const char *utf8 = [name UTF8String];
        method->selector = sel_registerName(utf8);
        method->types = strdup(types);
        method->signature_types = fd_signature_types(types);
        method->shape = fd_shape_of(types, &method->has_block);
        if (!method->types || !method->signature_types ||
            cdt_intern_selector(utf8, strlen(utf8), &method->message) != CDT_INTERN_OK) {
            table->count += 1;
            fd_methods_free(table);
            [NSException raise:NSMallocException format:@"FDDelegateMulticaster: out of memory"];
        }
        table->count += 1;
        fd_methods_find(table, method->selector); // caches the registered selector
    }
}

NSMethodSignature *fd_method_signature(fd_method *method) {
    if (!method->signature) {
        NSMethodSignature *signature = [NSMethodSignature signatureWithObjCTypes:method->signature_types];
#if __has_feature(objc_arc)
        method->signature = (__bridge_retained const void *)signature;
#else
        method->signature = [signature retain];
#endif
    }
    return (FD_BRIDGE NSMethodSignature *)method->signature;
}

void fd_methods_free(fd_method_table *table) {
    for (uint32_t i = 0; i < table->count; i++) {
        if (table->methods[i].signature) {
#if __has_feature(objc_arc)
            (void)(__bridge_transfer NSMethodSignature *)table->methods[i].signature;
#else
            [(NSMethodSignature *)table->methods[i].signature release];
#endif
        }
        free(table->methods[i].types);
        free(table->methods[i].signature_types);
    }
    free(table->methods);
    free(table->cache_keys);
    free(table->cache_values);
    memset(table, 0, sizeof *table);
}

fd_method *fd_methods_find(fd_method_table *table, SEL selector) {
    if (!selector || !table->cache_keys) return NULL;
    uint32_t mask = table->cache_mask;
    uint32_t index = hash_selector(selector, mask);
    for (uint32_t probes = 0; probes <= mask; probes++) {
        SEL key = table->cache_keys[index];
        if (key == selector) return &table->methods[table->cache_values[index]];
        if (!key) break;
        index = (index + 1) & mask;
    }
    // A selector pointer not seen yet (GCC's runtime has one per name and types): by name.
    const char *name = sel_getName(selector);
    for (uint32_t i = 0; i < table->count; i++) {
        if (strcmp(sel_getName(table->methods[i].selector), name) != 0) continue;
        uint32_t free_slots = 0;
        for (uint32_t j = 0; j <= mask; j++) free_slots += table->cache_keys[j] == 0;
        if (free_slots * 2 > mask + 1) { // keep the cache at most half full
            index = hash_selector(selector, mask);
            while (table->cache_keys[index]) index = (index + 1) & mask;
            table->cache_keys[index] = selector;
            table->cache_values[index] = i;
        }
        return &table->methods[i];
    }
    return NULL;
}
#endif
