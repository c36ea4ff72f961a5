// `--trace FILE` plumbing (tools/trace_cli.h).
#include "tools/trace_cli.h"

#include <inttypes.h>
#include <stdio.h>

#include "tools/cli.h"

int rl_cli_trace_open(const char* command, const char* path,
                      const char* const* input_paths, size_t input_count,
                      rl_trace_t** out_trace) {
  *out_trace = NULL;
  if (!path) return RL_EXIT_OK;
  char context[64];
  snprintf(context, sizeof(context), "%s --trace", command);
  rl_status_t status = rl_cli_check_output(path, input_paths, input_count);
  if (!status) status = rl_trace_create(out_trace);
  return status ? rl_cli_fail(status, context) : RL_EXIT_OK;
}

int rl_cli_trace_close(const char* command, rl_trace_t* trace, const char* path,
                       int exit_code) {
  if (!trace) return exit_code;
  char context[64];
  snprintf(context, sizeof(context), "%s --trace", command);
  if (rl_trace_dropped_count(trace)) {
    fprintf(stderr,
            "redline: %s: %" PRIu64 " events over the limit of %u not kept\n",
            context, rl_trace_dropped_count(trace), RL_TRACE_MAX_EVENTS);
  }
  rl_status_t status = rl_trace_write(trace, path);
  rl_trace_destroy(trace);
  if (status) {
    int write_exit = rl_cli_fail(status, context);
    return exit_code == RL_EXIT_OK ? write_exit : exit_code;
  }
  return exit_code;
}
