// pm4/pm4_lower_internal.h — what the PM4 lowering (pm4_lower.c,
// pm4_emit.c), its census (pm4_census.c) and apply (pm4_patch.c) share;
// private to rl_pm4.
//
// The layout (rl_pm4_layout_t) is everything derived from the lowering
// inputs alone: the family and the register fields lowering encodes, each
// kernel's user SGPR layout, the kernarg slices and dispatch-packet
// images. rl_pm4_launch_state() turns it into the register file one
// dispatch must see. The emitter writes that state (with or without
// retention); the census derives the same layout from the inputs again and
// compares it with what the decoded IB leaves in the register file.
#ifndef REDLINE_PM4_PM4_LOWER_INTERNAL_H_
#define REDLINE_PM4_PM4_LOWER_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "pm4/pm4_builder.h"
#include "pm4/pm4_lower.h"
#include "base/hw/hw_fields.h"

// SH registers: dword indices [RL_PM4_SH_REG_BASE, RL_PM4_SH_REG_END).
#define RL_PM4_SH_COUNT (RL_PM4_SH_REG_END - RL_PM4_SH_REG_BASE)
// An unknown register (never written in the IB so far).
#define RL_PM4_REG_UNKNOWN UINT32_MAX
// A user SGPR the kernel does not enable.
#define RL_PM4_USER_NONE UINT32_MAX
// LDS per work-group on gfx11/gfx12 (AMDGPUUsage "Memory Spaces").
#define RL_PM4_LDS_MAX 65536u
// gfx9..gfx12 work-group limit (work-items).
#define RL_PM4_MAX_WORKGROUP_ITEMS 1024u
// Registers one launch (plus the entry constants) writes: PGM_LO/HI,
// RSRC1..3, START_X..Z, NUM_THREAD_X..Z, RESOURCE_LIMITS, TMPRING,
// RESTART_X..Z and up to 16 USER_DATA.
#define RL_PM4_LAUNCH_REGS_MAX 40u
// The vendor packet's dw_cnt_remain (ROCR ExecutePM4).
#define RL_PM4_VENDOR_DW_CNT_REMAIN 0xAu

// Register fields lowering encodes, resolved once from the family table.
typedef struct rl_pm4_encoding_s {
  rl_pm4_field_t priv;           // COMPUTE_PGM_RSRC1.PRIV
  rl_pm4_field_t lds_size;       // COMPUTE_PGM_RSRC2.LDS_SIZE
  rl_pm4_field_t num_thread[3];  // COMPUTE_NUM_THREAD_X/Y/Z.NUM_THREAD_FULL
  uint32_t initiator;            // CS_EN | FORCE_START_AT_000 | ORDER_MODE
  uint32_t initiator_w32;        // CS_W32_EN
} rl_pm4_encoding_t;

// The user SGPRs of one kernel (USER_DATA register indices from 0).
typedef struct rl_pm4_user_data_s {
  uint32_t count;
  uint32_t dispatch_ptr;  // or RL_PM4_USER_NONE
  uint32_t kernarg_ptr;   // or RL_PM4_USER_NONE
  uint32_t dispatch_id;   // or RL_PM4_USER_NONE: the launch index (2)
  uint32_t private_size;  // or RL_PM4_USER_NONE: fixed private size (1)
} rl_pm4_user_data_t;

typedef struct rl_pm4_layout_s {
  const rl_pm4_lower_inputs_t* inputs;
  const rl_pm4_family_t* family;
  rl_pm4_encoding_t encoding;
  rl_pm4_user_data_t* user_data;  // per kernel
  uint32_t* kernarg_offsets;      // per launch
  uint32_t* image_offsets;        // per launch, or RL_PM4_NO_IMAGE
  uint32_t image_count;
  uint32_t kernarg_size;
  rl_pm4_scratch_t scratch;       // rl_pm4_scratch_layout of the capture
  // Relay (pm4_lower.h; only with inputs->relay_address): the slot of
  // binding b of launch l is relay_slots[binding_first[l] + b], or
  // RL_PM4_RELAY_NONE when the binding is host-written.
  uint32_t relay_count;
  uint32_t* binding_first;        // per launch
  uint32_t* relay_slots;          // per binding
} rl_pm4_layout_t;

// The relay slot of binding |b| of launch |l| (RL_PM4_RELAY_NONE without
// relay or for a host-written binding).
static inline uint32_t rl_pm4_relay_slot(const rl_pm4_layout_t* layout,
                                         uint32_t l, uint32_t b) {
  return layout->relay_slots ? layout->relay_slots[layout->binding_first[l] + b]
                             : RL_PM4_RELAY_NONE;
}

// Whether |binding| may be relayed: a kernarg binding of 4 or 8 bytes at a
// 4-byte aligned offset.
bool rl_pm4_relayable(const rl_scalar_binding_t* binding);

// Numbers the relay slots of |capture| (pm4_relay.c): |out_first| (per
// launch, may be NULL) the index of its first binding, |out_slots| (per
// binding, may be NULL) its slot or RL_PM4_RELAY_NONE; *|out_count| slots.
rl_status_t rl_pm4_relay_assign(const rl_capture_t* capture,
                                uint32_t* out_first, uint32_t* out_slots,
                                uint32_t* out_count);

// Fills |layout|'s relay fields when its inputs ask for relay.
rl_status_t rl_pm4_relay_layout(rl_pm4_layout_t* layout);

// Validates |inputs| (all but |ib_address| and |completion_signal|: the
// caller checks those) and derives the layout; *|out_layout| is
// caller storage, released with rl_pm4_layout_deinit (also on failure).
rl_status_t rl_pm4_layout_init(const rl_pm4_lower_inputs_t* inputs,
                               rl_pm4_layout_t* out_layout);
void rl_pm4_layout_deinit(rl_pm4_layout_t* layout);

// The segment layout of |capture| alone (slices, then images); NULL
// outputs are skipped. False when it does not fit 32 bits or an alignment
// is not a power of two.
bool rl_pm4_segment_layout(const rl_capture_t* capture,
                           uint32_t* out_kernarg_offsets,
                           uint32_t* out_image_offsets,
                           uint32_t* out_image_count, uint32_t* out_size);

// The user SGPR layout of |kernel|, or RL_STATUS_UNSUPPORTED naming the
// kernel and the property the route cannot provide.
rl_status_t rl_pm4_user_data_layout(const rl_pm4_family_t* family,
                                    const rl_capture_kernel_t* kernel,
                                    rl_pm4_user_data_t* out_user_data);

// |value| placed in |field| (the caller proved it fits).
static inline uint32_t rl_pm4_field_encode(rl_pm4_field_t field,
                                           uint32_t value) {
  uint32_t mask = field.width >= 32 ? UINT32_MAX : (1u << field.width) - 1u;
  return (value & mask) << field.shift;
}
static inline bool rl_pm4_field_fits(rl_pm4_field_t field, uint64_t value) {
  return field.width >= 32 || value < (1ull << field.width);
}

// One register value (dword index).
typedef struct rl_pm4_reg_value_s {
  uint32_t index;
  uint32_t value;
} rl_pm4_reg_value_t;

// The registers one dispatch needs, sorted by index, and its initiator.
typedef struct rl_pm4_launch_state_s {
  uint32_t count;
  rl_pm4_reg_value_t regs[RL_PM4_LAUNCH_REGS_MAX];
  uint32_t initiator;
} rl_pm4_launch_state_t;

// The state launch |launch| needs; |constants| adds the entry constants
// (START, RESTART, RESOURCE_LIMITS, TMPRING_SIZE = layout->scratch's and,
// with scratch, DISPATCH_SCRATCH_BASE_LO/HI).
void rl_pm4_launch_state(const rl_pm4_layout_t* layout, uint32_t launch,
                         bool constants, rl_pm4_launch_state_t* out_state);

// The 64-byte dispatch-packet image of launch |launch| for |grid|
// (work-groups).
void rl_pm4_dispatch_image(const rl_pm4_layout_t* layout, uint32_t launch,
                           const uint32_t grid[3],
                           rl_aql_dispatch_packet_t* out_image);

// The SH register file along the IB: values and, per register, the IB
// dword that wrote the value (RL_PM4_REG_UNKNOWN before any write).
typedef struct rl_pm4_regfile_s {
  uint32_t value[RL_PM4_SH_COUNT];
  uint32_t where[RL_PM4_SH_COUNT];
} rl_pm4_regfile_t;

void rl_pm4_regfile_init(rl_pm4_regfile_t* regs);

// How the emitter builds the stream: register retention, and the largest
// IB of the chain (RL_PM4_IB_MIN_DWORDS..RL_PM4_IB_MAX_DWORDS, validated by
// the caller).
typedef struct rl_pm4_emit_options_s {
  bool retain;
  uint32_t ib_max_dwords;
} rl_pm4_emit_options_t;

// Emits the whole stream for |layout| into |builder| (NULL: measure only),
// chained into IBs of at most |options->ib_max_dwords| (pm4_lower.h
// "Chained IBs"; the builder's storage is the whole stream, each IB
// following the chain packet of the one before), and counts it into
// |out_stats|; |grids| holds 3 work-group counts per launch (NULL when
// measuring); |out_dispatch_offsets| (per launch) may be NULL.
// RL_STATUS_INTERNAL if a builder refuses a packet (capacity was proven).
rl_status_t rl_pm4_emit_program(const rl_pm4_layout_t* layout,
                                const rl_pm4_emit_options_t* options,
                                const uint32_t* grids,
                                rl_pm4_builder_t* builder,
                                uint32_t* out_dispatch_offsets,
                                rl_pm4_stats_t* out_stats);

// The census of |program|'s patch table against |layout| (derived from the
// lowering inputs again): one site per slot and binding in pm4_lower.h's
// order, each inside its slice, image or the IB and holding |current|.
// RL_STATUS_PREPARE naming the patch (and the IB dword of a GRID_DIM site).
rl_status_t rl_pm4_census_patch_table(const rl_pm4_program_t* program,
                                      const rl_pm4_layout_t* layout);

#endif  // REDLINE_PM4_PM4_LOWER_INTERNAL_H_
