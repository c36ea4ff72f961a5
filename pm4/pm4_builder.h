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
// non-NULL, so callers can record patch sites.
#ifndef REDLINE_PM4_PM4_BUILDER_H_
#define REDLINE_PM4_PM4_BUILDER_H_

#include <stdbool.h>
#include <stdint.h>

#include "pm4/pm4_family.h"
#include "pm4/pm4_packet.h"

#ifdef __cplusplus
extern "C" {
#endif

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

// NOP with |payload_dwords| (0 = header-only 0xFFFF1000 form not used;
// a 1-dword NOP is the type-3 header with COUNT 0x3FFF per sid.h).
bool rl_pm4_emit_nop(rl_pm4_builder_t* builder, uint32_t payload_dwords,
                     uint32_t* out_offset);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_PM4_PM4_BUILDER_H_
