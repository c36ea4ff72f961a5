// sim/cp/sim_pm4_dispatch.c — a PM4 DISPATCH_DIRECT as the hardware
// sees it: the kernel launch the queue's SH register file describes.
//
// Rules, in the order checked (pm4_reference.md §2, §3.3, §3.4; register
// fields come from the family tables, pm4/pm4_family.h). A register the
// dispatch needs that was never written on the queue is a fault: its value
// would be whatever the firmware left.
//   - program: entry = (COMPUTE_PGM_HI << 40) | (COMPUTE_PGM_LO << 8), PGM_HI
//     only bits 7:0, and the entry must be the first instruction of a
//     loaded kernel ("no kernel at program address 0x...");
//   - COMPUTE_PGM_RSRC1/2/3 equal the kernel descriptor's values except the
//     fields the CP owns (AMDGPUUsage rsrc tables: "CP sets"): RSRC1
//     PRIORITY, PRIV, DEBUG_MODE, BULKY, CDBG_USER; RSRC2 TRAP_PRESENT,
//     EXCP_EN_MSB, LDS_SIZE; RSRC3 TRAP_ON_START/END (those that exist in
//     the family's table). On families with rsrc1_priv_for_pm4 (gfx11) PRIV
//     must be set. The group segment is RSRC2.LDS_SIZE * 512 bytes and must
//     cover the kernel's static LDS;
//   - scratch: when RSRC2.SCRATCH_EN is set, COMPUTE_TMPRING_SIZE must give
//     a non-empty ring (WAVES, WAVESIZE in 256-byte units) whose slots give
//     every lane at least the kernel's fixed private size, and
//     DISPATCH_SCRATCH_BASE_LO/HI (address >> 8, >> 40) must place WAVES x
//     engines x WAVESIZE bytes inside one live allocation; the lane's share
//     is the launch's private segment (without SCRATCH_EN: none);
//   - DISPATCH_INITIATOR: COMPUTE_SHADER_EN set; USE_THREAD_DIMENSIONS and
//     PARTIAL_TG_EN clear (unsupported); CS_W32_EN equal to the
//     descriptor's ENABLE_WAVEFRONT_SIZE32;
//   - COMPUTE_START_X..Z are 0; COMPUTE_NUM_THREAD_X..Z.NUM_THREAD_FULL is
//     the work-group size (nonzero; no other bits but gfx12's
//     INTERLEAVE_BITS); the DISPATCH_DIRECT dims are work-group counts
//     (nonzero) and grid = counts * work-group size;
//   - user SGPRs in AMDGPUUsage order from COMPUTE_USER_DATA_0: dispatch
//     ptr (2), queue ptr (unsupported), kernarg segment ptr (2), dispatch
//     id (2), private segment size (1); private segment buffer, flat
//     scratch init and preloaded kernargs are unsupported. RSRC2.USER_SGPR
//     must cover them. The dispatch ptr must point at a 64-byte image that
//     decodes as an AQL kernel-dispatch packet whose work-group size, grid
//     size and kernarg address agree with the registers.
#include <inttypes.h>
#include <string.h>

#include "base/hw/hw_fields.h"
#include "sim/cp/sim_cp.h"

// COMPUTE_TMPRING_SIZE.WAVESIZE unit on gfx11 and gfx12 (bytes).
#define RL_SIM_PM4_SCRATCH_UNIT 256u


bool rl_sim_pm4_reg_written(const rl_sim_pm4_state_t* state, uint32_t index) {
  uint32_t i = index - RL_PM4_SH_REG_BASE;
  return (state->written[i / 64] >> (i % 64)) & 1u;
}

static uint32_t rl_sim_pm4_reg(const rl_sim_pm4_state_t* state,
                               uint32_t index) {
  return state->regs[index - RL_PM4_SH_REG_BASE];
}

static const char* rl_sim_pm4_reg_name(const rl_sim_pm4_state_t* state,
                                       uint32_t index) {
  const rl_pm4_register_t* reg = rl_pm4_family_register(state->family, index);
  return reg ? reg->name : "SH register";
}

// Field |id| (pm4_family.h) of a register holding |value|.
static uint32_t rl_sim_pm4_field(const rl_sim_pm4_state_t* state,
                                 rl_pm4_field_id_t id, uint32_t value) {
  return rl_pm4_field_get(state->family, id, value);
}

// Fails unless registers [index, index + count) were all written.
static rl_status_t rl_sim_pm4_require(const rl_sim_pm4_state_t* state,
                                      uint32_t index, uint32_t count,
                                      const char* why) {
  for (uint32_t i = index; i < index + count; ++i) {
    if (rl_sim_pm4_reg_written(state, i)) continue;
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "%s (0x%04x) was never written on this queue (%s)",
                     rl_sim_pm4_reg_name(state, i), i, why);
  }
  return RL_OK;
}

static rl_status_t rl_sim_pm4_dispatch_program(
    rl_sim_pm4_exec_t* exec, rl_sim_loaded_kernel_t* out_kernel) {
  const rl_sim_pm4_state_t* state = exec->state;
  uint32_t lo = state->family->regs.pgm_lo;
  RL_RETURN_IF_ERROR(rl_sim_pm4_require(state, lo, 2, "no program"));
  uint32_t hi = rl_sim_pm4_reg(state, lo + 1);
  uint64_t entry = ((uint64_t)(hi & 0xFFu) << 40) |
                   ((uint64_t)rl_sim_pm4_reg(state, lo) << 8);
  exec->fault_address = entry;
  if (hi > 0xFFu) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "COMPUTE_PGM_HI is 0x%08x: only bits 7:0 (address bits "
                     "47:40) exist",
                     hi);
  }
  if (!rl_sim_loader_find_entry(&exec->queue->device->loader, entry,
                                out_kernel)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "no kernel at program address 0x%" PRIx64
                     " (COMPUTE_PGM_LO/HI)",
                     entry);
  }
  exec->fault_address = 0;
  return RL_OK;
}

// Compares one RSRC register with the descriptor outside the CP's fields.
static rl_status_t rl_sim_pm4_rsrc_match(const rl_sim_pm4_state_t* state,
                                         uint32_t index, uint32_t expected,
                                         uint32_t cp_mask,
                                         const rl_code_object_kernel_t* k) {
  uint32_t value = rl_sim_pm4_reg(state, index);
  uint32_t differ = (value ^ expected) & ~cp_mask;
  if (differ == 0) return RL_OK;
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "%s is 0x%08x but kernel %s's descriptor has 0x%08x "
                   "(bits 0x%08x differ outside the fields the CP owns)",
                   rl_sim_pm4_reg_name(state, index), value, k->name, expected,
                   differ);
}

// COMPUTE_TMPRING_SIZE and DISPATCH_SCRATCH_BASE_LO/HI (architected flat
// scratch, docs/pm4-scratch.md): every wave of a kernel with SCRATCH_EN
// gets a WAVESIZE * 256-byte slot of the ring at base << 8, its lanes an
// equal share. The share becomes the launch's private_segment_size, which
// the executor provides exactly as for an AQL packet's (one code path);
// sim_wg.c then refuses a share below the kernel's fixed size.
static rl_status_t rl_sim_pm4_dispatch_scratch(rl_sim_pm4_exec_t* exec,
                                               const rl_code_object_kernel_t* k,
                                               rl_sim_launch_t* launch) {
  const rl_sim_pm4_state_t* state = exec->state;
  const rl_pm4_compute_regs_t* regs = &state->family->regs;
  RL_RETURN_IF_ERROR(
      rl_sim_pm4_require(state, regs->tmpring_size, 1, "scratch state"));
  const uint32_t tmpring = rl_sim_pm4_reg(state, regs->tmpring_size);
  const uint32_t rsrc2 = rl_sim_pm4_reg(state, regs->pgm_rsrc1 + 1);
  launch->private_segment_size = 0;
  if (!rl_sim_pm4_field(state, RL_PM4_FIELD_RSRC2_SCRATCH_EN, rsrc2)) {
    return RL_OK;  // the wave gets no slot; sim_wg.c refuses a kernel
                   // that needs one anyway
  }
  const uint64_t wave_bytes =
      (uint64_t)rl_sim_pm4_field(state, RL_PM4_FIELD_TMPRING_WAVESIZE,
                                 tmpring) *
      RL_SIM_PM4_SCRATCH_UNIT;
  const uint32_t waves =
      rl_sim_pm4_field(state, RL_PM4_FIELD_TMPRING_WAVES, tmpring);
  const uint32_t lanes = k->descriptor_info.enable_wavefront_size32 ? 32 : 64;
  if (wave_bytes == 0 || waves == 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %s has COMPUTE_PGM_RSRC2.SCRATCH_EN but "
                     "COMPUTE_TMPRING_SIZE is 0x%08x (WAVES %u, WAVESIZE "
                     "%llu bytes): no scratch ring",
                     k->name, tmpring, waves,
                     (unsigned long long)wave_bytes);
  }
  const uint32_t base_lo = regs->dispatch_scratch_base_lo;
  RL_RETURN_IF_ERROR(rl_sim_pm4_require(state, base_lo, 2, "scratch base"));
  const uint32_t hi = rl_sim_pm4_reg(state, base_lo + 1);
  const uint64_t base = ((uint64_t)(hi & 0xFFu) << 40) |
                        ((uint64_t)rl_sim_pm4_reg(state, base_lo) << 8);
  // WAVES slots per shader engine; the simulated device has the family's
  // full count (one STATIC_THREAD_MGMT register each).
  const uint64_t ring =
      (uint64_t)waves * state->family->regs.static_thread_mgmt_count *
      wave_bytes;
  if (hi > 0xFFu ||
      rl_sim_memory_translate(&exec->queue->device->memory, base, ring) ==
          NULL) {
    exec->fault_address = base;
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %s: the scratch ring at 0x%" PRIx64
                     " (DISPATCH_SCRATCH_BASE_LO/HI 0x%08x 0x%08x), %" PRIu64
                     " bytes (%u waves x %u engines x %" PRIu64
                     "), is not inside one live allocation",
                     k->name, base, rl_sim_pm4_reg(state, base_lo), hi, ring,
                     waves, state->family->regs.static_thread_mgmt_count,
                     wave_bytes);
  }
  const uint64_t share = wave_bytes / lanes;
  if (share < k->private_segment_size) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %s needs %u private bytes per work-item but "
                     "COMPUTE_TMPRING_SIZE.WAVESIZE gives a wave%u %" PRIu64
                     " bytes (%" PRIu64 " per lane)",
                     k->name, k->private_segment_size, lanes, wave_bytes,
                     share);
  }
  launch->private_segment_size = (uint32_t)share;
  return RL_OK;
}

static rl_status_t rl_sim_pm4_dispatch_rsrc(rl_sim_pm4_exec_t* exec,
                                            const rl_code_object_kernel_t* k,
                                            rl_sim_launch_t* launch) {
  const rl_sim_pm4_state_t* state = exec->state;
  const rl_pm4_compute_regs_t* regs = &state->family->regs;
  RL_RETURN_IF_ERROR(rl_sim_pm4_require(state, regs->pgm_rsrc1, 2, "RSRC"));
  RL_RETURN_IF_ERROR(rl_sim_pm4_require(state, regs->pgm_rsrc3, 1, "RSRC"));
  RL_RETURN_IF_ERROR(rl_sim_pm4_rsrc_match(state, regs->pgm_rsrc1,
                                           k->descriptor.compute_pgm_rsrc1,
                                           state->rsrc1_cp_mask, k));
  RL_RETURN_IF_ERROR(rl_sim_pm4_rsrc_match(state, regs->pgm_rsrc1 + 1,
                                           k->descriptor.compute_pgm_rsrc2,
                                           state->rsrc2_cp_mask, k));
  RL_RETURN_IF_ERROR(rl_sim_pm4_rsrc_match(state, regs->pgm_rsrc3,
                                           k->descriptor.compute_pgm_rsrc3,
                                           state->rsrc3_cp_mask, k));
  uint32_t rsrc1 = rl_sim_pm4_reg(state, regs->pgm_rsrc1);
  if (state->family->rsrc1_priv_for_pm4 &&
      !rl_sim_pm4_field(state, RL_PM4_FIELD_RSRC1_PRIV, rsrc1)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "%s PM4 dispatch needs COMPUTE_PGM_RSRC1.PRIV (0x%08x "
                     "has it clear; the CWSR workaround of kfdtest, radeonsi "
                     "and tinygrad)",
                     state->family->name, rsrc1);
  }
  uint32_t rsrc2 = rl_sim_pm4_reg(state, regs->pgm_rsrc1 + 1);
  uint32_t granules =
      rl_sim_pm4_field(state, RL_PM4_FIELD_RSRC2_LDS_SIZE, rsrc2);
  launch->group_segment_size = granules * RL_HW_LDS_GRANULE_BYTES;
  if (launch->group_segment_size < k->group_segment_size) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "COMPUTE_PGM_RSRC2.LDS_SIZE is %u (%u bytes), less than "
                     "kernel %s's static LDS of %u bytes",
                     granules, launch->group_segment_size, k->name,
                     k->group_segment_size);
  }
  return rl_sim_pm4_dispatch_scratch(exec, k, launch);
}

static rl_status_t rl_sim_pm4_dispatch_initiator(
    const rl_sim_pm4_state_t* state, const rl_code_object_kernel_t* k,
    uint32_t initiator) {
  if (!rl_sim_pm4_field(state, RL_PM4_FIELD_INITIATOR_COMPUTE_SHADER_EN,
                        initiator)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "DISPATCH_INITIATOR 0x%08x has COMPUTE_SHADER_EN clear",
                     initiator);
  }
  if (rl_sim_pm4_field(state, RL_PM4_FIELD_INITIATOR_USE_THREAD_DIMENSIONS,
                       initiator) ||
      rl_sim_pm4_field(state, RL_PM4_FIELD_INITIATOR_PARTIAL_TG_EN,
                       initiator)) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "DISPATCH_INITIATOR 0x%08x: USE_THREAD_DIMENSIONS and "
                     "PARTIAL_TG_EN are not supported (dims are work-group "
                     "counts)",
                     initiator);
  }
  bool w32 =
      rl_sim_pm4_field(state, RL_PM4_FIELD_INITIATOR_CS_W32_EN, initiator) != 0;
  if (w32 != k->descriptor_info.enable_wavefront_size32) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "DISPATCH_INITIATOR 0x%08x has CS_W32_EN=%d but kernel "
                     "%s is compiled for wave%d",
                     initiator, w32 ? 1 : 0, k->name,
                     k->descriptor_info.enable_wavefront_size32 ? 32 : 64);
  }
  return RL_OK;
}

// NUM_THREAD_FULL of axis |axis|; other bits (but interleave) must be 0.
static rl_status_t rl_sim_pm4_num_thread(const rl_sim_pm4_state_t* state,
                                         uint32_t axis, uint32_t* out_size) {
  static const rl_pm4_field_id_t full[3] = {RL_PM4_FIELD_NUM_THREAD_X_FULL,
                                            RL_PM4_FIELD_NUM_THREAD_Y_FULL,
                                            RL_PM4_FIELD_NUM_THREAD_Z_FULL};
  uint32_t index = state->family->regs.num_thread_x + axis;
  uint32_t value = rl_sim_pm4_reg(state, index);
  const rl_pm4_field_t* fields = state->family->field;
  uint32_t allowed = rl_pm4_field_mask(fields[full[axis]]);
  // Interleave bits exist on gfx12 X and Y (width 0, no bits, elsewhere).
  if (axis == 0) {
    allowed |= rl_pm4_field_mask(fields[RL_PM4_FIELD_NUM_THREAD_X_INTERLEAVE]);
  } else if (axis == 1) {
    allowed |= rl_pm4_field_mask(fields[RL_PM4_FIELD_NUM_THREAD_Y_INTERLEAVE]);
  }
  *out_size = rl_sim_pm4_field(state, full[axis], value);
  if (*out_size == 0 || (value & ~allowed) != 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "%s is 0x%08x: expected a nonzero NUM_THREAD_FULL and "
                     "no NUM_THREAD_PARTIAL",
                     rl_sim_pm4_reg_name(state, index), value);
  }
  return RL_OK;
}

static rl_status_t rl_sim_pm4_dispatch_geometry(const rl_sim_pm4_state_t* state,
                                                const uint32_t dims[3],
                                                rl_sim_launch_t* launch) {
  const rl_pm4_compute_regs_t* regs = &state->family->regs;
  RL_RETURN_IF_ERROR(rl_sim_pm4_require(state, regs->start_x, 3, "start"));
  RL_RETURN_IF_ERROR(
      rl_sim_pm4_require(state, regs->num_thread_x, 3, "work-group size"));
  launch->dimensions = 1;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    uint32_t start = rl_sim_pm4_reg(state, regs->start_x + axis);
    if (start != 0) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "%s is %u: dispatches must start at work-group 0",
                       rl_sim_pm4_reg_name(state, regs->start_x + axis), start);
    }
    uint32_t size = 0;
    RL_RETURN_IF_ERROR(rl_sim_pm4_num_thread(state, axis, &size));
    uint64_t grid = (uint64_t)dims[axis] * size;
    if (dims[axis] == 0 || grid > UINT32_MAX) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "DISPATCH_DIRECT dim %c is %u work-groups of %u: "
                       "expected 1.. and a grid below 2^32 work-items",
                       "XYZ"[axis], dims[axis], size);
    }
    launch->workgroup_size[axis] = size;
    launch->grid_size[axis] = (uint32_t)grid;
    if (grid > 1) launch->dimensions = axis + 1;
  }
  return RL_OK;
}

// The user SGPR slots of |k| (AMDGPUUsage order); -1 when not enabled.
typedef struct rl_sim_pm4_user_s {
  int dispatch_ptr;
  int kernarg_ptr;
  uint32_t count;
} rl_sim_pm4_user_t;

static rl_status_t rl_sim_pm4_user_layout(const rl_code_object_kernel_t* k,
                                          rl_sim_pm4_user_t* out_user) {
  const rl_kernel_descriptor_info_t* d = &k->descriptor_info;
  *out_user = (rl_sim_pm4_user_t){-1, -1, 0};
  const char* unsupported =
      d->enable_sgpr_private_segment_buffer ? "private segment buffer"
      : d->enable_sgpr_queue_ptr            ? "queue ptr"
      : d->enable_sgpr_flat_scratch_init    ? "flat scratch init"
      : d->kernarg_preload_spec_length      ? "preloaded kernargs"
                                            : NULL;
  if (unsupported != NULL) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "kernel %s enables the %s user SGPRs, which the "
                     "simulated PM4 dispatch does not provide",
                     k->name, unsupported);
  }
  if (d->enable_sgpr_dispatch_ptr) {
    out_user->dispatch_ptr = (int)out_user->count;
    out_user->count += 2;
  }
  if (d->enable_sgpr_kernarg_segment_ptr) {
    out_user->kernarg_ptr = (int)out_user->count;
    out_user->count += 2;
  }
  if (d->enable_sgpr_dispatch_id) out_user->count += 2;
  if (d->enable_sgpr_private_segment_size) out_user->count += 1;
  return RL_OK;
}

static uint64_t rl_sim_pm4_user_pointer(const rl_sim_pm4_state_t* state,
                                        int slot) {
  uint32_t index = state->family->regs.user_data_0 + (uint32_t)slot;
  return (uint64_t)rl_sim_pm4_reg(state, index) |
         ((uint64_t)rl_sim_pm4_reg(state, index + 1) << 32);
}

// Checks the dispatch-packet image at |address| against |launch|.
static rl_status_t rl_sim_pm4_dispatch_image(rl_sim_pm4_exec_t* exec,
                                             uint64_t address,
                                             rl_sim_launch_t* launch) {
  uint8_t bytes[RL_AQL_PACKET_SIZE];
  exec->fault_address = address;
  if (!rl_sim_memory_copy_out(&exec->queue->device->memory, address, bytes,
                              sizeof(bytes))) {
    return RL_STATUS(RL_STATUS_POISONED,
                     "VM fault: dispatch ptr 0x%" PRIx64
                     " is not a 64-byte image in live memory",
                     address);
  }
  rl_aql_decoded_t image;
  if (rl_aql_packet_decode(bytes, &image) != RL_AQL_OK ||
      image.type != RL_AQL_PACKET_TYPE_KERNEL_DISPATCH) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "dispatch ptr 0x%" PRIx64
                     " is not a kernel-dispatch packet image: %s",
                     address, image.reason[0] ? image.reason : "wrong type");
  }
  bool agree = image.kernarg_address == launch->kernarg_address;
  for (int axis = 0; axis < 3; ++axis) {
    agree = agree &&
            image.workgroup_size[axis] == launch->workgroup_size[axis] &&
            image.grid_size[axis] == launch->grid_size[axis];
  }
  if (!agree) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "dispatch ptr image at 0x%" PRIx64
                     " says work-group %ux%ux%u, grid %ux%ux%u, kernarg "
                     "0x%" PRIx64
                     "; the registers say %ux%ux%u, %ux%ux%u, "
                     "0x%" PRIx64,
                     address, image.workgroup_size[0], image.workgroup_size[1],
                     image.workgroup_size[2], image.grid_size[0],
                     image.grid_size[1], image.grid_size[2],
                     image.kernarg_address, launch->workgroup_size[0],
                     launch->workgroup_size[1], launch->workgroup_size[2],
                     launch->grid_size[0], launch->grid_size[1],
                     launch->grid_size[2], launch->kernarg_address);
  }
  exec->fault_address = 0;
  launch->packet_address = address;
  launch->dimensions = image.dimensions;
  return RL_OK;
}

static rl_status_t rl_sim_pm4_dispatch_user_data(
    rl_sim_pm4_exec_t* exec, const rl_code_object_kernel_t* k,
    rl_sim_launch_t* launch) {
  const rl_sim_pm4_state_t* state = exec->state;
  rl_sim_pm4_user_t user;
  RL_RETURN_IF_ERROR(rl_sim_pm4_user_layout(k, &user));
  uint32_t rsrc2_index = state->family->regs.pgm_rsrc1 + 1;
  uint32_t sgprs = rl_sim_pm4_field(state, RL_PM4_FIELD_RSRC2_USER_SGPR,
                                    rl_sim_pm4_reg(state, rsrc2_index));
  if (sgprs < user.count || user.count > state->family->user_data_count) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "COMPUTE_PGM_RSRC2.USER_SGPR is %u but kernel %s needs "
                     "%u user SGPRs",
                     sgprs, k->name, user.count);
  }
  RL_RETURN_IF_ERROR(rl_sim_pm4_require(state, state->family->regs.user_data_0,
                                        user.count, "user SGPRs"));
  // What the CP loads into s0..: USER_SGPR registers from USER_DATA_0 (a
  // register beyond the ones the kernel needs may be unwritten: its value
  // is unknown and unused).
  launch->user_sgpr_count = sgprs < state->family->user_data_count
                                ? sgprs
                                : state->family->user_data_count;
  launch->user_sgprs =
      &state->regs[state->family->regs.user_data_0 - RL_PM4_SH_REG_BASE];
  if (user.kernarg_ptr >= 0) {
    launch->kernarg_address = rl_sim_pm4_user_pointer(state, user.kernarg_ptr);
  }
  if (user.dispatch_ptr < 0) return RL_OK;
  return rl_sim_pm4_dispatch_image(
      exec, rl_sim_pm4_user_pointer(state, user.dispatch_ptr), launch);
}

rl_status_t rl_sim_pm4_dispatch_launch(rl_sim_pm4_exec_t* exec,
                                       const uint32_t dims[3],
                                       uint32_t initiator,
                                       rl_sim_launch_t* out_launch) {
  memset(out_launch, 0, sizeof(*out_launch));
  out_launch->packet_id = exec->packet_id;
  RL_RETURN_IF_ERROR(rl_sim_pm4_dispatch_program(exec, &out_launch->kernel));
  const rl_code_object_kernel_t* k = out_launch->kernel.kernel;
  RL_RETURN_IF_ERROR(rl_sim_pm4_dispatch_rsrc(exec, k, out_launch));
  RL_RETURN_IF_ERROR(rl_sim_pm4_dispatch_initiator(exec->state, k, initiator));
  RL_RETURN_IF_ERROR(
      rl_sim_pm4_dispatch_geometry(exec->state, dims, out_launch));
  return rl_sim_pm4_dispatch_user_data(exec, k, out_launch);
}
