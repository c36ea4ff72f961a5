// The shadow run (shadow/shadow.h): options check, arms, the window walk,
// the comparison after every window, the negative control and the proof
// check.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shadow/issued_check.h"
#include "kernels/ref/ref_executor.h"
#include "sim/isa/isa_executor.h"
#include "sim/oracle/oracle.h"
#include "shadow/shadow.h"
#include "shadow/shadow_arm.h"
#include "shadow/shadow_compare.h"
#include "shadow/shadow_effects.h"
#include "shadow/shadow_hazard.h"
#include "shadow/shadow_program.h"
#include "shadow/shadow_rerecord.h"
#include "shadow/shadow_trace.h"

typedef struct rl_shadow_run_s {
  const rl_capture_t* capture;
  const rl_shadow_options_t* options;
  rl_shadow_result_t* result;
  rl_shadow_arm_t* arms[RL_SHADOW_MAX_ARMS];  // NULL once an arm failed
  int64_t* values;
  uint8_t* reference_bytes;
  uint8_t* candidate_bytes;
  uint32_t done, total;  // progress in arm-steps
  // The recorded arm's re-recording of each window (shadow_rerecord.h);
  // |recorded| is its arm index, UINT32_MAX without a recorded arm.
  uint32_t recorded;
  rl_shadow_rerecord_t rerecord;
  rl_shadow_trace_t trace;  // --trace (shadow/shadow_trace.h)
  // The caller's arms followed by the seeded adversarial passes
  // (rl_shadow_options_t.adversarial_seeds); |options| points here.
  rl_shadow_options_t expanded;
  bool adversarial[RL_SHADOW_MAX_ARMS];
  uint64_t seed[RL_SHADOW_MAX_ARMS];
  uint32_t pass[RL_SHADOW_MAX_ARMS];  // 0: the caller's arm, K: ~advK
  // Each arm's simulator executor ("ref" or "isa"); the second executor's
  // arm differs from the run's (rl_shadow_options_t.second_executor).
  const char* executor[RL_SHADOW_MAX_ARMS];
  uint32_t second;  // its arm index, UINT32_MAX without one
  // The oracle executors (rl_shadow_options_t.oracle): oracles[a] wraps
  // arm a's isa executor (NULL: not wrapped); |oracle_arm| is the
  // sequential arm the report names (UINT32_MAX: none), the others are the
  // adversarial passes. |oracle_base|[a] is the count of dispatches
  // oracles[a] had seen before the arm's current step.
  rl_oracle_t* oracles[RL_SHADOW_MAX_ARMS];
  uint32_t oracle_arm;
  uint64_t oracle_base[RL_SHADOW_MAX_ARMS];
} rl_shadow_run_t;

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
static rl_status_t rl_shadow_expand_arms(rl_shadow_run_t* run,
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

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

// The arm the negative control corrupts: pm4, else the last retained or HIP
// arm.
static bool rl_shadow_flip_arm(const rl_shadow_options_t* options,
                               uint32_t* out_arm) {
  bool found = false;
  for (uint32_t a = 0; a < options->arm_count; ++a) {
    if (rl_shadow_arm_kind_ib_reference(options->arms[a])) {
      *out_arm = a;
      return true;
    }
    if (rl_shadow_arm_kind_retained(options->arms[a]) ||
        rl_shadow_arm_kind_hip(options->arms[a])) {
      *out_arm = a;
      found = true;
    }
  }
  return found;
}

// The budgets of redline/limits.h, before any arm allocates: every arm
// holds its own copy of the buffers and code objects.
static rl_status_t rl_shadow_check_budgets(const rl_capture_t* capture,
                                           const rl_shadow_options_t* options) {
  const rl_limits_t limits = rl_limits_for_capture(&options->limits, capture);
  uint64_t per_arm = rl_limits_capture_device_bytes(capture, 0);
  uint64_t arms = options->arm_count ? options->arm_count : 1;
  uint64_t total = per_arm > UINT64_MAX / arms ? UINT64_MAX : per_arm * arms;
  return rl_status_annotate(rl_limits_check_capture(capture, &limits, total),
                            "shadow of %u arms", options->arm_count);
}

static rl_status_t rl_shadow_check_options(const rl_capture_t* capture,
                                           const rl_shadow_options_t* options,
                                           rl_shadow_result_t* result) {
  if (options->arm_count == 0 || options->arm_count > RL_SHADOW_MAX_ARMS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "%u arms (1..%u)",
                     options->arm_count, RL_SHADOW_MAX_ARMS);
  }
  const char* kind = options->device.kind;
  if (kind && strcmp(kind, "sim") != 0 && strcmp(kind, "rocr") != 0 &&
      strcmp(kind, "drm") != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "device '%s': expected sim, rocr or drm", kind);
  }
  for (uint32_t a = 0; a < options->arm_count; ++a) {
    if ((unsigned)options->arms[a] >= RL_SHADOW_ARM_KIND_COUNT_) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "arm kind %u",
                       (unsigned)options->arms[a]);
    }
    if (!rl_shadow_arm_device_supported(options->arms[a], kind)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "arm %s cannot run on device %s (it has no AQL queue; "
                       "on drm run the arms drm, hip, hipgraph)",
                       rl_shadow_arm_kind_name(options->arms[a]), kind);
    }
  }
  rl_oracle_mode_t oracle_mode;
  if (options->oracle && !rl_oracle_mode_parse(options->oracle, &oracle_mode)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "oracle '%s': expected sample, full or off",
                     options->oracle);
  }
  if (options->bind_count > RL_SHADOW_MAX_BINDS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "%u binds (at most %u)",
                     options->bind_count, RL_SHADOW_MAX_BINDS);
  }
  for (uint32_t i = 0; i < options->bind_count; ++i) {
    if (options->binds[i].buffer >= capture->buffer_count ||
        options->binds[i].size == 0) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "bind %u: buffer %u of %u, size %" PRIu64, i,
                       options->binds[i].buffer, capture->buffer_count,
                       options->binds[i].size);
    }
  }
  if (options->flip) {
    if (options->flip_region >= capture->region_count) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "flip: region %u of %u",
                       options->flip_region, capture->region_count);
    }
    const rl_capture_region_t* region = &capture->regions[options->flip_region];
    if (options->flip_offset >= region->size) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "flip: offset %" PRIu64 " is outside region %s "
                       "(%" PRIu64 " bytes)",
                       options->flip_offset, region->name, region->size);
    }
    if (!rl_shadow_flip_arm(options, &result->flip_arm)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "flip: needs a retained or HIP arm (aql, pm4, drm, hip, hipgraph)");
    }
  }
  return rl_shadow_window_resolve(capture, options->limits.max_windows,
                                  options->has_window, &options->window,
                                  &result->param, &result->window);
}

//===----------------------------------------------------------------------===//
// Arms
//===----------------------------------------------------------------------===//

// The arm's proof, with the re-recording's counts for the recorded arm.
static void rl_shadow_arm_proof(rl_shadow_run_t* run, uint32_t a) {
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

static void rl_shadow_fail_arm(rl_shadow_run_t* run, uint32_t a,
                               rl_status_t status, const char* prefix,
                               int64_t window, int64_t value) {
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

// The arm the oracle executor checks: the first sequential eager arm on a
// simulated device running the isa executor, else the first such retained
// arm; UINT32_MAX when the oracle is off or no arm qualifies.
static uint32_t rl_shadow_oracle_arm(const rl_shadow_run_t* run) {
  const rl_shadow_options_t* options = run->options;
  rl_oracle_mode_t mode = RL_ORACLE_OFF;
  if (!options->oracle || !rl_oracle_mode_parse(options->oracle, &mode) ||
      mode == RL_ORACLE_OFF) {
    return UINT32_MAX;
  }
  uint32_t found = UINT32_MAX;
  for (uint32_t a = options->arm_count; a-- > 0;) {
    rl_shadow_arm_kind_t kind = options->arms[a];
    bool sim = strcmp(rl_shadow_arm_device_kind(kind, options->device.kind),
                      "sim") == 0;
    if (!sim || run->adversarial[a] || !run->executor[a] ||
        strcmp(run->executor[a], "isa") != 0) {
      continue;
    }
    if (kind == RL_SHADOW_ARM_EAGER ||
        (rl_shadow_arm_kind_retained(kind) &&
         (found == UINT32_MAX || options->arms[found] != RL_SHADOW_ARM_EAGER))) {
      found = a;
    }
  }
  return found;
}

// Whether arm |a| runs under an oracle executor of its own: the oracle
// arm, and every adversarial pass whose simulator runs isa (the oracle
// checks its picked work-groups whole at their point of the interleaving,
// sim/oracle/oracle.h).
static bool rl_shadow_oracle_wraps(const rl_shadow_run_t* run, uint32_t a) {
  if (a == run->oracle_arm) return true;
  const rl_shadow_options_t* options = run->options;
  rl_oracle_mode_t mode = RL_ORACLE_OFF;
  if (!options->oracle || !rl_oracle_mode_parse(options->oracle, &mode) ||
      mode == RL_ORACLE_OFF || !run->adversarial[a] || !run->executor[a] ||
      strcmp(run->executor[a], "isa") != 0) {
    return false;
  }
  return strcmp(rl_shadow_arm_device_kind(options->arms[a],
                                          options->device.kind),
                "sim") == 0;
}

static void rl_shadow_create_arms(rl_shadow_run_t* run) {
  const rl_shadow_options_t* options = run->options;
  run->oracle_arm = rl_shadow_oracle_arm(run);
  for (uint32_t a = 0; a < options->arm_count; ++a) {
    if (!rl_shadow_oracle_wraps(run, a)) continue;
    rl_oracle_mode_t mode = RL_ORACLE_SAMPLE;
    (void)rl_oracle_mode_parse(options->oracle, &mode);
    rl_status_t status =
        rl_oracle_create(rl_isa_executor(), mode,
                         a == run->oracle_arm ? options->device.seed
                                              : run->seed[a],
                         &run->oracles[a]);
    if (status) {  // out of memory: the arm runs without it, and says so
      rl_status_free(status);
      if (a == run->oracle_arm) run->oracle_arm = UINT32_MAX;
    }
  }
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

//===----------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------===//

// The recorded arm records the program again at this window's values
// before any arm steps (shadow_rerecord.h); a failure is the recorded arm's.
static void rl_shadow_rerecord_step(rl_shadow_run_t* run, uint32_t w,
                                    int64_t value) {
  uint32_t a = run->recorded;
  if (!run->arms[a]) {  // the recorded arm failed: nothing to compare with
    rl_capture_destroy(run->rerecord.fresh);
    run->rerecord.fresh = NULL;
    return;
  }
  rl_status_t status = rl_shadow_rerecord_window(&run->rerecord, run->values);
  if (status) rl_shadow_fail_arm(run, a, status, NULL, w, value);
}

// The oracle executor's verdict on the oracle arm's step: a mismatch
// names the launch (dispatch of the step), kernel, work-group, address and
// both sides' bytes.
static rl_status_t rl_shadow_oracle_check(rl_shadow_run_t* run, uint32_t a) {
  rl_oracle_report_t report;
  rl_oracle_report(run->oracles[a], &report);
  if (!report.mismatch) return RL_OK;
  return RL_STATUS(RL_STATUS_MISMATCH,
                   "oracle executor: launch %" PRIu64 " (kernel %s), "
                   "work-group (%u, %u, %u): %s",
                   report.mismatch_dispatch >= run->oracle_base[a]
                       ? report.mismatch_dispatch - run->oracle_base[a]
                       : report.mismatch_dispatch,
                   report.mismatch_kernel, report.mismatch_group[0],
                   report.mismatch_group[1], report.mismatch_group[2],
                   report.mismatch_text);
}

// The oracle's counts as the run's independent reference (shadow.h).
static void rl_shadow_oracle_result(rl_shadow_run_t* run) {
  rl_shadow_result_t* result = run->result;
  for (uint32_t a = 0; a < result->arm_count; ++a) {  // adversarial passes
    if (!run->oracles[a] || a == run->oracle_arm) continue;
    rl_oracle_report_t report;
    rl_oracle_report(run->oracles[a], &report);
    result->oracle_adversarial_arms++;
    result->oracle_adversarial_checked += report.workgroups_checked;
    result->oracle_adversarial_skipped += report.workgroups_skipped;
  }
  char* text = result->independent_reference;
  size_t size = sizeof(result->independent_reference);
  if (run->oracle_arm == UINT32_MAX) {
    if (!result->oracle_adversarial_arms) return;
    size_t used = !strncmp(text, "none", 4) ? 0 : strlen(text);
    snprintf(text + used, size - used,
             "%soracle executor: %" PRIu64 " work-groups checked (%" PRIu64
             " skipped) on %u adversarial arms",
             used ? "; " : "", result->oracle_adversarial_checked,
             result->oracle_adversarial_skipped,
             result->oracle_adversarial_arms);
    return;
  }
  result->oracle_ran = true;
  result->oracle_arm = run->oracle_arm;
  rl_oracle_report(run->oracles[run->oracle_arm], &result->oracle);
  char line[512];
  rl_oracle_report_format(&result->oracle, line, sizeof(line));
  if (!strncmp(text, "none", 4) || !text[0]) {
    snprintf(text, size, "%s on arm %s", line,
             result->arms[run->oracle_arm].name);
  } else {
    size_t used = strlen(text);
    snprintf(text + used, size - used, "; %s on arm %s", line,
             result->arms[run->oracle_arm].name);
  }
  if (result->oracle_adversarial_arms) {
    size_t used = strlen(text);
    snprintf(text + used, size - used,
             ", and %" PRIu64 " work-groups (%" PRIu64
             " skipped) on %u adversarial arms",
             result->oracle_adversarial_checked,
             result->oracle_adversarial_skipped,
             result->oracle_adversarial_arms);
  }
}

// One arm's step, watched by the hazard checker and, when there is a
// re-recording, compared with it dispatch by dispatch.
static void rl_shadow_step_arm(rl_shadow_run_t* run, uint32_t a, uint32_t w,
                               int64_t value) {
  rl_shadow_arm_t* arm = run->arms[a];
  rl_hazard_watch_t watch;
  rl_shadow_hazard_before(arm, run->result->hazard_check, &watch,
                          &run->result->arms[a]);
  rl_effects_watch_t effects;
  rl_shadow_effects_before(arm, run->result->hazard_check, &effects,
                           &run->result->arms[a]);
  if (run->oracles[a]) {
    rl_oracle_report_t report;
    rl_oracle_report(run->oracles[a], &report);
    run->oracle_base[a] = report.dispatches;
  }
  bool traced = rl_shadow_rerecord_trace_begin(&run->rerecord, arm);
  bool issued = !traced && rl_issued_trace_begin(run->capture, arm);
  uint64_t start_ns = run->trace.trace ? rl_trace_now_ns() : 0;
  rl_status_t status = rl_shadow_arm_step(arm, run->values);
  if (run->trace.trace) {
    char name[96];
    if (run->result->param == UINT32_MAX) {
      snprintf(name, sizeof(name), "window %u", w);
    } else {
      snprintf(name, sizeof(name), "window %u (%s=%" PRId64 ")", w,
               run->capture->params[run->result->param].name, value);
    }
    rl_shadow_trace_step(&run->trace, a, arm, name, start_ns,
                         rl_trace_now_ns());
  }
  if (!status) {
    rl_shadow_hazard_after(arm, &watch, w, &run->result->arms[a]);
  }
  rl_shadow_effects_after(arm, &effects, run->result, w, run->values,
                          &run->result->arms[a]);
  if (issued) {  // the as-issued arguments (shadow/issued_check.h)
    rl_status_t compared = rl_issued_trace_check(
        run->capture, arm, run->values, &run->result->arms[a].issued_checked);
    if (!status) {
      status = compared;
    } else {
      rl_status_free(compared);
    }
  }
  if (traced) {
    rl_status_t compared =
        rl_shadow_rerecord_compare_dispatched(&run->rerecord, arm);
    if (!status) {
      status = compared;
    } else {
      rl_status_free(compared);
    }
  }
  if (!status && run->oracles[a]) status = rl_shadow_oracle_check(run, a);
  if (status) rl_shadow_fail_arm(run, a, status, NULL, w, value);
}

static void rl_shadow_step_arms(rl_shadow_run_t* run, uint32_t w) {
  int64_t value = rl_shadow_window_value(&run->result->window, w);
  if (run->result->param != UINT32_MAX) {
    run->values[run->result->param] = value;
    // The program's own free-parameter values at this position (the
    // token it fed), when the capture recorded them.
    (void)rl_shadow_program_feed(run->capture, value, run->values);
  }
  if (run->recorded != UINT32_MAX) rl_shadow_rerecord_step(run, w, value);
  for (uint32_t a = 0; a < run->result->arm_count; ++a) {
    if (!run->arms[a]) continue;
    rl_shadow_step_arm(run, a, w, value);
    ++run->done;
    if (run->options->progress) {
      run->options->progress(run->options->progress_user, run->done,
                             run->total,
                             run->result->arms[a].name);
    }
  }
}

static void rl_shadow_note_divergence(rl_shadow_run_t* run, uint32_t w,
                                      uint32_t r, uint32_t a,
                                      const rl_shadow_cell_t* cell) {
  rl_shadow_result_t* result = run->result;
  if (result->diverged) return;
  result->diverged = true;
  result->first_window = w;
  result->first_region = r;
  result->first_arm = a;
  result->first_offset = cell->first_difference;
  // Both values of the element holding the first differing byte, for the
  // report (the region bytes are not kept).
  const rl_capture_region_t* region = &run->capture->regions[r];
  uint32_t size = region->type == RL_REGION_BYTES ? 1
                  : region->type == RL_REGION_F16 ||
                          region->type == RL_REGION_BF16
                      ? 2
                      : 4;
  uint64_t offset = cell->first_difference - cell->first_difference % size;
  if (offset + size > region->size) {  // a trailing partial element
    size = 1;
    offset = cell->first_difference;
  }
  result->first_element_size = size;
  result->first_element_offset = offset;
  memcpy(result->first_reference_value, run->reference_bytes + offset, size);
  memcpy(result->first_arm_value, run->candidate_bytes + offset, size);
}

// Reads region |r| of arm |a| into |bytes| and fills its cell's digest;
// a read failure fails the arm.
static bool rl_shadow_read(rl_shadow_run_t* run, uint32_t w, uint32_t r,
                           uint32_t a, uint8_t* bytes) {
  const rl_capture_region_t* region = &run->capture->regions[r];
  rl_shadow_cell_t* cell =
      (rl_shadow_cell_t*)rl_shadow_result_cell(run->result, w, r, a);
  rl_status_t status =
      run->arms[a]->vtable->read_region(run->arms[a], r, bytes, region->size);
  if (status) {
    rl_shadow_fail_arm(run, a, rl_status_annotate(status, "reading region %s",
                                                  region->name),
                       NULL, w, rl_shadow_window_value(&run->result->window, w));
    return false;
  }
  cell->present = true;
  cell->digest = rl_digest128_of(bytes, (size_t)region->size);
  if (region->size <= RL_SHADOW_CELL_SMALL) {
    memcpy(cell->small, bytes, (size_t)region->size);
    cell->small_size = (uint32_t)region->size;
  }
  return true;
}

static void rl_shadow_compare_region(rl_shadow_run_t* run, uint32_t w,
                                     uint32_t r) {
  rl_shadow_result_t* result = run->result;
  const rl_capture_region_t* region = &run->capture->regions[r];
  uint32_t ref = result->reference;
  if (!run->arms[ref] || !rl_shadow_read(run, w, r, ref, run->reference_bytes)) {
    return;
  }
  ((rl_shadow_cell_t*)rl_shadow_result_cell(result, w, r, ref))->equal = true;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    if (a == ref || !run->arms[a]) continue;
    if (!rl_shadow_read(run, w, r, a, run->candidate_bytes)) continue;
    rl_shadow_cell_t* cell =
        (rl_shadow_cell_t*)rl_shadow_result_cell(result, w, r, a);
    rl_shadow_diff_t diff;
    rl_shadow_compare(region->type, run->reference_bytes, run->candidate_bytes,
                      region->size, &diff);
    cell->equal = diff.equal;
    cell->first_difference = diff.first_difference;
    cell->differing_bytes = diff.differing_bytes;
    cell->has_max_abs = diff.has_max_abs;
    cell->max_abs_difference = diff.max_abs_difference;
    if (!diff.equal) {
      result->arms[a].diverged = true;
      rl_shadow_note_divergence(run, w, r, a, cell);
    }
  }
}

// The reference arm's region |r| after window |w| against the program's
// recorded state at that position (shadow/shadow_program.h).
static bool rl_shadow_program_check(rl_shadow_run_t* run, uint32_t w,
                                    uint32_t r) {
  rl_shadow_result_t* result = run->result;
  rl_digest128_t expected;
  if (result->param == UINT32_MAX ||
      !rl_shadow_program_digest(
          run->capture, rl_shadow_window_value(&result->window, w), r,
          &expected)) {
    return false;
  }
  const rl_shadow_cell_t* cell =
      rl_shadow_result_cell(result, w, r, result->reference);
  if (!cell->present) return false;
  ++result->program_checked;
  if (!rl_digest128_equal(cell->digest, expected) &&
      !result->program_mismatch) {
    result->program_mismatch = true;
    result->program_window = w;
    result->program_region = r;
    result->program_expected = expected;
    result->program_got = cell->digest;
  }
  return true;
}

// The negative control, after the first window ran and before it is read.
static void rl_shadow_apply_flip(rl_shadow_run_t* run) {
  rl_shadow_result_t* result = run->result;
  uint32_t a = result->flip_arm;
  if (!run->arms[a]) return;
  rl_status_t status = rl_shadow_arm_corrupt(
      run->arms[a], run->options->flip_region, run->options->flip_offset);
  if (status) {
    rl_shadow_fail_arm(run, a, status, "negative control: ", -1, 0);
    return;
  }
  result->flip = true;
  result->flip_region = run->options->flip_region;
  result->flip_offset = run->options->flip_offset;
}

static void rl_shadow_walk(rl_shadow_run_t* run) {
  rl_shadow_result_t* result = run->result;
  for (uint32_t w = 0; w < result->window.count; ++w) {
    rl_shadow_step_arms(run, w);
    if (w == 0 && run->options->flip) rl_shadow_apply_flip(run);
    bool program = false;
    for (uint32_t r = 0; r < result->region_count; ++r) {
      rl_shadow_compare_region(run, w, r);
      program |= rl_shadow_program_check(run, w, r);
    }
    if (program) ++result->program_windows;
    result->window_count = w + 1;
  }
}

//===----------------------------------------------------------------------===//
// Proof and verdict
//===----------------------------------------------------------------------===//

static void rl_shadow_check_proof(rl_shadow_run_t* run, uint32_t a) {
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

static void rl_shadow_verdict(rl_shadow_result_t* result) {
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

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

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
