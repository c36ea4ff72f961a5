// shadow/shadow_hazard.h — the hazard verdicts of a shadow run (shadow.h,
// "Hazard verdicts"): watching an arm's device around each step, keeping
// its findings in the arm's result, and their text and JSON. Private to
// rl_shadow.
//
// Thread-safety: the thread that drives the arm.
#ifndef REDLINE_SHADOW_SHADOW_HAZARD_H_
#define REDLINE_SHADOW_SHADOW_HAZARD_H_

#include <stdio.h>

#include "shadow/shadow.h"
#include "shadow/shadow_arm.h"

// Before a step of |arm|: starts |watch| when |enabled| and the arm has a
// simulated device (sets |result|->hazard_checked).
void rl_shadow_hazard_before(rl_shadow_arm_t* arm, bool enabled,
                             rl_hazard_watch_t* watch,
                             rl_shadow_arm_result_t* result);

// After the step of window |window|: adds the watch's findings to |result|.
// Returns the number found in this step.
uint32_t rl_shadow_hazard_after(rl_shadow_arm_t* arm,
                                const rl_hazard_watch_t* watch,
                                uint32_t window,
                                rl_shadow_arm_result_t* result);

// For runs that only need a pass/fail (bench): the watch's findings as
// RL_STATUS_MISMATCH naming the first one and the count, or RL_OK.
rl_status_t rl_shadow_hazard_status(rl_shadow_arm_t* arm,
                                    const rl_hazard_watch_t* watch);

// The arm's hazard lines for the text report ("  hazards: none (checked)").
void rl_shadow_hazard_text(FILE* out, const rl_shadow_result_t* result,
                           const rl_shadow_arm_result_t* arm);

// The arm's "hazard_check" JSON object.
cJSON* rl_shadow_hazard_json(const rl_shadow_result_t* result,
                             const rl_shadow_arm_result_t* arm);

// The verdict reason for the first finding of |arm| (index |a|).
void rl_shadow_hazard_reason(const rl_shadow_result_t* result,
                             const rl_shadow_arm_result_t* arm, char* out,
                             size_t size);

#endif  // REDLINE_SHADOW_SHADOW_HAZARD_H_
