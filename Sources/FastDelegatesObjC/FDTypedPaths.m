// The typed IMPs: one per common call shape, installed on the proxy class for each method of
// that shape, so that a call walks the C core's span for its selector with no NSInvocation.
// Void: every live responder in order (`breaking`: the first); a result: the first live
// responder's, else zero. An exception a listener throws leaves the dispatch (@finally: no
// cost on the normal path with zero-cost exceptions) and reaches the caller.
#if defined(__APPLE__) || defined(GNUSTEP)
#include "FDInternal.h"

typedef struct fd_point {
    double x, y;
} fd_point;

// The core and method of a call, or a return of `nothing` once the multicaster is gone.
#define FD_BEGIN(nothing)                                                         \
    fd_core *core = ((FDProxyBase *)self)->core;                                  \
    if (!core) return nothing;                                                    \
    fd_method *method = fd_method_for(core, _cmd);                                \
    if (!method) return nothing;                                                  \
    FD_CONFINED(core);                                                            \
    fd_enter(core);                                                               \
    cdt_span span = cdt_chain_lookup_cached(core->chain, method->message, &method->cache)

#define FD_VOID(name, parameters, types, arguments)                               \
    static void name(FD_UNRETAINED id self, SEL _cmd parameters) {                \
        FD_BEGIN();                                                               \
        @try {                                                                    \
            for (size_t i = 0; i < span.count; i++) {                             \
                id target = fd_entry_answering(core, span.entries[i], method);               \
                if (!target) continue;                                            \
                ((void (*)(id, SEL types))FD_IMP(target, _cmd))(target, _cmd arguments); \
                if (core->breaking) break;                                        \
            }                                                                     \
        } @finally {                                                              \
            fd_leave(core);                                                        \
        }                                                                         \
    }

#define FD_RESULT(name, result, parameters, types, arguments)                     \
    static result name(FD_UNRETAINED id self, SEL _cmd parameters) {              \
        result answer = 0;                                                        \
        FD_BEGIN(answer);                                                         \
        @try {                                                                    \
            for (size_t i = 0; i < span.count; i++) {                             \
                id target = fd_entry_answering(core, span.entries[i], method);               \
                if (!target) continue;                                            \
                answer = ((result (*)(id, SEL types))FD_IMP(target, _cmd))(target, _cmd arguments); \
                break;                                                            \
            }                                                                     \
        } @finally {                                                              \
            fd_leave(core);                                                        \
        }                                                                         \
        return answer;                                                            \
    }

// Under ARC the arguments are passed through unretained: the caller keeps them alive for the call.
#define P1 , FD_UNRETAINED id a
#define P2 , FD_UNRETAINED id a, FD_UNRETAINED id b
#define P3 , FD_UNRETAINED id a, FD_UNRETAINED id b, FD_UNRETAINED id c
#define T1 , id
#define T2 , id, id
#define T3 , id, id, id
#define A1 , a
#define A2 , a, b
#define A3 , a, b, c
#define PP , FD_UNRETAINED id a, fd_point p
#define TP , id, fd_point
#define AP , a, p

FD_VOID(fd_void_1, P1, T1, A1)
FD_VOID(fd_void_2, P2, T2, A2)
FD_VOID(fd_void_3, P3, T3, A3)
FD_VOID(fd_void_point, PP, TP, AP)
FD_RESULT(fd_bool_1, unsigned char, P1, T1, A1)
FD_RESULT(fd_bool_2, unsigned char, P2, T2, A2)
FD_RESULT(fd_int32_1, int, P1, T1, A1)
FD_RESULT(fd_int32_2, int, P2, T2, A2)
FD_RESULT(fd_int64_1, long long, P1, T1, A1)
FD_RESULT(fd_int64_2, long long, P2, T2, A2)
FD_RESULT(fd_double_1, double, P1, T1, A1)
FD_RESULT(fd_double_2, double, P2, T2, A2)
FD_RESULT(fd_object_1, id, P1, T1, A1)
FD_RESULT(fd_object_2, id, P2, T2, A2)

IMP fd_typed_imp(fd_shape shape) {
    switch (shape) {
    case FD_SHAPE_VOID_1: return FD_AS_IMP(fd_void_1);
    case FD_SHAPE_VOID_2: return FD_AS_IMP(fd_void_2);
    case FD_SHAPE_VOID_3: return FD_AS_IMP(fd_void_3);
    case FD_SHAPE_VOID_POINT: return FD_AS_IMP(fd_void_point);
    case FD_SHAPE_BOOL_1: return FD_AS_IMP(fd_bool_1);
    case FD_SHAPE_BOOL_2: return FD_AS_IMP(fd_bool_2);
    case FD_SHAPE_INT32_1: return FD_AS_IMP(fd_int32_1);
    case FD_SHAPE_INT32_2: return FD_AS_IMP(fd_int32_2);
    case FD_SHAPE_INT64_1: return FD_AS_IMP(fd_int64_1);
    case FD_SHAPE_INT64_2: return FD_AS_IMP(fd_int64_2);
    case FD_SHAPE_DOUBLE_1: return FD_AS_IMP(fd_double_1);
    case FD_SHAPE_DOUBLE_2: return FD_AS_IMP(fd_double_2);
    case FD_SHAPE_OBJECT_1: return FD_AS_IMP(fd_object_1);
    case FD_SHAPE_OBJECT_2: return FD_AS_IMP(fd_object_2);
    case FD_SHAPE_FORWARD: return NULL;
    }
    return NULL;
}
#endif
