// pm4/pm4_packet.h — PM4 type-3 packet header and opcodes for the compute
// engine (MEC) of gfx11 and gfx12.
//
// Sources: Mesa src/amd/common/
// sid.h (PKT3 header fields, opcode values), PAL gfx9_plus_merged_pm4_it_
// opcodes.h and gfx12_merged_pm4_it_opcodes.h, Linux drivers/gpu/drm/amd/
// amdgpu/nvd.h (PACKET3_* opcodes), ROCR amd_gpu_pm4.h (PM4_HDR).
//
// Header dword: TYPE[31:30] = 3, COUNT[29:16] = packet dwords - 2,
// IT_OPCODE[15:8], RESET_FILTER_CAM bit 2, SHADER_TYPE bit 1 (1 = compute;
// set on SH-register packets and dispatches), PREDICATE bit 0 (0 on MEC).
#ifndef REDLINE_PM4_PM4_PACKET_H_
#define REDLINE_PM4_PM4_PACKET_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RL_PM4_TYPE3 3u
#define RL_PM4_TYPE_SHIFT 30
#define RL_PM4_COUNT_SHIFT 16
#define RL_PM4_COUNT_MASK 0x3fffu
#define RL_PM4_OPCODE_SHIFT 8
#define RL_PM4_OPCODE_MASK 0xffu
#define RL_PM4_SHADER_TYPE_COMPUTE (1u << 1)
// Type-2 filler (sid.h PKT2_NOP_PAD).
#define RL_PM4_TYPE2_NOP 0x80000000u

// Opcodes (identical on gfx9..gfx12 for these; pm4_reference.md §1.2).
enum {
  RL_PM4_NOP = 0x10,
  RL_PM4_DISPATCH_DIRECT = 0x15,
  RL_PM4_WRITE_DATA = 0x37,
  RL_PM4_WAIT_REG_MEM = 0x3c,
  RL_PM4_INDIRECT_BUFFER = 0x3f,
  RL_PM4_COPY_DATA = 0x40,
  RL_PM4_EVENT_WRITE = 0x46,
  RL_PM4_RELEASE_MEM = 0x49,
  RL_PM4_ACQUIRE_MEM = 0x58,
  RL_PM4_SET_SH_REG = 0x76,
};

// Event types (VGT_EVENT_TYPE; Linux include/soc21_enum.h and soc24_enum.h,
// PAL gfx9_plus_merged_enum.h) and EVENT_INDEX values (nvd.h EVENT_INDEX
// comment, PAL MEC_RELEASE_MEM_event_index_enum).
enum {
  RL_PM4_EVENT_CACHE_FLUSH_TS = 0x04,
  RL_PM4_EVENT_CACHE_FLUSH = 0x06,
  RL_PM4_EVENT_CS_PARTIAL_FLUSH = 0x07,
  RL_PM4_EVENT_CACHE_FLUSH_AND_INV_TS = 0x14,
  RL_PM4_EVENT_BOTTOM_OF_PIPE_TS = 0x28,
  RL_PM4_EVENT_CS_DONE = 0x2f,
};
enum {
  RL_PM4_EVENT_INDEX_OTHER = 0,
  RL_PM4_EVENT_INDEX_PARTIAL_FLUSH = 4,  // *S_PARTIAL_FLUSH (EVENT_WRITE)
  RL_PM4_EVENT_INDEX_END_OF_PIPE = 5,    // *_TS events (RELEASE_MEM)
  RL_PM4_EVENT_INDEX_SHADER_DONE = 6,    // CS_DONE/PS_DONE (RELEASE_MEM)
};

// RELEASE_MEM DATA_SEL / INT_SEL / DST_SEL values (nvd.h comments; PAL
// MEC_RELEASE_MEM_*_enum).
enum {
  RL_PM4_DATA_SEL_NONE = 0,
  RL_PM4_DATA_SEL_LOW32 = 1,
  RL_PM4_DATA_SEL_64 = 2,
  RL_PM4_DATA_SEL_GPU_CLOCK = 3,
  RL_PM4_DATA_SEL_SYSTEM_CLOCK = 4,
};
enum {
  RL_PM4_INT_SEL_NONE = 0,
  RL_PM4_INT_SEL_AFTER_WRITE_CONFIRM = 2,
  RL_PM4_INT_SEL_WRITE_CONFIRM = 3,
};
// WRITE_DATA / COPY_DATA selectors (nvd.h WRITE_DATA_DST_SEL comment, PAL
// MEC_COPY_DATA_src_sel_enum / dst_sel_enum).
enum {
  RL_PM4_SEL_REGISTER = 0,
  RL_PM4_SEL_TC_L2 = 2,
  RL_PM4_SEL_MEMORY = 5,      // WRITE_DATA DST_SEL 5, COPY_DATA DST_SEL 5
  RL_PM4_SEL_IMMEDIATE = 5,   // COPY_DATA SRC_SEL 5
  RL_PM4_SEL_GPU_CLOCK = 9,   // COPY_DATA SRC_SEL 9
};
// WAIT_REG_MEM FUNCTION values (nvd.h WAIT_REG_MEM_FUNCTION comment).
enum {
  RL_PM4_WAIT_ALWAYS = 0,
  RL_PM4_WAIT_LT = 1,
  RL_PM4_WAIT_LE = 2,
  RL_PM4_WAIT_EQ = 3,
  RL_PM4_WAIT_NE = 4,
  RL_PM4_WAIT_GE = 5,
  RL_PM4_WAIT_GT = 6,
};

// Fixed payload fields of the MEC packets redline builds and decodes:
// X(OPCODE, DWORD, FIELD, SHIFT, WIDTH), DWORD numbered with the header as
// dword 0 (as in ROCR's cache_inv[] and Mesa's comments). The family-
// specific GCR sub-fields of ACQUIRE_MEM GCR_CNTL and RELEASE_MEM GCR_CNTL
// live in the family tables (pm4_family.h). Expanded once into
// RL_PM4_<OP>_<FIELD>_{DWORD,SHIFT,WIDTH} constants for encoders and once
// into the decoder's table, so both read the same layout.
// Sources: PAL gfx9_plus_merged_f32_mec_pm4_packets.h and
// gfx12_merged_f32_mec_pm4_packets.h (PM4_MEC_* structs: identical positions
// on gfx11 and gfx12 for every field below; gfx12 renames CACHE_POLICY to
// TEMPORAL), Linux nvd.h (WRITE_DATA_*, WAIT_REG_MEM_*, INDIRECT_BUFFER_*,
// PACKET3_RELEASE_MEM_*, PACKET3_ACQUIRE_MEM comment).
#define RL_PM4_PACKET_FIELDS(X)                               \
  X(SET_SH_REG, 1, REG_OFFSET, 0, 16)                         \
  X(SET_SH_REG, 1, VMID_SHIFT, 23, 5)                         \
  X(SET_SH_REG, 1, INDEX, 28, 4)                              \
  X(DISPATCH_DIRECT, 1, DIM_X, 0, 32)                         \
  X(DISPATCH_DIRECT, 2, DIM_Y, 0, 32)                         \
  X(DISPATCH_DIRECT, 3, DIM_Z, 0, 32)                         \
  X(DISPATCH_DIRECT, 4, INITIATOR, 0, 32)                     \
  X(EVENT_WRITE, 1, EVENT_TYPE, 0, 6)                         \
  X(EVENT_WRITE, 1, EVENT_INDEX, 8, 4)                        \
  X(EVENT_WRITE, 1, OFFLOAD_ENABLE, 31, 1)                    \
  X(ACQUIRE_MEM, 1, COHER_CNTL, 0, 32)                        \
  X(ACQUIRE_MEM, 2, COHER_SIZE, 0, 32)                        \
  X(ACQUIRE_MEM, 3, COHER_SIZE_HI, 0, 8)                      \
  X(ACQUIRE_MEM, 4, COHER_BASE_LO, 0, 32)                     \
  X(ACQUIRE_MEM, 5, COHER_BASE_HI, 0, 24)                     \
  X(ACQUIRE_MEM, 6, POLL_INTERVAL, 0, 16)                     \
  X(ACQUIRE_MEM, 7, GCR_CNTL, 0, 19)                          \
  X(RELEASE_MEM, 1, EVENT_TYPE, 0, 6)                         \
  X(RELEASE_MEM, 1, EVENT_INDEX, 8, 4)                        \
  X(RELEASE_MEM, 1, GCR_CNTL, 12, 13)                         \
  X(RELEASE_MEM, 1, CACHE_POLICY, 25, 2)                      \
  X(RELEASE_MEM, 1, PQ_EXE_STATUS, 28, 1)                     \
  X(RELEASE_MEM, 1, GLK_INV, 30, 1)                           \
  X(RELEASE_MEM, 2, DST_SEL, 16, 2)                           \
  X(RELEASE_MEM, 2, INT_SEL, 24, 3)                           \
  X(RELEASE_MEM, 2, DATA_SEL, 29, 3)                          \
  X(RELEASE_MEM, 3, ADDRESS_LO, 0, 32)                        \
  X(RELEASE_MEM, 4, ADDRESS_HI, 0, 32)                        \
  X(RELEASE_MEM, 5, DATA_LO, 0, 32)                           \
  X(RELEASE_MEM, 6, DATA_HI, 0, 32)                           \
  X(RELEASE_MEM, 7, INT_CTXID, 0, 32)                         \
  X(WAIT_REG_MEM, 1, FUNCTION, 0, 3)                          \
  X(WAIT_REG_MEM, 1, MEM_SPACE, 4, 2)                         \
  X(WAIT_REG_MEM, 1, OPERATION, 6, 2)                         \
  X(WAIT_REG_MEM, 1, CACHE_POLICY, 25, 2)                     \
  X(WAIT_REG_MEM, 2, POLL_ADDRESS_LO, 0, 32)                  \
  X(WAIT_REG_MEM, 3, POLL_ADDRESS_HI, 0, 32)                  \
  X(WAIT_REG_MEM, 4, REFERENCE, 0, 32)                        \
  X(WAIT_REG_MEM, 5, MASK, 0, 32)                             \
  X(WAIT_REG_MEM, 6, POLL_INTERVAL, 0, 16)                    \
  X(WAIT_REG_MEM, 6, OPTIMIZE_ACE_OFFLOAD_MODE, 31, 1)        \
  X(WRITE_DATA, 1, DST_SEL, 8, 4)                             \
  X(WRITE_DATA, 1, ADDR_INCR, 16, 1) /* 1 = do not increment */ \
  X(WRITE_DATA, 1, WR_CONFIRM, 20, 1)                         \
  X(WRITE_DATA, 1, CACHE_POLICY, 25, 2)                       \
  X(WRITE_DATA, 2, DST_ADDR_LO, 0, 32)                        \
  X(WRITE_DATA, 3, DST_ADDR_HI, 0, 32)                        \
  X(COPY_DATA, 1, SRC_SEL, 0, 4)                              \
  X(COPY_DATA, 1, DST_SEL, 8, 4)                              \
  X(COPY_DATA, 1, SRC_CACHE_POLICY, 13, 2)                    \
  X(COPY_DATA, 1, COUNT_SEL, 16, 1)                           \
  X(COPY_DATA, 1, WR_CONFIRM, 20, 1)                          \
  X(COPY_DATA, 1, DST_CACHE_POLICY, 25, 2)                    \
  X(COPY_DATA, 1, PQ_EXE_STATUS, 29, 1)                       \
  X(COPY_DATA, 2, SRC_ADDR_LO, 0, 32)                         \
  X(COPY_DATA, 3, SRC_ADDR_HI, 0, 32)                         \
  X(COPY_DATA, 4, DST_ADDR_LO, 0, 32)                         \
  X(COPY_DATA, 5, DST_ADDR_HI, 0, 32)                         \
  X(INDIRECT_BUFFER, 1, IB_BASE_LO, 0, 32)                    \
  X(INDIRECT_BUFFER, 2, IB_BASE_HI, 0, 32)                    \
  X(INDIRECT_BUFFER, 3, IB_SIZE, 0, 20)                       \
  X(INDIRECT_BUFFER, 3, CHAIN, 20, 1)                         \
  X(INDIRECT_BUFFER, 3, OFFLOAD_POLLING, 21, 1)               \
  X(INDIRECT_BUFFER, 3, VALID, 23, 1)                         \
  X(INDIRECT_BUFFER, 3, VMID, 24, 4)                          \
  X(INDIRECT_BUFFER, 3, CACHE_POLICY, 28, 2)

#define RL_PM4_FIELD_ENUM_(op, dword, field, shift, width) \
  RL_PM4_##op##_##field##_DWORD = (dword),                  \
  RL_PM4_##op##_##field##_SHIFT = (shift),                  \
  RL_PM4_##op##_##field##_WIDTH = (width),
enum { RL_PM4_PACKET_FIELDS(RL_PM4_FIELD_ENUM_) };
#undef RL_PM4_FIELD_ENUM_

// Field helpers: the |width|-bit field at |shift| of |value|, and |field|
// placed at |shift| (truncated to |width| bits).
static inline uint32_t rl_pm4_bits_get(uint32_t value, uint32_t shift,
                                       uint32_t width) {
  uint32_t mask = width >= 32 ? 0xffffffffu : ((1u << width) - 1u);
  return (value >> shift) & mask;
}
static inline uint32_t rl_pm4_bits_put(uint32_t field, uint32_t shift,
                                       uint32_t width) {
  uint32_t mask = width >= 32 ? 0xffffffffu : ((1u << width) - 1u);
  return (field & mask) << shift;
}
#define RL_PM4_GET(op, field, value)                               \
  rl_pm4_bits_get((value), RL_PM4_##op##_##field##_SHIFT,          \
                  RL_PM4_##op##_##field##_WIDTH)
#define RL_PM4_PUT(op, field, value)                               \
  rl_pm4_bits_put((uint32_t)(value), RL_PM4_##op##_##field##_SHIFT, \
                  RL_PM4_##op##_##field##_WIDTH)

// The INDIRECT_BUFFER IB_SIZE field is 20 bits of dwords (PAL
// PM4_MEC_INDIRECT_BUFFER; pm4_reference.md §1.3): the largest one IB.
#define RL_PM4_IB_MAX_DWORDS ((1u << 20) - 1u)

// IB chaining (docs/pm4-chaining.md): a command stream longer than one IB is
// split into IBs, each but the last ending with an INDIRECT_BUFFER with
// CHAIN=1 to the next; the CP continues there and does not return. As
// Mesa's amdgpu winsys does (amdgpu_cs_check_space, radv_amdgpu_cs_grow):
// the chain packet is the last packet of its IB, its IB_SIZE is the next
// IB's size (written once that IB is complete), and the IB is padded with
// a NOP before the chain packet so that its size, chain packet included, is
// a multiple of the compute ring's IB padding: 8 dwords (ac_gpu_info.c
// ib_pad_dw_mask 0x7 for AMD_IP_COMPUTE).
#define RL_PM4_CHAIN_DWORDS 4u
#define RL_PM4_IB_PAD_DWORDS 8u

// Header-only NOP (sid.h PKT3_NOP_PAD: COUNT 0x3FFF means "this dword
// only"). The CP skips exactly one dword for it.
#define RL_PM4_NOP_HEADER_ONLY 0xffff1000u

// The SH register window: dword indices 0x2C00..0x2FFF (PAL
// PERSISTENT_SPACE_START/END; Mesa SI_SH_REG_OFFSET 0xB000..0xC000 bytes).
#define RL_PM4_SH_REG_BASE 0x2c00u
#define RL_PM4_SH_REG_END 0x3000u  // exclusive

// Builds a type-3 header for a packet of |total_dwords| (header included,
// at least 2) with |opcode|; |flags| ORs in SHADER_TYPE etc.
static inline uint32_t rl_pm4_header(uint32_t opcode, uint32_t total_dwords,
                                     uint32_t flags) {
  return (RL_PM4_TYPE3 << RL_PM4_TYPE_SHIFT) |
         (((total_dwords - 2) & RL_PM4_COUNT_MASK) << RL_PM4_COUNT_SHIFT) |
         ((opcode & RL_PM4_OPCODE_MASK) << RL_PM4_OPCODE_SHIFT) | flags;
}

static inline uint32_t rl_pm4_header_type(uint32_t header) {
  return header >> RL_PM4_TYPE_SHIFT;
}
static inline uint32_t rl_pm4_header_dwords(uint32_t header) {
  return ((header >> RL_PM4_COUNT_SHIFT) & RL_PM4_COUNT_MASK) + 2;
}
static inline uint32_t rl_pm4_header_opcode(uint32_t header) {
  return (header >> RL_PM4_OPCODE_SHIFT) & RL_PM4_OPCODE_MASK;
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_PM4_PM4_PACKET_H_
