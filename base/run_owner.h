// base/run_owner.h — which process of a program may write the
// outputs its environment names (the interposer's capture, the HIP
// runtime's trace and exit report). Private to redline targets.
//
// A program started by `redline run` may fork, and its children inherit
// both the libraries' state and the environment that names the outputs; a
// child writing them would replace its parent's capture or trace. So only
// one process writes: the one the library was loaded into (a forked child
// has another pid), and, when REDLINE_RUN_PID is set (`redline run` sets it
// to the program's pid), only that process (a program the program starts
// through exec loads the libraries again, with the same environment).
//
// Thread-safety: rl_run_owner_at_load reads the environment; call it from a
// library constructor.
#ifndef REDLINE_BASE_RUN_OWNER_H_
#define REDLINE_BASE_RUN_OWNER_H_

#include <stdbool.h>
#include <sys/types.h>

// The pid that may write: getpid(), or 0 (no process) when REDLINE_RUN_PID
// is set and is not getpid() (text that is not a number counts as another
// process).
pid_t rl_run_owner_at_load(void);

// True when the calling process is |owner| (from rl_run_owner_at_load).
bool rl_run_owner_is_self(pid_t owner);

#endif  // REDLINE_BASE_RUN_OWNER_H_
