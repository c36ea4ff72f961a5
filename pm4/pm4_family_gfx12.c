// pm4/pm4_family_gfx12.c — the gfx12 (RDNA4 gfx1200, gfx1201) compute SH
// registers, GCR encodings and capabilities.
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
#include "pm4/pm4_family_internal.h"

static const rl_pm4_field_t rl_gfx12_dispatch_initiator_fields[] = {
    {"COMPUTE_SHADER_EN", 0, 1},
    {"PARTIAL_TG_EN", 1, 1},
    {"FORCE_START_AT_000", 2, 1},
    {"ORDERED_APPEND_ENBL", 3, 1},
    {"ORDERED_APPEND_MODE", 4, 1},
    {"USE_THREAD_DIMENSIONS", 5, 1},
    {"ORDER_MODE", 6, 1},
    {"SCALAR_L1_INV_VOL", 10, 1},
    {"VECTOR_L1_INV_VOL", 11, 1},
    {"PING_PONG_EN", 12, 1},
    {"TUNNEL_ENABLE", 13, 1},
    {"RESTORE", 14, 1},
    {"CS_W32_EN", 15, 1},
    {"AMP_SHADER_EN", 16, 1},
    {"DISABLE_DISP_PREMPT_EN", 17, 1},
    {"INTERLEAVE_2D_EN", 18, 1},
    {"TTRACE_QUEUE_ID", 29, 3},
};
static const rl_pm4_field_t rl_gfx12_size_fields[] = {
    {"SIZE", 0, 32},
};
static const rl_pm4_field_t rl_gfx12_start_fields[] = {
    {"START", 0, 32},
};
static const rl_pm4_field_t rl_gfx12_num_thread_x_fields[] = {
    {"NUM_THREAD_FULL", 0, 13},
    {"INTERLEAVE_BITS_X", 13, 3},
    {"NUM_THREAD_PARTIAL", 16, 16},
};
static const rl_pm4_field_t rl_gfx12_num_thread_y_fields[] = {
    {"NUM_THREAD_FULL", 0, 13},
    {"INTERLEAVE_BITS_Y", 13, 3},
    {"NUM_THREAD_PARTIAL", 16, 16},
};
static const rl_pm4_field_t rl_gfx12_num_thread_z_fields[] = {
    {"NUM_THREAD_FULL", 0, 16},
    {"NUM_THREAD_PARTIAL", 16, 16},
};
static const rl_pm4_field_t rl_gfx12_data32_fields[] = {
    {"DATA", 0, 32},
};
static const rl_pm4_field_t rl_gfx12_data8_fields[] = {
    {"DATA", 0, 8},
};
static const rl_pm4_field_t rl_gfx12_pgm_rsrc1_fields[] = {
    {"VGPRS", 0, 6},
    {"SGPRS", 6, 4},
    {"PRIORITY", 10, 2},
    {"FLOAT_MODE", 12, 8},
    {"PRIV", 20, 1},
    {"WG_RR_EN", 21, 1},
    {"DEBUG_MODE", 22, 1},
    {"DISABLE_PERF", 23, 1},
    {"BULKY", 24, 1},
    {"CDBG_USER", 25, 1},
    {"FP16_OVFL", 26, 1},
    {"WGP_MODE", 29, 1},
    {"MEM_ORDERED", 30, 1},
    {"FWD_PROGRESS", 31, 1},
};
static const rl_pm4_field_t rl_gfx12_pgm_rsrc2_fields[] = {
    {"SCRATCH_EN", 0, 1},
    {"USER_SGPR", 1, 5},
    {"DYNAMIC_VGPR", 6, 1},
    {"TGID_X_EN", 7, 1},
    {"TGID_Y_EN", 8, 1},
    {"TGID_Z_EN", 9, 1},
    {"TG_SIZE_EN", 10, 1},
    {"TIDIG_COMP_CNT", 11, 2},
    {"EXCP_EN_MSB", 13, 2},
    {"LDS_SIZE", 15, 9},
    {"EXCP_EN", 24, 7},
    {"WGP_TAKEOVER", 31, 1},
};
static const rl_pm4_field_t rl_gfx12_vmid_fields[] = {
    {"DATA", 0, 4},
};
static const rl_pm4_field_t rl_gfx12_resource_limits_fields[] = {
    {"WAVES_PER_SH", 0, 10},
    {"TG_PER_CU", 12, 4},
    {"LOCK_THRESHOLD", 16, 6},
    {"SIMD_DEST_CNTL", 22, 1},
    {"FORCE_SIMD_DIST", 23, 1},
    {"CU_GROUP_COUNT", 24, 3},
};
static const rl_pm4_field_t rl_gfx12_stm_fields[] = {
    {"SA0_CU_EN", 0, 16},
    {"SA1_CU_EN", 16, 16},
};
static const rl_pm4_field_t rl_gfx12_tmpring_size_fields[] = {
    {"WAVES", 0, 12},
    {"WAVESIZE", 12, 18},
};
static const rl_pm4_field_t rl_gfx12_restart_fields[] = {
    {"RESTART", 0, 32},
};
static const rl_pm4_field_t rl_gfx12_thread_trace_enable_fields[] = {
    {"THREAD_TRACE_ENABLE", 0, 1},
};
static const rl_pm4_field_t rl_gfx12_accum_fields[] = {
    {"CONTRIBUTION", 0, 7},
};
static const rl_pm4_field_t rl_gfx12_pgm_rsrc3_fields[] = {
    {"SHARED_VGPR_CNT", 0, 4},
    {"INST_PREF_SIZE", 4, 8},
    {"GLG_EN", 13, 1},
    {"IMAGE_OP", 31, 1},
};
static const rl_pm4_field_t rl_gfx12_dispatch_interleave_fields[] = {
    {"INTERLEAVE_1D", 0, 10},
    {"INTERLEAVE_2D_X_SIZE", 16, 4},
    {"INTERLEAVE_2D_Y_SIZE", 24, 4},
};

// Sorted by dword index. Source of each entry: gc_12_0_0_offset.h reg<NAME>
// (+ 0x1260) and gc_12_0_0_sh_mask.h <NAME>__<FIELD>__SHIFT/_MASK.
static const rl_pm4_register_t rl_gfx12_registers[] = {
    RL_PM4_REG("COMPUTE_DISPATCH_INITIATOR", 0x2E00, rl_gfx12_dispatch_initiator_fields),  // gc_12_0_0_offset.h 0x1ba0
    RL_PM4_REG("COMPUTE_DIM_X", 0x2E01, rl_gfx12_size_fields),  // gc_12_0_0_offset.h 0x1ba1
    RL_PM4_REG("COMPUTE_DIM_Y", 0x2E02, rl_gfx12_size_fields),  // gc_12_0_0_offset.h 0x1ba2
    RL_PM4_REG("COMPUTE_DIM_Z", 0x2E03, rl_gfx12_size_fields),  // gc_12_0_0_offset.h 0x1ba3
    RL_PM4_REG("COMPUTE_START_X", 0x2E04, rl_gfx12_start_fields),  // gc_12_0_0_offset.h 0x1ba4
    RL_PM4_REG("COMPUTE_START_Y", 0x2E05, rl_gfx12_start_fields),  // gc_12_0_0_offset.h 0x1ba5
    RL_PM4_REG("COMPUTE_START_Z", 0x2E06, rl_gfx12_start_fields),  // gc_12_0_0_offset.h 0x1ba6
    RL_PM4_REG("COMPUTE_NUM_THREAD_X", 0x2E07, rl_gfx12_num_thread_x_fields),  // gc_12_0_0_offset.h 0x1ba7
    RL_PM4_REG("COMPUTE_NUM_THREAD_Y", 0x2E08, rl_gfx12_num_thread_y_fields),  // gc_12_0_0_offset.h 0x1ba8
    RL_PM4_REG("COMPUTE_NUM_THREAD_Z", 0x2E09, rl_gfx12_num_thread_z_fields),  // gc_12_0_0_offset.h 0x1ba9
    RL_PM4_REG("COMPUTE_PGM_LO", 0x2E0C, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1bac
    RL_PM4_REG("COMPUTE_PGM_HI", 0x2E0D, rl_gfx12_data8_fields),  // gc_12_0_0_offset.h 0x1bad
    RL_PM4_REG("COMPUTE_DISPATCH_PKT_ADDR_LO", 0x2E0E, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1bae
    RL_PM4_REG("COMPUTE_DISPATCH_PKT_ADDR_HI", 0x2E0F, rl_gfx12_data8_fields),  // gc_12_0_0_offset.h 0x1baf
    RL_PM4_REG("COMPUTE_DISPATCH_SCRATCH_BASE_LO", 0x2E10, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1bb0
    RL_PM4_REG("COMPUTE_DISPATCH_SCRATCH_BASE_HI", 0x2E11, rl_gfx12_data8_fields),  // gc_12_0_0_offset.h 0x1bb1
    RL_PM4_REG("COMPUTE_PGM_RSRC1", 0x2E12, rl_gfx12_pgm_rsrc1_fields),  // gc_12_0_0_offset.h 0x1bb2
    RL_PM4_REG("COMPUTE_PGM_RSRC2", 0x2E13, rl_gfx12_pgm_rsrc2_fields),  // gc_12_0_0_offset.h 0x1bb3
    RL_PM4_REG("COMPUTE_VMID", 0x2E14, rl_gfx12_vmid_fields),  // gc_12_0_0_offset.h 0x1bb4
    RL_PM4_REG("COMPUTE_RESOURCE_LIMITS", 0x2E15, rl_gfx12_resource_limits_fields),  // gc_12_0_0_offset.h 0x1bb5
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE0", 0x2E16, rl_gfx12_stm_fields),  // gc_12_0_0_offset.h 0x1bb6
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE1", 0x2E17, rl_gfx12_stm_fields),  // gc_12_0_0_offset.h 0x1bb7
    RL_PM4_REG("COMPUTE_TMPRING_SIZE", 0x2E18, rl_gfx12_tmpring_size_fields),  // gc_12_0_0_offset.h 0x1bb8
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE2", 0x2E19, rl_gfx12_stm_fields),  // gc_12_0_0_offset.h 0x1bb9
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE3", 0x2E1A, rl_gfx12_stm_fields),  // gc_12_0_0_offset.h 0x1bba
    RL_PM4_REG("COMPUTE_RESTART_X", 0x2E1B, rl_gfx12_restart_fields),  // gc_12_0_0_offset.h 0x1bbb
    RL_PM4_REG("COMPUTE_RESTART_Y", 0x2E1C, rl_gfx12_restart_fields),  // gc_12_0_0_offset.h 0x1bbc
    RL_PM4_REG("COMPUTE_RESTART_Z", 0x2E1D, rl_gfx12_restart_fields),  // gc_12_0_0_offset.h 0x1bbd
    RL_PM4_REG("COMPUTE_THREAD_TRACE_ENABLE", 0x2E1E, rl_gfx12_thread_trace_enable_fields),  // gc_12_0_0_offset.h 0x1bbe
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE8", 0x2E23, rl_gfx12_stm_fields),  // gc_12_0_0_offset.h 0x1bc3
    RL_PM4_REG("COMPUTE_USER_ACCUM_0", 0x2E24, rl_gfx12_accum_fields),  // gc_12_0_0_offset.h 0x1bc4
    RL_PM4_REG("COMPUTE_USER_ACCUM_1", 0x2E25, rl_gfx12_accum_fields),  // gc_12_0_0_offset.h 0x1bc5
    RL_PM4_REG("COMPUTE_USER_ACCUM_2", 0x2E26, rl_gfx12_accum_fields),  // gc_12_0_0_offset.h 0x1bc6
    RL_PM4_REG("COMPUTE_USER_ACCUM_3", 0x2E27, rl_gfx12_accum_fields),  // gc_12_0_0_offset.h 0x1bc7
    RL_PM4_REG("COMPUTE_PGM_RSRC3", 0x2E28, rl_gfx12_pgm_rsrc3_fields),  // gc_12_0_0_offset.h 0x1bc8
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE4", 0x2E2B, rl_gfx12_stm_fields),  // gc_12_0_0_offset.h 0x1bcb
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE5", 0x2E2C, rl_gfx12_stm_fields),  // gc_12_0_0_offset.h 0x1bcc
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE6", 0x2E2D, rl_gfx12_stm_fields),  // gc_12_0_0_offset.h 0x1bcd
    RL_PM4_REG("COMPUTE_STATIC_THREAD_MGMT_SE7", 0x2E2E, rl_gfx12_stm_fields),  // gc_12_0_0_offset.h 0x1bce
    RL_PM4_REG("COMPUTE_DISPATCH_INTERLEAVE", 0x2E2F, rl_gfx12_dispatch_interleave_fields),  // gc_12_0_0_offset.h 0x1bcf
    RL_PM4_REG("COMPUTE_USER_DATA_0", 0x2E40, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be0
    RL_PM4_REG("COMPUTE_USER_DATA_1", 0x2E41, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be1
    RL_PM4_REG("COMPUTE_USER_DATA_2", 0x2E42, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be2
    RL_PM4_REG("COMPUTE_USER_DATA_3", 0x2E43, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be3
    RL_PM4_REG("COMPUTE_USER_DATA_4", 0x2E44, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be4
    RL_PM4_REG("COMPUTE_USER_DATA_5", 0x2E45, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be5
    RL_PM4_REG("COMPUTE_USER_DATA_6", 0x2E46, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be6
    RL_PM4_REG("COMPUTE_USER_DATA_7", 0x2E47, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be7
    RL_PM4_REG("COMPUTE_USER_DATA_8", 0x2E48, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be8
    RL_PM4_REG("COMPUTE_USER_DATA_9", 0x2E49, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1be9
    RL_PM4_REG("COMPUTE_USER_DATA_10", 0x2E4A, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1bea
    RL_PM4_REG("COMPUTE_USER_DATA_11", 0x2E4B, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1beb
    RL_PM4_REG("COMPUTE_USER_DATA_12", 0x2E4C, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1bec
    RL_PM4_REG("COMPUTE_USER_DATA_13", 0x2E4D, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1bed
    RL_PM4_REG("COMPUTE_USER_DATA_14", 0x2E4E, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1bee
    RL_PM4_REG("COMPUTE_USER_DATA_15", 0x2E4F, rl_gfx12_data32_fields),  // gc_12_0_0_offset.h 0x1bef
};

// ACQUIRE_MEM dword 7 (PAL gfx12CmdUtil.cpp AcquireMemGcrCntl).
static const rl_pm4_field_t rl_gfx12_acquire_gcr_fields[] = {
    {"GLI_INV", 0, 2},      // 0 nop, 1 all, 2 range, 3 first/last
    {"GL1_RANGE", 2, 2},    // PAL: range control for K$ and V$
    {"GLK_WB", 6, 1},
    {"GLK_INV", 7, 1},
    {"GLV_INV", 8, 1},
    {"GL2_US", 10, 1},
    {"GL2_RANGE", 11, 2},
    {"GL2_DISCARD", 13, 1},
    {"GL2_INV", 14, 1},
    {"GL2_WB", 15, 1},
    {"SEQ", 16, 2},
    {"RANGE_IS_PA", 18, 1},
};
static const rl_pm4_register_t rl_gfx12_acquire_gcr =
    RL_PM4_REG("GCR_CNTL", 0, rl_gfx12_acquire_gcr_fields);

// RELEASE_MEM dword 1 bits 24:12, shifts relative to bit 12 (PAL
// gfx12CmdUtil.cpp ReleaseMemGcrCntl: bits 1:0 and 3 reserved).
static const rl_pm4_field_t rl_gfx12_release_gcr_fields[] = {
    {"GLV_INV", 2, 1},
    {"GL2_US", 4, 1},
    {"GL2_RANGE", 5, 2},
    {"GL2_DISCARD", 7, 1},
    {"GL2_INV", 8, 1},
    {"GL2_WB", 9, 1},
    {"SEQ", 10, 2},
    {"GLK_WB", 12, 1},
};
static const rl_pm4_register_t rl_gfx12_release_gcr =
    RL_PM4_REG("GCR_CNTL", 0, rl_gfx12_release_gcr_fields);

// ACQUIRE_MEM GCR_CNTL bits (AcquireMemGcrCntl) used below.
#define RL_GFX12_GLI_INV_ALL (1u << 0)
#define RL_GFX12_GLK_INV (1u << 7)
#define RL_GFX12_GLV_INV (1u << 8)
#define RL_GFX12_GL2_INV (1u << 14)
// RELEASE_MEM dword-1 bits (field bit + 12).
#define RL_GFX12_RELEASE_GL2_WB (1u << 21)
#define RL_GFX12_RELEASE_SEQ (1u << 22)

const rl_pm4_family_t rl_pm4_family_gfx12 = {
    .name = "gfx12",
    .gfx_major = 12,
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
            .static_thread_mgmt_count = 9,
            .static_thread_mgmt = {0x2E16, 0x2E17, 0x2E19, 0x2E1A, 0x2E2B,
                                   0x2E2C, 0x2E2D, 0x2E2E, 0x2E23},
        },
    .register_count = (uint32_t)RL_PM4_COUNT_OF(rl_gfx12_registers),
    .registers = rl_gfx12_registers,
    // The PRIV workaround is documented for gfx11 only (Mesa radeonsi sets
    // it for gfx11 CWSR; pm4_reference.md §2.2); gfx12 programs RSRC1 as the
    // kernel descriptor gives it.
    .rsrc1_priv_for_pm4 = false,
    .has_gl1 = false,
    // See pm4_family.h: the gfx11 sets without GL1.
    .gcr_acquire = RL_GFX12_GLK_INV | RL_GFX12_GLV_INV,
    .gcr_acquire_entry = RL_GFX12_GLI_INV_ALL | RL_GFX12_GLK_INV |
                         RL_GFX12_GLV_INV | RL_GFX12_GL2_INV,
    // gfx_v12_0_ring_emit_fence: SEQ | GL2_WB.
    .release_gcr_writeback = RL_GFX12_RELEASE_GL2_WB | RL_GFX12_RELEASE_SEQ,
    .user_data_count = 16,
    .acquire_gcr_cntl = &rl_gfx12_acquire_gcr,
    .release_gcr_cntl = &rl_gfx12_release_gcr,
};
