// base/cpu_pin.h — where a benchmark's threads run: the calling
// (host) thread on the first CPU its affinity allows, the simulated command
// processors on the last, so the two never share a core. The one rule for
// `redline bench --pin` (shadow/bench.c) and tests/bench/host_cost_bench.c,
// whose numbers docs/BENCHMARKS.md compares.
//
// Thread-safety: changes the calling thread's affinity only.
#ifndef REDLINE_BASE_CPU_PIN_H_
#define REDLINE_BASE_CPU_PIN_H_

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // cpu_set_t, sched_setaffinity
#endif
#include <sched.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

// Pins the calling thread to the first CPU of its affinity mask and says
// which CPU the command processors should take (the last): *|out_host| and
// *|out_cp|. |out_previous| receives the mask before, to restore it. False,
// with nothing changed, when fewer than two CPUs are allowed or the kernel
// refuses ("not pinned (one CPU allowed)" in the reports).
bool rl_cpu_pin_host(cpu_set_t* out_previous, int* out_host, int* out_cp);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BASE_CPU_PIN_H_
