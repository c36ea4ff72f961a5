// capture/bind/bind_table.h — the compiled patch table every replay route
// applies: what a run must rewrite, with cost proportional to what
// changed.
//
// A route's lowering (aql/aql_lower.c, pm4/pm4_lower.c) lays out its
// stream and, for every place a capture value lands, adds a site:
//   pointer site  8 bytes = buffer_addresses[slot.buffer] + slot.offset;
//                 resolved once, when the table is built or rebased
//                 (rl_bind_table_rebase), never on a run;
//   dynamic site  |width| bytes = value(expression) × |scale|, where the
//                 expression is the binding's (capture.h rl_expr_t) and
//                 |scale| is 1 (a kernarg value or a work-group count) or
//                 the launch's block on the axis (a grid in work-items).
//   bound pointer site  a pointer site whose slot has a pointer-offset
//                 binding (capture.h RL_BINDING_POINTER_OFFSET): 8 bytes =
//                 buffer address (resolved at rebase, its |bias|) + the
//                 binding's expression value. Routes add it like any
//                 pointer site; the table finds the binding itself, gives
//                 the expression an id (its fit range is the slot's
//                 buffer) and apply rewrites the site after the hot sites
//                 when its value changed (a short list: O(bound sites)).
// Sites live in one of a few destinations (a route's byte images: kernarg
// segment, packets, IB), each with an optional mirror (the device's host
// view) written alongside.
//
// rl_bind_table_finish compiles the dynamic sites into a flat table: equal
// expressions share one expression id, and each expression knows its
// sites. rl_bind_table_apply then, per run:
//   1. evaluates each distinct expression once and checks the value
//      against the tightest fit rule of its sites (launch_bind.h
//      rl_bind_fit_range); any failure returns here, before anything is
//      written, with the message rl_launch_binding_evaluate gives for the
//      first site (in table order) it fails at;
//   2. for each expression whose value changed since the last apply, writes
//      its sites (all of them hold value × scale, so all differ), reading
//      only the compact hot[] entries; the first apply after an
//      unevaluated finish or a slow-path apply compares each site with
//      what it holds instead.
// A run that changes no expression touches no site: the cost is
// O(expressions + sites of changed expressions), independent of launches.
//
// Relayed sites (rl_bind_table_relay): a route whose device copies a value
// into a site itself (route pm4's COPY_DATA relay, pm4/pm4_lower.h) marks
// the site relayed to an 8-byte slot: apply then writes the slot (value ×
// scale, 64 bits little-endian) instead of the site, once per distinct
// slot of a changed expression, and the device copies the slot's low
// |width| bytes into the site during the run. Such a site's value is what
// the device writes there; the host never stores to it after prepare, and
// the test faults below skip it.
//
// Test faults (base/test_fault.h: bind-stale, patch-skip,
// patch-off, grid-skip) are honoured by a slow path that evaluates every
// site on its own (rl_launch_site_value), only while a fault is set.
//
// Thread-safety: none; one thread applies at a time, while no device
// reads the destinations (the engine waits for the previous run first).
#ifndef REDLINE_CAPTURE_BIND_TABLE_H_
#define REDLINE_CAPTURE_BIND_TABLE_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Destinations a table may write (a route uses the first few).
#define RL_BIND_MAX_DESTS 4u

// What a site holds (for error messages and test faults).
typedef enum rl_bind_site_kind_e {
  RL_BIND_SITE_POINTER = 0,  // pointer slot |ref|
  RL_BIND_SITE_KERNARG = 1,  // kernarg binding |ref|
  RL_BIND_SITE_GRID = 2,     // grid binding |ref|, × |scale| (1: groups)
} rl_bind_site_kind_t;

typedef struct rl_bind_site_s {
  uint32_t offset;  // byte offset in its destination
  uint8_t width;    // 4 or 8
  uint8_t dest;     // destination index
  uint8_t kind;     // rl_bind_site_kind_t
  uint32_t launch;  // capture launch
  uint32_t ref;     // binding or slot index in the launch
  uint32_t expr;    // expression id (dynamic sites)
  uint32_t scale;   // multiplier of the expression's value
  uint64_t current; // the value the site holds
  bool bound;       // a bound pointer site (|expr| is its expression)
  uint64_t bias;    // a bound pointer site: its buffer's address
  bool relayed;          // apply writes its slot instead (see above)
  uint8_t relay_dest;    // the slot: 8 bytes at |relay_offset| of
  uint32_t relay_offset; // destination |relay_dest|
} rl_bind_site_t;

// A dynamic site as apply's fast path reads it: 12 bytes, the sites of
// one expression contiguous (hot[first .. first + count)), so a run that
// writes N sites reads N sequential entries and touches N destination
// lines, nothing else.
typedef struct rl_bind_hot_s {
  uint32_t offset;  // byte offset in its destination
  uint32_t scale;   // multiplier of the expression's value
  uint8_t dest;     // destination index
  uint8_t width;    // 4 or 8
} rl_bind_hot_t;

// One distinct expression: its sites and its admissible value range.
typedef struct rl_bind_expr_s {
  rl_expr_t expr;
  int64_t lo, hi;    // the tightest rl_bind_fit_range over its sites
  int64_t value;     // value at the last apply
  uint32_t first;    // its sites: site_index[first .. first + count)
  uint32_t count;
  uint32_t hot_count; // what apply writes: hot[first .. first + hot_count),
                      // its host-written sites and distinct relay slots
} rl_bind_expr_t;

// A route's destination: its byte image of |size| bytes and an optional
// mirror (may be NULL or equal to |base|).
typedef struct rl_bind_dest_s {
  uint8_t* base;
  uint8_t* mirror;
  uint32_t size;
} rl_bind_dest_t;

typedef struct rl_bind_table_s {
  const rl_capture_t* capture;  // borrowed
  uint32_t site_count, site_capacity;
  rl_bind_site_t* sites;        // in the order the route added them
  uint32_t expr_count;
  rl_bind_expr_t* exprs;
  uint32_t* site_index;         // dynamic sites grouped by expression
  rl_bind_hot_t* hot;           // the same sites, as apply writes them
  uint32_t pointer_count;
  uint32_t* pointer_sites;      // indices of the pointer sites
  uint32_t bound_count;
  uint32_t* bound_sites;        // indices of the bound pointer sites
  int64_t* pending;             // apply's scratch, one per expression
  bool evaluated;               // exprs[].value holds the last apply's
  // Whether sites[].current of the dynamic sites is up to date. The fast
  // apply does not touch sites[] (only hot[] and the destinations): after
  // it a dynamic site holds exprs[expr].value × scale, which
  // rl_bind_table_current derives; the slow path syncs sites[] first.
  bool synced;
} rl_bind_table_t;

// Expression identity, shared by the table and route pm4's relay slots
// (pm4/pm4_relay.c): equal when every field is, and a hash consistent
// with it.
static inline bool rl_bind_expr_same(const rl_expr_t* a, const rl_expr_t* b) {
  return a->param == b->param && a->add == b->add && a->op == b->op &&
         a->operand == b->operand && rl_expr_scale(a) == rl_expr_scale(b);
}

static inline uint64_t rl_bind_expr_hash(const rl_expr_t* e) {
  uint64_t h = e->param * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)rl_expr_scale(e) + 0x27D4EB2F165667C5ull + (h << 6) +
       (h >> 2);
  h ^= (uint64_t)e->add + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
  h ^= (uint64_t)e->op + 0x85EBCA77C2B2AE63ull + (h << 6) + (h >> 2);
  h ^= (uint64_t)e->operand + 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
  return h ^ (h >> 29);
}

// An empty table over |capture| (*|out_table| NULL on failure).
rl_status_t rl_bind_table_create(const rl_capture_t* capture,
                                 rl_bind_table_t** out_table);
void rl_bind_table_destroy(rl_bind_table_t* table);

// Adds a site holding |current| now. A pointer site's |ref| is the slot; a
// kernarg or grid site's |ref| is the binding, whose kind must match
// (RL_STATUS_INVALID_ARGUMENT otherwise). |scale| must be 1 for kernarg
// sites. Only before rl_bind_table_finish.
rl_status_t rl_bind_table_add(rl_bind_table_t* table, rl_bind_site_kind_t kind,
                              uint32_t launch, uint32_t ref, uint8_t dest,
                              uint32_t offset, uint8_t width, uint32_t scale,
                              uint64_t current);

// Marks dynamic site |index| (added last or earlier) relayed to the 8-byte
// slot at |offset| of destination |dest| (see above). The slot must hold
// the site's current value in its low |width| bytes when the table is
// finished (the route writes it). Only before rl_bind_table_finish;
// RL_STATUS_INVALID_ARGUMENT for a pointer site or a bad destination.
rl_status_t rl_bind_table_relay(rl_bind_table_t* table, uint32_t index,
                                uint8_t dest, uint32_t offset);

// Compiles the dynamic sites: expression ids, per-expression sites and fit
// ranges. |values| (capture->param_count) are the values the sites hold.
rl_status_t rl_bind_table_finish(rl_bind_table_t* table,
                                 const int64_t* values);

// The per-run apply above. |values|: |param_count| ==
// capture->param_count values. *|out_changed| sites and relay slots
// written.
rl_status_t rl_bind_table_apply(rl_bind_table_t* table, const int64_t* values,
                                uint32_t param_count,
                                const rl_bind_dest_t* dests,
                                uint32_t* out_changed);

// Re-resolves every pointer site at |buffer_addresses| (one per capture
// buffer) and writes those that changed (at bind/prepare, not per run).
rl_status_t rl_bind_table_rebase(rl_bind_table_t* table,
                                 const uint64_t* buffer_addresses,
                                 const rl_bind_dest_t* dests,
                                 uint32_t* out_changed);

// The value site |index| holds (0 when out of range).
static inline uint64_t rl_bind_table_current(const rl_bind_table_t* table,
                                             uint32_t index) {
  if (!table || index >= table->site_count) return 0;
  const rl_bind_site_t* site = &table->sites[index];
  if (table->synced || site->kind == RL_BIND_SITE_POINTER) {
    return site->current;
  }
  return (uint64_t)table->exprs[site->expr].value * site->scale;
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_CAPTURE_BIND_TABLE_H_
