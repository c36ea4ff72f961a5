// pm4/pm4_packet.h — PM4 type-3 packet header and opcodes for the compute
// engine (MEC) of gfx11 and gfx12.
//
// Sources (see shared/research/pm4_reference.md §1): Mesa src/amd/common/
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
