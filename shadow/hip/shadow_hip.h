// shadow/hip/shadow_hip.h — the hip and hipgraph shadow arms (shadow/shadow.h
// describes what they run), built over the HIP runtime loader of
// redline/backends/.
//
// shadow/ itself does not include redline/backends/: the arm constructor
// reaches a shadow or bench run through its options
// (rl_shadow_device_options_t.hip_arm = rl_shadow_hip_arm_create). The
// layers that may depend on both set it: the CLI (tools/cmd_shadow.c,
// cmd_bench.c) and the library's JSON entry points (shadow_json.c here).
// A run without it reports the hip and hipgraph arms unavailable.
#ifndef REDLINE_SHADOW_HIP_SHADOW_HIP_H_
#define REDLINE_SHADOW_HIP_SHADOW_HIP_H_

#include "redline/status.h"
#include "shadow/shadow.h"

#ifdef __cplusplus
extern "C" {
#endif

// An rl_shadow_arm_factory_t: creates the arm |common| describes (kind
// RL_SHADOW_ARM_HIP or RL_SHADOW_ARM_HIPGRAPH, no device) and prepares it.
// RL_STATUS_UNAVAILABLE when the HIP runtime cannot be loaded, has no
// device, or drives another processor than the capture's.
rl_status_t rl_shadow_hip_arm_create(struct rl_shadow_arm_s* common,
                                     struct rl_shadow_arm_s** out_arm);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_HIP_SHADOW_HIP_H_
