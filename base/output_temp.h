// base/output_temp.h — the temporary files of atomic output writes
// (base/output_file.h): their names, the process-wide registry that
// lets a SIGINT/SIGTERM/SIGHUP handler unlink them, and the sweep of
// temporaries left behind by writers that were killed. Private to
// output_file.c.
//
// A temporary is named "DIR/.NAME.redline-tmp.PID.XXXXXX": hidden, tied to
// its destination NAME, and carrying the PID whose liveness the sweep checks.
// XXXXXX is six characters of [0-9A-Za-z].
#ifndef REDLINE_BASE_OUTPUT_TEMP_H_
#define REDLINE_BASE_OUTPUT_TEMP_H_

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "redline/status.h"

// A live temporary: its path and open descriptor, and the registry slot that
// makes the signal handler unlink it (-1 when every slot was taken; the
// temporary is then only swept later).
typedef struct rl_output_temp_s {
  char path[PATH_MAX];
  int fd;
  int slot;
} rl_output_temp_t;

// Creates a temporary for destination |base| in |directory| (which must
// exist) with O_CREAT | O_EXCL and |mode| (the umask applies), registers it
// for signal cleanup and fills |out_temp|. RL_STATUS_IO naming the directory
// on failure; nothing is left behind then.
rl_status_t rl_output_temp_create(const char* directory, const char* base,
                                  mode_t mode, rl_output_temp_t* out_temp);

// Removes |temp| from the signal registry. Call after the rename (the path
// no longer exists) or after unlinking it. Does not close the descriptor.
void rl_output_temp_release(rl_output_temp_t* temp);

// Removes the stale temporaries in |directory|: names of the pattern above
// whose PID is dead (kill(pid, 0) fails with ESRCH) and whose mtime is more
// than |stale_seconds| old. Best effort: errors are ignored. Returns the
// number removed.
int rl_output_temp_sweep(const char* directory, int stale_seconds);

// Parses the PID out of a temporary's base name; false when |name| does not
// follow the pattern.
bool rl_output_temp_parse_name(const char* name, pid_t* out_pid);

#endif  // REDLINE_BASE_OUTPUT_TEMP_H_
