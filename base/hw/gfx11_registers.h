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

#include "base/hw/compute_registers.h"
#include "base/hw/hw_fields.h"

#define RL_GFX11_FIELDS_DISPATCH_INITIATOR(F, R) \
  RL_HW_FIELDS_DISPATCH_INITIATOR_LOW(F, R) \
  F(R, RESERVED, 12, 1) \
  F(R, TUNNEL_ENABLE, 13, 1) \
  F(R, RESTORE, 14, 1) \
  F(R, CS_W32_EN, 15, 1) \
  F(R, AMP_SHADER_EN, 16, 1) \
  F(R, DISABLE_DISP_PREMPT_EN, 17, 1)

#define RL_GFX11_FIELDS_NUM_THREAD_X RL_HW_FIELDS_NUM_THREAD
#define RL_GFX11_FIELDS_NUM_THREAD_Y RL_HW_FIELDS_NUM_THREAD

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
  RL_HW_FIELDS_PGM_RSRC2_TG(F, R)

#define RL_GFX11_FIELDS_TMPRING_SIZE(F, R) \
  F(R, WAVES, 0, 12) \
  F(R, WAVESIZE, 12, 15)

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
  RL_HW_FIELDS_RELEASE_MEM_GCR_CNTL_GL2(F, R)

// Sorted by dword index (base/hw/compute_registers.h: the list and its
// sources).
#define RL_GFX11_REGISTERS(REG) \
  RL_HW_COMPUTE_REGISTERS_LOW(REG, RL_GFX11) \
  RL_HW_COMPUTE_REGISTERS_HIGH(REG, RL_GFX11)

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

