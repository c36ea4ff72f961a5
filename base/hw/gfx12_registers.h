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

#include "base/hw/hw_fields.h"

#define RL_GFX12_FIELDS_DISPATCH_INITIATOR(F, R) \
  F(R, COMPUTE_SHADER_EN, 0, 1) \
  F(R, PARTIAL_TG_EN, 1, 1) \
  F(R, FORCE_START_AT_000, 2, 1) \
  F(R, ORDERED_APPEND_ENBL, 3, 1) \
  F(R, ORDERED_APPEND_MODE, 4, 1) \
  F(R, USE_THREAD_DIMENSIONS, 5, 1) \
  F(R, ORDER_MODE, 6, 1) \
  F(R, SCALAR_L1_INV_VOL, 10, 1) \
  F(R, VECTOR_L1_INV_VOL, 11, 1) \
  F(R, PING_PONG_EN, 12, 1) \
  F(R, TUNNEL_ENABLE, 13, 1) \
  F(R, RESTORE, 14, 1) \
  F(R, CS_W32_EN, 15, 1) \
  F(R, AMP_SHADER_EN, 16, 1) \
  F(R, DISABLE_DISP_PREMPT_EN, 17, 1) \
  F(R, INTERLEAVE_2D_EN, 18, 1) \
  F(R, TTRACE_QUEUE_ID, 29, 3)

#define RL_GFX12_FIELDS_SIZE(F, R) \
  F(R, SIZE, 0, 32)

#define RL_GFX12_FIELDS_START(F, R) \
  F(R, START, 0, 32)

#define RL_GFX12_FIELDS_NUM_THREAD_X(F, R) \
  F(R, NUM_THREAD_FULL, 0, 13) \
  F(R, INTERLEAVE_BITS_X, 13, 3) \
  F(R, NUM_THREAD_PARTIAL, 16, 16)

#define RL_GFX12_FIELDS_NUM_THREAD_Y(F, R) \
  F(R, NUM_THREAD_FULL, 0, 13) \
  F(R, INTERLEAVE_BITS_Y, 13, 3) \
  F(R, NUM_THREAD_PARTIAL, 16, 16)

#define RL_GFX12_FIELDS_NUM_THREAD_Z(F, R) \
  F(R, NUM_THREAD_FULL, 0, 16) \
  F(R, NUM_THREAD_PARTIAL, 16, 16)

#define RL_GFX12_FIELDS_DATA32(F, R) \
  F(R, DATA, 0, 32)

#define RL_GFX12_FIELDS_DATA8(F, R) \
  F(R, DATA, 0, 8)

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
  F(R, TGID_X_EN, 7, 1) \
  F(R, TGID_Y_EN, 8, 1) \
  F(R, TGID_Z_EN, 9, 1) \
  F(R, TG_SIZE_EN, 10, 1) \
  F(R, TIDIG_COMP_CNT, 11, 2) \
  F(R, EXCP_EN_MSB, 13, 2) \
  F(R, LDS_SIZE, 15, 9) \
  F(R, EXCP_EN, 24, 7) \
  F(R, WGP_TAKEOVER, 31, 1)

#define RL_GFX12_FIELDS_VMID(F, R) \
  F(R, DATA, 0, 4)

#define RL_GFX12_FIELDS_RESOURCE_LIMITS(F, R) \
  F(R, WAVES_PER_SH, 0, 10) \
  F(R, TG_PER_CU, 12, 4) \
  F(R, LOCK_THRESHOLD, 16, 6) \
  F(R, SIMD_DEST_CNTL, 22, 1) \
  F(R, FORCE_SIMD_DIST, 23, 1) \
  F(R, CU_GROUP_COUNT, 24, 3)

#define RL_GFX12_FIELDS_STM(F, R) \
  F(R, SA0_CU_EN, 0, 16) \
  F(R, SA1_CU_EN, 16, 16)

#define RL_GFX12_FIELDS_TMPRING_SIZE(F, R) \
  F(R, WAVES, 0, 12) \
  F(R, WAVESIZE, 12, 18)

#define RL_GFX12_FIELDS_RESTART(F, R) \
  F(R, RESTART, 0, 32)

#define RL_GFX12_FIELDS_THREAD_TRACE_ENABLE(F, R) \
  F(R, THREAD_TRACE_ENABLE, 0, 1)

#define RL_GFX12_FIELDS_ACCUM(F, R) \
  F(R, CONTRIBUTION, 0, 7)

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
  F(R, GL2_US, 4, 1) \
  F(R, GL2_RANGE, 5, 2) \
  F(R, GL2_DISCARD, 7, 1) \
  F(R, GL2_INV, 8, 1) \
  F(R, GL2_WB, 9, 1) \
  F(R, SEQ, 10, 2) \
  F(R, GLK_WB, 12, 1)

// Sorted by dword index. Source of each entry: the offset.h register
// (+ 0x1260) and sh_mask.h <NAME>__<FIELD>__SHIFT/_MASK.
#define RL_GFX12_REGISTERS(REG) \
  REG(COMPUTE_DISPATCH_INITIATOR, 0x2E00, RL_GFX12_FIELDS_DISPATCH_INITIATOR) /* gc_12_0_0_offset.h 0x1ba0 */ \
  REG(COMPUTE_DIM_X, 0x2E01, RL_GFX12_FIELDS_SIZE) /* gc_12_0_0_offset.h 0x1ba1 */ \
  REG(COMPUTE_DIM_Y, 0x2E02, RL_GFX12_FIELDS_SIZE) /* gc_12_0_0_offset.h 0x1ba2 */ \
  REG(COMPUTE_DIM_Z, 0x2E03, RL_GFX12_FIELDS_SIZE) /* gc_12_0_0_offset.h 0x1ba3 */ \
  REG(COMPUTE_START_X, 0x2E04, RL_GFX12_FIELDS_START) /* gc_12_0_0_offset.h 0x1ba4 */ \
  REG(COMPUTE_START_Y, 0x2E05, RL_GFX12_FIELDS_START) /* gc_12_0_0_offset.h 0x1ba5 */ \
  REG(COMPUTE_START_Z, 0x2E06, RL_GFX12_FIELDS_START) /* gc_12_0_0_offset.h 0x1ba6 */ \
  REG(COMPUTE_NUM_THREAD_X, 0x2E07, RL_GFX12_FIELDS_NUM_THREAD_X) /* gc_12_0_0_offset.h 0x1ba7 */ \
  REG(COMPUTE_NUM_THREAD_Y, 0x2E08, RL_GFX12_FIELDS_NUM_THREAD_Y) /* gc_12_0_0_offset.h 0x1ba8 */ \
  REG(COMPUTE_NUM_THREAD_Z, 0x2E09, RL_GFX12_FIELDS_NUM_THREAD_Z) /* gc_12_0_0_offset.h 0x1ba9 */ \
  REG(COMPUTE_PGM_LO, 0x2E0C, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1bac */ \
  REG(COMPUTE_PGM_HI, 0x2E0D, RL_GFX12_FIELDS_DATA8) /* gc_12_0_0_offset.h 0x1bad */ \
  REG(COMPUTE_DISPATCH_PKT_ADDR_LO, 0x2E0E, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1bae */ \
  REG(COMPUTE_DISPATCH_PKT_ADDR_HI, 0x2E0F, RL_GFX12_FIELDS_DATA8) /* gc_12_0_0_offset.h 0x1baf */ \
  REG(COMPUTE_DISPATCH_SCRATCH_BASE_LO, 0x2E10, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1bb0 */ \
  REG(COMPUTE_DISPATCH_SCRATCH_BASE_HI, 0x2E11, RL_GFX12_FIELDS_DATA8) /* gc_12_0_0_offset.h 0x1bb1 */ \
  REG(COMPUTE_PGM_RSRC1, 0x2E12, RL_GFX12_FIELDS_PGM_RSRC1) /* gc_12_0_0_offset.h 0x1bb2 */ \
  REG(COMPUTE_PGM_RSRC2, 0x2E13, RL_GFX12_FIELDS_PGM_RSRC2) /* gc_12_0_0_offset.h 0x1bb3 */ \
  REG(COMPUTE_VMID, 0x2E14, RL_GFX12_FIELDS_VMID) /* gc_12_0_0_offset.h 0x1bb4 */ \
  REG(COMPUTE_RESOURCE_LIMITS, 0x2E15, RL_GFX12_FIELDS_RESOURCE_LIMITS) /* gc_12_0_0_offset.h 0x1bb5 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE0, 0x2E16, RL_GFX12_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bb6 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE1, 0x2E17, RL_GFX12_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bb7 */ \
  REG(COMPUTE_TMPRING_SIZE, 0x2E18, RL_GFX12_FIELDS_TMPRING_SIZE) /* gc_12_0_0_offset.h 0x1bb8 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE2, 0x2E19, RL_GFX12_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bb9 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE3, 0x2E1A, RL_GFX12_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bba */ \
  REG(COMPUTE_RESTART_X, 0x2E1B, RL_GFX12_FIELDS_RESTART) /* gc_12_0_0_offset.h 0x1bbb */ \
  REG(COMPUTE_RESTART_Y, 0x2E1C, RL_GFX12_FIELDS_RESTART) /* gc_12_0_0_offset.h 0x1bbc */ \
  REG(COMPUTE_RESTART_Z, 0x2E1D, RL_GFX12_FIELDS_RESTART) /* gc_12_0_0_offset.h 0x1bbd */ \
  REG(COMPUTE_THREAD_TRACE_ENABLE, 0x2E1E, RL_GFX12_FIELDS_THREAD_TRACE_ENABLE) /* gc_12_0_0_offset.h 0x1bbe */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE8, 0x2E23, RL_GFX12_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bc3 */ \
  REG(COMPUTE_USER_ACCUM_0, 0x2E24, RL_GFX12_FIELDS_ACCUM) /* gc_12_0_0_offset.h 0x1bc4 */ \
  REG(COMPUTE_USER_ACCUM_1, 0x2E25, RL_GFX12_FIELDS_ACCUM) /* gc_12_0_0_offset.h 0x1bc5 */ \
  REG(COMPUTE_USER_ACCUM_2, 0x2E26, RL_GFX12_FIELDS_ACCUM) /* gc_12_0_0_offset.h 0x1bc6 */ \
  REG(COMPUTE_USER_ACCUM_3, 0x2E27, RL_GFX12_FIELDS_ACCUM) /* gc_12_0_0_offset.h 0x1bc7 */ \
  REG(COMPUTE_PGM_RSRC3, 0x2E28, RL_GFX12_FIELDS_PGM_RSRC3) /* gc_12_0_0_offset.h 0x1bc8 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE4, 0x2E2B, RL_GFX12_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bcb */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE5, 0x2E2C, RL_GFX12_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bcc */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE6, 0x2E2D, RL_GFX12_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bcd */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE7, 0x2E2E, RL_GFX12_FIELDS_STM) /* gc_12_0_0_offset.h 0x1bce */ \
  REG(COMPUTE_DISPATCH_INTERLEAVE, 0x2E2F, RL_GFX12_FIELDS_DISPATCH_INTERLEAVE) /* gc_12_0_0_offset.h 0x1bcf */ \
  REG(COMPUTE_USER_DATA_0, 0x2E40, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be0 */ \
  REG(COMPUTE_USER_DATA_1, 0x2E41, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be1 */ \
  REG(COMPUTE_USER_DATA_2, 0x2E42, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be2 */ \
  REG(COMPUTE_USER_DATA_3, 0x2E43, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be3 */ \
  REG(COMPUTE_USER_DATA_4, 0x2E44, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be4 */ \
  REG(COMPUTE_USER_DATA_5, 0x2E45, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be5 */ \
  REG(COMPUTE_USER_DATA_6, 0x2E46, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be6 */ \
  REG(COMPUTE_USER_DATA_7, 0x2E47, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be7 */ \
  REG(COMPUTE_USER_DATA_8, 0x2E48, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be8 */ \
  REG(COMPUTE_USER_DATA_9, 0x2E49, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1be9 */ \
  REG(COMPUTE_USER_DATA_10, 0x2E4A, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1bea */ \
  REG(COMPUTE_USER_DATA_11, 0x2E4B, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1beb */ \
  REG(COMPUTE_USER_DATA_12, 0x2E4C, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1bec */ \
  REG(COMPUTE_USER_DATA_13, 0x2E4D, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1bed */ \
  REG(COMPUTE_USER_DATA_14, 0x2E4E, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1bee */ \
  REG(COMPUTE_USER_DATA_15, 0x2E4F, RL_GFX12_FIELDS_DATA32) /* gc_12_0_0_offset.h 0x1bef */

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

