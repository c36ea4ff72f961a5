// capture/recording/step_split.h — cutting one recorded run into steps: the period of
// a launch sequence, the per-step captures of a recorded window, and the
// check that every step has the same structure (docs/real-engines.md,
// `redline run --steps`).
//
// A step is the sequence of launches between two step starts; copies and
// fills count as launches (the interposer records them as launches of its
// copy kernels, capture/interposer/interposer_copy.hip). Two launches have
// the same *structure* when they launch the same kernel with the same
// geometry class: the same work-group size and dynamic LDS bytes. The grid
// is left out on purpose: a decode step's attention grid grows with the
// context, and that is a value the step's bindings carry, not structure.
//
// The per-step captures (rl_step_split) are built from the one capture of
// the whole window: each holds every code object, kernel, buffer (same
// indices, same initial contents: the state at the start of the first
// step) and region of the window, and the launches of its step only, with
// no parameter and no window. They are what binding inference compares;
// only the first step's initial contents are the program's state at that
// step's start.
//
// Thread-safety: pure functions over caller-owned data.
#ifndef REDLINE_CAPTURE_STEP_SPLIT_H_
#define REDLINE_CAPTURE_STEP_SPLIT_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// The structure signature of one launch: kernel |name|, |block| and
// |dynamic_lds| hashed (XXH3-64 of the text "NAME BX BY BZ LDS"), the unit
// the period search compares. Equal launches have equal signatures.
uint64_t rl_step_signature(const char* name, const uint32_t block[3],
                           uint32_t dynamic_lds);

// The period of |items| (|count| signatures): the period p and start o of
// the longest stretch items[o .. o + n) with items[i] == items[i + p] for
// every i in it and at least two repetitions (n >= 2p); among stretches of
// the same length the smallest p, then the smallest o. *|out_repeats| is
// the number of whole periods in the stretch (n / p). A decode loop's
// layers repeat inside a step but the steps repeat longer, so the step is
// what this finds; where the stretch starts is where step 0 starts.
// RL_STATUS_CONTRACT when nothing repeats (outputs zero).
rl_status_t rl_step_period(const uint64_t* items, uint32_t count,
                           uint32_t* out_offset, uint32_t* out_period,
                           uint32_t* out_repeats);

// Builds |step_count| captures (*|out_steps|, an array the caller
// provides) from |whole|: step s holds launches [starts[s], starts[s + 1])
// (the last one up to whole->launch_count). |starts| must increase. On
// failure every output is NULL. Release them with rl_step_destroy.
rl_status_t rl_step_split(const rl_capture_t* whole, const uint32_t* starts,
                          uint32_t step_count, rl_capture_t** out_steps);

// RL_OK when every step has the launch count and, launch by launch, the
// kernel, work-group size, dynamic LDS, kernarg size and pointer slot
// offsets of step 0; else RL_STATUS_CONTRACT naming the first difference
// (step, launch index within the step, what differs and both values).
rl_status_t rl_step_compare(rl_capture_t* const* steps, uint32_t step_count);

// Destroys |count| captures of |steps| and clears the entries.
void rl_step_destroy(rl_capture_t** steps, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_CAPTURE_STEP_SPLIT_H_
