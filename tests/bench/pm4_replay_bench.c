// pm4_replay_bench: host cost of one replay on route pm4 (and route aql for
// comparison) at 10, 100 and 1,000 launches, on the simulated device.
//
// The captures are vecchain's 8 launches followed by vc_fill launches with
// zeroed arguments (tests/unit/capture/capture_repeat.h fillers: no pointer slots,
// no bindings, no hazards), so every size has the same 19 patch sites and
// only the stream grows. A second table repeats vecchain's real launches
// (patch sites grow with the launches) for contrast. The executor is a
// no-op: the numbers are the host side of a replay (rl_replay_counters):
//   host_ns    admission, apply (evaluate every patch site, write the
//              changed ones), publication and the doorbell;
//   engine_ns  of which everything but the doorbell;
//   doorbell   of which ringing the doorbell (on the sim: a futex wake of
//              the CP thread, dominated by the OS scheduler);
//   wait_ns    the bounded wait while the simulated CP walks the stream
//              (device time on the sim, not host cost);
//   apply_ns   the apply step alone, in a loop with no device work in
//              between. On the sim the command processor is a CPU thread
//              that shares caches and (here) two cores with the host, so
//              engine_ns of a long stream includes cache misses a GPU's CP
//              would not cause; apply_ns is the engine's own cost.
// Route pm4's host_ns must not grow with the launch count: one vendor
// packet and one doorbell whatever the IB holds, and apply touches patch
// sites only. Route aql publishes one packet per launch.
//
// Usage: pm4_replay_bench --code-object PATH [--replays N]
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "aql/aql_patch.h"
#include "tests/unit/capture/capture_repeat.h"
#include "kernels/workloads/workload.h"
#include "redline/replay_internal.h"
#include "sim/sim.h"
#include "base/clock.h"


static rl_status_t rl_bench_record(const char* path,
                                   rl_capture_t** out_capture) {
  FILE* file = fopen(path, "rb");
  if (!file) return RL_STATUS(RL_STATUS_IO, "cannot read %s", path);
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  rewind(file);
  uint8_t* code = size > 0 ? malloc((size_t)size) : NULL;
  size_t got = code ? fread(code, 1, (size_t)size, file) : 0;
  fclose(file);
  if (!code || got != (size_t)size) {
    free(code);
    return RL_STATUS(RL_STATUS_IO, "cannot read %s", path);
  }
  rl_funnel_device_t device;
  rl_status_t status = rl_funnel_null_device_create(&device);
  rl_workload_options_t workload = {
      .code_object = code, .code_object_size = (size_t)size, .seed = 1};
  rl_funnel_t* funnel = NULL;
  if (!status) status = rl_funnel_create("vecchain", &device, &funnel);
  if (!status) status = rl_workload_vecchain.record(funnel, &workload);
  if (!status) status = rl_funnel_finish(funnel, out_capture);
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&device);
  free(code);
  return status;
}

typedef struct rl_bench_row_s {
  uint32_t launches;
  rl_route_proof_t proof;
  rl_replay_counters_t counters;
  double apply_ns;  // host-only apply of the prepared program, warm
} rl_bench_row_t;

// The engine's apply step alone, in a tight loop with no device work in
// between (warm caches): what a run costs the host besides publication.
// The route's own apply (images and device host views), positions cycling
// 1..8.
static rl_status_t rl_bench_apply(rl_replay_t* replay, uint64_t count,
                                  double* out_ns) {
  const uint64_t start = rl_now_ns();
  for (uint64_t i = 0; i < count; ++i) {
    int64_t pos = 1 + (int64_t)(i % 8);
    uint32_t changed = 0;
    RL_RETURN_IF_ERROR(replay->route_ops->apply(replay, &pos, 1, &changed));
  }
  *out_ns = (double)(rl_now_ns() - start) / (double)count;
  return RL_OK;
}

// Prepares |capture| on |route| and runs |replays| replays at positions
// cycling 1..8 (every run patches the position-dependent sites).
static rl_status_t rl_bench_measure(rl_device_t* device,
                                    const rl_capture_t* capture,
                                    rl_route_t route, uint64_t replays,
                                    rl_bench_row_t* out_row) {
  rl_replay_t* replay = NULL;
  RL_RETURN_IF_ERROR(rl_replay_create(device, capture, NULL, &replay));
  rl_status_t status = rl_replay_prepare(replay, route);
  for (uint64_t i = 0; i < replays && !status; ++i) {
    int64_t pos = 1 + (int64_t)(i % 8);
    status = rl_replay_run(replay, &pos, 1);
  }
  out_row->launches = capture->launch_count;
  rl_replay_proof(replay, &out_row->proof);
  rl_replay_counters(replay, &out_row->counters);
  if (!status) status = rl_bench_apply(replay, replays, &out_row->apply_ns);
  rl_replay_destroy(replay);
  return status;
}

static void rl_bench_print(const char* route, const rl_bench_row_t* row) {
  double n = (double)row->counters.runs;
  const rl_replay_counters_t* c = &row->counters;
  printf("%8u  %-5s  %9u  %7u  %11u  %11.0f  %9.0f  %8.0f  %11.0f  %8.0f\n",
         row->launches, route, row->proof.ib_dwords, row->proof.packets,
         row->proof.patch_sites, (double)c->host_ns / n,
         (double)(c->host_ns - c->doorbell_ns) / n,
         (double)c->doorbell_ns / n, (double)c->wait_ns / n, row->apply_ns);
}

// One table: captures of 10, 100 and 1,000 launches made by |make|.
static rl_status_t rl_bench_table(rl_device_t* device,
                                  const rl_capture_t* recorded, bool fillers,
                                  uint64_t replays) {
  static const uint32_t sizes[] = {10, 100, 1000};
  printf("%s\n", fillers ? "fixed patch sites (vecchain + zero-argument "
                           "vc_fill fillers)"
                         : "repeated vecchain launches (patch sites grow)");
  printf("means over the runs (wall clock, preemptions included; tests/bench/host_cost_bench has medians and tails)\n");
  printf("launches  route  ib_dwords  packets  patch_sites  host_ns/run  "
         "engine_ns  doorbell  wait_ns/run  apply_ns\n");
  for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
    rl_capture_t* capture = NULL;
    RL_RETURN_IF_ERROR(
        fillers ? rl_capture_repeat_fillers(recorded, sizes[s], 0, &capture)
                : rl_capture_repeat(recorded, sizes[s], 0, 1, &capture));
    rl_bench_row_t pm4 = {0}, aql = {0};
    rl_status_t status =
        rl_bench_measure(device, capture, RL_ROUTE_PM4, replays, &pm4);
    if (!status) {
      status = rl_bench_measure(device, capture, RL_ROUTE_AQL, replays, &aql);
    }
    rl_capture_destroy(capture);
    RL_RETURN_IF_ERROR(status);
    rl_bench_print("pm4", &pm4);
    rl_bench_print("aql", &aql);
  }
  return RL_OK;
}

int main(int argc, char** argv) {
  const char* code_object = NULL;
  uint64_t replays = 2000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--code-object") == 0) code_object = argv[i + 1];
    if (strcmp(argv[i], "--replays") == 0) {
      replays = strtoull(argv[i + 1], NULL, 0);
    }
  }
  if (!code_object || replays == 0) {
    fprintf(stderr, "usage: pm4_replay_bench --code-object PATH "
                    "[--replays N]\n");
    return 2;
  }
  const rl_sim_options_t sim = {.processor = "gfx1100",
                                .executor = rl_sim_noop_executor()};
  rl_device_t* device = NULL;
  rl_capture_t* recorded = NULL;
  rl_status_t status = rl_sim_device_create(&sim, &device);
  if (!status) status = rl_bench_record(code_object, &recorded);
  printf("pm4_replay_bench: %" PRIu64 " replays per row, sim gfx1100, no-op "
         "executor\n",
         replays);
  if (!status) status = rl_bench_table(device, recorded, true, replays);
  if (!status) status = rl_bench_table(device, recorded, false, replays);
  rl_capture_destroy(recorded);
  rl_device_close(device);
  if (!status) return 0;
  fprintf(stderr, "pm4_replay_bench: %s\n", rl_status_message(status));
  rl_status_free(status);
  return 1;
}
