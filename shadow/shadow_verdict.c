// The verdict of a shadow run (shadow/shadow_run_internal.h): the first
// arm failure, effects or hazard finding, divergence, program mismatch or
// route proof problem, in that order; and the run's status code.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shadow/shadow_effects.h"
#include "shadow/shadow_hazard.h"
#include "shadow/shadow_run_internal.h"

// Against the simulated reference of a device run, the verdict names
// every arm that differed and its device: "; differ from sim: aql (rocr),
// pm4 (rocr)".
static void rl_shadow_divergent_arms(rl_shadow_result_t* result) {
  const rl_shadow_arm_result_t* reference = &result->arms[result->reference];
  if (reference->kind != RL_SHADOW_ARM_SIM) return;
  size_t used = strlen(result->reason);
  const char* separator = "; differ from sim: ";
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    if (!arm->diverged || used >= sizeof(result->reason)) continue;
    int n = snprintf(result->reason + used, sizeof(result->reason) - used,
                     "%s%s (%s)", separator, arm->name,
                     arm->proof.device[0] ? arm->proof.device : "?");
    used += n > 0 ? (size_t)n : 0;
    separator = ", ";
  }
}

void rl_shadow_verdict(rl_shadow_result_t* result) {
  const rl_capture_t* capture = result->capture;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    if (!arm->failed) continue;
    const int n = snprintf(result->reason, sizeof(result->reason),
                           "arm %s: %s", arm->name, arm->failure);
    if (n >= (int)sizeof(result->reason)) {  // cut to fit: say so
      memcpy(result->reason + sizeof(result->reason) - 4, "...", 4);
    }
    return;
  }
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    if (rl_shadow_effects_reason(&result->arms[a], result->reason,
                                 sizeof(result->reason))) {
      return;
    }
  }
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    if (result->arms[a].hazard_count == 0) continue;
    rl_shadow_hazard_reason(result, &result->arms[a], result->reason,
                            sizeof(result->reason));
    return;
  }
  if (result->diverged) {
    const rl_shadow_cell_t* cell = rl_shadow_result_cell(
        result, result->first_window, result->first_region, result->first_arm);
    snprintf(result->reason, sizeof(result->reason),
             "window %u (%s=%" PRId64 "): region %s differs in arm %s at "
             "offset %" PRIu64 " (%" PRIu64 " byte%s differ%s)",
             result->first_window,
             result->param == UINT32_MAX ? "step"
                                         : capture->params[result->param].name,
             rl_shadow_window_value(&result->window, result->first_window),
             capture->regions[result->first_region].name,
             result->arms[result->first_arm].name,
             result->first_offset, cell->differing_bytes,
             cell->differing_bytes == 1 ? "" : "s",
             cell->differing_bytes == 1 ? "s" : "");
    rl_shadow_divergent_arms(result);
    return;
  }
  if (result->program_mismatch) {
    char got[RL_DIGEST128_HEX_LENGTH + 1], want[RL_DIGEST128_HEX_LENGTH + 1];
    rl_digest128_format(result->program_got, got);
    rl_digest128_format(result->program_expected, want);
    snprintf(result->reason, sizeof(result->reason),
             "reference program: after the step at %s=%" PRId64 " (window "
             "%u) region %s is %s in the arms, the program had %s",
             capture->params[result->param].name,
             rl_shadow_window_value(&result->window, result->program_window),
             result->program_window,
             capture->regions[result->program_region].name, got, want);
    return;
  }
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    if (arm->proof_ok) continue;
    snprintf(result->reason, sizeof(result->reason), "arm %s: route proof: %s",
             arm->name, arm->proof_problem);
    return;
  }
  result->pass = true;
}

rl_status_code_t rl_shadow_result_code(const rl_shadow_result_t* result) {
  if (result->pass) return RL_STATUS_OK;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    if (arm->failed && arm->failure_code != RL_STATUS_OK) {
      return arm->failure_code;
    }
  }
  return RL_STATUS_MISMATCH;
}
