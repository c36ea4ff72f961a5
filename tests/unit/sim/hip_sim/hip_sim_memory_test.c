// Tests of the HIP runtime over the simulator's device memory
// (sim/hip_sim, rl_sim_options_t.memory_bytes): the device refuses what
// it does not have, hipMemGetInfo reports the total and what is free, and a
// huge allocation costs no host memory until touched. Linked against the
// runtime (libamdhip64 from build/lib/redline) like any HIP program.
//
// The device's total is REDLINE_HIP_MEMORY when set (CTest runs the test
// once without it, the 16 GiB default, and once with 1G), read here the
// way the runtime reads it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>
#include <hip/hip_runtime_api.h>

#include "base/number.h"

#define HIP_OK(call) assert_int_equal((call), hipSuccess)

static uint64_t rl_expected_total(void) {
  const char* text = getenv("REDLINE_HIP_MEMORY");
  uint64_t total = 16ull << 30;
  if (text && text[0]) assert_null(rl_number_parse_size(text, &total));
  return total;
}

static uint64_t rl_rss_bytes(void) {
  FILE* file = fopen("/proc/self/statm", "r");
  assert_non_null(file);
  unsigned long long size = 0, resident = 0;
  assert_int_equal(fscanf(file, "%llu %llu", &size, &resident), 2);
  fclose(file);
  return resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

// The totals every query reports agree, and 20 GiB (more than the device
// has) fails with hipErrorOutOfMemory, as does one page more than is free;
// exactly what is free succeeds (the negative control), then nothing more.
static void test_allocations_beyond_the_device_fail(void** state) {
  (void)state;
  const uint64_t total = rl_expected_total();
  size_t free_bytes = 0, reported = 0;
  HIP_OK(hipMemGetInfo(&free_bytes, &reported));
  assert_int_equal(reported, total);
  size_t device_total = 0;
  HIP_OK(hipDeviceTotalMem(&device_total, 0));
  assert_int_equal(device_total, total);
  hipDeviceProp_t props;
  HIP_OK(hipGetDeviceProperties(&props, 0));
  assert_int_equal(props.totalGlobalMem, total);
  // The runtime's own printf buffer is all that is in use.
  assert_true(free_bytes < total && free_bytes > total - (4u << 20));
  void* p = (void*)1;
  assert_int_equal(hipMalloc(&p, 20ull << 30), hipErrorOutOfMemory);
  assert_null(p);
  assert_int_equal(hipMalloc(&p, free_bytes + 4096), hipErrorOutOfMemory);
  assert_null(p);
  HIP_OK(hipMalloc(&p, free_bytes));
  size_t left = 1;
  HIP_OK(hipMemGetInfo(&left, &reported));
  assert_int_equal(left, 0);
  void* q = (void*)1;
  assert_int_equal(hipMalloc(&q, 1), hipErrorOutOfMemory);
  assert_int_equal(hipHostMalloc(&q, 1, 0), hipErrorOutOfMemory);
  HIP_OK(hipFree(p));
  HIP_OK(hipMemGetInfo(&left, &reported));
  assert_int_equal(left, free_bytes);
}

// Half the device (8 GiB by default) allocated is reserved, not
// committed: the process's resident memory barely moves. A memset of 32
// MiB of it commits those pages (the control that shows the measurement
// sees touched memory) and no more than that plus a small staging block.
static void test_a_huge_allocation_costs_nothing_until_touched(void** state) {
  (void)state;
  const uint64_t half = rl_expected_total() / 2;
  void* p = NULL;
  HIP_OK(hipMalloc(&p, 4096));  // the device is started before measuring
  HIP_OK(hipFree(p));
  const uint64_t before = rl_rss_bytes();
  HIP_OK(hipMalloc(&p, half));
  const uint64_t reserved = rl_rss_bytes();
  fprintf(stderr, "hipMalloc(%llu): RSS %llu -> %llu bytes\n",
          (unsigned long long)half, (unsigned long long)before,
          (unsigned long long)reserved);
  assert_true(reserved < before + (16u << 20));
  const uint64_t touched = 32u << 20;
  HIP_OK(hipMemset((uint8_t*)p + half / 2, 0x5a, touched));
  uint8_t bytes[2] = {0};
  HIP_OK(hipMemcpy(bytes, (uint8_t*)p + half / 2 + touched - 1, 2,
                   hipMemcpyDeviceToHost));
  assert_int_equal(bytes[0], 0x5a);
  assert_int_equal(bytes[1], 0);  // untouched memory reads as zero
  const uint64_t written = rl_rss_bytes();
  fprintf(stderr, "hipMemset(%llu bytes): RSS %llu bytes\n",
          (unsigned long long)touched, (unsigned long long)written);
  assert_true(written >= reserved + touched - (4u << 20));
  assert_true(written < reserved + touched + (16u << 20));
  HIP_OK(hipFree(p));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_allocations_beyond_the_device_fail),
      cmocka_unit_test(test_a_huge_allocation_costs_nothing_until_touched),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
