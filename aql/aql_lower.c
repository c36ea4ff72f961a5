// Lowering a capture into retained AQL kernel-dispatch packets
// (aql/aql_lower.h). Field meanings: HSA System Architecture 1.2 §2.9.6
// (hsa_kernel_dispatch_packet_t) and Debian's hsa/hsa.h field comments.
#include "aql/aql_kernarg.h"
#include "aql/aql_lower.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "aql/aql_decode.h"
#include "aql/aql_dispatch.h"
#include "aql/aql_kernarg.h"
#include "capture/bind/launch_bind.h"
#include "base/test_fault.h"

// AQL workgroup_size_* fields are 16 bits wide.
#define RL_AQL_WORKGROUP_SIZE_MAX 65535u
// Slices start at 16 bytes at least: the CP fetches kernargs in 16-byte
// lines and HIP aligns every kernarg segment this way (CLR kernarg pool).
#define RL_AQL_KERNARG_ALIGN_MIN 16u

// max(kernel kernarg alignment, 16); 0 when not a power of two.
static uint32_t rl_aql_kernarg_align(const rl_capture_t* capture,
                                     const rl_capture_launch_t* launch) {
  uint32_t align = capture->kernels[launch->kernel].info->kernarg_align;
  if (align < RL_AQL_KERNARG_ALIGN_MIN) align = RL_AQL_KERNARG_ALIGN_MIN;
  return (align & (align - 1)) == 0 ? align : 0;
}

uint64_t rl_aql_kernarg_slice_next(const rl_capture_t* capture, uint32_t index,
                                   uint64_t* end) {
  const rl_capture_launch_t* launch = &capture->launches[index];
  uint64_t align = rl_aql_kernarg_align(capture, launch);
  if (align == 0) return UINT64_MAX;
  uint64_t start = (*end + align - 1) & ~(align - 1);
  *end = start + launch->kernarg_size;
  return start;
}

// Lays the slices out; |out_offsets| may be NULL. False when the segment
// does not fit 32 bits or an alignment is bad.
static bool rl_aql_kernarg_layout(const rl_capture_t* capture,
                                  uint32_t* out_offsets, uint32_t* out_size) {
  uint64_t end = 0;
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    uint64_t start = rl_aql_kernarg_slice_next(capture, i, &end);
    if (start == UINT64_MAX || end > UINT32_MAX) return false;
    if (out_offsets) out_offsets[i] = (uint32_t)start;
  }
  // The kernarg read slack after the last slice (redline/code_object.h).
  end = rl_kernarg_mapped_end(end);
  if (end > UINT32_MAX) return false;
  *out_size = (uint32_t)end;
  return true;
}

uint32_t rl_aql_kernarg_segment_size(const rl_capture_t* capture) {
  uint32_t size = 0;
  return rl_aql_kernarg_layout(capture, NULL, &size) ? size : 0;
}

static rl_status_t rl_aql_lower_check_inputs(
    const rl_aql_lower_inputs_t* inputs) {
  const rl_capture_t* capture = inputs->capture;
  const rl_hazard_plan_t* plan = inputs->plan;
  if (!capture || !plan || !inputs->buffer_addresses ||
      !inputs->kernel_objects ||
      (!inputs->param_values && capture->param_count > 0)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "AQL lowering needs a capture, its plan, buffer "
                     "addresses, kernel objects and parameter values");
  }
  if (capture->launch_count == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "AQL lowering of a capture without launches");
  }
  if (plan->first_launch != 0 || plan->launch_count != capture->launch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "hazard plan covers launches [%u, %u), expected the "
                     "whole capture [0, %u)",
                     plan->first_launch, plan->first_launch + plan->launch_count,
                     capture->launch_count);
  }
  if (inputs->completion_signal == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "AQL lowering needs a completion signal");
  }
  if (inputs->kernarg_address % RL_AQL_KERNARG_ALIGN_MIN != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "kernarg segment at 0x%llx: expected 16-byte alignment",
                     (unsigned long long)inputs->kernarg_address);
  }
  return RL_OK;
}

// The geometry of launch |index| fits a dispatch packet.
static rl_status_t rl_aql_lower_check_geometry(const rl_capture_t* capture,
                                               uint32_t index) {
  const rl_capture_launch_t* launch = &capture->launches[index];
  const rl_capture_kernel_t* kernel = &capture->kernels[launch->kernel];
  bool bound[3] = {false, false, false};
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    if (launch->bindings[b].target == RL_BINDING_GRID) {
      bound[launch->bindings[b].offset] = true;
    }
  }
  uint64_t block_items =
      (uint64_t)launch->block[0] * launch->block[1] * launch->block[2];
  if (block_items > RL_AQL_MAX_WORKGROUP_ITEMS) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "launch %u (%s): block %ux%ux%u has %llu work-items, "
                     "expected at most %u",
                     index, kernel->name, launch->block[0], launch->block[1],
                     launch->block[2], (unsigned long long)block_items,
                     RL_AQL_MAX_WORKGROUP_ITEMS);
  }
  for (uint32_t axis = 0; axis < 3; ++axis) {
    uint32_t items = 0;
    if (launch->block[axis] == 0 ||
        launch->block[axis] > RL_AQL_WORKGROUP_SIZE_MAX) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "launch %u (%s): block %c = %u, expected 1..65535",
                       index, kernel->name, "xyz"[axis], launch->block[axis]);
    }
    if (!bound[axis] &&
        !rl_launch_work_items(launch->grid[axis], launch->block[axis],
                              &items)) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "launch %u (%s): grid %c = %u work-groups of %u: "
                       "expected 1 or more, with a grid size in work-items "
                       "that fits 32 bits",
                       index, kernel->name, "xyz"[axis], launch->grid[axis],
                       launch->block[axis]);
    }
  }
  return RL_OK;
}

// Everything about launch |index| that could make lowering fail.
static rl_status_t rl_aql_lower_check_launch(
    const rl_aql_lower_inputs_t* inputs, uint32_t index) {
  const rl_capture_t* capture = inputs->capture;
  const rl_capture_launch_t* launch = &capture->launches[index];
  const rl_capture_kernel_t* kernel = &capture->kernels[launch->kernel];
  RL_RETURN_IF_ERROR(rl_aql_lower_check_geometry(capture, index));
  uint32_t align = rl_aql_kernarg_align(capture, launch);
  if (align == 0 || inputs->kernarg_address % align != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "launch %u (%s): kernarg alignment %u and segment at "
                     "0x%llx: expected a power of two dividing the address",
                     index, kernel->name, kernel->info->kernarg_align,
                     (unsigned long long)inputs->kernarg_address);
  }
  if ((uint64_t)kernel->info->group_segment_size + launch->dynamic_lds >
      UINT32_MAX) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "launch %u (%s): group segment %u + dynamic LDS %u "
                     "overflows",
                     index, kernel->name, kernel->info->group_segment_size,
                     launch->dynamic_lds);
  }
  if (inputs->kernel_objects[launch->kernel] == 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "launch %u (%s): kernel object of kernel %u is 0 (not "
                     "loaded)",
                     index, kernel->name, launch->kernel);
  }
  uint64_t ignored = 0;
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    RL_RETURN_IF_ERROR(rl_launch_pointer_at(
        capture, index, s, inputs->param_values, capture->param_count,
        inputs->buffer_addresses, &ignored));
  }
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    RL_RETURN_IF_ERROR(rl_launch_binding_evaluate(
        capture, index, b, inputs->param_values, capture->param_count,
        &ignored));
  }
  return RL_OK;
}

static rl_status_t rl_aql_lower_validate(const rl_aql_lower_inputs_t* inputs,
                                         uint32_t* out_patch_count) {
  *out_patch_count = 0;
  RL_RETURN_IF_ERROR(rl_aql_lower_check_inputs(inputs));
  const rl_capture_t* capture = inputs->capture;
  uint32_t size = 0;
  if (!rl_aql_kernarg_layout(capture, NULL, &size)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "the kernarg segment of %u launches does not fit 32 bits",
                     capture->launch_count);
  }
  uint64_t patches = 0;
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    RL_RETURN_IF_ERROR(rl_aql_lower_check_launch(inputs, i));
    patches += capture->launches[i].slot_count +
               capture->launches[i].binding_count;
  }
  if (patches > UINT32_MAX) {
    return RL_STATUS(RL_STATUS_CONTRACT, "%llu patch sites do not fit 32 bits",
                     (unsigned long long)patches);
  }
  *out_patch_count = (uint32_t)patches;
  return RL_OK;
}

static rl_status_t rl_aql_program_allocate(const rl_capture_t* capture,
                                           uint32_t patch_count,
                                           rl_aql_program_t** out_program) {
  rl_aql_program_t* program = calloc(1, sizeof(*program));
  if (!program) return rl_status_out_of_memory();
  program->packet_count = capture->launch_count;
  program->patch_count = patch_count;
  rl_aql_kernarg_layout(capture, NULL, &program->kernarg_size);
  program->packets = calloc(capture->launch_count, sizeof(*program->packets));
  program->kernarg_offsets =
      calloc(capture->launch_count, sizeof(*program->kernarg_offsets));
  // calloc(0) may return NULL: keep one element so NULL means failure.
  program->kernarg = calloc(program->kernarg_size + 1u, 1);
  program->patches = calloc(patch_count + 1u, sizeof(*program->patches));
  rl_status_t status = rl_bind_table_create(capture, &program->binds);
  if (status || !program->packets || !program->kernarg_offsets ||
      !program->kernarg || !program->patches) {
    rl_status_free(status);
    rl_aql_program_destroy(program);
    return rl_status_out_of_memory();
  }
  *out_program = program;
  return RL_OK;
}

// The header of packet |index| from the hazard plan (see aql_lower.h).
static uint16_t rl_aql_lower_header(const rl_aql_lower_inputs_t* inputs,
                                    uint32_t index) {
  uint32_t last = inputs->capture->launch_count - 1;
  bool barrier = index == 0 || inputs->plan->boundaries[index].needs_wait;
  if (index > 0 && rl_test_fault("drop-barrier", index)) barrier = false;
  return rl_aql_header(
      RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, barrier,
      index == 0 ? RL_AQL_FENCE_SCOPE_SYSTEM : RL_AQL_FENCE_SCOPE_AGENT,
      index == last ? RL_AQL_FENCE_SCOPE_SYSTEM : RL_AQL_FENCE_SCOPE_AGENT);
}

// Packet |index| for bound work-group counts |grid|.
static void rl_aql_lower_emit_packet(const rl_aql_lower_inputs_t* inputs,
                                     rl_aql_program_t* program, uint32_t index,
                                     const uint32_t grid[3]) {
  const rl_capture_launch_t* launch = &inputs->capture->launches[index];
  const rl_code_object_kernel_t* info =
      inputs->capture->kernels[launch->kernel].info;
  rl_aql_dispatch_packet_t* packet = &program->packets[index];
  const bool last = index == program->packet_count - 1;
  const rl_aql_dispatch_t dispatch = {
      .header = rl_aql_lower_header(inputs, index),
      .grid = {grid[0], grid[1], grid[2]},
      .block = {launch->block[0], launch->block[1], launch->block[2]},
      .private_segment_size = info->private_segment_size,
      .group_segment_size = info->group_segment_size + launch->dynamic_lds,
      .kernel_object = inputs->kernel_objects[launch->kernel],
      .kernarg_address =
          inputs->kernarg_address + program->kernarg_offsets[index],
      .completion_signal = last ? inputs->completion_signal : 0,
  };
  rl_aql_dispatch_packet_init(&dispatch, packet);
  if (packet->header & (1u << RL_AQL_HEADER_BARRIER_SHIFT)) {
    ++program->barrier_count;
  }
}

// Appends the patch sites of launch |index|: its slots, then its bindings,
// to the patch table and the bind table.
static rl_status_t rl_aql_lower_emit_patches(
    const rl_aql_lower_inputs_t* inputs, rl_aql_program_t* program,
    uint32_t index, uint32_t* patch_index) {
  const rl_capture_launch_t* launch = &inputs->capture->launches[index];
  const uint32_t base = program->kernarg_offsets[index];
  const uint8_t* packet = (const uint8_t*)&program->packets[index];
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    uint32_t offset = base + launch->slots[s].kernarg_offset;
    program->patches[(*patch_index)++] = (rl_aql_patch_t){
        .kind = RL_AQL_PATCH_POINTER, .launch = index, .packet = index,
        .offset = offset, .size = 8, .slot = s};
    RL_RETURN_IF_ERROR(rl_bind_table_add(
        program->binds, RL_BIND_SITE_POINTER, index, s, RL_AQL_DEST_KERNARG,
        offset, 8, 1, rl_launch_load_le(program->kernarg + offset, 8)));
  }
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    const rl_scalar_binding_t* binding = &launch->bindings[b];
    rl_aql_patch_t patch = {.launch = index, .packet = index, .binding = b};
    if (binding->target == RL_BINDING_POINTER_OFFSET) {
      // The slot's pointer site above carries it (bind_table.h: a bound
      // pointer site); the patch names the slot's 8 bytes.
      patch.kind = RL_AQL_PATCH_POINTER;
      patch.slot = binding->offset;
      patch.offset = base + launch->slots[binding->offset].kernarg_offset;
      patch.size = 8;
      RL_RETURN_IF_ERROR(rl_bind_table_add(
          program->binds, RL_BIND_SITE_POINTER, index, binding->offset,
          RL_AQL_DEST_KERNARG, patch.offset, 8, 1,
          rl_launch_load_le(program->kernarg + patch.offset, 8)));
    } else if (binding->target == RL_BINDING_GRID) {
      patch.kind = RL_AQL_PATCH_GRID;
      patch.axis = binding->offset;
      patch.offset = (uint32_t)offsetof(rl_aql_dispatch_packet_t,
                                        grid_size_x) + 4 * binding->offset;
      patch.size = 4;
      // The grid is work-groups × the packet's workgroup size, which the
      // census keeps equal to the launch's block.
      RL_RETURN_IF_ERROR(rl_bind_table_add(
          program->binds, RL_BIND_SITE_GRID, index, b, RL_AQL_DEST_PACKETS,
          index * RL_AQL_PACKET_SIZE + patch.offset, 4,
          launch->block[patch.axis < 3 ? patch.axis : 0],
          rl_launch_load_le(packet + patch.offset, 4)));
    } else {
      patch.kind = RL_AQL_PATCH_KERNARG;
      patch.offset = base + binding->offset;
      patch.size = binding->size;
      RL_RETURN_IF_ERROR(rl_bind_table_add(
          program->binds, RL_BIND_SITE_KERNARG, index, b, RL_AQL_DEST_KERNARG,
          patch.offset, (uint8_t)patch.size, 1,
          rl_launch_load_le(program->kernarg + patch.offset, patch.size)));
    }
    program->patches[(*patch_index)++] = patch;
  }
  return RL_OK;
}

// Emits the image, packets and patches; validated inputs cannot fail here.
static rl_status_t rl_aql_lower_emit(const rl_aql_lower_inputs_t* inputs,
                                     rl_aql_program_t* program) {
  const rl_capture_t* capture = inputs->capture;
  rl_aql_kernarg_layout(capture, program->kernarg_offsets,
                        &program->kernarg_size);
  uint32_t patch_index = 0;
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    uint32_t grid[3];
    RL_RETURN_IF_ERROR(rl_launch_bind(
        capture, i, inputs->param_values, inputs->buffer_addresses,
        program->kernarg + program->kernarg_offsets[i], grid));
    rl_aql_lower_emit_packet(inputs, program, i, grid);
    RL_RETURN_IF_ERROR(
        rl_aql_lower_emit_patches(inputs, program, i, &patch_index));
  }
  return rl_bind_table_finish(program->binds, inputs->param_values);
}

rl_status_t rl_aql_lower(const rl_aql_lower_inputs_t* inputs,
                         rl_aql_program_t** out_program) {
  *out_program = NULL;
  if (!inputs) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "AQL lowering without inputs");
  }
  uint32_t patch_count = 0;
  RL_RETURN_IF_ERROR(rl_aql_lower_validate(inputs, &patch_count));
  rl_aql_program_t* program = NULL;
  RL_RETURN_IF_ERROR(
      rl_aql_program_allocate(inputs->capture, patch_count, &program));
  rl_status_t status = rl_aql_lower_emit(inputs, program);
  if (status) {
    rl_aql_program_destroy(program);
    return rl_status_annotate(status, "AQL lowering (internal)");
  }
  *out_program = program;
  return RL_OK;
}

void rl_aql_program_destroy(rl_aql_program_t* program) {
  if (!program) return;
  free(program->packets);
  free(program->kernarg_offsets);
  free(program->kernarg);
  free(program->patches);
  rl_bind_table_destroy(program->binds);
  free(program);
}
