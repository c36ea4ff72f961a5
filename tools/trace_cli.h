// tools/trace_cli.h — `--trace FILE` of replay, shadow, bench and demo: the
// trace recorder (base/trace.h) created before the run and written after
// it, also when the run failed (a failing run is when a timeline helps).
#ifndef REDLINE_TOOLS_TRACE_CLI_H_
#define REDLINE_TOOLS_TRACE_CLI_H_

#include <stddef.h>

#include "base/trace.h"

// Creates the recorder for |path| (NULL: tracing off, *out_trace NULL) after
// refusing a path that names one of the inputs (exit 2). Returns RL_EXIT_OK
// or the exit code already reported, prefixed by |command|.
int rl_cli_trace_open(const char* command, const char* path,
                      const char* const* input_paths, size_t input_count,
                      rl_trace_t** out_trace);

// Writes and destroys |trace| (nothing when NULL). Returns |exit_code|, or
// the write failure's exit code when |exit_code| was RL_EXIT_OK. Reports
// dropped events on stderr.
int rl_cli_trace_close(const char* command, rl_trace_t* trace, const char* path,
                       int exit_code);

#endif  // REDLINE_TOOLS_TRACE_CLI_H_
