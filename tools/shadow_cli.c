// Option parsing shared by shadow, bench and demo (tools/shadow_cli.h).
#include "tools/shadow_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/cli_limits.h"

static int rl_shadow_cli_status_usage(const char* command, rl_status_t status) {
  int code = rl_cli_usage("%s: %s", command, rl_status_message(status));
  rl_status_free(status);
  return code;
}

bool rl_shadow_cli_flag(const char* flag, rl_shadow_options_t* options) {
  if (rl_cli_is(flag, "--no-sim-reference")) {
    options->no_sim_reference = true;
    return true;
  }
  if (!rl_cli_is(flag, "--no-hazard-check")) return false;
  options->no_hazard_check = true;
  return true;
}

bool rl_shadow_cli_option(const char* command, const char* flag,
                          const char* value, rl_shadow_options_t* options,
                          int* out_exit) {
  *out_exit = RL_EXIT_OK;
  if (rl_cli_limits_option(command, flag, value, &options->limits, out_exit)) {
    return true;
  }
  rl_status_t status = RL_OK;
  if (rl_cli_is(flag, "--arms")) {
    status = rl_shadow_arms_parse(value, options->arms, &options->arm_count);
  } else if (rl_cli_is(flag, "--windows")) {
    status = rl_shadow_window_parse(value, &options->window);
    options->has_window = !status;
    if (status) {
      *out_exit = rl_cli_usage("%s: --windows %s", command,
                               rl_status_message(status));
      rl_status_free(status);
      return true;
    }
  } else if (rl_cli_is_processor_flag(flag)) {
    options->device.processor = value;
    *out_exit = rl_cli_processor(command, flag, value);
  } else if (rl_cli_is(flag, "--hazards")) {
    options->device.adversarial = strcmp(value, "adversarial") == 0;
    if (!options->device.adversarial && strcmp(value, "sequential") != 0) {
      *out_exit = rl_cli_usage("%s: --hazards expects sequential or "
                               "adversarial, got '%s'", command, value);
    }
  } else if (rl_cli_is(flag, "--device")) {
    options->device.kind = value;
    if (strcmp(value, "sim") != 0 && strcmp(value, "rocr") != 0 &&
        strcmp(value, "drm") != 0) {
      *out_exit = rl_cli_usage("%s: --device expects sim, rocr or drm, got "
                               "'%s'", command, value);
    }
  } else if (rl_cli_is(flag, "--executor")) {
    options->device.executor = value;
    if (strcmp(value, "ref") != 0 && strcmp(value, "isa") != 0) {
      *out_exit = rl_cli_usage("%s: --executor expects ref or isa, got '%s'",
                               command, value);
    }
  } else if (rl_cli_is(flag, "--seed")) {
    *out_exit = rl_cli_number_u64(command, flag, value, 0, UINT64_MAX,
                                  &options->device.seed);
  } else if (rl_cli_is(flag, "--adversarial-seeds")) {
    uint64_t seeds = 0;
    *out_exit = rl_cli_number_u64(command, flag, value, 0, 4, &seeds);
    options->adversarial_seeds = (uint32_t)seeds;
  } else if (rl_cli_is(flag, "--cache-model")) {
    options->device.cache_model = value;
    *out_exit = rl_cli_cache_model(command, value);
  } else if (rl_cli_is(flag, "--sim-threads")) {
    *out_exit = rl_cli_sim_threads(command, flag, value);
  } else {
    return false;
  }
  if (status) *out_exit = rl_shadow_cli_status_usage(command, status);
  return true;
}

// Splits |text| at the last |separator| into a NUL-terminated name in
// |name| and the number after it (base/number.h), which must lie in
// [|min|, UINT64_MAX]. Prints the usage error naming |flag| and |syntax|.
static int rl_shadow_cli_split(const char* command, const char* flag,
                               const char* syntax, const char* text,
                               char separator, char* name, size_t name_size,
                               uint64_t min, uint64_t* out_number) {
  const char* split = strrchr(text, separator);
  size_t length = split ? (size_t)(split - text) : 0;
  if (!split || length == 0 || length >= name_size) {
    return rl_cli_usage("%s: %s expects %s, got '%s'", command, flag, syntax,
                        text);
  }
  memcpy(name, text, length);
  name[length] = '\0';
  return rl_cli_number_u64(command, flag, split + 1, min, UINT64_MAX,
                           out_number);
}

int rl_shadow_cli_flip(const char* command, const char* text,
                       const rl_capture_t* capture,
                       rl_shadow_options_t* options) {
  char name[RL_CAPTURE_NAME_MAX];
  uint64_t offset = 0;
  int exit_code = rl_shadow_cli_split(command, "--flip-byte", "REGION:OFFSET",
                                      text, ':', name, sizeof(name), 0,
                                      &offset);
  if (exit_code != RL_EXIT_OK) return exit_code;
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    if (strcmp(capture->regions[r].name, name) != 0) continue;
    options->flip = true;
    options->flip_region = r;
    options->flip_offset = offset;
    return RL_EXIT_OK;
  }
  return rl_cli_usage("%s: --flip-byte: the capture has no region '%s'",
                      command, name);
}

int rl_shadow_cli_bind(const char* command, const char* text,
                       const rl_capture_t* capture,
                       rl_shadow_options_t* options) {
  char name[RL_CAPTURE_NAME_MAX];
  uint64_t size = 0;
  uint32_t buffer = 0;
  int exit_code = rl_shadow_cli_split(command, "--bind", "BUFFER=BYTES", text,
                                      '=', name, sizeof(name), 1, &size);
  if (exit_code != RL_EXIT_OK) return exit_code;
  if (!rl_capture_find_buffer(capture, name, &buffer)) {
    return rl_cli_usage("%s: --bind: the capture has no buffer '%s'", command,
                        name);
  }
  if (options->bind_count == RL_SHADOW_MAX_BINDS) {
    return rl_cli_usage("%s: more than %u --bind options", command,
                        RL_SHADOW_MAX_BINDS);
  }
  options->binds[options->bind_count++] =
      (rl_shadow_bind_t){.buffer = buffer, .size = size};
  return RL_EXIT_OK;
}

void rl_shadow_cli_device_arms(rl_shadow_options_t* options, bool arms_given,
                               bool bench) {
  const char* kind = options->device.kind;
  if (arms_given || !kind || strcmp(kind, "sim") == 0) return;
  const char* arms = strcmp(kind, "drm") == 0 ? RL_SHADOW_CLI_DRM_ARMS
                     : bench                  ? RL_SHADOW_CLI_ROCR_BENCH_ARMS
                                              : RL_SHADOW_CLI_ROCR_ARMS;
  rl_status_free(rl_shadow_arms_parse(arms, options->arms, &options->arm_count));
}

void rl_shadow_cli_hip_default(const rl_shadow_options_t* options) {
  const char* kind = options->device.kind;
  if (kind && strcmp(kind, "sim") != 0) return;  // the GPU's own HIP
  char hip_sim[4096 + 32];
  snprintf(hip_sim, sizeof(hip_sim), "%s/libamdhip64.so.6",
           rl_cli_private_dir());
  if (access(hip_sim, R_OK) == 0) setenv("REDLINE_HIP_LIBRARY", hip_sim, 0);
}
