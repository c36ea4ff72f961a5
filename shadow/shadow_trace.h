// shadow/shadow_trace.h — what a shadow or bench run puts in a trace
// (base/trace.h), one arm step at a time.
//
// Tracks: every arm is a process ("shadow: aql", "bench: pm4"); its "host"
// thread holds one span per step ("window 3 (pos=33)") and, for the
// retained arms, nested spans from the engine's phase counters
// (rl_replay_counters): "admit", "apply (bind + patch)", "publish (+
// doorbell)" and "wait". On a
// simulated device every dispatch of the step is a span on a "queue Q"
// thread (concurrent dispatches, as the adversarial interleaving runs them,
// on extra "queue Q lane L" threads so spans nest), named "KERNEL #LAUNCH"
// from the capture, with the launch's grid and block in args. Flow arrows
// ("wait") join the dispatches of the hazard plan's dependency edges
// (redline/hazard.h: producer → consumer). Counters per retained arm:
// "patch sites written" (per step) and "dwords published" (per step).
//
// The dispatch log of a simulated device holds the last RL_SIM_DISPATCH_LOG
// dispatches; a step with more has only its last ones traced. Dispatch i of
// a step is launch i of the capture when the step dispatched exactly the
// capture's launches (every arm does); otherwise dispatches are named
// "dispatch N" and no arrows are drawn. HIP arms run outside the process's
// devices: host spans only.
#ifndef REDLINE_SHADOW_SHADOW_TRACE_H_
#define REDLINE_SHADOW_SHADOW_TRACE_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/hazard.h"
#include "shadow/shadow.h"
#include "redline/device/device.h"
#include "redline/replay.h"
#include "base/trace.h"

typedef struct rl_shadow_trace_arm_state_s {
  uint64_t last_dispatch;  // dispatch_index of the newest record traced
  bool any;
  uint32_t named_tids[64];  // queue threads already named
  uint32_t named_count;
} rl_shadow_trace_arm_state_t;

typedef struct rl_shadow_trace_s {
  rl_trace_t* trace;  // borrowed; NULL: tracing off (every call returns)
  const rl_capture_t* capture;
  rl_hazard_plan_t* plan;  // NULL when the plan could not be made
  uint32_t pid_base;
  rl_shadow_trace_arm_state_t arms[RL_SHADOW_MAX_ARMS];
  uint64_t values_written[RL_SHADOW_MAX_ARMS];
  struct rl_sim_dispatch_record_s* log;  // RL_SIM_DISPATCH_LOG records
} rl_shadow_trace_t;

// Starts tracing a run of |arm_count| arms named |arm_names| over |capture|
// into |trace| (NULL: off), naming the arms' tracks "|label|: NAME" with
// process ids |pid_base| + 1 + index.
rl_status_t rl_shadow_trace_begin(rl_shadow_trace_t* state, rl_trace_t* trace,
                                  const rl_capture_t* capture,
                                  const char* const* arm_names,
                                  uint32_t arm_count, const char* label,
                                  uint32_t pid_base);

// Traces the step of arm |a| (|arm|, NULL when the arm failed to set up)
// that ran from |start_ns| to |end_ns| as "|step_name|".
struct rl_shadow_arm_s;  // shadow/shadow_arm.h
void rl_shadow_trace_step(rl_shadow_trace_t* state, uint32_t a,
                          struct rl_shadow_arm_s* arm, const char* step_name,
                          uint64_t start_ns, uint64_t end_ns);

// The same for a step run outside an arm (`redline replay`): |device| (NULL
// or not simulated: host spans only), the engine's |counters| after the run
// (NULL: none) and the dwords it published.
void rl_shadow_trace_device_step(rl_shadow_trace_t* state, uint32_t a,
                                 rl_device_t* device,
                                 const rl_replay_counters_t* counters,
                                 uint64_t dwords_published,
                                 const char* step_name, uint64_t start_ns,
                                 uint64_t end_ns);

void rl_shadow_trace_end(rl_shadow_trace_t* state);

#endif  // REDLINE_SHADOW_SHADOW_TRACE_H_
