// The oracle executor of a shadow run (shadow/shadow_run_internal.h,
// sim/oracle/oracle.h): which arms it wraps, its verdict on a step, and
// its counts as the run's independent reference.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sim/isa/isa_executor.h"
#include "shadow/shadow_arm.h"
#include "shadow/shadow_run_internal.h"

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

void rl_shadow_oracles_create(rl_shadow_run_t* run) {
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
}

// The oracle executor's verdict on the oracle arm's step: a mismatch
// names the launch (dispatch of the step), kernel, work-group, address and
// both sides' bytes.
rl_status_t rl_shadow_oracle_check(rl_shadow_run_t* run, uint32_t a) {
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
void rl_shadow_oracle_result(rl_shadow_run_t* run) {
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
