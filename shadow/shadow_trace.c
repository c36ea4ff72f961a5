// Arm steps into a trace (shadow/shadow_trace.h).
#include "shadow/shadow_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "shadow/shadow_arm.h"

enum {
  RL_SHADOW_TRACE_HOST_TID = 1,
  // Queue Q lane L is thread RL_SHADOW_TRACE_QUEUE_TID + Q * 64 + L.
  RL_SHADOW_TRACE_QUEUE_TID = 1000,
  RL_SHADOW_TRACE_LANES = 64,
};

static uint32_t rl_shadow_trace_pid(const rl_shadow_trace_t* state,
                                    uint32_t a) {
  return state->pid_base + 1 + a;
}

rl_status_t rl_shadow_trace_begin(rl_shadow_trace_t* state, rl_trace_t* trace,
                                  const rl_capture_t* capture,
                                  const char* const* arm_names,
                                  uint32_t arm_count, const char* label,
                                  uint32_t pid_base) {
  memset(state, 0, sizeof(*state));
  if (!trace) return RL_OK;
  state->log = calloc(RL_SIM_DISPATCH_LOG, sizeof(*state->log));
  if (!state->log) return rl_status_out_of_memory();
  state->trace = trace;
  state->capture = capture;
  state->pid_base = pid_base;
  // Without a plan the dispatches are traced without arrows.
  rl_status_free(rl_hazard_plan_create(capture, &state->plan));
  for (uint32_t a = 0; a < arm_count && a < RL_SHADOW_MAX_ARMS; ++a) {
    char name[96];
    snprintf(name, sizeof(name), "%s: %s", label, arm_names[a]);
    uint32_t pid = rl_shadow_trace_pid(state, a);
    rl_trace_name_process(trace, pid, name, (int32_t)pid);
    rl_trace_name_thread(trace, pid, RL_SHADOW_TRACE_HOST_TID, "host", 0);
  }
  return RL_OK;
}

void rl_shadow_trace_end(rl_shadow_trace_t* state) {
  if (state->plan) rl_hazard_plan_destroy(state->plan);
  free(state->log);
  memset(state, 0, sizeof(*state));
}

static void rl_shadow_trace_host(rl_shadow_trace_t* state, uint32_t a,
                                 const rl_replay_counters_t* counters,
                                 uint64_t dwords_published,
                                 const char* step_name, uint64_t start_ns,
                                 uint64_t end_ns) {
  uint32_t pid = rl_shadow_trace_pid(state, a);
  uint64_t duration = end_ns > start_ns ? end_ns - start_ns : 0;
  rl_trace_span(state->trace, pid, RL_SHADOW_TRACE_HOST_TID, step_name, "step",
                start_ns, duration, NULL, 0);
  if (!counters) return;
  // Nested in the step, in order and clamped to it: admission, apply,
  // publish (the engine's phase counters), then the wait.
  const struct {
    const char* name;
    uint64_t ns;
  } phases[] = {
      {"admit", counters->last_admit_ns},
      {"apply (bind + patch)", counters->last_apply_ns},
      {"publish (+ doorbell)", counters->last_publish_ns},
      {"wait", counters->last_wait_ns},
  };
  uint64_t at = start_ns;
  for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); ++i) {
    uint64_t left = start_ns + duration - at;
    uint64_t length = phases[i].ns < left ? phases[i].ns : left;
    if (i == 2) {
      rl_trace_arg_t args[] = {
          {"doorbells", NULL, (double)counters->doorbells},
          {"packets_published", NULL, (double)counters->packets_published},
      };
      rl_trace_span(state->trace, pid, RL_SHADOW_TRACE_HOST_TID, phases[i].name,
                    "host", at, length, args, 2);
    } else {
      rl_trace_span(state->trace, pid, RL_SHADOW_TRACE_HOST_TID, phases[i].name,
                    "host", at, length, NULL, 0);
    }
    at += length;
  }
  uint64_t written = counters->values_written - state->values_written[a];
  state->values_written[a] = counters->values_written;
  rl_trace_counter(state->trace, pid, "patch sites written", end_ns,
                   (double)written);
  rl_trace_counter(state->trace, pid, "dwords published", end_ns,
                   (double)dwords_published);
}

// The tid of the first lane of queue |queue| free at |start| (a lane is
// free when its last span ended by then; spans that only touch nest);
// concurrent dispatches take further lanes.
static uint32_t rl_shadow_trace_lane(uint64_t* lanes_end, bool* lanes_used,
                                     uint32_t queue, uint64_t start,
                                     uint64_t end, uint32_t* out_lane) {
  uint32_t lane = 0;
  while (lane + 1 < RL_SHADOW_TRACE_LANES && lanes_used[lane] &&
         lanes_end[lane] > start) {
    ++lane;
  }
  lanes_used[lane] = true;
  if (end > lanes_end[lane]) lanes_end[lane] = end;
  *out_lane = lane;
  return RL_SHADOW_TRACE_QUEUE_TID + (queue % 1024) * RL_SHADOW_TRACE_LANES +
         lane;
}

// Names thread |tid| of arm |a| once.
static void rl_shadow_trace_name_queue(rl_shadow_trace_t* state, uint32_t a,
                                       uint32_t pid, uint32_t tid,
                                       uint32_t queue, uint32_t lane) {
  rl_shadow_trace_arm_state_t* seen = &state->arms[a];
  for (uint32_t i = 0; i < seen->named_count; ++i) {
    if (seen->named_tids[i] == tid) return;
  }
  if (seen->named_count < 64) seen->named_tids[seen->named_count++] = tid;
  char name[48];
  if (lane) {
    snprintf(name, sizeof(name), "queue %u lane %u", queue, lane);
  } else {
    snprintf(name, sizeof(name), "queue %u", queue);
  }
  rl_trace_name_thread(state->trace, pid, tid, name, (int32_t)tid);
}

static int rl_shadow_trace_pair_compare(const void* a, const void* b) {
  uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
  return x < y ? -1 : x > y;
}

// One arrow per (producer, consumer) pair of the hazard plan's edges, from
// the middle of the producer's span to the middle of the consumer's, so it
// binds to the right slices even when a span is a single tick.
static void rl_shadow_trace_arrows(rl_shadow_trace_t* state, uint32_t pid,
                                   uint32_t first, uint32_t n,
                                   const uint32_t* tids, uint64_t tick_ns) {
  const rl_hazard_plan_t* plan = state->plan;
  uint64_t* pairs = malloc((plan->edge_count + 1u) * sizeof(*pairs));
  if (!pairs) return;
  uint32_t count = 0;
  for (uint32_t e = 0; e < plan->edge_count; ++e) {
    uint32_t from = plan->edges[e].from - plan->first_launch;
    uint32_t to = plan->edges[e].to - plan->first_launch;
    if (from < n && to < n) pairs[count++] = (uint64_t)from << 32 | to;
  }
  qsort(pairs, count, sizeof(*pairs), rl_shadow_trace_pair_compare);
  for (uint32_t i = 0; i < count; ++i) {
    if (i && pairs[i] == pairs[i - 1]) continue;
    uint32_t from = (uint32_t)(pairs[i] >> 32), to = (uint32_t)pairs[i];
    const rl_sim_dispatch_record_t* producer = &state->log[first + from];
    const rl_sim_dispatch_record_t* consumer = &state->log[first + to];
    uint64_t from_ns =
        (producer->start_timestamp + producer->end_timestamp) * tick_ns / 2;
    uint64_t to_ns =
        (consumer->start_timestamp + consumer->end_timestamp) * tick_ns / 2;
    rl_trace_flow(state->trace, "wait", pid, tids[from], from_ns, pid,
                  tids[to], to_ns);
  }
  free(pairs);
}

void rl_shadow_trace_step(rl_shadow_trace_t* state, uint32_t a,
                          rl_shadow_arm_t* arm, const char* step_name,
                          uint64_t start_ns, uint64_t end_ns) {
  if (!state->trace) return;
  if (arm && arm->vtable->replay_counters) {
    rl_replay_counters_t counters;
    arm->vtable->replay_counters(arm, &counters);
    rl_shadow_proof_t proof;
    memset(&proof, 0, sizeof(proof));
    arm->vtable->proof(arm, &proof);
    rl_shadow_trace_device_step(state, a, arm->device, &counters,
                                proof.stream_bytes / 4, step_name, start_ns,
                                end_ns);
  } else {
    rl_shadow_trace_device_step(state, a, arm ? arm->device : NULL, NULL, 0,
                                step_name, start_ns, end_ns);
  }
}

void rl_shadow_trace_device_step(rl_shadow_trace_t* state, uint32_t a,
                                 rl_device_t* device,
                                 const rl_replay_counters_t* counters,
                                 uint64_t dwords_published,
                                 const char* step_name, uint64_t start_ns,
                                 uint64_t end_ns) {
  if (!state->trace || a >= RL_SHADOW_MAX_ARMS) return;
  rl_shadow_trace_host(state, a, counters, dwords_published, step_name,
                       start_ns, end_ns);
  if (!device || !rl_sim_device_is(device) || !device->timestamp_frequency) {
    return;
  }
  uint32_t count = rl_sim_dispatch_log(device, state->log, RL_SIM_DISPATCH_LOG);
  rl_shadow_trace_arm_state_t* seen = &state->arms[a];
  uint32_t first = 0;
  while (first < count && seen->any &&
         state->log[first].dispatch_index <= seen->last_dispatch) {
    ++first;
  }
  uint32_t n = count - first;
  if (!n) return;
  seen->any = true;
  seen->last_dispatch = state->log[count - 1].dispatch_index;
  const rl_capture_t* capture = state->capture;
  bool by_launch = n == capture->launch_count;
  uint64_t tick_ns = 1000000000ull / device->timestamp_frequency;
  uint32_t pid = rl_shadow_trace_pid(state, a);
  // Where each launch's span sits, for the arrows.
  uint32_t* tids = calloc(n, sizeof(*tids));
  uint64_t lanes_end[RL_SHADOW_TRACE_LANES] = {0};
  bool lanes_used[RL_SHADOW_TRACE_LANES] = {false};
  for (uint32_t i = 0; i < n; ++i) {
    const rl_sim_dispatch_record_t* record = &state->log[first + i];
    uint64_t start = record->start_timestamp * tick_ns;
    uint64_t end = record->end_timestamp * tick_ns;
    if (end < start) end = start;
    uint32_t lane;
    uint32_t tid = rl_shadow_trace_lane(lanes_end, lanes_used,
                                        record->queue_id, start, end, &lane);
    if (tids) tids[i] = tid;
    rl_shadow_trace_name_queue(state, a, pid, tid, record->queue_id, lane);
    char name[160];
    if (by_launch) {
      const rl_capture_launch_t* launch = &capture->launches[i];
      snprintf(name, sizeof(name), "%s #%u",
               capture->kernels[launch->kernel].name, i);
      rl_trace_arg_t args[] = {
          {"launch", NULL, (double)i},
          {"dispatch_index", NULL, (double)record->dispatch_index},
          {"grid", NULL,
           (double)launch->grid[0] * launch->grid[1] * launch->grid[2]},
          {"block", NULL,
           (double)launch->block[0] * launch->block[1] * launch->block[2]},
      };
      rl_trace_span(state->trace, pid, tid, name, "dispatch", start,
                    end - start, args, 4);
    } else {
      snprintf(name, sizeof(name), "dispatch %llu",
               (unsigned long long)record->dispatch_index);
      rl_trace_span(state->trace, pid, tid, name, "dispatch", start,
                    end - start, NULL, 0);
    }
  }
  if (by_launch && tids && state->plan) {
    rl_shadow_trace_arrows(state, pid, first, n, tids, tick_ns);
  }
  free(tids);
}
