// The layout of a PM4 lowering (pm4/pm4_lower_internal.h): validation of
// the inputs, the register fields of the family, each kernel's user SGPR
// layout, the kernarg segment, and the register state of one dispatch.
// Sources: AMDGPUUsage "SGPR Register Set Up Order" and the kernel
// descriptor tables; pm4_reference.md §2.1, §3.3, §3.4.
#include <stdlib.h>
#include <string.h>

#include "aql/aql_kernarg.h"
#include "capture/bind/launch_bind.h"
#include "pm4/pm4_lower_internal.h"

// The CP reads COMPUTE_PGM_LO/HI as address bits 39:8 and 47:40: code is
// 256-byte aligned inside the 48-bit GPU virtual address space.
#define RL_PM4_ENTRY_ALIGN 256u
#define RL_PM4_ADDRESS_LIMIT (1ull << 48)
// Kernarg slices start at 16 bytes at least (the AQL route's rule) and
// dispatch-packet images at 64 (the size and alignment of an AQL packet).
#define RL_PM4_KERNARG_ALIGN_MIN 16u
#define RL_PM4_IMAGE_ALIGN 64u

static const char* rl_pm4_kernel_name(const rl_capture_t* capture,
                                      uint32_t launch) {
  return capture->kernels[capture->launches[launch].kernel].name;
}

//===----------------------------------------------------------------------===//
// Register fields
//===----------------------------------------------------------------------===//

// The initiator bits lowering sets (pm4_lower.h: CS_EN |
// FORCE_START_AT_000 | ORDER_MODE, and CS_W32_EN per kernel), and the
// fields it writes, by compile-time id from the family's table.
static void rl_pm4_encoding_init(const rl_pm4_family_t* family,
                                 rl_pm4_encoding_t* out_encoding) {
  memset(out_encoding, 0, sizeof(*out_encoding));
  out_encoding->priv = family->field[RL_PM4_FIELD_RSRC1_PRIV];
  out_encoding->lds_size = family->field[RL_PM4_FIELD_RSRC2_LDS_SIZE];
  out_encoding->num_thread[0] = family->field[RL_PM4_FIELD_NUM_THREAD_X_FULL];
  out_encoding->num_thread[1] = family->field[RL_PM4_FIELD_NUM_THREAD_Y_FULL];
  out_encoding->num_thread[2] = family->field[RL_PM4_FIELD_NUM_THREAD_Z_FULL];
  out_encoding->initiator =
      rl_pm4_field_put(family, RL_PM4_FIELD_INITIATOR_COMPUTE_SHADER_EN, 1) |
      rl_pm4_field_put(family, RL_PM4_FIELD_INITIATOR_FORCE_START_AT_000, 1) |
      rl_pm4_field_put(family, RL_PM4_FIELD_INITIATOR_ORDER_MODE, 1);
  out_encoding->initiator_w32 =
      rl_pm4_field_put(family, RL_PM4_FIELD_INITIATOR_CS_W32_EN, 1);
}

//===----------------------------------------------------------------------===//
// User SGPRs and kernels
//===----------------------------------------------------------------------===//

static rl_status_t rl_pm4_user_data_refuse(const rl_capture_kernel_t* kernel,
                                           const char* property,
                                           const char* what) {
  return RL_STATUS(RL_STATUS_UNSUPPORTED,
                   "kernel %s: code property %s (%s) needs a user SGPR the "
                   "pm4 route cannot provide",
                   kernel->name, property, what);
}

rl_status_t rl_pm4_user_data_layout(const rl_pm4_family_t* family,
                                    const rl_capture_kernel_t* kernel,
                                    rl_pm4_user_data_t* out_user_data) {
  const rl_kernel_descriptor_info_t* d = &kernel->info->descriptor_info;
  *out_user_data = (rl_pm4_user_data_t){.dispatch_ptr = RL_PM4_USER_NONE,
                                        .kernarg_ptr = RL_PM4_USER_NONE,
                                        .dispatch_id = RL_PM4_USER_NONE,
                                        .private_size = RL_PM4_USER_NONE};
  // AMDGPUUsage order: private segment buffer (4), dispatch ptr (2), queue
  // ptr (2), kernarg segment ptr (2), dispatch id (2), flat scratch init
  // (2), preloaded kernargs, private segment size (1).
  if (d->enable_sgpr_private_segment_buffer) {
    return rl_pm4_user_data_refuse(kernel, "ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER",
                                   "private segment buffer");
  }
  uint32_t count = 0;
  if (d->enable_sgpr_dispatch_ptr) {
    out_user_data->dispatch_ptr = count;
    count += 2;
  }
  if (d->enable_sgpr_queue_ptr) {
    return rl_pm4_user_data_refuse(kernel, "ENABLE_SGPR_QUEUE_PTR",
                                   "queue ptr");
  }
  if (d->enable_sgpr_kernarg_segment_ptr) {
    out_user_data->kernarg_ptr = count;
    count += 2;
  }
  if (d->enable_sgpr_dispatch_id) {
    out_user_data->dispatch_id = count;
    count += 2;
  }
  if (d->enable_sgpr_flat_scratch_init) {
    return rl_pm4_user_data_refuse(kernel, "ENABLE_SGPR_FLAT_SCRATCH_INIT",
                                   "flat scratch init");
  }
  if (d->kernarg_preload_spec_length > 0) {
    return rl_pm4_user_data_refuse(kernel, "KERNARG_PRELOAD_SPEC_LENGTH",
                                   "preloaded kernargs");
  }
  if (d->enable_sgpr_private_segment_size) {
    out_user_data->private_size = count;
    count += 1;
  }
  // More user SGPRs than the properties enable are padding the kernel never
  // reads: LLVM's UserSGPRInit16Bug workaround (gfx1100/gfx1102 wave32)
  // pads user + system SGPRs to 16 with dead inputs. The CP loads them from
  // USER_DATA registers lowering leaves alone, as the AQL firmware does.
  if (d->user_sgpr_count < count ||
      d->user_sgpr_count > family->user_data_count) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "kernel %s: COMPUTE_PGM_RSRC2.USER_SGPR = %u, but the "
                     "code properties enable %u user SGPRs (at most %u)",
                     kernel->name, d->user_sgpr_count, count,
                     family->user_data_count);
  }
  out_user_data->count = count;
  return RL_OK;
}

// With scratch, the ring address the inputs give encodes in
// DISPATCH_SCRATCH_BASE_LO/HI (256-byte aligned, below 2^48).
static rl_status_t rl_pm4_layout_scratch(rl_pm4_layout_t* layout) {
  RL_RETURN_IF_ERROR(
      rl_pm4_scratch_layout(layout->inputs->capture, &layout->scratch));
  const uint64_t address = layout->inputs->scratch_address;
  if (layout->scratch.bytes == 0) return RL_OK;
  if (address == 0 || address % RL_PM4_SCRATCH_WAVESIZE_UNIT != 0 ||
      address + layout->scratch.bytes > RL_PM4_ADDRESS_LIMIT) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "scratch ring at 0x%llx (%llu bytes): expected a "
                     "256-byte aligned allocation below 2^48",
                     (unsigned long long)address,
                     (unsigned long long)layout->scratch.bytes);
  }
  return RL_OK;
}

// The entry address of kernel |k| encodes in PGM_LO/HI and belongs to its
// descriptor.
static rl_status_t rl_pm4_kernel_check_entry(const rl_pm4_lower_inputs_t* in,
                                             uint32_t k) {
  const rl_capture_kernel_t* kernel = &in->capture->kernels[k];
  const uint64_t entry = in->kernel_entries[k], object = in->kernel_objects[k];
  const uint64_t expected_delta =
      kernel->info->entry_address - kernel->info->descriptor_address;
  if (object == 0 || entry == 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %u (%s): kernel object 0x%llx, entry 0x%llx: "
                     "not loaded",
                     k, kernel->name, (unsigned long long)object,
                     (unsigned long long)entry);
  }
  if (entry % RL_PM4_ENTRY_ALIGN != 0 || entry >= RL_PM4_ADDRESS_LIMIT ||
      entry - object != expected_delta) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernel %u (%s): entry 0x%llx: expected a 256-byte "
                     "aligned address below 2^48 at the descriptor 0x%llx "
                     "+ 0x%llx",
                     k, kernel->name, (unsigned long long)entry,
                     (unsigned long long)object,
                     (unsigned long long)expected_delta);
  }
  return RL_OK;
}

// Every kernel some launch uses: entry and user SGPRs.
static rl_status_t rl_pm4_layout_kernels(rl_pm4_layout_t* layout) {
  const rl_capture_t* capture = layout->inputs->capture;
  bool* seen = calloc(capture->kernel_count + 1u, sizeof(bool));
  if (!seen) return rl_status_out_of_memory();
  rl_status_t status = RL_OK;
  for (uint32_t i = 0; i < capture->launch_count && !status; ++i) {
    uint32_t k = capture->launches[i].kernel;
    if (seen[k]) continue;
    seen[k] = true;
    status = rl_pm4_kernel_check_entry(layout->inputs, k);
    if (!status) {
      status = rl_pm4_user_data_layout(layout->family, &capture->kernels[k],
                                       &layout->user_data[k]);
    }
  }
  free(seen);
  return status;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

static rl_status_t rl_pm4_launch_check_geometry(const rl_pm4_layout_t* layout,
                                                uint32_t index) {
  const rl_capture_t* capture = layout->inputs->capture;
  const rl_capture_launch_t* launch = &capture->launches[index];
  const char* name = rl_pm4_kernel_name(capture, index);
  uint64_t items = (uint64_t)launch->block[0] * launch->block[1] *
                   launch->block[2];
  for (uint32_t axis = 0; axis < 3; ++axis) {
    uint32_t ignored = 0;
    if (launch->block[axis] == 0 ||
        !rl_pm4_field_fits(layout->encoding.num_thread[axis],
                           launch->block[axis])) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "launch %u (%s): block %c = %u does not encode in "
                       "COMPUTE_NUM_THREAD_%c",
                       index, name, "xyz"[axis], launch->block[axis],
                       "XYZ"[axis]);
    }
    if (!rl_launch_grid_bound(launch, axis) &&
        !rl_launch_work_items(launch->grid[axis], launch->block[axis],
                              &ignored)) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "launch %u (%s): grid %c = %u work-groups of %u: "
                       "expected 1 or more, with a grid size in work-items "
                       "that fits 32 bits",
                       index, name, "xyz"[axis], launch->grid[axis],
                       launch->block[axis]);
    }
  }
  if (items > RL_PM4_MAX_WORKGROUP_ITEMS) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "launch %u (%s): block of %llu work-items, expected at "
                     "most %u",
                     index, name, (unsigned long long)items,
                     RL_PM4_MAX_WORKGROUP_ITEMS);
  }
  return RL_OK;
}

static uint64_t rl_pm4_launch_lds_bytes(const rl_capture_t* capture,
                                        uint32_t index) {
  const rl_capture_launch_t* launch = &capture->launches[index];
  return (uint64_t)capture->kernels[launch->kernel].info->group_segment_size +
         launch->dynamic_lds;
}

static rl_status_t rl_pm4_launch_check(const rl_pm4_layout_t* layout,
                                       uint32_t index) {
  const rl_pm4_lower_inputs_t* in = layout->inputs;
  const rl_capture_launch_t* launch = &in->capture->launches[index];
  RL_RETURN_IF_ERROR(rl_pm4_launch_check_geometry(layout, index));
  uint64_t lds = rl_pm4_launch_lds_bytes(in->capture, index);
  if (lds > RL_PM4_LDS_MAX ||
      !rl_pm4_field_fits(layout->encoding.lds_size,
                         (lds + RL_HW_LDS_GRANULE_BYTES - 1) / RL_HW_LDS_GRANULE_BYTES)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "launch %u (%s): %llu bytes of LDS (static + dynamic "
                     "%u), expected at most %u",
                     index, rl_pm4_kernel_name(in->capture, index),
                     (unsigned long long)lds, launch->dynamic_lds,
                     RL_PM4_LDS_MAX);
  }
  uint64_t ignored = 0;
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    RL_RETURN_IF_ERROR(rl_launch_pointer_at(
        in->capture, index, s, in->param_values, in->capture->param_count,
        in->buffer_addresses, &ignored));
  }
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    RL_RETURN_IF_ERROR(rl_launch_binding_evaluate(
        in->capture, index, b, in->param_values, in->capture->param_count,
        &ignored));
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Segment
//===----------------------------------------------------------------------===//

bool rl_pm4_segment_layout(const rl_capture_t* capture,
                           uint32_t* out_kernarg_offsets,
                           uint32_t* out_image_offsets,
                           uint32_t* out_image_count, uint32_t* out_size) {
  uint64_t end = 0;
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    uint64_t start = rl_aql_kernarg_slice_next(capture, i, &end);
    if (start == UINT64_MAX || end > UINT32_MAX) return false;
    if (out_kernarg_offsets) out_kernarg_offsets[i] = (uint32_t)start;
  }
  // The kernarg read slack after the last slice (redline/code_object.h):
  // the images follow the slices, and the segment ends no earlier than it.
  const uint64_t mapped_end = rl_kernarg_mapped_end(end);
  end = (end + RL_PM4_IMAGE_ALIGN - 1) & ~(uint64_t)(RL_PM4_IMAGE_ALIGN - 1);
  uint32_t images = 0;
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    const rl_capture_kernel_t* kernel =
        &capture->kernels[capture->launches[i].kernel];
    bool image = kernel->info->descriptor_info.enable_sgpr_dispatch_ptr;
    if (out_image_offsets) {
      out_image_offsets[i] = image ? (uint32_t)end : RL_PM4_NO_IMAGE;
    }
    if (image) {
      end += RL_AQL_PACKET_SIZE;
      ++images;
    }
    if (end > UINT32_MAX) return false;
  }
  if (end < mapped_end) end = mapped_end;
  if (end > UINT32_MAX) return false;
  if (out_image_count) *out_image_count = images;
  if (out_size) *out_size = (uint32_t)end;
  return true;
}

// The segment address suits every slice and image.
static rl_status_t rl_pm4_layout_check_segment(const rl_pm4_layout_t* layout) {
  const rl_pm4_lower_inputs_t* in = layout->inputs;
  uint64_t align = layout->image_count ? RL_PM4_IMAGE_ALIGN
                                       : RL_PM4_KERNARG_ALIGN_MIN;
  for (uint32_t k = 0; k < in->capture->kernel_count; ++k) {
    uint32_t kernel_align = in->capture->kernels[k].info->kernarg_align;
    if (kernel_align > align) align = kernel_align;
  }
  if (in->kernarg_address % align != 0 ||
      in->kernarg_address + layout->kernarg_size > RL_PM4_ADDRESS_LIMIT) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "kernarg segment at 0x%llx (%u bytes): expected a "
                     "%llu-byte aligned address below 2^48",
                     (unsigned long long)in->kernarg_address,
                     layout->kernarg_size, (unsigned long long)align);
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

static rl_status_t rl_pm4_layout_check_inputs(
    const rl_pm4_lower_inputs_t* in) {
  const rl_capture_t* capture = in->capture;
  if (!capture || !in->plan || !in->buffer_addresses || !in->kernel_objects ||
      !in->kernel_entries || (!in->param_values && capture->param_count)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "PM4 lowering needs a capture, its plan, buffer "
                     "addresses, kernel objects and entries and parameter "
                     "values");
  }
  if (capture->launch_count == 0 || capture->code_object_count == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "PM4 lowering of a capture without launches");
  }
  if (in->plan->first_launch != 0 ||
      in->plan->launch_count != capture->launch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "hazard plan covers launches [%u, %u), expected the "
                     "whole capture [0, %u)",
                     in->plan->first_launch,
                     in->plan->first_launch + in->plan->launch_count,
                     capture->launch_count);
  }
  return RL_OK;
}

static rl_status_t rl_pm4_layout_allocate(rl_pm4_layout_t* layout) {
  const rl_capture_t* capture = layout->inputs->capture;
  layout->user_data =
      calloc(capture->kernel_count + 1u, sizeof(*layout->user_data));
  layout->kernarg_offsets =
      calloc(capture->launch_count, sizeof(*layout->kernarg_offsets));
  layout->image_offsets =
      calloc(capture->launch_count, sizeof(*layout->image_offsets));
  if (!layout->user_data || !layout->kernarg_offsets ||
      !layout->image_offsets) {
    return rl_status_out_of_memory();
  }
  if (!rl_pm4_segment_layout(capture, layout->kernarg_offsets,
                             layout->image_offsets, &layout->image_count,
                             &layout->kernarg_size)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "the kernarg segment of %u launches does not fit 32 "
                     "bits, or a kernarg alignment is not a power of two",
                     capture->launch_count);
  }
  return RL_OK;
}

static rl_status_t rl_pm4_layout_build(rl_pm4_layout_t* layout) {
  const rl_capture_t* capture = layout->inputs->capture;
  RL_RETURN_IF_ERROR(rl_pm4_layout_check_inputs(layout->inputs));
  RL_RETURN_IF_ERROR(rl_pm4_family_for_processor(
      capture->code_objects[0].parsed->processor, &layout->family));
  rl_pm4_encoding_init(layout->family, &layout->encoding);
  RL_RETURN_IF_ERROR(rl_pm4_layout_allocate(layout));
  RL_RETURN_IF_ERROR(rl_pm4_layout_check_segment(layout));
  RL_RETURN_IF_ERROR(rl_pm4_layout_scratch(layout));
  RL_RETURN_IF_ERROR(rl_pm4_layout_kernels(layout));
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    RL_RETURN_IF_ERROR(rl_pm4_launch_check(layout, i));
  }
  return RL_OK;
}

rl_status_t rl_pm4_layout_init(const rl_pm4_lower_inputs_t* inputs,
                               rl_pm4_layout_t* out_layout) {
  memset(out_layout, 0, sizeof(*out_layout));
  out_layout->inputs = inputs;
  if (!inputs) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "PM4 lowering without inputs");
  }
  RL_RETURN_IF_ERROR(rl_pm4_layout_build(out_layout));
  return rl_pm4_relay_layout(out_layout);
}

void rl_pm4_layout_deinit(rl_pm4_layout_t* layout) {
  free(layout->binding_first);
  free(layout->relay_slots);
  free(layout->user_data);
  free(layout->kernarg_offsets);
  free(layout->image_offsets);
  memset(layout, 0, sizeof(*layout));
}

//===----------------------------------------------------------------------===//
// The state of one dispatch
//===----------------------------------------------------------------------===//

static void rl_pm4_state_add(rl_pm4_launch_state_t* state, uint32_t index,
                             uint32_t value) {
  uint32_t at = state->count++;
  // Insertion keeps |regs| sorted by index.
  while (at > 0 && state->regs[at - 1].index > index) {
    state->regs[at] = state->regs[at - 1];
    --at;
  }
  state->regs[at] = (rl_pm4_reg_value_t){.index = index, .value = value};
}

static void rl_pm4_state_add_pointer(rl_pm4_launch_state_t* state,
                                     uint32_t index, uint64_t address) {
  rl_pm4_state_add(state, index, (uint32_t)address);
  rl_pm4_state_add(state, index + 1, (uint32_t)(address >> 32));
}

static void rl_pm4_state_program(const rl_pm4_layout_t* layout,
                                 uint32_t launch,
                                 rl_pm4_launch_state_t* state) {
  const rl_capture_t* capture = layout->inputs->capture;
  const uint32_t k = capture->launches[launch].kernel;
  const rl_kernel_descriptor_t* d = &capture->kernels[k].info->descriptor;
  const rl_pm4_compute_regs_t* regs = &layout->family->regs;
  const rl_pm4_encoding_t* enc = &layout->encoding;
  const uint64_t entry = layout->inputs->kernel_entries[k];
  const uint64_t lds = rl_pm4_launch_lds_bytes(capture, launch);
  rl_pm4_state_add(state, regs->pgm_lo, (uint32_t)(entry >> 8));
  rl_pm4_state_add(state, regs->pgm_lo + 1, (uint32_t)(entry >> 40));
  uint32_t rsrc1 = d->compute_pgm_rsrc1;
  if (layout->family->rsrc1_priv_for_pm4) {
    rsrc1 |= rl_pm4_field_encode(enc->priv, 1);
  }
  uint32_t rsrc2 = (d->compute_pgm_rsrc2 & ~rl_pm4_field_mask(enc->lds_size)) |
                   rl_pm4_field_encode(enc->lds_size,
                                       (uint32_t)((lds + RL_HW_LDS_GRANULE_BYTES - 1) /
                                                  RL_HW_LDS_GRANULE_BYTES));
  rl_pm4_state_add(state, regs->pgm_rsrc1, rsrc1);
  rl_pm4_state_add(state, regs->pgm_rsrc1 + 1, rsrc2);
  rl_pm4_state_add(state, regs->pgm_rsrc3, d->compute_pgm_rsrc3);
}

static void rl_pm4_state_constants(const rl_pm4_layout_t* layout,
                                   rl_pm4_launch_state_t* state) {
  const rl_pm4_compute_regs_t* regs = &layout->family->regs;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    rl_pm4_state_add(state, regs->start_x + axis, 0);
    rl_pm4_state_add(state, regs->restart_x + axis, 0);
  }
  rl_pm4_state_add(state, regs->resource_limits, 0);
  rl_pm4_state_add(state, regs->tmpring_size, layout->scratch.tmpring_size);
  if (layout->scratch.tmpring_size != 0) {
    // Mesa radeonsi and RADV: LO = address >> 8, HI = address >> 40.
    const uint64_t base = layout->inputs->scratch_address;
    rl_pm4_state_add(state, regs->dispatch_scratch_base_lo,
                     (uint32_t)(base >> 8));
    rl_pm4_state_add(state, regs->dispatch_scratch_base_lo + 1,
                     (uint32_t)(base >> 40));
  }
}

void rl_pm4_launch_state(const rl_pm4_layout_t* layout, uint32_t launch,
                         bool constants, rl_pm4_launch_state_t* out_state) {
  const rl_pm4_lower_inputs_t* in = layout->inputs;
  const rl_capture_launch_t* l = &in->capture->launches[launch];
  const rl_code_object_kernel_t* info = in->capture->kernels[l->kernel].info;
  const rl_pm4_compute_regs_t* regs = &layout->family->regs;
  const rl_pm4_user_data_t* user = &layout->user_data[l->kernel];
  out_state->count = 0;
  rl_pm4_state_program(layout, launch, out_state);
  for (uint32_t axis = 0; axis < 3; ++axis) {
    rl_pm4_state_add(out_state, regs->num_thread_x + axis,
                     rl_pm4_field_encode(layout->encoding.num_thread[axis],
                                         l->block[axis]));
  }
  if (constants) rl_pm4_state_constants(layout, out_state);
  if (user->dispatch_ptr != RL_PM4_USER_NONE) {
    rl_pm4_state_add_pointer(out_state, regs->user_data_0 + user->dispatch_ptr,
                             in->kernarg_address + layout->image_offsets[launch]);
  }
  if (user->kernarg_ptr != RL_PM4_USER_NONE) {
    rl_pm4_state_add_pointer(out_state, regs->user_data_0 + user->kernarg_ptr,
                             in->kernarg_address +
                                 layout->kernarg_offsets[launch]);
  }
  if (user->dispatch_id != RL_PM4_USER_NONE) {
    // A PM4 dispatch has no AQL packet id: the launch's index in the step
    // (docs/pm4-scratch.md, "User SGPRs").
    rl_pm4_state_add_pointer(out_state, regs->user_data_0 + user->dispatch_id,
                             launch);
  }
  if (user->private_size != RL_PM4_USER_NONE) {
    // What the AQL route's packet says: the kernel's fixed size.
    rl_pm4_state_add(out_state, regs->user_data_0 + user->private_size,
                     info->private_segment_size);
  }
  out_state->initiator =
      layout->encoding.initiator |
      (info->descriptor_info.enable_wavefront_size32
           ? layout->encoding.initiator_w32
           : 0);
}

void rl_pm4_dispatch_image(const rl_pm4_layout_t* layout, uint32_t launch,
                           const uint32_t grid[3],
                           rl_aql_dispatch_packet_t* out_image) {
  const rl_pm4_lower_inputs_t* in = layout->inputs;
  const rl_capture_launch_t* l = &in->capture->launches[launch];
  memset(out_image, 0, sizeof(*out_image));
  // What a kernel reads through its dispatch ptr is what the AQL route's
  // packet for this launch would hold (aql/aql_lower.h).
  out_image->header =
      rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, 1,
                    RL_AQL_FENCE_SCOPE_SYSTEM, RL_AQL_FENCE_SCOPE_SYSTEM);
  out_image->setup = 3;
  out_image->workgroup_size_x = (uint16_t)l->block[0];
  out_image->workgroup_size_y = (uint16_t)l->block[1];
  out_image->workgroup_size_z = (uint16_t)l->block[2];
  out_image->grid_size_x = grid[0] * l->block[0];
  out_image->grid_size_y = grid[1] * l->block[1];
  out_image->grid_size_z = grid[2] * l->block[2];
  out_image->group_segment_size =
      (uint32_t)rl_pm4_launch_lds_bytes(in->capture, launch);
  out_image->kernel_object = in->kernel_objects[l->kernel];
  out_image->kernarg_address =
      in->kernarg_address + layout->kernarg_offsets[launch];
}
