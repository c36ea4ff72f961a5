// base/hw/gfx11_registers.h — the gfx11 (RDNA3 gfx1100..gfx1103, RDNA3.5
// gfx1150..gfx1152) compute SH registers and the GCR_CNTL fields of
// ACQUIRE_MEM and RELEASE_MEM.
//
// Sources:
//   - Registers and fields: Linux 6.12 (Debian linux-source-6.12
//     6.12.117-1~deb12u1) drivers/gpu/drm/amd/include/asic_reg/gc/
//     gc_11_0_0_offset.h (regCOMPUTE_*, BASE_IDX 0) and gc_11_0_0_sh_mask.h
//     (COMPUTE_*__*__SHIFT / _MASK). The kernel offsets are relative to the
//     GC segment-0 base 0x1260; the dword index a SET_SH_REG addresses is
//     reg + 0x1260 (PAL gfx9_plus_merged_offset.h mmCOMPUTE_DISPATCH_INITIATOR
//     = 0x2E00 against the kernel's regCOMPUTE_DISPATCH_INITIATOR 0x1BA0;
//     every entry matches PAL's mm* value). gc_11_5_0 (gfx1150..1152) has
//     the same compute registers.
//   - ACQUIRE_MEM GCR_CNTL: Linux drivers/gpu/drm/amd/amdgpu/nvd.h
//     PACKET3_ACQUIRE_MEM_GCR_CNTL_*; PAL gfx9CmdUtil.cpp
//     Gfx10AcquireMemGcrCntl.
//   - RELEASE_MEM GCR_CNTL (dword 1 bits 24:12): nvd.h
//     PACKET3_RELEASE_MEM_GCR_*; PAL gfx9CmdUtil.cpp Gfx10ReleaseMemGcrCntl
//     (gfx11GlkWb at bit 12 of the field); PAL
//     gfx9_plus_merged_f32_mec_pm4_packets.h PM4_MEC_RELEASE_MEM gfx11 view.
//   - Capabilities: Mesa radeonsi/RADV set COMPUTE_PGM_RSRC1.PRIV for
//     gfx11 compute dispatches from PM4 (the gfx11 PM4-dispatch workaround).
// The table was cross-checked field by field against the kernel headers by
// a throwaway script (reported with the change that added it).
//
// Written once, as X-macros, and expanded where it is used: the PM4
// family table (pm4/pm4_family_gfx11.c: encoder, decoder, disassembler,
// lowering and the simulator's PM4 interpreter through compile-time field
// ids, pm4_family.h) and the kernel-descriptor reader
// (capture/code_object/kernel_descriptor.c, COMPUTE_PGM_RSRC1/2/3). Changing a field
// is one line here. tests/unit/base/hw/hw_registers_test.c compares every entry
// with values transcribed from the kernel headers
// (tests/data/amd_registers/).
//
// Field lists: FIELDS(F, R) expands F(R, FIELD, shift, width) per field.
// Registers: GFX11_REGISTERS(REG) expands REG(NAME, dword index, FIELDS).
// Constants: RL_GFX11_<NAME> is the dword index and
// RL_GFX11_<NAME>__<FIELD>__SHIFT / __WIDTH the field (sh_mask.h naming).
#ifndef REDLINE_HW_GFX11_REGISTERS_H_
#define REDLINE_HW_GFX11_REGISTERS_H_

#include "base/hw/hw_fields.h"

#define RL_GFX11_FIELDS_DISPATCH_INITIATOR(F, R) \
  F(R, COMPUTE_SHADER_EN, 0, 1) \
  F(R, PARTIAL_TG_EN, 1, 1) \
  F(R, FORCE_START_AT_000, 2, 1) \
  F(R, ORDERED_APPEND_ENBL, 3, 1) \
  F(R, ORDERED_APPEND_MODE, 4, 1) \
  F(R, USE_THREAD_DIMENSIONS, 5, 1) \
  F(R, ORDER_MODE, 6, 1) \
  F(R, SCALAR_L1_INV_VOL, 10, 1) \
  F(R, VECTOR_L1_INV_VOL, 11, 1) \
  F(R, RESERVED, 12, 1) \
  F(R, TUNNEL_ENABLE, 13, 1) \
  F(R, RESTORE, 14, 1) \
  F(R, CS_W32_EN, 15, 1) \
  F(R, AMP_SHADER_EN, 16, 1) \
  F(R, DISABLE_DISP_PREMPT_EN, 17, 1)

#define RL_GFX11_FIELDS_SIZE(F, R) \
  F(R, SIZE, 0, 32)

#define RL_GFX11_FIELDS_START(F, R) \
  F(R, START, 0, 32)

#define RL_GFX11_FIELDS_NUM_THREAD(F, R) \
  F(R, NUM_THREAD_FULL, 0, 16) \
  F(R, NUM_THREAD_PARTIAL, 16, 16)

#define RL_GFX11_FIELDS_DATA32(F, R) \
  F(R, DATA, 0, 32)

#define RL_GFX11_FIELDS_DATA8(F, R) \
  F(R, DATA, 0, 8)

#define RL_GFX11_FIELDS_PGM_RSRC1(F, R) \
  F(R, VGPRS, 0, 6) \
  F(R, SGPRS, 6, 4) \
  F(R, PRIORITY, 10, 2) \
  F(R, FLOAT_MODE, 12, 8) \
  F(R, PRIV, 20, 1) \
  F(R, DX10_CLAMP, 21, 1) \
  F(R, IEEE_MODE, 23, 1) \
  F(R, BULKY, 24, 1) \
  F(R, FP16_OVFL, 26, 1) \
  F(R, WGP_MODE, 29, 1) \
  F(R, MEM_ORDERED, 30, 1) \
  F(R, FWD_PROGRESS, 31, 1)

#define RL_GFX11_FIELDS_PGM_RSRC2(F, R) \
  F(R, SCRATCH_EN, 0, 1) \
  F(R, USER_SGPR, 1, 5) \
  F(R, TRAP_PRESENT, 6, 1) \
  F(R, TGID_X_EN, 7, 1) \
  F(R, TGID_Y_EN, 8, 1) \
  F(R, TGID_Z_EN, 9, 1) \
  F(R, TG_SIZE_EN, 10, 1) \
  F(R, TIDIG_COMP_CNT, 11, 2) \
  F(R, EXCP_EN_MSB, 13, 2) \
  F(R, LDS_SIZE, 15, 9) \
  F(R, EXCP_EN, 24, 7)

#define RL_GFX11_FIELDS_VMID(F, R) \
  F(R, DATA, 0, 4)

#define RL_GFX11_FIELDS_RESOURCE_LIMITS(F, R) \
  F(R, WAVES_PER_SH, 0, 10) \
  F(R, TG_PER_CU, 12, 4) \
  F(R, LOCK_THRESHOLD, 16, 6) \
  F(R, SIMD_DEST_CNTL, 22, 1) \
  F(R, FORCE_SIMD_DIST, 23, 1) \
  F(R, CU_GROUP_COUNT, 24, 3)

#define RL_GFX11_FIELDS_STM(F, R) \
  F(R, SA0_CU_EN, 0, 16) \
  F(R, SA1_CU_EN, 16, 16)

#define RL_GFX11_FIELDS_TMPRING_SIZE(F, R) \
  F(R, WAVES, 0, 12) \
  F(R, WAVESIZE, 12, 15)

#define RL_GFX11_FIELDS_RESTART(F, R) \
  F(R, RESTART, 0, 32)

#define RL_GFX11_FIELDS_THREAD_TRACE_ENABLE(F, R) \
  F(R, THREAD_TRACE_ENABLE, 0, 1)

#define RL_GFX11_FIELDS_ACCUM(F, R) \
  F(R, CONTRIBUTION, 0, 7)

#define RL_GFX11_FIELDS_PGM_RSRC3(F, R) \
  F(R, SHARED_VGPR_CNT, 0, 4) \
  F(R, INST_PREF_SIZE, 4, 6) \
  F(R, TRAP_ON_START, 10, 1) \
  F(R, TRAP_ON_END, 11, 1) \
  F(R, IMAGE_OP, 31, 1)

#define RL_GFX11_FIELDS_DISPATCH_INTERLEAVE(F, R) \
  F(R, INTERLEAVE, 0, 10)

#define RL_GFX11_FIELDS_ACQUIRE_MEM_GCR_CNTL(F, R) \
  F(R, GLI_INV, 0, 2) /* 0 nop, 1 all, 2 range, 3 first/last */ \
  F(R, GL1_RANGE, 2, 2) \
  F(R, GLM_WB, 4, 1) \
  F(R, GLM_INV, 5, 1) \
  F(R, GLK_WB, 6, 1) \
  F(R, GLK_INV, 7, 1) /* scalar cache */ \
  F(R, GLV_INV, 8, 1) /* vector L0 */ \
  F(R, GL1_INV, 9, 1) \
  F(R, GL2_US, 10, 1) \
  F(R, GL2_RANGE, 11, 2) /* 0 all, 1 vol, 2 range, 3 first/last */ \
  F(R, GL2_DISCARD, 13, 1) \
  F(R, GL2_INV, 14, 1) \
  F(R, GL2_WB, 15, 1) \
  F(R, SEQ, 16, 2) /* 0 parallel, 1 forward, 2 reverse */ \
  F(R, RANGE_IS_PA, 18, 1)

#define RL_GFX11_FIELDS_RELEASE_MEM_GCR_CNTL(F, R) \
  F(R, GLM_WB, 0, 1) \
  F(R, GLM_INV, 1, 1) \
  F(R, GLV_INV, 2, 1) \
  F(R, GL1_INV, 3, 1) \
  F(R, GL2_US, 4, 1) \
  F(R, GL2_RANGE, 5, 2) \
  F(R, GL2_DISCARD, 7, 1) \
  F(R, GL2_INV, 8, 1) \
  F(R, GL2_WB, 9, 1) \
  F(R, SEQ, 10, 2) \
  F(R, GLK_WB, 12, 1)

// Sorted by dword index. Source of each entry: the offset.h register
// (+ 0x1260) and sh_mask.h <NAME>__<FIELD>__SHIFT/_MASK.
#define RL_GFX11_REGISTERS(REG) \
  REG(COMPUTE_DISPATCH_INITIATOR, 0x2E00, RL_GFX11_FIELDS_DISPATCH_INITIATOR) /* gc_11_0_0_offset.h 0x1ba0 */ \
  REG(COMPUTE_DIM_X, 0x2E01, RL_GFX11_FIELDS_SIZE) /* gc_11_0_0_offset.h 0x1ba1 */ \
  REG(COMPUTE_DIM_Y, 0x2E02, RL_GFX11_FIELDS_SIZE) /* gc_11_0_0_offset.h 0x1ba2 */ \
  REG(COMPUTE_DIM_Z, 0x2E03, RL_GFX11_FIELDS_SIZE) /* gc_11_0_0_offset.h 0x1ba3 */ \
  REG(COMPUTE_START_X, 0x2E04, RL_GFX11_FIELDS_START) /* gc_11_0_0_offset.h 0x1ba4 */ \
  REG(COMPUTE_START_Y, 0x2E05, RL_GFX11_FIELDS_START) /* gc_11_0_0_offset.h 0x1ba5 */ \
  REG(COMPUTE_START_Z, 0x2E06, RL_GFX11_FIELDS_START) /* gc_11_0_0_offset.h 0x1ba6 */ \
  REG(COMPUTE_NUM_THREAD_X, 0x2E07, RL_GFX11_FIELDS_NUM_THREAD) /* gc_11_0_0_offset.h 0x1ba7 */ \
  REG(COMPUTE_NUM_THREAD_Y, 0x2E08, RL_GFX11_FIELDS_NUM_THREAD) /* gc_11_0_0_offset.h 0x1ba8 */ \
  REG(COMPUTE_NUM_THREAD_Z, 0x2E09, RL_GFX11_FIELDS_NUM_THREAD) /* gc_11_0_0_offset.h 0x1ba9 */ \
  REG(COMPUTE_PGM_LO, 0x2E0C, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1bac */ \
  REG(COMPUTE_PGM_HI, 0x2E0D, RL_GFX11_FIELDS_DATA8) /* gc_11_0_0_offset.h 0x1bad */ \
  REG(COMPUTE_DISPATCH_PKT_ADDR_LO, 0x2E0E, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1bae */ \
  REG(COMPUTE_DISPATCH_PKT_ADDR_HI, 0x2E0F, RL_GFX11_FIELDS_DATA8) /* gc_11_0_0_offset.h 0x1baf */ \
  REG(COMPUTE_DISPATCH_SCRATCH_BASE_LO, 0x2E10, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1bb0 */ \
  REG(COMPUTE_DISPATCH_SCRATCH_BASE_HI, 0x2E11, RL_GFX11_FIELDS_DATA8) /* gc_11_0_0_offset.h 0x1bb1 */ \
  REG(COMPUTE_PGM_RSRC1, 0x2E12, RL_GFX11_FIELDS_PGM_RSRC1) /* gc_11_0_0_offset.h 0x1bb2 */ \
  REG(COMPUTE_PGM_RSRC2, 0x2E13, RL_GFX11_FIELDS_PGM_RSRC2) /* gc_11_0_0_offset.h 0x1bb3 */ \
  REG(COMPUTE_VMID, 0x2E14, RL_GFX11_FIELDS_VMID) /* gc_11_0_0_offset.h 0x1bb4 */ \
  REG(COMPUTE_RESOURCE_LIMITS, 0x2E15, RL_GFX11_FIELDS_RESOURCE_LIMITS) /* gc_11_0_0_offset.h 0x1bb5 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE0, 0x2E16, RL_GFX11_FIELDS_STM) /* gc_11_0_0_offset.h 0x1bb6 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE1, 0x2E17, RL_GFX11_FIELDS_STM) /* gc_11_0_0_offset.h 0x1bb7 */ \
  REG(COMPUTE_TMPRING_SIZE, 0x2E18, RL_GFX11_FIELDS_TMPRING_SIZE) /* gc_11_0_0_offset.h 0x1bb8 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE2, 0x2E19, RL_GFX11_FIELDS_STM) /* gc_11_0_0_offset.h 0x1bb9 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE3, 0x2E1A, RL_GFX11_FIELDS_STM) /* gc_11_0_0_offset.h 0x1bba */ \
  REG(COMPUTE_RESTART_X, 0x2E1B, RL_GFX11_FIELDS_RESTART) /* gc_11_0_0_offset.h 0x1bbb */ \
  REG(COMPUTE_RESTART_Y, 0x2E1C, RL_GFX11_FIELDS_RESTART) /* gc_11_0_0_offset.h 0x1bbc */ \
  REG(COMPUTE_RESTART_Z, 0x2E1D, RL_GFX11_FIELDS_RESTART) /* gc_11_0_0_offset.h 0x1bbd */ \
  REG(COMPUTE_THREAD_TRACE_ENABLE, 0x2E1E, RL_GFX11_FIELDS_THREAD_TRACE_ENABLE) /* gc_11_0_0_offset.h 0x1bbe */ \
  REG(COMPUTE_USER_ACCUM_0, 0x2E24, RL_GFX11_FIELDS_ACCUM) /* gc_11_0_0_offset.h 0x1bc4 */ \
  REG(COMPUTE_USER_ACCUM_1, 0x2E25, RL_GFX11_FIELDS_ACCUM) /* gc_11_0_0_offset.h 0x1bc5 */ \
  REG(COMPUTE_USER_ACCUM_2, 0x2E26, RL_GFX11_FIELDS_ACCUM) /* gc_11_0_0_offset.h 0x1bc6 */ \
  REG(COMPUTE_USER_ACCUM_3, 0x2E27, RL_GFX11_FIELDS_ACCUM) /* gc_11_0_0_offset.h 0x1bc7 */ \
  REG(COMPUTE_PGM_RSRC3, 0x2E28, RL_GFX11_FIELDS_PGM_RSRC3) /* gc_11_0_0_offset.h 0x1bc8 */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE4, 0x2E2B, RL_GFX11_FIELDS_STM) /* gc_11_0_0_offset.h 0x1bcb */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE5, 0x2E2C, RL_GFX11_FIELDS_STM) /* gc_11_0_0_offset.h 0x1bcc */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE6, 0x2E2D, RL_GFX11_FIELDS_STM) /* gc_11_0_0_offset.h 0x1bcd */ \
  REG(COMPUTE_STATIC_THREAD_MGMT_SE7, 0x2E2E, RL_GFX11_FIELDS_STM) /* gc_11_0_0_offset.h 0x1bce */ \
  REG(COMPUTE_DISPATCH_INTERLEAVE, 0x2E2F, RL_GFX11_FIELDS_DISPATCH_INTERLEAVE) /* gc_11_0_0_offset.h 0x1bcf */ \
  REG(COMPUTE_USER_DATA_0, 0x2E40, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be0 */ \
  REG(COMPUTE_USER_DATA_1, 0x2E41, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be1 */ \
  REG(COMPUTE_USER_DATA_2, 0x2E42, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be2 */ \
  REG(COMPUTE_USER_DATA_3, 0x2E43, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be3 */ \
  REG(COMPUTE_USER_DATA_4, 0x2E44, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be4 */ \
  REG(COMPUTE_USER_DATA_5, 0x2E45, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be5 */ \
  REG(COMPUTE_USER_DATA_6, 0x2E46, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be6 */ \
  REG(COMPUTE_USER_DATA_7, 0x2E47, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be7 */ \
  REG(COMPUTE_USER_DATA_8, 0x2E48, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be8 */ \
  REG(COMPUTE_USER_DATA_9, 0x2E49, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1be9 */ \
  REG(COMPUTE_USER_DATA_10, 0x2E4A, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1bea */ \
  REG(COMPUTE_USER_DATA_11, 0x2E4B, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1beb */ \
  REG(COMPUTE_USER_DATA_12, 0x2E4C, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1bec */ \
  REG(COMPUTE_USER_DATA_13, 0x2E4D, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1bed */ \
  REG(COMPUTE_USER_DATA_14, 0x2E4E, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1bee */ \
  REG(COMPUTE_USER_DATA_15, 0x2E4F, RL_GFX11_FIELDS_DATA32) /* gc_11_0_0_offset.h 0x1bef */

// The compile-time constants of every register and field.
enum rl_gfx11_register_constants {
#define RL_GFX11_REGISTER_CONSTANTS(NAME, INDEX, FIELDS) \
  RL_GFX11_##NAME = INDEX, FIELDS(RL_HW_FIELD_CONSTANTS, RL_GFX11_##NAME)
  RL_GFX11_REGISTERS(RL_GFX11_REGISTER_CONSTANTS)
#undef RL_GFX11_REGISTER_CONSTANTS
  // ACQUIRE_MEM dword 7 and RELEASE_MEM dword 1 bits 24:12 (shifts
  // relative to bit 12).
  RL_GFX11_FIELDS_ACQUIRE_MEM_GCR_CNTL(RL_HW_FIELD_CONSTANTS,
                                      RL_GFX11_ACQUIRE_MEM_GCR_CNTL)
  RL_GFX11_FIELDS_RELEASE_MEM_GCR_CNTL(RL_HW_FIELD_CONSTANTS,
                                      RL_GFX11_RELEASE_MEM_GCR_CNTL)
};

#endif  // REDLINE_HW_GFX11_REGISTERS_H_

