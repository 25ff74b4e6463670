// The armed record of a `@DelegateProxy` requirement's checking send: how a protocol's
// generated default implementation tells the send that is asking it that its conformer does not
// implement the requirement.
//
// Swift cannot tell at run time whether a conformer implements a method or inherits the
// protocol extension's default. So a proxy's send, the first time it calls a listener's handler
// for a requirement, arms this thread's record with {message, listener} just before the call and
// disarms it just after. The generated default claims the record when it is armed for its own
// message and `self`: it marks it declined and returns at once. Anything else that runs the
// default (a host calling it directly, a plain send, another listener's implementation calling
// it) finds the record armed for something else, or not armed, and the default behaves as the
// protocol documents.
//
// One record per thread in a C11 `_Thread_local`. A send nested in the armed call (the
// listener's own implementation sending through another proxy) arms its own record and gives
// the outer one back when it disarms.
#ifndef CDT_DECLINE_H
#define CDT_DECLINE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a thread's record holds: the message and listener it is armed for (a NULL listener when
/// not armed), and whether that listener's default claimed it.
typedef struct cdt_decline_record {
    const void *listener;
    uint32_t message;
    bool declined;
} cdt_decline_record;

/// Arms this thread's record for `message` and `listener` (not NULL), not declined, and returns
/// what it held before, for `cdt_decline_disarm`.
cdt_decline_record cdt_decline_arm(uint32_t message, const void *listener);

/// Whether the record armed by the matching `cdt_decline_arm` was declined; gives the record
/// back `previous`, what that call returned.
bool cdt_decline_disarm(cdt_decline_record previous);

/// Called by a generated default: when this thread's record is armed for `message` and
/// `listener`, marks it declined and returns true; otherwise returns false and changes nothing.
bool cdt_decline_claim(uint32_t message, const void *listener);

/// Test hook: how many times this thread called `cdt_decline_claim` (every run of a generated
/// default, armed or not).
uint64_t cdt_decline_debug_claim_calls(void);

#ifdef __cplusplus
}
#endif

#endif
