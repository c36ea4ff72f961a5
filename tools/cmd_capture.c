// `redline capture --workload NAME [--processor GFX] [--param NAME=VALUE]...
// [--config NAME=VALUE]... [--layers N] [--device sim|rocr|hip|none]
// [--executor ref|isa] [--no-contents] -o FILE`: records a registered
// workload through the capture funnel and writes a self-contained capture
// file. On a device (sim by default, or rocr) the recording is also an
// eager run: every launch executes — on the sim with the reference
// executor unless --executor isa; `none` records without executing.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/workloads/workload.h"
#include "redline/backends/hip_funnel.h"
#include "redline/capture_file.h"
#include "redline/funnel.h"
#include "redline/replay.h"
#include "tools/cli.h"

#define RL_CAPTURE_MAX_VALUES 16

// NAME=VALUE pairs given with --param or --config.
typedef struct rl_capture_values_s {
  uint32_t count;
  rl_workload_param_value_t values[RL_CAPTURE_MAX_VALUES];
  char names[RL_CAPTURE_MAX_VALUES][64];
} rl_capture_values_t;

typedef struct rl_capture_cli_s {
  const char* workload;
  const char* target;
  const char* device;    // "sim", "rocr", "hip" or "none"
  const char* executor;  // sim: "ref" (NULL) or "isa"
  const char* output;
  bool omit_contents;
  bool list;
  rl_capture_values_t params;
  rl_capture_values_t config;
} rl_capture_cli_t;

// Appends |name|=|value_text| to |values|; |flag| names the option in errors.
static int rl_capture_add_value(rl_capture_values_t* values, const char* flag,
                                const char* name, size_t name_length,
                                const char* value_text) {
  if (name_length == 0 || name_length >= sizeof(values->names[0])) {
    return rl_cli_usage("capture: %s expects NAME=VALUE", flag);
  }
  if (values->count == RL_CAPTURE_MAX_VALUES) {
    return rl_cli_usage("capture: more than %d %s values",
                        RL_CAPTURE_MAX_VALUES, flag);
  }
  rl_workload_param_value_t* value = &values->values[values->count];
  char* copy = values->names[values->count];
  memcpy(copy, name, name_length);
  copy[name_length] = '\0';
  // The workload checks the admitted range and names the entry (exit 2).
  char option[96];
  snprintf(option, sizeof(option), "%s %s", flag, copy);
  int exit_code = rl_cli_number_i64("capture", option, value_text, INT64_MIN,
                                    INT64_MAX, &value->value);
  if (exit_code != RL_EXIT_OK) return exit_code;
  value->name = copy;
  ++values->count;
  return RL_EXIT_OK;
}

// Parses "NAME=VALUE" given with |flag| into |values|.
static int rl_capture_parse_pair(rl_capture_values_t* values, const char* flag,
                                 const char* text) {
  const char* equals = strchr(text, '=');
  if (!equals) {
    return rl_cli_usage("capture: %s expects NAME=VALUE, got '%s'", flag, text);
  }
  return rl_capture_add_value(values, flag, text, (size_t)(equals - text),
                              equals + 1);
}

static int rl_capture_parse(int argc, char** argv, rl_capture_cli_t* cli) {
  memset(cli, 0, sizeof(*cli));
  cli->target = "gfx1100";
  cli->device = "sim";
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    bool has_value = i + 1 < argc;
    int exit_code = RL_EXIT_OK;
    if (rl_cli_is(arg, "--list")) {
      cli->list = true;
    } else if (rl_cli_is(arg, "--no-contents")) {
      cli->omit_contents = true;
    } else if (has_value && rl_cli_is(arg, "--workload")) {
      cli->workload = argv[++i];
    } else if (has_value && rl_cli_is_processor_flag(arg)) {
      cli->target = argv[++i];
      exit_code = rl_cli_processor("capture", arg, cli->target);
    } else if (has_value && rl_cli_is(arg, "--executor")) {
      cli->executor = argv[++i];
    } else if (has_value && rl_cli_is(arg, "--device")) {
      cli->device = argv[++i];
    } else if (has_value && (rl_cli_is(arg, "-o") || rl_cli_is(arg, "--output"))) {
      cli->output = argv[++i];
    } else if (has_value && rl_cli_is(arg, "--param")) {
      exit_code = rl_capture_parse_pair(&cli->params, "--param", argv[++i]);
    } else if (has_value && rl_cli_is(arg, "--config")) {
      exit_code = rl_capture_parse_pair(&cli->config, "--config", argv[++i]);
    } else if (has_value && rl_cli_is(arg, "--layers")) {
      exit_code = rl_capture_add_value(&cli->config, "--layers", "layers", 6,
                                       argv[++i]);
    } else {
      return rl_cli_usage("capture: unknown or incomplete option '%s'", arg);
    }
    if (exit_code != RL_EXIT_OK) return exit_code;
  }
  if (cli->list) return RL_EXIT_OK;
  if (!cli->workload) return rl_cli_usage("capture: missing --workload NAME");
  if (!cli->output) return rl_cli_usage("capture: missing -o FILE");
  if (strcmp(cli->device, "sim") != 0 && strcmp(cli->device, "none") != 0 &&
      strcmp(cli->device, "rocr") != 0 && strcmp(cli->device, "hip") != 0) {
    return rl_cli_usage("capture: --device expects sim, rocr, hip or none, got '%s'",
                        cli->device);
  }
  if (!rl_workload_find(cli->workload)) {
    return rl_cli_usage("capture: unknown workload '%s' (see --list)",
                        cli->workload);
  }
  return RL_EXIT_OK;
}

static void rl_capture_list(void) {
  for (uint32_t i = 0; i < rl_workload_count(); ++i) {
    const rl_workload_t* workload = rl_workload_at(i);
    printf("%-12s %s\n", workload->name, workload->description);
    for (uint32_t p = 0; p < workload->param_count; ++p) {
      const rl_workload_param_t* param = &workload->params[p];
      printf("  --param %s=N  %s; admitted [%lld, %lld), default %lld\n",
             param->name, param->description, (long long)param->min,
             (long long)param->max, (long long)param->default_value);
    }
    for (uint32_t c = 0; c < workload->config_count; ++c) {
      const rl_workload_param_t* entry = &workload->config[c];
      printf("  --config %s=N  %s; admitted [%lld, %lld), default %lld\n",
             entry->name, entry->description, (long long)entry->min,
             (long long)entry->max, (long long)entry->default_value);
    }
  }
}

// Records |workload| into *|out_capture| on the device |cli| names: the
// simulated GPU for |cli->target| running the reference kernels, or the
// record-only device.
static rl_status_t rl_capture_record(const rl_capture_cli_t* cli,
                                     const rl_workload_t* workload,
                                     const rl_workload_options_t* options,
                                     rl_capture_t** out_capture) {
  rl_device_t* target_device = NULL;
  rl_funnel_device_t device = {0};
  rl_status_t status = RL_OK;
  if (strcmp(cli->device, "none") == 0) {
    status = rl_funnel_null_device_create(&device);
  } else if (strcmp(cli->device, "hip") == 0) {
    status = rl_hip_funnel_create(NULL, &device);
  } else {
    // An eager run: every launch executes on the device (sim or GPU).
    const rl_device_options_t device_options = {
        .kind = cli->device,
        .processor = cli->target,
        .executor = cli->executor,
    };
    status = rl_device_open(&device_options, &target_device);
    if (!status) status = rl_device_funnel_device_create(target_device, &device);
  }
  rl_funnel_t* funnel = NULL;
  if (!status) status = rl_funnel_create(workload->name, &device, &funnel);
  if (!status) status = workload->record(funnel, options);
  if (!status) status = rl_funnel_finish(funnel, out_capture);
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&device);
  rl_device_close(target_device);
  return status;
}

static int rl_capture_run(const rl_capture_cli_t* cli) {
  const rl_workload_t* workload = rl_workload_find(cli->workload);
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s-%s.co", rl_cli_kernels_dir(),
           workload->code_object, cli->target);
  const char* input = path;
  rl_status_t status = rl_cli_check_output(cli->output, &input, 1);
  if (status) return rl_cli_fail(status, "capture -o");
  uint8_t* code = NULL;
  size_t code_size = 0;
  status = rl_cli_read_file(path, &code, &code_size);
  if (status) {
    return rl_cli_fail(
        rl_status_annotate(status, "no code object for target %s", cli->target),
        "capture");
  }
  rl_workload_options_t options = {
      .code_object = code,
      .code_object_size = code_size,
      .seed = 1,
      .params = cli->params.values,
      .param_count = cli->params.count,
      .config = cli->config.values,
      .config_count = cli->config.count,
  };
  rl_capture_t* capture = NULL;
  status = rl_capture_record(cli, workload, &options, &capture);
  free(code);
  // Parameter errors are usage errors (exit 2); the rest name the workload.
  if (status) return rl_cli_fail(status, workload->name);
  rl_capture_write_options_t write_options = {.omit_contents =
                                                  cli->omit_contents};
  status = rl_capture_file_write(capture, cli->output, &write_options);
  if (!status) {
    fprintf(stderr, "redline: captured %s (%u launches%s%s) into %s\n",
            workload->name, capture->launch_count,
            strcmp(cli->device, "none") != 0 ? ", executed on " : "",
            strcmp(cli->device, "none") != 0 ? cli->device : "", cli->output);
  }
  rl_capture_destroy(capture);
  return status ? rl_cli_fail(status, "capture") : RL_EXIT_OK;
}

int rl_cmd_capture(int argc, char** argv) {
  rl_capture_cli_t cli;
  int exit_code = rl_capture_parse(argc, argv, &cli);
  if (exit_code != RL_EXIT_OK) return exit_code;
  if (cli.list) {
    rl_capture_list();
    return RL_EXIT_OK;
  }
  return rl_capture_run(&cli);
}
