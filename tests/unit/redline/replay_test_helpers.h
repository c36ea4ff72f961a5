// tests/unit/redline/replay_test_helpers.h — shared by the replay tests: recording
// vecchain eagerly through the funnel on a device (the eager reference run)
// and comparing state-region digests. Include after <cmocka.h>.
#ifndef REDLINE_TESTS_REPLAY_TEST_HELPERS_H_
#define REDLINE_TESTS_REPLAY_TEST_HELPERS_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/workloads/workload.h"
#include "redline/replay.h"
#include "tests/support/test_support.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"
#define RL_TEST_MAX_REGIONS 8


// Digests of every state region of the funnel's capture, read from the
// device through the funnel (the eager results).
static inline void rl_test_funnel_digests(rl_funnel_t* funnel,
                                   rl_digest128_t* out_digests) {
  const rl_capture_t* capture = rl_funnel_capture(funnel);
  assert_true(capture->region_count <= RL_TEST_MAX_REGIONS);
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    const rl_capture_region_t* region = &capture->regions[r];
    void* data = malloc((size_t)region->size);
    assert_non_null(data);
    assert_null(rl_funnel_read(funnel, region->buffer, region->offset, data,
                               region->size));
    out_digests[r] = rl_digest128_of(data, (size_t)region->size);
    free(data);
  }
}

// Records vecchain at |pos| through the funnel. With a |device| the launches
// execute there (an eager run) and |out_digests| (may be NULL) receives the
// region digests after it; without one the record-only device is used.
static inline void rl_test_record(rl_device_t* device, int64_t pos,
                           rl_capture_t** out_capture,
                           rl_digest128_t* out_digests) {
  size_t size = 0;
  void* bytes = rl_test_read_file(RL_TEST_CODE_OBJECT, &size);
  rl_workload_param_value_t value = {"pos", pos};
  rl_workload_options_t options = {.code_object = bytes,
                                   .code_object_size = size,
                                   .seed = 1,
                                   .params = &value,
                                   .param_count = 1};
  rl_funnel_device_t funnel_device;
  if (device) {
    assert_null(rl_device_funnel_device_create(device, &funnel_device));
  } else {
    assert_null(rl_funnel_null_device_create(&funnel_device));
  }
  rl_funnel_t* funnel = NULL;
  assert_null(rl_funnel_create("vecchain", &funnel_device, &funnel));
  rl_status_t status = rl_workload_vecchain.record(funnel, &options);
  if (status) fprintf(stderr, "record: %s\n", rl_status_message(status));
  assert_null(status);
  if (out_digests) rl_test_funnel_digests(funnel, out_digests);
  assert_null(rl_funnel_finish(funnel, out_capture));
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&funnel_device);
  free(bytes);
}

// The replay's digests of every region.
static inline void rl_test_replay_digests(rl_replay_t* replay,
                                   const rl_capture_t* capture,
                                   rl_digest128_t* out_digests) {
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    assert_null(rl_replay_read_region(replay, r, NULL, 0, &out_digests[r]));
  }
}

// Number of regions whose digests differ.
static inline uint32_t rl_test_count_differences(const rl_capture_t* capture,
                                          const rl_digest128_t* a,
                                          const rl_digest128_t* b) {
  uint32_t differences = 0;
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    differences += !rl_digest128_equal(a[r], b[r]);
  }
  return differences;
}

// Asserts |status| has |code|, printing its message otherwise; frees it.
static inline void rl_test_expect(rl_status_t status, rl_status_code_t code,
                           const char* needle) {
  if (rl_status_code(status) != code ||
      (needle && !strstr(rl_status_message(status), needle))) {
    fprintf(stderr, "expected %s containing '%s', got %s: %s\n",
            rl_status_code_name(code), needle ? needle : "",
            rl_status_code_name(rl_status_code(status)),
            rl_status_message(status));
    fail();
  }
  rl_status_free(status);
}

static inline rl_device_t* rl_test_open_sim(const char* processor, bool adversarial,
                                     uint64_t seed) {
  rl_device_options_t options = {.processor = processor,
                                 .adversarial = adversarial,
                                 .seed = seed};
  rl_device_t* device = NULL;
  assert_null(rl_device_open(&options, &device));
  return device;
}

#endif  // REDLINE_TESTS_REPLAY_TEST_HELPERS_H_
