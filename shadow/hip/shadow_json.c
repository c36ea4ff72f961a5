// The JSON entry points of shadow and bench (redline/shadow_json.h): parse
// the options onto rl_shadow_options_t / rl_bench_options_t, run, and
// print the report the CLI's --json writes. It sits with the HIP arms
// (shadow/hip/) so that the library offers every arm the CLI does.
#include "redline/shadow_json.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "sim/oracle/oracle.h"
#include "shadow/bench.h"
#include "shadow/hip/shadow_hip.h"
#include "shadow/shadow.h"

typedef struct rl_shadow_json_options_s {
  rl_shadow_options_t shadow;
  uint32_t rounds;
} rl_shadow_json_options_t;

static rl_status_t rl_shadow_json_string(const cJSON* item, const char** out) {
  if (!cJSON_IsString(item)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "options: \"%s\" expects a string", item->string);
  }
  *out = item->valuestring;
  return RL_OK;
}

static rl_status_t rl_shadow_json_number(const cJSON* item, double max,
                                         double* out) {
  if (!cJSON_IsNumber(item) || item->valuedouble < 0 ||
      item->valuedouble > max) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "options: \"%s\" expects a number in [0, %.0f]",
                     item->string, max);
  }
  *out = item->valuedouble;
  return RL_OK;
}

// Applies one key of the options object. String values point into the
// cJSON tree, which outlives the run.
static rl_status_t rl_shadow_json_key(const cJSON* item,
                                      rl_shadow_json_options_t* options) {
  rl_shadow_options_t* shadow = &options->shadow;
  const char* text = NULL;
  double number = 0;
  const char* key = item->string;
  if (strcmp(key, "arms") == 0) {
    RL_RETURN_IF_ERROR(rl_shadow_json_string(item, &text));
    return rl_shadow_arms_parse(text, shadow->arms, &shadow->arm_count);
  }
  if (strcmp(key, "windows") == 0) {
    RL_RETURN_IF_ERROR(rl_shadow_json_string(item, &text));
    shadow->has_window = true;
    return rl_shadow_window_parse(text, &shadow->window);
  }
  if (strcmp(key, "processor") == 0) {
    return rl_shadow_json_string(item, &shadow->device.processor);
  }
  if (strcmp(key, "device") == 0) {  // sim, rocr or drm (shadow.h Devices)
    return rl_shadow_json_string(item, &shadow->device.kind);
  }
  if (strcmp(key, "no_sim_reference") == 0 && cJSON_IsBool(item)) {
    shadow->no_sim_reference = cJSON_IsTrue(item);
    return RL_OK;
  }
  if (strcmp(key, "executor") == 0) {
    return rl_shadow_json_string(item, &shadow->device.executor);
  }
  if (strcmp(key, "oracle") == 0) {  // the CLI's --oracle
    RL_RETURN_IF_ERROR(rl_shadow_json_string(item, &text));
    rl_oracle_mode_t mode;
    if (!rl_oracle_mode_parse(text, &mode)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "options: \"oracle\" '%s': expected sample, full or "
                       "off",
                       text);
    }
    shadow->oracle = text;
    return RL_OK;
  }
  if (strcmp(key, "adversarial") == 0 && cJSON_IsBool(item)) {
    shadow->device.adversarial = cJSON_IsTrue(item);
    return RL_OK;
  }
  if (strcmp(key, "seed") == 0) {
    RL_RETURN_IF_ERROR(rl_shadow_json_number(item, 9007199254740991.0, &number));
    shadow->device.seed = (uint64_t)number;
    return RL_OK;
  }
  if (strcmp(key, "timeout_ms") == 0) {  // the CLI's --timeout-ms
    RL_RETURN_IF_ERROR(rl_shadow_json_number(item, 18446744073709.0, &number));
    if (number < 1) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "options: timeout_ms >= 1");
    }
    shadow->limits.wait_timeout_ns = (uint64_t)number * 1000000u;
    return RL_OK;
  }
  if (strcmp(key, "arm_jobs") == 0) {  // the CLI's --arm-jobs (shadow only)
    RL_RETURN_IF_ERROR(
        rl_shadow_json_number(item, (double)RL_SHADOW_MAX_ARMS, &number));
    if (number < 1) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "options: arm_jobs >= 1");
    }
    shadow->arm_jobs = (uint32_t)number;
    return RL_OK;
  }
  if (strcmp(key, "rounds") == 0) {
    RL_RETURN_IF_ERROR(rl_shadow_json_number(item, 1000000.0, &number));
    if (number < 1) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "options: rounds >= 1");
    }
    options->rounds = (uint32_t)number;
    return RL_OK;
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "options: unknown or mistyped key \"%s\"", key);
}

// What both JSON entry points do first: checks |out_report| (cleared) and
// |capture|, then parses |text| into a cJSON tree (*|out_root|, the caller
// deletes it) and |options|, starting from |default_arms|.
static rl_status_t rl_shadow_json_begin(const rl_capture_t* capture,
                                        const char* text,
                                        const char* default_arms,
                                        char** out_report, cJSON** out_root,
                                        rl_shadow_json_options_t* options) {
  memset(options, 0, sizeof(*options));
  *out_root = NULL;
  if (!out_report) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "out_report is NULL");
  }
  *out_report = NULL;
  if (!capture) return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "capture is NULL");
  options->rounds = 5;
  options->shadow.device.hip_arm = rl_shadow_hip_arm_create;
  // As the CLI: the oracle executor checks a sample of the work-groups
  // wherever the isa executor runs them (sim/oracle/oracle.h).
  options->shadow.oracle = "sample";
  RL_RETURN_IF_ERROR(rl_shadow_arms_parse(default_arms, options->shadow.arms,
                                          &options->shadow.arm_count));
  if (!text || !text[0]) return RL_OK;
  cJSON* root = cJSON_Parse(text);
  if (!cJSON_IsObject(root)) {
    cJSON_Delete(root);
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "options: expected a JSON object, got '%.64s'", text);
  }
  *out_root = root;
  const cJSON* item = NULL;
  cJSON_ArrayForEach(item, root) {
    RL_RETURN_IF_ERROR(rl_shadow_json_key(item, options));
  }
  return RL_OK;
}

// Adds the result's status code (number and name) to |report|, prints it
// into *|out_report| and deletes it.
static rl_status_t rl_shadow_json_finish(cJSON* report, rl_status_code_t code,
                                         char** out_report) {
  if (!report) return rl_status_out_of_memory();
  cJSON_AddNumberToObject(report, "code", (double)code);
  cJSON_AddStringToObject(report, "code_name", rl_status_code_name(code));
  *out_report = cJSON_PrintUnformatted(report);
  cJSON_Delete(report);
  return *out_report ? RL_OK : rl_status_out_of_memory();
}

rl_status_t rl_shadow_run_json(const rl_capture_t* capture,
                               const char* options_json, char** out_report) {
  rl_shadow_json_options_t options;
  cJSON* root = NULL;
  rl_status_t status =
      rl_shadow_json_begin(capture, options_json, RL_SHADOW_DEFAULT_ARMS,
                           out_report, &root, &options);
  rl_shadow_result_t* result = NULL;
  if (!status) status = rl_shadow_run(capture, &options.shadow, &result);
  if (!status) {
    status = rl_shadow_json_finish(rl_shadow_report_json(result),
                                   rl_shadow_result_code(result), out_report);
  }
  rl_shadow_result_destroy(result);
  cJSON_Delete(root);
  return status;
}

rl_status_t rl_bench_run_json(const rl_capture_t* capture,
                              const char* options_json, char** out_report) {
  rl_shadow_json_options_t options;
  cJSON* root = NULL;
  rl_status_t status = rl_shadow_json_begin(
      capture, options_json, "eager,aql,pm4", out_report, &root, &options);
  rl_bench_result_t* result = NULL;
  if (!status) {
    rl_bench_options_t bench = {.arm_count = options.shadow.arm_count,
                                .has_window = options.shadow.has_window,
                                .window = options.shadow.window,
                                .rounds = options.rounds,
                                .device = options.shadow.device};
    memcpy(bench.arms, options.shadow.arms, sizeof(bench.arms));
    status = rl_bench_run(capture, &bench, &result);
  }
  if (!status) {
    status = rl_shadow_json_finish(rl_bench_report_json(result),
                                   rl_bench_result_code(result), out_report);
  }
  rl_bench_result_destroy(result);
  cJSON_Delete(root);
  return status;
}

void rl_json_free(char* text) { free(text); }
