// Interleaved timing of shadow arms (shadow/bench.h).
#define _GNU_SOURCE  // sched_setaffinity, CPU_SET
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/cpu_pin.h"
#include "sim/sim.h"
#include "shadow/bench_internal.h"
#include "shadow/shadow_hazard.h"
#include "shadow/shadow_trace.h"

// Samples of one arm, in nanoseconds, one per step.
typedef struct rl_bench_samples_s {
  uint64_t* wall;
  uint64_t* host;
  uint64_t* engine;
  uint64_t* doorbell;
  uint64_t* handoff;
  uint64_t* span;
  uint64_t* busy;
  uint32_t count;
  uint64_t last_dispatch;  // newest dispatch index already attributed
  bool any_dispatch;
} rl_bench_samples_t;

typedef struct rl_bench_s {
  const rl_capture_t* capture;
  const rl_bench_options_t* options;
  rl_bench_result_t* result;
  uint32_t param;
  rl_shadow_arm_t* arms[RL_SHADOW_MAX_ARMS];
  rl_bench_samples_t samples[RL_SHADOW_MAX_ARMS];
  rl_sim_dispatch_record_t* log;
  int64_t* values;
  uint32_t done, total;
  rl_shadow_trace_t trace;  // --trace (shadow/shadow_trace.h)
  int cp_cpu;               // options.pin: the command processors' CPU, or -1
  bool restore_affinity;
  cpu_set_t affinity;       // the calling thread's, before pinning
} rl_bench_t;

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

static int rl_bench_compare_u64(const void* a, const void* b) {
  uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
  return x < y ? -1 : x > y;
}

// Median and p95 by nearest rank over |count| samples (sorted in place);
// with fewer than RL_BENCH_P95_MIN_SAMPLES the tail is the maximum.
static rl_bench_stat_t rl_bench_stat(uint64_t* samples, uint32_t count) {
  rl_bench_stat_t stat = {0};
  if (count == 0) return stat;
  qsort(samples, count, sizeof(uint64_t), rl_bench_compare_u64);
  stat.present = true;
  stat.min = samples[0];
  stat.max = samples[count - 1];
  stat.median = samples[(count - 1) / 2];
  uint32_t rank = (uint32_t)(((uint64_t)count * 95 + 99) / 100);  // ceil
  stat.p95_valid = count >= RL_BENCH_P95_MIN_SAMPLES;
  stat.p95 = stat.p95_valid ? samples[(rank ? rank : 1) - 1] : stat.max;
  return stat;
}

//===----------------------------------------------------------------------===//
// Device time from the dispatch log
//===----------------------------------------------------------------------===//

// The span and busy time of the dispatches |arm| ran since the last call.
static void rl_bench_device_time(rl_bench_t* bench, uint32_t a,
                                 uint64_t* out_span, uint64_t* out_busy) {
  rl_bench_samples_t* samples = &bench->samples[a];
  rl_device_t* device = bench->arms[a]->device;
  *out_span = *out_busy = 0;
  if (!device || !rl_sim_device_is(device)) return;  // HIP arms: none
  uint32_t count = rl_sim_dispatch_log(device, bench->log, RL_SIM_DISPATCH_LOG);
  uint64_t first = UINT64_MAX, last = 0, busy = 0, hz = device->timestamp_frequency;
  uint32_t seen = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const rl_sim_dispatch_record_t* record = &bench->log[i];
    if (samples->any_dispatch && record->dispatch_index <= samples->last_dispatch) {
      continue;
    }
    ++seen;
    if (record->start_timestamp < first) first = record->start_timestamp;
    if (record->end_timestamp > last) last = record->end_timestamp;
    busy += record->end_timestamp - record->start_timestamp;
    samples->last_dispatch = record->dispatch_index;
    samples->any_dispatch = true;
  }
  if (seen == RL_SIM_DISPATCH_LOG) bench->result->arms[a].device_partial = true;
  if (!seen || !hz) return;
  *out_span = (last - first) * 1000000000ull / hz;
  *out_busy = busy * 1000000000ull / hz;
}

//===----------------------------------------------------------------------===//
// Rounds
//===----------------------------------------------------------------------===//

static void rl_bench_fail(rl_bench_t* bench, uint32_t a, rl_status_t status,
                          const char* prefix) {
  rl_bench_arm_result_t* arm = &bench->result->arms[a];
  arm->failed = true;
  arm->failure_code = rl_status_code(status);
  snprintf(arm->failure, sizeof(arm->failure), "%s%s", prefix,
           rl_status_message(status));
  rl_status_free(status);
  if (bench->arms[a]) bench->arms[a]->vtable->proof(bench->arms[a], &arm->proof);
  rl_shadow_arm_destroy(bench->arms[a]);
  bench->arms[a] = NULL;
}

static void rl_bench_step(rl_bench_t* bench, uint32_t a) {
  rl_shadow_arm_t* arm = bench->arms[a];
  rl_bench_samples_t* samples = &bench->samples[a];
  rl_hazard_watch_t watch;
  rl_hazard_watch_begin(&watch, bench->options->no_hazard_check ? NULL : arm->device,
                        arm->capture);
  uint64_t instructions = rl_sim_executor_instructions(arm->device);
  rl_replay_counters_t before = {0}, after = {0};
  if (arm->vtable->replay_counters) arm->vtable->replay_counters(arm, &before);
  uint64_t start = rl_now_ns();
  rl_status_t status = rl_shadow_arm_step(arm, bench->values);
  uint64_t wall = rl_now_ns() - start;
  if (bench->trace.trace) {
    char name[48];
    snprintf(name, sizeof(name), "step %u", samples->count);
    rl_shadow_trace_step(&bench->trace, a, arm, name, start, start + wall);
  }
  // Arms step one at a time and every step waits for its dispatches, so the
  // process-wide counter's growth belongs to this arm.
  instructions = rl_sim_executor_instructions(arm->device) - instructions;
  if (!status) status = rl_shadow_hazard_status(arm, &watch);
  if (status) {
    rl_bench_fail(bench, a, status, "step: ");
    return;
  }
  uint32_t i = samples->count++;
  samples->wall[i] = wall;
  uint64_t host = 0;
  if (arm->vtable->last_host_ns(arm, &host)) samples->host[i] = host;
  rl_bench_device_time(bench, a, &samples->span[i], &samples->busy[i]);
  if (arm->vtable->replay_counters) {
    arm->vtable->replay_counters(arm, &after);
    uint64_t bell = after.doorbell_ns - before.doorbell_ns;
    samples->doorbell[i] = bell;
    samples->engine[i] = host > bell ? host - bell : 0;
    uint64_t span = samples->span[i];
    samples->handoff[i] =
        after.last_wait_ns > span ? after.last_wait_ns - span : 0;
  }
  if (instructions) {
    bench->result->arms[a].isa_instructions += instructions;
    bench->result->arms[a].isa_busy_ns += samples->busy[i];
  }
}

static void rl_bench_rounds(rl_bench_t* bench) {
  const rl_bench_result_t* result = bench->result;
  for (uint32_t round = 0; round < result->rounds; ++round) {
    for (uint32_t a = 0; a < result->arm_count; ++a) {
      for (uint32_t w = 0; bench->arms[a] && w < result->window.count; ++w) {
        if (bench->param != UINT32_MAX) {
          bench->values[bench->param] =
              rl_shadow_window_value(&result->window, w);
        }
        rl_bench_step(bench, a);
        ++bench->done;
        if (bench->options->progress) {
          bench->options->progress(bench->options->progress_user, bench->done,
                                   bench->total,
                                   rl_shadow_arm_kind_name(result->arms[a].kind));
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Rows
//===----------------------------------------------------------------------===//

static void rl_bench_finish_arm(rl_bench_t* bench, uint32_t a) {
  rl_bench_arm_result_t* arm = &bench->result->arms[a];
  rl_bench_samples_t* samples = &bench->samples[a];
  rl_shadow_arm_t* live = bench->arms[a];
  arm->samples = samples->count;
  arm->wall = rl_bench_stat(samples->wall, samples->count);
  bool has_host = live->vtable->last_host_ns(live, &(uint64_t){0});
  if (has_host) arm->host = rl_bench_stat(samples->host, samples->count);
  if (live->vtable->replay_counters) {
    arm->engine = rl_bench_stat(samples->engine, samples->count);
    arm->doorbell = rl_bench_stat(samples->doorbell, samples->count);
    // The hand-off is the wait less the device's span: simulator only.
    if (rl_sim_device_is(live->device)) {
      arm->handoff = rl_bench_stat(samples->handoff, samples->count);
    }
  }
  arm->device_span = rl_bench_stat(samples->span, samples->count);
  arm->device_busy = rl_bench_stat(samples->busy, samples->count);
  live->vtable->proof(live, &arm->proof);
  uint64_t steps = (uint64_t)bench->result->rounds * bench->result->window.count;
  uint64_t expected = rl_shadow_arm_kind_replays(arm->kind) ? steps : 0;
  arm->proof_ok = arm->proof.replay_count == expected && arm->proof.steps == steps;
  if (!arm->proof_ok) {
    snprintf(arm->proof_problem, sizeof(arm->proof_problem),
             "replay count %" PRIu64 " and %" PRIu64 " steps, expected %"
             PRIu64 " replays over %" PRIu64 " steps",
             arm->proof.replay_count, arm->proof.steps, expected, steps);
  }
  if (rl_shadow_arm_kind_ib_reference(arm->kind)) {
    rl_status_t status = rl_bench_pm4_census(live, &arm->pm4);
    if (status) rl_bench_fail(bench, a, status, "pm4 census: ");
  }
}

static void rl_bench_verdict(rl_bench_result_t* result) {
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_bench_arm_result_t* arm = &result->arms[a];
    if (arm->failed) {
      snprintf(result->reason, sizeof(result->reason), "arm %s: %s",
               rl_shadow_arm_kind_name(arm->kind), arm->failure);
      return;
    }
    if (!arm->proof_ok) {
      snprintf(result->reason, sizeof(result->reason), "arm %s: route proof: %s",
               rl_shadow_arm_kind_name(arm->kind), arm->proof_problem);
      return;
    }
  }
  result->pass = true;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

static rl_status_t rl_bench_init(rl_bench_t* bench) {
  rl_bench_result_t* result = bench->result;
  uint32_t steps = result->rounds * result->window.count;
  bench->log = calloc(RL_SIM_DISPATCH_LOG, sizeof(rl_sim_dispatch_record_t));
  bench->values = calloc(bench->capture->param_count + 1u, sizeof(int64_t));
  if (!bench->log || !bench->values) return rl_status_out_of_memory();
  for (uint32_t p = 0; p < bench->capture->param_count; ++p) {
    bench->values[p] = bench->capture->params[p].capture_value;
  }
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    rl_bench_samples_t* samples = &bench->samples[a];
    samples->wall = calloc(steps, sizeof(uint64_t));
    samples->host = calloc(steps, sizeof(uint64_t));
    samples->engine = calloc(steps, sizeof(uint64_t));
    samples->doorbell = calloc(steps, sizeof(uint64_t));
    samples->handoff = calloc(steps, sizeof(uint64_t));
    samples->span = calloc(steps, sizeof(uint64_t));
    samples->busy = calloc(steps, sizeof(uint64_t));
    if (!samples->wall || !samples->host || !samples->engine ||
        !samples->doorbell || !samples->handoff || !samples->span ||
        !samples->busy) {
      return rl_status_out_of_memory();
    }
  }
  return RL_OK;
}

static void rl_bench_deinit(rl_bench_t* bench) {
  for (uint32_t a = 0; a < RL_SHADOW_MAX_ARMS; ++a) {
    rl_shadow_arm_destroy(bench->arms[a]);
    free(bench->samples[a].wall);
    free(bench->samples[a].host);
    free(bench->samples[a].engine);
    free(bench->samples[a].doorbell);
    free(bench->samples[a].handoff);
    free(bench->samples[a].span);
    free(bench->samples[a].busy);
  }
  free(bench->log);
  free(bench->values);
  rl_shadow_trace_end(&bench->trace);
  if (bench->restore_affinity) {
    sched_setaffinity(0, sizeof(bench->affinity), &bench->affinity);
  }
}

// options.pin: the calling thread on the first CPU it may run on, the
// command processors on the last (as tests/bench/host_cost_bench).
static void rl_bench_pin(rl_bench_t* bench) {
  rl_bench_result_t* result = bench->result;
  bench->cp_cpu = -1;
  if (!bench->options->pin) return;
  int first = -1, last = -1;
  if (!rl_cpu_pin_host(&bench->affinity, &first, &last)) {
    snprintf(result->pinning, sizeof(result->pinning),
             "not pinned (one CPU allowed)");
    return;
  }
  bench->restore_affinity = true;
  bench->cp_cpu = last;
  snprintf(result->pinning, sizeof(result->pinning),
           "pinned: host on CPU %d, command processors on CPU %d", first,
           last);
}

static void rl_bench_create_arms(rl_bench_t* bench) {
  rl_shadow_arm_options_t arm_options = {.device = bench->options->device,
                                         .limits = bench->options->limits};
  arm_options.device.no_hazard_check = bench->options->no_hazard_check;
  if (bench->cp_cpu >= 0) {
    arm_options.device.pin_cp = true;
    arm_options.device.cp_cpu = bench->cp_cpu;
  }
  rl_bench_result_t* result = bench->result;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    rl_bench_arm_result_t* arm = &result->arms[a];
    arm->kind = bench->options->arms[a];
    arm->proof.route = rl_shadow_arm_kind_name(arm->kind);
    rl_status_t status = rl_shadow_arm_create(arm->kind, bench->capture,
                                              &arm_options, &bench->arms[a]);
    if (status) rl_bench_fail(bench, a, status, "not available: ");
    if (bench->arms[a]) bench->total += result->rounds * result->window.count;
  }
}

static rl_status_t rl_bench_check(const rl_bench_options_t* options) {
  if (options->arm_count == 0 || options->arm_count > RL_SHADOW_MAX_ARMS ||
      options->rounds == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "bench: %u arms (1..%u) and %u rounds (>= 1)",
                     options->arm_count, RL_SHADOW_MAX_ARMS, options->rounds);
  }
  for (uint32_t a = 0; a < options->arm_count; ++a) {
    if ((unsigned)options->arms[a] >= RL_SHADOW_ARM_KIND_COUNT_) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "arm kind %u",
                       (unsigned)options->arms[a]);
    }
  }
  return RL_OK;
}

rl_status_t rl_bench_run(const rl_capture_t* capture,
                         const rl_bench_options_t* options,
                         rl_bench_result_t** out_result) {
  *out_result = NULL;
  RL_RETURN_IF_ERROR(rl_bench_check(options));
  rl_bench_result_t* result = calloc(1, sizeof(*result));
  if (!result) return rl_status_out_of_memory();
  result->capture = capture;
  result->rounds = options->rounds;
  result->arm_count = options->arm_count;
  result->spin_wait = options->device.spin_wait;
  rl_bench_t bench = {.capture = capture, .options = options, .result = result};
  rl_status_t status = rl_shadow_window_resolve(
      capture, options->limits.max_windows, options->has_window,
      &options->window, &bench.param, &result->window);
  if (!status) status = rl_bench_init(&bench);
  if (!status && options->trace) {
    const char* names[RL_SHADOW_MAX_ARMS];
    for (uint32_t a = 0; a < options->arm_count; ++a) {
      names[a] = rl_shadow_arm_kind_name(options->arms[a]);
    }
    status = rl_shadow_trace_begin(&bench.trace, options->trace, capture,
                                   names, options->arm_count, "bench",
                                   options->trace_pid_base);
  }
  if (!status) {
    rl_bench_pin(&bench);
    rl_bench_create_arms(&bench);
    rl_bench_rounds(&bench);
    for (uint32_t a = 0; a < result->arm_count; ++a) {
      if (bench.arms[a]) rl_bench_finish_arm(&bench, a);
    }
    rl_bench_verdict(result);
  }
  rl_bench_deinit(&bench);
  if (status) {
    free(result);
    return status;
  }
  *out_result = result;
  return RL_OK;
}

void rl_bench_result_destroy(rl_bench_result_t* result) { free(result); }

rl_status_code_t rl_bench_result_code(const rl_bench_result_t* result) {
  if (result->pass) return RL_STATUS_OK;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    if (result->arms[a].failed && result->arms[a].failure_code) {
      return result->arms[a].failure_code;
    }
  }
  return RL_STATUS_MISMATCH;
}
