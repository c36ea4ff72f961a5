// shadow/shadow_effects.h — the effects and dispatch audits of a shadow run
// (shadow.h, "Effects and dispatch audits"; shadow/effects_audit.h):
// watching an arm's simulated device around each step, keeping the
// findings in the arm's result, and their text, JSON and verdict reason.
// Private to rl_shadow.
//
// Thread-safety: the thread that drives the arm.
#ifndef REDLINE_SHADOW_SHADOW_EFFECTS_H_
#define REDLINE_SHADOW_SHADOW_EFFECTS_H_

#include <stdio.h>

#include "shadow/effects_audit.h"
#include "shadow/shadow.h"
#include "shadow/shadow_arm.h"

// Before a step of |arm|: starts |watch| when |enabled| and the arm has a
// simulated device (sets |result|->effects_checked).
void rl_shadow_effects_before(rl_shadow_arm_t* arm, bool enabled,
                              rl_effects_watch_t* watch,
                              rl_shadow_arm_result_t* result);

// After the step of window |window| run at |values|: adds the audits'
// findings to |result|. Returns the violations found in this step.
uint32_t rl_shadow_effects_after(rl_shadow_arm_t* arm,
                                 rl_effects_watch_t* watch,
                                 const rl_shadow_result_t* shadow,
                                 uint32_t window, const int64_t* values,
                                 rl_shadow_arm_result_t* result);

// The arm's audit lines for the text report.
void rl_shadow_effects_text(FILE* out, const rl_shadow_result_t* result,
                            const rl_shadow_arm_result_t* arm);

// The arm's "effects_audit" JSON object.
cJSON* rl_shadow_effects_json(const rl_shadow_arm_result_t* arm);

// True (and the verdict reason in |out|) when |arm| has a violation.
bool rl_shadow_effects_reason(const rl_shadow_arm_result_t* arm, char* out,
                              size_t size);

#endif  // REDLINE_SHADOW_SHADOW_EFFECTS_H_
