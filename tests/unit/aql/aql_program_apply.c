// Re-binding a lowered AQL program outside a replay
// (tests/unit/aql/aql_program_apply.h).
#include "tests/unit/aql/aql_program_apply.h"

#include "aql/aql_patch.h"
#include "capture/bind/bind_table.h"

rl_status_t rl_aql_program_apply(rl_aql_program_t* program,
                                 const rl_capture_t* capture,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint8_t* kernarg_host,
                                 uint32_t* out_changed_count) {
  *out_changed_count = 0;
  if (param_count != capture->param_count ||
      program->packet_count != capture->launch_count ||
      program->binds->capture != capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "apply: %u parameter values for %u parameters, program "
                     "of %u packets for %u launches%s",
                     param_count, capture->param_count, program->packet_count,
                     capture->launch_count,
                     program->binds->capture != capture
                         ? ", lowered from another capture"
                         : "");
  }
  rl_bind_dest_t dests[RL_BIND_MAX_DESTS];
  rl_aql_program_dests(program, kernarg_host, dests);
  // Values first: a refused value must change nothing, pointers included.
  uint32_t changed = 0, rebased = 0;
  RL_RETURN_IF_ERROR(
      rl_bind_table_apply(program->binds, values, param_count, dests, &changed));
  if (buffer_addresses) {
    RL_RETURN_IF_ERROR(rl_bind_table_rebase(program->binds, buffer_addresses,
                                            dests, &rebased));
  }
  *out_changed_count = changed + rebased;
  return RL_OK;
}
