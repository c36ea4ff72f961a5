// Tests of the funnel device over an rl_device_t
// (redline/device/device_funnel.c): vecchain recorded through the funnel on
// the simulated GPU with the reference executor is also an eager run, so
// the device's buffers end up holding the results of the whole launch
// sequence, which are compared bit for bit with a host computation from the
// capture's recorded initial contents. A kernel fault must fail its launch
// and every later one.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_support.h"

#include "kernels/ref/ref_executor.h"
#include "kernels/workloads/workload.h"
#include "redline/device/device_funnel.h"
#include "sim/sim.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"
// The vecchain shape (kernels/workloads/vecchain.c).
#define RL_VC_N 1024u
#define RL_VC_CONTEXT 4096u
#define RL_VC_PARTIALS 64u
#define RL_VC_IO 64u

typedef struct rl_test_s {
  void* bytes;
  size_t size;
  rl_device_t* device;
  rl_funnel_device_t funnel_device;
  rl_funnel_t* funnel;
} rl_test_t;

// Fails the test with the status message when |status| is not OK.
static void rl_test_ok(rl_status_t status) {
  if (status) {
    char message[1024];
    snprintf(message, sizeof(message), "%s: %s",
             rl_status_code_name(rl_status_code(status)),
             rl_status_message(status));
    rl_status_free(status);
    fail_msg("%s", message);
  }
}


static int rl_test_setup(void** state) {
  rl_test_t* test = calloc(1, sizeof(*test));
  assert_non_null(test);
  test->bytes = rl_test_read_file(RL_TEST_CODE_OBJECT, &test->size);
  rl_sim_options_t options = {.processor = "gfx1100",
                              .hazards = RL_SIM_HAZARDS_SEQUENTIAL,
                              .executor = rl_ref_executor()};
  assert_null(rl_sim_device_create(&options, &test->device));
  assert_null(rl_device_funnel_create(test->device, &test->funnel_device));
  assert_null(rl_funnel_create("vecchain", &test->funnel_device,
                               &test->funnel));
  *state = test;
  return 0;
}

static int rl_test_teardown(void** state) {
  rl_test_t* test = *state;
  rl_funnel_destroy(test->funnel);
  rl_funnel_device_destroy(&test->funnel_device);
  assert_null(test->funnel_device.self);
  test->device->vtable->destroy(test->device);
  free(test->bytes);
  free(test);
  return 0;
}

static uint32_t rl_test_buffer(const rl_capture_t* capture, const char* name) {
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    if (strcmp(capture->buffers[b].name, name) == 0) return b;
  }
  fail_msg("no buffer %s", name);
  return 0;
}

// The vecchain sequence on the host, from the initial x, y and ids:
// element-wise launches 0-3, the two-level sum over y[0, pos], the copy and
// the final clear of the partials (see kernels/vecchain.hip for each
// kernel's operation order; axpy is one fused multiply-add).
typedef struct rl_test_expected_s {
  float a[RL_VC_N];
  float h[RL_VC_N];
  float y[RL_VC_CONTEXT];
  float partials[RL_VC_PARTIALS];
  float out;
  uint32_t io[RL_VC_IO];
} rl_test_expected_t;

static float rl_test_chunk_sum(const float* y, uint32_t begin, uint32_t end) {
  float lanes[64];
  for (uint32_t lane = 0; lane < 64; ++lane) {
    lanes[lane] = 0.0f;
    for (uint32_t i = begin + lane; i < end; i += 64) lanes[lane] += y[i];
  }
  for (uint32_t stride = 32; stride >= 1; stride /= 2) {
    for (uint32_t lane = 0; lane < stride; ++lane) {
      lanes[lane] = lanes[lane] + lanes[lane + stride];
    }
  }
  return lanes[0];
}

static void rl_test_expect(const float* x, const float* y0,
                           const uint32_t* ids, uint32_t pos,
                           rl_test_expected_t* out) {
  memcpy(out->y, y0, sizeof(out->y));
  for (uint32_t i = 0; i < RL_VC_N; ++i) {
    out->a[i] = 1.0f;
    out->h[i] = x[i] * 0.5f;
    out->y[i] = out->h[i] + out->a[i];
    out->y[i] = fmaf(x[i], (float)pos, out->y[i]);
  }
  const uint32_t context = pos + 1;
  const uint32_t chunks = (context + 63) / 64;
  float partials[RL_VC_PARTIALS];
  for (uint32_t g = 0; g < chunks; ++g) {
    uint32_t end = g * 64 + 64 < context ? g * 64 + 64 : context;
    partials[g] = rl_test_chunk_sum(out->y, g * 64, end);
  }
  out->out = 0.0f;
  double exact = 0.0, magnitude = 0.0;
  for (uint32_t g = 0; g < chunks; ++g) out->out += partials[g];
  for (uint32_t i = 0; i < context; ++i) {
    exact += out->y[i];
    magnitude += fabs(out->y[i]);
  }
  // Sanity: the reduction is a sum. y has both signs, so the float error is
  // bounded relative to the sum of magnitudes, not to the (cancelling) sum.
  assert_true(fabs((double)out->out - exact) <= 1e-5 * magnitude);
  memset(out->partials, 0, sizeof(out->partials));
  memcpy(out->io, ids, sizeof(out->io));
}

static void rl_test_compare(const void* got, const void* want, uint32_t words,
                            const char* what) {
  const uint32_t* g = got;
  const uint32_t* w = want;
  for (uint32_t i = 0; i < words; ++i) {
    if (g[i] != w[i]) {
      fail_msg("%s[%u]: got 0x%08x, expected 0x%08x", what, i, g[i], w[i]);
    }
  }
}

// Records vecchain at |pos|, reads the results back through the funnel and
// compares them with the host computation.
static void rl_test_vecchain(rl_test_t* test, int64_t pos) {
  rl_workload_param_value_t value = {"pos", pos};
  rl_workload_options_t options = {.code_object = test->bytes,
                                   .code_object_size = test->size,
                                   .seed = 1,
                                   .params = &value,
                                   .param_count = 1};
  rl_test_ok(rl_workload_vecchain.record(test->funnel, &options));
  const rl_capture_t* live = rl_funnel_capture(test->funnel);
  assert_int_equal(live->launch_count, 8);
  // Every launch ran on the device, in order.
  rl_sim_dispatch_record_t records[16];
  assert_int_equal(rl_sim_dispatch_log(test->device, records, 16), 8);
  for (uint32_t d = 1; d < 8; ++d) {
    assert_true(records[d].start_timestamp >= records[d - 1].end_timestamp);
  }
  static rl_test_expected_t got;
  const struct {
    const char* name;
    void* data;
    uint64_t size;
  } reads[] = {{"a", got.a, sizeof(got.a)},
               {"h", got.h, sizeof(got.h)},
               {"y", got.y, sizeof(got.y)},
               {"partials", got.partials, sizeof(got.partials)},
               {"out", &got.out, sizeof(got.out)},
               {"io", got.io, sizeof(got.io)}};
  for (size_t r = 0; r < sizeof(reads) / sizeof(reads[0]); ++r) {
    assert_null(rl_funnel_read(test->funnel,
                               rl_test_buffer(live, reads[r].name), 0,
                               reads[r].data, reads[r].size));
  }
  rl_capture_t* capture = NULL;
  assert_null(rl_funnel_finish(test->funnel, &capture));
  const uint8_t* x = capture->buffers[rl_test_buffer(capture, "x")].initial;
  const uint8_t* y = capture->buffers[rl_test_buffer(capture, "y")].initial;
  const uint8_t* ids =
      capture->buffers[rl_test_buffer(capture, "ids")].initial;
  assert_non_null(x);
  assert_non_null(y);
  assert_non_null(ids);
  static rl_test_expected_t want;
  rl_test_expect((const float*)x, (const float*)y, (const uint32_t*)ids,
                 (uint32_t)pos, &want);
  rl_test_compare(got.a, want.a, RL_VC_N, "a");
  rl_test_compare(got.h, want.h, RL_VC_N, "h");
  rl_test_compare(got.y, want.y, RL_VC_CONTEXT, "y");
  rl_test_compare(got.partials, want.partials, RL_VC_PARTIALS, "partials");
  rl_test_compare(&got.out, &want.out, 1, "out");
  rl_test_compare(got.io, want.io, RL_VC_IO, "io");
  rl_capture_destroy(capture);
}

static void test_vecchain_default_pos(void** state) {
  rl_test_vecchain(*state, 7);
}

// A context of several chunks, the last one partial.
static void test_vecchain_long_context(void** state) {
  rl_test_vecchain(*state, 1000);
}

// The context reaches past the n elements the step writes (pos >= n).
static void test_vecchain_context_past_n(void** state) {
  rl_test_vecchain(*state, 4095);
}

// A kernel that writes past its buffer faults the queue: the launch fails
// with the device's VM fault, the funnel drops it, and later launches fail
// without reaching the queue.
static void test_fault_breaks_launches(void** state) {
  rl_test_t* test = *state;
  uint32_t code_object = 0, kernel = 0, buffer = 0;
  uint64_t address = 0;
  assert_null(rl_funnel_load_code_object(test->funnel, test->bytes,
                                         test->size, &code_object));
  assert_null(rl_funnel_kernel(test->funnel, code_object, "vc_fill", &kernel));
  assert_null(rl_funnel_buffer(test->funnel, "small", 256, 256,
                               RL_BUFFER_ROLE_STATE, false, &buffer,
                               &address));
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(address),
                            rl_funnel_arg_f32(1.0f), rl_funnel_arg_u32(64)};
  // Negative control: 64 floats fit.
  assert_null(rl_funnel_launch(test->funnel, kernel, grid, block, 0, args, 3,
                               NULL, NULL));
  const uint32_t grid2[3] = {2, 1, 1};
  args[2] = rl_funnel_arg_u32(128);
  rl_status_t status = rl_funnel_launch(test->funnel, kernel, grid2, block, 0,
                                        args, 3, NULL, NULL);
  assert_int_equal(rl_status_code(status), RL_STATUS_POISONED);
  if (!strstr(rl_status_message(status), "VM fault")) {
    fail_msg("message \"%s\"", rl_status_message(status));
  }
  rl_status_free(status);
  assert_int_equal(rl_funnel_capture(test->funnel)->launch_count, 1);
  status = rl_funnel_launch(test->funnel, kernel, grid, block, 0, args, 3,
                            NULL, NULL);
  assert_int_equal(rl_status_code(status), RL_STATUS_POISONED);
  rl_status_free(status);
  // Memory stays readable after the fault.
  float first[64];
  assert_null(rl_funnel_read(test->funnel, buffer, 0, first, sizeof(first)));
  for (int i = 0; i < 64; ++i) assert_true(first[i] == 1.0f);
}

// Geometry a packet cannot carry is refused before anything is published.
static void test_refuses_oversized_block(void** state) {
  rl_test_t* test = *state;
  uint32_t code_object = 0, kernel = 0, buffer = 0;
  uint64_t address = 0;
  assert_null(rl_funnel_load_code_object(test->funnel, test->bytes,
                                         test->size, &code_object));
  assert_null(rl_funnel_kernel(test->funnel, code_object, "vc_fill", &kernel));
  assert_null(rl_funnel_buffer(test->funnel, "b", 256, 256,
                               RL_BUFFER_ROLE_STATE, false, &buffer,
                               &address));
  // 2^27 groups of 64: 2^33 work-items, more than grid_size_x holds.
  const uint32_t grid[3] = {1u << 27, 1, 1}, block[3] = {64, 1, 1};
  rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(address),
                            rl_funnel_arg_f32(1.0f), rl_funnel_arg_u32(0)};
  rl_status_t status = rl_funnel_launch(test->funnel, kernel, grid, block, 0,
                                        args, 3, NULL, NULL);
  // The replay's class for a launch that does not fit AQL (exit 4).
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  rl_status_free(status);
  // The adapter stays usable.
  const uint32_t one[3] = {1, 1, 1}, block64[3] = {64, 1, 1};
  assert_null(rl_funnel_launch(test->funnel, kernel, one, block64, 0, args, 3,
                               NULL, NULL));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_vecchain_default_pos,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_vecchain_long_context,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_vecchain_context_past_n,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_fault_breaks_launches,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_refuses_oversized_block,
                                      rl_test_setup, rl_test_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
