// Stepping the arms of a shadow run through one window
// (shadow/shadow_run_internal.h): the re-recording first, then each arm's
// step under the hazard, effects, as-issued and re-recording checks, on
// one thread or, with arm jobs, on several (docs/cli.md, "Arms in
// parallel"), the outcomes merged in arm order either way.
#define _GNU_SOURCE  // sched_getaffinity
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shadow/issued_check.h"
#include "shadow/shadow_arm.h"
#include "shadow/shadow_effects.h"
#include "shadow/shadow_hazard.h"
#include "shadow/shadow_program.h"
#include "shadow/shadow_run_internal.h"
#include "sim/sim.h"

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

// What one arm's step left for the merge: its status and, for the trace,
// when it ran.
typedef struct rl_shadow_step_outcome_s {
  rl_status_t status;
  uint64_t start_ns, end_ns;
} rl_shadow_step_outcome_t;

// One arm's step, watched by the hazard checker and, when there is a
// re-recording, compared with it dispatch by dispatch. Touches only arm
// |a|'s own state (its device, oracle and result), so arms on their own
// devices may step on different threads.
static void rl_shadow_step_arm(rl_shadow_run_t* run, uint32_t a,
                               uint32_t w, rl_shadow_step_outcome_t* out) {
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
  out->start_ns = run->trace.trace ? rl_trace_now_ns() : 0;
  rl_status_t status = rl_shadow_arm_step(arm, run->values);
  out->end_ns = run->trace.trace ? rl_trace_now_ns() : 0;
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
  out->status = status;
}

// What a step does to the run as a whole, on the run's thread and in arm
// order: the trace's span, the arm's failure, the progress.
static void rl_shadow_step_merge(rl_shadow_run_t* run, uint32_t a, uint32_t w,
                                 int64_t value,
                                 rl_shadow_step_outcome_t* outcome) {
  if (run->trace.trace) {
    char name[96];
    if (run->result->param == UINT32_MAX) {
      snprintf(name, sizeof(name), "window %u", w);
    } else {
      snprintf(name, sizeof(name), "window %u (%s=%" PRId64 ")", w,
               run->capture->params[run->result->param].name, value);
    }
    rl_shadow_trace_step(&run->trace, a, run->arms[a], name,
                         outcome->start_ns, outcome->end_ns);
  }
  if (outcome->status) {
    rl_shadow_fail_arm(run, a, outcome->status, NULL, w, value);
  }
  ++run->done;
  if (run->options->progress) {
    run->options->progress(run->options->progress_user, run->done, run->total,
                           run->result->arms[a].name);
  }
}

//===----------------------------------------------------------------------===//
// Arms on several host threads
//===----------------------------------------------------------------------===//

// One window's steps shared out: the arms with a device of their own go to
// whichever thread takes them next; the arms without one (hip, hipgraph:
// the HIP runtime's one device, with per-thread state) step in order on
// the run's thread, which created them.
typedef struct rl_shadow_step_pool_s {
  rl_shadow_run_t* run;
  uint32_t w;
  uint32_t own[RL_SHADOW_MAX_ARMS];  // arms with their own device
  uint32_t own_count;
  atomic_uint next;  // the next index into |own| to take
  rl_shadow_step_outcome_t outcomes[RL_SHADOW_MAX_ARMS];
} rl_shadow_step_pool_t;

static void rl_shadow_step_pool_drain(rl_shadow_step_pool_t* pool) {
  for (;;) {
    unsigned i = atomic_fetch_add(&pool->next, 1u);
    if (i >= pool->own_count) return;
    uint32_t a = pool->own[i];
    rl_shadow_step_arm(pool->run, a, pool->w, &pool->outcomes[a]);
  }
}

static void* rl_shadow_step_pool_main(void* user) {
  rl_shadow_step_pool_drain((rl_shadow_step_pool_t*)user);
  return NULL;
}

// Steps every live arm of window |w| on up to run->arm_jobs threads, then
// merges the outcomes in arm order: the result is the sequential one.
static void rl_shadow_step_arms_parallel(rl_shadow_run_t* run, uint32_t w,
                                         int64_t value) {
  rl_shadow_step_pool_t* pool = calloc(1, sizeof(*pool));
  if (!pool) {  // out of memory: the arms step one after another
    for (uint32_t a = 0; a < run->result->arm_count; ++a) {
      if (!run->arms[a]) continue;
      rl_shadow_step_outcome_t outcome;
      rl_shadow_step_arm(run, a, w, &outcome);
      rl_shadow_step_merge(run, a, w, value, &outcome);
    }
    return;
  }
  pool->run = run;
  pool->w = w;
  atomic_init(&pool->next, 0u);
  bool shared = false;  // arms without a device of their own
  for (uint32_t a = 0; a < run->result->arm_count; ++a) {
    if (!run->arms[a]) continue;
    if (run->arms[a]->device) {
      pool->own[pool->own_count++] = a;
    } else {
      shared = true;
    }
  }
  uint32_t lanes = pool->own_count + (shared ? 1u : 0u);
  uint32_t jobs = run->arm_jobs < lanes ? run->arm_jobs : lanes;
  pthread_t threads[RL_SHADOW_MAX_ARMS];
  uint32_t started = 0;
  for (uint32_t t = 1; t < jobs; ++t) {  // a failed start: fewer threads
    if (pthread_create(&threads[started], NULL, rl_shadow_step_pool_main,
                       pool) == 0) {
      ++started;
    }
  }
  for (uint32_t a = 0; shared && a < run->result->arm_count; ++a) {
    if (run->arms[a] && !run->arms[a]->device) {
      rl_shadow_step_arm(run, a, w, &pool->outcomes[a]);
    }
  }
  rl_shadow_step_pool_drain(pool);
  for (uint32_t t = 0; t < started; ++t) pthread_join(threads[t], NULL);
  for (uint32_t a = 0; a < run->result->arm_count; ++a) {
    if (run->arms[a]) rl_shadow_step_merge(run, a, w, value, &pool->outcomes[a]);
  }
  free(pool);
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
  if (run->arm_jobs > 1) {
    rl_shadow_step_arms_parallel(run, w, value);
    return;
  }
  for (uint32_t a = 0; a < run->result->arm_count; ++a) {
    if (!run->arms[a]) continue;
    rl_shadow_step_outcome_t outcome;
    rl_shadow_step_arm(run, a, w, &outcome);
    rl_shadow_step_merge(run, a, w, value, &outcome);
  }
}

uint32_t rl_shadow_default_arm_jobs(void) {
  const char* text = getenv("REDLINE_SHADOW_ARM_JOBS");
  if (text != NULL && *text != '\0') {
    char* end = NULL;
    unsigned long value = strtoul(text, &end, 10);
    if (*end == '\0' && value >= 1 && value <= RL_SHADOW_MAX_ARMS) {
      return (uint32_t)value;
    }
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  uint32_t cpus = (uint32_t)CPU_COUNT(&set);
  uint32_t jobs = cpus / rl_sim_default_threads();
  if (jobs < 1) return 1;
  return jobs > RL_SHADOW_MAX_ARMS ? RL_SHADOW_MAX_ARMS : jobs;
}
