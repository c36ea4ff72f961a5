// tests/unit/sim/hip_sim/hip_sim_check.h — the checks of the runtime's test
// programs: CHECK(call) stops with exit 2 naming a failed HIP call, EXPECT
// (condition) with exit 1 naming a wrong result. HIP_SIM_TEST_BREAK=1 in
// the environment makes EXPECT_EQ compare against a wrong value: the
// negative control that shows each check can fail.
#pragma once
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    hipError_t check_error = (call);                                       \
    if (check_error != hipSuccess) {                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,         \
              hipGetErrorName(check_error));                               \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

static inline long long hip_sim_test_break(void) {
  const char* value = getenv("HIP_SIM_TEST_BREAK");
  return value && strcmp(value, "1") == 0 ? 1 : 0;
}

#define EXPECT_EQ(actual, expected)                                         \
  do {                                                                      \
    long long expect_a = (long long)(actual);                               \
    long long expect_e = (long long)(expected) + hip_sim_test_break();      \
    if (expect_a != expect_e) {                                             \
      fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", __FILE__,        \
              __LINE__, #actual, expect_a, expect_e);                       \
      exit(1);                                                              \
    }                                                                       \
  } while (0)
