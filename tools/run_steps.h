// tools/run_steps.h — `redline run --steps K [--skip-steps M]` without
// --step-start: the step found as the period of the program's launch
// sequence (docs/cli.md "redline run", docs/real-engines.md).
//
// The program runs twice. The first run (the survey, REDLINE_CAPTURE_SURVEY)
// records nothing and lists the structure signature of every launch, copy
// and fill (capture/recording/step_split.h); rl_run_steps_plan finds the period there
// and turns skip and count into the items: window and step period of the
// second run, which captures.
#ifndef REDLINE_TOOLS_RUN_STEPS_H_
#define REDLINE_TOOLS_RUN_STEPS_H_

#include <stddef.h>
#include <stdint.h>

// Reads the survey at |path|, finds the step (rl_step_period) and writes
// the capture run's window ("items:FIRST:COUNT") into |window| and its
// step period into |period|. Returns 0, or the exit code after printing
// why: 4 (RL_EXIT_CONTRACT) when nothing repeats or the step repeats fewer
// than |skip| + |steps| times, 3 when the survey is unreadable.
int rl_run_steps_plan(const char* path, uint64_t skip, uint64_t steps,
                      char* window, size_t window_size, char* period,
                      size_t period_size);

#endif  // REDLINE_TOOLS_RUN_STEPS_H_
