// Shared CLI plumbing (tools/cli.h).
#include "tools/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redline/base/array.h"
#include "redline/base/output_file.h"

rl_status_t rl_cli_read_file(const char* path, uint8_t** out_data,
                             size_t* out_size) {
  *out_data = NULL;
  *out_size = 0;
  FILE* file = fopen(path, "rb");
  if (!file) {
    return RL_STATUS(RL_STATUS_IO, "cannot open %s: %s", path, strerror(errno));
  }
  uint8_t* data = NULL;
  size_t size = 0, capacity = 0;
  rl_status_t status = RL_OK;
  for (;;) {
    if (size == capacity) {
      capacity = capacity ? capacity * 2 : 1 << 16;
      uint8_t* grown = realloc(data, capacity);
      if (!grown) {
        status = rl_status_out_of_memory();
        break;
      }
      data = grown;
    }
    size_t got = fread(data + size, 1, capacity - size, file);
    size += got;
    if (got == 0) {
      if (ferror(file)) {
        status = RL_STATUS(RL_STATUS_IO, "cannot read %s: %s", path,
                           strerror(errno));
      }
      break;
    }
  }
  fclose(file);
  if (status) {
    free(data);
    return status;
  }
  *out_data = data;
  *out_size = size;
  return RL_OK;
}

int rl_cli_fail(rl_status_t status, const char* context) {
  if (context && context[0]) {
    fprintf(stderr, "redline: %s: %s\n", context, rl_status_message(status));
  } else {
    fprintf(stderr, "redline: %s\n", rl_status_message(status));
  }
  int code = rl_status_exit_code(rl_status_code(status));
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

bool rl_cli_parse_u64(const char* text, uint64_t* out_value) {
  if (!text || !text[0] || text[0] == '-') return false;
  char* end = NULL;
  errno = 0;
  unsigned long long value = strtoull(text, &end, 0);
  if (errno || *end) return false;
  *out_value = value;
  return true;
}

bool rl_cli_parse_i64(const char* text, int64_t* out_value) {
  if (!text || !text[0]) return false;
  char* end = NULL;
  errno = 0;
  long long value = strtoll(text, &end, 0);
  if (errno || *end) return false;
  *out_value = value;
  return true;
}

const char* rl_cli_kernels_dir(void) {
  const char* dir = getenv("REDLINE_KERNELS_DIR");
  return dir && dir[0] ? dir : RL_DEFAULT_KERNELS_DIR;
}
