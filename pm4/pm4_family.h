// pm4/pm4_family.h — per-family register tables and capability flags.
//
// One table per GPU family, selected by the exact processor name (gfx1100,
// gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152 → gfx11; gfx1200,
// gfx1201 → gfx12). Unknown processors fail closed (RL_STATUS_UNSUPPORTED).
// Registers and their bit fields are data, used by both the encoder
// (lowering) and the decoder/disassembler, so a stream is read one way
// everywhere. Hardware differences are capability flags derived once from
// the family, never chip ids scattered through the code.
//
// Sources: Linux drivers/gpu/drm/amd/include/asic_reg/gc/gc_11_0_0_offset.h
// and _sh_mask.h, gc_12_0_0_offset.h and _sh_mask.h; PAL gfx9_plus_merged_
// registers.h and gfx12 equivalents.
// Every table entry cites its source next to it (pm4_family_gfx11.c,
// pm4_family_gfx12.c).
#ifndef REDLINE_PM4_PM4_FAMILY_H_
#define REDLINE_PM4_PM4_FAMILY_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_pm4_field_s {
  const char* name;  // "USER_SGPR"
  uint8_t shift;
  uint8_t width;
} rl_pm4_field_t;

typedef struct rl_pm4_register_s {
  const char* name;  // "COMPUTE_PGM_RSRC2"
  uint32_t index;    // dword index (0x2E13); SET_SH_REG offset = index - 0x2C00
  uint32_t field_count;
  const rl_pm4_field_t* fields;
} rl_pm4_register_t;

#define RL_PM4_MAX_STATIC_THREAD_MGMT 9

// Compile-time ids of the register fields code reads or writes (the
// lowering, the simulator's PM4 interpreter): X(ID, REGISTER, FIELD). Each
// family resolves every id from its base/hw table at compile time (a
// family without the field fails to build), so no field is looked up by
// name at run time.
#define RL_PM4_FIELD_IDS(X)                                                  \
  X(INITIATOR_COMPUTE_SHADER_EN, COMPUTE_DISPATCH_INITIATOR, COMPUTE_SHADER_EN) \
  X(INITIATOR_PARTIAL_TG_EN, COMPUTE_DISPATCH_INITIATOR, PARTIAL_TG_EN)       \
  X(INITIATOR_FORCE_START_AT_000, COMPUTE_DISPATCH_INITIATOR,                 \
    FORCE_START_AT_000)                                                       \
  X(INITIATOR_USE_THREAD_DIMENSIONS, COMPUTE_DISPATCH_INITIATOR,              \
    USE_THREAD_DIMENSIONS)                                                    \
  X(INITIATOR_ORDER_MODE, COMPUTE_DISPATCH_INITIATOR, ORDER_MODE)             \
  X(INITIATOR_CS_W32_EN, COMPUTE_DISPATCH_INITIATOR, CS_W32_EN)               \
  X(RSRC1_PRIV, COMPUTE_PGM_RSRC1, PRIV)                                      \
  X(RSRC2_USER_SGPR, COMPUTE_PGM_RSRC2, USER_SGPR)                            \
  X(RSRC2_LDS_SIZE, COMPUTE_PGM_RSRC2, LDS_SIZE)                              \
  X(RSRC2_SCRATCH_EN, COMPUTE_PGM_RSRC2, SCRATCH_EN)                          \
  X(TMPRING_WAVES, COMPUTE_TMPRING_SIZE, WAVES)                               \
  X(TMPRING_WAVESIZE, COMPUTE_TMPRING_SIZE, WAVESIZE)                         \
  X(NUM_THREAD_X_FULL, COMPUTE_NUM_THREAD_X, NUM_THREAD_FULL)                 \
  X(NUM_THREAD_Y_FULL, COMPUTE_NUM_THREAD_Y, NUM_THREAD_FULL)                 \
  X(NUM_THREAD_Z_FULL, COMPUTE_NUM_THREAD_Z, NUM_THREAD_FULL)
// Fields only some families have; a family without one leaves it zero
// (width 0: the field reads as 0 and its mask is empty).
#define RL_PM4_FIELD_IDS_GFX12(X)                                 \
  X(NUM_THREAD_X_INTERLEAVE, COMPUTE_NUM_THREAD_X, INTERLEAVE_BITS_X) \
  X(NUM_THREAD_Y_INTERLEAVE, COMPUTE_NUM_THREAD_Y, INTERLEAVE_BITS_Y)

typedef enum rl_pm4_field_id_e {
#define RL_PM4_FIELD_ID_ENUM(ID, REG, FIELD) RL_PM4_FIELD_##ID,
  RL_PM4_FIELD_IDS(RL_PM4_FIELD_ID_ENUM)
  RL_PM4_FIELD_IDS_GFX12(RL_PM4_FIELD_ID_ENUM)
#undef RL_PM4_FIELD_ID_ENUM
  RL_PM4_FIELD_ID_COUNT
} rl_pm4_field_id_t;

// Dword indices of the registers lowering programs (identical on gfx11 and
// gfx12 for these; see the tables).
typedef struct rl_pm4_compute_regs_s {
  uint32_t dispatch_initiator;
  uint32_t start_x;       // START_X..Z, NUM_THREAD_X..Z follow contiguously
  uint32_t num_thread_x;
  uint32_t pgm_lo;        // PGM_LO, PGM_HI contiguous
  uint32_t pgm_rsrc1;     // RSRC1, RSRC2 contiguous
  uint32_t pgm_rsrc3;
  uint32_t resource_limits;
  uint32_t tmpring_size;
  uint32_t restart_x;
  uint32_t user_data_0;   // USER_DATA_0..15 contiguous
  // Added after the first draft (append-only):
  uint32_t dispatch_pkt_addr_lo;      // LO, HI contiguous
  uint32_t dispatch_scratch_base_lo;  // LO, HI contiguous
  uint32_t user_accum_0;              // USER_ACCUM_0..3 contiguous
  uint32_t dispatch_interleave;
  // COMPUTE_STATIC_THREAD_MGMT_SE0.. in shader-engine order (not
  // contiguous: SE0/1, SE2/3, SE4..7 and gfx12's SE8 sit apart).
  uint32_t static_thread_mgmt_count;  // 8 on gfx11, 9 on gfx12
  uint32_t static_thread_mgmt[RL_PM4_MAX_STATIC_THREAD_MGMT];
} rl_pm4_compute_regs_t;

typedef struct rl_pm4_family_s {
  const char* name;     // "gfx11", "gfx12"
  uint32_t gfx_major;   // 11, 12
  rl_pm4_compute_regs_t regs;
  uint32_t register_count;
  const rl_pm4_register_t* registers;  // sorted by index
  // Capabilities.
  bool rsrc1_priv_for_pm4;   // gfx11: COMPUTE_PGM_RSRC1.PRIV must be set
  bool has_gl1;              // gfx11 has GL1 (ACQUIRE_MEM GL1_INV); gfx12 not
  // ACQUIRE_MEM GCR_CNTL values: the acquire redline places at a hazard
  // boundary (invalidate the caches a consumer reads through) and at entry
  // (also invalidate the instruction cache).
  //
  // Hazard boundary: producer and consumer run on one queue of one GPU, and
  // every store of the producer lands in the shared GL2 (the vector L0 is
  // write-through, GL1 is read-only), which the CS_PARTIAL_FLUSH / end-of-
  // pipe wait before the acquire has drained. What can still be stale are
  // the per-CU/per-array read caches the consumer reads through: the scalar
  // cache (GLK), the vector L0 (GLV) and, on gfx11, GL1. GL2 needs neither
  // write-back nor invalidation (PAL gfx9CmdUtil/gfx12CmdUtil acquire for a
  // shader-write -> shader-read barrier; tinygrad ops_amd.py invalidates the
  // same set before every dispatch). gfx11: GLK_INV|GLV_INV|GL1_INV = 0x380;
  // gfx12: GLK_INV|GLV_INV = 0x180.
  //
  // Entry: the stream starts after host writes (code upload, kernarg and
  // buffer contents, patched between runs) that did not go through GL2, so
  // besides the hazard set it invalidates the instruction cache (GLI_INV=1,
  // all) and GL2 (GL2_INV) — ROCR GpuAgent::InvalidateCodeCaches uses
  // exactly this set on gfx10+: gfx11 0x04381; gfx12 (no GL1) 0x04181.
  uint32_t gcr_acquire;
  uint32_t gcr_acquire_entry;
  // RELEASE_MEM dword-1 GCR bits for the terminal release (L2 write-back),
  // already shifted into place (RELEASE_MEM GCR_CNTL starts at bit 12). The
  // kernel's own end-of-IB fence: gfx11 GL2_WB|SEQ|GLM_WB|GLM_INV
  // (gfx_v11_0.c gfx_v11_0_ring_emit_fence) = 0x00603000; gfx12 GL2_WB|SEQ
  // (gfx_v12_0.c gfx_v12_0_ring_emit_fence) = 0x00600000.
  uint32_t release_gcr_writeback;
  uint32_t user_data_count;  // COMPUTE_USER_DATA registers (16)
  // Added after the first draft (append-only): the sub-fields of ACQUIRE_MEM
  // dword 7 GCR_CNTL and of RELEASE_MEM dword 1 GCR_CNTL (bits 24:12; the
  // field shifts are relative to bit 12). The two encodings differ from each
  // other and between gfx11 and gfx12 (no GL1/GLM on gfx12).
  const rl_pm4_register_t* acquire_gcr_cntl;
  const rl_pm4_register_t* release_gcr_cntl;
  // The fields by compile-time id (RL_PM4_FIELD_IDS); width 0 when the
  // family has no such field.
  rl_pm4_field_t field[RL_PM4_FIELD_ID_COUNT];
} rl_pm4_family_t;

// The family of processor |processor| ("gfx1100"); UNSUPPORTED otherwise.
rl_status_t rl_pm4_family_for_processor(const char* processor,
                                        const rl_pm4_family_t** out_family);

// The register with dword index |index|, or NULL.
const rl_pm4_register_t* rl_pm4_family_register(const rl_pm4_family_t* family,
                                                uint32_t index);

// The register named |name| ("COMPUTE_PGM_RSRC1"), or NULL.
const rl_pm4_register_t* rl_pm4_family_register_named(
    const rl_pm4_family_t* family, const char* name);

// The mask of |field| in its register (0 for width 0).
static inline uint32_t rl_pm4_field_mask(rl_pm4_field_t field) {
  return (uint32_t)(0xFFFFFFFFull >> (32u - field.width)) << field.shift;
}

// The value of field |id| of |family| in register value |value|.
static inline uint32_t rl_pm4_field_get(const rl_pm4_family_t* family,
                                        rl_pm4_field_id_t id, uint32_t value) {
  const rl_pm4_field_t field = family->field[id];
  return (value & rl_pm4_field_mask(field)) >> field.shift;
}

// |value| placed in field |id| of |family| (bits outside the field are
// dropped).
static inline uint32_t rl_pm4_field_put(const rl_pm4_family_t* family,
                                        rl_pm4_field_id_t id, uint32_t value) {
  const rl_pm4_field_t field = family->field[id];
  return (value << field.shift) & rl_pm4_field_mask(field);
}

// The value of field |field_name| of |reg| in |value|; false if no such
// field (for tools that take names from a user, e.g. the disassembler).
bool rl_pm4_register_field(const rl_pm4_register_t* reg, const char* field_name,
                           uint32_t value, uint32_t* out_field);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_PM4_PM4_FAMILY_H_
