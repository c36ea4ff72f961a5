// aql/aql_patch.h — the destinations a lowered AQL program's patch table
// writes (rl_aql_program_dests): the per-replay hot path of route aql is
// rl_bind_table_apply over them (capture/bind/bind_table.h, the apply every
// route shares; redline/replay_route.c). The tests re-bind a program
// directly with rl_aql_program_apply (tests/unit/aql/aql_program_apply.h),
// which has this contract: pointer sites are
// re-resolved only when |buffer_addresses| is given (the addresses change
// at bind, not per run), then every distinct expression is evaluated once
// and only the sites whose value changed are written —
//   KERNARG/POINTER into program->kernarg and |kernarg_host| (the host view
//   of the device kernarg segment), GRID (work-groups × the packet's
//   workgroup size) into the grid_size field of program->packets.
// Dynamic values are checked before anything is written, so a failed
// evaluation changes nothing, leaves *|out_changed_count| 0 and is
// RL_STATUS_CONTRACT naming the launch, its kernel and the binding, e.g.
// "launch 4 (vc_partial_sum) binding 2 (grid x = ceil((pos+1)/64)):
// ceil_div of negative value -9". Parameter admission ranges are the
// replay contract's job and are not checked here.
//
// Cost: one evaluation per distinct expression and one store per changed
// site; O(pointer sites) more when |buffer_addresses| is given.
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

// The destinations of |program|'s bind table, with |kernarg_host| as the
// kernarg image's mirror (may be NULL): for rl_bind_table_apply directly.
void rl_aql_program_dests(rl_aql_program_t* program, uint8_t* kernarg_host,
                          rl_bind_dest_t out_dests[RL_BIND_MAX_DESTS]);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_AQL_AQL_PATCH_H_
