// Tests of the vecchain workload (kernels/workloads/vecchain.c) recorded
// through the funnel on the record-only device, and of its hazard plan.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_support.h"

#include "redline/hazard.h"
#include "kernels/workloads/workload.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"


// Records vecchain (pos overridden when |pos| is not NULL); returns the status
// and, on success, the finished capture.
static rl_status_t rl_test_record(uint64_t seed, const int64_t* pos,
                                  rl_capture_t** out_capture) {
  *out_capture = NULL;
  size_t size = 0;
  void* bytes = rl_test_read_file(RL_TEST_CODE_OBJECT, &size);
  rl_workload_param_value_t value = {"pos", pos ? *pos : 0};
  rl_workload_options_t options = {.code_object = bytes,
                                   .code_object_size = size,
                                   .seed = seed,
                                   .params = &value,
                                   .param_count = pos ? 1 : 0};
  rl_funnel_device_t device;
  assert_null(rl_funnel_null_device_create(&device));
  rl_funnel_t* funnel = NULL;
  assert_null(rl_funnel_create("vecchain", &device, &funnel));
  rl_status_t status = rl_workload_vecchain.record(funnel, &options);
  if (!status) status = rl_funnel_finish(funnel, out_capture);
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&device);
  free(bytes);
  return status;
}

static const rl_capture_launch_t* rl_test_launch(const rl_capture_t* capture,
                                                 uint32_t index,
                                                 const char* kernel) {
  assert_true(index < capture->launch_count);
  const rl_capture_launch_t* launch = &capture->launches[index];
  assert_string_equal(capture->kernels[launch->kernel].name, kernel);
  return launch;
}

static void test_registry_lists_and_finds_vecchain(void** state) {
  (void)state;
  assert_true(rl_workload_count() >= 1);
  assert_ptr_equal(rl_workload_find("vecchain"), &rl_workload_vecchain);
  assert_null(rl_workload_find("nope"));
  assert_null(rl_workload_at(rl_workload_count()));
  assert_string_equal(rl_workload_vecchain.code_object, "vecchain");
  assert_int_equal(rl_workload_vecchain.param_count, 1);
  assert_string_equal(rl_workload_vecchain.params[0].name, "pos");
  assert_int_equal(rl_workload_vecchain.params[0].default_value, 7);
}

static void test_records_eight_launches_with_bindings(void** state) {
  (void)state;
  rl_capture_t* capture = NULL;
  assert_null(rl_test_record(1, NULL, &capture));
  assert_int_equal(capture->launch_count, 8);
  const char* kernels[8] = {"vc_fill", "vc_scale", "vc_add", "vc_axpy_pos",
                            "vc_partial_sum", "vc_merge", "vc_copy_u32",
                            "vc_fill"};
  for (uint32_t i = 0; i < 8; ++i) rl_test_launch(capture, i, kernels[i]);
  assert_int_equal(capture->param_count, 1);
  assert_int_equal(capture->params[0].capture_value, 7);
  // axpy: pos itself at the third argument.
  const rl_capture_launch_t* axpy = &capture->launches[3];
  assert_int_equal(axpy->binding_count, 1);
  assert_int_equal(axpy->bindings[0].expr.op, RL_EXPR_ADD);
  assert_int_equal(axpy->bindings[0].expr.add, 0);
  // partial sum: n = pos + 1 and grid x = ceil((pos + 1) / 64) = 1.
  const rl_capture_launch_t* partial = &capture->launches[4];
  assert_int_equal(partial->grid[0], 1);
  assert_int_equal(partial->binding_count, 2);
  assert_int_equal(partial->bindings[0].target, RL_BINDING_KERNARG);
  assert_int_equal(partial->bindings[0].expr.add, 1);
  assert_int_equal(partial->bindings[1].target, RL_BINDING_GRID);
  assert_int_equal(partial->bindings[1].expr.op, RL_EXPR_CEIL_DIV);
  assert_int_equal(partial->bindings[1].expr.operand, 64);
  // merge: count = ceil((pos + 1) / 64).
  const rl_capture_launch_t* merge = &capture->launches[5];
  assert_int_equal(merge->binding_count, 1);
  assert_int_equal(merge->bindings[0].expr.op, RL_EXPR_CEIL_DIV);
  // The two fills declare their writes; vc_add's out comes from metadata.
  assert_int_equal(capture->launches[0].slots[0].source,
                   RL_EFFECT_SOURCE_DECLARED);
  assert_int_equal(capture->launches[7].slots[0].effect, RL_EFFECT_WRITE);
  assert_int_equal(capture->launches[2].slots[2].source,
                   RL_EFFECT_SOURCE_METADATA);
  rl_capture_destroy(capture);
}

static void test_buffers_regions_and_window(void** state) {
  (void)state;
  rl_capture_t* capture = NULL;
  assert_null(rl_test_record(1, NULL, &capture));
  uint32_t partials = 0, x = 0, y = 0;
  assert_true(rl_capture_find_buffer(capture, "partials", &partials));
  assert_int_equal(capture->buffers[partials].role, RL_BUFFER_ROLE_WORKSPACE);
  assert_int_equal(capture->buffers[partials].size, 64 * 4);
  assert_true(rl_capture_find_buffer(capture, "x", &x));
  assert_int_equal(capture->buffers[x].role, RL_BUFFER_ROLE_WEIGHTS);
  assert_true(rl_capture_find_buffer(capture, "y", &y));
  assert_int_equal(capture->buffers[y].size, 4096 * 4);
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    assert_non_null(capture->buffers[b].initial);
  }
  assert_int_equal(capture->region_count, 4);
  const char* names[4] = {"y", "out", "partials", "io"};
  for (uint32_t r = 0; r < 4; ++r) {
    assert_string_equal(capture->regions[r].name, names[r]);
  }
  assert_int_equal(capture->regions[3].type, RL_REGION_U32);
  assert_int_equal(capture->window_count, 1);
  assert_int_equal(capture->windows[0].start, 1);
  assert_int_equal(capture->windows[0].count, 8);
  assert_int_equal(capture->windows[0].stride, 1);
  // The seed decides the weights, deterministically.
  rl_capture_t* same = NULL;
  rl_capture_t* other = NULL;
  assert_null(rl_test_record(1, NULL, &same));
  assert_null(rl_test_record(2, NULL, &other));
  assert_memory_equal(capture->buffers[x].initial, same->buffers[x].initial,
                      4096);
  assert_memory_not_equal(capture->buffers[x].initial,
                          other->buffers[x].initial, 4096);
  rl_capture_destroy(same);
  rl_capture_destroy(other);
  rl_capture_destroy(capture);
}

static void rl_test_expect_wait(const rl_hazard_plan_t* plan, uint32_t k,
                                rl_hazard_kind_t kind, uint32_t earlier) {
  assert_true(plan->boundaries[k].needs_wait);
  assert_int_equal(plan->boundaries[k].reason.kind, kind);
  assert_int_equal(plan->boundaries[k].reason.earlier, earlier);
}

static void test_hazard_plan_of_vecchain(void** state) {
  (void)state;
  rl_capture_t* capture = NULL;
  assert_null(rl_test_record(1, NULL, &capture));
  rl_hazard_plan_t* plan = NULL;
  assert_null(rl_hazard_plan_create(capture, &plan));
  // Exactly 5 waits:
  //   1 scale(x->h)   no: launch 0 only wrote a
  //   2 add(h,a->y)   RAW on h, written by 1
  //   3 axpy(x,y)     RAW on y (read-write, unknown effect), written by 2
  //   4 partial(y)    RAW on y, written by 3
  //   5 merge         RAW on partials, written by 4
  //   6 copy(ids->io) no: touches only ids and io
  //   7 fill(partials) WAR on partials read by 5 — 5->6 and 6->7 are
  //                   conflict-free, but 5 is still in flight.
  assert_int_equal(plan->wait_count, 5);
  assert_false(plan->boundaries[1].needs_wait);
  rl_test_expect_wait(plan, 2, RL_HAZARD_RAW, 1);
  rl_test_expect_wait(plan, 3, RL_HAZARD_RAW, 2);
  rl_test_expect_wait(plan, 4, RL_HAZARD_RAW, 3);
  rl_test_expect_wait(plan, 5, RL_HAZARD_RAW, 4);
  assert_false(plan->boundaries[6].needs_wait);
  rl_test_expect_wait(plan, 7, RL_HAZARD_WAR, 5);
  // Edges: 1->2 (h), 0->2 (a), 2->3, 3->4 (y), 4->5 RAW, 4->7 WAW and
  // 5->7 WAR (partials).
  assert_int_equal(plan->edge_count, 7);
  assert_int_equal(plan->edges[6].from, 5);
  assert_int_equal(plan->edges[6].to, 7);
  assert_int_equal(plan->edges[6].kind, RL_HAZARD_WAR);
  rl_hazard_plan_destroy(plan);
  // The tail window [4, 8) waits before 5 and 7 only.
  assert_null(rl_hazard_plan_create_range(capture, 4, 4, &plan));
  assert_int_equal(plan->wait_count, 2);
  assert_true(plan->boundaries[1].needs_wait);
  assert_true(plan->boundaries[3].needs_wait);
  rl_hazard_plan_destroy(plan);
  rl_capture_destroy(capture);
}

static void test_pos_override_changes_grid_and_scalars(void** state) {
  (void)state;
  rl_capture_t* capture = NULL;
  int64_t pos = 100;
  assert_null(rl_test_record(1, &pos, &capture));
  const rl_capture_launch_t* partial =
      rl_test_launch(capture, 4, "vc_partial_sum");
  assert_int_equal(partial->grid[0], 2);
  uint32_t n = 0;
  memcpy(&n, partial->kernarg + partial->bindings[0].offset, 4);
  assert_int_equal(n, 101);
  rl_capture_destroy(capture);
  // Outside the admitted range [1, 4096), or an unknown parameter.
  pos = 4096;
  rl_status_t status = rl_test_record(1, &pos, &capture);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_null(capture);
  rl_status_free(status);
  rl_workload_param_value_t bogus = {"length", 3};
  rl_workload_options_t options = {.params = &bogus, .param_count = 1};
  int64_t value = 0;
  status = rl_workload_param_value(&rl_workload_vecchain, &options, "pos",
                                   &value);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_non_null(strstr(rl_status_message(status), "no parameter length"));
  rl_status_free(status);
}

static void test_missing_code_object_is_an_error(void** state) {
  (void)state;
  rl_funnel_device_t device;
  assert_null(rl_funnel_null_device_create(&device));
  rl_funnel_t* funnel = NULL;
  assert_null(rl_funnel_create("vecchain", &device, &funnel));
  rl_workload_options_t options = {0};
  rl_status_t status = rl_workload_vecchain.record(funnel, &options);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_non_null(strstr(rl_status_message(status), "vecchain-<target>.co"));
  rl_status_free(status);
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&device);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_registry_lists_and_finds_vecchain),
      cmocka_unit_test(test_records_eight_launches_with_bindings),
      cmocka_unit_test(test_buffers_regions_and_window),
      cmocka_unit_test(test_hazard_plan_of_vecchain),
      cmocka_unit_test(test_pos_override_changes_grid_and_scalars),
      cmocka_unit_test(test_missing_code_object_is_an_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
