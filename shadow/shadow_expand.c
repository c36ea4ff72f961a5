// The shadow run's arm list (shadow/shadow_run_internal.h): the caller's
// arms, the simulated reference of a device run, the seeded adversarial
// passes and the second executor's arm, and how the arms' waits are bounded.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kernels/ref/ref_executor.h"
#include "shadow/shadow_arm.h"
#include "shadow/shadow_run_internal.h"

// The run's executor as the device opens it ("ref" when none is named).
static const char* rl_shadow_run_executor(const rl_shadow_options_t* options) {
  return options->device.executor ? options->device.executor : "ref";
}

// The first kernel of |capture| without a C reference kernel, or NULL.
static const char* rl_shadow_kernel_without_ref(const rl_capture_t* capture) {
  for (uint32_t k = 0; k < capture->kernel_count; ++k) {
    const char* name = capture->kernels[k].name;
    if (!rl_ref_executor_has_kernel(name)) return name;
  }
  return NULL;
}

// States how the arms' waits are bounded (shadow.h, wait_bound): the
// simulator reports progress, so its bound is a stall
// (device_funnel.h, replay_route.c rl_replay_queue_wait).
static void rl_shadow_state_bound(rl_shadow_run_t* run) {
  const rl_limits_t limits = rl_limits_resolve(&run->expanded.limits);
  const char* kind = run->expanded.device.kind;
  const bool sim = !kind || strcmp(kind, "sim") == 0;
  snprintf(run->result->wait_bound, sizeof(run->result->wait_bound),
           sim ? "each wait fails after %" PRIu64 " ms without a work-group "
                 "completing (a stall, not a duration: long steps run to "
                 "their end)"
               : "each wait fails after %" PRIu64 " ms (device %s)",
           (uint64_t)(limits.wait_timeout_ns / 1000000u), sim ? "sim" : kind);
}

// Appends the second executor's eager arm when every kernel of the capture
// has a C reference (else there is no second executor for it: the result
// says why).
static rl_status_t rl_shadow_add_second_executor(rl_shadow_run_t* run) {
  rl_shadow_options_t* expanded = &run->expanded;
  rl_shadow_result_t* result = run->result;
  const char* executor = rl_shadow_run_executor(expanded);
  if (!expanded->second_executor) {
    snprintf(result->independent_reference,
             sizeof(result->independent_reference),
             "none: the second executor is off");
    return RL_OK;
  }
  // On a GPU the silicon is the executor the simulated reference arm `sim`
  // is compared with: independent of every executor here.
  const char* kind = expanded->device.kind;
  if (kind && strcmp(kind, "sim") != 0) {
    bool sim = false;
    for (uint32_t a = 0; a < expanded->arm_count; ++a) {
      sim |= expanded->arms[a] == RL_SHADOW_ARM_SIM;
    }
    snprintf(result->independent_reference,
             sizeof(result->independent_reference),
             sim ? "the GPU: the arms on device %s against the simulator's "
                   "sim arm"
                 : "none: the arms run on device %s and the sim reference "
                   "is off",
             kind);
    return RL_OK;
  }
  const char* foreign = rl_shadow_kernel_without_ref(run->capture);
  if (foreign) {
    snprintf(result->independent_reference,
             sizeof(result->independent_reference),
             "none: kernel %s has no C reference kernel, so every arm runs "
             "the %s executor", foreign, executor);
    return RL_OK;
  }
  if (expanded->arm_count == RL_SHADOW_MAX_ARMS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "shadow: the second executor makes more than %u arms",
                     RL_SHADOW_MAX_ARMS);
  }
  const bool on_ref = strcmp(executor, "ref") == 0;
  uint32_t b = expanded->arm_count++;
  expanded->arms[b] = RL_SHADOW_ARM_EAGER;
  run->adversarial[b] = expanded->device.adversarial;
  run->seed[b] = expanded->device.seed;
  run->executor[b] = on_ref ? "isa" : "ref";
  run->second = b;
  snprintf(result->independent_reference,
           sizeof(result->independent_reference),
           "eager@%s (%s) against the arms on %s",
           run->executor[b],
           on_ref ? "the ISA executor running the kernels' machine code"
                  : "the C reference kernels",
           on_ref ? "the C reference kernels" : "the ISA executor");
  return RL_OK;
}

// Appends the seeded adversarial passes of the retained arms to the run's
// copy of the options (RL_STATUS_INVALID_ARGUMENT past RL_SHADOW_MAX_ARMS).
rl_status_t rl_shadow_expand_arms(rl_shadow_run_t* run,
                                         const rl_shadow_options_t* options) {
  run->expanded = *options;
  rl_shadow_options_t* expanded = &run->expanded;
  // No executor named: the C reference kernels when every kernel has one,
  // else the ISA executor (which runs any machine code), so a capture of a
  // HIP program shadows without --executor isa.
  if (!expanded->device.executor &&
      rl_shadow_kernel_without_ref(run->capture)) {
    expanded->device.executor = "isa";
  }
  for (uint32_t a = 0; a < RL_SHADOW_MAX_ARMS; ++a) {
    run->adversarial[a] = options->device.adversarial;
    run->seed[a] = options->device.seed;
    run->executor[a] = rl_shadow_run_executor(expanded);
  }
  // The simulated reference of a run on a real device (shadow.h Devices).
  const char* kind = options->device.kind;
  bool has_sim = false;
  for (uint32_t a = 0; a < options->arm_count; ++a) {
    has_sim |= options->arms[a] == RL_SHADOW_ARM_SIM;
  }
  if (kind && strcmp(kind, "sim") != 0 && !options->no_sim_reference &&
      !has_sim) {
    if (expanded->arm_count == RL_SHADOW_MAX_ARMS) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "shadow: the sim reference makes more than %u arms",
                       RL_SHADOW_MAX_ARMS);
    }
    uint32_t b = expanded->arm_count++;
    expanded->arms[b] = RL_SHADOW_ARM_SIM;
    run->adversarial[b] = options->device.adversarial;
    run->seed[b] = options->device.seed;
  }
  rl_shadow_state_bound(run);
  if (options->device.adversarial) return rl_shadow_add_second_executor(run);
  for (uint32_t k = 1; k <= options->adversarial_seeds; ++k) {
    for (uint32_t a = 0; a < options->arm_count; ++a) {
      // Interleavings are the simulator's: real devices get no passes.
      if (!rl_shadow_arm_kind_retained(options->arms[a]) ||
          strcmp(rl_shadow_arm_device_kind(options->arms[a], kind), "sim") !=
              0) {
        continue;
      }
      if (expanded->arm_count == RL_SHADOW_MAX_ARMS) {
        return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                         "shadow: %u adversarial seeds make more than %u arms",
                         options->adversarial_seeds, RL_SHADOW_MAX_ARMS);
      }
      uint32_t b = expanded->arm_count++;
      expanded->arms[b] = options->arms[a];
      run->adversarial[b] = true;
      run->seed[b] = options->device.seed + k;
      run->pass[b] = k;
    }
  }
  return rl_shadow_add_second_executor(run);
}
