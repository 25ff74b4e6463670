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

static const target *owner_of(int c, uint32_t generation) {
    gen_record *rec = gen_slot(c, generation);
    if (rec->generation == 0) return NULL;
    const target *t = &targets[rec->target];
    if (!t->live || t->object != rec->object || t->handle[c].generation != generation) return NULL;
    return t;
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
        // (ASan reports a heap-use-after-free here if it was freed).
        CHECK(hs->count == 0 || memcmp(hs->entries, hs->copy, hs->count * sizeof(cdt_entry)) == 0,
              "chain %d: span of message %u held at depth %d (%zu entries at %p) changed under a dispatch",
              hs->chain, hs->message, hs->level, hs->count, (const void *)hs->entries);
        // A dispatch walking it sees released targets as NULL at once, live ones as their object.
        for (size_t e = 0; e < hs->count; e++) {
            cdt_entry entry = hs->copy[e];
            CHECK(entry.slot < chain->slot_count, "chain %d: held entry slot %u >= slot_count %u", hs->chain,
                  entry.slot, chain->slot_count);
            const target *t = owner_of(hs->chain, entry.generation);
            void *expected = t ? t->object : NULL;
            void *got = cdt_chain_object(chain, entry);
            CHECK(got == expected, "chain %d: cdt_chain_object(held entry slot %u gen %u of message %u) = %p, expected %p",
                  hs->chain, entry.slot, entry.generation, hs->message, got, expected);
        }
    }
}

static void verify_chain(int c) {
    const cdt_chain *chain = chains[c];
    int code = cdt_chain_check_invariants(chain);
    CHECK(code == 0, "chain %d: cdt_chain_check_invariants = %d", c, code);
    CHECK(chain->depth == depth, "chain %d: depth %u, model %u", c, chain->depth, depth);

    sort_live();
    uint32_t model_entries = 0, model_messages = 0;
    for (int m = 0; m < NMSG; m++) {
        uint32_t n = 0;
        for (int k = 0; k < live_count; k++) n += targets[sorted[k]].has[m];
        model_entries += n;
        model_messages += n > 0;
    }
    cdt_chain_stats stats;
    cdt_chain_get_stats(chain, &stats);
    CHECK(stats.live_slots == (uint32_t)live_count, "chain %d: live_slots %u, model %d", c, stats.live_slots, live_count);
    CHECK(stats.entries == model_entries, "chain %d: entries %u, model %u", c, stats.entries, model_entries);
    CHECK(stats.messages == model_messages, "chain %d: messages %u, model %u", c, stats.messages, model_messages);

    // Every live target's slot holds its object, key and generation.
    for (int k = 0; k < live_count; k++) {
        const target *t = &targets[sorted[k]];
        cdt_handle h = t->handle[c];
        CHECK(h.slot < chain->slot_count, "chain %d: live handle slot %u >= slot_count %u", c, h.slot, chain->slot_count);
        const cdt_slot *slot = &chain->slots[h.slot];
        CHECK(slot->generation == h.generation && slot->object == t->object && slot->order == t->order,
              "chain %d: slot %u holds (gen %u, object %p, order %llu), model (gen %u, object %p, order %llu)", c, h.slot,
              slot->generation, slot->object, (unsigned long long)slot->order, h.generation, t->object,
              (unsigned long long)t->order);
    }

    // Every message's span equals the model's ordered responders.
    for (int m = 0; m < NMSG; m++) {
        cdt_span span = cdt_chain_lookup(chain, MESSAGES[m]);
        size_t e = 0;
        for (int k = 0; k < live_count; k++) {
            const target *t = &targets[sorted[k]];
            if (!t->has[m]) continue;
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
            e++;
        }
        CHECK(e == span.count, "chain %d: message %u span has %zu entries, model %zu", c, MESSAGES[m], span.count, e);
    }
    for (size_t a = 0; a < sizeof ABSENT_MESSAGES / sizeof ABSENT_MESSAGES[0]; a++) {
        cdt_span span = cdt_chain_lookup(chain, ABSENT_MESSAGES[a]);
        CHECK(span.count == 0, "chain %d: absent message %u has %zu entries", c, ABSENT_MESSAGES[a], span.count);
    }
}

static void verify_all(void) {
    for (int c = 0; c < NCHAINS; c++) verify_chain(c);
    verify_held();
}

// MARK: - Operations

static void record_generation(int c, cdt_handle h, int t) {
    CHECK(h.generation != 0, "chain %d: acquire returned generation 0", c);
    gen_record *rec = gen_slot(c, h.generation);
    CHECK(rec->generation == 0, "chain %d: generation %u issued twice", c, h.generation);
    CHECK(genmap_used[c] < GENMAP / 2, "generation map full");
    *rec = (gen_record){h.generation, (uint32_t)t, targets[t].object};
    genmap_used[c]++;
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

static void insert_entry(target *t, int m, const void *handler) {
    for (int c = 0; c < NCHAINS; c++) {
        int rc = cdt_chain_insert_entry(chains[c], t->handle[c], MESSAGES[m], handler);
        CHECK(rc == 0, "chain %d: insert_entry(live handle, message %u) = %d", c, MESSAGES[m], rc);
    }
    t->has[m] = 1;
    t->handler[m] = handler;
}

static void remove_entry(target *t, int m) {
    for (int c = 0; c < NCHAINS; c++) cdt_chain_remove_entry(chains[c], t->handle[c], MESSAGES[m]);
    t->has[m] = 0;
    t->handler[m] = NULL;
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
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain *chain = chains[c];
        uint32_t before_count = chain->slot_count;
        int rc = cdt_chain_acquire(chain, tg->object, key, &tg->handle[c]);
        CHECK(rc == 0, "chain %d: acquire = %d", c, rc);
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
        void *object = cdt_chain_release(chains[c], tg->handle[c], messages, count);
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
        switch (what % 4) {
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
        case 2: cdt_chain_remove_entry(chains[c], h, MESSAGES[m]); break;
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
        CHECK(pending == (depth == 0 && stats.retired_blocks > 0), "chain %d: leave = %d at depth %u with %u retired", c,
              pending, depth, stats.retired_blocks);
    }
    // An owner reclaims when the last dispatch leaves; sometimes defer it to exercise a
    // later reclaim or destroy with retired arrays still pending.
    if (depth == 0 && (rd_u8(r) & 3) != 0) {
        for (int c = 0; c < NCHAINS; c++) cdt_chain_reclaim(chains[c]);
    }
}

static void op_reclaim(void) {
    if (depth != 0) return;
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain_reclaim(chains[c]);
        cdt_chain_stats stats;
        cdt_chain_get_stats(chains[c], &stats);
        CHECK(stats.retired_blocks == 0, "chain %d: %u retired blocks after reclaim", c, stats.retired_blocks);
    }
}

static void op_compact(void) {
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain *chain = chains[c];
        uint32_t before_count = chain->slot_count;
        int moved = cdt_chain_compact(chain);
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
    for (int m = 0; m < NMSG; m++) {
        if (had[m]) remove_entry(tg, m);
    }
    verify_all();
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

static uint32_t intern_ids[NNAMES];       // 0 until interned by the harness
static int intern_sig[NNAMES];            // signature index of the first interning
static uint32_t intern_baseline;          // names interned before the harness's own

static void op_intern(reader *r) {
    int n = rd_u8(r) % NNAMES;
    int s = rd_u8(r) % 3;
    const void *signature = &SIGNATURE_TAGS[s];
    uint32_t count_before = cdt_intern_count();
    uint32_t id = 0;
    const char *existing = (const char *)"unset";
    cdt_intern_status status = cdt_intern(NAMES[n].bytes, NAMES[n].length, signature, SIGNATURE_NAMES[s], &id, &existing);
    if (intern_ids[n] == 0) {
        CHECK(status == CDT_INTERN_OK, "intern(new name %d) status %d", n, (int)status);
        CHECK(id == count_before + 1, "intern(new name %d) id %u, expected dense %u", n, id, count_before + 1);
        CHECK(cdt_intern_count() == count_before + 1, "intern count %u after new name, was %u", cdt_intern_count(),
              count_before);
        intern_ids[n] = id;
        intern_sig[n] = s;
    } else {
        CHECK(id == intern_ids[n], "intern(name %d) id %u, first %u", n, id, intern_ids[n]);
        CHECK(cdt_intern_count() == count_before, "intern count changed on known name");
        if (s == intern_sig[n]) {
            CHECK(status == CDT_INTERN_OK, "intern(name %d, same signature) status %d", n, (int)status);
        } else {
            CHECK(status == CDT_INTERN_SIGNATURE_MISMATCH, "intern(name %d, other signature) status %d", n, (int)status);
            const char *first = SIGNATURE_NAMES[intern_sig[n]];
            CHECK(first ? (existing && strcmp(existing, first) == 0) : existing == NULL,
                  "intern(name %d) mismatch reports signature name '%s', first was '%s'", n, existing ? existing : "(null)",
                  first ? first : "(null)");
        }
    }
    size_t length = 12345;
    const char *name = cdt_intern_name(id, &length);
    CHECK(name && length == NAMES[n].length && memcmp(name, NAMES[n].bytes, length) == 0,
          "intern_name(%u) does not give back name %d", id, n);
    uint32_t count = cdt_intern_count();
    CHECK(cdt_intern_name(0, NULL) == NULL, "intern_name(0) not NULL");
    CHECK(cdt_intern_name(count + 1, NULL) == NULL, "intern_name(count + 1) not NULL");
    uint32_t mine = 0;
    for (int k = 0; k < NNAMES; k++) mine += intern_ids[k] != 0;
    CHECK(count == intern_baseline + mine, "intern count %u, expected %u", count, intern_baseline + mine);
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
    OP_COUNT
};
static const char *const OP_NAMES[OP_COUNT] = {
    "acquire", "acquire+entries", "release", "mass-release", "stale-handle", "insert", "insert", "insert-message-0",
    "remove",  "enter",           "leave",   "reclaim",      "compact",      "set-order", "move", "intern",
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

    // Chain 0: hashed with an input-chosen multiplier (so a failing input reproduces; the
    // arc4random seed would not). The table is empty, so setting it here is safe.
    chains[0] = cdt_chain_create();
    CHECK(chains[0] != NULL, "create failed");
    uint8_t mode = rd_u8(&r);
    switch (mode % 4) {
    case 0:
    case 1: chains[0]->multiplier = rd_u64(&r) | 1; break;
    case 2: chains[0]->multiplier = 1; break; // small ids all land in bucket 0 too
    default: chains[0]->multiplier = 0x9e3779b97f4a7c15ull; break;
    }
    // Chain 1: every message in one bucket cluster.
    cdt_debug_set_force_collisions(1);
    chains[1] = cdt_chain_create();
    cdt_debug_set_force_collisions(0);
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
            fprintf(stderr, "op #%lu %-16s depth %u live %d slot_count %u/%u\n", current_op_index, current_op_name,
                    depth, live_count, chains[0]->slot_count, chains[1]->slot_count);
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
        default: op_intern(&r); break;
        }
        verify_all();
    }

    // Wind down like an owner: leave every dispatch, then release everything.
    current_op_name = "teardown";
    while (depth > 0) op_leave(&r);
    for (int t = 0; t < MAXT; t++) {
        if (targets[t].live) release_target((uint8_t)t, t);
    }
    verify_all();
    // Destroy sometimes with retired arrays pending: destroy must free them (LeakSanitizer).
    for (int c = 0; c < NCHAINS; c++) {
        cdt_chain_stats stats;
        cdt_chain_get_stats(chains[c], &stats);
        CHECK(stats.entries == 0 && stats.messages == 0 && stats.live_slots == 0, "chain %d not empty at teardown", c);
        cdt_chain_destroy(chains[c]);
        chains[c] = NULL;
    }
    return 0;
}
