// tests/support/test_record.c — recording on the record-only device
// (test_record.h).
#include "tests/support/test_record.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "kernels/workloads/workload.h"
#include "redline/funnel.h"
#include "tests/support/test_support.h"

rl_capture_t* rl_test_record_null(const char* workload,
                                  const char* code_object) {
  const rl_workload_t* found = rl_workload_find(workload);
  assert_non_null(found);
  size_t size = 0;
  void* bytes = rl_test_read_file(code_object, &size);
  rl_workload_options_t options = {
      .code_object = bytes, .code_object_size = size, .seed = 1};
  rl_funnel_device_t device;
  assert_null(rl_funnel_null_device_create(&device));
  rl_funnel_t* funnel = NULL;
  assert_null(rl_funnel_create(workload, &device, &funnel));
  assert_null(found->record(funnel, &options));
  rl_capture_t* capture = NULL;
  assert_null(rl_funnel_finish(funnel, &capture));
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&device);
  free(bytes);
  return capture;
}

uint64_t* rl_test_buffer_addresses(const rl_capture_t* capture, uint64_t base) {
  uint64_t* addresses = calloc(capture->buffer_count + 1u, sizeof(uint64_t));
  assert_non_null(addresses);
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    addresses[b] = base + (uint64_t)b * 0x100000;
  }
  return addresses;
}
