// sim/isa/isa_executor.c — the `isa` executor: dispatch checks and
// the initial wave state (begin), work-group execution with round-robin
// waves and barriers (run_workgroup), release (end). Contract:
// isa_executor.h.
#include "sim/isa/isa_executor.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_mem.h"
#include "sim/isa/isa_program.h"

#define RL_ISA_POISON 0xbad0bad0u
#define RL_ISA_MAX_USER_SGPRS 32u
// VGPR rows allocated per wave: all 256 architectural VGPRs plus slack for
// a 128-bit operand starting at v255, so no operand can index past the
// allocation whatever the descriptor says.
#define RL_ISA_VGPR_ROWS 260u
// TTMPn is SGPR 108 + n (source codes 108-123).
#define RL_ISA_TTMP(n) (108u + (n))
// Largest private segment per work-item the executor allocates (bytes).
#define RL_ISA_PRIVATE_LIMIT (64u * 1024u)

// Processors the interpreter models and their capability flags.
typedef struct rl_isa_target_s {
  const char* processor;
  uint32_t features;
} rl_isa_target_t;

static const rl_isa_target_t rl_isa_targets[] = {
    {"gfx1100", 0}, {"gfx1101", 0}, {"gfx1102", 0}, {"gfx1103", 0},
    {"gfx1150", RL_ISA_FEATURE_SALU_FLOAT},
    {"gfx1151", RL_ISA_FEATURE_SALU_FLOAT},
    {"gfx1152", RL_ISA_FEATURE_SALU_FLOAT},
    // gfx12 (RDNA4): its own encodings and tables (isa_gfx12.h); the SALU
    // float opcodes of gfx1150 are gfx12 opcodes too.
    {"gfx1200", RL_ISA_FEATURE_SALU_FLOAT | RL_ISA_FEATURE_GFX12},
    {"gfx1201", RL_ISA_FEATURE_SALU_FLOAT | RL_ISA_FEATURE_GFX12},
};

typedef struct rl_isa_dispatch_s {
  const char* kernel_name;
  uint64_t entry_address;
  uint32_t features;
  uint32_t mode;
  uint32_t user_sgpr_count;
  uint32_t user_sgprs[RL_ISA_MAX_USER_SGPRS];
  uint32_t system_sgpr_base;  // COMPUTE_PGM_RSRC2.USER_SGPR
  bool workgroup_id[3];
  bool workgroup_info;
  uint32_t tidig;       // TIDIG_COMP_CNT
  uint32_t vgpr_count;  // allocated by the descriptor
  uint32_t max_waves;   // waves of a whole work-group
  uint32_t lds_size;
  uint32_t private_size;  // bytes per work-item (0: no private segment)
  rl_isa_program_t* program;  // resolved by the first work-group
  rl_isa_wave_t* waves;
  uint32_t (*vgprs)[RL_ISA_LANES];
  uint8_t* privates;  // max_waves x 32 private segments (run_workgroup)
  // Worker threads 1.. of a parallel dispatch (run_workgroup_on): their own
  // waves, VGPR rows and private segments, made by their first call
  // (worker 0 uses the three above).
  struct rl_isa_worker_s* workers[RL_SIM_THREADS_MAX];
  rl_isa_gws_t gws[RL_ISA_GWS_RESOURCES];  // isa_gws.c
} rl_isa_dispatch_t;

typedef struct rl_isa_worker_s {
  rl_isa_wave_t* waves;
  uint32_t (*vgprs)[RL_ISA_LANES];
  uint8_t* privates;
} rl_isa_worker_t;

static atomic_ullong rl_isa_retired;

static rl_status_t rl_isa_refuse(const rl_sim_dispatch_t* dispatch,
                                 const char* what) {
  return RL_STATUS(RL_STATUS_UNSUPPORTED, "isa executor: kernel %s: %s",
                   dispatch->kernel->name, what);
}

bool rl_isa_processor_features(const char* processor,
                               uint32_t* out_features) {
  *out_features = 0;
  for (size_t i = 0;
       processor && i < sizeof(rl_isa_targets) / sizeof(rl_isa_targets[0]);
       ++i) {
    if (strcmp(processor, rl_isa_targets[i].processor) == 0) {
      *out_features = rl_isa_targets[i].features;
      return true;
    }
  }
  return false;
}

static rl_status_t rl_isa_check_target(const rl_sim_dispatch_t* dispatch,
                                       uint32_t* out_features) {
  const char* processor = dispatch->processor;
  if (processor == NULL) {
    return rl_isa_refuse(dispatch, "the dispatch does not name its processor "
                                   "(rl_sim_dispatch_t.processor is NULL)");
  }
  if (rl_isa_processor_features(processor, out_features)) return RL_OK;
  return RL_STATUS(RL_STATUS_UNSUPPORTED,
                   "isa executor: kernel %s: processor %s is not modelled: "
                   "only gfx11 (gfx1100-gfx1103, gfx1150-gfx1152) and gfx12 "
                   "(gfx1200, gfx1201) machine code is interpreted",
                   dispatch->kernel->name, processor);
}

static rl_status_t rl_isa_check_modes(const rl_sim_dispatch_t* dispatch,
                                      uint32_t features, uint32_t* out_mode) {
  const rl_kernel_descriptor_info_t* info = &dispatch->kernel->descriptor_info;
  if (!info->enable_wavefront_size32) {
    return rl_isa_refuse(dispatch, "wave64 kernels are not modelled (only "
                                   "wave32: ENABLE_WAVEFRONT_SIZE32 is 0)");
  }
  if (info->float_round_mode_32 != 0 || info->float_round_mode_16_64 != 0) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "isa executor: kernel %s: FLOAT_ROUND_MODE_32 %u / "
                     "_16_64 %u; only round-to-nearest-even (0) is modelled",
                     dispatch->kernel->name, info->float_round_mode_32,
                     info->float_round_mode_16_64);
  }
  if ((info->float_denorm_mode_32 != 0 && info->float_denorm_mode_32 != 3) ||
      info->float_denorm_mode_16_64 != 3) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "isa executor: kernel %s: FLOAT_DENORM_MODE_32 %u / "
                     "_16_64 %u; modelled: 32-bit 0 (flush) or 3 (keep), "
                     "16/64-bit 3",
                     dispatch->kernel->name, info->float_denorm_mode_32,
                     info->float_denorm_mode_16_64);
  }
  *out_mode = (info->float_denorm_mode_32 == 0 ? RL_ISA_MODE_FTZ32 : 0) |
              (info->enable_ieee_mode ? RL_ISA_MODE_IEEE : 0) |
              (info->enable_dx10_clamp ? RL_ISA_MODE_DX10_CLAMP : 0);
  if ((features & RL_ISA_FEATURE_GFX12) && info->enable_dynamic_vgpr) {
    return rl_isa_refuse(dispatch, "dynamic VGPR allocation (COMPUTE_PGM_"
                                   "RSRC2 bit 6 on gfx12) is not modelled");
  }
  if (features & RL_ISA_FEATURE_GFX12) {
    // gfx12 has no IEEE_MODE / DX10_CLAMP: COMPUTE_PGM_RSRC1 bits 23 and 21
    // are DISABLE_PERF and WG_RR_EN there (AMDGPUUsage, "compute_pgm_rsrc1
    // for GFX6-GFX12"), and MODE has no such bits. Only the denormal mode
    // is taken; the gfx12 float min/max (*_num_*) are the gfx11 rows with
    // IEEE clear (isa_table_gfx12.c), and the forms that depend on
    // DX10_CLAMP/IEEE (float CLAMP, OMOD) are refused on gfx12
    // (isa_exec_gfx12.c).
    *out_mode &= RL_ISA_MODE_FTZ32;
  }
  return RL_OK;
}

static void rl_isa_push64(rl_isa_dispatch_t* d, uint64_t value) {
  d->user_sgprs[d->user_sgpr_count++] = (uint32_t)value;
  d->user_sgprs[d->user_sgpr_count++] = (uint32_t)(value >> 32);
}

// User SGPRs from the descriptor and the AQL dispatch (isa_executor.h).
static rl_status_t rl_isa_derive_user_sgprs(const rl_sim_dispatch_t* dispatch,
                                            rl_isa_dispatch_t* d) {
  const rl_kernel_descriptor_info_t* info = &dispatch->kernel->descriptor_info;
  if (info->enable_sgpr_private_segment_buffer) {
    return rl_isa_refuse(dispatch, "a private segment buffer user SGPR is "
                                   "not modelled (not used on gfx11)");
  }
  if (info->enable_sgpr_dispatch_ptr) {
    if (dispatch->packet_address == 0) {
      return rl_isa_refuse(dispatch, "the kernel reads the dispatch ptr but "
                                     "the dispatch has no packet address");
    }
    rl_isa_push64(d, dispatch->packet_address);
  }
  if (info->enable_sgpr_queue_ptr) {
    return rl_isa_refuse(dispatch, "the queue ptr user SGPR is not modelled "
                                   "(no amd_queue_t is simulated)");
  }
  if (info->enable_sgpr_kernarg_segment_ptr) {
    rl_isa_push64(d, dispatch->kernarg_address);
  }
  if (info->enable_sgpr_dispatch_id) rl_isa_push64(d, dispatch->packet_id);
  if (info->enable_sgpr_flat_scratch_init) {
    return rl_isa_refuse(dispatch, "flat scratch init is not modelled (gfx11 "
                                   "has architected flat scratch)");
  }
  if (info->kernarg_preload_spec_length != 0) {
    return rl_isa_refuse(dispatch, "preloaded kernarg SGPRs are not modelled");
  }
  if (info->enable_sgpr_private_segment_size) {
    d->user_sgprs[d->user_sgpr_count++] = dispatch->private_segment_size;
  }
  return RL_OK;
}

// Counts the user SGPRs the descriptor enables (AMDGPUUsage "SGPR Register
// Set Up Order"), for the check of verbatim values.
static uint32_t rl_isa_enabled_user_sgprs(
    const rl_kernel_descriptor_info_t* info) {
  return 4u * info->enable_sgpr_private_segment_buffer +
         2u * info->enable_sgpr_dispatch_ptr +
         2u * info->enable_sgpr_queue_ptr +
         2u * info->enable_sgpr_kernarg_segment_ptr +
         2u * info->enable_sgpr_dispatch_id +
         2u * info->enable_sgpr_flat_scratch_init +
         info->kernarg_preload_spec_length +
         info->enable_sgpr_private_segment_size;
}

// The private segment (isa_scratch.c). gfx11 and gfx12 have architected
// flat scratch (LLVM AMDGPUUsage, processor table): the wave's scratch base
// is set up by the hardware, no system SGPR carries a wave offset and the
// kernel addresses its stack from offset 0 (s33 = 0). Every work-item gets
// the dispatch's private_segment_size bytes; the simulator checked that
// they cover the kernel's fixed size (sim_wg.c).
static rl_status_t rl_isa_setup_private(const rl_sim_dispatch_t* dispatch,
                                        rl_isa_dispatch_t* d) {
  const rl_code_object_kernel_t* kernel = dispatch->kernel;
  if (!kernel->descriptor_info.enable_private_segment) return RL_OK;
  if (dispatch->private_segment_size < kernel->private_segment_size) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "isa executor: kernel %s: the dispatch provides %u "
                     "private bytes per work-item, the kernel needs %u",
                     kernel->name, dispatch->private_segment_size,
                     kernel->private_segment_size);
  }
  if (dispatch->private_segment_size > RL_ISA_PRIVATE_LIMIT) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "isa executor: kernel %s: %u private bytes per "
                     "work-item; the executor models at most %u",
                     kernel->name, dispatch->private_segment_size,
                     RL_ISA_PRIVATE_LIMIT);
  }
  d->private_size = (dispatch->private_segment_size + 3u) & ~3u;
  return RL_OK;
}

// USER_SGPR (COMPUTE_PGM_RSRC2) is the number of SGPRs the CP loads from
// COMPUTE_USER_DATA_*; it may exceed what the kernel code properties enable
// (LLVM 19 reserves 15 on gfx11 for HIP kernels that enable only the
// kernarg pointer), and the system SGPRs start right after it, at
// s[USER_SGPR]. AMDGPUUsage: "must be greater than or equal to the number
// of user data registers enabled".
static rl_status_t rl_isa_setup_sgprs(const rl_sim_dispatch_t* dispatch,
                                      rl_isa_dispatch_t* d) {
  const rl_kernel_descriptor_info_t* info = &dispatch->kernel->descriptor_info;
  if (info->user_sgpr_count > RL_ISA_MAX_USER_SGPRS) {
    return rl_isa_refuse(dispatch, "COMPUTE_PGM_RSRC2.USER_SGPR above 32");
  }
  uint32_t enabled = rl_isa_enabled_user_sgprs(info);
  if (dispatch->user_sgprs != NULL) {
    if (dispatch->user_sgpr_count < enabled ||
        dispatch->user_sgpr_count > info->user_sgpr_count) {
      return RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "isa executor: kernel %s: %u user SGPR values given; "
                       "the descriptor enables %u and COMPUTE_PGM_RSRC2."
                       "USER_SGPR is %u",
                       dispatch->kernel->name, dispatch->user_sgpr_count,
                       enabled, info->user_sgpr_count);
    }
    memcpy(d->user_sgprs, dispatch->user_sgprs,
           dispatch->user_sgpr_count * sizeof(uint32_t));
    d->user_sgpr_count = dispatch->user_sgpr_count;
  } else {
    RL_RETURN_IF_ERROR(rl_isa_derive_user_sgprs(dispatch, d));
  }
  if (d->user_sgpr_count > info->user_sgpr_count) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "isa executor: kernel %s: %u user SGPRs enabled, but "
                     "COMPUTE_PGM_RSRC2.USER_SGPR is only %u",
                     dispatch->kernel->name, d->user_sgpr_count,
                     info->user_sgpr_count);
  }
  d->system_sgpr_base = info->user_sgpr_count;
  RL_RETURN_IF_ERROR(rl_isa_setup_private(dispatch, d));
  d->workgroup_id[0] = info->enable_sgpr_workgroup_id_x;
  d->workgroup_id[1] = info->enable_sgpr_workgroup_id_y;
  d->workgroup_id[2] = info->enable_sgpr_workgroup_id_z;
  d->workgroup_info = info->enable_sgpr_workgroup_info;
  d->tidig = info->enable_vgpr_workitem_id;
  return RL_OK;
}

// The VGPR block of the last dispatch that ended, kept for the next one:
// a dispatch's block (RL_ISA_VGPR_ROWS rows per wave, 33 KB) is large
// enough that calloc maps fresh pages, so allocating it per dispatch cost a
// page fault per 4 KB. A reused block starts as calloc's would: the rows a
// dispatch does not poison (those from its VGPR count on, wave_init) are
// zeroed when an earlier user may have written them (|dirty_rows|).
typedef struct rl_isa_vgpr_block_s {
  uint32_t (*rows)[RL_ISA_LANES];
  uint32_t waves;       // wave slots of RL_ISA_VGPR_ROWS rows
  uint32_t dirty_rows;  // rows of each slot that may be non-zero
} rl_isa_vgpr_block_t;

static pthread_mutex_t rl_isa_vgpr_lock = PTHREAD_MUTEX_INITIALIZER;
static rl_isa_vgpr_block_t rl_isa_vgpr_kept;  // under rl_isa_vgpr_lock

// A zeroed-as-calloc block of |waves| slots for a dispatch of |vgpr_count|
// VGPRs; rows NULL when out of memory.
static rl_isa_vgpr_block_t rl_isa_vgpr_take(uint32_t waves,
                                            uint32_t vgpr_count) {
  rl_isa_vgpr_block_t block = {NULL, 0, 0};
  pthread_mutex_lock(&rl_isa_vgpr_lock);
  if (rl_isa_vgpr_kept.rows != NULL && rl_isa_vgpr_kept.waves >= waves) {
    block = rl_isa_vgpr_kept;
    rl_isa_vgpr_kept = (rl_isa_vgpr_block_t){NULL, 0, 0};
  }
  pthread_mutex_unlock(&rl_isa_vgpr_lock);
  if (block.rows == NULL) {
    block.rows = calloc((size_t)waves * RL_ISA_VGPR_ROWS,
                        sizeof(uint32_t) * RL_ISA_LANES);
    block.waves = waves;
    return block;
  }
  if (block.dirty_rows > vgpr_count) {
    for (uint32_t w = 0; w < block.waves; ++w) {
      memset(block.rows[(size_t)w * RL_ISA_VGPR_ROWS + vgpr_count], 0,
             (size_t)(block.dirty_rows - vgpr_count) * sizeof(block.rows[0]));
    }
  }
  block.dirty_rows = vgpr_count;
  return block;
}

// Keeps |block| for the next dispatch (the larger of it and the kept one).
static void rl_isa_vgpr_give(rl_isa_vgpr_block_t block) {
  if (block.rows == NULL) return;
  pthread_mutex_lock(&rl_isa_vgpr_lock);
  if (rl_isa_vgpr_kept.waves <= block.waves) {
    rl_isa_vgpr_block_t old = rl_isa_vgpr_kept;
    rl_isa_vgpr_kept = block;
    block = old;
  }
  pthread_mutex_unlock(&rl_isa_vgpr_lock);
  free(block.rows);
}

static void rl_isa_dispatch_free(rl_isa_dispatch_t* d) {
  if (d == NULL) return;
  for (uint32_t k = 0; k < RL_SIM_THREADS_MAX; ++k) {
    if (d->workers[k] == NULL) continue;
    free(d->workers[k]->waves);
    free(d->workers[k]->vgprs);
    free(d->workers[k]->privates);
    free(d->workers[k]);
  }
  rl_isa_program_release(d->program);
  rl_isa_vgpr_give((rl_isa_vgpr_block_t){
      d->vgprs, d->max_waves ? d->max_waves : 1, d->vgpr_count});
  free(d->waves);
  free(d->privates);
  free(d);
}

// The private segments of a work-group's waves, or NULL.
static uint8_t* rl_isa_privates_alloc(const rl_isa_dispatch_t* d) {
  size_t waves = d->max_waves ? d->max_waves : 1;
  return malloc(waves * RL_ISA_LANES * (size_t)d->private_size);
}

static rl_status_t rl_isa_begin(void* self, const rl_sim_dispatch_t* dispatch,
                                void** out_state) {
  (void)self;
  *out_state = NULL;
  rl_isa_dispatch_t* d = calloc(1, sizeof(*d));
  if (d == NULL) return rl_status_out_of_memory();
  rl_status_t status = rl_isa_check_target(dispatch, &d->features);
  if (status == RL_OK) {
    status = rl_isa_check_modes(dispatch, d->features, &d->mode);
  }
  if (status == RL_OK) status = rl_isa_setup_sgprs(dispatch, d);
  if (status != RL_OK) {
    rl_isa_dispatch_free(d);
    return status;
  }
  const rl_kernel_descriptor_info_t* info = &dispatch->kernel->descriptor_info;
  d->kernel_name = dispatch->kernel->name;
  d->entry_address = dispatch->entry_address;
  d->lds_size = dispatch->group_segment_size;
  // GRANULATED_WORKITEM_VGPR_COUNT: granules of 8 VGPRs in wave32 on gfx11
  // (AMDGPUUsage, "compute_pgm_rsrc1 for GFX6-GFX12").
  d->vgpr_count = (info->granulated_workitem_vgpr_count + 1) * 8;
  if (d->vgpr_count > 256) d->vgpr_count = 256;
  uint64_t items = (uint64_t)dispatch->workgroup_size[0] *
                   dispatch->workgroup_size[1] * dispatch->workgroup_size[2];
  d->max_waves = (uint32_t)((items + RL_ISA_LANES - 1) / RL_ISA_LANES);
  d->waves = calloc(d->max_waves ? d->max_waves : 1, sizeof(rl_isa_wave_t));
  d->vgprs = rl_isa_vgpr_take(d->max_waves ? d->max_waves : 1,
                              d->vgpr_count).rows;
  if (d->private_size != 0) {
    d->privates = rl_isa_privates_alloc(d);
  }
  if (d->waves == NULL || d->vgprs == NULL ||
      (d->private_size != 0 && d->privates == NULL)) {
    rl_isa_dispatch_free(d);
    return rl_status_out_of_memory();
  }
  *out_state = d;
  return RL_OK;
}

static void rl_isa_end(void* self, void* state) {
  (void)self;
  rl_isa_dispatch_free(state);
}

static rl_status_t rl_isa_fetch(void* context, uint64_t address,
                                void* out_data, uint32_t size) {
  // Instruction fetch: the cache model has no I$ (sim/mem/sim_mem.h).
  return rl_sim_wg_load_with(context, address, out_data, size,
                             RL_SIM_ACCESS_INSTRUCTION);
}

// Resolves the program on the dispatch's first work-group (code is read
// through the simulated MMU, which needs a work-group) and checks it fits
// the descriptor's VGPR allocation.
static rl_status_t rl_isa_resolve(rl_isa_dispatch_t* d, rl_sim_wg_t* wg) {
  if (d->program) return RL_OK;
  RL_RETURN_IF_ERROR(rl_isa_program_get(d->entry_address, d->features,
                                        rl_isa_fetch, wg, &d->program));
  RL_RETURN_IF_ERROR(rl_isa_program_refusal(d->program, d->kernel_name));
  if (d->program->vgpr_end > d->vgpr_count) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "isa executor: kernel %s: its code uses v%u but the "
                     "descriptor allocates %u VGPRs",
                     d->kernel_name, d->program->vgpr_end - 1, d->vgpr_count);
  }
  return RL_OK;
}

static void rl_isa_wave_init(rl_isa_dispatch_t* d, rl_isa_group_t* group,
                             rl_isa_wave_t* storage,
                             uint32_t (*vgprs)[RL_ISA_LANES],
                             uint8_t* privates, const rl_sim_wg_t* wg,
                             uint32_t w, uint32_t waves, uint32_t items) {
  rl_isa_wave_t* wave = &storage[w];
  wave->vgpr = vgprs + (size_t)w * RL_ISA_VGPR_ROWS;
  wave->vgpr_count = d->vgpr_count;
  wave->group = group;
  wave->id = w;
  wave->pc = d->program->entry_index;
  wave->private_size = d->private_size;
  wave->private_mem = NULL;
  if (d->private_size != 0) {
    // Private memory starts as the poison pattern, like the registers: the
    // hardware gives no initial value.
    size_t bytes = (size_t)RL_ISA_LANES * d->private_size;
    wave->private_mem = privates + (size_t)w * bytes;
    for (size_t i = 0; i < bytes; i += 4) {
      memcpy(wave->private_mem + i, &(uint32_t){RL_ISA_POISON}, 4);
    }
  }
  wave->scc = 0;
  wave->state = RL_ISA_WAVE_RUNNING;
  wave->mode = group->mode;
  wave->mode_reg = rl_isa_mode_register(group->mode);
  for (uint32_t i = 0; i < RL_ISA_SGPRS; ++i) wave->sgpr[i] = RL_ISA_POISON;
  memcpy(wave->sgpr, d->user_sgprs, d->user_sgpr_count * sizeof(uint32_t));
  uint32_t next = d->system_sgpr_base;
  if (d->features & RL_ISA_FEATURE_GFX12) {
    // gfx12 has architected SGPRs: the work-group id is in TTMP9 (X) and
    // TTMP7 (Y in [15:0], Z in [31:16]), not in system SGPRs, which start
    // with the work-group info (LLVM AMDGPU: "Architected SGPRs for GFX12",
    // SIISelLowering allocateSystemSGPRs).
    wave->sgpr[RL_ISA_TTMP(9)] = wg->group_id[0];
    wave->sgpr[RL_ISA_TTMP(7)] =
        (wg->group_id[1] & 0xffffu) | (wg->group_id[2] << 16);
  } else {
    for (int axis = 0; axis < 3; ++axis) {
      if (d->workgroup_id[axis]) wave->sgpr[next++] = wg->group_id[axis];
    }
  }
  if (d->workgroup_info) wave->sgpr[next++] = (w == 0 ? 1u << 31 : 0) | waves;
  uint32_t first = w * RL_ISA_LANES;
  uint32_t lanes = items - first < RL_ISA_LANES ? items - first : RL_ISA_LANES;
  wave->sgpr[RL_ISA_SRC_EXEC] = lanes == 32 ? RL_ISA_ALL_LANES
                                            : (1u << lanes) - 1u;
  wave->sgpr[RL_ISA_SRC_EXEC + 1] = 0;
  for (uint32_t r = 0; r < d->vgpr_count; ++r) {
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) wave->vgpr[r][l] = RL_ISA_POISON;
  }
  // Work-item id first + l is (x, y, z) with x fastest: divided once for
  // the first lane, then counted up (no division per lane).
  const uint32_t sx = wg->size[0], sy = wg->size[1];
  uint32_t x = first % sx, y = (first / sx) % sy, z = first / (sx * sy);
  for (uint32_t l = 0; l < lanes; ++l) {
    wave->vgpr[0][l] = x | (d->tidig >= 1 ? y << 10 : 0) |
                       (d->tidig >= 2 ? z << 20 : 0);
    if (++x == sx) {
      x = 0;
      if (++y == sy) {
        y = 0;
        ++z;
      }
    }
  }
}

// Runs |wave| for at most *|left| wave-instructions: until it ends, reaches
// a barrier, faults or uses them up; *|left| is what remains.
static rl_status_t rl_isa_wave_run(rl_isa_wave_t* wave, uint64_t* left) {
  const rl_isa_inst_t* insts = wave->group->insts;
  const bool caches = wave->group->caches;
  uint64_t n = *left;
  while (wave->state == RL_ISA_WAVE_RUNNING && n > 0) {
    const rl_isa_inst_t* inst = &insts[wave->pc];
    // Instructions without effect (s_waitcnt, s_nop, ...): retired and
    // counted, as many as the budget allows, without dispatching them.
    if (inst->nops != 0) {
      uint32_t skip = inst->nops < n ? inst->nops : (uint32_t)n;
      wave->pc += skip;
      n -= skip;
      continue;
    }
    wave->pc++;
    --n;
    // rl_isa_step with the work-group's cache flag read once.
    rl_status_t status = caches && inst->stale != 0
                             ? rl_isa_stale_step(wave, inst)
                             : inst->exec(wave, inst);
    if (status != RL_OK) {
      *left = n;
      if (rl_status_code(status) == RL_STATUS_UNSUPPORTED) {  // names inst
        return rl_status_annotate(status, "wave %u", wave->id);
      }
      char where[160];
      rl_isa_inst_describe(inst, where, sizeof(where));
      return rl_status_annotate(status, "wave %u: %s", wave->id, where);
    }
  }
  *left = n;
  return RL_OK;
}

// One work-group in flight: its waves, where the round-robin stands and the
// wave-instructions it may still retire. run_workgroup steps a slice over
// the dispatch's own waves to its end in one call; the resumable interface
// (wg_open/wg_step/wg_close) gives every open work-group a slice of its own
// and steps it a quantum at a time, so the simulator can interleave the
// instructions of unordered dispatches (sim_schedule.c, adversarial mode).
typedef struct rl_isa_slice_s {
  rl_isa_dispatch_t* dispatch;
  rl_isa_group_t group;
  rl_isa_wave_t* waves;
  uint32_t (*vgprs)[RL_ISA_LANES];  // owned when the slice owns its waves
  uint8_t* privates;                // the same
  uint32_t wave_count;
  uint32_t current;  // the wave the round-robin is on
  uint64_t budget;   // wave-instructions left (RL_ISA_WORKGROUP_BUDGET)
} rl_isa_slice_t;

// Sets up |slice| for |wg| over |waves| (wave_count of them) and their
// VGPR rows; resolves the program on the dispatch's first work-group.
static rl_status_t rl_isa_slice_init(rl_isa_slice_t* slice,
                                     rl_isa_dispatch_t* d, rl_sim_wg_t* wg,
                                     rl_isa_wave_t* waves,
                                     uint32_t (*vgprs)[RL_ISA_LANES],
                                     uint8_t* privates) {
  RL_RETURN_IF_ERROR(rl_isa_resolve(d, wg));
  // Field by field, not one compound literal: that would also zero the
  // group's held-back stale reads (RL_SIM_DEFERRED_MAX records, 10.7 KB)
  // for every work-group, a memset that was 15% of the host instructions
  // of the decode bench (docs/BENCHMARKS.md). Only reads[0, count) are
  // ever read (sim_executor.h), so count = 0 is the whole reset. A field
  // added to the slice or the group must be set here.
  rl_isa_group_t* group = &slice->group;
  group->wg = wg;
  group->lds = rl_sim_wg_lds(wg);
  group->lds_size = d->lds_size;
  group->mode = d->mode;
  group->entry_address = d->program->base_address;
  group->insts = d->program->insts;
  group->program = d->program;
  group->caches = rl_sim_wg_cache_enabled(wg);
  group->stale.device = NULL;
  group->stale.owner = 0;
  group->stale.count = 0;
  group->gws = d->gws;
  slice->dispatch = d;
  slice->waves = waves;
  slice->vgprs = NULL;
  slice->privates = NULL;
  slice->wave_count = 0;
  slice->current = 0;
  slice->budget = RL_ISA_WORKGROUP_BUDGET;
  uint32_t items = wg->size[0] * wg->size[1] * wg->size[2];
  uint32_t count = (items + RL_ISA_LANES - 1) / RL_ISA_LANES;
  slice->wave_count = count > d->max_waves ? d->max_waves : count;
  for (uint32_t w = 0; w < slice->wave_count; ++w) {
    rl_isa_wave_init(d, &slice->group, waves, vgprs, privates, wg, w,
                     slice->wave_count, items);
  }
  return RL_OK;
}

// Round-robin, resumable: the current wave runs to its next barrier or its
// end, then the next one; after the last wave, when every wave still alive
// waits at the barrier they are all released. Runs at most |quantum|
// wave-instructions and sets *|out_done| when every wave has ended: in one
// call with an unbounded quantum this is the whole work-group, and any
// sequence of quanta retires the same instructions in the same order.
//
// A wave waiting at a grid barrier (RL_ISA_WAVE_GWS, isa_gws.c) runs again
// once its round completed; while one waits, the others' s_barrier is not
// released (it is behind them in program order), and a round in which no
// wave moved returns unfinished at once: the work-group is blocked
// (rl_isa_wg_blocked) until other work-groups arrive.
static rl_status_t rl_isa_slice_run(rl_isa_slice_t* slice, uint64_t quantum,
                                    bool* out_done) {
  *out_done = false;
  bool moved = false;  // some wave ran in this round
  while (quantum > 0) {
    rl_isa_wave_t* wave = &slice->waves[slice->current];
    if (wave->state == RL_ISA_WAVE_GWS && rl_isa_gws_released(wave)) {
      wave->state = RL_ISA_WAVE_RUNNING;
    }
    if (wave->state == RL_ISA_WAVE_RUNNING) {
      moved = true;
      uint64_t allowed = quantum < slice->budget ? quantum : slice->budget;
      uint64_t left = allowed;
      rl_status_t status = rl_isa_wave_run(wave, &left);
      uint64_t used = allowed - left;
      slice->budget -= used;
      quantum -= used;
      RL_RETURN_IF_ERROR(status);
      if (wave->state == RL_ISA_WAVE_RUNNING) {
        if (slice->budget > 0) return RL_OK;  // the quantum is used up
        return RL_STATUS(RL_STATUS_UNSUPPORTED,
                         "isa executor: work-group exceeded %llu "
                         "wave-instructions (wave %u at PC +0x%x): the kernel "
                         "does not seem to terminate",
                         (unsigned long long)RL_ISA_WORKGROUP_BUDGET, wave->id,
                         slice->group.insts[wave->pc].pc);
      }
    }
    if (++slice->current < slice->wave_count) continue;
    slice->current = 0;
    uint32_t ended = 0;
    for (uint32_t w = 0; w < slice->wave_count; ++w) {
      if (slice->waves[w].state == RL_ISA_WAVE_ENDED) ++ended;
    }
    if (ended == slice->wave_count) {
      *out_done = true;
      return RL_OK;
    }
    uint32_t waiting = 0;
    for (uint32_t w = 0; w < slice->wave_count; ++w) {
      waiting += slice->waves[w].state == RL_ISA_WAVE_GWS &&
                 !rl_isa_gws_released(&slice->waves[w]);
    }
    if (waiting > 0) {
      if (!moved) return RL_OK;  // blocked at the grid barrier
      moved = false;
      continue;
    }
    for (uint32_t w = 0; w < slice->wave_count; ++w) {
      if (slice->waves[w].state == RL_ISA_WAVE_BARRIER) {
        slice->waves[w].state = RL_ISA_WAVE_RUNNING;
      }
    }
    moved = false;
  }
  return RL_OK;
}

// The wave of |slice| that waits at a grid barrier whose round has not
// completed while no wave can run, or NULL (isa_gws.c).
static const rl_isa_wave_t* rl_isa_slice_waiter(const rl_isa_slice_t* slice) {
  const rl_isa_wave_t* waiter = NULL;
  for (uint32_t w = 0; w < slice->wave_count; ++w) {
    const rl_isa_wave_t* wave = &slice->waves[w];
    if (wave->state == RL_ISA_WAVE_RUNNING) return NULL;
    if (wave->state == RL_ISA_WAVE_GWS) {
      if (rl_isa_gws_released(wave)) return NULL;
      if (waiter == NULL) waiter = wave;
    }
  }
  return waiter;
}

static bool rl_isa_wg_blocked(void* self, void* wg_state, char* why,
                              size_t why_size) {
  (void)self;
  const rl_isa_wave_t* waiter = rl_isa_slice_waiter(wg_state);
  if (waiter != NULL && why_size > 0) {
    rl_isa_gws_describe(waiter, why, why_size);
  }
  return waiter != NULL;
}

// rl_isa_slice_run in parts of at most RL_SIM_WG_STOP_POLL
// wave-instructions, polling the queue's stop flag between them (the
// parts retire what one call would: slice_run resumes where it stopped),
// and counting the retired wave-instructions once per part. A slice whose
// queue is stopping ends unfinished with rl_sim_wg_stopped().
static rl_status_t rl_isa_slice_step(rl_isa_slice_t* slice, uint64_t quantum,
                                     bool* out_done) {
  for (;;) {
    uint64_t part =
        quantum < RL_SIM_WG_STOP_POLL ? quantum : RL_SIM_WG_STOP_POLL;
    uint64_t before = slice->budget;
    rl_status_t status = rl_isa_slice_run(slice, part, out_done);
    atomic_fetch_add_explicit(&rl_isa_retired, before - slice->budget,
                              memory_order_relaxed);
    // Not done and no fault: slice_run used the whole part, or the
    // work-group is blocked at a grid barrier (nothing more to do now).
    quantum -= part;
    if (status != RL_OK || *out_done || quantum == 0) return status;
    if (rl_isa_slice_waiter(slice) != NULL) return RL_OK;
    if (rl_sim_wg_stopping(slice->group.wg)) {
      return rl_sim_wg_stopped(slice->group.wg);
    }
  }
}

static rl_status_t rl_isa_run_workgroup(void* self, void* state,
                                        rl_sim_wg_t* wg) {
  (void)self;
  rl_isa_dispatch_t* d = state;
  rl_isa_slice_t slice;
  RL_RETURN_IF_ERROR(
      rl_isa_slice_init(&slice, d, wg, d->waves, d->vgprs, d->privates));
  bool done = false;
  RL_RETURN_IF_ERROR(rl_isa_slice_step(&slice, UINT64_MAX, &done));
  const rl_isa_wave_t* waiter = done ? NULL : rl_isa_slice_waiter(&slice);
  if (waiter == NULL) return RL_OK;  // ended, or stopped (stop poll)
  char why[160];
  rl_isa_gws_describe(waiter, why, sizeof(why));
  return RL_STATUS(RL_STATUS_UNSUPPORTED,
                   "isa executor: %s, in a work-group run whole: the grid "
                   "barrier can never complete",
                   why);
}

// The waves, VGPR rows and private segments of worker |worker|, made on
// its first call; NULL when out of memory.
static rl_isa_worker_t* rl_isa_worker(rl_isa_dispatch_t* d, uint32_t worker) {
  if (d->workers[worker] != NULL) return d->workers[worker];
  uint32_t waves = d->max_waves ? d->max_waves : 1;
  rl_isa_worker_t* w = calloc(1, sizeof(*w));
  if (w == NULL) return NULL;
  w->waves = calloc(waves, sizeof(rl_isa_wave_t));
  w->vgprs = calloc((size_t)waves * RL_ISA_VGPR_ROWS,
                    sizeof(uint32_t) * RL_ISA_LANES);
  w->privates = d->private_size ? rl_isa_privates_alloc(d) : NULL;
  if (w->waves == NULL || w->vgprs == NULL ||
      (d->private_size != 0 && w->privates == NULL)) {
    free(w->waves);
    free(w->vgprs);
    free(w->privates);
    free(w);
    return NULL;
  }
  d->workers[worker] = w;
  return w;
}

static rl_status_t rl_isa_run_workgroup_on(void* self, void* state,
                                           rl_sim_wg_t* wg, uint32_t worker) {
  rl_isa_dispatch_t* d = state;
  if (worker == 0) return rl_isa_run_workgroup(self, state, wg);
  rl_isa_worker_t* w = worker < RL_SIM_THREADS_MAX ? rl_isa_worker(d, worker)
                                                   : NULL;
  if (w == NULL) return rl_status_out_of_memory();
  rl_isa_slice_t slice;
  RL_RETURN_IF_ERROR(
      rl_isa_slice_init(&slice, d, wg, w->waves, w->vgprs, w->privates));
  bool done = false;
  return rl_isa_slice_step(&slice, UINT64_MAX, &done);
}

// True when no FLAT/GLOBAL atomic of the program makes memory depend on
// the order work-groups run in: every one is an integer add, sub, min, max,
// and, or or xor without return (commutative and associative, its old value
// never seen). A returned old value, a swap, compare-and-swap, float add or
// inc/dec wrap does depend on it (docs/cache-model.md, "Work-groups in
// parallel").
static bool rl_isa_concurrent(void* self, void* state) {
  (void)self;
  const rl_isa_dispatch_t* d = state;
  if (d->program == NULL) return false;
  for (uint32_t i = 0; i < d->program->count; ++i) {
    const rl_isa_inst_t* inst = &d->program->insts[i];
    if (inst->op == NULL || (inst->encoding != RL_ISA_ENC_FLAT &&
                             inst->encoding != RL_ISA_ENC_GLOBAL)) {
      continue;
    }
    const uint32_t arg = inst->op->arg;
    if (RL_ISA_MEM_KIND(arg) != RL_ISA_MEM_ATOM) continue;
    if (inst->glc_slc_dlc & RL_ISA_MEM_GLC) return false;
    switch (RL_ISA_MEM_ATOMIC(arg)) {
      case RL_ISA_ATOM_ADD: case RL_ISA_ATOM_SUB:
      case RL_ISA_ATOM_MIN_I: case RL_ISA_ATOM_MAX_I:
      case RL_ISA_ATOM_MIN_U: case RL_ISA_ATOM_MAX_U:
      case RL_ISA_ATOM_AND: case RL_ISA_ATOM_OR: case RL_ISA_ATOM_XOR:
        break;
      default:
        return false;
    }
  }
  return true;
}

static void rl_isa_wg_close(void* self, void* wg_state) {
  (void)self;
  rl_isa_slice_t* slice = wg_state;
  if (slice == NULL) return;
  free(slice->waves);
  free(slice->vgprs);
  free(slice->privates);
  free(slice);
}

static rl_status_t rl_isa_wg_open(void* self, void* state, rl_sim_wg_t* wg,
                                  void** out_wg_state) {
  (void)self;
  rl_isa_dispatch_t* d = state;
  *out_wg_state = NULL;
  rl_isa_slice_t* slice = malloc(sizeof(*slice));  // slice_init sets it
  uint32_t waves = d->max_waves ? d->max_waves : 1;
  rl_isa_wave_t* wave_storage = calloc(waves, sizeof(rl_isa_wave_t));
  uint32_t(*vgprs)[RL_ISA_LANES] =
      calloc((size_t)waves * RL_ISA_VGPR_ROWS, sizeof(uint32_t) * RL_ISA_LANES);
  uint8_t* privates = d->private_size ? rl_isa_privates_alloc(d) : NULL;
  if (slice == NULL || wave_storage == NULL || vgprs == NULL ||
      (d->private_size != 0 && privates == NULL)) {
    free(slice);
    free(wave_storage);
    free(vgprs);
    free(privates);
    return rl_status_out_of_memory();
  }
  rl_status_t status =
      rl_isa_slice_init(slice, d, wg, wave_storage, vgprs, privates);
  slice->waves = wave_storage;
  slice->vgprs = vgprs;
  slice->privates = privates;
  if (status != RL_OK) {
    rl_isa_wg_close(self, slice);
    return status;
  }
  *out_wg_state = slice;
  return RL_OK;
}

static rl_status_t rl_isa_wg_step(void* self, void* wg_state, uint64_t quantum,
                                  bool* out_done) {
  (void)self;
  return rl_isa_slice_step(wg_state, quantum, out_done);
}

static rl_status_t rl_isa_check(void* self, const char* processor,
                                const void* image, uint64_t image_size,
                                const rl_code_object_kernel_t* kernel) {
  (void)self;
  return rl_isa_check_kernel(processor, image, image_size, kernel);
}

static uint64_t rl_isa_executor_count(void* self) {
  (void)self;
  return rl_isa_executor_instructions();
}

static const rl_sim_executor_t rl_isa_executor_object = {
    .name = "isa",
    .self = NULL,
    .check_kernel = rl_isa_check,
    .begin = rl_isa_begin,
    .run_workgroup = rl_isa_run_workgroup,
    .end = rl_isa_end,
    .wg_open = rl_isa_wg_open,
    .wg_step = rl_isa_wg_step,
    .wg_close = rl_isa_wg_close,
    .wg_blocked = rl_isa_wg_blocked,
    .instructions = rl_isa_executor_count,
    .run_workgroup_on = rl_isa_run_workgroup_on,
    .concurrent = rl_isa_concurrent,
};

const rl_sim_executor_t* rl_isa_executor(void) {
  return &rl_isa_executor_object;
}

uint64_t rl_isa_executor_instructions(void) {
  return atomic_load_explicit(&rl_isa_retired, memory_order_relaxed);
}

uint64_t rl_isa_executor_programs_built(void) {
  return rl_isa_program_builds();
}

void rl_isa_executor_clear_cache(void) { rl_isa_program_cache_clear(); }
