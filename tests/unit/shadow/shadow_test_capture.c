// The capture the shadow's unit tests run on
// (tests/unit/shadow/shadow_test_capture.h).
#include "tests/unit/shadow/shadow_test_capture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/workloads/workload.h"
#include "redline/device/device.h"
#include "redline/replay.h"
#include "tests/support/test_support.h"

rl_capture_t* rl_shadow_test_record(const rl_workload_t* workload,
                                    const char* code_object) {
  size_t size = 0;
  void* code = rl_test_read_file(code_object, &size);
  rl_workload_options_t options = {
      .code_object = code, .code_object_size = size, .seed = 1};
  rl_device_t* device = NULL;
  assert_null(rl_device_open(NULL, &device));
  rl_funnel_device_t funnel_device;
  assert_null(rl_device_funnel_device_create(device, &funnel_device));
  rl_funnel_t* funnel = NULL;
  assert_null(rl_funnel_create(workload->name, &funnel_device, &funnel));
  assert_null(workload->record(funnel, &options));
  rl_capture_t* capture = NULL;
  assert_null(rl_funnel_finish(funnel, &capture));
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&funnel_device);
  rl_device_close(device);
  free(code);
  return capture;
}

rl_capture_t* rl_shadow_test_record_vecchain(void) {
  return rl_shadow_test_record(&rl_workload_vecchain,
                               RL_KERNELS_DIR "/vecchain-gfx1100.co");
}

rl_shadow_options_t rl_shadow_test_options(const char* arms) {
  rl_shadow_options_t options;
  memset(&options, 0, sizeof(options));
  assert_null(rl_shadow_arms_parse(arms, options.arms, &options.arm_count));
  options.has_window = true;
  options.window = (rl_shadow_window_t){.start = 1, .count = 2, .stride = 1};
  return options;
}
