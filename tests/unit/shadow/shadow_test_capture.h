// tests/unit/shadow/shadow_test_capture.h — the capture the shadow's unit
// tests run on: vecchain recorded in this process (an eager run through
// the funnel on the simulated device), so a test needs no file. Its
// regions are y, out, partials (f32) and io (u32); its window walks pos.
#ifndef REDLINE_TESTS_UNIT_SHADOW_SHADOW_TEST_CAPTURE_H_
#define REDLINE_TESTS_UNIT_SHADOW_SHADOW_TEST_CAPTURE_H_

#include "kernels/workloads/workload.h"
#include "redline/capture.h"
#include "shadow/shadow.h"

// Records |workload| (seed 1) from the code object file |code_object| on
// the default simulated device; fails the test on any error.
rl_capture_t* rl_shadow_test_record(const rl_workload_t* workload,
                                    const char* code_object);

// Records vecchain (seed 1) for gfx1100; fails the test on any error.
rl_capture_t* rl_shadow_test_record_vecchain(void);

// Options with the arms of |arms| (rl_shadow_arms_parse) and the window
// pos = 1, 2 (two steps: enough for a verdict, fast); everything else
// zero (defaults).
rl_shadow_options_t rl_shadow_test_options(const char* arms);

#endif  // REDLINE_TESTS_UNIT_SHADOW_SHADOW_TEST_CAPTURE_H_
