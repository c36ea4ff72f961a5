// The shadow run's arms (shadow/shadow_run_internal.h): their creation
// with the re-recording, the failure of one arm, and the route proofs.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shadow/shadow_arm.h"
#include "shadow/shadow_run_internal.h"

// The arm's proof, with the re-recording's counts for the recorded arm.
void rl_shadow_arm_proof(rl_shadow_run_t* run, uint32_t a) {
  rl_shadow_proof_t* proof = &run->result->arms[a].proof;
  run->arms[a]->vtable->proof(run->arms[a], proof);
  if (a != run->recorded) return;
  proof->rerecorded_windows = run->rerecord.windows;
  proof->rerecorded_launches = run->rerecord.launches;
  if (!rl_shadow_rerecord_available(&run->rerecord)) {
    snprintf(proof->fallback_reason, sizeof(proof->fallback_reason),
             "not re-recorded: %s", run->rerecord.unavailable);
  }
}

void rl_shadow_fail_arm(rl_shadow_run_t* run, uint32_t a, rl_status_t status,
                        const char* prefix, int64_t window, int64_t value) {
  rl_shadow_arm_result_t* arm = &run->result->arms[a];
  arm->failed = true;
  arm->failure_code = rl_status_code(status);
  if (window < 0) {
    snprintf(arm->failure, sizeof(arm->failure), "%s%s", prefix,
             rl_status_message(status));
  } else {
    const char* name = run->result->param == UINT32_MAX
                           ? "step"
                           : run->capture->params[run->result->param].name;
    snprintf(arm->failure, sizeof(arm->failure),
             "window %" PRId64 " (%s=%" PRId64 "): %s", window, name, value,
             rl_status_message(status));
  }
  rl_status_free(status);
  if (run->arms[a]) {
    arm->proof_ok = false;
    rl_shadow_arm_proof(run, a);
  }
  rl_shadow_arm_destroy(run->arms[a]);
  run->arms[a] = NULL;
}

void rl_shadow_create_arms(rl_shadow_run_t* run) {
  const rl_shadow_options_t* options = run->options;
  rl_shadow_oracles_create(run);
  rl_shadow_device_options_t device = options->device;
  device.no_hazard_check = options->no_hazard_check;
  const rl_shadow_arm_options_t arm_options = {
      .device = device,
      .binds = options->binds,
      .bind_count = options->bind_count,
      .limits = options->limits,
  };
  for (uint32_t a = 0; a < options->arm_count; ++a) {
    rl_shadow_arm_result_t* arm = &run->result->arms[a];
    arm->kind = options->arms[a];
    arm->proof.route = rl_shadow_arm_kind_name(arm->kind);
    arm->adversarial = run->adversarial[a];
    arm->seed = run->seed[a];
    rl_shadow_arm_options_t this_arm = arm_options;
    this_arm.device.adversarial = run->adversarial[a];
    this_arm.device.seed = run->seed[a];
    this_arm.device.executor = run->executor[a];
    this_arm.device.oracle = run->oracles[a];
    arm->executor = run->executor[a];
    rl_status_t status = rl_shadow_arm_create(arm->kind, run->capture,
                                              &this_arm, &run->arms[a]);
    if (status) {
      rl_shadow_fail_arm(run, a, status, "not available: ", -1, 0);
    } else {
      arm->available = true;
    }
  }
  run->recorded = UINT32_MAX;
  for (uint32_t a = 0; a < options->arm_count; ++a) {
    if (options->arms[a] != RL_SHADOW_ARM_RECORDED || !run->arms[a]) continue;
    run->recorded = a;
    rl_status_t status = rl_shadow_rerecord_init(
        &run->rerecord, run->capture, &options->device,
        run->arms[a]->limits.wait_timeout_ns);
    if (status) {
      rl_shadow_fail_arm(run, a, rl_status_annotate(status, "re-recording"),
                         "not available: ", -1, 0);
    }
  }
}

void rl_shadow_check_proof(rl_shadow_run_t* run, uint32_t a) {
  rl_shadow_arm_result_t* arm = &run->result->arms[a];
  rl_shadow_arm_proof(run, a);
  uint64_t windows = run->result->window_count;
  uint64_t expected = rl_shadow_arm_kind_replays(arm->kind) ? windows : 0;
  arm->proof_ok = arm->proof.replay_count == expected &&
                  arm->proof.steps == windows;
  // hipgraph keeps one executable graph and updates its nodes.
  if (arm->proof_ok && arm->kind == RL_SHADOW_ARM_HIPGRAPH && windows &&
      arm->proof.instantiations != 1) {
    arm->proof_ok = false;
    snprintf(arm->proof_problem, sizeof(arm->proof_problem),
             "%" PRIu64 " graph instantiations over %" PRIu64
             " windows, expected 1 (node updates in place)",
             arm->proof.instantiations, windows);
    return;
  }
  if (!arm->proof_ok) {
    snprintf(arm->proof_problem, sizeof(arm->proof_problem),
             "replay count %" PRIu64 " and %" PRIu64 " steps, expected %"
             PRIu64 " replays over %" PRIu64 " windows",
             arm->proof.replay_count, arm->proof.steps, expected, windows);
  }
}
