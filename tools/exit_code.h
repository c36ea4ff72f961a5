// tools/exit_code.h — the exit codes of the redline CLI and the one mapping
// from a library status code to them.
//
// The library's status codes (redline/status.h) say what failed; which
// process exit code a failure gets is a decision of the command-line tool,
// taken here and nowhere else. The numbers are the table of docs/cli.md
// ("Exit codes"); users and scripts depend on them, so they never change.
// Several status codes share one exit code (a file that cannot be read, a
// malformed file and an unsupported one are all exit 3).
#ifndef REDLINE_TOOLS_EXIT_CODE_H_
#define REDLINE_TOOLS_EXIT_CODE_H_

#include "redline/status.h"

// Exit codes (docs/cli.md).
typedef enum rl_exit_code_e {
  RL_EXIT_OK = 0,
  RL_EXIT_MISMATCH = 1,       // a divergence or mismatch was found
  RL_EXIT_USAGE = 2,          // bad flag, bad value, missing argument
  RL_EXIT_INVALID_INPUT = 3,  // malformed, unsupported or unreadable file
  RL_EXIT_CONTRACT = 4,       // a replay contract or budget does not hold
  RL_EXIT_PREPARE = 5,        // prepare failed
  RL_EXIT_POISONED = 6,       // the replay is poisoned
  RL_EXIT_QUARANTINED = 7,    // queue state unknown
  RL_EXIT_UNAVAILABLE = 8,    // no device or runtime; out of host memory
  RL_EXIT_INTERNAL = 70,      // a redline bug (EX_SOFTWARE)
} rl_exit_code_t;

// The exit code for a failure with status code |code| (RL_EXIT_OK for
// RL_STATUS_OK). A code outside the enum is RL_EXIT_INTERNAL.
rl_exit_code_t rl_exit_code_of(rl_status_code_t code);

#endif  // REDLINE_TOOLS_EXIT_CODE_H_
