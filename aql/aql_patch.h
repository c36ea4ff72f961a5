// aql/aql_patch.h — re-binding a lowered AQL program to new parameter
// values and buffer addresses: the per-replay hot path of route aql.
//
// rl_aql_program_apply walks the program's patch table (aql/aql_lower.h):
//   1. evaluate: every patch's new value into program->pending —
//        KERNARG  the binding's expression at |values|
//                 (rl_launch_binding_evaluate: it must fit its 4 or 8 bytes),
//        POINTER  buffer_addresses[slot.buffer] + slot.offset,
//        GRID     work-groups × the packet's workgroup size (it must be at
//                 least 1 work-group and fit the 32-bit grid_size);
//      any failure returns here, before anything is written;
//   2. write: only the patches whose value differs from |current| —
//        KERNARG/POINTER into |kernarg_host| (the host view of the device
//        kernarg segment, which holds the program's image) and into
//        program->kernarg (so the image and the census stay current),
//        GRID into the grid_size field of program->packets[patch.packet]
//        (the retained packet templates the ring copies from);
//      and update |current|.
// So the call is all-or-nothing: on failure neither the kernarg segment,
// the image nor the packets changed, *|out_changed_count| is 0, and the
// status is RL_STATUS_CONTRACT naming the launch, its kernel and the
// binding (or slot), e.g. "launch 4 (vc_partial_sum) binding 2 (grid x =
// ceil((pos+1)/64)): ceil_div of negative value -9". Parameter admission
// ranges are the replay contract's job and are not checked here.
//
// Cost: one expression evaluation or addition per patch and one store per
// changed value; no allocation on success.
//
// Thread-safety: none. The caller must not apply while the packet
// processor may still read the kernarg segment of a previous replay (wait
// for its completion signal first).
#ifndef REDLINE_AQL_AQL_PATCH_H_
#define REDLINE_AQL_AQL_PATCH_H_

#include <stdint.h>

#include "aql/aql_lower.h"
#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// |values| holds |param_count| values, which must equal
// capture->param_count (RL_STATUS_INVALID_ARGUMENT otherwise);
// |buffer_addresses| one per capture buffer; |capture| is the one the
// program was lowered from. |kernarg_host| may be NULL (only the image is
// updated) or equal to program->kernarg. *|out_changed_count| is the number
// of patches written (cleared on entry).
rl_status_t rl_aql_program_apply(rl_aql_program_t* program,
                                 const rl_capture_t* capture,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint8_t* kernarg_host,
                                 uint32_t* out_changed_count);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_AQL_AQL_PATCH_H_
