// The destinations of a lowered AQL program's compiled patch table
// (aql/aql_patch.h, capture/bind/bind_table.h).
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
