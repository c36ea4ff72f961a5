// `redline infer STEP0 STEP1 ... [--positions P0,P1,...]
// [--position-limit N] [--allow-holdout-miss] -o FILE`: binding inference over K single-step capture files
// (capture/recording/step_infer.h, docs/binding-inference.md). Prints what was
// inferred, the held-out verdict and each parameter's per-step values, and
// writes the merged capture.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/recording/step_infer.h"
#include "redline/capture_file.h"
#include "tools/cli.h"

#define RL_INFER_MAX_STEPS 64

// Parses "P0,P1,..." into |out| (|count| values expected).
static int rl_infer_parse_positions(const char* text, uint32_t count,
                                    int64_t* out) {
  char copy[1024];
  if (strlen(text) >= sizeof(copy)) {
    return rl_cli_usage("infer: --positions is too long");
  }
  snprintf(copy, sizeof(copy), "%s", text);
  uint32_t n = 0;
  char* save = NULL;
  for (char* item = strtok_r(copy, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    if (n == count) break;
    int code = rl_cli_number_i64("infer", "--positions", item, 0, INT64_MAX,
                                 &out[n++]);
    if (code != RL_EXIT_OK) return code;
  }
  if (n != count || strtok_r(NULL, ",", &save)) {
    return rl_cli_usage("infer: --positions needs one value per step (%u)",
                        count);
  }
  return RL_EXIT_OK;
}

int rl_cmd_infer(int argc, char** argv) {
  const char* inputs[RL_INFER_MAX_STEPS];
  uint32_t count = 0;
  const char* output = NULL;
  const char* positions_text = NULL;
  bool allow_miss = false;
  int64_t limit = 0;
  for (int i = 1; i < argc; ++i) {
    if (rl_cli_is(argv[i], "-o") && i + 1 < argc) {
      output = argv[++i];
    } else if (rl_cli_is(argv[i], "--positions") && i + 1 < argc) {
      positions_text = argv[++i];
    } else if (rl_cli_is(argv[i], "--position-limit") && i + 1 < argc) {
      int code = rl_cli_number_i64("infer", "--position-limit", argv[++i], 1,
                                   INT64_MAX, &limit);
      if (code != RL_EXIT_OK) return code;
    } else if (rl_cli_is(argv[i], "--allow-holdout-miss")) {
      allow_miss = true;
    } else if (argv[i][0] == '-') {
      return rl_cli_usage("infer: unknown option %s", argv[i]);
    } else if (count == RL_INFER_MAX_STEPS) {
      return rl_cli_usage("infer: more than %d steps", RL_INFER_MAX_STEPS);
    } else {
      inputs[count++] = argv[i];
    }
  }
  if (count < 2 || !output) {
    return rl_cli_usage("infer: expected at least two step captures and -o "
                        "FILE");
  }
  rl_status_t status = rl_cli_check_output(output, inputs, count);
  if (status) return rl_cli_fail(status, "infer");
  int64_t positions[RL_INFER_MAX_STEPS];
  if (positions_text) {
    int code = rl_infer_parse_positions(positions_text, count, positions);
    if (code != RL_EXIT_OK) return code;
  }
  rl_capture_t* steps[RL_INFER_MAX_STEPS] = {0};
  for (uint32_t k = 0; k < count && !status; ++k) {
    status = rl_capture_file_read(inputs[k], &steps[k], NULL);
  }
  rl_step_infer_result_t result = {0};
  if (!status) {
    rl_step_infer_options_t options = {
        .positions = positions_text ? positions : NULL,
        .allow_holdout_miss = allow_miss,
        .position_limit = limit};
    status = rl_step_infer(steps, count, &options, &result);
    if (result.holdout_line[0]) printf("%s\n", result.holdout_line);
  }
  if (!status) {
    printf("%s\n", result.message);
    const rl_capture_t* c = result.capture;
    for (uint32_t p = 0; p < c->param_count; ++p) {
      printf("  %-8s admitted [%lld, %lld), per step:", c->params[p].name,
             (long long)c->params[p].min, (long long)c->params[p].max);
      for (uint32_t k = 0; k < count; ++k) {
        printf(" %lld", (long long)result.values[k * result.param_count + p]);
      }
      printf("\n");
    }
    status = rl_capture_file_write(c, output, NULL);
  }
  rl_step_infer_result_free(&result);
  for (uint32_t k = 0; k < count; ++k) rl_capture_destroy(steps[k]);
  return status ? rl_cli_fail(status, "infer") : RL_EXIT_OK;
}
