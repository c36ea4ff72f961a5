// shadow/shadow_program.h — the program as a reference: a capture that
// holds the program's own state after each recorded step (PROGRAM_STATE,
// `redline run --steps K --verify-steps N`, docs/real-engines.md) is
// checked against it, not only arm against arm.
//
// At each window whose parameter value is a recorded position, the shadow
// feeds the program's recorded free-parameter values (the token) into the
// window's parameters (rl_shadow_program_feed), and after the window the
// reference arm's region digests must equal the program's recorded ones
// (rl_shadow_program_digest; the arms already agree with the reference or
// the shadow failed on that). A walk from the first captured position with
// the state persisting between windows replays the program's steps in
// order, so every recorded hash is reachable.
//
// REDLINE_TEST_FAULT=program-flip:I (base/test_fault.h) flips the
// recorded digest of entry I as the shadow reads it: the negative control.
//
// Thread-safety: pure functions of the capture.
#ifndef REDLINE_SHADOW_SHADOW_PROGRAM_H_
#define REDLINE_SHADOW_SHADOW_PROGRAM_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"

// Sets values[param] to the program's recorded value at |pos| for every
// recorded parameter; returns how many were set.
uint32_t rl_shadow_program_feed(const rl_capture_t* capture, int64_t pos,
                                int64_t* values);

// The program's recorded digest of region |region| after the step at
// |pos| into *|out_digest|; false when none was recorded.
bool rl_shadow_program_digest(const rl_capture_t* capture, int64_t pos,
                              uint32_t region, rl_digest128_t* out_digest);

#endif  // REDLINE_SHADOW_SHADOW_PROGRAM_H_
