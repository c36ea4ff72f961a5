// aql/aql_decode.h — the one AQL packet decoder: the simulated command
// processor validates every packet it consumes with it, and `redline lower`
// prints and checks retained packets with it, so a packet is read one way
// everywhere.
//
// rl_aql_packet_decode() classifies one 64-byte packet and checks every rule
// of its format, returning the first violation as an rl_aql_error_t plus a
// sentence naming the field, the value found and the value expected. What is
// checked, and what a real command processor (CP) does with it:
//   - header bits 15:13 are reserved and must be zero (HSA 1.2 §2.9.1). The
//     CP firmware ignores them, so redline rejects them as a sign that the
//     producer wrote the wrong word, not because hardware would hang;
//   - acquire and release fence scopes must be 0, 1 or 2; 3 is undefined
//     (hsa_fence_scope_t) and the CP's behaviour with it is unspecified;
//   - packet type INVALID (1) means "not yet published": a CP waits on it,
//     so the decoder reports RL_AQL_ERROR_NOT_READY rather than a fault;
//     AGENT_DISPATCH (4) has no consumer on a GPU queue (ROCr routes it to
//     host agents only) and types above 5 are undefined: both are faults
//     (a real CP would hang or raise a queue error on them);
//   - kernel dispatch: setup dimensions 1..3 and setup bits 15:2 zero;
//     workgroup and grid sizes nonzero in every used dimension and exactly
//     1 in unused ones (HSA 1.2 §2.9.6); workgroup size at most 1024
//     work-items (the hardware limit of a work-group on gfx9..gfx12);
//     reserved0 zero. reserved2 (bytes 48..55) is *accepted* when nonzero:
//     CLR stores a profiler correlation id there and the CP ignores it; the
//     value is kept in rl_aql_decoded_t for census checks that want zero;
//   - barrier-AND/OR: reserved0, reserved1 and reserved2 zero;
//   - vendor-specific: byte 2 is the AMD format, byte 3 reserved (zero).
//     Format 1 (AMD_AQL_FORMAT_PM4_IB) is decoded: ib_jump_cmd must be a
//     complete INDIRECT_BUFFER (header 0xC0023F00, dword-aligned address,
//     address bits 63:48 zero, VALID set, nonzero size), dw_cnt_remain 0xA
//     and reserved[8] zero (pm4_reference.md §1.3 and §4.4). Format 2
//     (HSA_AMD_PACKET_TYPE_BARRIER_VALUE) and any other format are reported
//     as RL_AQL_ERROR_VENDOR_FORMAT.
//
// rl_aql_packet_format() prints one line with every field named, e.g.
//   dispatch barrier=1 acq=system rel=agent dim=1 wg=64x1x1 grid=1024x1x1
//   lds=0 priv=0 kobj=0x... kernarg=0x... signal=0x...
// and for a packet that does not decode, its raw header and the reason.
//
// Both functions read exactly 64 bytes, never more, and are safe on any
// input. They read plain bytes: a consumer racing a producer must first
// acquire-load the header word and copy the packet (the simulated CP does).
// Thread-safety: pure functions.
#ifndef REDLINE_AQL_AQL_DECODE_H_
#define REDLINE_AQL_AQL_DECODE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aql/aql_packet.h"

#ifdef __cplusplus
extern "C" {
#endif

// Why a packet does not decode. OK is zero.
typedef enum rl_aql_error_e {
  RL_AQL_OK = 0,
  RL_AQL_ERROR_NOT_READY,        // type INVALID: not published yet
  RL_AQL_ERROR_TYPE,             // AGENT_DISPATCH or type > 5
  RL_AQL_ERROR_HEADER_RESERVED,  // header bits 15:13 nonzero
  RL_AQL_ERROR_FENCE_SCOPE,      // acquire or release scope 3
  RL_AQL_ERROR_DIMENSIONS,       // setup dimensions not 1..3
  RL_AQL_ERROR_SETUP_RESERVED,   // setup bits 15:2 nonzero
  RL_AQL_ERROR_WORKGROUP_SIZE,   // zero, > 1024, or unused dim != 1
  RL_AQL_ERROR_GRID_SIZE,        // zero, or unused dim != 1
  RL_AQL_ERROR_RESERVED_FIELD,   // a reserved field is nonzero
  RL_AQL_ERROR_VENDOR_FORMAT,    // vendor format other than PM4_IB
  RL_AQL_ERROR_PM4_IB,           // malformed INDIRECT_BUFFER in a PM4_IB
} rl_aql_error_t;

// Most work-items one work-group may have on gfx9..gfx12: ROCr reports
// HSA_AGENT_INFO_WORKGROUP_MAX_SIZE = 1024 for these GPUs, and AMDGPUUsage
// caps amdgpu-flat-work-group-size at 1024.
#define RL_AQL_MAX_WORKGROUP_ITEMS 1024u

// ROCr's INDIRECT_BUFFER header inside a PM4_IB packet: type 3, COUNT 2,
// opcode 0x3F (pm4_reference.md §1.3 and §4.4:
// PM4_HDR(IT_INDIRECT_BUFFER, 4)).
#define RL_AQL_PM4_IB_HEADER 0xC0023F00u
// dw_cnt_remain: the 10 dwords of the slot that follow the IB packet.
#define RL_AQL_PM4_IB_DW_REMAIN 0xAu
// INDIRECT_BUFFER DW3 fields (PAL PM4_MEC_INDIRECT_BUFFER).
#define RL_AQL_PM4_IB_SIZE_MASK 0xFFFFFu
#define RL_AQL_PM4_IB_CHAIN_BIT (1u << 20)
#define RL_AQL_PM4_IB_VALID_BIT (1u << 23)

// A decoded packet. Fields of other packet types are zero.
typedef struct rl_aql_decoded_s {
  rl_aql_error_t error;
  char reason[160];  // "" when OK; a whole sentence otherwise
  uint16_t header;   // raw
  uint32_t type;     // RL_AQL_PACKET_TYPE_*
  bool barrier;
  uint32_t acquire_scope;  // RL_AQL_FENCE_SCOPE_*
  uint32_t release_scope;
  uint64_t completion_signal;
  // Kernel dispatch.
  uint32_t dimensions;
  uint32_t workgroup_size[3];
  uint32_t grid_size[3];
  uint32_t private_segment_size;
  uint32_t group_segment_size;
  uint64_t kernel_object;
  uint64_t kernarg_address;
  uint64_t reserved2;  // accepted when nonzero, see the file comment
  // Barrier-AND / barrier-OR.
  uint64_t dep_signal[5];
  // Vendor-specific.
  uint32_t vendor_format;
  uint64_t ib_address;  // PM4_IB: device address of the indirect buffer
  uint32_t ib_size_dw;  // PM4_IB: its size in dwords
  bool ib_chain;        // PM4_IB: the CHAIN bit
} rl_aql_decoded_t;

// Decodes the 64 bytes at |packet| into *|out_decoded| (cleared first).
// Returns out_decoded->error.
rl_aql_error_t rl_aql_packet_decode(const void* packet,
                                    rl_aql_decoded_t* out_decoded);

// Prints one line describing the packet at |packet| into |out| (|size|
// bytes, always NUL-terminated when |size| > 0). Returns the length the
// full line has, like snprintf.
int rl_aql_packet_format(const void* packet, char* out, size_t size);

// Spellings: "dispatch", "barrier_and", "barrier_or", "vendor", "invalid",
// "agent_dispatch", or NULL for an undefined type.
const char* rl_aql_packet_type_name(uint32_t type);
// "none", "agent", "system", or "scope3".
const char* rl_aql_fence_scope_name(uint32_t scope);
// Stable upper-case name of |error| ("DIMENSIONS").
const char* rl_aql_error_name(rl_aql_error_t error);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_AQL_AQL_DECODE_H_
