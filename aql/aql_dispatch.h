// aql/aql_dispatch.h — the one place a kernel-dispatch packet is built for
// a launch: the AQL lowering (aql_lower.c, retained packets) and the
// recording funnel's device (redline/device/device_funnel.c, one packet per
// recorded launch) both fill their packets here, so the two cannot disagree
// on geometry, segment sizes or reserved fields.
//
// Sources: HSA Platform System Architecture Specification 1.2 §2.9.6
// (kernel dispatch packet: grid sizes in work-items, setup = dimensions);
// ROCr hsa.h hsa_kernel_dispatch_packet_t.
#ifndef REDLINE_AQL_AQL_DISPATCH_H_
#define REDLINE_AQL_AQL_DISPATCH_H_

#include <stdint.h>
#include <string.h>

#include "aql/aql_packet.h"

#ifdef __cplusplus
extern "C" {
#endif

// One launch as a dispatch needs it. |grid| counts work-groups per axis and
// |block| work-items per work-group (the capture's convention); the packet
// carries grid * block work-items. Every launch is dispatched with three
// dimensions (unused axes are 1).
typedef struct rl_aql_dispatch_s {
  uint16_t header;  // rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, ...)
  uint32_t grid[3];
  uint32_t block[3];  // each at most 65535 (16-bit packet fields)
  uint32_t private_segment_size;  // the kernel's, from its descriptor
  uint32_t group_segment_size;    // the kernel's static LDS + dynamic LDS
  uint64_t kernel_object;         // device address of the kernel descriptor
  uint64_t kernarg_address;
  uint64_t completion_signal;     // 0 = none
} rl_aql_dispatch_t;

// Fills all 64 bytes of |out_packet| from |dispatch|: every field written,
// reserved fields zero. The header is stored in the packet like any other
// field; publishing writes it last (aql_ring.h).
static inline void rl_aql_dispatch_packet_init(
    const rl_aql_dispatch_t* dispatch, rl_aql_dispatch_packet_t* out_packet) {
  memset(out_packet, 0, sizeof(*out_packet));
  out_packet->header = dispatch->header;
  out_packet->setup = 3;
  out_packet->workgroup_size_x = (uint16_t)dispatch->block[0];
  out_packet->workgroup_size_y = (uint16_t)dispatch->block[1];
  out_packet->workgroup_size_z = (uint16_t)dispatch->block[2];
  out_packet->grid_size_x = dispatch->grid[0] * dispatch->block[0];
  out_packet->grid_size_y = dispatch->grid[1] * dispatch->block[1];
  out_packet->grid_size_z = dispatch->grid[2] * dispatch->block[2];
  out_packet->private_segment_size = dispatch->private_segment_size;
  out_packet->group_segment_size = dispatch->group_segment_size;
  out_packet->kernel_object = dispatch->kernel_object;
  out_packet->kernarg_address = dispatch->kernarg_address;
  out_packet->completion_signal = dispatch->completion_signal;
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_AQL_AQL_DISPATCH_H_
