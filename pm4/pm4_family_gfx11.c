// pm4/pm4_family_gfx11.c — the gfx11 (RDNA3 gfx1100..gfx1103, RDNA3.5
// gfx1150..gfx1152) compute SH registers, GCR encodings and capabilities.
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
#include "pm4/pm4_family_internal.h"

static const rl_pm4_field_t rl_gfx11_dispatch_initiator_fields[] = {
    {"COMPUTE_SHADER_EN", 0, 1},
    {"PARTIAL_TG_EN", 1, 1},
    {"FORCE_START_AT_000", 2, 1},
    {"ORDERED_APPEND_ENBL", 3, 1},
    {"ORDERED_APPEND_MODE", 4, 1},
    {"USE_THREAD_DIMENSIONS", 5, 1},
    {"ORDER_MODE", 6, 1},
    {"SCALAR_L1_INV_VOL", 10, 1},
    {"VECTOR_L1_INV_VOL", 11, 1},
    {"RESERVED", 12, 1},
    {"TUNNEL_ENABLE", 13, 1},
    {"RESTORE", 14, 1},
    {"CS_W32_EN", 15, 1},
    {"AMP_SHADER_EN", 16, 1},
    {"DISABLE_DISP_PREMPT_EN", 17, 1},
};
static const rl_pm4_field_t rl_gfx11_size_fields[] = {
    {"SIZE", 0, 32},
};
static const rl_pm4_field_t rl_gfx11_start_fields[] = {
    {"START", 0, 32},
};
static const rl_pm4_field_t rl_gfx11_num_thread_fields[] = {
    {"NUM_THREAD_FULL", 0, 16},
    {"NUM_THREAD_PARTIAL", 16, 16},
};
static const rl_pm4_field_t rl_gfx11_data32_fields[] = {
    {"DATA", 0, 32},
};
static const rl_pm4_field_t rl_gfx11_data8_fields[] = {
    {"DATA", 0, 8},
};
static const rl_pm4_field_t rl_gfx11_pgm_rsrc1_fields[] = {
    {"VGPRS", 0, 6},
    {"SGPRS", 6, 4},
    {"PRIORITY", 10, 2},
    {"FLOAT_MODE", 12, 8},
    {"PRIV", 20, 1},
    {"DX10_CLAMP", 21, 1},
    {"IEEE_MODE", 23, 1},
    {"BULKY", 24, 1},
    {"FP16_OVFL", 26, 1},
    {"WGP_MODE", 29, 1},
    {"MEM_ORDERED", 30, 1},
    {"FWD_PROGRESS", 31, 1},
};
static const rl_pm4_field_t rl_gfx11_pgm_rsrc2_fields[] = {
    {"SCRATCH_EN", 0, 1},
    {"USER_SGPR", 1, 5},
    {"TRAP_PRESENT", 6, 1},
    {"TGID_X_EN", 7, 1},
    {"TGID_Y_EN", 8, 1},
    {"TGID_Z_EN", 9, 1},
    {"TG_SIZE_EN", 10, 1},
    {"TIDIG_COMP_CNT", 11, 2},
    {"EXCP_EN_MSB", 13, 2},
    {"LDS_SIZE", 15, 9},
    {"EXCP_EN", 24, 7},
};
static const rl_pm4_field_t rl_gfx11_vmid_fields[] = {
    {"DATA", 0, 4},
};
static const rl_pm4_field_t rl_gfx11_resource_limits_fields[] = {
    {"WAVES_PER_SH", 0, 10},
    {"TG_PER_CU", 12, 4},
    {"LOCK_THRESHOLD", 16, 6},
    {"SIMD_DEST_CNTL", 22, 1},
    {"FORCE_SIMD_DIST", 23, 1},
    {"CU_GROUP_COUNT", 24, 3},
};
static const rl_pm4_field_t rl_gfx11_stm_fields[] = {
    {"SA0_CU_EN", 0, 16},
    {"SA1_CU_EN", 16, 16},
};
static const rl_pm4_field_t rl_gfx11_tmpring_size_fields[] = {
    {"WAVES", 0, 12},
    {"WAVESIZE", 12, 15},
};
static const rl_pm4_field_t rl_gfx11_restart_fields[] = {
    {"RESTART", 0, 32},
};
static const rl_pm4_field_t rl_gfx11_thread_trace_enable_fields[] = {
    {"THREAD_TRACE_ENABLE", 0, 1},
};
static const rl_pm4_field_t rl_gfx11_accum_fields[] = {
    {"CONTRIBUTION", 0, 7},
};
static const rl_pm4_field_t rl_gfx11_pgm_rsrc3_fields[] = {
    {"SHARED_VGPR_CNT", 0, 4},
    {"INST_PREF_SIZE", 4, 6},
    {"TRAP_ON_START", 10, 1},
    {"TRAP_ON_END", 11, 1},
    {"IMAGE_OP", 31, 1},
};
static const rl_pm4_field_t rl_gfx11_dispatch_interleave_fields[] = {
    {"INTERLEAVE", 0, 10},
};

// Sorted by dword index. Source of each entry: gc_11_0_0_offset.h reg<NAME>
// (+ 0x1260) and gc_11_0_0_sh_mask.h <NAME>__<FIELD>__SHIFT/_MASK.
static const rl_pm4_register_t rl_gfx11_registers[] = {
    RL_PM4_REG("COMPUTE_DISPATCH_INITIATOR", 0x2E00, rl_gfx11_dispatch_initiator_fields),  // gc_11_0_0_offset.h 0x1ba0
    RL_PM4_REG("COMPUTE_DIM_X", 0x2E01, rl_gfx11_size_fields),  // gc_11_0_0_offset.h 0x1ba1
    RL_PM4_REG("COMPUTE_DIM_Y", 0x2E02, rl_gfx11_size_fields),  // gc_11_0_0_offset.h 0x1ba2
    RL_PM4_REG("COMPUTE_DIM_Z", 0x2E03, rl_gfx11_size_fields),  // gc_11_0_0_offset.h 0x1ba3
    RL_PM4_REG("COMPUTE_START_X", 0x2E04, rl_gfx11_start_fields),  // gc_11_0_0_offset.h 0x1ba4
    RL_PM4_REG("COMPUTE_START_Y", 0x2E05, rl_gfx11_start_fields),  // gc_11_0_0_offset.h 0x1ba5
    RL_PM4_REG("COMPUTE_START_Z", 0x2E06, rl_gfx11_start_fields),  // gc_11_0_0_offset.h 0x1ba6
    RL_PM4_REG("COMPUTE_NUM_THREAD_X", 0x2E07, rl_gfx11_num_thread_fields),  // gc_11_0_0_offset.h 0x1ba7
    RL_PM4_REG("COMPUTE_NUM_THREAD_Y", 0x2E08, rl_gfx11_num_thread_fields),  // gc_11_0_0_offset.h 0x1ba8
    RL_PM4_REG("COMPUTE_NUM_THREAD_Z", 0x2E09, rl_gfx11_num_thread_fields),  // gc_11_0_0_offset.h 0x1ba9
    RL_PM4_REG("COMPUTE_PGM_LO", 0x2E0C, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1bac
    RL_PM4_REG("COMPUTE_PGM_HI", 0x2E0D, rl_gfx11_data8_fields),  // gc_11_0_0_offset.h 0x1bad
    RL_PM4_REG("COMPUTE_DISPATCH_PKT_ADDR_LO", 0x2E0E, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1bae
    RL_PM4_REG("COMPUTE_DISPATCH_PKT_ADDR_HI", 0x2E0F, rl_gfx11_data8_fields),  // gc_11_0_0_offset.h 0x1baf
    RL_PM4_REG("COMPUTE_DISPATCH_SCRATCH_BASE_LO", 0x2E10, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1bb0
    RL_PM4_REG("COMPUTE_DISPATCH_SCRATCH_BASE_HI", 0x2E11, rl_gfx11_data8_fields),  // gc_11_0_0_offset.h 0x1bb1
    RL_PM4_REG("COMPUTE_PGM_RSRC1", 0x2E12, rl_gfx11_pgm_rsrc1_fields),  // gc_11_0_0_offset.h 0x1bb2
    RL_PM4_REG("COMPUTE_PGM_RSRC2", 0x2E13, rl_gfx11_pgm_rsrc2_fields),  // gc_11_0_0_offset.h 0x1bb3
    RL_PM4_REG("COMPUTE_VMID", 0x2E14, rl_gfx11_vmid_fields),  // gc_11_0_0_offset.h 0x1bb4
    RL_PM4_REG("COMPUTE_RESOURCE_LIMITS", 0x2E15, rl_gfx11_resource_limits_fields),  // gc_11_0_0_offset.h 0x1bb5
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE0", 0x2E16, rl_gfx11_stm_fields),  // gc_11_0_0_offset.h 0x1bb6
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE1", 0x2E17, rl_gfx11_stm_fields),  // gc_11_0_0_offset.h 0x1bb7
    RL_PM4_REG("COMPUTE_TMPRING_SIZE", 0x2E18, rl_gfx11_tmpring_size_fields),  // gc_11_0_0_offset.h 0x1bb8
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE2", 0x2E19, rl_gfx11_stm_fields),  // gc_11_0_0_offset.h 0x1bb9
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE3", 0x2E1A, rl_gfx11_stm_fields),  // gc_11_0_0_offset.h 0x1bba
    RL_PM4_REG("COMPUTE_RESTART_X", 0x2E1B, rl_gfx11_restart_fields),  // gc_11_0_0_offset.h 0x1bbb
    RL_PM4_REG("COMPUTE_RESTART_Y", 0x2E1C, rl_gfx11_restart_fields),  // gc_11_0_0_offset.h 0x1bbc
    RL_PM4_REG("COMPUTE_RESTART_Z", 0x2E1D, rl_gfx11_restart_fields),  // gc_11_0_0_offset.h 0x1bbd
    RL_PM4_REG("COMPUTE_THREAD_TRACE_ENABLE", 0x2E1E, rl_gfx11_thread_trace_enable_fields),  // gc_11_0_0_offset.h 0x1bbe
    RL_PM4_REG("COMPUTE_USER_ACCUM_0", 0x2E24, rl_gfx11_accum_fields),  // gc_11_0_0_offset.h 0x1bc4
    RL_PM4_REG("COMPUTE_USER_ACCUM_1", 0x2E25, rl_gfx11_accum_fields),  // gc_11_0_0_offset.h 0x1bc5
    RL_PM4_REG("COMPUTE_USER_ACCUM_2", 0x2E26, rl_gfx11_accum_fields),  // gc_11_0_0_offset.h 0x1bc6
    RL_PM4_REG("COMPUTE_USER_ACCUM_3", 0x2E27, rl_gfx11_accum_fields),  // gc_11_0_0_offset.h 0x1bc7
    RL_PM4_REG("COMPUTE_PGM_RSRC3", 0x2E28, rl_gfx11_pgm_rsrc3_fields),  // gc_11_0_0_offset.h 0x1bc8
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE4", 0x2E2B, rl_gfx11_stm_fields),  // gc_11_0_0_offset.h 0x1bcb
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE5", 0x2E2C, rl_gfx11_stm_fields),  // gc_11_0_0_offset.h 0x1bcc
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE6", 0x2E2D, rl_gfx11_stm_fields),  // gc_11_0_0_offset.h 0x1bcd
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE7", 0x2E2E, rl_gfx11_stm_fields),  // gc_11_0_0_offset.h 0x1bce
    RL_PM4_REG("COMPUTE_DISPATCH_INTERLEAVE", 0x2E2F, rl_gfx11_dispatch_interleave_fields),  // gc_11_0_0_offset.h 0x1bcf
    RL_PM4_REG("COMPUTE_USER_DATA_0", 0x2E40, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be0
    RL_PM4_REG("COMPUTE_USER_DATA_1", 0x2E41, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be1
    RL_PM4_REG("COMPUTE_USER_DATA_2", 0x2E42, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be2
    RL_PM4_REG("COMPUTE_USER_DATA_3", 0x2E43, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be3
    RL_PM4_REG("COMPUTE_USER_DATA_4", 0x2E44, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be4
    RL_PM4_REG("COMPUTE_USER_DATA_5", 0x2E45, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be5
    RL_PM4_REG("COMPUTE_USER_DATA_6", 0x2E46, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be6
    RL_PM4_REG("COMPUTE_USER_DATA_7", 0x2E47, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be7
    RL_PM4_REG("COMPUTE_USER_DATA_8", 0x2E48, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be8
    RL_PM4_REG("COMPUTE_USER_DATA_9", 0x2E49, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1be9
    RL_PM4_REG("COMPUTE_USER_DATA_10", 0x2E4A, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1bea
    RL_PM4_REG("COMPUTE_USER_DATA_11", 0x2E4B, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1beb
    RL_PM4_REG("COMPUTE_USER_DATA_12", 0x2E4C, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1bec
    RL_PM4_REG("COMPUTE_USER_DATA_13", 0x2E4D, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1bed
    RL_PM4_REG("COMPUTE_USER_DATA_14", 0x2E4E, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1bee
    RL_PM4_REG("COMPUTE_USER_DATA_15", 0x2E4F, rl_gfx11_data32_fields),  // gc_11_0_0_offset.h 0x1bef
};

// ACQUIRE_MEM dword 7 (nvd.h PACKET3_ACQUIRE_MEM_GCR_CNTL_*).
static const rl_pm4_field_t rl_gfx11_acquire_gcr_fields[] = {
    {"GLI_INV", 0, 2},      // 0 nop, 1 all, 2 range, 3 first/last
    {"GL1_RANGE", 2, 2},
    {"GLM_WB", 4, 1},
    {"GLM_INV", 5, 1},
    {"GLK_WB", 6, 1},
    {"GLK_INV", 7, 1},      // scalar cache
    {"GLV_INV", 8, 1},      // vector L0
    {"GL1_INV", 9, 1},
    {"GL2_US", 10, 1},
    {"GL2_RANGE", 11, 2},   // 0 all, 1 vol, 2 range, 3 first/last
    {"GL2_DISCARD", 13, 1},
    {"GL2_INV", 14, 1},
    {"GL2_WB", 15, 1},
    {"SEQ", 16, 2},         // 0 parallel, 1 forward, 2 reverse
    {"RANGE_IS_PA", 18, 1},
};
static const rl_pm4_register_t rl_gfx11_acquire_gcr =
    RL_PM4_REG("GCR_CNTL", 0, rl_gfx11_acquire_gcr_fields);

// RELEASE_MEM dword 1 bits 24:12, shifts relative to bit 12 (nvd.h
// PACKET3_RELEASE_MEM_GCR_GLM_WB (1 << 12) .. _SEQ (1 << 22); GLK_WB from
// PAL Gfx10ReleaseMemGcrCntl.gfx11GlkWb).
static const rl_pm4_field_t rl_gfx11_release_gcr_fields[] = {
    {"GLM_WB", 0, 1},
    {"GLM_INV", 1, 1},
    {"GLV_INV", 2, 1},
    {"GL1_INV", 3, 1},
    {"GL2_US", 4, 1},
    {"GL2_RANGE", 5, 2},
    {"GL2_DISCARD", 7, 1},
    {"GL2_INV", 8, 1},
    {"GL2_WB", 9, 1},
    {"SEQ", 10, 2},
    {"GLK_WB", 12, 1},
};
static const rl_pm4_register_t rl_gfx11_release_gcr =
    RL_PM4_REG("GCR_CNTL", 0, rl_gfx11_release_gcr_fields);

// ACQUIRE_MEM GCR_CNTL bits (nvd.h) used by the capability values below.
#define RL_GFX11_GLI_INV_ALL (1u << 0)
#define RL_GFX11_GLK_INV (1u << 7)
#define RL_GFX11_GLV_INV (1u << 8)
#define RL_GFX11_GL1_INV (1u << 9)
#define RL_GFX11_GL2_INV (1u << 14)
// RELEASE_MEM dword-1 bits (nvd.h PACKET3_RELEASE_MEM_GCR_*).
#define RL_GFX11_RELEASE_GLM_WB (1u << 12)
#define RL_GFX11_RELEASE_GLM_INV (1u << 13)
#define RL_GFX11_RELEASE_GL2_WB (1u << 21)
#define RL_GFX11_RELEASE_SEQ (1u << 22)

const rl_pm4_family_t rl_pm4_family_gfx11 = {
    .name = "gfx11",
    .gfx_major = 11,
    .regs =
        {
            .dispatch_initiator = 0x2E00,
            .start_x = 0x2E04,
            .num_thread_x = 0x2E07,
            .pgm_lo = 0x2E0C,
            .pgm_rsrc1 = 0x2E12,
            .pgm_rsrc3 = 0x2E28,
            .resource_limits = 0x2E15,
            .tmpring_size = 0x2E18,
            .restart_x = 0x2E1B,
            .user_data_0 = 0x2E40,
            .dispatch_pkt_addr_lo = 0x2E0E,
            .dispatch_scratch_base_lo = 0x2E10,
            .user_accum_0 = 0x2E24,
            .dispatch_interleave = 0x2E2F,
            .static_thread_mgmt_count = 8,
            .static_thread_mgmt = {0x2E16, 0x2E17, 0x2E19, 0x2E1A, 0x2E2B,
                                   0x2E2C, 0x2E2D, 0x2E2E},
        },
    .register_count = (uint32_t)RL_PM4_COUNT_OF(rl_gfx11_registers),
    .registers = rl_gfx11_registers,
    // Mesa radeonsi ("needed for CWSR"), tinygrad ("workaround cwsr") and
    // kfdtest set COMPUTE_PGM_RSRC1.PRIV for PM4 dispatches on gfx11
    // (pm4_reference.md §2.2).
    .rsrc1_priv_for_pm4 = true,
    .has_gl1 = true,
    // See pm4_family.h for why these sets.
    .gcr_acquire = RL_GFX11_GLK_INV | RL_GFX11_GLV_INV | RL_GFX11_GL1_INV,
    .gcr_acquire_entry = RL_GFX11_GLI_INV_ALL | RL_GFX11_GLK_INV |
                         RL_GFX11_GLV_INV | RL_GFX11_GL1_INV |
                         RL_GFX11_GL2_INV,
    // gfx_v11_0_ring_emit_fence: SEQ | GL2_WB | GLM_INV | GLM_WB.
    .release_gcr_writeback = RL_GFX11_RELEASE_GLM_WB |
                             RL_GFX11_RELEASE_GLM_INV |
                             RL_GFX11_RELEASE_GL2_WB | RL_GFX11_RELEASE_SEQ,
    .user_data_count = 16,
    .acquire_gcr_cntl = &rl_gfx11_acquire_gcr,
    .release_gcr_cntl = &rl_gfx11_release_gcr,
};
