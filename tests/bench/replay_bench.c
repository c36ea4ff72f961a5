// replay_bench: host cost of one whole replay of vecchain on the simulated
// device.
//
// The default executor is a no-op (an rl_sim_executor_t whose
// run_workgroup does nothing), so the numbers are the host side of a
// replay without kernel execution: admission, binding evaluation and
// patching, publication (8 packets, 8 release stores, 1 doorbell) and the
// wait for the command-processor thread to walk the packets. With
// `--executor ref` the reference kernels run too.
//
// Usage: replay_bench --code-object PATH [--replays N] [--executor noop|ref]
//                     [--positions K]
// Positions cycle through 1..K (default 8), so every run patches the
// position-dependent values; K = 1 replays one position (nothing patched).
//
// Output (one line each):
//   host_ns_per_replay  patch + publish + doorbell (rl_replay_counters),
//     doorbell_ns       of which ringing the doorbell (on the sim: waking
//                       the command-processor thread through a futex),
//     engine_ns         of which everything else: admission, binding
//                       evaluation, patching, emit and commit of 8 packets
//   wait_ns_per_replay  the bounded wait for completion
//   total_ns_per_replay wall clock of rl_replay_run, averaged
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/ref/ref_executor.h"
#include "kernels/workloads/workload.h"
#include "redline/replay.h"
#include "sim/sim.h"

typedef struct rl_bench_options_s {
  const char* code_object;
  uint64_t replays;
  bool ref;
  int64_t positions;
} rl_bench_options_t;


static uint64_t rl_bench_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

static uint8_t* rl_bench_read(const char* path, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  rewind(file);
  uint8_t* bytes = size > 0 ? malloc((size_t)size) : NULL;
  if (bytes && fread(bytes, 1, (size_t)size, file) != (size_t)size) {
    free(bytes);
    bytes = NULL;
  }
  fclose(file);
  *out_size = bytes ? (size_t)size : 0;
  return bytes;
}

static rl_status_t rl_bench_capture(rl_device_t* device,
                                    const rl_bench_options_t* options,
                                    rl_capture_t** out_capture) {
  size_t size = 0;
  uint8_t* code = rl_bench_read(options->code_object, &size);
  if (!code) {
    return RL_STATUS(RL_STATUS_IO, "cannot read %s", options->code_object);
  }
  rl_funnel_device_t funnel_device;
  rl_status_t status = rl_device_funnel_device_create(device, &funnel_device);
  rl_workload_options_t workload = {
      .code_object = code, .code_object_size = size, .seed = 1};
  rl_funnel_t* funnel = NULL;
  if (!status) status = rl_funnel_create("vecchain", &funnel_device, &funnel);
  if (!status) status = rl_workload_vecchain.record(funnel, &workload);
  if (!status) status = rl_funnel_finish(funnel, out_capture);
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&funnel_device);
  free(code);
  return status;
}

static rl_status_t rl_bench_loop(rl_replay_t* replay,
                                 const rl_bench_options_t* options) {
  uint64_t start = rl_bench_now_ns();
  for (uint64_t i = 0; i < options->replays; ++i) {
    int64_t pos = 1 + (int64_t)(i % (uint64_t)options->positions);
    RL_RETURN_IF_ERROR(rl_replay_run(replay, &pos, 1));
  }
  uint64_t elapsed = rl_bench_now_ns() - start;
  rl_replay_counters_t counters;
  rl_replay_counters(replay, &counters);
  double n = (double)options->replays;
  printf("executor            %s\n", options->ref ? "ref" : "noop");
  printf("replays             %" PRIu64 "\n", options->replays);
  printf("launches_per_replay 8\n");
  printf("statistic           mean per replay, wall clock (preemptions included)\n");
  printf("host_ns_per_replay  %.0f\n", (double)counters.host_ns / n);
  printf("  doorbell_ns       %.0f\n", (double)counters.doorbell_ns / n);
  printf("  engine_ns         %.0f\n",
         (double)(counters.host_ns - counters.doorbell_ns) / n);
  printf("wait_ns_per_replay  %.0f\n", (double)counters.wait_ns / n);
  printf("total_ns_per_replay %.0f\n", (double)elapsed / n);
  printf("values_written      %" PRIu64 "\n", counters.values_written);
  return RL_OK;
}

static rl_status_t rl_bench_run(const rl_bench_options_t* options) {
  const rl_sim_options_t sim = {
      .processor = "gfx1100",
      .executor = options->ref ? rl_ref_executor() : rl_sim_noop_executor()};
  rl_device_t* device = NULL;
  RL_RETURN_IF_ERROR(rl_sim_device_create(&sim, &device));
  rl_capture_t* capture = NULL;
  rl_replay_t* replay = NULL;
  rl_status_t status = rl_bench_capture(device, options, &capture);
  if (!status) status = rl_replay_create(device, capture, NULL, &replay);
  if (!status) status = rl_replay_prepare(replay, RL_ROUTE_AQL);
  if (!status) status = rl_bench_loop(replay, options);
  rl_replay_destroy(replay);
  rl_capture_destroy(capture);
  rl_device_close(device);
  return status;
}

static bool rl_bench_parse(int argc, char** argv,
                           rl_bench_options_t* options) {
  *options = (rl_bench_options_t){.replays = 100000, .positions = 8};
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--code-object") == 0) {
      options->code_object = argv[i + 1];
    } else if (strcmp(argv[i], "--replays") == 0) {
      options->replays = strtoull(argv[i + 1], NULL, 0);
    } else if (strcmp(argv[i], "--positions") == 0) {
      options->positions = strtoll(argv[i + 1], NULL, 0);
    } else if (strcmp(argv[i], "--executor") == 0) {
      options->ref = strcmp(argv[i + 1], "ref") == 0;
    } else {
      return false;
    }
  }
  return argc % 2 == 1 && options->code_object && options->replays > 0 &&
         options->positions >= 1 && options->positions < 4096;
}

int main(int argc, char** argv) {
  rl_bench_options_t options;
  if (!rl_bench_parse(argc, argv, &options)) {
    fprintf(stderr,
            "usage: replay_bench --code-object PATH [--replays N] "
            "[--executor noop|ref] [--positions K]\n");
    return 2;
  }
  rl_status_t status = rl_bench_run(&options);
  if (!status) return 0;
  fprintf(stderr, "replay_bench: %s\n", rl_status_message(status));
  rl_status_free(status);
  return 1;
}
