// Re-binding a lowered AQL program (aql/aql_patch.h) through its compiled
// patch table (capture/bind_table.h).
#include "aql/aql_patch.h"

#include <string.h>

void rl_aql_program_dests(rl_aql_program_t* program, uint8_t* kernarg_host,
                          rl_bind_dest_t out_dests[RL_BIND_MAX_DESTS]) {
  memset(out_dests, 0, RL_BIND_MAX_DESTS * sizeof(*out_dests));
  out_dests[RL_AQL_DEST_KERNARG] = (rl_bind_dest_t){
      .base = program->kernarg, .mirror = kernarg_host,
      .size = program->kernarg_size};
  out_dests[RL_AQL_DEST_PACKETS] = (rl_bind_dest_t){
      .base = (uint8_t*)program->packets,
      .size = program->packet_count * RL_AQL_PACKET_SIZE};
}

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
