// Re-binding a lowered PM4 program (rl_pm4_program_apply in
// pm4/pm4_lower.h) through its compiled patch table: the apply every route
// shares (capture/bind_table.h).
#include <string.h>

#include "pm4/pm4_lower.h"

void rl_pm4_program_dests(rl_pm4_program_t* program, uint8_t* kernarg_host,
                          uint32_t* ib_host, uint8_t* relay_host,
                          rl_bind_dest_t out_dests[RL_BIND_MAX_DESTS]) {
  memset(out_dests, 0, RL_BIND_MAX_DESTS * sizeof(*out_dests));
  out_dests[RL_PM4_DEST_KERNARG] = (rl_bind_dest_t){
      .base = program->kernarg, .mirror = kernarg_host,
      .size = program->kernarg_size};
  out_dests[RL_PM4_DEST_IB] = (rl_bind_dest_t){
      .base = (uint8_t*)program->dwords, .mirror = (uint8_t*)ib_host,
      .size = 4 * program->dword_count};
  out_dests[RL_PM4_DEST_RELAY] = (rl_bind_dest_t){
      .base = program->relay, .mirror = relay_host,
      .size = 8 * program->relay_count};
}

rl_status_t rl_pm4_program_apply(rl_pm4_program_t* program,
                                 const rl_capture_t* capture,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint8_t* kernarg_host, uint32_t* ib_host,
                                 uint32_t* out_changed_count) {
  *out_changed_count = 0;
  if (param_count != capture->param_count ||
      program->stats.dispatches != capture->launch_count ||
      program->binds->capture != capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "apply: %u parameter values for %u parameters, program "
                     "of %u dispatches for %u launches%s",
                     param_count, capture->param_count,
                     program->stats.dispatches, capture->launch_count,
                     program->binds->capture != capture
                         ? ", lowered from another capture"
                         : "");
  }
  rl_bind_dest_t dests[RL_BIND_MAX_DESTS];
  rl_pm4_program_dests(program, kernarg_host, ib_host, NULL, dests);
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
