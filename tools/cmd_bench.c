// `redline bench FILE [--arms eager,aql,pm4] [--windows START:COUNT[:STRIDE]]
// [--rounds N] [--json OUT] [--processor GFX] [--hazards MODE] [--seed N]
// [--no-hazard-check] [--device sim|rocr|drm] [--executor ref|isa|noop]
// [--wait block|spin] [--pin]`:
// times the arms in interleaved rounds (shadow/bench.h) and prints one row
// per arm with its route proof, then the PM4 statistics of the IB.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/capture_file.h"
#include "shadow/bench.h"
#include "shadow/hip/shadow_hip.h"
#include "tools/cli.h"
#include "tools/progress.h"
#include "tools/shadow_cli.h"
#include "tools/trace_cli.h"

typedef struct rl_bench_cli_s {
  const char* path;
  const char* json;
  const char* trace;
  rl_shadow_options_t shadow;  // arms, window and device options
  uint64_t rounds;
  bool pin;
} rl_bench_cli_t;

static int rl_bench_parse(int argc, char** argv, rl_bench_cli_t* cli) {
  memset(cli, 0, sizeof(*cli));
  cli->rounds = 5;
  int exit_code = RL_EXIT_OK;
  rl_shadow_cli_option("bench", "--arms", "eager,aql,pm4", &cli->shadow,
                       &exit_code);
  bool arms_given = false;
  for (int i = 1; i < argc && exit_code == RL_EXIT_OK; ++i) {
    const char* arg = argv[i];
    bool has_value = i + 1 < argc;
    arms_given |= rl_cli_is(arg, "--arms");
    // bench only: the executor that runs no kernel code, so the rounds time
    // the host and the command processor (the results are not compared).
    if (has_value && rl_cli_is(arg, "--executor") &&
        strcmp(argv[i + 1], "noop") == 0) {
      cli->shadow.device.executor = argv[++i];
    } else if (has_value &&
        rl_shadow_cli_option("bench", arg, argv[i + 1], &cli->shadow,
                             &exit_code)) {
      ++i;
    } else if (has_value && rl_cli_is(arg, "--json")) {
      cli->json = argv[++i];
    } else if (has_value && rl_cli_is(arg, "--trace")) {
      cli->trace = argv[++i];
    } else if (has_value && rl_cli_is(arg, "--rounds")) {
      exit_code = rl_cli_number_u64("bench", arg, argv[++i], 1, 100000,
                                    &cli->rounds);
    } else if (has_value && rl_cli_is(arg, "--wait")) {
      const char* mode = argv[++i];
      if (strcmp(mode, "spin") != 0 && strcmp(mode, "block") != 0) {
        return rl_cli_usage("bench: --wait '%s': expected block or spin", mode);
      }
      cli->shadow.device.spin_wait = strcmp(mode, "spin") == 0;
    } else if (rl_cli_is(arg, "--pin")) {
      cli->pin = true;
    } else if (rl_shadow_cli_flag(arg, &cli->shadow)) {
      continue;
    } else if (arg[0] != '-' && !cli->path) {
      cli->path = arg;
    } else {
      return rl_cli_usage("bench: unknown or incomplete option '%s'", arg);
    }
  }
  if (exit_code != RL_EXIT_OK) return exit_code;
  if (!cli->path) return rl_cli_usage("bench: missing capture FILE");
  rl_shadow_cli_device_arms(&cli->shadow, arms_given, true);
  return RL_EXIT_OK;
}

int rl_cli_bench_capture(const rl_capture_t* capture,
                         const rl_shadow_options_t* shadow, uint32_t rounds,
                         bool pin,
                         const char* json_path, const char* context,
                         char* out_reason, size_t reason_size) {
  rl_progress_t progress;
  rl_progress_init(&progress, "bench");
  rl_bench_options_t options = {
      .arm_count = shadow->arm_count,
      .has_window = shadow->has_window,
      .window = shadow->window,
      .rounds = rounds,
      .device = shadow->device,
      .progress = rl_progress_callback,
      .progress_user = &progress,
      .no_hazard_check = shadow->no_hazard_check,
      .limits = shadow->limits,
      .trace = shadow->trace,
      .trace_pid_base = shadow->trace_pid_base,
      .pin = pin,
  };
  memcpy(options.arms, shadow->arms, sizeof(options.arms));
  options.device.hip_arm = rl_shadow_hip_arm_create;
  rl_bench_result_t* result = NULL;
  rl_status_t status = rl_bench_run(capture, &options, &result);
  rl_progress_finish(&progress);
  if (status) return rl_cli_fail(status, context);
  char* text = rl_bench_report_text(result);
  if (text) fputs(text, stdout);
  free(text);
  int exit_code = rl_exit_code_of(rl_bench_result_code(result));
  if (out_reason) snprintf(out_reason, reason_size, "%s", result->reason);
  // The report on stdout says why; errors also go to stderr, so a failing
  // arm (out of memory, contract...) never exits silently.
  if (exit_code != RL_EXIT_OK) {
    fprintf(stderr, "redline: %s: bench: FAIL (%s)\n", context,
            result->reason);
  }
  if (json_path) {
    status = rl_cli_write_json(rl_bench_report_json(result), json_path);
    if (status) exit_code = rl_cli_fail(status, "bench --json");
  }
  rl_bench_result_destroy(result);
  return exit_code;
}

int rl_cmd_bench(int argc, char** argv) {
  rl_bench_cli_t cli;
  int exit_code = rl_bench_parse(argc, argv, &cli);
  if (exit_code != RL_EXIT_OK) return exit_code;
  rl_status_t status = rl_cli_check_output(cli.json, &cli.path, 1);
  if (status) return rl_cli_fail(status, "bench --json");
  rl_capture_t* capture = NULL;
  status = rl_capture_file_read(cli.path, &capture, NULL);
  if (status) return rl_cli_fail(status, "bench");  // names the path
  rl_shadow_cli_hip_default(&cli.shadow);
  rl_trace_t* trace = NULL;
  exit_code = rl_cli_trace_open("bench", cli.trace, &cli.path, 1, &trace);
  if (exit_code == RL_EXIT_OK) {
    cli.shadow.trace = trace;
    exit_code = rl_cli_bench_capture(capture, &cli.shadow,
                                     (uint32_t)cli.rounds, cli.pin, cli.json,
                                     cli.path,
                                     NULL, 0);
    exit_code = rl_cli_trace_close("bench", trace, cli.trace, exit_code);
  }
  rl_capture_destroy(capture);
  return exit_code;
}
