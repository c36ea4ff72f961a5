// Stepping the arms of a shadow run through one window
// (shadow/shadow_run_internal.h): the re-recording first, then each arm's
// step under the hazard, effects, as-issued and re-recording checks.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shadow/issued_check.h"
#include "shadow/shadow_arm.h"
#include "shadow/shadow_effects.h"
#include "shadow/shadow_hazard.h"
#include "shadow/shadow_program.h"
#include "shadow/shadow_run_internal.h"

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

void rl_shadow_step_arms(rl_shadow_run_t* run, uint32_t w) {
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
