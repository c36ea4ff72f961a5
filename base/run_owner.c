// The process that writes a program's outputs (base/run_owner.h).
#include "base/run_owner.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/number.h"

pid_t rl_run_owner_at_load(void) {
  const char* text = getenv("REDLINE_RUN_PID");
  if (!text || !text[0]) return getpid();
  uint64_t pid = 0;
  rl_status_t status = rl_number_parse_u64(text, &pid);
  bool self = status == RL_OK && pid == (uint64_t)getpid();
  rl_status_free(status);
  return self ? getpid() : 0;
}

bool rl_run_owner_is_self(pid_t owner) {
  return owner != 0 && owner == getpid();
}
