// Property test of the hazard planner (redline/hazard.h) against a
// brute-force oracle that shares none of its code.
//
// Random launch sequences over a few 64-byte buffers: every access is a
// byte range of 0..64 bytes at any offset (unaligned, touching, nested,
// overlapping by one byte), with any effect, NONE and empty ranges
// included. The oracle turns every range into a 64-bit byte mask, so two
// accesses overlap exactly when their masks share a bit — no interval
// arithmetic, nothing the planner's overlap test could get wrong in the
// same way. From the masks it derives, by the rules stated in hazard.h:
//   - waits: a launch waits when one of its active accesses conflicts with
//     an active access of a launch issued since the last wait (at least one
//     of the two writes, on common bytes of the same buffer);
//   - the reason of every wait is such a conflict: with a launch of the
//     frontier, on bytes both accesses touch, with the kind hazard.h names;
//   - dependency edges: per (kind, buffer) the most recent earlier launch
//     whose write (RAW, or WAW when the later access does not read) or
//     read (WAR, when the later access writes) shares bytes with the access.
// Seeds are fixed, so a failure reproduces; the failing seed, launch and
// expectation are printed.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redline/hazard.h"

enum {
  RL_PROP_BUFFERS = 3,
  RL_PROP_BYTES = 64,  // bytes per buffer: one bit each in a uint64_t
  RL_PROP_MAX_LAUNCHES = 24,
  RL_PROP_MAX_ACCESSES = 4,
  RL_PROP_SEQUENCES = 20000,
};

typedef struct rl_prop_sequence_s {
  rl_hazard_access_t accesses[RL_PROP_MAX_LAUNCHES][RL_PROP_MAX_ACCESSES];
  rl_hazard_launch_t launches[RL_PROP_MAX_LAUNCHES];
  uint32_t launch_count;
} rl_prop_sequence_t;

static uint64_t rl_prop_next(uint64_t* state) {  // splitmix64
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The bytes of [offset, offset + size) as bits, one byte at a time.
static uint64_t rl_prop_mask(uint64_t offset, uint64_t size) {
  uint64_t mask = 0;
  for (uint64_t b = offset; b < offset + size; ++b) mask |= 1ull << b;
  return mask;
}

static bool rl_prop_active(const rl_hazard_access_t* a) {
  return a->effect != RL_EFFECT_NONE && a->size != 0;
}

static bool rl_prop_reads(rl_effect_t e) { return (e & RL_EFFECT_READ) != 0; }
static bool rl_prop_writes(rl_effect_t e) { return (e & RL_EFFECT_WRITE) != 0; }

// hazard.h: RAW before WAW before WAR.
static rl_hazard_kind_t rl_prop_kind(rl_effect_t earlier, rl_effect_t later) {
  if (rl_prop_writes(earlier) && rl_prop_reads(later)) return RL_HAZARD_RAW;
  if (rl_prop_writes(earlier) && rl_prop_writes(later)) return RL_HAZARD_WAW;
  if (rl_prop_reads(earlier) && rl_prop_writes(later)) return RL_HAZARD_WAR;
  return RL_HAZARD_NONE;
}

// Ranges stay inside the 64 bytes; small sizes and offsets near each other
// are favoured so that 1-byte overlaps and touching ranges are common.
static void rl_prop_generate(uint64_t* rng, rl_prop_sequence_t* seq) {
  seq->launch_count = 1 + (uint32_t)(rl_prop_next(rng) % RL_PROP_MAX_LAUNCHES);
  for (uint32_t i = 0; i < seq->launch_count; ++i) {
    uint32_t count = (uint32_t)(rl_prop_next(rng) % (RL_PROP_MAX_ACCESSES + 1));
    for (uint32_t a = 0; a < count; ++a) {
      uint64_t r = rl_prop_next(rng);
      uint64_t offset = (r >> 8) % RL_PROP_BYTES;
      uint64_t room = RL_PROP_BYTES - offset;
      uint64_t size = (r & 1) ? (r >> 16) % 5 : (r >> 16) % (room + 1);
      if (size > room) size = room;
      seq->accesses[i][a] = (rl_hazard_access_t){
          .buffer = (uint32_t)((r >> 40) % RL_PROP_BUFFERS),
          .offset = offset,
          .size = size,
          .effect = (rl_effect_t)((r >> 48) % 4),  // NONE..READ_WRITE
      };
    }
    seq->launches[i] = (rl_hazard_launch_t){seq->accesses[i], count};
  }
}

// Whether some active access of |later| and some of |earlier| conflict on
// |buffer| (any buffer when |buffer| is UINT32_MAX); with |out_mask|, the
// first such pair's common bytes and kind must equal the given ones.
static bool rl_prop_conflict(const rl_hazard_launch_t* earlier,
                             const rl_hazard_launch_t* later, uint32_t buffer,
                             uint64_t want_mask, rl_hazard_kind_t want_kind,
                             bool match) {
  for (uint32_t a = 0; a < later->access_count; ++a) {
    const rl_hazard_access_t* x = &later->accesses[a];
    if (!rl_prop_active(x)) continue;
    for (uint32_t c = 0; c < earlier->access_count; ++c) {
      const rl_hazard_access_t* y = &earlier->accesses[c];
      if (!rl_prop_active(y) || y->buffer != x->buffer) continue;
      if (buffer != UINT32_MAX && x->buffer != buffer) continue;
      uint64_t common = rl_prop_mask(x->offset, x->size) &
                        rl_prop_mask(y->offset, y->size);
      rl_hazard_kind_t kind = rl_prop_kind(y->effect, x->effect);
      if (common == 0 || kind == RL_HAZARD_NONE) continue;
      if (!match || (common == want_mask && kind == want_kind)) return true;
    }
  }
  return false;
}

// The oracle's waits and reasons for |seq| against |plan|.
static void rl_prop_check_waits(uint64_t seed, const rl_prop_sequence_t* seq,
                                const rl_hazard_plan_t* plan) {
  uint32_t frontier_start = 0;  // launches [frontier_start, i) since the wait
  uint32_t waits = 0;
  for (uint32_t i = 0; i < seq->launch_count; ++i) {
    bool expect = false;
    for (uint32_t j = frontier_start; j < i && !expect; ++j) {
      expect = rl_prop_conflict(&seq->launches[j], &seq->launches[i],
                                UINT32_MAX, 0, RL_HAZARD_NONE, false);
    }
    const rl_hazard_boundary_t* got = &plan->boundaries[i];
    if (got->needs_wait != expect) {
      print_error("seed %llu launch %u: oracle says wait=%d, planner %d\n",
                  (unsigned long long)seed, i, expect, got->needs_wait);
      fail();
    }
    if (!expect) {
      assert_int_equal(got->reason.kind, RL_HAZARD_NONE);
      continue;
    }
    ++waits;
    const rl_hazard_conflict_t* why = &got->reason;
    bool in_frontier = why->earlier >= frontier_start && why->earlier < i;
    bool real = in_frontier && why->offset + why->size <= RL_PROP_BYTES &&
                rl_prop_conflict(&seq->launches[why->earlier],
                                 &seq->launches[i], why->buffer,
                                 rl_prop_mask(why->offset, why->size),
                                 why->kind, true);
    if (!real) {
      print_error("seed %llu launch %u: reason %s on buffer %u [%llu, +%llu) "
                  "with launch %u is no conflict of the frontier [%u, %u)\n",
                  (unsigned long long)seed, i, rl_hazard_kind_name(why->kind),
                  why->buffer, (unsigned long long)why->offset,
                  (unsigned long long)why->size, why->earlier, frontier_start,
                  i);
      fail();
    }
    frontier_start = i;
  }
  assert_int_equal(plan->wait_count, waits);
}

typedef struct rl_prop_edge_s {
  int32_t from;  // -1: none
} rl_prop_edge_t;

// The newest launch before |to| with an active access on |buffer| whose
// direction is |want| (WRITE or READ) sharing bytes with |mask|, or -1.
static int32_t rl_prop_newest(const rl_prop_sequence_t* seq, uint32_t to,
                              uint32_t buffer, uint64_t mask,
                              rl_effect_t want) {
  for (uint32_t j = to; j > 0; --j) {
    const rl_hazard_launch_t* earlier = &seq->launches[j - 1];
    for (uint32_t c = 0; c < earlier->access_count; ++c) {
      const rl_hazard_access_t* y = &earlier->accesses[c];
      if (!rl_prop_active(y) || y->buffer != buffer) continue;
      if ((y->effect & want) == 0) continue;
      if (rl_prop_mask(y->offset, y->size) & mask) return (int32_t)(j - 1);
    }
  }
  return -1;
}

// The oracle's edges of launch |to|: expected[kind][buffer].from.
static void rl_prop_expected_edges(
    const rl_prop_sequence_t* seq, uint32_t to,
    rl_prop_edge_t expected[RL_HAZARD_KIND_COUNT_][RL_PROP_BUFFERS]) {
  for (int k = 0; k < RL_HAZARD_KIND_COUNT_; ++k) {
    for (int b = 0; b < RL_PROP_BUFFERS; ++b) expected[k][b].from = -1;
  }
  const rl_hazard_launch_t* launch = &seq->launches[to];
  for (uint32_t a = 0; a < launch->access_count; ++a) {
    const rl_hazard_access_t* x = &launch->accesses[a];
    if (!rl_prop_active(x)) continue;
    uint64_t mask = rl_prop_mask(x->offset, x->size);
    int32_t writer = rl_prop_newest(seq, to, x->buffer, mask, RL_EFFECT_WRITE);
    rl_hazard_kind_t wk =
        rl_prop_reads(x->effect) ? RL_HAZARD_RAW : RL_HAZARD_WAW;
    if (writer > expected[wk][x->buffer].from) {
      expected[wk][x->buffer].from = writer;
    }
    if (!rl_prop_writes(x->effect)) continue;
    int32_t reader = rl_prop_newest(seq, to, x->buffer, mask, RL_EFFECT_READ);
    if (reader > expected[RL_HAZARD_WAR][x->buffer].from) {
      expected[RL_HAZARD_WAR][x->buffer].from = reader;
    }
  }
}

static void rl_prop_check_edges(uint64_t seed, const rl_prop_sequence_t* seq,
                                const rl_hazard_plan_t* plan) {
  uint32_t e = 0;
  for (uint32_t to = 0; to < seq->launch_count; ++to) {
    rl_prop_edge_t expected[RL_HAZARD_KIND_COUNT_][RL_PROP_BUFFERS];
    rl_prop_expected_edges(seq, to, expected);
    uint32_t want = 0;
    for (int k = 0; k < RL_HAZARD_KIND_COUNT_; ++k) {
      for (int b = 0; b < RL_PROP_BUFFERS; ++b) want += expected[k][b].from >= 0;
    }
    uint32_t got = 0;
    for (; e < plan->edge_count && plan->edges[e].to == to; ++e, ++got) {
      const rl_hazard_edge_t* edge = &plan->edges[e];
      assert_true(edge->kind > RL_HAZARD_NONE &&
                  edge->kind < RL_HAZARD_KIND_COUNT_);
      assert_true(edge->buffer < RL_PROP_BUFFERS);
      int32_t from = expected[edge->kind][edge->buffer].from;
      if (from != (int32_t)edge->from) {
        print_error("seed %llu launch %u: %s edge on buffer %u from %u, "
                    "oracle %d\n",
                    (unsigned long long)seed, to,
                    rl_hazard_kind_name(edge->kind), edge->buffer, edge->from,
                    from);
        fail();
      }
      expected[edge->kind][edge->buffer].from = -2;  // seen once
    }
    if (got != want) {
      print_error("seed %llu launch %u: %u edges, oracle %u\n",
                  (unsigned long long)seed, to, got, want);
      fail();
    }
  }
  assert_int_equal(e, plan->edge_count);
}

static void rl_test_planner_matches_oracle(void** state) {
  (void)state;
  uint64_t waits = 0, edges = 0;
  for (uint64_t seed = 1; seed <= RL_PROP_SEQUENCES; ++seed) {
    uint64_t rng = seed;
    rl_prop_sequence_t seq;
    rl_prop_generate(&rng, &seq);
    rl_hazard_plan_t* plan = NULL;
    assert_null(rl_hazard_plan_compute(seq.launches, seq.launch_count,
                                       RL_PROP_BUFFERS, 0, &plan));
    rl_prop_check_waits(seed, &seq, plan);
    rl_prop_check_edges(seed, &seq, plan);
    waits += plan->wait_count;
    edges += plan->edge_count;
    rl_hazard_plan_destroy(plan);
  }
  // The generator must produce both outcomes often, or the oracle checks
  // little: a few thousand sequences of up to 24 launches give thousands of
  // waits and edges.
  assert_true(waits > 1000);
  assert_true(edges > 1000);
}

// The oracle itself distinguishes the boundary cases the property relies
// on: a 1-byte overlap conflicts, touching ranges do not.
static void rl_test_oracle_boundaries(void** state) {
  (void)state;
  rl_hazard_access_t w0 = {0, 0, 8, RL_EFFECT_WRITE};
  rl_hazard_access_t r7 = {0, 7, 1, RL_EFFECT_READ};
  rl_hazard_access_t r8 = {0, 8, 4, RL_EFFECT_READ};
  rl_hazard_launch_t lw = {&w0, 1}, l7 = {&r7, 1}, l8 = {&r8, 1};
  assert_true(rl_prop_conflict(&lw, &l7, UINT32_MAX, 0, RL_HAZARD_NONE, false));
  assert_false(rl_prop_conflict(&lw, &l8, UINT32_MAX, 0, RL_HAZARD_NONE, false));
  // And the planner agrees on exactly these two.
  rl_hazard_launch_t seq[3] = {lw, l8, l7};
  rl_hazard_plan_t* plan = NULL;
  assert_null(rl_hazard_plan_compute(seq, 3, 1, 0, &plan));
  assert_false(plan->boundaries[1].needs_wait);
  assert_true(plan->boundaries[2].needs_wait);
  assert_int_equal(plan->boundaries[2].reason.offset, 7);
  assert_int_equal(plan->boundaries[2].reason.size, 1);
  rl_hazard_plan_destroy(plan);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_test_oracle_boundaries),
      cmocka_unit_test(rl_test_planner_matches_oracle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
