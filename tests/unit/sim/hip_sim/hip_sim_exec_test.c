// Tests of the HIP runtime over the simulator's execution model
// (sim/hip_sim/hip_sim_exec.c, hip_sim.h "Execution model") from C,
// so they run under the sanitizers (label threaded: TSan checks the device
// worker against the host threads): exact event waits between two streams,
// host functions and callbacks in stream order while a second host thread
// drives its own stream, pageable sources staged at the call, a host
// function that would wait for itself refused, and capture joins. Each
// check has a negative control next to it.
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>

#include "tests/support/test_support.h"

#define N 256u

// The entries used, looked up in the runtime by name and typed by the
// header's prototypes.
#define RL_EXEC_TEST_ENTRIES(X) \
  X(hipMalloc) \
  X(hipFree) \
  X(hipMemcpy) \
  X(hipMemcpyAsync) \
  X(hipModuleLoadData) \
  X(hipModuleGetFunction) \
  X(hipModuleLaunchKernel) \
  X(hipStreamCreateWithFlags) \
  X(hipStreamDestroy) \
  X(hipStreamSynchronize) \
  X(hipStreamQuery) \
  X(hipStreamWaitEvent) \
  X(hipEventCreate) \
  X(hipEventDestroy) \
  X(hipEventRecord) \
  X(hipLaunchHostFunc) \
  X(hipStreamAddCallback) \
  X(hipStreamBeginCapture) \
  X(hipStreamEndCapture) \
  X(hipGraphDestroy)

typedef struct rl_exec_test_s {
  void* library;
#define RL_EXEC_TEST_FIELD(name) __typeof__(name)* name;
  RL_EXEC_TEST_ENTRIES(RL_EXEC_TEST_FIELD)
#undef RL_EXEC_TEST_FIELD
  hipFunction_t fill, scale;
  uint8_t* code;
} rl_exec_test_t;

static rl_exec_test_t rl_h;

#define HIP_OK(call) assert_int_equal((call), hipSuccess)

static int rl_setup(void** state) {
  (void)state;
  rl_h.library = dlopen(RL_STANDIN_HIP_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!rl_h.library) return -1;
#define RL_EXEC_TEST_LOAD(name)                                     \
  rl_h.name = (__typeof__(name)*)(uintptr_t)dlsym(rl_h.library, #name); \
  if (!rl_h.name) return -1;
  RL_EXEC_TEST_ENTRIES(RL_EXEC_TEST_LOAD)
#undef RL_EXEC_TEST_LOAD
  size_t size = 0;
  rl_h.code = rl_test_read_file(RL_KERNELS_DIR "/vecchain-gfx1100.co", &size);
  hipModule_t module;
  if (!rl_h.code || rl_h.hipModuleLoadData(&module, rl_h.code) ||
      rl_h.hipModuleGetFunction(&rl_h.fill, module, "vc_fill") ||
      rl_h.hipModuleGetFunction(&rl_h.scale, module, "vc_scale")) {
    return -1;
  }
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  free(rl_h.code);
  return 0;  // the runtime stays loaded: its destructor runs at exit
}

static void rl_fill(hipStream_t stream, float* out, float value) {
  unsigned n = N;
  void* params[] = {&out, &value, &n};
  HIP_OK(rl_h.hipModuleLaunchKernel(rl_h.fill, N / 64, 1, 1, 64, 1, 1, 0,
                                    stream, params, NULL));
}

static void rl_scale(hipStream_t stream, float* in, float* out, float s) {
  unsigned n = N;
  void* params[] = {&in, &out, &s, &n};
  HIP_OK(rl_h.hipModuleLaunchKernel(rl_h.scale, N / 64, 1, 1, 64, 1, 1, 0,
                                    stream, params, NULL));
}

static float rl_first(float* device) {
  float host[N];
  HIP_OK(rl_h.hipMemcpy(host, device, sizeof(host), hipMemcpyDeviceToHost));
  return host[0];
}

// a = 1; then b = a * 2 on B, a = b * 2 on A, ... through events only; the
// host waits for stream B alone. Every step reads the previous step's
// output, so one out of order changes the result.
static void test_event_waits_order_exactly_the_recorded_work(void** state) {
  (void)state;
  float *a, *b;
  HIP_OK(rl_h.hipMalloc((void**)&a, N * 4));
  HIP_OK(rl_h.hipMalloc((void**)&b, N * 4));
  hipStream_t s[2];
  hipEvent_t e[8];
  for (int i = 0; i < 2; ++i) {
    HIP_OK(rl_h.hipStreamCreateWithFlags(&s[i], hipStreamNonBlocking));
  }
  for (int i = 0; i < 8; ++i) HIP_OK(rl_h.hipEventCreate(&e[i]));
  rl_fill(s[0], a, 1.0f);
  HIP_OK(rl_h.hipEventRecord(e[0], s[0]));
  for (int i = 1; i < 8; ++i) {
    hipStream_t on = s[i % 2];
    HIP_OK(rl_h.hipStreamWaitEvent(on, e[i - 1], 0));
    if (i % 2) {
      rl_scale(on, a, b, 2.0f);
    } else {
      rl_scale(on, b, a, 2.0f);
    }
    HIP_OK(rl_h.hipEventRecord(e[i], on));
  }
  HIP_OK(rl_h.hipStreamSynchronize(s[1]));
  assert_true(rl_first(b) == 128.0f);  // 1 * 2^7
  // Negative control: without a wait, B's reader (submitted first) does
  // not see A's later write, so the check above can fail.
  rl_scale(s[1], a, b, 2.0f);
  rl_fill(s[0], a, 1000.0f);
  HIP_OK(rl_h.hipStreamSynchronize(s[0]));
  HIP_OK(rl_h.hipStreamSynchronize(s[1]));
  assert_true(rl_first(b) != 2000.0f);
  for (int i = 0; i < 8; ++i) HIP_OK(rl_h.hipEventDestroy(e[i]));
  for (int i = 0; i < 2; ++i) HIP_OK(rl_h.hipStreamDestroy(s[i]));
  HIP_OK(rl_h.hipFree(a));
  HIP_OK(rl_h.hipFree(b));
}

typedef struct rl_host_log_s {
  int calls[8];
  int count;  // written by the worker only, read after a synchronize
} rl_host_log_t;

static void rl_host_fn(void* data) {
  rl_host_log_t* log = data;
  log->calls[log->count] = log->count + 1;
  ++log->count;
}

static void rl_callback(hipStream_t stream, hipError_t status, void* data) {
  (void)stream;
  rl_host_log_t* log = data;
  log->calls[log->count] = status == hipSuccess ? 100 + log->count : -1;
  ++log->count;
}

// A second host thread's own stream of fills, copies and host functions.
static void* rl_other_thread(void* data) {
  rl_host_log_t* log = data;
  hipStream_t stream;
  float* d;
  if (rl_h.hipStreamCreateWithFlags(&stream, 0) || rl_h.hipMalloc((void**)&d, N * 4)) {
    return (void*)1;
  }
  for (int i = 0; i < 4; ++i) {
    rl_fill(stream, d, (float)i);
    if (rl_h.hipLaunchHostFunc(stream, rl_host_fn, log)) return (void*)1;
  }
  if (rl_h.hipStreamSynchronize(stream) || rl_h.hipStreamDestroy(stream) ||
      rl_h.hipFree(d)) {
    return (void*)1;
  }
  return NULL;
}

static void test_host_functions_run_in_stream_order_across_threads(
    void** state) {
  (void)state;
  rl_host_log_t mine = {{0}, 0}, theirs = {{0}, 0};
  pthread_t thread;
  assert_int_equal(pthread_create(&thread, NULL, rl_other_thread, &theirs), 0);
  hipStream_t stream;
  HIP_OK(rl_h.hipStreamCreateWithFlags(&stream, 0));
  HIP_OK(rl_h.hipLaunchHostFunc(stream, rl_host_fn, &mine));
  HIP_OK(rl_h.hipStreamAddCallback(stream, rl_callback, &mine, 0));
  HIP_OK(rl_h.hipLaunchHostFunc(stream, rl_host_fn, &mine));
  assert_int_equal(rl_h.hipStreamAddCallback(stream, rl_callback, &mine, 1),
                   hipErrorInvalidValue);  // flags are reserved
  HIP_OK(rl_h.hipStreamSynchronize(stream));
  void* result = (void*)1;
  assert_int_equal(pthread_join(thread, &result), 0);
  assert_null(result);
  assert_int_equal(mine.count, 3);
  assert_int_equal(mine.calls[0], 1);
  assert_int_equal(mine.calls[1], 101);
  assert_int_equal(mine.calls[2], 3);
  assert_int_equal(theirs.count, 4);
  for (int i = 0; i < 4; ++i) assert_int_equal(theirs.calls[i], i + 1);
  HIP_OK(rl_h.hipStreamDestroy(stream));
}

typedef struct rl_poll_s {
  hipStream_t other;
  double seconds;  // how long to poll at most
  hipError_t last;
} rl_poll_t;

static double rl_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Polls the other stream until its work completed (bounded in time).
static void rl_poll_other(void* data) {
  rl_poll_t* p = data;
  const double end = rl_seconds() + p->seconds;
  do {
    p->last = rl_h.hipStreamQuery(p->other);
  } while (p->last == hipErrorNotReady && rl_seconds() < end);
}

// A host function does not stop the device: while it runs, a kernel
// queued later on another stream runs and completes.
static void test_host_function_does_not_stop_other_streams(void** state) {
  (void)state;
  float* d;
  HIP_OK(rl_h.hipMalloc((void**)&d, N * 4));
  rl_poll_t p = {NULL, 30.0, hipErrorNotReady};
  hipStream_t mine;
  HIP_OK(rl_h.hipStreamCreateWithFlags(&mine, hipStreamNonBlocking));
  HIP_OK(rl_h.hipStreamCreateWithFlags(&p.other, hipStreamNonBlocking));
  HIP_OK(rl_h.hipLaunchHostFunc(mine, rl_poll_other, &p));
  rl_fill(p.other, d, 4.0f);
  HIP_OK(rl_h.hipStreamSynchronize(mine));
  assert_int_equal(p.last, hipSuccess);
  assert_true(rl_first(d) == 4.0f);
  // Control: polling a stream whose work waits for the host function
  // itself never sees it complete.
  rl_poll_t q = {mine, 0.2, hipErrorNotReady};
  HIP_OK(rl_h.hipLaunchHostFunc(mine, rl_poll_other, &q));
  HIP_OK(rl_h.hipStreamSynchronize(mine));
  assert_int_equal(q.last, hipErrorNotReady);
  HIP_OK(rl_h.hipStreamDestroy(mine));
  HIP_OK(rl_h.hipStreamDestroy(p.other));
  HIP_OK(rl_h.hipFree(d));
}

static void rl_null_stream_callback(hipStream_t stream, hipError_t status,
                                    void* data) {
  *(int*)data = stream == NULL && status == hipSuccess ? 1 : -1;
}

// The null stream's callback receives NULL, the handle the program used.
static void test_null_stream_callback_receives_null(void** state) {
  (void)state;
  int seen = 0;
  HIP_OK(rl_h.hipStreamAddCallback(NULL, rl_null_stream_callback, &seen, 0));
  HIP_OK(rl_h.hipStreamSynchronize(NULL));
  assert_int_equal(seen, 1);
}

static void test_pageable_source_is_staged_at_the_call(void** state) {
  (void)state;
  float* d;
  HIP_OK(rl_h.hipMalloc((void**)&d, N * 4));
  hipStream_t stream;
  HIP_OK(rl_h.hipStreamCreateWithFlags(&stream, 0));
  float host[N];
  for (uint32_t i = 0; i < N; ++i) host[i] = 7.0f;
  for (int i = 0; i < 8; ++i) rl_scale(stream, d, d, 1.0f);  // busy queue
  HIP_OK(rl_h.hipMemcpyAsync(d, host, sizeof(host), hipMemcpyHostToDevice,
                             stream));
  for (uint32_t i = 0; i < N; ++i) host[i] = -1.0f;
  HIP_OK(rl_h.hipStreamSynchronize(stream));
  assert_true(rl_first(d) == 7.0f);
  // Control: the refill is seen by a copy issued after it.
  HIP_OK(rl_h.hipMemcpyAsync(d, host, sizeof(host), hipMemcpyHostToDevice,
                             stream));
  HIP_OK(rl_h.hipStreamSynchronize(stream));
  assert_true(rl_first(d) == -1.0f);
  HIP_OK(rl_h.hipStreamDestroy(stream));
  HIP_OK(rl_h.hipFree(d));
}

typedef struct rl_self_wait_s {
  hipStream_t stream;
  hipError_t got;
} rl_self_wait_t;

static void rl_self_wait(void* data) {
  rl_self_wait_t* w = data;
  w->got = rl_h.hipStreamSynchronize(w->stream);
}

static void test_host_function_waiting_for_itself_is_refused(void** state) {
  (void)state;
  rl_self_wait_t w = {NULL, hipSuccess};
  HIP_OK(rl_h.hipStreamCreateWithFlags(&w.stream, 0));
  HIP_OK(rl_h.hipLaunchHostFunc(w.stream, rl_self_wait, &w));
  HIP_OK(rl_h.hipStreamSynchronize(w.stream));
  assert_int_equal(w.got, hipErrorIllegalState);
  // Control: the same wait from the host succeeds.
  HIP_OK(rl_h.hipStreamSynchronize(w.stream));
  HIP_OK(rl_h.hipStreamDestroy(w.stream));
}

static void test_capture_with_unjoined_fork_fails(void** state) {
  (void)state;
  float* d;
  HIP_OK(rl_h.hipMalloc((void**)&d, N * 4));
  hipStream_t origin, side;
  hipEvent_t fork, join;
  HIP_OK(rl_h.hipStreamCreateWithFlags(&origin, hipStreamNonBlocking));
  HIP_OK(rl_h.hipStreamCreateWithFlags(&side, hipStreamNonBlocking));
  HIP_OK(rl_h.hipEventCreate(&fork));
  HIP_OK(rl_h.hipEventCreate(&join));
  hipGraph_t graph = NULL;
  for (int joined = 0; joined < 2; ++joined) {
    HIP_OK(rl_h.hipStreamBeginCapture(origin, hipStreamCaptureModeGlobal));
    rl_fill(origin, d, 1.0f);
    HIP_OK(rl_h.hipEventRecord(fork, origin));
    HIP_OK(rl_h.hipStreamWaitEvent(side, fork, 0));
    rl_scale(side, d, d, 3.0f);
    if (joined) {
      HIP_OK(rl_h.hipEventRecord(join, side));
      HIP_OK(rl_h.hipStreamWaitEvent(origin, join, 0));
    }
    hipError_t ended = rl_h.hipStreamEndCapture(origin, &graph);
    assert_int_equal(ended, joined ? hipSuccess : hipErrorStreamCaptureUnjoined);
    assert_true((graph != NULL) == (joined != 0));
  }
  HIP_OK(rl_h.hipGraphDestroy(graph));
  HIP_OK(rl_h.hipStreamDestroy(origin));
  HIP_OK(rl_h.hipStreamDestroy(side));
  HIP_OK(rl_h.hipEventDestroy(fork));
  HIP_OK(rl_h.hipEventDestroy(join));
  HIP_OK(rl_h.hipFree(d));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_event_waits_order_exactly_the_recorded_work),
      cmocka_unit_test(test_host_functions_run_in_stream_order_across_threads),
      cmocka_unit_test(test_null_stream_callback_receives_null),
      cmocka_unit_test(test_host_function_does_not_stop_other_streams),
      cmocka_unit_test(test_pageable_source_is_staged_at_the_call),
      cmocka_unit_test(test_host_function_waiting_for_itself_is_refused),
      cmocka_unit_test(test_capture_with_unjoined_fork_fails),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
