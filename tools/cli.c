// Shared CLI plumbing (tools/cli.h).
#include "tools/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"
#include "base/file.h"
#include "base/number.h"
#include "base/output_file.h"
#include "sim/sim_executor.h"

rl_status_t rl_cli_read_file(const char* path, uint8_t** out_data,
                             size_t* out_size) {
  return rl_file_read_regular(path, out_data, out_size);
}

int rl_cli_fail(rl_status_t status, const char* context) {
  if (context && context[0]) {
    fprintf(stderr, "redline: %s: %s\n", context, rl_status_message(status));
  } else {
    fprintf(stderr, "redline: %s\n", rl_status_message(status));
  }
  int code = rl_exit_code_of(rl_status_code(status));
  rl_status_free(status);
  return code;
}

int rl_cli_usage(const char* format, ...) {
  va_list args;
  va_start(args, format);
  fputs("redline: ", stderr);
  vfprintf(stderr, format, args);
  fputs("\n(see `redline help`)\n", stderr);
  va_end(args);
  return RL_EXIT_USAGE;
}

int rl_cli_print_json(cJSON* root) {
  char* text = root ? cJSON_Print(root) : NULL;
  cJSON_Delete(root);
  if (!text) {
    fputs("redline: out of memory while printing JSON\n", stderr);
    return RL_EXIT_UNAVAILABLE;
  }
  puts(text);
  free(text);
  return RL_EXIT_OK;
}

rl_status_t rl_cli_write_json(cJSON* root, const char* path) {
  char* text = root ? cJSON_Print(root) : NULL;
  cJSON_Delete(root);
  if (!text) return rl_status_out_of_memory();
  size_t length = strlen(text);
  text[length] = '\n';  // cJSON_Print's terminator becomes the last line's end
  // Text already printed must come first when |path| is /dev/stdout.
  fflush(NULL);
  rl_status_t status = rl_output_file_write(path, text, length + 1);
  free(text);
  return status;
}

rl_status_t rl_cli_check_output(const char* output_path,
                                const char* const* input_paths,
                                size_t input_count) {
  for (size_t i = 0; i < input_count; ++i) {
    RL_RETURN_IF_ERROR(
        rl_output_file_check_not_input(output_path, input_paths[i]));
  }
  return RL_OK;
}

bool rl_cli_is(const char* arg, const char* flag) {
  return arg && strcmp(arg, flag) == 0;
}

// Reports |status| from parsing |flag| of |command| as a usage error.
static int rl_cli_number_usage(const char* command, const char* flag,
                               rl_status_t status) {
  int code = rl_cli_usage("%s: %s: %s", command, flag,
                          rl_status_message(status));
  rl_status_free(status);
  return code;
}

int rl_cli_number_u64(const char* command, const char* flag, const char* text,
                      uint64_t min, uint64_t max, uint64_t* out_value) {
  rl_status_t status = rl_number_parse_u64_in(text, min, max, out_value);
  return status ? rl_cli_number_usage(command, flag, status) : RL_EXIT_OK;
}

int rl_cli_number_i64(const char* command, const char* flag, const char* text,
                      int64_t min, int64_t max, int64_t* out_value) {
  rl_status_t status = rl_number_parse_i64_in(text, min, max, out_value);
  return status ? rl_cli_number_usage(command, flag, status) : RL_EXIT_OK;
}

// The processors the simulated device and the rocr and drm devices run
// (redline/replay.h, rl_device_options_t.processor).
const char* const rl_cli_processors[] = {"gfx1100", "gfx1151", "gfx1201"};
const size_t rl_cli_processor_count =
    sizeof(rl_cli_processors) / sizeof(rl_cli_processors[0]);

bool rl_cli_is_processor_flag(const char* arg) {
  return rl_cli_is(arg, "--processor") || rl_cli_is(arg, "--target");
}

int rl_cli_processor(const char* command, const char* flag,
                     const char* processor) {
  for (size_t i = 0; i < rl_cli_processor_count; ++i) {
    if (rl_cli_is(processor, rl_cli_processors[i])) return RL_EXIT_OK;
  }
  return rl_cli_usage("%s: %s expects gfx1100, gfx1151 or gfx1201, got '%s'",
                      command, flag, processor);
}

int rl_cli_cache_model(const char* command, const char* value) {
  if (rl_cli_is(value, "off") || rl_cli_is(value, "report") ||
      rl_cli_is(value, "strict")) {
    return RL_EXIT_OK;
  }
  return rl_cli_usage("%s: --cache-model expects off, report or strict, got "
                      "'%s'", command, value);
}

int rl_cli_sim_threads(const char* command, const char* flag,
                       const char* value) {
  uint64_t threads = 0;
  int code = rl_cli_number_u64(command, flag, value, 1, RL_SIM_THREADS_MAX,
                               &threads);
  if (code) return code;
  // The simulator reads it when a device opens (rl_sim_default_threads),
  // here and in a `redline run` program's HIP runtime.
  if (setenv("REDLINE_SIM_THREADS", value, 1) != 0) {
    return rl_cli_usage("%s: %s: cannot set REDLINE_SIM_THREADS", command,
                        flag);
  }
  return RL_EXIT_OK;
}

// An installed CLI (cmake/Install.cmake) finds the code objects relative
// to itself, BINDIR/../LIBDIR/redline/kernels, so a staged or relocated
// prefix works; a CLI in the build tree has no such directory and uses the
// build's kernels directory.
static const char* rl_cli_installed_kernels_dir(void) {
  static char dir[4096];
  char exe[4096];
  ssize_t length = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (length <= 0) return NULL;
  exe[length] = '\0';
  char* slash = strrchr(exe, '/');
  if (!slash) return NULL;
  *slash = '\0';
  int written = snprintf(dir, sizeof(dir), "%s/../%s", exe,
                         RL_INSTALL_KERNELS_RELDIR);
  if (written < 0 || (size_t)written >= sizeof(dir)) return NULL;
  return access(dir, R_OK | X_OK) == 0 ? dir : NULL;
}

const char* rl_cli_kernels_dir(void) {
  const char* dir = getenv("REDLINE_KERNELS_DIR");
  if (dir && dir[0]) return dir;
  dir = rl_cli_installed_kernels_dir();
  return dir ? dir : RL_DEFAULT_KERNELS_DIR;
}

// LIBDIR/redline next to an installed CLI when it holds the HIP runtime
// over the simulator, else the build tree's private directory.
const char* rl_cli_private_dir(void) {
  static char dir[4096];
  char exe[4096];
  ssize_t length = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (length > 0) {
    exe[length] = '\0';
    char* slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      int written = snprintf(dir, sizeof(dir), "%s/../%s", exe,
                             RL_INSTALL_PRIVATE_RELDIR);
      char probe[4096 + 32];
      snprintf(probe, sizeof(probe), "%s/libamdhip64.so.6", dir);
      if (written > 0 && (size_t)written < sizeof(dir) &&
          access(probe, R_OK) == 0) {
        return dir;
      }
    }
  }
  return RL_BUILD_PRIVATE_DIR;
}
