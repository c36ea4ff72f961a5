// The PM4 census of a bench row (shadow/bench.h): the pm4 arm's IB read
// back from its device through the vendor packet's INDIRECT_BUFFER and
// decoded with the one PM4 decoder (pm4/pm4_decode.h).
#include <stdlib.h>
#include <string.h>

#include "aql/aql_packet.h"
#include "pm4/pm4_decode.h"
#include "shadow/bench_internal.h"

static void rl_bench_pm4_count(const rl_pm4_packet_t* packet,
                               rl_bench_pm4_t* pm4) {
  if (packet->type != RL_PM4_TYPE3) return;
  switch (packet->opcode) {
    case RL_PM4_DISPATCH_DIRECT: ++pm4->dispatches; break;
    case RL_PM4_ACQUIRE_MEM: ++pm4->acquires; break;
    case RL_PM4_RELEASE_MEM: ++pm4->releases; break;
    case RL_PM4_SET_SH_REG: ++pm4->set_sh_reg; break;
    case RL_PM4_EVENT_WRITE:
      if (packet->dwords > 1 &&
          (packet->body[0] & 0x3Fu) == RL_PM4_EVENT_CS_PARTIAL_FLUSH) {
        ++pm4->waits;
      }
      break;
    default: break;
  }
}

static rl_status_t rl_bench_pm4_decode(const rl_pm4_family_t* family,
                                       const uint32_t* dwords, uint32_t count,
                                       rl_bench_pm4_t* pm4) {
  for (uint32_t offset = 0; offset < count;) {
    rl_pm4_packet_t packet;
    RL_RETURN_IF_ERROR(
        rl_pm4_decode_next(family, dwords, count, offset, &packet));
    rl_bench_pm4_count(&packet, pm4);
    offset += packet.dwords;
  }
  pm4->dwords = count;
  pm4->dwords_per_dispatch =
      pm4->dispatches ? (double)count / pm4->dispatches : 0.0;
  pm4->present = true;
  return RL_OK;
}

rl_status_t rl_bench_pm4_census(rl_shadow_arm_t* arm, rl_bench_pm4_t* out_pm4) {
  memset(out_pm4, 0, sizeof(*out_pm4));
  if (!arm->vtable->stream_packet) return RL_OK;
  rl_aql_pm4_ib_packet_t packet;
  RL_RETURN_IF_ERROR(arm->vtable->stream_packet(arm, 0, (uint8_t*)&packet));
  // INDIRECT_BUFFER: dword 1 base low (dword aligned), dword 2 base high,
  // dword 3 bits 19:0 the size in dwords (pm4/pm4_packet.h).
  uint64_t address = (uint64_t)(packet.ib_jump_cmd[1] & ~3u) |
                     ((uint64_t)(packet.ib_jump_cmd[2] & 0xFFFFu) << 32);
  uint32_t count = packet.ib_jump_cmd[3] & 0xFFFFFu;
  const rl_pm4_family_t* family = NULL;
  RL_RETURN_IF_ERROR(rl_pm4_family_for_processor(
      rl_capture_processor_or(arm->capture, ""), &family));
  uint32_t* dwords = malloc((size_t)count * 4u + 4u);
  if (!dwords) return rl_status_out_of_memory();
  rl_status_t status =
      arm->device->vtable->read(arm->device, address, dwords, count * 4ull);
  if (!status) status = rl_bench_pm4_decode(family, dwords, count, out_pm4);
  free(dwords);
  return rl_status_annotate(status, "decoding the IB at 0x%llx",
                            (unsigned long long)address);
}
