// Tests of hazard analysis (redline/hazard.h) on hand-built sequences.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redline/hazard.h"

#define R RL_EFFECT_READ
#define W RL_EFFECT_WRITE
#define RW RL_EFFECT_READ_WRITE

// A sequence of launches with one access each: (buffer, offset, size, effect).
static rl_hazard_plan_t* rl_test_plan_single(const rl_hazard_access_t* accesses,
                                             uint32_t count, uint32_t first) {
  rl_hazard_launch_t launches[64];
  assert_true(count <= 64);
  for (uint32_t i = 0; i < count; ++i) {
    launches[i] = (rl_hazard_launch_t){&accesses[i], 1};
  }
  rl_hazard_plan_t* plan = NULL;
  rl_status_t status = rl_hazard_plan_compute(launches, count, 8, first, &plan);
  assert_null(status);
  assert_non_null(plan);
  return plan;
}

static void rl_test_expect_pair(rl_effect_t first, rl_effect_t second,
                                rl_hazard_kind_t kind) {
  const rl_hazard_access_t accesses[] = {{0, 0, 64, first}, {0, 0, 64, second}};
  rl_hazard_plan_t* plan = rl_test_plan_single(accesses, 2, 0);
  assert_false(plan->boundaries[0].needs_wait);
  assert_int_equal(plan->boundaries[1].needs_wait, kind != RL_HAZARD_NONE);
  assert_int_equal(plan->boundaries[1].reason.kind, kind);
  assert_int_equal(plan->wait_count, kind != RL_HAZARD_NONE ? 1 : 0);
  rl_hazard_plan_destroy(plan);
}

static void test_raw_war_waw_are_detected(void** state) {
  (void)state;
  rl_test_expect_pair(W, R, RL_HAZARD_RAW);
  rl_test_expect_pair(R, W, RL_HAZARD_WAR);
  rl_test_expect_pair(W, W, RL_HAZARD_WAW);
  // Read-write accesses: RAW is named before WAW, WAW before WAR.
  rl_test_expect_pair(RW, RW, RL_HAZARD_RAW);
  rl_test_expect_pair(RW, W, RL_HAZARD_WAW);
  rl_test_expect_pair(R, RW, RL_HAZARD_WAR);
}

static void test_read_read_and_none_never_conflict(void** state) {
  (void)state;
  rl_test_expect_pair(R, R, RL_HAZARD_NONE);
  rl_test_expect_pair(RL_EFFECT_NONE, RW, RL_HAZARD_NONE);
  rl_test_expect_pair(RW, RL_EFFECT_NONE, RL_HAZARD_NONE);
}

static void test_ranges_and_buffers(void** state) {
  (void)state;
  // Disjoint (adjacent) ranges of one buffer, then a different buffer, then
  // a zero-size access: none conflict with the write of launch 0.
  const rl_hazard_access_t quiet[] = {
      {0, 0, 64, W}, {0, 64, 64, RW}, {1, 0, 64, RW}, {0, 0, 0, RW}};
  rl_hazard_plan_t* plan = rl_test_plan_single(quiet, 4, 0);
  assert_int_equal(plan->wait_count, 0);
  rl_hazard_plan_destroy(plan);
  // A partial overlap reports the overlapping bytes and the buffer.
  const rl_hazard_access_t partial[] = {{3, 16, 64, W}, {3, 48, 100, R}};
  plan = rl_test_plan_single(partial, 2, 0);
  const rl_hazard_conflict_t* reason = &plan->boundaries[1].reason;
  assert_true(plan->boundaries[1].needs_wait);
  assert_int_equal(reason->kind, RL_HAZARD_RAW);
  assert_int_equal(reason->buffer, 3);
  assert_int_equal(reason->offset, 48);
  assert_int_equal(reason->size, 32);
  assert_int_equal(reason->earlier, 0);
  rl_hazard_plan_destroy(plan);
}

static void test_conflict_with_any_launch_since_the_last_wait(void** state) {
  (void)state;
  // A writes buffer 0, B writes buffer 1 (A→B fine), C reads buffer 0 (B→C
  // fine) but C conflicts with A, still in flight: C waits.
  const rl_hazard_access_t accesses[] = {{0, 0, 64, W}, {1, 0, 64, W},
                                         {0, 0, 64, R}};
  rl_hazard_plan_t* plan = rl_test_plan_single(accesses, 3, 0);
  assert_false(plan->boundaries[1].needs_wait);
  assert_true(plan->boundaries[2].needs_wait);
  assert_int_equal(plan->boundaries[2].reason.kind, RL_HAZARD_RAW);
  assert_int_equal(plan->boundaries[2].reason.earlier, 0);
  assert_int_equal(plan->wait_count, 1);
  rl_hazard_plan_destroy(plan);
}

static void test_a_wait_resets_the_frontier(void** state) {
  (void)state;
  // 0 writes b0; 1 reads b0 (waits); 2 writes b2; 3 reads b0 again: launch 0
  // completed at the wait, and 1's read does not conflict with 3's read.
  // 4 writes b0: WAR against 3 (the newest frontier entry), not 1.
  const rl_hazard_access_t accesses[] = {
      {0, 0, 64, W}, {0, 0, 64, R}, {2, 0, 64, W}, {0, 0, 64, R},
      {0, 0, 64, W}};
  rl_hazard_plan_t* plan = rl_test_plan_single(accesses, 5, 0);
  assert_true(plan->boundaries[1].needs_wait);
  assert_false(plan->boundaries[2].needs_wait);
  assert_false(plan->boundaries[3].needs_wait);
  assert_true(plan->boundaries[4].needs_wait);
  assert_int_equal(plan->boundaries[4].reason.kind, RL_HAZARD_WAR);
  assert_int_equal(plan->boundaries[4].reason.earlier, 3);
  assert_int_equal(plan->wait_count, 2);
  rl_hazard_plan_destroy(plan);
}

static void test_sub_range_plans_use_absolute_indices(void** state) {
  (void)state;
  // Launches 10..12 of a longer sequence: the first never waits, even if it
  // would conflict with launch 9 (a plan starts after everything before it).
  const rl_hazard_access_t accesses[] = {{0, 0, 64, R}, {0, 0, 64, W},
                                         {0, 0, 64, R}};
  rl_hazard_plan_t* plan = rl_test_plan_single(accesses, 3, 10);
  assert_int_equal(plan->first_launch, 10);
  assert_int_equal(plan->launch_count, 3);
  assert_false(plan->boundaries[0].needs_wait);
  assert_int_equal(plan->boundaries[1].reason.earlier, 10);
  assert_int_equal(plan->boundaries[2].reason.earlier, 11);
  assert_int_equal(plan->edges[0].from, 10);
  assert_int_equal(plan->edges[0].to, 11);
  rl_hazard_plan_destroy(plan);
  // The capture-level range is checked against the launch count.
  rl_capture_t* capture = NULL;
  assert_null(rl_capture_create("empty", &capture));
  rl_status_t status = rl_hazard_plan_create_range(capture, 0, 1, &plan);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_null(plan);
  rl_status_free(status);
  assert_null(rl_hazard_plan_create_range(capture, 0, 0, &plan));
  assert_int_equal(plan->launch_count, 0);
  assert_int_equal(plan->wait_count, 0);
  rl_hazard_plan_destroy(plan);
  rl_capture_destroy(capture);
}

static void rl_test_expect_edge(const rl_hazard_edge_t* edge, uint32_t from,
                                uint32_t to, rl_hazard_kind_t kind,
                                uint32_t buffer) {
  assert_int_equal(edge->from, from);
  assert_int_equal(edge->to, to);
  assert_int_equal(edge->kind, kind);
  assert_int_equal(edge->buffer, buffer);
}

static void test_dependency_edges(void** state) {
  (void)state;
  // 0: W b0 [0,100)   1: W b0 [0,50)   2: R b0 [60,70)   3: R b1
  // 4: RW b0 [0,100) and W b1.
  const rl_hazard_access_t l4[] = {{0, 0, 100, RW}, {1, 0, 8, W}};
  const rl_hazard_access_t single[] = {
      {0, 0, 100, W}, {0, 0, 50, W}, {0, 60, 10, R}, {1, 0, 8, R}};
  rl_hazard_launch_t launches[5];
  for (uint32_t i = 0; i < 4; ++i) launches[i] = (rl_hazard_launch_t){&single[i], 1};
  launches[4] = (rl_hazard_launch_t){l4, 2};
  rl_hazard_plan_t* plan = NULL;
  assert_null(rl_hazard_plan_compute(launches, 5, 2, 0, &plan));
  assert_int_equal(plan->edge_count, 5);
  // 1 overwrites part of 0's bytes.
  rl_test_expect_edge(&plan->edges[0], 0, 1, RL_HAZARD_WAW, 0);
  // 2 reads bytes only 0 wrote: 1 (newer) does not cover them.
  rl_test_expect_edge(&plan->edges[1], 0, 2, RL_HAZARD_RAW, 0);
  // 4 reads and writes b0: RAW from the newest writer (1), WAR from 2;
  // it writes b1: WAR from 3. One edge per kind and buffer.
  rl_test_expect_edge(&plan->edges[2], 1, 4, RL_HAZARD_RAW, 0);
  rl_test_expect_edge(&plan->edges[3], 2, 4, RL_HAZARD_WAR, 0);
  rl_test_expect_edge(&plan->edges[4], 3, 4, RL_HAZARD_WAR, 1);
  rl_hazard_plan_destroy(plan);
}

static void test_invalid_accesses_are_rejected(void** state) {
  (void)state;
  const rl_hazard_access_t bad_buffer = {8, 0, 4, R};
  const rl_hazard_access_t bad_effect = {0, 0, 4, (rl_effect_t)7};
  const rl_hazard_access_t bad_range = {0, UINT64_MAX, 2, R};
  const rl_hazard_access_t* cases[] = {&bad_buffer, &bad_effect, &bad_range};
  for (int i = 0; i < 3; ++i) {
    rl_hazard_launch_t launch = {cases[i], 1};
    rl_hazard_plan_t* plan = (rl_hazard_plan_t*)1;
    rl_status_t status = rl_hazard_plan_compute(&launch, 1, 8, 0, &plan);
    assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
    assert_null(plan);
    assert_non_null(strstr(rl_status_message(status), "launch 0 access 0"));
    rl_status_free(status);
  }
}

static void test_large_sequence_is_linear(void** state) {
  (void)state;
  // 600 launches x 8 accesses over 64 buffers: a ring of producers and
  // consumers. Launch i writes buffer i%64 and reads 7 others.
  enum { kLaunches = 600, kAccesses = 8 };
  rl_hazard_access_t* accesses =
      calloc(kLaunches * kAccesses, sizeof(*accesses));
  rl_hazard_launch_t* launches = calloc(kLaunches, sizeof(*launches));
  assert_non_null(accesses);
  assert_non_null(launches);
  for (uint32_t i = 0; i < kLaunches; ++i) {
    for (uint32_t a = 0; a < kAccesses; ++a) {
      accesses[i * kAccesses + a] = (rl_hazard_access_t){
          (i + a * 9) % 64, 0, 4096, a == 0 ? W : R};
    }
    launches[i] = (rl_hazard_launch_t){&accesses[i * kAccesses], kAccesses};
  }
  rl_hazard_plan_t* plan = NULL;
  assert_null(rl_hazard_plan_compute(launches, kLaunches, 64, 0, &plan));
  assert_true(plan->wait_count > 0 && plan->wait_count < kLaunches);
  // Every launch after the first 64 has at least one incoming edge.
  assert_true(plan->edge_count >= kLaunches - 64);
  rl_hazard_plan_destroy(plan);
  free(accesses);
  free(launches);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_raw_war_waw_are_detected),
      cmocka_unit_test(test_read_read_and_none_never_conflict),
      cmocka_unit_test(test_ranges_and_buffers),
      cmocka_unit_test(test_conflict_with_any_launch_since_the_last_wait),
      cmocka_unit_test(test_a_wait_resets_the_frontier),
      cmocka_unit_test(test_sub_range_plans_use_absolute_indices),
      cmocka_unit_test(test_dependency_edges),
      cmocka_unit_test(test_invalid_accesses_are_rejected),
      cmocka_unit_test(test_large_sequence_is_linear),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
