// pm4/pm4_builder.h — all-or-nothing builders for the PM4 packets compute
// replay needs (MEC layouts; pm4_reference.md §1.3).
//
// A builder writes into caller-provided dword storage. Every emit function
// either writes its whole packet and returns true, or — when the packet does
// not fit, or an argument is outside what the packet can encode (a register
// outside the SH window, a misaligned address) — writes nothing, leaves the
// builder unchanged and returns false. Lowering proves capacity up front
// (validate → plan → emit), so false there is an internal error.
// Each emitted packet's dword offset is returned through |out_offset| when
// non-NULL, so callers can record patch sites; a failed emit sets it to
// RL_PM4_NO_OFFSET.
//
// Exactly what each builder sets (golden encodings in
// tests/unit/pm4/pm4_builder_test.c):
//   - SET_SH_REG and DISPATCH_DIRECT carry SHADER_TYPE=1 (compute) in the
//     header (Mesa radeonsi/radv on compute queues; PAL Type3Header comment:
//     it matters for SH-register packets); no other packet sets it.
//   - SET_SH_REG: INDEX 0, VMID_SHIFT 0; the whole run must lie inside the
//     SH window 0x2C00..0x2FFF; 1..(window) registers.
//   - EVENT_WRITE: DW1 = EVENT_TYPE | EVENT_INDEX << 8, OFFLOAD_ENABLE 0.
//   - ACQUIRE_MEM: {0, 0xFFFFFFFF, 0xFF, 0, 0, 0x0A, gcr_cntl}: full range
//     (COHER_SIZE all ones, COHER_SIZE_HI all 8 MEC bits, base 0; ROCR
//     InvalidateCodeCaches), POLL_INTERVAL 0x0A (Linux gfx_v11_0_emit_mem_
//     sync); |gcr_cntl| must fit in 19 bits.
//   - RELEASE_MEM: DW1 = event type | index << 8 | |gcr| (bits 31:12 only),
//     DW2 = DST_SEL << 16 | INT_SEL << 24 | DATA_SEL << 29, address
//     4-byte aligned (8 for DATA_SEL 2..4, 64-bit writes; kernel
//     gfx_v11_0_ring_emit_fence), INT_CTXID 0.
//   - WAIT_REG_MEM: MEM_SPACE 1 (memory), OPERATION 0 (wait), FUNCTION 0..6,
//     address 4-byte aligned, POLL_INTERVAL <= 0xFFFF.
//   - WRITE_DATA: DST_SEL 5 (memory), WR_CONFIRM 1, ADDR_INCR 0 (increment),
//     address 4-byte aligned, 1..(COUNT limit) dwords.
//   - COPY_DATA: SRC_SEL/DST_SEL as given, COUNT_SEL = |count_64|,
//     WR_CONFIRM when the destination is memory (DST_SEL 2 or 5); memory
//     operands must be 4-byte aligned (8 with |count_64|).
//   - INDIRECT_BUFFER: size 1..0xFFFFF dwords, VALID 1, CHAIN as given,
//     VMID 0, address 4-byte aligned.
//   - NOP: payload 0 emits the one-dword header-only NOP 0xFFFF1000 (sid.h
//     PKT3_NOP_PAD); payload N >= 1 emits a header with COUNT N-1 followed
//     by N zero dwords (N <= 0x3FFE so COUNT never reads as 0x3FFF).
#ifndef REDLINE_PM4_PM4_BUILDER_H_
#define REDLINE_PM4_PM4_BUILDER_H_

#include <stdbool.h>
#include <stdint.h>

#include "pm4/pm4_family.h"
#include "pm4/pm4_packet.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_PM4_NO_OFFSET UINT32_MAX

typedef struct rl_pm4_builder_s {
  const rl_pm4_family_t* family;
  uint32_t* dwords;
  uint32_t capacity;
  uint32_t count;
} rl_pm4_builder_t;

void rl_pm4_builder_init(rl_pm4_builder_t* builder,
                         const rl_pm4_family_t* family, uint32_t* dwords,
                         uint32_t capacity);

// SET_SH_REG: |count| consecutive registers from dword index |reg_index|.
bool rl_pm4_emit_set_sh_reg(rl_pm4_builder_t* builder, uint32_t reg_index,
                            const uint32_t* values, uint32_t count,
                            uint32_t* out_offset);

// DISPATCH_DIRECT: work-group counts and COMPUTE_DISPATCH_INITIATOR.
bool rl_pm4_emit_dispatch_direct(rl_pm4_builder_t* builder, uint32_t x,
                                 uint32_t y, uint32_t z, uint32_t initiator,
                                 uint32_t* out_offset);

// EVENT_WRITE of a non-sample event; CS_PARTIAL_FLUSH = type 7, index 4.
bool rl_pm4_emit_event_write(rl_pm4_builder_t* builder, uint32_t event_type,
                             uint32_t event_index, uint32_t* out_offset);
bool rl_pm4_emit_cs_partial_flush(rl_pm4_builder_t* builder,
                                  uint32_t* out_offset);

// ACQUIRE_MEM over the full address range with |gcr_cntl|.
bool rl_pm4_emit_acquire_mem(rl_pm4_builder_t* builder, uint32_t gcr_cntl,
                             uint32_t* out_offset);

typedef struct rl_pm4_release_mem_s {
  uint32_t event_type;   // e.g. CACHE_FLUSH_AND_INV_TS_EVENT 0x14
  uint32_t event_index;  // 5 = end of pipe
  uint32_t gcr;          // dword-1 GCR bits (family's release encoding)
  uint32_t dst_sel;      // 0 memory
  uint32_t int_sel;      // 0 none
  uint32_t data_sel;     // 1 low 32, 2 64 bits, 3 GPU clock
  uint64_t address;
  uint64_t data;
} rl_pm4_release_mem_t;
bool rl_pm4_emit_release_mem(rl_pm4_builder_t* builder,
                             const rl_pm4_release_mem_t* release,
                             uint32_t* out_offset);

// WAIT_REG_MEM on memory: wait until (*address & mask) FUNCTION reference.
bool rl_pm4_emit_wait_reg_mem(rl_pm4_builder_t* builder, uint32_t function,
                              uint64_t address, uint32_t reference,
                              uint32_t mask, uint32_t poll_interval,
                              uint32_t* out_offset);

// WRITE_DATA of |count| dwords to memory (DST_SEL 5, WR_CONFIRM).
bool rl_pm4_emit_write_data(rl_pm4_builder_t* builder, uint64_t address,
                            const uint32_t* data, uint32_t count,
                            uint32_t* out_offset);

// COPY_DATA; |src_sel| 9 = GPU clock for timestamps, |dst_sel| 5 memory.
bool rl_pm4_emit_copy_data(rl_pm4_builder_t* builder, uint32_t src_sel,
                           uint64_t src, uint32_t dst_sel, uint64_t dst,
                           bool count_64, uint32_t* out_offset);

// INDIRECT_BUFFER of |size_dwords| at |address| (dword-aligned); |chain|
// makes it a chained IB (execution does not return).
bool rl_pm4_emit_indirect_buffer(rl_pm4_builder_t* builder, uint64_t address,
                                 uint32_t size_dwords, bool chain,
                                 uint32_t* out_offset);

// NOP with |payload_dwords| (0 = the one-dword header-only form
// 0xFFFF1000, COUNT 0x3FFF per sid.h PKT3_NOP_PAD).
bool rl_pm4_emit_nop(rl_pm4_builder_t* builder, uint32_t payload_dwords,
                     uint32_t* out_offset);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_PM4_PM4_BUILDER_H_
