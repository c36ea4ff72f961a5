// tests/unit/capture/capture_repeat.h — a synthetic capture for density and host
// cost measurements: the code objects, kernels, buffers, parameters and
// regions of a recorded capture, with its launches cycled to any count
// (launch i of the copy is launch i % n of the source, bindings included).
#ifndef REDLINE_TESTS_UNIT_CAPTURE_REPEAT_H_
#define REDLINE_TESTS_UNIT_CAPTURE_REPEAT_H_

#include <stdint.h>

#include "redline/capture.h"

// Builds the copy of |source| with |launch_count| launches through the
// rl_capture_add_* functions (so it is validated like any capture).
// |first| and |stride| pick the source launches: launch i of the copy is
// source launch (first + i * stride) % source->launch_count.
rl_status_t rl_capture_repeat(const rl_capture_t* source,
                              uint32_t launch_count, uint32_t first,
                              uint32_t stride, rl_capture_t** out_capture);

// The copy of |source| with all its launches, then copies of source launch
// |filler| up to |launch_count| launches in all, each with its kernarg
// zeroed and without pointer slots or bindings: launches that add IB (or
// AQL packets) but no patch sites and no hazards. The filler's kernel must
// do nothing with zero arguments (vecchain's vc_fill: n = 0).
rl_status_t rl_capture_repeat_fillers(const rl_capture_t* source,
                                      uint32_t launch_count, uint32_t filler,
                                      rl_capture_t** out_capture);

#endif  // REDLINE_TESTS_UNIT_CAPTURE_REPEAT_H_
