// `redline shadow FILE [--arms eager,recorded,aql,pm4] [--windows
// START:COUNT[:STRIDE]] [--json OUT] [--flip-byte REGION:OFFSET]
// [--hazards adversarial] [--seed N] [--processor GFX] [--bind BUFFER=BYTES]
// [--verbose] [--no-hazard-check] [--no-second-executor]
// [--oracle sample|full|off] [--device sim|rocr|drm]
// [--no-sim-reference]`: runs the windows of a capture through several arms from
// identical state and compares every state region byte for byte
// (shadow/shadow.h). Prints one line per arm, on a divergence the first
// differing window, region, byte and both values, and ends with "shadow:
// PASS" or "shadow: FAIL (<reason>)"; --verbose adds a line per window and
// region (the JSON always has them). Exit 1 on any divergence or failed route proof; an arm that
// fails exits with its class (4 contract, 5 prepare, 6 poisoned, ...).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/capture_file.h"
#include "shadow/hip/shadow_hip.h"
#include "shadow/shadow.h"
#include "tools/cli.h"
#include "tools/cli_limits.h"
#include "tools/progress.h"
#include "tools/shadow_cli.h"
#include "tools/trace_cli.h"

#define RL_SHADOW_CLI_MAX_BINDS 16

typedef struct rl_shadow_cli_s {
  const char* path;
  const char* json;
  const char* trace;
  const char* flip;
  bool verbose;
  const char* binds[RL_SHADOW_CLI_MAX_BINDS];
  uint32_t bind_count;
  rl_shadow_options_t options;
} rl_shadow_cli_t;

static bool rl_shadow_takes_value(const char* flag) {
  static const char* const flags[] = {
      "--arms", "--windows", "--json", "--flip-byte", "--hazards", "--seed",
      "--processor", "--target", "--bind", "--executor", "--cache-model", "--trace",
      "--adversarial-seeds", "--device", "--sim-threads", "--oracle",
      "--arm-jobs"};
  for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); ++i) {
    if (rl_cli_is(flag, flags[i])) return true;
  }
  return rl_cli_limits_is_flag(flag);
}

static int rl_shadow_parse_value(rl_shadow_cli_t* cli, const char* flag,
                                 const char* value) {
  int exit_code = RL_EXIT_OK;
  if (rl_shadow_cli_option("shadow", flag, value, &cli->options, &exit_code)) {
    return exit_code;
  }
  if (rl_cli_is(flag, "--json")) {
    cli->json = value;
  } else if (rl_cli_is(flag, "--trace")) {
    cli->trace = value;
  } else if (rl_cli_is(flag, "--oracle")) {
    rl_oracle_mode_t mode;
    if (!rl_oracle_mode_parse(value, &mode)) {
      return rl_cli_usage("shadow: --oracle '%s': expected sample, full or off",
                          value);
    }
    cli->options.oracle = value;
  } else if (rl_cli_is(flag, "--arm-jobs")) {  // docs/cli.md "Arms in parallel"
    uint64_t jobs = 0;
    int code = rl_cli_number_u64("shadow", flag, value, 1, RL_SHADOW_MAX_ARMS,
                                 &jobs);
    if (code != RL_EXIT_OK) return code;
    cli->options.arm_jobs = (uint32_t)jobs;
  } else if (rl_cli_is(flag, "--flip-byte")) {
    cli->flip = value;
  } else if (cli->bind_count == RL_SHADOW_CLI_MAX_BINDS) {
    return rl_cli_usage("shadow: more than %d --bind options",
                        RL_SHADOW_CLI_MAX_BINDS);
  } else {
    cli->binds[cli->bind_count++] = value;
  }
  return RL_EXIT_OK;
}

static int rl_shadow_parse(int argc, char** argv, rl_shadow_cli_t* cli) {
  memset(cli, 0, sizeof(*cli));
  int exit_code = RL_EXIT_OK;
  rl_shadow_cli_option("shadow", "--arms", RL_SHADOW_DEFAULT_ARMS,
                       &cli->options, &exit_code);
  // Each window sequentially and under two seeded interleavings.
  cli->options.adversarial_seeds = 2;
  bool arms_given = false;
  // And on the second executor wherever the kernels have C references.
  cli->options.second_executor = true;
  // And under the oracle executor on a sample of the work-groups wherever
  // the isa executor runs them (sim/oracle/oracle.h).
  cli->options.oracle = "sample";
  for (int i = 1; i < argc && exit_code == RL_EXIT_OK; ++i) {
    const char* arg = argv[i];
    arms_given |= rl_cli_is(arg, "--arms");
    if (rl_cli_is(arg, "--verbose") || rl_cli_is(arg, "-v")) {
      cli->verbose = true;
    } else if (rl_cli_is(arg, "--no-second-executor")) {
      cli->options.second_executor = false;
    } else if (rl_shadow_takes_value(arg) && i + 1 < argc) {
      exit_code = rl_shadow_parse_value(cli, arg, argv[++i]);
    } else if (rl_shadow_cli_flag(arg, &cli->options)) {
      continue;
    } else if (arg[0] != '-' && !cli->path) {
      cli->path = arg;
    } else {
      return rl_cli_usage("shadow: unknown or incomplete option '%s'", arg);
    }
  }
  if (exit_code != RL_EXIT_OK) return exit_code;
  if (!cli->path) return rl_cli_usage("shadow: missing capture FILE");
  rl_shadow_cli_device_arms(&cli->options, arms_given, false);
  return RL_EXIT_OK;
}

// Options that name capture objects, resolved once the capture is read.
static int rl_shadow_resolve(rl_shadow_cli_t* cli, const rl_capture_t* capture) {
  if (cli->flip) {
    int exit_code = rl_shadow_cli_flip("shadow", cli->flip, capture,
                                       &cli->options);
    if (exit_code != RL_EXIT_OK) return exit_code;
  }
  for (uint32_t i = 0; i < cli->bind_count; ++i) {
    int exit_code = rl_shadow_cli_bind("shadow", cli->binds[i], capture,
                                       &cli->options);
    if (exit_code != RL_EXIT_OK) return exit_code;
  }
  return RL_EXIT_OK;
}

int rl_cli_shadow_capture(const rl_capture_t* capture,
                          const rl_shadow_options_t* options, bool verbose,
                          const char* json_path, const char* context,
                          char* out_reason, size_t reason_size) {
  rl_shadow_options_t run_options = *options;
  run_options.device.hip_arm = rl_shadow_hip_arm_create;
  rl_progress_t progress;
  rl_progress_init(&progress, "shadow");
  run_options.progress = rl_progress_callback;
  run_options.progress_user = &progress;
  rl_shadow_result_t* result = NULL;
  rl_status_t status = rl_shadow_run(capture, &run_options, &result);
  rl_progress_finish(&progress);
  if (status) return rl_cli_fail(status, context);
  char* text = verbose ? rl_shadow_report_text(result)
                       : rl_shadow_report_summary(result);
  if (text) fputs(text, stdout);
  free(text);
  int exit_code = rl_exit_code_of(rl_shadow_result_code(result));
  if (out_reason) snprintf(out_reason, reason_size, "%s", result->reason);
  // The report on stdout says why; errors also go to stderr, so a failing
  // arm (out of memory, contract...) never exits silently.
  if (exit_code != RL_EXIT_OK) {
    fprintf(stderr, "redline: %s: shadow: FAIL (%s)\n", context,
            result->reason);
  }
  if (json_path) {
    status = rl_cli_write_json(rl_shadow_report_json(result), json_path);
    if (status) exit_code = rl_cli_fail(status, "shadow --json");
  }
  rl_shadow_result_destroy(result);
  return exit_code;
}

int rl_cmd_shadow(int argc, char** argv) {
  rl_shadow_cli_t cli;
  int exit_code = rl_shadow_parse(argc, argv, &cli);
  if (exit_code != RL_EXIT_OK) return exit_code;
  rl_status_t status = rl_cli_check_output(cli.json, &cli.path, 1);
  if (status) return rl_cli_fail(status, "shadow --json");
  rl_capture_t* capture = NULL;
  status = rl_capture_file_read_limited(cli.path, &cli.options.limits,
                                        &capture, NULL);
  if (status) return rl_cli_fail(status, "shadow");  // names the path
  exit_code = rl_shadow_resolve(&cli, capture);
  rl_shadow_cli_hip_default(&cli.options);
  rl_trace_t* trace = NULL;
  if (exit_code == RL_EXIT_OK) {
    exit_code = rl_cli_trace_open("shadow", cli.trace, &cli.path, 1, &trace);
  }
  if (exit_code == RL_EXIT_OK) {
    cli.options.trace = trace;
    exit_code = rl_cli_shadow_capture(capture, &cli.options, cli.verbose,
                                      cli.json, cli.path,
                                      NULL, 0);
    exit_code = rl_cli_trace_close("shadow", trace, cli.trace, exit_code);
  }
  rl_capture_destroy(capture);
  return exit_code;
}
