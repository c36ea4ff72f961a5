// The status -> exit code mapping of the CLI (tools/exit_code.h).
#include "tools/exit_code.h"

rl_exit_code_t rl_exit_code_of(rl_status_code_t code) {
  switch (code) {
    case RL_STATUS_OK: return RL_EXIT_OK;
    case RL_STATUS_MISMATCH: return RL_EXIT_MISMATCH;
    case RL_STATUS_INVALID_ARGUMENT: return RL_EXIT_USAGE;
    case RL_STATUS_INVALID_INPUT: return RL_EXIT_INVALID_INPUT;
    case RL_STATUS_UNSUPPORTED: return RL_EXIT_INVALID_INPUT;
    case RL_STATUS_IO: return RL_EXIT_INVALID_INPUT;
    case RL_STATUS_NOT_FOUND: return RL_EXIT_INVALID_INPUT;
    case RL_STATUS_CONTRACT: return RL_EXIT_CONTRACT;
    case RL_STATUS_PREPARE: return RL_EXIT_PREPARE;
    case RL_STATUS_POISONED: return RL_EXIT_POISONED;
    case RL_STATUS_QUARANTINED: return RL_EXIT_QUARANTINED;
    case RL_STATUS_UNAVAILABLE: return RL_EXIT_UNAVAILABLE;
    case RL_STATUS_OUT_OF_MEMORY: return RL_EXIT_UNAVAILABLE;
    case RL_STATUS_INTERNAL: return RL_EXIT_INTERNAL;
  }
  return RL_EXIT_INTERNAL;
}
