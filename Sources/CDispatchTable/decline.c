#include "cdt_decline.h"

#include <stddef.h>

static _Thread_local cdt_decline_record armed;
static _Thread_local uint64_t claim_calls;

uint64_t cdt_decline_debug_claim_calls(void) { return claim_calls; }

cdt_decline_record cdt_decline_arm(uint32_t message, const void *listener) {
    cdt_decline_record previous = armed;
    armed = (cdt_decline_record){.listener = listener, .message = message, .declined = false};
    return previous;
}

bool cdt_decline_disarm(cdt_decline_record previous) {
    bool declined = armed.declined;
    armed = previous;
    return declined;
}

bool cdt_decline_claim(uint32_t message, const void *listener) {
    claim_calls++;
    if (armed.listener == NULL || armed.listener != listener || armed.message != message || armed.declined) {
        return false;
    }
    armed.declined = true;
    return true;
}
