// aql/aql_packet.h — the AQL packet formats redline writes and the simulated
// command processor reads: type-only mirrors of a foreign ABI.
//
// Sources:
//   - HSA Platform System Architecture Specification 1.2, section 2.9, and
//     Debian libhsa-runtime-dev 5.2.3 /usr/include/hsa/hsa.h:
//     hsa_packet_type_t (TYPE values), hsa_packet_header_t (bit positions),
//     hsa_packet_header_width_t, hsa_fence_scope_t,
//     hsa_kernel_dispatch_packet_t, hsa_barrier_and_packet_t,
//     hsa_barrier_or_packet_t (layouts re-checked in
//     redline/backends/runtime_headers_check.c against the real header).
//   - The vendor PM4-IB packet: ROCR amd_aql_queue.cpp AqlQueue::ExecutePM4
//     (struct amd_aql_pm4_ib, local to that function).
//
// Every packet is 64 bytes and starts with a 16-bit header. A producer writes
// bytes 4..63 first and then publishes the first 32 bits (header | setup<<16
// or header | vendor format<<16) with one release store (aql/aql_ring.h);
// consumers read the header with an acquire load. Reserved fields are zero.
#ifndef REDLINE_AQL_AQL_PACKET_H_
#define REDLINE_AQL_AQL_PACKET_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RL_AQL_PACKET_SIZE 64

// hsa_packet_type_t (hsa.h).
enum {
  RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC = 0,
  RL_AQL_PACKET_TYPE_INVALID = 1,
  RL_AQL_PACKET_TYPE_KERNEL_DISPATCH = 2,
  RL_AQL_PACKET_TYPE_BARRIER_AND = 3,
  RL_AQL_PACKET_TYPE_AGENT_DISPATCH = 4,
  RL_AQL_PACKET_TYPE_BARRIER_OR = 5,
};

// hsa_packet_header_t / hsa_packet_header_width_t (hsa.h): TYPE bits 7:0,
// BARRIER bit 8, SCACQUIRE_FENCE_SCOPE bits 10:9, SCRELEASE_FENCE_SCOPE
// bits 12:11. Bits 15:13 are reserved and must be zero.
#define RL_AQL_HEADER_TYPE_SHIFT 0
#define RL_AQL_HEADER_TYPE_MASK 0xffu
#define RL_AQL_HEADER_BARRIER_SHIFT 8
#define RL_AQL_HEADER_ACQUIRE_SHIFT 9
#define RL_AQL_HEADER_RELEASE_SHIFT 11
#define RL_AQL_HEADER_SCOPE_MASK 0x3u
#define RL_AQL_HEADER_RESERVED_MASK 0xe000u

// hsa_fence_scope_t (hsa.h). Value 3 is not defined.
enum {
  RL_AQL_FENCE_SCOPE_NONE = 0,
  RL_AQL_FENCE_SCOPE_AGENT = 1,
  RL_AQL_FENCE_SCOPE_SYSTEM = 2,
};

// Builds a header value.
static inline uint16_t rl_aql_header(uint32_t type, int barrier,
                                     uint32_t acquire_scope,
                                     uint32_t release_scope) {
  return (uint16_t)((type << RL_AQL_HEADER_TYPE_SHIFT) |
                    ((barrier ? 1u : 0u) << RL_AQL_HEADER_BARRIER_SHIFT) |
                    (acquire_scope << RL_AQL_HEADER_ACQUIRE_SHIFT) |
                    (release_scope << RL_AQL_HEADER_RELEASE_SHIFT));
}

// HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS: bits 1:0 of setup (1..3).
#define RL_AQL_SETUP_DIMENSIONS_MASK 0x3u

// hsa_kernel_dispatch_packet_t.
typedef struct rl_aql_dispatch_packet_s {
  uint16_t header;
  uint16_t setup;
  uint16_t workgroup_size_x;
  uint16_t workgroup_size_y;
  uint16_t workgroup_size_z;
  uint16_t reserved0;
  uint32_t grid_size_x;  // work-items, not work-groups
  uint32_t grid_size_y;
  uint32_t grid_size_z;
  uint32_t private_segment_size;
  uint32_t group_segment_size;
  uint64_t kernel_object;    // device address of the 64-byte descriptor
  uint64_t kernarg_address;  // device address of the kernarg segment
  uint64_t reserved2;
  uint64_t completion_signal;  // device address of the signal, 0 = none
} rl_aql_dispatch_packet_t;

// hsa_barrier_and_packet_t and hsa_barrier_or_packet_t (identical layout).
typedef struct rl_aql_barrier_packet_s {
  uint16_t header;
  uint16_t reserved0;
  uint32_t reserved1;
  uint64_t dep_signal[5];  // device addresses of signals, 0 = none
  uint64_t reserved2;
  uint64_t completion_signal;
} rl_aql_barrier_packet_t;

// AMD vendor packet formats (second 16 bits of a VENDOR_SPECIFIC packet).
// AMD_AQL_FORMAT_PM4_IB = 1 (ROCR, see Sources).
#define RL_AQL_VENDOR_FORMAT_PM4_IB 1u

// ROCR's amd_aql_pm4_ib: a complete INDIRECT_BUFFER PM4 packet inside the
// AQL slot, followed by the count of dwords that remain (0xA).
typedef struct rl_aql_pm4_ib_packet_s {
  uint16_t header;
  uint16_t vendor_format;
  uint32_t ib_jump_cmd[4];
  uint32_t dw_cnt_remain;
  uint32_t reserved[8];
  uint64_t completion_signal;
} rl_aql_pm4_ib_packet_t;

_Static_assert(sizeof(rl_aql_dispatch_packet_t) == RL_AQL_PACKET_SIZE,
               "AQL dispatch packet is 64 bytes");
_Static_assert(offsetof(rl_aql_dispatch_packet_t, grid_size_x) == 12,
               "grid_size_x at byte 12");
_Static_assert(offsetof(rl_aql_dispatch_packet_t, kernel_object) == 32,
               "kernel_object at byte 32");
_Static_assert(offsetof(rl_aql_dispatch_packet_t, kernarg_address) == 40,
               "kernarg_address at byte 40");
_Static_assert(offsetof(rl_aql_dispatch_packet_t, completion_signal) == 56,
               "completion_signal at byte 56");
_Static_assert(sizeof(rl_aql_barrier_packet_t) == RL_AQL_PACKET_SIZE,
               "AQL barrier packet is 64 bytes");
_Static_assert(offsetof(rl_aql_barrier_packet_t, dep_signal) == 8,
               "dep_signal at byte 8");
_Static_assert(sizeof(rl_aql_pm4_ib_packet_t) == RL_AQL_PACKET_SIZE,
               "AQL PM4-IB vendor packet is 64 bytes");
_Static_assert(offsetof(rl_aql_pm4_ib_packet_t, dw_cnt_remain) == 20,
               "dw_cnt_remain at byte 20");

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_AQL_AQL_PACKET_H_
