// tools/cli_limits.h — the budget options every command that reads a
// capture accepts (redline/limits.h): --max-decompressed BYTES,
// --max-device-memory BYTES, --max-work-items N, --max-dispatches N,
// --max-windows N, --max-regions N, --max-bindings N and
// --timeout-ms MS. Sizes accept a K, M or G suffix (binary: 1K = 1024).
#ifndef REDLINE_TOOLS_CLI_LIMITS_H_
#define REDLINE_TOOLS_CLI_LIMITS_H_

#include <stdbool.h>

#include "redline/limits.h"

// True when |flag| is one of the budget options (each takes a value).
bool rl_cli_limits_is_flag(const char* flag);

// Applies |flag| |value| to |limits| when |flag| is a budget option and
// returns true; *|out_exit| is RL_EXIT_OK or the usage error already
// reported (prefixed by |command|). Returns false for other flags.
bool rl_cli_limits_option(const char* command, const char* flag,
                          const char* value, rl_limits_t* limits,
                          int* out_exit);

#endif  // REDLINE_TOOLS_CLI_LIMITS_H_
