// Budget options of the commands that read captures (tools/cli_limits.h).
#include "tools/cli_limits.h"

#include <string.h>

#include "base/number.h"
#include "tools/cli.h"

bool rl_cli_limits_is_flag(const char* flag) {
  static const char* const flags[] = {
      "--max-decompressed", "--max-device-memory", "--max-work-items",
      "--max-dispatches",   "--max-windows",       "--max-regions",
      "--max-bindings",     "--timeout-ms"};
  for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); ++i) {
    if (rl_cli_is(flag, flags[i])) return true;
  }
  return false;
}

// A positive number with an optional binary K/M/G suffix.
static bool rl_cli_limits_parse(const char* text, uint64_t* out_value) {
  rl_status_t status = rl_number_parse_size(text, out_value);
  rl_status_free(status);
  return status == RL_OK;
}

bool rl_cli_limits_option(const char* command, const char* flag,
                          const char* value, rl_limits_t* limits,
                          int* out_exit) {
  *out_exit = RL_EXIT_OK;
  if (!rl_cli_limits_is_flag(flag)) return false;
  uint64_t number = 0;
  const bool is_count =
      rl_cli_is(flag, "--max-dispatches") || rl_cli_is(flag, "--max-windows") ||
      rl_cli_is(flag, "--max-regions") || rl_cli_is(flag, "--max-bindings");
  if (!rl_cli_limits_parse(value, &number) ||
      (is_count && number > UINT32_MAX) ||
      (rl_cli_is(flag, "--timeout-ms") && number > UINT64_MAX / 1000000ull)) {
    *out_exit = rl_cli_usage("%s: %s expects a positive number, got '%s'",
                             command, flag, value);
    return true;
  }
  if (rl_cli_is(flag, "--max-decompressed")) {
    limits->max_decompressed_bytes = number;
  } else if (rl_cli_is(flag, "--max-device-memory")) {
    limits->max_device_bytes = number;
  } else if (rl_cli_is(flag, "--max-work-items")) {
    limits->max_work_items = number;
  } else if (rl_cli_is(flag, "--max-windows")) {
    limits->max_windows = (uint32_t)number;
  } else if (rl_cli_is(flag, "--max-regions")) {
    limits->max_regions = (uint32_t)number;
  } else if (rl_cli_is(flag, "--max-bindings")) {
    limits->max_bindings = (uint32_t)number;
  } else if (is_count) {
    limits->max_dispatches = (uint32_t)number;
  } else {
    limits->wait_timeout_ns = number * 1000000ull;
  }
  return true;
}
