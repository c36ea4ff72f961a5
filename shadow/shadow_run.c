// The shadow run (shadow/shadow.h): the entry point. It checks the
// options, expands the arms, creates them, walks the windows and gives the
// verdict (the steps: shadow/shadow_run_internal.h).
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shadow/shadow_arm.h"
#include "shadow/shadow_rerecord.h"
#include "shadow/shadow_run_internal.h"
#include "shadow/shadow_trace.h"

static rl_status_t rl_shadow_run_init(rl_shadow_run_t* run) {
  const rl_capture_t* capture = run->capture;
  rl_shadow_result_t* result = run->result;
  uint64_t largest = 1;
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    if (capture->regions[r].size > largest) largest = capture->regions[r].size;
  }
  result->arm_count = run->options->arm_count;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const char* kind = rl_shadow_arm_kind_name(run->options->arms[a]);
    if (run->pass[a]) {
      snprintf(result->arms[a].name, sizeof(result->arms[a].name), "%s~adv%u",
               kind, run->pass[a]);
    } else if (a == run->second) {
      snprintf(result->arms[a].name, sizeof(result->arms[a].name), "%s@%s",
               kind, run->executor[a]);
    } else {
      snprintf(result->arms[a].name, sizeof(result->arms[a].name), "%s", kind);
    }
  }
  result->region_count = capture->region_count;
  result->cells = calloc((size_t)result->window.count * capture->region_count *
                                 result->arm_count + 1u,
                         sizeof(rl_shadow_cell_t));
  run->values = calloc(capture->param_count + 1u, sizeof(int64_t));
  run->reference_bytes = malloc((size_t)largest);
  run->candidate_bytes = malloc((size_t)largest);
  if (!result->cells || !run->values || !run->reference_bytes ||
      !run->candidate_bytes) {
    return rl_status_out_of_memory();
  }
  for (uint32_t p = 0; p < capture->param_count; ++p) {
    run->values[p] = capture->params[p].capture_value;
  }
  // The reference: the simulated one of a device run, else eager, else
  // the first arm.
  for (uint32_t a = result->arm_count; a-- > 0;) {
    if (run->options->arms[a] == RL_SHADOW_ARM_EAGER) result->reference = a;
  }
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    if (run->options->arms[a] == RL_SHADOW_ARM_SIM) result->reference = a;
  }
  return RL_OK;
}

static void rl_shadow_run_deinit(rl_shadow_run_t* run) {
  for (uint32_t a = 0; a < RL_SHADOW_MAX_ARMS; ++a) {
    rl_shadow_arm_destroy(run->arms[a]);
  }
  for (uint32_t a = 0; a < RL_SHADOW_MAX_ARMS; ++a) {
    rl_oracle_destroy(run->oracles[a]);  // after the devices it ran in
  }
  rl_shadow_rerecord_deinit(&run->rerecord);
  rl_shadow_trace_end(&run->trace);
  free(run->values);
  free(run->reference_bytes);
  free(run->candidate_bytes);
}

rl_status_t rl_shadow_run(const rl_capture_t* capture,
                          const rl_shadow_options_t* options,
                          rl_shadow_result_t** out_result) {
  if (!out_result) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "shadow: no output");
  }
  *out_result = NULL;
  if (!capture || !options) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "shadow: a capture and options are required");
  }
  rl_shadow_result_t* result = calloc(1, sizeof(*result));
  if (!result) return rl_status_out_of_memory();
  result->capture = capture;
  result->hazard_check = !options->no_hazard_check;
  // The run is on the heap: it holds a copy of the options with the arms
  // expanded, and RL_SHADOW_MAX_ARMS of everything.
  rl_shadow_run_t* run = calloc(1, sizeof(*run));
  if (!run) {
    free(result);
    return rl_status_out_of_memory();
  }
  run->capture = capture;
  run->result = result;
  run->recorded = UINT32_MAX;
  run->second = UINT32_MAX;
  run->oracle_arm = UINT32_MAX;
  run->options = &run->expanded;
  // An incomplete capture (work the interposer could not record, a failed
  // launch, nothing recorded) is refused as replay refuses it: no arm,
  // eager included, would run what the program ran.
  rl_status_t status = rl_capture_incomplete_status(capture);
  if (!status) status = rl_shadow_check_options(capture, options, result);
  if (!status) status = rl_shadow_expand_arms(run, options);
  options = &run->expanded;
  if (!status) status = rl_shadow_check_budgets(capture, options);
  if (!status) status = rl_shadow_run_init(run);
  run->arm_jobs =
      options->arm_jobs ? options->arm_jobs : rl_shadow_default_arm_jobs();
  if (!status && options->trace) {
    const char* names[RL_SHADOW_MAX_ARMS];
    for (uint32_t a = 0; a < result->arm_count; ++a) {
      names[a] = result->arms[a].name;
    }
    status = rl_shadow_trace_begin(&run->trace, options->trace, capture, names,
                                   result->arm_count, "shadow",
                                   options->trace_pid_base);
  }
  if (!status) {
    rl_shadow_create_arms(run);
    for (uint32_t a = 0; a < result->arm_count; ++a) {
      run->total += run->arms[a] ? result->window.count : 0;
    }
    rl_shadow_walk(run);
    for (uint32_t a = 0; a < result->arm_count; ++a) {
      if (run->arms[a]) rl_shadow_check_proof(run, a);
    }
    rl_shadow_oracle_result(run);
    rl_shadow_verdict(result);
  }
  rl_shadow_run_deinit(run);
  free(run);
  if (status) {
    rl_shadow_result_destroy(result);
    return status;
  }
  *out_result = result;
  return RL_OK;
}

void rl_shadow_result_destroy(rl_shadow_result_t* result) {
  if (!result) return;
  free(result->cells);
  free(result);
}
