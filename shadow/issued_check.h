// shadow/issued_check.h — the as-issued argument check: what a replayed
// dispatch received against the launch as the program issued it through
// the HIP API (redline/capture_issued.h), an oracle that does not share
// the capture writer's kernarg assembly.
//
// Rule, per explicit argument of the kernel's metadata:
//   pointer (global_buffer, 8 bytes): the issued value v, when it lies in
//     a capture buffer b ([capture_address, + size]), is expected as the
//     arm's address of b plus (v - capture_address); any such b is
//     accepted (a freed and reused range has several); a value in no
//     buffer (null, host) is expected unchanged;
//   anything else: byte for byte.
// Bound bytes (a kernarg binding overlapping the argument) are compared
// only when the window's parameter values are the capture's own
// (capture_value of every parameter); at other values the argument is
// excluded, since the program never issued it there.
// Bytes between arguments and hidden arguments are not compared, nor
// arguments past |kernarg_size| (a device trace keeps at most
// RL_SIM_TRACE_KERNARG_MAX bytes).
//
// Two places run it: the recorded arm on the bytes it hands the device
// (before each dispatch), and every arm on a simulated device on the bytes
// each dispatch received, from the device's launch trace
// (rl_issued_trace_begin/_check around the arm's step).
#ifndef REDLINE_SHADOW_ISSUED_CHECK_H_
#define REDLINE_SHADOW_ISSUED_CHECK_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"

// Checks |kernarg| (|kernarg_size| bytes, what launch |launch| of
// |capture| was dispatched with, buffers at |addresses|, parameters at
// |values|) against the launch's as-issued record. *|out_checked| says
// whether the capture has one. RL_STATUS_MISMATCH naming launch, kernel,
// argument index and name, kernarg offset and both values when they differ.
rl_status_t rl_issued_check(const rl_capture_t* capture, uint32_t launch,
                            const uint64_t* addresses, const int64_t* values,
                            const uint8_t* kernarg, uint32_t kernarg_size,
                            bool* out_checked);

struct rl_shadow_arm_s;

// Before a step of |arm|: turns the launch trace of its simulated device
// on when |capture| has as-issued records and nothing else traces it;
// returns whether it did.
bool rl_issued_trace_begin(const rl_capture_t* capture,
                           struct rl_shadow_arm_s* arm);

// After a traced step: traced dispatch l (in step order) is checked as
// launch l of |capture| with the arm's buffer addresses at |values|; the
// trace is turned off. *|out_checked| grows by the dispatches checked.
rl_status_t rl_issued_trace_check(const rl_capture_t* capture,
                                  struct rl_shadow_arm_s* arm,
                                  const int64_t* values,
                                  uint64_t* out_checked);

#endif  // REDLINE_SHADOW_ISSUED_CHECK_H_
