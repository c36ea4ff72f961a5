// pm4/pm4_builder.c — all-or-nothing PM4 builders (pm4_builder.h). Every
// emit validates its arguments and capacity first, then writes; nothing is
// written on failure. Field positions come from RL_PM4_PACKET_FIELDS
// (pm4_packet.h), the table the decoder reads too.
#include "pm4/pm4_builder.h"

#include <stddef.h>
#include <string.h>

// Largest packet the 14-bit COUNT can describe: COUNT = total - 2.
#define RL_PM4_MAX_PACKET_DWORDS (RL_PM4_COUNT_MASK + 1u)
// NOP payload limit: COUNT 0x3FFF is reserved for the header-only NOP.
#define RL_PM4_MAX_NOP_PAYLOAD (RL_PM4_COUNT_MASK - 1u)

void rl_pm4_builder_init(rl_pm4_builder_t* builder,
                         const rl_pm4_family_t* family, uint32_t* dwords,
                         uint32_t capacity) {
  builder->family = family;
  builder->dwords = dwords;
  builder->capacity = dwords ? capacity : 0;
  builder->count = 0;
}

// Room for |ndw| more dwords, or NULL (nothing changes either way).
static uint32_t* rl_pm4_builder_reserve(rl_pm4_builder_t* builder,
                                        uint32_t ndw) {
  if (!builder || !builder->dwords || builder->count > builder->capacity ||
      ndw > builder->capacity - builder->count) {
    return NULL;
  }
  return builder->dwords + builder->count;
}

// Makes the |ndw| dwords written at the reserved slot part of the stream.
static void rl_pm4_builder_commit(rl_pm4_builder_t* builder, uint32_t ndw,
                                  uint32_t* out_offset) {
  if (out_offset) *out_offset = builder->count;
  builder->count += ndw;
}

static bool rl_pm4_fail(uint32_t* out_offset) {
  if (out_offset) *out_offset = RL_PM4_NO_OFFSET;
  return false;
}

static bool rl_pm4_aligned(uint64_t address, uint64_t alignment) {
  return (address & (alignment - 1)) == 0;
}

static uint32_t rl_pm4_lo(uint64_t value) { return (uint32_t)value; }
static uint32_t rl_pm4_hi(uint64_t value) { return (uint32_t)(value >> 32); }

bool rl_pm4_emit_set_sh_reg(rl_pm4_builder_t* builder, uint32_t reg_index,
                            const uint32_t* values, uint32_t count,
                            uint32_t* out_offset) {
  if (!values || count == 0 || reg_index < RL_PM4_SH_REG_BASE ||
      reg_index >= RL_PM4_SH_REG_END || count > RL_PM4_SH_REG_END - reg_index) {
    return rl_pm4_fail(out_offset);
  }
  uint32_t ndw = 2 + count;
  uint32_t* p = rl_pm4_builder_reserve(builder, ndw);
  if (!p) return rl_pm4_fail(out_offset);
  p[0] = rl_pm4_header(RL_PM4_SET_SH_REG, ndw, RL_PM4_SHADER_TYPE_COMPUTE);
  p[1] = RL_PM4_PUT(SET_SH_REG, REG_OFFSET, reg_index - RL_PM4_SH_REG_BASE);
  memcpy(p + 2, values, count * sizeof(uint32_t));
  rl_pm4_builder_commit(builder, ndw, out_offset);
  return true;
}

bool rl_pm4_emit_dispatch_direct(rl_pm4_builder_t* builder, uint32_t x,
                                 uint32_t y, uint32_t z, uint32_t initiator,
                                 uint32_t* out_offset) {
  uint32_t* p = rl_pm4_builder_reserve(builder, 5);
  if (!p) return rl_pm4_fail(out_offset);
  p[0] = rl_pm4_header(RL_PM4_DISPATCH_DIRECT, 5, RL_PM4_SHADER_TYPE_COMPUTE);
  p[1] = x;
  p[2] = y;
  p[3] = z;
  p[4] = initiator;
  rl_pm4_builder_commit(builder, 5, out_offset);
  return true;
}

bool rl_pm4_emit_event_write(rl_pm4_builder_t* builder, uint32_t event_type,
                             uint32_t event_index, uint32_t* out_offset) {
  if (event_type >> RL_PM4_EVENT_WRITE_EVENT_TYPE_WIDTH ||
      event_index >> RL_PM4_EVENT_WRITE_EVENT_INDEX_WIDTH) {
    return rl_pm4_fail(out_offset);
  }
  uint32_t* p = rl_pm4_builder_reserve(builder, 2);
  if (!p) return rl_pm4_fail(out_offset);
  p[0] = rl_pm4_header(RL_PM4_EVENT_WRITE, 2, 0);
  p[1] = RL_PM4_PUT(EVENT_WRITE, EVENT_TYPE, event_type) |
         RL_PM4_PUT(EVENT_WRITE, EVENT_INDEX, event_index);
  rl_pm4_builder_commit(builder, 2, out_offset);
  return true;
}

bool rl_pm4_emit_cs_partial_flush(rl_pm4_builder_t* builder,
                                  uint32_t* out_offset) {
  return rl_pm4_emit_event_write(builder, RL_PM4_EVENT_CS_PARTIAL_FLUSH,
                                 RL_PM4_EVENT_INDEX_PARTIAL_FLUSH, out_offset);
}

bool rl_pm4_emit_acquire_mem(rl_pm4_builder_t* builder, uint32_t gcr_cntl,
                             uint32_t* out_offset) {
  if (gcr_cntl >> RL_PM4_ACQUIRE_MEM_GCR_CNTL_WIDTH) {
    return rl_pm4_fail(out_offset);
  }
  uint32_t* p = rl_pm4_builder_reserve(builder, 8);
  if (!p) return rl_pm4_fail(out_offset);
  p[0] = rl_pm4_header(RL_PM4_ACQUIRE_MEM, 8, 0);
  p[1] = 0;  // COHER_CNTL: MEC reserved
  p[2] = RL_PM4_PUT(ACQUIRE_MEM, COHER_SIZE, 0xFFFFFFFFu);
  p[3] = RL_PM4_PUT(ACQUIRE_MEM, COHER_SIZE_HI, 0xFFu);
  p[4] = 0;  // COHER_BASE_LO
  p[5] = 0;  // COHER_BASE_HI
  p[6] = RL_PM4_PUT(ACQUIRE_MEM, POLL_INTERVAL, 0x0Au);
  p[7] = RL_PM4_PUT(ACQUIRE_MEM, GCR_CNTL, gcr_cntl);
  rl_pm4_builder_commit(builder, 8, out_offset);
  return true;
}

// DATA_SEL values that write 64 bits and so need an 8-byte aligned address.
static bool rl_pm4_data_sel_is_64(uint32_t data_sel) {
  return data_sel == RL_PM4_DATA_SEL_64 ||
         data_sel == RL_PM4_DATA_SEL_GPU_CLOCK ||
         data_sel == RL_PM4_DATA_SEL_SYSTEM_CLOCK;
}

static bool rl_pm4_release_mem_valid(const rl_pm4_release_mem_t* r) {
  return r && !(r->event_type >> RL_PM4_RELEASE_MEM_EVENT_TYPE_WIDTH) &&
         !(r->event_index >> RL_PM4_RELEASE_MEM_EVENT_INDEX_WIDTH) &&
         (r->gcr & 0xFFFu) == 0 &&
         !(r->dst_sel >> RL_PM4_RELEASE_MEM_DST_SEL_WIDTH) &&
         !(r->int_sel >> RL_PM4_RELEASE_MEM_INT_SEL_WIDTH) &&
         !(r->data_sel >> RL_PM4_RELEASE_MEM_DATA_SEL_WIDTH) &&
         rl_pm4_aligned(r->address, rl_pm4_data_sel_is_64(r->data_sel) ? 8 : 4);
}

bool rl_pm4_emit_release_mem(rl_pm4_builder_t* builder,
                             const rl_pm4_release_mem_t* release,
                             uint32_t* out_offset) {
  if (!rl_pm4_release_mem_valid(release)) return rl_pm4_fail(out_offset);
  uint32_t* p = rl_pm4_builder_reserve(builder, 8);
  if (!p) return rl_pm4_fail(out_offset);
  p[0] = rl_pm4_header(RL_PM4_RELEASE_MEM, 8, 0);
  p[1] = RL_PM4_PUT(RELEASE_MEM, EVENT_TYPE, release->event_type) |
         RL_PM4_PUT(RELEASE_MEM, EVENT_INDEX, release->event_index) |
         release->gcr;
  p[2] = RL_PM4_PUT(RELEASE_MEM, DST_SEL, release->dst_sel) |
         RL_PM4_PUT(RELEASE_MEM, INT_SEL, release->int_sel) |
         RL_PM4_PUT(RELEASE_MEM, DATA_SEL, release->data_sel);
  p[3] = rl_pm4_lo(release->address);
  p[4] = rl_pm4_hi(release->address);
  p[5] = rl_pm4_lo(release->data);
  p[6] = rl_pm4_hi(release->data);
  p[7] = 0;  // INT_CTXID
  rl_pm4_builder_commit(builder, 8, out_offset);
  return true;
}

bool rl_pm4_emit_wait_reg_mem(rl_pm4_builder_t* builder, uint32_t function,
                              uint64_t address, uint32_t reference,
                              uint32_t mask, uint32_t poll_interval,
                              uint32_t* out_offset) {
  if (function > RL_PM4_WAIT_GT || !rl_pm4_aligned(address, 4) ||
      poll_interval >> RL_PM4_WAIT_REG_MEM_POLL_INTERVAL_WIDTH) {
    return rl_pm4_fail(out_offset);
  }
  uint32_t* p = rl_pm4_builder_reserve(builder, 7);
  if (!p) return rl_pm4_fail(out_offset);
  p[0] = rl_pm4_header(RL_PM4_WAIT_REG_MEM, 7, 0);
  p[1] = RL_PM4_PUT(WAIT_REG_MEM, FUNCTION, function) |
         RL_PM4_PUT(WAIT_REG_MEM, MEM_SPACE, 1);
  p[2] = rl_pm4_lo(address);
  p[3] = rl_pm4_hi(address);
  p[4] = reference;
  p[5] = mask;
  p[6] = RL_PM4_PUT(WAIT_REG_MEM, POLL_INTERVAL, poll_interval);
  rl_pm4_builder_commit(builder, 7, out_offset);
  return true;
}

bool rl_pm4_emit_write_data(rl_pm4_builder_t* builder, uint64_t address,
                            const uint32_t* data, uint32_t count,
                            uint32_t* out_offset) {
  if (!data || count == 0 || count > RL_PM4_MAX_PACKET_DWORDS - 4 ||
      !rl_pm4_aligned(address, 4)) {
    return rl_pm4_fail(out_offset);
  }
  uint32_t ndw = 4 + count;
  uint32_t* p = rl_pm4_builder_reserve(builder, ndw);
  if (!p) return rl_pm4_fail(out_offset);
  p[0] = rl_pm4_header(RL_PM4_WRITE_DATA, ndw, 0);
  p[1] = RL_PM4_PUT(WRITE_DATA, DST_SEL, RL_PM4_SEL_MEMORY) |
         RL_PM4_PUT(WRITE_DATA, WR_CONFIRM, 1);
  p[2] = rl_pm4_lo(address);
  p[3] = rl_pm4_hi(address);
  memcpy(p + 4, data, count * sizeof(uint32_t));
  rl_pm4_builder_commit(builder, ndw, out_offset);
  return true;
}

// COPY_DATA selectors that address memory (PAL MEC_COPY_DATA_*_sel_enum:
// src 1/2 TC_L2, dst 2 TC_L2, 5 TC_L2 obsolete a.k.a. Mesa DST_MEM).
static bool rl_pm4_copy_src_is_memory(uint32_t sel) {
  return sel == 1 || sel == 2;
}
static bool rl_pm4_copy_dst_is_memory(uint32_t sel) {
  return sel == 2 || sel == 5;
}

bool rl_pm4_emit_copy_data(rl_pm4_builder_t* builder, uint32_t src_sel,
                           uint64_t src, uint32_t dst_sel, uint64_t dst,
                           bool count_64, uint32_t* out_offset) {
  uint64_t alignment = count_64 ? 8 : 4;
  if (src_sel >> RL_PM4_COPY_DATA_SRC_SEL_WIDTH ||
      dst_sel >> RL_PM4_COPY_DATA_DST_SEL_WIDTH ||
      (rl_pm4_copy_src_is_memory(src_sel) && !rl_pm4_aligned(src, alignment)) ||
      (rl_pm4_copy_dst_is_memory(dst_sel) && !rl_pm4_aligned(dst, alignment))) {
    return rl_pm4_fail(out_offset);
  }
  uint32_t* p = rl_pm4_builder_reserve(builder, 6);
  if (!p) return rl_pm4_fail(out_offset);
  p[0] = rl_pm4_header(RL_PM4_COPY_DATA, 6, 0);
  p[1] = RL_PM4_PUT(COPY_DATA, SRC_SEL, src_sel) |
         RL_PM4_PUT(COPY_DATA, DST_SEL, dst_sel) |
         RL_PM4_PUT(COPY_DATA, COUNT_SEL, count_64 ? 1 : 0) |
         RL_PM4_PUT(COPY_DATA, WR_CONFIRM,
                    rl_pm4_copy_dst_is_memory(dst_sel) ? 1 : 0);
  p[2] = rl_pm4_lo(src);
  p[3] = rl_pm4_hi(src);
  p[4] = rl_pm4_lo(dst);
  p[5] = rl_pm4_hi(dst);
  rl_pm4_builder_commit(builder, 6, out_offset);
  return true;
}

bool rl_pm4_emit_indirect_buffer(rl_pm4_builder_t* builder, uint64_t address,
                                 uint32_t size_dwords, bool chain,
                                 uint32_t* out_offset) {
  if (size_dwords == 0 || size_dwords > RL_PM4_IB_MAX_DWORDS ||
      !rl_pm4_aligned(address, 4)) {
    return rl_pm4_fail(out_offset);
  }
  uint32_t* p = rl_pm4_builder_reserve(builder, 4);
  if (!p) return rl_pm4_fail(out_offset);
  p[0] = rl_pm4_header(RL_PM4_INDIRECT_BUFFER, 4, 0);
  p[1] = rl_pm4_lo(address);
  p[2] = rl_pm4_hi(address);
  p[3] = RL_PM4_PUT(INDIRECT_BUFFER, IB_SIZE, size_dwords) |
         RL_PM4_PUT(INDIRECT_BUFFER, CHAIN, chain ? 1 : 0) |
         RL_PM4_PUT(INDIRECT_BUFFER, VALID, 1);
  rl_pm4_builder_commit(builder, 4, out_offset);
  return true;
}

bool rl_pm4_emit_nop(rl_pm4_builder_t* builder, uint32_t payload_dwords,
                     uint32_t* out_offset) {
  if (payload_dwords > RL_PM4_MAX_NOP_PAYLOAD) return rl_pm4_fail(out_offset);
  uint32_t ndw = payload_dwords == 0 ? 1 : payload_dwords + 1;
  uint32_t* p = rl_pm4_builder_reserve(builder, ndw);
  if (!p) return rl_pm4_fail(out_offset);
  if (payload_dwords == 0) {
    p[0] = RL_PM4_NOP_HEADER_ONLY;
  } else {
    p[0] = rl_pm4_header(RL_PM4_NOP, ndw, 0);
    memset(p + 1, 0, payload_dwords * sizeof(uint32_t));
  }
  rl_pm4_builder_commit(builder, ndw, out_offset);
  return true;
}
