// CDispatchTable: the C core of FastDelegates.
//
// - cdt_intern.h: messages (name, declaration site and signature) interned into stable 32-bit ids (process-wide,
//   thread-safe).
// - cdt_chain.h: per-chain slot array and message table, with the inline dispatch hot path.
// - cdt_random.h: arc4random for the hash seeds.
// - cdt_swift_runtime.h: Swift runtime entry points for the zeroing hold (unowned + tryRetain).
// - cdt_debug.h: test hooks shared by the whole core (allocation-failure injection).
// - cdt_thread.h: per-thread reader records and the park word of the concurrent chain.
// - cdt_decline.h: the per-thread armed record through which a `@DelegateProxy` protocol's
//   generated default tells a checking send that its conformer does not implement a requirement.
//
// Every exported symbol is prefixed `cdt_`. The implementation's own headers (one per file of
// Sources/CDispatchTable, layered without cycles: make c-layers) are not part of this module.
#ifndef CDISPATCHTABLE_H
#define CDISPATCHTABLE_H

#include "cdt_intern.h"
#include "cdt_chain.h"
#include "cdt_random.h"
#include "cdt_swift_runtime.h"
#include "cdt_debug.h"
#include "cdt_thread.h"
#include "cdt_decline.h"

#endif
