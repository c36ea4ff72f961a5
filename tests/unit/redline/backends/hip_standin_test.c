// Tests of the HIP runtime over the simulator (sim/hip_sim) through
// redline's loader,
// and of the HIP funnel device (redline/backends/hip_funnel.h) over it:
// module launches in both argument forms, stream order, graphs, misuse
// detection with negative controls, and a vecchain recording through HIP
// equal to the sim device's.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dlfcn.h>

#include "kernels/workloads/workload.h"
#include "redline/backends/hip_funnel.h"
#include "redline/backends/hip_loader.h"
#include "redline/device/device.h"
#include "redline/device/device_funnel.h"
#include "redline/funnel.h"
#include "redline/replay.h"
#include "sim/hip_sim/hip_sim.h"
#include "tests/support/test_support.h"

#define N 1000u

typedef struct rl_hip_test_s {
  rl_hip_api_t api;
  rl_hip_sim_error_count_fn error_count;
  rl_hip_sim_error_fn error;
  rl_hip_sim_clear_errors_fn clear;
  hipModule_t module;
  hipFunction_t fill, scale;
  uint8_t* code;
  size_t code_size;
} rl_hip_test_t;

static rl_hip_test_t rl_t;

#define HIP_OK(call) assert_int_equal((call), hipSuccess)

static int rl_setup(void** state) {
  (void)state;
  rl_status_t status = rl_hip_api_open(&rl_t.api, RL_STANDIN_HIP_LIBRARY);
  if (status) {
    fprintf(stderr, "%s\n", rl_status_message(status));
    return -1;
  }
  void* handle = rl_t.api.library.handle;
  rl_t.error_count = (rl_hip_sim_error_count_fn)(uintptr_t)dlsym(
      handle, "rl_hip_sim_error_count");
  rl_t.error = (rl_hip_sim_error_fn)(uintptr_t)dlsym(handle,
                                                         "rl_hip_sim_error");
  rl_t.clear = (rl_hip_sim_clear_errors_fn)(uintptr_t)dlsym(
      handle, "rl_hip_sim_clear_errors");
  if (!rl_t.error_count || !rl_t.error || !rl_t.clear) return -1;
  rl_t.code = rl_test_read_file(RL_KERNELS_DIR "/vecchain-gfx1100.co",
                                &rl_t.code_size);
  if (!rl_t.code) return -1;
  if (rl_t.api.fn.hipInit(0) != hipSuccess) return -1;
  if (rl_t.api.fn.hipModuleLoadData(&rl_t.module, rl_t.code)) return -1;
  if (rl_t.api.fn.hipModuleGetFunction(&rl_t.fill, rl_t.module, "vc_fill") ||
      rl_t.api.fn.hipModuleGetFunction(&rl_t.scale, rl_t.module, "vc_scale")) {
    return -1;
  }
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  free(rl_t.code);
  return 0;
}

static void rl_expect_errors(uint32_t count, const char* substring) {
  uint32_t total = rl_t.error_count();
  for (uint32_t i = 0; i < total; ++i) fprintf(stderr, "  %s\n", rl_t.error(i));
  assert_int_equal(total, count);
  if (substring) assert_non_null(strstr(rl_t.error(0), substring));
  rl_t.clear();
}

// vc_fill (kernelParams form) then vc_scale (extra form, explicit bytes
// only: the stand-in fills the hidden arguments) on one stream.
static void rl_launch_pair(hipStream_t stream, float* a, float* b) {
  float value = 3.0f, s = 2.0f;
  unsigned n = N;
  void* params[] = {&a, &value, &n};
  HIP_OK(rl_t.api.fn.hipModuleLaunchKernel(rl_t.fill, (N + 63) / 64, 1, 1, 64,
                                           1, 1, 0, stream, params, NULL));
  struct {
    float* in;
    float* out;
    float s;
    unsigned n;
  } args = {a, b, s, n};
  size_t size = sizeof(args);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  HIP_OK(rl_t.api.fn.hipModuleLaunchKernel(rl_t.scale, (N + 63) / 64, 1, 1, 64,
                                           1, 1, 0, stream, NULL, extra));
}

static void rl_check_b(float* b, float expected) {
  float host[N];
  HIP_OK(rl_t.api.fn.hipMemcpy(host, b, sizeof(host), hipMemcpyDeviceToHost));
  for (uint32_t i = 0; i < N; ++i) assert_true(host[i] == expected);
}

static void test_launch_forms_and_stream_order(void** state) {
  (void)state;
  float *a = NULL, *b = NULL;
  HIP_OK(rl_t.api.fn.hipMalloc((void**)&a, N * 4));
  HIP_OK(rl_t.api.fn.hipMalloc((void**)&b, N * 4));
  // Device addresses are not host addresses: the range is the sim's.
  hipDeviceptr_t base = NULL;
  size_t size = 0;
  HIP_OK(rl_t.api.fn.hipMemGetAddressRange(&base, &size, (char*)a + 100));
  assert_ptr_equal(base, a);
  assert_int_equal(size, N * 4);
  hipStream_t stream = NULL;
  HIP_OK(rl_t.api.fn.hipStreamCreate(&stream));
  rl_launch_pair(stream, a, b);
  HIP_OK(rl_t.api.fn.hipStreamSynchronize(stream));
  rl_check_b(b, 6.0f);
  HIP_OK(rl_t.api.fn.hipStreamDestroy(stream));
  HIP_OK(rl_t.api.fn.hipFree(a));
  HIP_OK(rl_t.api.fn.hipFree(b));
  rl_expect_errors(0, NULL);
}

static void test_graph_capture_replays(void** state) {
  (void)state;
  float *a = NULL, *b = NULL;
  HIP_OK(rl_t.api.fn.hipMalloc((void**)&a, N * 4));
  HIP_OK(rl_t.api.fn.hipMalloc((void**)&b, N * 4));
  hipStream_t stream = NULL;
  HIP_OK(rl_t.api.fn.hipStreamCreate(&stream));
  HIP_OK(rl_t.api.fn.hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  rl_launch_pair(stream, a, b);
  hipGraph_t graph = NULL;
  HIP_OK(rl_t.api.fn.hipStreamEndCapture(stream, &graph));
  // Captured, not run.
  HIP_OK(rl_t.api.fn.hipStreamSynchronize(stream));
  rl_check_b(b, 0.0f);
  hipGraphExec_t exec = NULL;
  HIP_OK(rl_t.api.fn.hipGraphInstantiate(&exec, graph, NULL, NULL, 0));
  HIP_OK(rl_t.api.fn.hipGraphLaunch(exec, stream));
  HIP_OK(rl_t.api.fn.hipStreamSynchronize(stream));
  rl_check_b(b, 6.0f);
  HIP_OK(rl_t.api.fn.hipGraphExecDestroy(exec));
  HIP_OK(rl_t.api.fn.hipGraphDestroy(graph));
  HIP_OK(rl_t.api.fn.hipStreamDestroy(stream));
  HIP_OK(rl_t.api.fn.hipFree(a));
  HIP_OK(rl_t.api.fn.hipFree(b));
  rl_expect_errors(0, NULL);
}

static void test_misuse_detected(void** state) {
  (void)state;
  float *a = NULL, *b = NULL;
  HIP_OK(rl_t.api.fn.hipMalloc((void**)&a, N * 4));
  HIP_OK(rl_t.api.fn.hipMalloc((void**)&b, N * 4));
  // Launch on a destroyed stream.
  hipStream_t stream = NULL;
  HIP_OK(rl_t.api.fn.hipStreamCreate(&stream));
  HIP_OK(rl_t.api.fn.hipStreamDestroy(stream));
  float value = 1.0f;
  unsigned n = N;
  void* params[] = {&a, &value, &n};
  assert_int_equal(rl_t.api.fn.hipModuleLaunchKernel(rl_t.fill, 16, 1, 1, 64,
                                                     1, 1, 0, stream, params,
                                                     NULL),
                   hipErrorInvalidHandle);
  rl_expect_errors(1, "destroyed stream");
  // Free of memory a pending launch uses (negative control first: a free
  // after synchronising is clean).
  HIP_OK(rl_t.api.fn.hipStreamCreate(&stream));
  rl_launch_pair(stream, a, b);
  HIP_OK(rl_t.api.fn.hipStreamSynchronize(stream));
  rl_expect_errors(0, NULL);
  rl_launch_pair(stream, a, b);
  HIP_OK(rl_t.api.fn.hipFree(b));
  rl_expect_errors(1, "in flight");
  // Memcpy out of range.
  float host[N + 1];
  assert_int_equal(rl_t.api.fn.hipMemcpy(host, a, sizeof(host),
                                         hipMemcpyDeviceToHost),
                   hipErrorInvalidValue);
  rl_expect_errors(1, "outside every live allocation");
  HIP_OK(rl_t.api.fn.hipMemcpy(host, a, N * 4, hipMemcpyDeviceToHost));
  rl_expect_errors(0, NULL);
  HIP_OK(rl_t.api.fn.hipStreamDestroy(stream));
  HIP_OK(rl_t.api.fn.hipFree(a));
}

// Records |workload| through |device| and returns its final region bytes.
static void rl_record(const rl_funnel_device_t* device, rl_capture_t** out) {
  const rl_workload_t* workload = rl_workload_find("vecchain");
  assert_non_null(workload);
  rl_workload_options_t options = {.code_object = rl_t.code,
                                   .code_object_size = rl_t.code_size,
                                   .seed = 1};
  rl_funnel_t* funnel = NULL;
  assert_int_equal(rl_funnel_create("vecchain", device, &funnel), RL_OK);
  rl_status_t status = workload->record(funnel, &options);
  if (status) fprintf(stderr, "%s\n", rl_status_message(status));
  assert_int_equal(status, RL_OK);
  assert_int_equal(rl_funnel_finish(funnel, out), RL_OK);
  rl_funnel_destroy(funnel);
}

static void test_hip_funnel_matches_sim(void** state) {
  (void)state;
  rl_funnel_device_t hip = {0};
  rl_status_t status = rl_hip_funnel_create(RL_STANDIN_HIP_LIBRARY, &hip);
  if (status) fprintf(stderr, "%s\n", rl_status_message(status));
  assert_int_equal(status, RL_OK);
  rl_device_t* sim = NULL;
  const rl_device_options_t sim_options = {.kind = "sim",
                                           .processor = "gfx1100"};
  assert_int_equal(rl_device_open(&sim_options, &sim), RL_OK);
  rl_funnel_device_t sim_funnel = {0};
  assert_int_equal(rl_device_funnel_create(sim, &sim_funnel), RL_OK);
  rl_capture_t *via_hip = NULL, *via_sim = NULL;
  rl_record(&hip, &via_hip);
  rl_record(&sim_funnel, &via_sim);
  // Same launches and kernarg bytes except pointer values, same initial
  // contents; and the final device contents agree buffer by buffer.
  assert_int_equal(via_hip->launch_count, via_sim->launch_count);
  assert_int_equal(via_hip->buffer_count, via_sim->buffer_count);
  for (uint32_t b = 0; b < via_hip->buffer_count; ++b) {
    const rl_capture_buffer_t* h = &via_hip->buffers[b];
    const rl_capture_buffer_t* s = &via_sim->buffers[b];
    assert_int_equal(h->size, s->size);
    uint8_t* hb = malloc(h->size);
    uint8_t* sb = malloc(s->size);
    assert_int_equal(hip.read(hip.self, h->capture_address, hb, h->size), RL_OK);
    assert_int_equal(sim_funnel.read(sim_funnel.self, s->capture_address, sb, s->size),
                     RL_OK);
    assert_memory_equal(hb, sb, h->size);
    free(hb);
    free(sb);
  }
  // An address outside every HIP allocation is refused.
  uint8_t byte = 0;
  status = hip.read(hip.self, 16, &byte, 1);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  rl_capture_destroy(via_hip);
  rl_capture_destroy(via_sim);
  rl_funnel_device_destroy(&hip);
  rl_funnel_device_destroy(&sim_funnel);
  rl_device_close(sim);
  rl_expect_errors(0, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_launch_forms_and_stream_order),
      cmocka_unit_test(test_graph_capture_replays),
      cmocka_unit_test(test_misuse_detected),
      cmocka_unit_test(test_hip_funnel_matches_sim),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
