// aql/aql_lower.h — lowering a capture into retained AQL packets (route aql).
//
// One kernel-dispatch packet per launch, in capture order:
//   - kernel_object = the device address of the kernel's `.kd` descriptor
//     (code object load base + descriptor_address);
//   - workgroup_size = the launch's block; grid_size = grid (work-groups) ×
//     block, in work-items as AQL requires; setup dimensions = 3;
//   - group_segment_size = static group segment + the launch's dynamic LDS;
//     private_segment_size = the kernel's private segment size;
//   - kernarg_address = this launch's slice of one kernarg segment, each
//     slice aligned to the kernel's kernarg alignment (at least 16 bytes);
//   - header: BARRIER set only where the hazard plan needs a wait (and on
//     the first packet, which must not overlap whatever ran before the
//     replay); acquire scope SYSTEM on the first packet, AGENT otherwise;
//     release scope SYSTEM on the last packet, AGENT otherwise;
//   - completion_signal only on the last packet.
// The kernarg image holds the recorded bytes with every pointer slot
// rebased to |buffer_addresses| and every kernarg binding evaluated at
// |param_values| (capture/bind/launch_bind.h); grid bindings are evaluated the same
// way into the packets.
//
// Validate → plan → reserve → emit: every error (bad inputs, a launch
// whose geometry does not fit AQL, a binding that cannot be evaluated) is
// raised before anything is allocated:
//   RL_STATUS_INVALID_ARGUMENT  missing inputs, no launches, a plan that is
//                               not of the whole capture, no completion
//                               signal, a kernarg segment address not
//                               aligned to 16 bytes or to a kernel's
//                               kernarg alignment;
//   RL_STATUS_CONTRACT          a launch whose block is 0 on an axis or has
//                               more than 1024 work-items (the gfx9..gfx12
//                               work-group limit), whose grid × block does
//                               not fit 32 bits, whose group segment
//                               overflows, whose kernel object is 0, or
//                               whose binding or pointer cannot be
//                               evaluated (named: launch, kernel, binding);
//   RL_STATUS_OUT_OF_MEMORY.
//
// Patch table: every value that may change between runs, with where it
// lives, so a run writes only values that changed:
//   RL_AQL_PATCH_KERNARG  a scalar binding: |size| bytes at kernarg-segment
//                         byte |offset|, value = binding expression;
//   RL_AQL_PATCH_POINTER  a pointer slot: 8 bytes at kernarg-segment byte
//                         |offset|, value = buffer address + slot offset;
//   RL_AQL_PATCH_GRID     a grid binding: grid_size of axis |axis| of packet
//                         |packet| (byte |offset| in that packet), value =
//                         work-groups × workgroup size.
//
// The patch table lists, per launch in order, its pointer slots and then
// its bindings. rl_bind_table_apply over rl_aql_program_dests
// (aql/aql_patch.h) re-evaluates it.
//
// Census (rl_aql_program_check): decodes the built packets back and checks
// packets == launches; every header valid (type KERNEL_DISPATCH, reserved
// bits zero, barrier bit and fence scopes exactly as above); setup = 3
// dimensions; workgroup sizes = blocks; grid sizes whole multiples of the
// block, equal to grid × block on unbound axes; segment sizes as above;
// reserved fields zero; every kernarg_address the launch's slice, aligned,
// inside the kernarg segment with its whole kernarg size; every
// kernel_object the loaded descriptor of the launch's kernel; completion
// signal on the last packet only; every patch site inside its launch's
// slice of the segment (KERNARG/POINTER, at the binding's or slot's offset,
// 4 or 8 bytes) or on the grid_size field of its packet (GRID), with
// |current| equal to what the image or packet holds. Failures are
// RL_STATUS_PREPARE naming the packet (or patch) and the field. The check
// is valid at any time: after a re-bind too.
#ifndef REDLINE_AQL_AQL_LOWER_H_
#define REDLINE_AQL_AQL_LOWER_H_

#include <stdint.h>

#include "aql/aql_packet.h"
#include "capture/bind/bind_table.h"
#include "redline/capture.h"
#include "redline/hazard.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// The bind table destinations of an AQL program: the kernarg image
// (mirror: the device's kernarg segment) and the packet templates.
enum { RL_AQL_DEST_KERNARG = 0, RL_AQL_DEST_PACKETS = 1 };

typedef enum rl_aql_patch_kind_e {
  RL_AQL_PATCH_KERNARG = 0,
  RL_AQL_PATCH_POINTER = 1,
  RL_AQL_PATCH_GRID = 2,
} rl_aql_patch_kind_t;

typedef struct rl_aql_patch_s {
  rl_aql_patch_kind_t kind;
  uint32_t launch;
  uint32_t packet;   // packet index (== launch: one packet per launch)
  uint32_t axis;     // 0..2 (GRID)
  uint32_t offset;   // kernarg-segment byte (KERNARG/POINTER) or packet byte
  uint32_t size;     // 4 or 8
  uint32_t binding;  // binding index in the launch (KERNARG/GRID)
  uint32_t slot;     // slot index in the launch (POINTER)
} rl_aql_patch_t;

// What lowering needs to know about the prepared device state.
typedef struct rl_aql_lower_inputs_s {
  const rl_capture_t* capture;
  const rl_hazard_plan_t* plan;          // of the whole capture
  const uint64_t* buffer_addresses;      // one per capture buffer
  const uint64_t* kernel_objects;        // one per capture kernel
  uint64_t kernarg_address;              // device address of the segment
  uint64_t completion_signal;            // device address of the signal
  const int64_t* param_values;           // initial values, one per param
} rl_aql_lower_inputs_t;

typedef struct rl_aql_program_s {
  uint32_t packet_count;
  rl_aql_dispatch_packet_t* packets;  // complete packets, header included
  uint32_t kernarg_size;              // bytes of the kernarg segment
  uint8_t* kernarg;                   // its image (kept current by apply)
  uint32_t* kernarg_offsets;          // per launch, into the segment
  uint32_t patch_count;
  rl_aql_patch_t* patches;
  // The same sites compiled for apply (capture/bind/bind_table.h), site i =
  // patch i; destinations RL_AQL_DEST_KERNARG and RL_AQL_DEST_PACKETS. It
  // holds each site's current value.
  rl_bind_table_t* binds;
  uint32_t barrier_count;             // packets with the barrier bit
} rl_aql_program_t;

// Returns the kernarg segment size |capture| needs (so the caller can
// allocate it before lowering): each launch's kernarg in order, each slice
// starting at a multiple of max(kernel kernarg alignment, 16). Returns 0
// when the capture has no launches or the segment would not fit 32 bits.
uint32_t rl_aql_kernarg_segment_size(const rl_capture_t* capture);

// Lowers the whole capture of |inputs|; see above for the packets, image
// and patch table, and for the errors. *|out_program| is cleared on entry.
rl_status_t rl_aql_lower(const rl_aql_lower_inputs_t* inputs,
                         rl_aql_program_t** out_program);

// The census above, against the same |inputs| lowering used (only the
// capture, plan, kernel objects, kernarg address and completion signal are
// read). Changes nothing.
rl_status_t rl_aql_program_check(const rl_aql_program_t* program,
                                 const rl_aql_lower_inputs_t* inputs);

// Releases |program|; NULL is ignored.
void rl_aql_program_destroy(rl_aql_program_t* program);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_AQL_AQL_LOWER_H_
