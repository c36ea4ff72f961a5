// base/hw/gfx12_registers.h — the gfx12 (RDNA4 gfx1200, gfx1201) compute SH
// registers and the GCR_CNTL fields of ACQUIRE_MEM and RELEASE_MEM.
//
// Sources:
//   - Registers and fields: Linux 6.12 (Debian linux-source-6.12
//     6.12.117-1~deb12u1) drivers/gpu/drm/amd/include/asic_reg/gc/
//     gc_12_0_0_offset.h (regCOMPUTE_*, BASE_IDX 0, + GC base 0x1260 as on
//     gfx11; PAL gfx12_merged_offset.h mm* values agree) and
//     gc_12_0_0_sh_mask.h. Differences from gfx11 visible here: NUM_THREAD_X/Y
//     FULL is 13 bits with INTERLEAVE_BITS_X/Y at 15:13; RSRC1 bits 21/22/23/
//     25 are WG_RR_EN/DEBUG_MODE/DISABLE_PERF/CDBG_USER; RSRC2 bit 6 is
//     DYNAMIC_VGPR and bit 31 WGP_TAKEOVER; RSRC3 INST_PREF_SIZE is 8 bits
//     and GLG_EN replaces TRAP_ON_START/END; TMPRING_SIZE.WAVESIZE is 18
//     bits; DISPATCH_INTERLEAVE has 1D/2D fields; DISPATCH_INITIATOR adds
//     PING_PONG_EN, INTERLEAVE_2D_EN and TTRACE_QUEUE_ID; a ninth
//     STATIC_THREAD_MGMT_SE8 register sits at 0x2E23.
//   - ACQUIRE_MEM GCR_CNTL: PAL src/core/hw/gfxip/gfx12/gfx12CmdUtil.cpp
//     union AcquireMemGcrCntl (bits 5:4 and 9 reserved: no GLM, no GL1).
//     The 6.12 kernel still ORs the gfx10 GLM/GL1 bits into its gfx12
//     mem_sync (gfx_v12_0_emit_mem_sync); redline does not.
//   - RELEASE_MEM GCR_CNTL (dword 1 bits 24:12): PAL gfx12CmdUtil.cpp union
//     ReleaseMemGcrCntl and gfx12_merged_f32_mec_pm4_packets.h
//     PM4_MEC_RELEASE_MEM (gcr_cntl 13 bits at 12, glk_inv at 30).
// The table was cross-checked field by field against the kernel headers by
// a throwaway script (reported with the change that added it).
//
// Written once, as X-macros, and expanded where it is used: the PM4
// family table (pm4/pm4_family_gfx12.c: encoder, decoder, disassembler,
// lowering and the simulator's PM4 interpreter through compile-time field
// ids, pm4_family.h) and the kernel-descriptor reader
// (capture/code_object/kernel_descriptor.c, COMPUTE_PGM_RSRC1/2/3). Changing a field
// is one line here. tests/unit/base/hw/hw_registers_test.c compares every entry
// with values transcribed from the kernel headers
// (tests/data/amd_registers/).
//
// Field lists: FIELDS(F, R) expands F(R, FIELD, shift, width) per field.
// Registers: GFX12_REGISTERS(REG) expands REG(NAME, dword index, FIELDS).
// Constants: RL_GFX12_<NAME> is the dword index and
// RL_GFX12_<NAME>__<FIELD>__SHIFT / __WIDTH the field (sh_mask.h naming).
#ifndef REDLINE_HW_GFX12_REGISTERS_H_
#define REDLINE_HW_GFX12_REGISTERS_H_

#include "base/hw/compute_registers.h"
#include "base/hw/hw_fields.h"

#define RL_GFX12_FIELDS_DISPATCH_INITIATOR(F, R) \
  RL_HW_FIELDS_DISPATCH_INITIATOR_LOW(F, R) \
  F(R, PING_PONG_EN, 12, 1) \
  F(R, TUNNEL_ENABLE, 13, 1) \
  F(R, RESTORE, 14, 1) \
  F(R, CS_W32_EN, 15, 1) \
  F(R, AMP_SHADER_EN, 16, 1) \
  F(R, DISABLE_DISP_PREMPT_EN, 17, 1) \
  F(R, INTERLEAVE_2D_EN, 18, 1) \
  F(R, TTRACE_QUEUE_ID, 29, 3)

#define RL_GFX12_FIELDS_NUM_THREAD_X(F, R) \
  F(R, NUM_THREAD_FULL, 0, 13) \
  F(R, INTERLEAVE_BITS_X, 13, 3) \
  F(R, NUM_THREAD_PARTIAL, 16, 16)

#define RL_GFX12_FIELDS_NUM_THREAD_Y(F, R) \
  F(R, NUM_THREAD_FULL, 0, 13) \
  F(R, INTERLEAVE_BITS_Y, 13, 3) \
  F(R, NUM_THREAD_PARTIAL, 16, 16)

#define RL_GFX12_FIELDS_PGM_RSRC1(F, R) \
  F(R, VGPRS, 0, 6) \
  F(R, SGPRS, 6, 4) \
  F(R, PRIORITY, 10, 2) \
  F(R, FLOAT_MODE, 12, 8) \
  F(R, PRIV, 20, 1) \
  F(R, WG_RR_EN, 21, 1) \
  F(R, DEBUG_MODE, 22, 1) \
  F(R, DISABLE_PERF, 23, 1) \
  F(R, BULKY, 24, 1) \
  F(R, CDBG_USER, 25, 1) \
  F(R, FP16_OVFL, 26, 1) \
  F(R, WGP_MODE, 29, 1) \
  F(R, MEM_ORDERED, 30, 1) \
  F(R, FWD_PROGRESS, 31, 1)

#define RL_GFX12_FIELDS_PGM_RSRC2(F, R) \
  F(R, SCRATCH_EN, 0, 1) \
  F(R, USER_SGPR, 1, 5) \
  F(R, DYNAMIC_VGPR, 6, 1) \
  RL_HW_FIELDS_PGM_RSRC2_TG(F, R) \
  F(R, WGP_TAKEOVER, 31, 1)

#define RL_GFX12_FIELDS_TMPRING_SIZE(F, R) \
  F(R, WAVES, 0, 12) \
  F(R, WAVESIZE, 12, 18)

#define RL_GFX12_FIELDS_PGM_RSRC3(F, R) \
  F(R, SHARED_VGPR_CNT, 0, 4) \
  F(R, INST_PREF_SIZE, 4, 8) \
  F(R, GLG_EN, 13, 1) \
  F(R, IMAGE_OP, 31, 1)

#define RL_GFX12_FIELDS_DISPATCH_INTERLEAVE(F, R) \
  F(R, INTERLEAVE_1D, 0, 10) \
  F(R, INTERLEAVE_2D_X_SIZE, 16, 4) \
  F(R, INTERLEAVE_2D_Y_SIZE, 24, 4)

#define RL_GFX12_FIELDS_ACQUIRE_MEM_GCR_CNTL(F, R) \
  F(R, GLI_INV, 0, 2) /* 0 nop, 1 all, 2 range, 3 first/last */ \
  F(R, GL1_RANGE, 2, 2) /* PAL: range control for K$ and V$ */ \
  F(R, GLK_WB, 6, 1) \
  F(R, GLK_INV, 7, 1) \
  F(R, GLV_INV, 8, 1) \
  F(R, GL2_US, 10, 1) \
  F(R, GL2_RANGE, 11, 2) \
  F(R, GL2_DISCARD, 13, 1) \
  F(R, GL2_INV, 14, 1) \
  F(R, GL2_WB, 15, 1) \
  F(R, SEQ, 16, 2) \
  F(R, RANGE_IS_PA, 18, 1)

#define RL_GFX12_FIELDS_RELEASE_MEM_GCR_CNTL(F, R) \
  F(R, GLV_INV, 2, 1) \
  RL_HW_FIELDS_RELEASE_MEM_GCR_CNTL_GL2(F, R)

// Sorted by dword index (base/hw/compute_registers.h: the list and its
// sources); STATIC_THREAD_MGMT_SE8 is gfx12's own.
#define RL_GFX12_REGISTERS(REG) \
  RL_HW_COMPUTE_REGISTERS_LOW(REG, RL_GFX12) \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE8, 0x2E23, RL_HW_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bc3 */ \
  RL_HW_COMPUTE_REGISTERS_HIGH(REG, RL_GFX12)

// The compile-time constants of every register and field.
enum rl_gfx12_register_constants {
#define RL_GFX12_REGISTER_CONSTANTS(NAME, INDEX, FIELDS) \
  RL_GFX12_##NAME = INDEX, FIELDS(RL_HW_FIELD_CONSTANTS, RL_GFX12_##NAME)
  RL_GFX12_REGISTERS(RL_GFX12_REGISTER_CONSTANTS)
#undef RL_GFX12_REGISTER_CONSTANTS
  // ACQUIRE_MEM dword 7 and RELEASE_MEM dword 1 bits 24:12 (shifts
  // relative to bit 12).
  RL_GFX12_FIELDS_ACQUIRE_MEM_GCR_CNTL(RL_HW_FIELD_CONSTANTS,
                                      RL_GFX12_ACQUIRE_MEM_GCR_CNTL)
  RL_GFX12_FIELDS_RELEASE_MEM_GCR_CNTL(RL_HW_FIELD_CONSTANTS,
                                      RL_GFX12_RELEASE_MEM_GCR_CNTL)
};

#endif  // REDLINE_HW_GFX12_REGISTERS_H_

