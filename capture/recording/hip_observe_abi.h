// capture/recording/hip_observe_abi.h — the channel through which the HIP runtime
// over the simulator (sim/hip_sim) hands the capture interposer
// (capture/interposer) the memory each launch was observed to touch,
// defined once for both sides.
//
// There is no link-time dependency between the two libraries: the
// interposer looks these names up with dlsym in the HIP library it forwards
// to. A HIP runtime without them (ROCm's libamdhip64 on real hardware) has
// no observations, and the interposer leaves every effect as it found it.
//
// Protocol (every call is thread-safe):
//   1. RL_HIP_OBSERVE_BEGIN: from now on, every kernel launch the runtime
//      runs keeps the byte ranges (device addresses) its work-groups loaded
//      and stored through global memory (the simulator's access log,
//      sim/sim.h), keyed by the launch's submission number. Calling
//      it again clears what was kept.
//   2. RL_HIP_OBSERVE_LAST_LAUNCH returns the submission number of the
//      last kernel launch queued: launches are numbered 1, 2, ... in the
//      order they are queued (0: none yet), copies and other operations
//      are not counted. After forwarding one launch it is that launch's
//      number; after a hipGraphLaunch of K kernel nodes, the nodes are the
//      K numbers after the value read before the call, in the graph's
//      order (the caller serialises its launches, as the interposer does).
//   3. Launches complete asynchronously: once the caller has synchronised
//      the device (hipDeviceSynchronize), RL_HIP_OBSERVE_LAUNCH fills an
//      rl_hip_observed_t for a submission number; false when that launch
//      was not observed (it failed, was queued before observation began, or
//      ran after RL_HIP_OBSERVE_END).
//   4. RL_HIP_OBSERVE_END: stops observing and frees what was kept; range
//      arrays handed out before are invalid afterwards.
#ifndef REDLINE_CAPTURE_HIP_OBSERVE_ABI_H_
#define REDLINE_CAPTURE_HIP_OBSERVE_ABI_H_

#include <stdbool.h>
#include <stdint.h>

#define RL_HIP_OBSERVE_BEGIN "rl_hip_sim_observe_begin"
#define RL_HIP_OBSERVE_LAST_LAUNCH "rl_hip_sim_observe_last_launch"
#define RL_HIP_OBSERVE_LAUNCH "rl_hip_sim_observe_launch"
#define RL_HIP_OBSERVE_END "rl_hip_sim_observe_end"

// One byte range [begin, end) of device addresses.
typedef struct rl_hip_observed_range_s {
  uint64_t begin;
  uint64_t end;
} rl_hip_observed_range_t;

// What one launch touched: sorted, disjoint ranges, owned by the runtime
// until RL_HIP_OBSERVE_END, and the name of the kernel that ran (the
// caller checks it against the launch it keyed, so a numbering mistake
// leaves effects alone instead of misattributing them).
typedef struct rl_hip_observed_s {
  uint32_t read_count;
  uint32_t write_count;
  const rl_hip_observed_range_t* reads;
  const rl_hip_observed_range_t* writes;
  const char* kernel;
} rl_hip_observed_t;

typedef void (*rl_hip_observe_begin_fn)(void);
typedef uint64_t (*rl_hip_observe_last_launch_fn)(void);
typedef bool (*rl_hip_observe_launch_fn)(uint64_t submission,
                                         rl_hip_observed_t* out_observed);
typedef void (*rl_hip_observe_end_fn)(void);

#endif  // REDLINE_CAPTURE_HIP_OBSERVE_ABI_H_
