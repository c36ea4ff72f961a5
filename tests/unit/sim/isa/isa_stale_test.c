// Tests of the ISA executor's judgement of the cache model's stale reads
// (sim/isa/isa_stale.c; docs/cache-model.md, "Compare-and-swap
// loops"): the first plain load of a compare-and-swap loop that reads a
// stale line is retracted when its value only reaches the compare operand
// of a compare-and-swap on the same bytes, and every other stale read is
// still reported (negative controls: the value stored, altered before the
// compare, or compared at another address).
//
// Each case runs one lane of one wave with the cache model of gfx1100:
// a first load fills WGP 0's vector L0 with 1.0, a host write changes the
// L2 to 2.0, and the case's code then loads the line again (stale).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/sim/isa/isa_snippet.h"

typedef struct rl_st_run_s {
  uint32_t stale;      // findings reported
  uint64_t retracted;  // stale reads retracted
  float memory;        // the word at A afterwards
  float other;         // the word at B afterwards
} rl_st_run_t;

// Runs |lines| on the stale line in |mode| on lanes 0..|lanes|-1. v[2:3]
// holds A, v[8:9] B (a word of another line), v6 0.5, in every lane.
static rl_st_run_t rl_st_run_lanes(rl_sim_cache_mode_t mode,
                                   const char* const* lines, uint32_t count,
                                   uint32_t lanes) {
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_snippet_cache(s, mode);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  void* host = NULL;
  uint64_t a = rl_isa_snippet_alloc(s, 1024, &host);
  float* words = host;
  words[0] = 1.0f;
  wave->sgpr[RL_ISA_SRC_EXEC] = (1u << lanes) - 1u;
  float half = 0.5f;
  for (uint32_t l = 0; l < lanes; ++l) {  // every lane the same words
    wave->vgpr[2][l] = (uint32_t)a;
    wave->vgpr[3][l] = (uint32_t)(a >> 32);
    wave->vgpr[8][l] = (uint32_t)(a + 512);
    wave->vgpr[9][l] = (uint32_t)((a + 512) >> 32);
    memcpy(&wave->vgpr[6][l], &half, 4);
  }
  static const char* const fill[] = {"global_load_b32 v5, v[2:3], off",
                                     "s_waitcnt vmcnt(0)"};
  rl_isa_snippet_exec(s, fill, 2);
  assert_int_equal(rl_isa_snippet_stale_reads(s, NULL), 0);
  words[0] = 2.0f;  // L2 changes; WGP 0's L0 keeps 1.0
  rl_isa_snippet_exec(s, lines, count);
  rl_st_run_t run = {0};
  run.stale = rl_isa_snippet_stale_reads(s, &run.retracted);
  run.memory = words[0];
  run.other = words[128];
  rl_isa_snippet_destroy(s);
  return run;
}

static rl_st_run_t rl_st_run(rl_sim_cache_mode_t mode,
                             const char* const* lines, uint32_t count) {
  return rl_st_run_lanes(mode, lines, count, 1);
}

// clang's float atomicAdd loop, unrolled twice: load, add, compare-and-swap;
// then the retry with the returned value.
static const char* const rl_st_loop[] = {
    "global_load_b32 v5, v[2:3], off",
    "s_waitcnt vmcnt(0)",
    "v_add_f32_e32 v4, v5, v6",
    "global_atomic_cmpswap_b32 v4, v[2:3], v[4:5], off glc",
    "s_waitcnt vmcnt(0)",
    "v_mov_b32_e32 v5, v4",
    "v_add_f32_e32 v4, v5, v6",
    "global_atomic_cmpswap_b32 v4, v[2:3], v[4:5], off glc",
    "s_waitcnt vmcnt(0)",
};

static void rl_st_cas_loop_retracted(void** state) {
  (void)state;
  // strict: the load returns the stale 1.0, the first compare fails at the
  // L2 and the retry adds to 2.0.
  rl_st_run_t run = rl_st_run(RL_SIM_CACHE_STRICT, rl_st_loop, 9);
  assert_int_equal(run.stale, 0);
  assert_int_equal(run.retracted, 1);
  assert_true(run.memory == 2.5f);
  // report: the load returns memory's 2.0, the first compare succeeds.
  run = rl_st_run(RL_SIM_CACHE_REPORT, rl_st_loop, 6);
  assert_int_equal(run.stale, 0);
  assert_int_equal(run.retracted, 1);
  assert_true(run.memory == 2.5f);
}

// Negative control: the stale value is stored before any compare-and-swap.
static void rl_st_stored_reported(void** state) {
  (void)state;
  static const char* const lines[] = {
      "global_load_b32 v5, v[2:3], off",
      "s_waitcnt vmcnt(0)",
      "global_store_b32 v[8:9], v5, off",
      "v_add_f32_e32 v4, v5, v6",
      "global_atomic_cmpswap_b32 v4, v[2:3], v[4:5], off glc",
      "s_waitcnt vmcnt(0)",
  };
  rl_st_run_t run = rl_st_run(RL_SIM_CACHE_STRICT, lines, 6);
  assert_int_equal(run.stale, 1);
  assert_int_equal(run.retracted, 0);
  assert_true(run.other == 1.0f);  // strict: the stale value escaped
}

// The stored value of four lanes reading the same stale word: one finding
// for the line, not one a lane (the model reports a line once per fill).
static void rl_st_lanes_one_finding(void** state) {
  (void)state;
  static const char* const lines[] = {
      "global_load_b32 v5, v[2:3], off",
      "s_waitcnt vmcnt(0)",
      "global_store_b32 v[8:9], v5, off",
  };
  rl_st_run_t run = rl_st_run_lanes(RL_SIM_CACHE_STRICT, lines, 3, 4);
  assert_int_equal(run.stale, 1);
  assert_int_equal(run.retracted, 0);
  // ... and the loop on four lanes retracts all four reads.
  run = rl_st_run_lanes(RL_SIM_CACHE_STRICT, rl_st_loop, 9, 4);
  assert_int_equal(run.stale, 0);
  assert_int_equal(run.retracted, 4);
}

// Negative control: the compare operand is not the loaded value.
static void rl_st_altered_reported(void** state) {
  (void)state;
  static const char* const lines[] = {
      "global_load_b32 v5, v[2:3], off",
      "s_waitcnt vmcnt(0)",
      "v_add_f32_e32 v5, v5, v6",
      "v_add_f32_e32 v4, v5, v6",
      "global_atomic_cmpswap_b32 v4, v[2:3], v[4:5], off glc",
      "s_waitcnt vmcnt(0)",
  };
  rl_st_run_t run = rl_st_run(RL_SIM_CACHE_STRICT, lines, 6);
  assert_int_equal(run.stale, 1);
  assert_int_equal(run.retracted, 0);
}

// Negative control: the loaded value is the compare operand of a
// compare-and-swap at another address.
static void rl_st_other_address_reported(void** state) {
  (void)state;
  static const char* const lines[] = {
      "global_load_b32 v5, v[2:3], off",
      "s_waitcnt vmcnt(0)",
      "v_add_f32_e32 v4, v5, v6",
      "global_atomic_cmpswap_b32 v4, v[8:9], v[4:5], off glc",
      "s_waitcnt vmcnt(0)",
  };
  rl_st_run_t run = rl_st_run(RL_SIM_CACHE_STRICT, lines, 5);
  assert_int_equal(run.stale, 1);
  assert_int_equal(run.retracted, 0);
}

// Negative control: another atomic (not a compare-and-swap) on the same
// address.
static void rl_st_other_atomic_reported(void** state) {
  (void)state;
  static const char* const lines[] = {
      "global_load_b32 v5, v[2:3], off",
      "s_waitcnt vmcnt(0)",
      "global_atomic_swap_b32 v4, v[2:3], v5, off glc",
      "s_waitcnt vmcnt(0)",
  };
  rl_st_run_t run = rl_st_run(RL_SIM_CACHE_STRICT, lines, 4);
  assert_int_equal(run.stale, 1);
  assert_int_equal(run.retracted, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_st_cas_loop_retracted),
      cmocka_unit_test(rl_st_stored_reported),
      cmocka_unit_test(rl_st_lanes_one_finding),
      cmocka_unit_test(rl_st_altered_reported),
      cmocka_unit_test(rl_st_other_address_reported),
      cmocka_unit_test(rl_st_other_atomic_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
