// shadow/shadow_run_internal.h — the state of one shadow run
// (rl_shadow_run of shadow/shadow.h) and the steps its files share.
// Private to rl_shadow.
//
// The run, in order: rl_shadow_check_options (shadow_check.c),
// rl_shadow_expand_arms (shadow_expand.c), rl_shadow_check_budgets,
// rl_shadow_create_arms (shadow_run_arms.c, with the oracles of
// shadow_oracle.c), rl_shadow_walk (shadow_walk.c: each window's
// rl_shadow_step_arms of shadow_step.c, then the comparison), the route
// proofs, rl_shadow_oracle_result and rl_shadow_verdict
// (shadow_verdict.c). shadow_run.c holds the entry point.
#ifndef REDLINE_SHADOW_SHADOW_RUN_INTERNAL_H_
#define REDLINE_SHADOW_SHADOW_RUN_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"
#include "shadow/shadow.h"
#include "shadow/shadow_arm.h"
#include "shadow/shadow_rerecord.h"
#include "shadow/shadow_trace.h"
#include "sim/oracle/oracle.h"

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
  // Host threads each window's arms step on (rl_shadow_options_t.arm_jobs
  // resolved: 1 steps them one after another on the run's thread).
  uint32_t arm_jobs;
} rl_shadow_run_t;

// Checks |options| against |capture| before anything is allocated; fills
// the window and parameter of |result| (shadow_check.c).
rl_status_t rl_shadow_check_options(const rl_capture_t* capture,
                                    const rl_shadow_options_t* options,
                                    rl_shadow_result_t* result);
// The budgets of redline/limits.h over all arms (shadow_check.c).
rl_status_t rl_shadow_check_budgets(const rl_capture_t* capture,
                                    const rl_shadow_options_t* options);

// Copies |options| into run->expanded with the simulated reference, the
// adversarial passes and the second executor's arm appended, and states
// the wait bound (shadow_expand.c).
rl_status_t rl_shadow_expand_arms(rl_shadow_run_t* run,
                                  const rl_shadow_options_t* options);

// Creates the oracles, then every arm (an arm that cannot be created is
// failed, not fatal), then the recorded arm's re-recording
// (shadow_run_arms.c).
void rl_shadow_create_arms(rl_shadow_run_t* run);
// Fills arm |a|'s proof, with the re-recording's counts for the recorded
// arm.
void rl_shadow_arm_proof(rl_shadow_run_t* run, uint32_t a);
// Fails arm |a| with |status| (taken): its message after |prefix|, or
// after the window when |window| >= 0; the arm is destroyed.
void rl_shadow_fail_arm(rl_shadow_run_t* run, uint32_t a, rl_status_t status,
                        const char* prefix, int64_t window, int64_t value);
// Arm |a|'s route proof against the windows run.
void rl_shadow_check_proof(rl_shadow_run_t* run, uint32_t a);

// The oracle executors (shadow_oracle.c): created before the arms; the
// check after each step of an arm they wrap; the counts after the walk.
void rl_shadow_oracles_create(rl_shadow_run_t* run);
rl_status_t rl_shadow_oracle_check(rl_shadow_run_t* run, uint32_t a);
void rl_shadow_oracle_result(rl_shadow_run_t* run);

// Steps every live arm through window |w| (shadow_step.c), on up to
// run->arm_jobs threads; the outcomes (failures, trace spans, progress)
// are merged in arm order on the calling thread.
void rl_shadow_step_arms(rl_shadow_run_t* run, uint32_t w);

// Every window: the arms' steps, then the comparison (shadow_walk.c).
void rl_shadow_walk(rl_shadow_run_t* run);

// The verdict of |result| into its reason and pass (shadow_verdict.c).
void rl_shadow_verdict(rl_shadow_result_t* result);

#endif  // REDLINE_SHADOW_SHADOW_RUN_INTERNAL_H_
