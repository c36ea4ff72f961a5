// `redline demo [--workload decode|verify] [--layers N] [--processor GFX]
// [--hazards MODE] [--seed N]
// [--executor ref|isa] [--no-hazard-check]
// [--out DIR] [--verbose]`: the whole pipeline on the simulator in one command.
//   1. capture: the decode workload recorded through the funnel on a
//      simulated device, so the recording is an eager run; the capture stays
//      in memory and is also written to DIR/decode.rlc (default: a
//      temporary directory removed at exit) and read back, and the file's
//      identity must equal the in-memory capture's;
//   2. inspect: the summary `redline inspect` prints;
//   3. shadow: eager, recorded, aql and pm4 over the capture's window (12
//      steps from chunk - 2, across the first chunk boundary of the
//      attention split), byte-exact on every state region: one line per
//      arm and the verdict (--verbose: every window and region);
//   4. bench: eager, aql and pm4 interleaved, 3 rounds of the first 4 steps.
// --workload verify runs the same stages on the verify workload at demo
// scale (tools/demo_verify.h: 2 layers unless --layers, a 1024-row cache,
// crossover 256) and prints its route envelope and decisions after inspect.
// The last line is `redline demo: PASS (T s)` or `redline demo: FAIL (<reason>)`;
// the exit code is that of the first failing stage.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kernels/workloads/workload.h"
#include "base/clock.h"
#include "redline/capture_file.h"
#include "redline/hazard.h"
#include "redline/replay.h"
#include "tools/cli.h"
#include "tools/demo_verify.h"
#include "tools/inspect_json.h"
#include "tools/shadow_cli.h"
#include "tools/trace_cli.h"

#define RL_DEMO_BENCH_ROUNDS 3u
#define RL_DEMO_BENCH_STEPS 4u

typedef struct rl_demo_s {
  const char* workload;  // "decode" (default) or "verify"
  const char* processor;
  const char* out_dir;
  const char* trace_path;  // --trace: shadow and bench in one trace
  rl_trace_t* trace;
  uint64_t layers;
  bool verbose;
  rl_shadow_device_options_t device;
  bool no_hazard_check;
  uint32_t adversarial_seeds;
  char dir[512];
  char path[600];
  bool temporary;
  char reason[1024];
} rl_demo_t;

static double rl_demo_now(void) { return (double)rl_now_ns() / 1e9; }

static int rl_demo_parse(int argc, char** argv, rl_demo_t* demo) {
  memset(demo, 0, sizeof(*demo));
  demo->processor = "gfx1100";
  demo->workload = "decode";
  demo->layers = 0;  // the workload's demo default
  rl_shadow_options_t options = {0};
  options.adversarial_seeds = 2;  // as `redline shadow`
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    bool has_value = i + 1 < argc;
    int exit_code = RL_EXIT_OK;
    if (rl_cli_is(arg, "--verbose") || rl_cli_is(arg, "-v")) {
      demo->verbose = true;
    } else if (has_value && rl_cli_is(arg, "--layers")) {
      // The decode workload checks its admitted range (exit 2).
      exit_code = rl_cli_number_u64("demo", arg, argv[++i], 1, INT64_MAX,
                                    &demo->layers);
      if (exit_code != RL_EXIT_OK) return exit_code;
    } else if (has_value && rl_cli_is(arg, "--workload")) {
      demo->workload = argv[++i];
      if (strcmp(demo->workload, "decode") != 0 &&
          strcmp(demo->workload, "verify") != 0) {
        return rl_cli_usage("demo: --workload decode or verify, not '%s'",
                            demo->workload);
      }
    } else if (has_value && rl_cli_is(arg, "--out")) {
      demo->out_dir = argv[++i];
    } else if (has_value && rl_cli_is(arg, "--trace")) {
      demo->trace_path = argv[++i];
    } else if (has_value && (rl_cli_is_processor_flag(arg) ||
                             rl_cli_is(arg, "--hazards") ||
                             rl_cli_is(arg, "--executor") ||
                             rl_cli_is(arg, "--cache-model") ||
                             rl_cli_is(arg, "--adversarial-seeds") ||
                             rl_cli_is(arg, "--seed"))) {
      rl_shadow_cli_option("demo", arg, argv[++i], &options, &exit_code);
      if (exit_code != RL_EXIT_OK) return exit_code;
    } else if (rl_shadow_cli_flag(arg, &options)) {
      continue;
    } else {
      return rl_cli_usage("demo: unknown or incomplete option '%s'", arg);
    }
  }
  if (!demo->layers) demo->layers = strcmp(demo->workload, "verify") ? 4 : 2;
  demo->device = options.device;
  demo->no_hazard_check = options.no_hazard_check;
  demo->adversarial_seeds = options.adversarial_seeds;
  if (options.device.processor) demo->processor = options.device.processor;
  demo->device.processor = demo->processor;
  return RL_EXIT_OK;
}

//===----------------------------------------------------------------------===//
// 1. Capture
//===----------------------------------------------------------------------===//

// Records the decode workload on a simulated device (the eager run).
static rl_status_t rl_demo_record(const rl_demo_t* demo, const void* code,
                                  size_t code_size, rl_capture_t** out_capture) {
  const rl_workload_t* workload = rl_workload_find(demo->workload);
  if (!workload) {
    return RL_STATUS(RL_STATUS_NOT_FOUND, "no %s workload", demo->workload);
  }
  rl_workload_param_value_t config[3] = {{"layers", (int64_t)demo->layers}};
  uint32_t config_count = 1;
  if (strcmp(demo->workload, "verify") == 0) {
    config_count = rl_demo_verify_config(demo->layers, config);
  }
  rl_workload_options_t options = {.code_object = code,
                                   .code_object_size = code_size,
                                   .seed = 1,
                                   .config = config,
                                   .config_count = config_count};
  rl_device_options_t device_options = {.kind = "sim",
                                        .processor = demo->processor,
                                        .adversarial = demo->device.adversarial,
                                        .seed = demo->device.seed,
                                        .executor = demo->device.executor,
                                        .cache_model =
                                            demo->device.cache_model
                                                ? demo->device.cache_model
                                                : "strict"};
  rl_device_t* device = NULL;
  rl_funnel_device_t funnel_device = {0};
  rl_funnel_t* funnel = NULL;
  rl_status_t status = rl_device_open(&device_options, &device);
  if (!status) status = rl_device_funnel_device_create(device, &funnel_device);
  if (!status) {
    status = rl_funnel_create(demo->workload, &funnel_device, &funnel);
  }
  if (!status) status = workload->record(funnel, &options);
  if (!status) status = rl_funnel_finish(funnel, out_capture);
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&funnel_device);
  rl_device_close(device);
  return status;
}

// DIR/decode.rlc: the --out directory (created when missing) or a fresh
// temporary one.
static rl_status_t rl_demo_output_path(rl_demo_t* demo) {
  if (demo->out_dir) {
    if (mkdir(demo->out_dir, 0777) != 0 && errno != EEXIST) {
      return RL_STATUS(RL_STATUS_IO, "cannot create %s: %s", demo->out_dir,
                       strerror(errno));
    }
    snprintf(demo->dir, sizeof(demo->dir), "%s", demo->out_dir);
  } else {
    const char* tmp = getenv("TMPDIR");
    snprintf(demo->dir, sizeof(demo->dir), "%s/redline-demo.XXXXXX",
             tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(demo->dir)) {
      return RL_STATUS(RL_STATUS_IO, "cannot create %s: %s", demo->dir,
                       strerror(errno));
    }
    demo->temporary = true;
  }
  snprintf(demo->path, sizeof(demo->path), "%s/%s.rlc", demo->dir,
           demo->workload);
  return RL_OK;
}

// Writes the capture, reads it back and compares identities.
static rl_status_t rl_demo_write(rl_demo_t* demo, const rl_capture_t* capture) {
  RL_RETURN_IF_ERROR(rl_demo_output_path(demo));
  RL_RETURN_IF_ERROR(rl_capture_file_write(capture, demo->path, NULL));
  rl_capture_t* again = NULL;
  RL_RETURN_IF_ERROR(rl_capture_file_read(demo->path, &again, NULL));
  rl_digest128_t a, b;
  rl_status_t status = rl_capture_identity(capture, &a);
  if (!status) status = rl_capture_identity(again, &b);
  rl_capture_destroy(again);
  RL_RETURN_IF_ERROR(status);
  if (!rl_digest128_equal(a, b)) {
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "%s reads back with another identity", demo->path);
  }
  return RL_OK;
}

static int rl_demo_capture(rl_demo_t* demo, rl_capture_t** out_capture) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s-%s.co", rl_cli_kernels_dir(),
           demo->workload, demo->processor);
  uint8_t* code = NULL;
  size_t code_size = 0;
  double start = rl_demo_now();
  rl_status_t status = rl_cli_read_file(path, &code, &code_size);
  if (!status) status = rl_demo_record(demo, code, code_size, out_capture);
  free(code);
  if (!status) status = rl_demo_write(demo, *out_capture);
  if (status) {
    snprintf(demo->reason, sizeof(demo->reason), "capture: %s",
             rl_status_message(status));
    return rl_cli_fail(status, "demo: capture");
  }
  printf("captured %u launches (an eager run on the simulator) in %.2f s; "
         "written to %s and read back with the same identity\n",
         (*out_capture)->launch_count, rl_demo_now() - start, demo->path);
  return RL_EXIT_OK;
}

//===----------------------------------------------------------------------===//
// 2-4. Inspect, shadow, bench
//===----------------------------------------------------------------------===//

static int rl_demo_inspect(rl_demo_t* demo, const rl_capture_t* capture) {
  rl_digest128_t identity;
  rl_hazard_plan_t* plan = NULL;
  rl_status_t status = rl_capture_identity(capture, &identity);
  if (!status) status = rl_hazard_plan_create(capture, &plan);
  if (status) {
    snprintf(demo->reason, sizeof(demo->reason), "inspect: %s",
             rl_status_message(status));
    return rl_cli_fail(status, "demo: inspect");
  }
  if (demo->verbose) {
    rl_inspect_print_summary(capture, &identity, plan);
  } else {
    rl_inspect_print_brief(capture, &identity, plan);
  }
  rl_hazard_plan_destroy(plan);
  if (strcmp(demo->workload, "verify") == 0) {
    printf("\n");
    status = rl_demo_verify_route(capture, demo->processor,
                                  demo->device.executor);
    if (status) {
      snprintf(demo->reason, sizeof(demo->reason), "route: %s",
               rl_status_message(status));
      return rl_cli_fail(status, "demo: route");
    }
  }
  return RL_EXIT_OK;
}

static int rl_demo_shadow(rl_demo_t* demo, const rl_capture_t* capture) {
  rl_shadow_options_t options = {.device = demo->device,
                                 .no_hazard_check = demo->no_hazard_check};
  int exit_code = RL_EXIT_OK;
  rl_shadow_cli_option("demo", "--arms", RL_SHADOW_DEFAULT_ARMS, &options,
                       &exit_code);
  options.trace = demo->trace;
  options.adversarial_seeds = demo->adversarial_seeds;
  options.second_executor = true;  // as `redline shadow`
  char reason[768] = "";
  exit_code = rl_cli_shadow_capture(capture, &options, demo->verbose, NULL,
                                    "demo: shadow", reason, sizeof(reason));
  if (exit_code != RL_EXIT_OK) {
    snprintf(demo->reason, sizeof(demo->reason), "shadow: %s",
             reason[0] ? reason : "see above");
  }
  return exit_code;
}

static int rl_demo_bench(rl_demo_t* demo, const rl_capture_t* capture) {
  rl_shadow_options_t options = {.device = demo->device,
                                 .no_hazard_check = demo->no_hazard_check};
  int exit_code = RL_EXIT_OK;
  rl_shadow_cli_option("demo", "--arms", "eager,aql,pm4", &options, &exit_code);
  options.trace = demo->trace;
  options.trace_pid_base = 100;  // after the shadow's arms
  if (capture->window_count) {
    const rl_capture_window_t* window = &capture->windows[0];
    options.has_window = true;
    options.window = (rl_shadow_window_t){
        window->start,
        window->count < RL_DEMO_BENCH_STEPS ? window->count
                                            : RL_DEMO_BENCH_STEPS,
        window->stride};
  }
  char reason[768] = "";
  exit_code = rl_cli_bench_capture(capture, &options, RL_DEMO_BENCH_ROUNDS,
                                   false, NULL, "demo: bench", reason, sizeof(reason));
  if (exit_code != RL_EXIT_OK) {
    snprintf(demo->reason, sizeof(demo->reason), "bench: %s",
             reason[0] ? reason : "see above");
  }
  return exit_code;
}

static void rl_demo_cleanup(const rl_demo_t* demo) {
  if (!demo->temporary) return;
  unlink(demo->path);
  rmdir(demo->dir);
}

static int rl_demo_stages(rl_demo_t* demo) {
  rl_capture_t* capture = NULL;
  printf("== 1. capture: %s, %" PRIu64 " layers, %s, sim (%s hazards)\n",
         demo->workload, demo->layers, demo->processor,
         demo->device.adversarial ? "adversarial" : "sequential");
  int exit_code = rl_demo_capture(demo, &capture);
  if (exit_code == RL_EXIT_OK) {
    printf("\n== 2. inspect (every kernel, buffer, binding and region: "
           "--verbose, or `redline inspect FILE`)\n");
    fflush(stdout);
    exit_code = rl_demo_inspect(demo, capture);
  }
  if (exit_code == RL_EXIT_OK) {
    printf("\n== 3. shadow: %s", RL_SHADOW_DEFAULT_ARMS);
    if (demo->adversarial_seeds && !demo->device.adversarial) {
      printf("; the retained routes also under %u adversarial seeds",
             demo->adversarial_seeds);
    }
    printf("\n");
    fflush(stdout);
    exit_code = rl_demo_shadow(demo, capture);
  }
  if (exit_code == RL_EXIT_OK) {
    printf("\n== 4. bench: eager, aql, pm4 interleaved, %u rounds x %u steps\n",
           RL_DEMO_BENCH_ROUNDS, RL_DEMO_BENCH_STEPS);
    fflush(stdout);
    exit_code = rl_demo_bench(demo, capture);
  }
  rl_capture_destroy(capture);
  return exit_code;
}

int rl_cmd_demo(int argc, char** argv) {
  rl_demo_t demo;
  int exit_code = rl_demo_parse(argc, argv, &demo);
  if (exit_code != RL_EXIT_OK) return exit_code;
  exit_code = rl_cli_trace_open("demo", demo.trace_path, NULL, 0, &demo.trace);
  if (exit_code != RL_EXIT_OK) return exit_code;
  double start = rl_demo_now();
  exit_code = rl_demo_stages(&demo);
  exit_code = rl_cli_trace_close("demo", demo.trace, demo.trace_path, exit_code);
  rl_demo_cleanup(&demo);
  const double took = rl_demo_now() - start;
  if (exit_code == RL_EXIT_OK) {
    printf("redline demo: PASS (%.1f s)\n", took);
  } else {
    // One line within 200 characters; the stages above have the details.
    const char* reason = demo.reason[0] ? demo.reason : "see above";
    printf("\ndemo took %.1f s\n", took);
    const int room = 200 - (int)strlen("redline demo: FAIL ()");
    if ((int)strlen(reason) <= room) {
      printf("redline demo: FAIL (%s)\n", reason);
    } else {
      printf("redline demo: FAIL (%.*s...)\n", room - 3, reason);
    }
  }
  return exit_code;
}
