// The destinations of a lowered PM4 program's compiled patch table
// (rl_pm4_program_dests in pm4/pm4_lower.h): what the apply every route
// shares writes (capture/bind/bind_table.h).
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
