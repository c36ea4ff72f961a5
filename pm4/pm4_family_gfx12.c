// pm4/pm4_family_gfx12.c — the gfx12 (RDNA4 gfx1200, gfx1201) compute SH
// registers, GCR encodings and capabilities.
//
// The registers, their fields and the GCR_CNTL encodings are written once,
// with their sources, in base/hw/gfx12_registers.h; this file expands
// them into the family table and adds the capabilities.

#include "pm4/pm4_family_internal.h"
#include "base/hw/gfx12_registers.h"

// One field array per register of the table.
#define RL_GFX12_FIELD_ARRAY(NAME, INDEX, FIELDS)                \
  static const rl_pm4_field_t rl_gfx12_##NAME##_fields[] = { \
      FIELDS(RL_PM4_FIELD_ROW, NAME)};
RL_GFX12_REGISTERS(RL_GFX12_FIELD_ARRAY)
#undef RL_GFX12_FIELD_ARRAY

// Sorted by dword index (base/hw/gfx12_registers.h).
static const rl_pm4_register_t rl_gfx12_registers[] = {
#define RL_GFX12_REGISTER_ROW(NAME, INDEX, FIELDS) \
  RL_PM4_REG(#NAME, INDEX, rl_gfx12_##NAME##_fields),
    RL_GFX12_REGISTERS(RL_GFX12_REGISTER_ROW)
#undef RL_GFX12_REGISTER_ROW
};

static const rl_pm4_field_t rl_gfx12_acquire_gcr_fields[] = {
    RL_GFX12_FIELDS_ACQUIRE_MEM_GCR_CNTL(RL_PM4_FIELD_ROW, ACQUIRE)};
static const rl_pm4_register_t rl_gfx12_acquire_gcr =
    RL_PM4_REG("GCR_CNTL", 0, rl_gfx12_acquire_gcr_fields);
static const rl_pm4_field_t rl_gfx12_release_gcr_fields[] = {
    RL_GFX12_FIELDS_RELEASE_MEM_GCR_CNTL(RL_PM4_FIELD_ROW, RELEASE)};
static const rl_pm4_register_t rl_gfx12_release_gcr =
    RL_PM4_REG("GCR_CNTL", 0, rl_gfx12_release_gcr_fields);

// The fields code reads by compile-time id (pm4_family.h).
#define RL_GFX12_FIELD_BY_ID(ID, REG, FIELD) \
  [RL_PM4_FIELD_##ID] = {#FIELD, RL_GFX12_##REG##__##FIELD##__SHIFT, \
                         RL_GFX12_##REG##__##FIELD##__WIDTH},

// ACQUIRE_MEM GCR_CNTL bits (AcquireMemGcrCntl) used below.
// GLI_INV = 1: invalidate all of the instruction cache.
#define RL_GFX12_GLI_INV_ALL (1u << RL_GFX12_ACQUIRE_MEM_GCR_CNTL__GLI_INV__SHIFT)
#define RL_GFX12_GLK_INV RL_HW_MASK(RL_GFX12_ACQUIRE_MEM_GCR_CNTL__GLK_INV)
#define RL_GFX12_GLV_INV RL_HW_MASK(RL_GFX12_ACQUIRE_MEM_GCR_CNTL__GLV_INV)
#define RL_GFX12_GL2_INV RL_HW_MASK(RL_GFX12_ACQUIRE_MEM_GCR_CNTL__GL2_INV)
// RELEASE_MEM dword-1 bits (field bit + 12).
#define RL_GFX12_RELEASE_GL2_WB \
  (1u << (12 + RL_GFX12_RELEASE_MEM_GCR_CNTL__GL2_WB__SHIFT))
#define RL_GFX12_RELEASE_SEQ \
  (1u << (12 + RL_GFX12_RELEASE_MEM_GCR_CNTL__SEQ__SHIFT))

const rl_pm4_family_t rl_pm4_family_gfx12 = {
    .name = "gfx12",
    .gfx_major = 12,
    .regs =
        {
            .dispatch_initiator = RL_GFX12_COMPUTE_DISPATCH_INITIATOR,
            .start_x = RL_GFX12_COMPUTE_START_X,
            .num_thread_x = RL_GFX12_COMPUTE_NUM_THREAD_X,
            .pgm_lo = RL_GFX12_COMPUTE_PGM_LO,
            .pgm_rsrc1 = RL_GFX12_COMPUTE_PGM_RSRC1,
            .pgm_rsrc3 = RL_GFX12_COMPUTE_PGM_RSRC3,
            .resource_limits = RL_GFX12_COMPUTE_RESOURCE_LIMITS,
            .tmpring_size = RL_GFX12_COMPUTE_TMPRING_SIZE,
            .restart_x = RL_GFX12_COMPUTE_RESTART_X,
            .user_data_0 = RL_GFX12_COMPUTE_USER_DATA_0,
            .dispatch_pkt_addr_lo = RL_GFX12_COMPUTE_DISPATCH_PKT_ADDR_LO,
            .dispatch_scratch_base_lo =
                RL_GFX12_COMPUTE_DISPATCH_SCRATCH_BASE_LO,
            .user_accum_0 = RL_GFX12_COMPUTE_USER_ACCUM_0,
            .dispatch_interleave = RL_GFX12_COMPUTE_DISPATCH_INTERLEAVE,
            .static_thread_mgmt_count = 9,
            .static_thread_mgmt =
                {RL_GFX12_COMPUTE_STATIC_THREAD_MGMT_SE0,
                 RL_GFX12_COMPUTE_STATIC_THREAD_MGMT_SE1,
                 RL_GFX12_COMPUTE_STATIC_THREAD_MGMT_SE2,
                 RL_GFX12_COMPUTE_STATIC_THREAD_MGMT_SE3,
                 RL_GFX12_COMPUTE_STATIC_THREAD_MGMT_SE4,
                 RL_GFX12_COMPUTE_STATIC_THREAD_MGMT_SE5,
                 RL_GFX12_COMPUTE_STATIC_THREAD_MGMT_SE6,
                 RL_GFX12_COMPUTE_STATIC_THREAD_MGMT_SE7,
                 RL_GFX12_COMPUTE_STATIC_THREAD_MGMT_SE8},
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
    .field = {RL_PM4_FIELD_IDS(RL_GFX12_FIELD_BY_ID)
              RL_PM4_FIELD_IDS_GFX12(RL_GFX12_FIELD_BY_ID)},
};
