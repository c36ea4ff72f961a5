// tools/demo_verify.h — what `redline demo --workload verify` adds to the
// decode demo (tools/cmd_demo.c): the recording configuration at demo
// scale, the route envelope with a few admitted and refused steps, and a
// serving loop across the crossover.
#ifndef REDLINE_TOOLS_DEMO_VERIFY_H_
#define REDLINE_TOOLS_DEMO_VERIFY_H_

#include <stdint.h>

#include "kernels/workloads/workload.h"
#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// The demo's context: a 1024-row cache, crossover 256, window from 816
// (the default verify capture at 8704 rows and 8176.. takes minutes on
// the simulator; docs/verify.md).
#define RL_DEMO_VERIFY_MAX_CONTEXT 1024
#define RL_DEMO_VERIFY_CROSSOVER 256

// Fills |out| (capacity >= 3) with layers, max_context and crossover;
// returns the count.
uint32_t rl_demo_verify_config(uint64_t layers, rl_workload_param_value_t* out);

// Prints the envelope of |capture| and the decision for steps inside and
// outside it; fails when a decision is not the expected one. Then serves
// steps through shadow/verify_serve.h on a fresh simulated |processor| with
// |executor| ("ref" when NULL): the capture's window (retained, tau per
// step; fails unless both tau = B and 0 < tau < B occur) and three steps
// across the crossover from below (eager naming the rule, eager, retained).
rl_status_t rl_demo_verify_route(const rl_capture_t* capture,
                                 const char* processor, const char* executor);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_TOOLS_DEMO_VERIFY_H_
