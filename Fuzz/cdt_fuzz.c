// libFuzzer harness for the CDispatchTable C core.
//
// The input is a program: a few header bytes, then one opcode byte per operation followed by
// its operand bytes (missing bytes read as 0). The same program drives two chains, one hashed
// with an input-chosen multiplier and one created with forced collisions (every message in
// one bucket cluster), against a plain reference model (arrays, O(n) scans). After every
// operation both chains are compared with the model in full (every span, entry, handler,
// object, slot, counter), `cdt_chain_check_invariants` must return 0, and every span held by
// a simulated dispatch (depth > 0) must still be readable and byte-for-byte unchanged.
// `cdt_intern` is exercised against a process-wide model of its own.
//
// The input also injects allocation failures (`cdt_debug_fail_allocation_after`, armed for the
// same allocation on both chains, which must then report the same outcome), moves the
// generation counter (`cdt_chain_debug_set_next_generation`, near UINT32_MAX to reach the wrap)
// and sets targets (`cdt_chain_set_target`). After a failed operation the model is unchanged and
// must still match; a release out of memory during a dispatch leaves orphaned entries, which the
// comparison tells apart (their slot's generation differs) and `cdt_chain_reclaim` must purge.
//
// Any divergence prints what differed and aborts, which libFuzzer reports as a crash.
#include "CDispatchTable.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Failure reporting

static int trace; // CDT_FUZZ_TRACE=1 prints every operation (to read a reproduction)
static unsigned long current_op_index;
static const char *current_op_name = "setup";

#define CHECK(cond, ...)                                                                        \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            fprintf(stderr, "\ncdt_fuzz: CHECK FAILED at %s:%d (op #%lu %s): %s\n  ", __FILE__, \
                    __LINE__, current_op_index, current_op_name, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fprintf(stderr, "\n");                                                              \
            abort();                                                                            \
        }                                                                                       \
    } while (0)

// MARK: - Input reader

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t rd_u8(reader *r) {
    if (r->n == 0) return 0;
    r->n--;
    return *r->p++;
}

static uint64_t rd_u64(reader *r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | rd_u8(r);
    return v;
}

// MARK: - Model

enum {
    NCHAINS = 2,
    MAXT = 96,      // target records (live acquisitions at once)
    NMSG = 16,      // messages the program uses
    MAXDEPTH = 6,   // nested dispatches
    MAXSTALE = 32,  // remembered released handles
    GENMAP = 16384, // generation -> acquisition map, per chain
};

// Message ids, including large ones and ones whose products with small multipliers collide.
static const uint32_t MESSAGES[NMSG] = {
    1, 2, 3, 4, 5, 6, 7, 8, 17, 1000, 65537, 0x7fffffffu, 0x80000000u, 0x9e3779b9u, 0xfffffffeu, 0xffffffffu,
};
// Never inserted: lookups must come back empty.
static const uint32_t ABSENT_MESSAGES[] = {9, 12345, 0xfffffffdu};

typedef struct target {
    int live;
    uint64_t order;
    void *object;
    void *pointer;          // set by cdt_chain_set_target (NULL for a new slot)
    cdt_target_kind kind;   // likewise (CDT_TARGET_INDIRECT for a new slot)
    cdt_handle handle[NCHAINS];
    unsigned char has[NMSG];
    const void *handler[NMSG];
} target;

typedef struct stale_handle {
    cdt_handle handle[NCHAINS];
} stale_handle;

typedef struct gen_record {
    uint32_t generation; // 0 = empty
    uint32_t target;     // target record index
    void *object;        // the acquisition's object (records are reused)
} gen_record;

typedef struct held_span {
    int chain;
    int level;
    uint32_t message;
    const cdt_entry *entries;
    size_t count;
    cdt_entry copy[MAXT];
} held_span;

static cdt_chain *chains[NCHAINS];
static cdt_chain embedded_chain; // chain 1 when it is initialized in place (cdt_chain_init)
// A remembered span per chain and message (cdt_chain_lookup_cached), checked against a fresh
// lookup by every verification: a table change that forgot to take a new version would leave
// a remembered span that differs, or points at a freed array.
static cdt_span_cache caches[NCHAINS][NMSG];
static target targets[MAXT];
static int live_count;
static stale_handle stale[MAXSTALE];
static int stale_count;
static unsigned long serial; // acquisitions so far (object pointers are derived from it)
static uint32_t depth;
static gen_record genmap[NCHAINS][GENMAP];
static uint32_t genmap_used[NCHAINS];
static held_span held[MAXDEPTH * NMSG * NCHAINS];
static int held_count;
static int sorted[MAXT]; // live target indices by order
static int sorted_dirty = 1;

static const void *make_handler(uint8_t v) {
    // Opaque handler values; 0 yields a NULL handler, which the core must store like any other.
    return v == 0 ? NULL : (const void *)(uintptr_t)(0x7000u + (uintptr_t)v * 8u);
}

static gen_record *gen_slot(int c, uint32_t generation) {
    uint32_t i = (uint32_t)(generation * 2654435761u) & (GENMAP - 1);
    while (genmap[c][i].generation != 0 && genmap[c][i].generation != generation) i = (i + 1) & (GENMAP - 1);
    return &genmap[c][i];
}

// The live target holding (slot, generation) on chain c, if any.
static const target *owner_of(int c, uint32_t slot, uint32_t generation) {
    gen_record *rec = gen_slot(c, generation);
    if (rec->generation == 0) return NULL;
    const target *t = &targets[rec->target];
    if (!t->live || t->object != rec->object || t->handle[c].generation != generation || t->handle[c].slot != slot) {
        return NULL;
    }
    return t;
}

// MARK: - Injected allocation failures

// Per chain (and one for interning): the allocations still to succeed before the injected
// failure, or -1 when none is armed. OP_FAULT arms the same count on both chains; since both
// receive the same operations they allocate alike, so the failure hits the same call on each.
enum { FAULT_INTERN = NCHAINS };
static int64_t fault_budget[NCHAINS + 1];
static unsigned long faults_hit; // for the trace

static void fault_begin(int who) {
    (void)cdt_debug_fail_allocation_after(fault_budget[who]);
}

// Disarms the hook after a call; returns whether the injected failure happened in that call.
static int fault_end(int who) {
    int64_t left = cdt_debug_fail_allocation_after(-1);
    int hit = fault_budget[who] >= 0 && left < 0;
    fault_budget[who] = left;
    if (hit) faults_hit++;
    return hit;
}

static void sort_live(void) {
    if (!sorted_dirty) return;
    int n = 0;
    for (int i = 0; i < MAXT; i++) {
        if (!targets[i].live) continue;
        int j = n++;
        while (j > 0 && targets[sorted[j - 1]].order > targets[i].order) {
            sorted[j] = sorted[j - 1];
            j--;
        }
        sorted[j] = i;
    }
    CHECK(n == live_count, "model live count %d vs %d", n, live_count);
    for (int k = 1; k < n; k++) {
        CHECK(targets[sorted[k - 1]].order < targets[sorted[k]].order, "model keys not unique");
    }
    sorted_dirty = 0;
}

static int key_in_use(uint64_t key) {
    for (int i = 0; i < MAXT; i++) {
        if (targets[i].live && targets[i].order == key) return 1;
    }
    return 0;
}

// MARK: - Full comparison

static void verify_held(void) {
    for (int h = 0; h < held_count; h++) {
        const held_span *hs = &held[h];
        const cdt_chain *chain = chains[hs->chain];
        // The array a dispatch is reading must stay allocated and unchanged until it leaves
        // (ASan reports a heap-use-after-free here if it was freed), but for the slot addresses,
        // which follow the slot array wherever it moves.
        for (size_t e = 0; e < hs->count; e++) {
            cdt_entry now = hs->entries[e], then = hs->copy[e];
            CHECK(now.slot == then.slot && now.generation == then.generation && now.handler == then.handler,
                  "chain %d: entry %zu of the span of message %u held at depth %d (%zu entries at %p) changed under "
                  "a dispatch",
                  hs->chain, e, hs->message, hs->level, hs->count, (const void *)hs->entries);
            CHECK(now.slot_address == &chain->slots[now.slot],
                  "chain %d: entry %zu of the span of message %u held at depth %d has a stale slot address", hs->chain, e,
                  hs->message, hs->level);
        }
        // A dispatch walking it sees released targets as NULL at once, live ones as their object.
        for (size_t e = 0; e < hs->count; e++) {
            cdt_entry entry = hs->copy[e];
            CHECK(entry.slot < chain->slot_count, "chain %d: held entry slot %u >= slot_count %u", hs->chain,
                  entry.slot, chain->slot_count);
            const target *t = owner_of(hs->chain, entry.slot, entry.generation);
            void *expected = t ? t->object : NULL;
            void *got = cdt_chain_object(chain, entry);
            CHECK(got == expected, "chain %d: cdt_chain_object(held entry slot %u gen %u of message %u) = %p, expected %p",
                  hs->chain, entry.slot, entry.generation, hs->message, got, expected);
        }
    }
}

static int is_orphan(const cdt_chain *chain, cdt_entry entry) {
    return chain->slots[entry.slot].generation != entry.generation;
}

static void verify_chain(int c) {
    const cdt_chain *chain = chains[c];
    cdt_invariant_violation code = cdt_chain_check_invariants(chain);
    CHECK(code == CDT_INVARIANT_OK, "chain %d: cdt_chain_check_invariants = %d", c, (int)code);
    CHECK(chain->depth == depth, "chain %d: depth %u, model %u", c, chain->depth, depth);

    sort_live();
    uint32_t model_entries = 0, model_messages = 0;
    for (int m = 0; m < NMSG; m++) {
        uint32_t n = 0;
        for (int k = 0; k < live_count; k++) n += targets[sorted[k]].has[m];
        model_entries += n;
        model_messages += n > 0;
    }

    // Every live target's slot holds its object, key, generation and target.
    for (int k = 0; k < live_count; k++) {
        const target *t = &targets[sorted[k]];
        cdt_handle h = t->handle[c];
        CHECK(h.slot < chain->slot_count, "chain %d: live handle slot %u >= slot_count %u", c, h.slot, chain->slot_count);
        const cdt_slot *slot = &chain->slots[h.slot];
        CHECK(slot->generation == h.generation && slot->object == t->object && slot->order == t->order,
              "chain %d: slot %u holds (gen %u, object %p, order %llu), model (gen %u, object %p, order %llu)", c, h.slot,
              slot->generation, slot->object, (unsigned long long)slot->order, h.generation, t->object,
              (unsigned long long)t->order);
        CHECK(slot->target == t->pointer && slot->kind == (uint32_t)t->kind,
              "chain %d: slot %u target (%p, kind %u), model (%p, kind %d)", c, h.slot, slot->target, slot->kind,
              t->pointer, (int)t->kind);
    }

    // Every message's span equals the model's ordered responders, with orphans (left by a
    // release out of memory during a dispatch) anywhere in between; an orphan resolves to no
    // object.
    uint32_t orphans = 0, orphan_only_messages = 0;
    for (int m = 0; m < NMSG; m++) {
        cdt_span span = cdt_chain_lookup(chain, MESSAGES[m]);
        int remembered = caches[c][m].version == chain->version;
        cdt_span cached = cdt_chain_lookup_cached(chain, MESSAGES[m], &caches[c][m]);
        CHECK(caches[c][m].end == cached.entries + cached.count, "chain %d: message %u remembered end is not the span's",
              c, MESSAGES[m]);
        CHECK(cached.entries == span.entries && cached.count == span.count,
              "chain %d: message %u remembered span (%p, %zu; %s) differs from its lookup (%p, %zu)", c, MESSAGES[m],
              (const void *)cached.entries, cached.count, remembered ? "version unchanged" : "looked up again",
              (const void *)span.entries, span.count);
        size_t e = 0;
        uint32_t live_here = 0, orphans_here = 0;
        for (int k = 0; k < live_count; k++) {
            const target *t = &targets[sorted[k]];
            if (!t->has[m]) continue;
            while (e < span.count && is_orphan(chain, span.entries[e])) {
                CHECK(cdt_chain_object(chain, span.entries[e]) == NULL, "chain %d: orphan resolves to an object", c);
                orphans_here++;
                e++;
            }
            CHECK(e < span.count, "chain %d: message %u span has %zu entries, model has more", c, MESSAGES[m], span.count);
            cdt_entry entry = span.entries[e];
            CHECK(entry.slot == t->handle[c].slot && entry.generation == t->handle[c].generation &&
                      entry.handler == t->handler[m],
                  "chain %d: message %u entry %zu is (slot %u, gen %u, handler %p), model (slot %u, gen %u, handler %p)",
                  c, MESSAGES[m], e, entry.slot, entry.generation, entry.handler, t->handle[c].slot,
                  t->handle[c].generation, t->handler[m]);
            void *object = cdt_chain_object(chain, entry);
            CHECK(object == t->object, "chain %d: object of message %u entry %zu is %p, expected %p", c, MESSAGES[m], e,
                  object, t->object);
            live_here++;
            e++;
        }
        for (; e < span.count; e++) {
            CHECK(is_orphan(chain, span.entries[e]), "chain %d: message %u span has an extra live entry %zu", c,
                  MESSAGES[m], e);
            CHECK(cdt_chain_object(chain, span.entries[e]) == NULL, "chain %d: orphan resolves to an object", c);
            orphans_here++;
        }
        orphans += orphans_here;
        orphan_only_messages += live_here == 0 && orphans_here > 0;
    }
    for (size_t a = 0; a < sizeof ABSENT_MESSAGES / sizeof ABSENT_MESSAGES[0]; a++) {
        cdt_span span = cdt_chain_lookup(chain, ABSENT_MESSAGES[a]);
        CHECK(span.count == 0, "chain %d: absent message %u has %zu entries", c, ABSENT_MESSAGES[a], span.count);
    }
    CHECK(orphans == 0 || chain->orphans, "chain %d: %u orphans while none are pending", c, orphans);

    cdt_chain_stats stats;
    cdt_chain_get_stats(chain, &stats);
    CHECK(stats.live_slots == (uint32_t)live_count, "chain %d: live_slots %u, model %d", c, stats.live_slots, live_count);
    CHECK(stats.orphaned_entries == orphans, "chain %d: orphaned_entries %u, seen %u", c, stats.orphaned_entries,
          orphans);
    CHECK(stats.entries == model_entries + orphans, "chain %d: entries %u, model %u + %u orphans", c, stats.entries,
          model_entries, orphans);
    CHECK(stats.messages == model_messages + orphan_only_messages, "chain %d: messages %u, model %u + %u orphaned", c,
          stats.messages, model_messages, orphan_only_messages);
}

static void verify_all(void) {
    for (int c = 0; c < NCHAINS; c++) verify_chain(c);
    verify_held();
}

// MARK: - Operations

// A new generation must not be in use: no other live target, no entry of the table (orphans
// included) and no entry of a span a dispatch holds may name it. Once the counter has wrapped
// (or the hook moved it) a generation nothing names any more may be issued again.
static void record_generation(int c, cdt_handle h, int t) {
    CHECK(h.generation != 0, "chain %d: acquire returned generation 0", c);
    for (int i = 0; i < MAXT; i++) {
        CHECK(i == t || !targets[i].live || targets[i].handle[c].generation != h.generation,
              "chain %d: generation %u issued while target %d holds it", c, h.generation, i);
    }
    for (int m = 0; m < NMSG; m++) {
        cdt_span span = cdt_chain_lookup(chains[c], MESSAGES[m]);
        for (size_t e = 0; e < span.count; e++) {
            CHECK(span.entries[e].generation != h.generation, "chain %d: generation %u issued while message %u names it",
                  c, h.generation, MESSAGES[m]);
        }
    }
    for (int k = 0; k < held_count; k++) {
        for (size_t e = 0; held[k].chain == c && e < held[k].count; e++) {
            CHECK(held[k].copy[e].generation != h.generation,
                  "chain %d: generation %u issued while a dispatch holds an entry naming it", c, h.generation);
        }
    }
    gen_record *rec = gen_slot(c, h.generation);
    if (rec->generation == 0) {
        CHECK(genmap_used[c] < GENMAP / 2, "generation map full");
        genmap_used[c]++;
    }
    *rec = (gen_record){h.generation, (uint32_t)t, targets[t].object};
}

static int pick_live(reader *r) {
    if (live_count == 0) return -1;
    sort_live();
    return sorted[rd_u8(r) % live_count];
}

static void push_stale(const target *t) {
    stale_handle s;
    for (int c = 0; c < NCHAINS; c++) s.handle[c] = t->handle[c];
    if (stale_count < MAXSTALE) {
        stale[stale_count++] = s;
    } else {
        memmove(&stale[0], &stale[1], (MAXSTALE - 1) * sizeof stale[0]);
        stale[MAXSTALE - 1] = s;
    }
}

// Renumbers every live key, keeping their relative order (what an owner does when it runs
// out of room between two keys). `step` >= 1; the first key is `base`.
static void renumber_all(uint64_t base, uint64_t step) {
    sort_live();
    if (live_count > 0 && (UINT64_MAX - base) / (uint64_t)live_count < step) {
        base = 0;
        step = 1;
    }
    // Apply in an order that never makes two live keys equal in the model's eyes: the core
    // does not care (spans are not re-sorted), but the final keys must keep the relative order.
    for (int k = 0; k < live_count; k++) {
        target *t = &targets[sorted[k]];
        t->order = base + (uint64_t)k * step;
        for (int c = 0; c < NCHAINS; c++) cdt_chain_set_order(chains[c], t->handle[c], t->order);
    }
    sorted_dirty = 1;
}

// Returns whether the entry was inserted (it fails only out of memory, changing nothing).
static int insert_entry(target *t, int m, const void *handler) {
    int rc[NCHAINS], hit[NCHAINS];
    for (int c = 0; c < NCHAINS; c++) {
        fault_begin(c);
        rc[c] = cdt_chain_insert_entry(chains[c], t->handle[c], MESSAGES[m], handler);
        hit[c] = fault_end(c);
        CHECK(rc[c] == (hit[c] ? -1 : 0), "chain %d: insert_entry(live handle, message %u) = %d (allocation failed: %d)",
              c, MESSAGES[m], rc[c], hit[c]);
    }
    CHECK(rc[0] == rc[1], "chains disagree on insert_entry: %d vs %d", rc[0], rc[1]);
    if (rc[0] != 0) return 0;
    t->has[m] = 1;
    t->handler[m] = handler;
    return 1;
}

// Returns whether the entry is gone (it stays only out of memory during a dispatch).
static int remove_entry(target *t, int m) {
    int rc[NCHAINS];
    for (int c = 0; c < NCHAINS; c++) {
        fault_begin(c);
        rc[c] = cdt_chain_remove_entry(chains[c], t->handle[c], MESSAGES[m]);
        int hit = fault_end(c);
        CHECK(rc[c] == 0 || (rc[c] == -1 && hit && depth > 0 && t->has[m]),
              "chain %d: remove_entry(message %u) = %d (allocation failed: %d, depth %u)", c, MESSAGES[m], rc[c], hit,
              depth);
    }
    CHECK(rc[0] == rc[1], "chains disagree on remove_entry: %d vs %d", rc[0], rc[1]);
    if (rc[0] != 0) return 0;
    t->has[m] = 0;
    t->handler[m] = NULL;
    return 1;
}

// Chooses a free key at sorted position `pos` (0...live_count). Returns 0 and the key, or -1
// if there is no room between the neighbours (the caller renumbers and retries).
static int key_at_position(reader *r, int pos, uint64_t *key_out) {
    sort_live();
    int has_below = pos > 0, has_above = pos < live_count;
    uint64_t below = has_below ? targets[sorted[pos - 1]].order : 0;
    uint64_t above = has_above ? targets[sorted[pos]].order : 0;
    // Open interval (below, above), with missing ends at -1 and 2^64.
    uint64_t lo, hi; // inclusive range of candidates
    if (has_below) {
        if (below == UINT64_MAX) return -1;
        lo = below + 1;
    } else {
        lo = 0;
    }
    if (has_above) {
        if (above == 0) return -1;
        hi = above - 1;
    } else {
        hi = UINT64_MAX;
    }
    if (lo > hi) return -1;
    uint64_t span = hi - lo;
    switch (rd_u8(r) % 5) {
    case 0: *key_out = lo + span / 2; break;                              // midpoint
    case 1: *key_out = lo; break;                                         // right after below
    case 2: *key_out = hi; break;                                         // right before above
    case 3: *key_out = lo + (span < (1u << 24) ? span : (1u << 24)); break; // owner-like step
    default: *key_out = lo + (span == UINT64_MAX ? rd_u64(r) : rd_u64(r) % (span + 1)); break;
    }
    return 0;
}

static void op_acquire(reader *r, int bulk) {
    if (live_count >= MAXT || genmap_used[0] >= GENMAP / 2 - 1) return;
    uint8_t mode = rd_u8(r);
    uint64_t key = 0;
    if (mode % 4 == 3) {
        key = rd_u64(r); // arbitrary key; wherever it sorts
        if (key_in_use(key)) return;
    } else {
        int pos = mode % 4 == 0 ? live_count : (int)(rd_u8(r) % (uint32_t)(live_count + 1));
        if (key_at_position(r, pos, &key) != 0) {
            // No room: renumber like the Swift owner, sometimes with step 1 (keys adjacent, so
            // the next insertion between two of them needs another renumbering).
            uint8_t s = rd_u8(r);
            uint64_t step = s % 3 == 0 ? 1 : s % 3 == 1 ? 2 : (uint64_t)1 << 24;
            renumber_all(step, step);
            if (key_at_position(r, pos, &key) != 0) return;
        }
    }
    int t = 0;
    while (targets[t].live) t++;
    target *tg = &targets[t];
    memset(tg, 0, sizeof *tg);
    tg->live = 1;
    tg->order = key;
    tg->object = (void *)(uintptr_t)(0x100000u + (uintptr_t)(++serial) * 16u);
    int rcs[NCHAINS];
    uint32_t before_counts[NCHAINS];
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain *chain = chains[c];
        before_counts[c] = chain->slot_count;
        fault_begin(c);
        rcs[c] = cdt_chain_acquire(chain, tg->object, key, &tg->handle[c]);
        int hit = fault_end(c);
        CHECK(rcs[c] == (hit ? -1 : 0), "chain %d: acquire = %d (allocation failed: %d)", c, rcs[c], hit);
    }
    CHECK(rcs[0] == rcs[1], "chains disagree on acquire: %d vs %d", rcs[0], rcs[1]);
    if (rcs[0] != 0) {
        tg->live = 0; // out of memory: nothing changed
        return;
    }
    CHECK(tg->handle[0].generation == tg->handle[1].generation, "chains issued generations %u and %u",
          tg->handle[0].generation, tg->handle[1].generation);
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain *chain = chains[c];
        uint32_t before_count = before_counts[c];
        cdt_handle h = tg->handle[c];
        CHECK(h.slot < chain->slot_count && chain->slot_count <= before_count + 1,
              "chain %d: acquire gave slot %u (slot_count %u -> %u)", c, h.slot, before_count, chain->slot_count);
        for (int i = 0; i < MAXT; i++) {
            CHECK(i == t || !targets[i].live || targets[i].handle[c].slot != h.slot,
                  "chain %d: acquire gave slot %u, still held by a live target", c, h.slot);
        }
        record_generation(c, h, t);
    }
    live_count++;
    sorted_dirty = 1;
    if (bulk) {
        uint16_t mask = (uint16_t)(rd_u8(r) | (rd_u8(r) << 8));
        uint8_t hv = rd_u8(r);
        for (int m = 0; m < NMSG; m++) {
            if (mask & (1u << m)) insert_entry(tg, m, make_handler((uint8_t)(hv + m)));
        }
    }
}

static void release_target(uint8_t extra, int t) {
    target *tg = &targets[t];
    // The owner lists the messages its target responds to; sometimes more, or repeated.
    uint32_t messages[NMSG * 2];
    size_t count = 0;
    for (int m = 0; m < NMSG; m++) {
        if (tg->has[m] || (extra & 1 && m % 3 == 0)) messages[count++] = MESSAGES[m];
    }
    if (extra & 2 && count > 0) messages[count++] = messages[0];
    // Shuffle a little so removal order varies.
    if (count > 1) {
        size_t a = (size_t)(extra >> 2) % count, b = (size_t)(extra >> 5) % count;
        uint32_t tmp = messages[a];
        messages[a] = messages[b];
        messages[b] = tmp;
    }
    for (int c = 0; c < NCHAINS; c++) {
        // Never fails: out of memory during a dispatch it leaves orphans (verify_chain checks them).
        fault_begin(c);
        void *object = cdt_chain_release(chains[c], tg->handle[c], messages, count);
        (void)fault_end(c);
        CHECK(object == tg->object, "chain %d: release(live handle) = %p, expected %p", c, object, tg->object);
    }
    push_stale(tg);
    tg->live = 0;
    memset(tg->has, 0, sizeof tg->has);
    live_count--;
    sorted_dirty = 1;
}

static void op_release(reader *r) {
    int t = pick_live(r);
    if (t >= 0) release_target(rd_u8(r), t);
}

static void op_mass_release(reader *r) {
    // Releases a fraction of the live targets: the quickest way to a compactable chain.
    uint8_t keep = rd_u8(r);
    uint8_t extra = rd_u8(r);
    for (int i = 0; i < MAXT; i++) {
        if (targets[i].live && ((keep >> (i & 7)) & 1) == 0) release_target((uint8_t)(extra + i * 37), i);
    }
}

static const stale_handle *pick_stale(reader *r) {
    if (stale_count == 0) return NULL;
    return &stale[rd_u8(r) % stale_count];
}

static void op_stale(reader *r) {
    // Every call with a released handle must fail or do nothing.
    const stale_handle *s = pick_stale(r);
    uint8_t what = rd_u8(r);
    int m = rd_u8(r) % NMSG;
    cdt_handle bogus = {rd_u8(r) % 64u, 0}; // generation 0 is never live
    for (int c = 0; c < NCHAINS; c++) {
        cdt_handle h = s ? s->handle[c] : bogus;
        // After the counter came round, a released (slot, generation) may name a new target.
        int reused = 0;
        for (int t = 0; t < MAXT; t++) {
            reused |= targets[t].live && targets[t].handle[c].slot == h.slot && targets[t].handle[c].generation == h.generation;
        }
        if (reused) continue;
        switch (what % 6) {
        case 0: {
            uint32_t messages[NMSG];
            for (int k = 0; k < NMSG; k++) messages[k] = MESSAGES[k];
            void *object = cdt_chain_release(chains[c], h, messages, NMSG);
            CHECK(object == NULL, "chain %d: release(stale {%u, %u}) = %p", c, h.slot, h.generation, object);
            break;
        }
        case 1: {
            int rc = cdt_chain_insert_entry(chains[c], h, MESSAGES[m], make_handler(what));
            CHECK(rc == -1, "chain %d: insert_entry(stale {%u, %u}) = %d", c, h.slot, h.generation, rc);
            break;
        }
        case 2: {
            int rc = cdt_chain_remove_entry(chains[c], h, MESSAGES[m]);
            CHECK(rc == 0, "chain %d: remove_entry(stale {%u, %u}) = %d", c, h.slot, h.generation, rc);
            break;
        }
        case 3: cdt_chain_set_target(chains[c], h, (void *)(uintptr_t)0xdead0, CDT_TARGET_STRONG); break;
        case 4: {
            cdt_handle unused = {7, 7};
            int rc = cdt_chain_acquire(chains[c], NULL, 1, &unused);
            CHECK(rc == -1 && unused.slot == 7 && unused.generation == 7, "chain %d: acquire(NULL object) = %d", c, rc);
            break;
        }
        default: cdt_chain_set_order(chains[c], h, rd_u64(r)); break;
        }
    }
}

static void op_insert(reader *r) {
    int t = pick_live(r);
    int m = rd_u8(r) % NMSG;
    uint8_t hv = rd_u8(r);
    if (t < 0) return;
    insert_entry(&targets[t], m, make_handler(hv));
}

static void op_insert_message_zero(reader *r) {
    int t = pick_live(r);
    if (t < 0) return;
    for (int c = 0; c < NCHAINS; c++) {
        int rc = cdt_chain_insert_entry(chains[c], targets[t].handle[c], 0, make_handler(1));
        CHECK(rc == -1, "chain %d: insert_entry(message 0) = %d", c, rc);
        // Too late to force collisions once the table exists.
        if (chains[c]->bucket_capacity != 0) {
            CHECK(cdt_chain_debug_force_collisions(chains[c]) == -1, "chain %d: force_collisions on a used table", c);
        }
    }
}

static void op_remove(reader *r) {
    int t = pick_live(r);
    int m = rd_u8(r) % NMSG;
    if (t < 0) return;
    remove_entry(&targets[t], m); // also when the target has no entry for m
}

static void op_enter(void) {
    if (depth >= MAXDEPTH) return;
    depth++;
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain_enter(chains[c]);
        for (int m = 0; m < NMSG; m++) {
            cdt_span span = cdt_chain_lookup(chains[c], MESSAGES[m]);
            if (span.count == 0) continue;
            CHECK(span.count <= MAXT, "span too long");
            held_span *hs = &held[held_count++];
            hs->chain = c;
            hs->level = (int)depth;
            hs->message = MESSAGES[m];
            hs->entries = span.entries;
            hs->count = span.count;
            memcpy(hs->copy, span.entries, span.count * sizeof(cdt_entry));
        }
    }
}

static void op_leave(reader *r) {
    if (depth == 0) return;
    verify_held();
    while (held_count > 0 && held[held_count - 1].level == (int)depth) held_count--;
    depth--;
    for (int c = 0; c < NCHAINS; c++) {
        int pending = cdt_chain_leave(chains[c]);
        cdt_chain_stats stats;
        cdt_chain_get_stats(chains[c], &stats);
        // Work waiting at the outermost leave is always announced; an announcement may outlive
        // its work (a compaction purges orphans without clearing it), which costs one reclaim.
        int waiting = stats.retired_blocks > 0 || stats.orphaned_entries > 0;
        CHECK(depth == 0 ? (pending || !waiting) : !pending,
              "chain %d: leave = %d at depth %u with %u retired, %u orphans", c, pending, depth, stats.retired_blocks,
              stats.orphaned_entries);
    }
    // An owner reclaims when the last dispatch leaves; sometimes defer it to exercise a
    // later reclaim or destroy with retired arrays or orphans still pending.
    if (depth == 0 && (rd_u8(r) & 3) != 0) {
        for (int c = 0; c < NCHAINS; c++) cdt_chain_reclaim(chains[c]);
    }
}

static void op_reclaim(void) {
    if (depth != 0) {
        // Too early: nothing happens while a dispatch is inside.
        for (int c = 0; c < NCHAINS; c++) {
            cdt_chain_stats before, after;
            cdt_chain_get_stats(chains[c], &before);
            cdt_chain_reclaim(chains[c]);
            cdt_chain_get_stats(chains[c], &after);
            CHECK(before.retired_blocks == after.retired_blocks && before.orphaned_entries == after.orphaned_entries,
                  "chain %d: reclaim inside a dispatch changed something", c);
        }
        return;
    }
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain_reclaim(chains[c]);
        cdt_chain_stats stats;
        cdt_chain_get_stats(chains[c], &stats);
        CHECK(stats.retired_blocks == 0, "chain %d: %u retired blocks after reclaim", c, stats.retired_blocks);
        CHECK(stats.orphaned_entries == 0 && !chains[c]->orphans, "chain %d: %u orphans after reclaim", c,
              stats.orphaned_entries);
    }
}

static void op_compact(void) {
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain *chain = chains[c];
        uint32_t before_count = chain->slot_count;
        fault_begin(c);
        int moved = cdt_chain_compact(chain); // out of memory: 0, or 1 with the larger array kept
        (void)fault_end(c);
        CHECK(moved == 0 || moved == 1, "chain %d: compact = %d", c, moved);
        if (!moved) {
            CHECK(chain->slot_count == before_count, "chain %d: compact returned 0 but slot_count %u -> %u", c,
                  before_count, chain->slot_count);
            continue;
        }
        CHECK(depth == 0, "chain %d: compact moved slots at depth %u", c, depth);
        CHECK((uint32_t)live_count * 2 < before_count, "chain %d: compacted with %d live of %u used slots", c,
              live_count, before_count);
        CHECK(chain->slot_count == (uint32_t)live_count, "chain %d: after compact slot_count %u, live %d", c,
              chain->slot_count, live_count);
        // Re-read handles the way an owner does: walk the slots, map object -> new index.
        uint32_t seen = 0;
        int64_t last_old = -1;
        sort_live();
        // Old slot order, to check compaction is stable.
        for (uint32_t i = 0; i < chain->slot_count; i++) {
            const cdt_slot *slot = &chain->slots[i];
            if (slot->generation == 0) continue;
            int found = -1;
            for (int t = 0; t < MAXT; t++) {
                if (targets[t].live && targets[t].object == slot->object) found = t;
            }
            CHECK(found >= 0, "chain %d: compacted slot %u holds unknown object %p", c, i, slot->object);
            target *tg = &targets[found];
            CHECK(tg->handle[c].generation == slot->generation, "chain %d: compacted slot %u generation %u, handle %u",
                  c, i, slot->generation, tg->handle[c].generation);
            CHECK((int64_t)tg->handle[c].slot > last_old, "chain %d: compaction reordered slots", c);
            last_old = tg->handle[c].slot;
            tg->handle[c].slot = i;
            seen++;
        }
        CHECK(seen == (uint32_t)live_count, "chain %d: %u live slots after compact, model %d", c, seen, live_count);
        if (trace) fprintf(stderr, "  chain %d compacted %u -> %u slots\n", c, before_count, chain->slot_count);
    }
}

static void op_set_order(reader *r) {
    uint8_t mode = rd_u8(r);
    if (mode & 1) {
        // Renumber everything.
        uint8_t s = rd_u8(r);
        uint64_t step = s % 4 == 0 ? 1 : s % 4 == 1 ? (uint64_t)1 << 24 : s % 4 == 2 ? (uint64_t)rd_u8(r) + 1 : rd_u64(r) | 1;
        uint64_t base = (mode & 2) ? rd_u64(r) >> 8 : (mode & 4) ? 0 : step;
        renumber_all(base, step);
    } else {
        // Nudge one key within its neighbours.
        int t = pick_live(r);
        if (t < 0) return;
        sort_live();
        int pos = 0;
        while (sorted[pos] != t) pos++;
        target *tg = &targets[t];
        tg->live = 0; // out of the way while choosing
        live_count--;
        sorted_dirty = 1;
        uint64_t key = tg->order;
        int ok = key_at_position(r, pos, &key);
        tg->live = 1;
        live_count++;
        sorted_dirty = 1;
        CHECK(ok == 0, "model: own key must fit");
        tg->order = key;
        for (int c = 0; c < NCHAINS; c++) cdt_chain_set_order(chains[c], tg->handle[c], key);
    }
}

static void op_move(reader *r) {
    // The owner's move: remove the target's entries, change its key freely, re-insert them.
    int t = pick_live(r);
    if (t < 0) return;
    target *tg = &targets[t];
    unsigned char had[NMSG];
    const void *handlers[NMSG];
    memcpy(had, tg->has, sizeof had);
    memcpy(handlers, tg->handler, sizeof handlers);
    int all_removed = 1;
    for (int m = 0; m < NMSG; m++) {
        if (had[m]) all_removed &= remove_entry(tg, m);
    }
    verify_all();
    if (!all_removed) {
        // Out of memory during a dispatch: an entry could not be removed, so the key must not
        // change under it (the Swift owner stops here too). Put back what was removed.
        for (int m = 0; m < NMSG; m++) {
            if (had[m] && !tg->has[m]) insert_entry(tg, m, handlers[m]);
        }
        return;
    }
    // New key at a new position (or anywhere).
    tg->live = 0;
    live_count--;
    sorted_dirty = 1;
    uint8_t mode = rd_u8(r);
    uint64_t key = tg->order;
    if (mode & 1) {
        uint64_t k = rd_u64(r);
        if (!key_in_use(k)) key = k;
    } else {
        int pos = (int)(rd_u8(r) % (uint32_t)(live_count + 1));
        if (key_at_position(r, pos, &key) != 0) key = tg->order;
    }
    tg->live = 1;
    live_count++;
    sorted_dirty = 1;
    tg->order = key;
    for (int c = 0; c < NCHAINS; c++) cdt_chain_set_order(chains[c], tg->handle[c], key);
    for (int m = 0; m < NMSG; m++) {
        if (had[m]) insert_entry(tg, m, handlers[m]);
    }
}

static void op_fault(reader *r) {
    // Arms a failure a few allocations ahead, the same on both chains; it stays armed until it
    // happens. With the high bit, interning gets one too.
    uint8_t v = rd_u8(r);
    for (int c = 0; c < NCHAINS; c++) fault_budget[c] = v % 8;
    if (v & 0x80) fault_budget[FAULT_INTERN] = (v >> 3) % 4;
}

static void op_set_generation(reader *r) {
    uint8_t mode = rd_u8(r);
    uint32_t next;
    switch (mode % 4) {
    case 0:
    case 1: next = UINT32_MAX - (uint32_t)(rd_u8(r) % 16); break; // a few acquisitions before the wrap
    case 2: next = (uint32_t)(rd_u8(r) % 48); break;              // back among the live ones (0 means 1)
    default: next = (uint32_t)rd_u64(r); break;
    }
    for (int c = 0; c < NCHAINS; c++) cdt_chain_debug_set_next_generation(chains[c], next);
}

static void op_set_target(reader *r) {
    int t = pick_live(r);
    uint8_t v = rd_u8(r);
    if (t < 0) return;
    target *tg = &targets[t];
    tg->pointer = v < 16 ? NULL : (void *)(uintptr_t)(0x900000u + (uintptr_t)v * 16u);
    tg->kind = (cdt_target_kind)(v % 3);
    for (int c = 0; c < NCHAINS; c++) cdt_chain_set_target(chains[c], tg->handle[c], tg->pointer, tg->kind);
}

// MARK: - The invariant checker itself

// Breaks one invariant of chain 0 in place, checks that cdt_chain_check_invariants names it,
// and restores the chain. With `scratch_fails` the checker's own allocation fails (it must
// then find the same by comparing every pair).
static void expect_violation(const cdt_chain *chain, cdt_invariant_violation expected, int scratch_fails,
                             const char *what) {
    if (scratch_fails) (void)cdt_debug_fail_allocation_after(0);
    cdt_invariant_violation got = cdt_chain_check_invariants(chain);
    (void)cdt_debug_fail_allocation_after(-1);
    CHECK(got == expected, "checker: %s gave %d, expected %d", what, (int)got, (int)expected);
}

// The pick-th used bucket with at least min_count entries, or NULL.
static cdt_bucket *pick_bucket(cdt_chain *chain, uint8_t pick, uint32_t min_count) {
    uint32_t seen = 0;
    for (int round = 0; round < 2; round++) {
        for (uint32_t b = 0; b < chain->bucket_capacity; b++) {
            cdt_bucket *bucket = &chain->buckets[b];
            if (bucket->message == 0 || bucket->count < min_count) continue;
            if (round == 1 && seen-- == 0) return bucket;
            if (round == 0) seen++;
        }
        if (seen == 0) return NULL;
        seen = pick % seen;
    }
    return NULL;
}

// A table more than half full cannot be reached through the API: build one by hand.
static void check_overfull_table(int scratch_fails) {
    cdt_slot slots[1] = {{.object = (void *)(uintptr_t)0x10, .order = 1, .generation = 1}};
    cdt_entry entries[2] = {{0, 1, NULL, &slots[0]}, {0, 1, NULL, &slots[0]}};
    cdt_bucket buckets[2] = {{MESSAGES[0], 1, 1, 0, &entries[0]}, {MESSAGES[1], 1, 1, 0, &entries[1]}};
    cdt_chain fake;
    memset(&fake, 0, sizeof fake);
    fake.slots = slots;
    fake.slot_count = fake.slot_capacity = fake.live_slots = 1;
    fake.buckets = buckets;
    fake.bucket_capacity = fake.bucket_used = 2;
    fake.shift = 63; // multiplier 0: both messages' home is bucket 0
    fake.last_generation = 1;
    fake.total_entries = 2;
    expect_violation(&fake, CDT_INVARIANT_LOAD_FACTOR, scratch_fails, "two used buckets of two");
}

static void op_corrupt(reader *r) {
    cdt_chain *chain = chains[0];
    uint8_t kind = rd_u8(r), pick = rd_u8(r);
    int scratch_fails = kind & 0x80;
    sort_live();
    cdt_slot *live = live_count ? &chain->slots[targets[sorted[pick % live_count]].handle[0].slot] : NULL;
    switch (kind % 15) {
    case 0:
        if (!live) return;
        void *object = live->object;
        live->object = NULL;
        expect_violation(chain, CDT_INVARIANT_LIVE_SLOT_WITHOUT_OBJECT, scratch_fails, "live slot without object");
        live->object = object;
        break;
    case 1:
        if (pick & 1 && chain->slot_count > 0) {
            uint32_t capacity = chain->slot_capacity;
            chain->slot_capacity = chain->slot_count - 1;
            expect_violation(chain, CDT_INVARIANT_SLOT_COUNTS, scratch_fails, "slot_count beyond the capacity");
            chain->slot_capacity = capacity;
            break;
        }
        chain->live_slots += 1;
        expect_violation(chain, CDT_INVARIANT_SLOT_COUNTS, scratch_fails, "live_slots one too many");
        chain->live_slots -= 1;
        break;
    case 2: {
        if (chain->free_head == 0) return;
        uint32_t head = chain->free_head;
        cdt_slot *first = &chain->slots[head - 1];
        uint32_t next = first->next_free;
        switch (pick % 3) {
        case 0: chain->free_head = chain->slot_count + 1; break; // beyond the used slots
        case 1: first->next_free = head; break;                  // a loop
        default:
            if (!live) return;
            chain->free_head = (uint32_t)(live - chain->slots) + 1; // a live slot
            break;
        }
        expect_violation(chain, CDT_INVARIANT_FREE_LIST_BROKEN, scratch_fails, "free list broken");
        chain->free_head = head;
        first->next_free = next;
        break;
    }
    case 3: {
        if (chain->free_head == 0) return;
        uint32_t head = chain->free_head;
        chain->free_head = 0;
        expect_violation(chain, CDT_INVARIANT_FREE_LIST_INCOMPLETE, scratch_fails, "free list dropped");
        chain->free_head = head;
        break;
    }
    case 4: {
        cdt_bucket *bucket = pick_bucket(chain, pick, 1);
        if (!bucket) return;
        cdt_bucket saved = *bucket;
        switch (pick % 4) {
        case 0: bucket->count = 0; break;
        case 1: bucket->front = bucket->capacity + 1; break;
        case 2: bucket->count = bucket->capacity - bucket->front + 1; break;
        default: bucket->entries = NULL; break;
        }
        expect_violation(chain, CDT_INVARIANT_BUCKET_SHAPE, scratch_fails, "bucket shape");
        *bucket = saved;
        break;
    }
    case 5: {
        // Move a bucket past the first empty bucket after its home.
        cdt_bucket *bucket = pick_bucket(chain, pick, 1);
        if (!bucket) return;
        uint32_t mask = chain->bucket_capacity - 1, b = (uint32_t)(bucket - chain->buckets);
        uint32_t z = cdt_home_bucket(bucket->message, chain->multiplier, chain->shift);
        while (chain->buckets[z].message != 0) z = (z + 1) & mask;
        uint32_t e = (z + 1) & mask;
        while (chain->buckets[e].message != 0) e = (e + 1) & mask;
        if (e == z) return;
        chain->buckets[e] = *bucket;
        *bucket = (cdt_bucket){0, 0, 0, 0, NULL};
        expect_violation(chain, CDT_INVARIANT_BUCKET_UNREACHABLE, scratch_fails, "bucket beyond an empty one");
        chain->buckets[b] = chain->buckets[e];
        chain->buckets[e] = (cdt_bucket){0, 0, 0, 0, NULL};
        break;
    }
    case 6: {
        cdt_bucket *bucket = pick_bucket(chain, pick, 1);
        if (!bucket) return;
        cdt_entry *entry = &bucket->entries[pick % bucket->count], saved = *entry;
        if (pick & 1) entry->slot = chain->slot_count; else entry->generation = 0;
        expect_violation(chain, CDT_INVARIANT_ENTRY_SLOT, scratch_fails, "entry beyond the slots or of generation 0");
        *entry = saved;
        break;
    }
    case 7: {
        cdt_bucket *bucket = pick_bucket(chain, pick, 1);
        if (!bucket || chain->orphans) return;
        cdt_entry *entry = &bucket->entries[pick % bucket->count];
        uint32_t generation = entry->generation;
        entry->generation = generation == 0x40000000u ? 1 : generation ^ 0x40000000u;
        expect_violation(chain, CDT_INVARIANT_ENTRY_STALE, scratch_fails, "entry of another generation");
        entry->generation = generation;
        break;
    }
    case 8: {
        cdt_bucket *bucket = pick_bucket(chain, pick, 2);
        if (!bucket) return;
        for (uint32_t e = 0; e + 1 < bucket->count; e++) {
            cdt_entry *a = &bucket->entries[e], *b = a + 1;
            if (is_orphan(chain, *a) || is_orphan(chain, *b)) continue;
            cdt_entry saved = *a;
            *a = *b;
            *b = saved;
            expect_violation(chain, CDT_INVARIANT_ENTRY_ORDER, scratch_fails, "two responders swapped");
            *b = *a;
            *a = saved;
            break;
        }
        break;
    }
    case 9: {
        uint32_t *counter = pick & 1 ? &chain->bucket_used : &chain->total_entries;
        *counter += 1;
        expect_violation(chain, CDT_INVARIANT_TABLE_COUNTS, scratch_fails, "a table counter one too many");
        *counter -= 1;
        break;
    }
    case 10: {
        if (live_count < 2) return;
        cdt_slot *other = &chain->slots[targets[sorted[(pick + 1) % live_count]].handle[0].slot];
        uint32_t generation = other->generation;
        other->generation = live->generation;
        expect_violation(chain, CDT_INVARIANT_GENERATION_DUPLICATE, scratch_fails, "two slots of one generation");
        other->generation = generation;
        break;
    }
    case 11: {
        // The counter moved back behind live generations without a skip list.
        if (!live) return;
        struct cdt_generation_skip *skip = chain->skip;
        uint32_t last = chain->last_generation, rescan = chain->rescan;
        chain->rescan = 0;
        chain->last_generation = live->generation - 1;
        cdt_bucket *bucket = chain->orphans ? pick_bucket(chain, pick, 1) : NULL;
        if (bucket && pick % 3 == 2) {
            // An orphan ahead of the counter (live generations behind it).
            for (uint32_t e = 0; e < bucket->count; e++) {
                cdt_entry *entry = &bucket->entries[e];
                if (!is_orphan(chain, *entry)) continue;
                uint32_t generation = entry->generation;
                chain->skip = NULL;
                chain->last_generation = UINT32_MAX - 1;
                for (int k = 0; k < live_count; k++) {
                    if (targets[sorted[k]].handle[0].generation == UINT32_MAX) chain->last_generation = UINT32_MAX;
                }
                entry->generation = UINT32_MAX;
                if (chain->last_generation == UINT32_MAX - 1) {
                    expect_violation(chain, CDT_INVARIANT_GENERATION_REISSUE, scratch_fails, "orphan ahead of the counter");
                }
                entry->generation = generation;
                break;
            }
        } else if (pick & 1) {
            chain->skip = NULL;
            expect_violation(chain, CDT_INVARIANT_GENERATION_REISSUE, scratch_fails, "counter behind a live generation");
        } else {
            // With the skip list kept, it depends on whether it holds the generation.
            cdt_invariant_violation got = cdt_chain_check_invariants(chain);
            CHECK(got == CDT_INVARIANT_OK || got == CDT_INVARIANT_GENERATION_REISSUE,
                  "checker: counter moved back gave %d", (int)got);
            CHECK(skip || got == CDT_INVARIANT_GENERATION_REISSUE, "checker: counter moved back, no skip list, gave %d",
                  (int)got);
        }
        chain->skip = skip;
        chain->last_generation = last;
        chain->rescan = rescan;
        break;
    }
    case 12: check_overfull_table(scratch_fails); break;
    case 13: {
        cdt_bucket *bucket = pick_bucket(chain, pick, 1);
        if (!bucket) return;
        cdt_entry *entry = &bucket->entries[pick % bucket->count];
        const cdt_slot *address = entry->slot_address;
        entry->slot_address = address + 1; // where the slot array moves nothing
        expect_violation(chain, CDT_INVARIANT_ENTRY_ADDRESS, scratch_fails, "entry with another slot's address");
        entry->slot_address = address;
        break;
    }
    default: expect_violation(chain, CDT_INVARIANT_OK, scratch_fails, "an intact chain"); break;
    }
}

// MARK: - Interning (process-wide, so its model is too)

typedef struct intern_name {
    const char *bytes;
    size_t length;
} intern_name;

static const char LONG_NAME[] =
    "fz.aVeryLongMessageNameThatGoesOnAndOnToMakeSureNothingAssumesShortNames(_:didChangeSomethingImportant:with:)"
    "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz";
static const intern_name NAMES[] = {
    {"", 0},
    {"a", 1},
    {"a\0b", 3},
    {"a\0c", 3},
    {"ab", 2},
    {"fz.didScroll", 12},
    {"fz.didScroll(_:)", 16},
    {"fz.willBegin", 12},
    {"fz.shouldBegin", 14},
    {"fz.x", 4},
    {"fz.y", 4},
    {"fz.\xff\xfe", 5},
    {LONG_NAME, sizeof LONG_NAME - 1},
};
enum { NNAMES = sizeof NAMES / sizeof NAMES[0] };
static const char SIGNATURE_TAGS[3] = {0, 0, 0};
static const char *const SIGNATURE_NAMES[3] = {"Void", NULL, "(Int, String) -> Bool"};

enum { NSIGS = 3 };
static uint32_t intern_ids[NNAMES][NSIGS]; // 0 until (name, signature) is interned by the harness
static uint32_t intern_baseline;           // messages interned before the harness's own

// Fresh names, so that the interner keeps growing its index and records (and failing to) after
// the fixed names are all in; bounded, since interned names live as long as the process.
enum { MAX_FRESH = 2048 };
static uint32_t fresh_names;

static void op_intern_fresh(void) {
    if (fresh_names >= MAX_FRESH) return;
    char name[32];
    int length = snprintf(name, sizeof name, "fz.fresh.%u:", fresh_names);
    const char *described = fresh_names % 2 ? NULL : "fresh";
    uint32_t before = cdt_intern_count(), id = 0;
    fault_begin(FAULT_INTERN);
    cdt_intern_status status = cdt_intern(name, (size_t)length, &SIGNATURE_TAGS[0], described, &id);
    int hit = fault_end(FAULT_INTERN);
    if (hit) {
        CHECK(status == CDT_INTERN_NO_MEMORY, "intern(fresh) out of memory: status %d", (int)status);
        CHECK(cdt_intern_count() == before, "intern count changed by a failed intern");
        return;
    }
    CHECK(status == CDT_INTERN_OK && id == before + 1 && cdt_intern_count() == before + 1,
          "intern(fresh %u) status %d id %u (count %u)", fresh_names, (int)status, id, before);
    fresh_names++;
    size_t got_length = 0;
    const char *got = cdt_intern_name(id, &got_length);
    CHECK(got && got_length == (size_t)length && memcmp(got, name, got_length) == 0 && cdt_intern_name(id, NULL) == got,
          "intern_name(fresh %u)", id);
    const char *got_described = cdt_intern_signature_name(id);
    CHECK(described ? (got_described && strcmp(got_described, described) == 0) : got_described == NULL,
          "intern_signature_name(fresh %u)", id);
}

// A message is (name, signature): the same pair gives the same id, another signature another id.
static void op_intern(reader *r) {
    uint8_t which = rd_u8(r);
    if (which % (NNAMES + 1) == NNAMES) {
        op_intern_fresh();
        return;
    }
    int n = which % (NNAMES + 1);
    int s = rd_u8(r) % NSIGS;
    const void *signature = &SIGNATURE_TAGS[s];
    uint32_t count_before = cdt_intern_count();
    uint32_t id = 0;
    fault_begin(FAULT_INTERN);
    cdt_intern_status status = cdt_intern(NAMES[n].bytes, NAMES[n].length, signature, SIGNATURE_NAMES[s], &id);
    int hit = fault_end(FAULT_INTERN);
    if (intern_ids[n][s] == 0) {
        if (hit) {
            // Out of memory: reported, and nothing interned.
            CHECK(status == CDT_INTERN_NO_MEMORY, "intern(new message %d/%d) out of memory: status %d", n, s, (int)status);
            CHECK(cdt_intern_count() == count_before, "intern count changed by a failed intern");
            return;
        }
        CHECK(status == CDT_INTERN_OK, "intern(new message %d/%d) status %d", n, s, (int)status);
        CHECK(id == count_before + 1, "intern(new message %d/%d) id %u, expected dense %u", n, s, id, count_before + 1);
        CHECK(cdt_intern_count() == count_before + 1, "intern count %u after new message, was %u", cdt_intern_count(),
              count_before);
        for (int k = 0; k < NSIGS; k++) {
            CHECK(k == s || intern_ids[n][k] != id, "name %d: signatures %d and %d share id %u", n, k, s, id);
        }
        intern_ids[n][s] = id;
    } else {
        CHECK(!hit, "intern of a known message allocated");
        CHECK(status == CDT_INTERN_OK, "intern(known message %d/%d) status %d", n, s, (int)status);
        CHECK(id == intern_ids[n][s], "intern(message %d/%d) id %u, first %u", n, s, id, intern_ids[n][s]);
        CHECK(cdt_intern_count() == count_before, "intern count changed on a known message");
    }
    size_t length = 12345;
    const char *name = cdt_intern_name(id, &length);
    CHECK(name && length == NAMES[n].length && memcmp(name, NAMES[n].bytes, length) == 0,
          "intern_name(%u) does not give back name %d", id, n);
    const char *described = cdt_intern_signature_name(id);
    CHECK(SIGNATURE_NAMES[s] ? (described && strcmp(described, SIGNATURE_NAMES[s]) == 0) : described == NULL,
          "intern_signature_name(%u) is '%s', expected '%s'", id, described ? described : "(null)",
          SIGNATURE_NAMES[s] ? SIGNATURE_NAMES[s] : "(null)");
    uint32_t count = cdt_intern_count();
    CHECK(cdt_intern_name(0, NULL) == NULL, "intern_name(0) not NULL");
    CHECK(cdt_intern_name(count + 1, NULL) == NULL, "intern_name(count + 1) not NULL");
    CHECK(cdt_intern_signature_name(0) == NULL, "intern_signature_name(0) not NULL");
    CHECK(cdt_intern_signature_name(count + 1) == NULL, "intern_signature_name(count + 1) not NULL");
    uint32_t mine = 0;
    for (int k = 0; k < NNAMES; k++) {
        for (int g = 0; g < NSIGS; g++) mine += intern_ids[k][g] != 0;
    }
    CHECK(count == intern_baseline + fresh_names + mine, "intern count %u, expected %u", count,
          intern_baseline + fresh_names + mine);
}

// MARK: - Driver

enum {
    OP_ACQUIRE,
    OP_ACQUIRE_BULK,
    OP_RELEASE,
    OP_MASS_RELEASE,
    OP_STALE,
    OP_INSERT,
    OP_INSERT2,
    OP_INSERT_ZERO,
    OP_REMOVE,
    OP_ENTER,
    OP_LEAVE,
    OP_RECLAIM,
    OP_COMPACT,
    OP_SET_ORDER,
    OP_MOVE,
    OP_INTERN,
    OP_FAULT,
    OP_SET_GENERATION,
    OP_SET_TARGET,
    OP_CORRUPT,
    OP_COUNT
};
static const char *const OP_NAMES[OP_COUNT] = {
    "acquire", "acquire+entries", "release", "mass-release", "stale-handle", "insert", "insert", "insert-message-0",
    "remove",  "enter",           "leave",   "reclaim",      "compact",      "set-order", "move", "intern",
    "fault",   "set-generation",  "set-target", "corrupt",
};

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *env = getenv("CDT_FUZZ_TRACE");
    trace = env && *env && *env != '0';
    intern_baseline = cdt_intern_count();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    current_op_index = 0;
    current_op_name = "setup";

    for (int who = 0; who <= NCHAINS; who++) fault_budget[who] = -1;
    faults_hit = 0;
    uint8_t mode = rd_u8(&r);
    if (mode & 0x80) {
        // Creation out of memory reports NULL.
        fault_budget[0] = 0;
        fault_begin(0);
        cdt_chain *failed = cdt_chain_create();
        CHECK(fault_end(0) && failed == NULL, "create out of memory gave %p", (void *)failed);
    }
    // Chain 0: hashed with an input-chosen multiplier (so a failing input reproduces; the
    // arc4random seed would not). The table is empty, so setting it here is safe.
    memset(caches, 0, sizeof caches);
    chains[0] = cdt_chain_create();
    CHECK(chains[0] != NULL, "create failed");
    switch (mode % 4) {
    case 0:
    case 1: chains[0]->multiplier = rd_u64(&r) | 1; break;
    case 2: chains[0]->multiplier = 1; break; // small ids all land in bucket 0 too
    default: chains[0]->multiplier = 0x9e3779b97f4a7c15ull; break;
    }
    // Chain 1: every message in one bucket cluster, through either hook; through the per-chain
    // hook it lives in the harness's own storage (cdt_chain_init), as in a Swift DispatchTable.
    if (mode & 0x40) {
        cdt_chain_init(&embedded_chain);
        chains[1] = &embedded_chain;
        CHECK(cdt_chain_debug_force_collisions(chains[1]) == 0, "forced-collision chain");
    } else {
        cdt_debug_set_force_collisions(1);
        chains[1] = cdt_chain_create();
        cdt_debug_set_force_collisions(0);
    }
    CHECK(chains[1] != NULL && chains[1]->multiplier == 0, "forced-collision chain");

    memset(targets, 0, sizeof targets);
    memset(genmap, 0, sizeof genmap);
    memset(genmap_used, 0, sizeof genmap_used);
    live_count = 0;
    stale_count = 0;
    serial = 0;
    depth = 0;
    held_count = 0;
    sorted_dirty = 1;
    verify_all();

    while (r.n > 0) {
        uint8_t op = rd_u8(&r) % OP_COUNT;
        current_op_index++;
        current_op_name = OP_NAMES[op];
        if (trace) {
            fprintf(stderr, "op #%lu %-16s depth %u live %d slot_count %u/%u next generation %u faults %lu\n",
                    current_op_index, current_op_name, depth, live_count, chains[0]->slot_count, chains[1]->slot_count,
                    chains[0]->last_generation + 1, faults_hit);
        }
        switch (op) {
        case OP_ACQUIRE: op_acquire(&r, 0); break;
        case OP_ACQUIRE_BULK: op_acquire(&r, 1); break;
        case OP_RELEASE: op_release(&r); break;
        case OP_MASS_RELEASE: op_mass_release(&r); break;
        case OP_STALE: op_stale(&r); break;
        case OP_INSERT:
        case OP_INSERT2: op_insert(&r); break;
        case OP_INSERT_ZERO: op_insert_message_zero(&r); break;
        case OP_REMOVE: op_remove(&r); break;
        case OP_ENTER: op_enter(); break;
        case OP_LEAVE: op_leave(&r); break;
        case OP_RECLAIM: op_reclaim(); break;
        case OP_COMPACT: op_compact(); break;
        case OP_SET_ORDER: op_set_order(&r); break;
        case OP_MOVE: op_move(&r); break;
        case OP_INTERN: op_intern(&r); break;
        case OP_FAULT: op_fault(&r); break;
        case OP_SET_GENERATION: op_set_generation(&r); break;
        case OP_SET_TARGET: op_set_target(&r); break;
        default: op_corrupt(&r); break;
        }
        verify_all();
    }

    // Wind down like an owner: leave every dispatch, then release everything.
    current_op_name = "teardown";
    for (int who = 0; who <= NCHAINS; who++) fault_budget[who] = -1;
    while (depth > 0) op_leave(&r);
    for (int t = 0; t < MAXT; t++) {
        if (targets[t].live) release_target((uint8_t)t, t);
    }
    verify_all();
    // Destroy sometimes with retired arrays or orphans pending: destroy must free them
    // (LeakSanitizer).
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain_stats stats;
        cdt_chain_get_stats(chains[c], &stats);
        // Orphans may still wait for a reclaim: destroy frees them too.
        CHECK(stats.entries == stats.orphaned_entries && (stats.messages == 0) == (stats.entries == 0) &&
                  stats.live_slots == 0,
              "chain %d not empty at teardown", c);
        if (chains[c] == &embedded_chain) {
            cdt_chain_deinit(chains[c]);
        } else {
            cdt_chain_destroy(chains[c]);
        }
        chains[c] = NULL;
    }
    cdt_chain_destroy(NULL); // does nothing
    return 0;
}
