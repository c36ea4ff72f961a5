// The census of a lowered AQL program (rl_aql_program_check in
// aql/aql_lower.h): every packet is read back from its bytes through the
// shared decoder (aql/aql_decode.h) and compared field by field with what
// the capture, the hazard plan and the prepared addresses require; then
// the patch table is walked against the launches' slots and bindings.
#include <stddef.h>
#include <string.h>

#include "aql/aql_decode.h"
#include "aql/aql_kernarg.h"
#include "aql/aql_lower.h"
#include "capture/bind/launch_bind.h"
#include "base/test_fault.h"

// Context of one census: the program, the inputs, the packet under check.
typedef struct rl_aql_census_s {
  const rl_aql_program_t* program;
  const rl_aql_lower_inputs_t* inputs;
  uint32_t packet;
  uint64_t slice;  // where the packet's kernarg slice must start
} rl_aql_census_t;

static const char* rl_aql_census_kernel(const rl_aql_census_t* census,
                                        uint32_t launch) {
  const rl_capture_t* capture = census->inputs->capture;
  return capture->kernels[capture->launches[launch].kernel].name;
}

// RL_OK when |found| == |expected|, otherwise RL_STATUS_PREPARE naming the
// packet and |field|.
static rl_status_t rl_aql_census_expect(const rl_aql_census_t* census,
                                        const char* field, uint64_t expected,
                                        uint64_t found) {
  if (found == expected) return RL_OK;
  return RL_STATUS(RL_STATUS_PREPARE,
                   "AQL census: packet %u (%s): %s: expected 0x%llx, found "
                   "0x%llx",
                   census->packet, rl_aql_census_kernel(census, census->packet),
                   field, (unsigned long long)expected,
                   (unsigned long long)found);
}

// The header and setup of the decoded packet under check.
static rl_status_t rl_aql_census_header(const rl_aql_census_t* census,
                                        const rl_aql_decoded_t* d) {
  const uint32_t index = census->packet;
  const uint32_t last = census->program->packet_count - 1;
  bool wait = index == 0 || census->inputs->plan->boundaries[index].needs_wait;
  RL_RETURN_IF_ERROR(rl_aql_census_expect(
      census, "header type", RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, d->type));
  RL_RETURN_IF_ERROR(
      rl_aql_census_expect(census, "header barrier bit", wait, d->barrier));
  RL_RETURN_IF_ERROR(rl_aql_census_expect(
      census, "header acquire scope",
      index == 0 ? RL_AQL_FENCE_SCOPE_SYSTEM : RL_AQL_FENCE_SCOPE_AGENT,
      d->acquire_scope));
  RL_RETURN_IF_ERROR(rl_aql_census_expect(
      census, "header release scope",
      index == last ? RL_AQL_FENCE_SCOPE_SYSTEM : RL_AQL_FENCE_SCOPE_AGENT,
      d->release_scope));
  return rl_aql_census_expect(census, "setup dimensions", 3, d->dimensions);
}

static rl_status_t rl_aql_census_geometry(const rl_aql_census_t* census,
                                          const rl_aql_decoded_t* d) {
  static const char* const block_names[3] = {
      "workgroup_size_x", "workgroup_size_y", "workgroup_size_z"};
  static const char* const grid_names[3] = {"grid_size_x", "grid_size_y",
                                            "grid_size_z"};
  const rl_capture_t* capture = census->inputs->capture;
  const rl_capture_launch_t* launch = &capture->launches[census->packet];
  for (uint32_t axis = 0; axis < 3; ++axis) {
    const uint32_t block = d->workgroup_size[axis], grid = d->grid_size[axis];
    RL_RETURN_IF_ERROR(rl_aql_census_expect(census, block_names[axis],
                                            launch->block[axis], block));
    if (rl_launch_grid_bound(launch, axis)) {
      // A bound axis holds the value of the last apply: a positive whole
      // number of work-groups.
      bool whole = grid != 0 && block != 0 && grid % block == 0;
      RL_RETURN_IF_ERROR(
          rl_aql_census_expect(census, grid_names[axis], 1, whole));
    } else {
      RL_RETURN_IF_ERROR(rl_aql_census_expect(
          census, grid_names[axis],
          (uint64_t)launch->grid[axis] * launch->block[axis], grid));
    }
  }
  const rl_code_object_kernel_t* info = capture->kernels[launch->kernel].info;
  RL_RETURN_IF_ERROR(rl_aql_census_expect(census, "private_segment_size",
                                          info->private_segment_size,
                                          d->private_segment_size));
  RL_RETURN_IF_ERROR(rl_aql_census_expect(
      census, "group_segment_size",
      (uint64_t)info->group_segment_size + launch->dynamic_lds,
      d->group_segment_size));
  return rl_aql_census_expect(census, "reserved2", 0, d->reserved2);
}

static rl_status_t rl_aql_census_addresses(const rl_aql_census_t* census,
                                           const rl_aql_decoded_t* d) {
  const rl_aql_lower_inputs_t* inputs = census->inputs;
  const rl_aql_program_t* program = census->program;
  const rl_capture_launch_t* launch =
      &inputs->capture->launches[census->packet];
  RL_RETURN_IF_ERROR(rl_aql_census_expect(
      census, "kernel_object", inputs->kernel_objects[launch->kernel],
      d->kernel_object));
  const uint64_t slice = census->slice;
  RL_RETURN_IF_ERROR(rl_aql_census_expect(
      census, "kernarg slice offset", slice,
      program->kernarg_offsets[census->packet]));
  RL_RETURN_IF_ERROR(rl_aql_census_expect(census, "kernarg_address",
                                          inputs->kernarg_address + slice,
                                          d->kernarg_address));
  // The slice, whole kernarg included, lies inside the segment.
  bool inside = d->kernarg_address % 16 == 0 &&
                slice + launch->kernarg_size <= program->kernarg_size;
  RL_RETURN_IF_ERROR(rl_aql_census_expect(
      census, "kernarg slice (aligned, inside the segment)", 1, inside));
  bool last = census->packet == program->packet_count - 1;
  return rl_aql_census_expect(census, "completion_signal",
                              last ? inputs->completion_signal : 0,
                              d->completion_signal);
}

// Decodes every packet with the shared decoder (aql/aql_decode.h), then
// compares its fields with what lowering must have written.
static rl_status_t rl_aql_census_packets(const rl_aql_census_t* base) {
  rl_aql_census_t census = *base;
  uint64_t end = 0;
  for (uint32_t i = 0; i < census.program->packet_count; ++i) {
    census.packet = i;
    census.slice = rl_aql_kernarg_slice_next(census.inputs->capture, i, &end);
    rl_aql_decoded_t decoded;
    if (rl_aql_packet_decode(&census.program->packets[i], &decoded) !=
        RL_AQL_OK) {
      return RL_STATUS(RL_STATUS_PREPARE,
                       "AQL census: packet %u (%s): does not decode (%s): %s",
                       i, rl_aql_census_kernel(&census, i),
                       rl_aql_error_name(decoded.error), decoded.reason);
    }
    RL_RETURN_IF_ERROR(rl_aql_census_header(&census, &decoded));
    RL_RETURN_IF_ERROR(rl_aql_census_geometry(&census, &decoded));
    RL_RETURN_IF_ERROR(rl_aql_census_addresses(&census, &decoded));
  }
  return RL_OK;
}

// The patch the table must hold for slot |slot| or binding |binding|
// (UINT32_MAX for the other) of launch |launch|.
static rl_aql_patch_t rl_aql_census_expected_patch(
    const rl_aql_census_t* census, uint32_t launch_index, uint32_t slot,
    uint32_t binding) {
  const rl_aql_program_t* program = census->program;
  const rl_capture_launch_t* launch =
      &census->inputs->capture->launches[launch_index];
  const uint32_t base = program->kernarg_offsets[launch_index];
  rl_aql_patch_t patch = {.launch = launch_index, .packet = launch_index};
  if (slot != UINT32_MAX) {
    patch.kind = RL_AQL_PATCH_POINTER;
    patch.slot = slot;
    patch.offset = base + launch->slots[slot].kernarg_offset;
    patch.size = 8;
    return patch;
  }
  const rl_scalar_binding_t* b = &launch->bindings[binding];
  patch.binding = binding;
  if (b->target == RL_BINDING_POINTER_OFFSET) {
    patch.kind = RL_AQL_PATCH_POINTER;
    patch.slot = b->offset;
    patch.offset = base + launch->slots[b->offset].kernarg_offset;
    patch.size = 8;
    return patch;
  }
  patch.kind = b->target == RL_BINDING_GRID ? RL_AQL_PATCH_GRID
                                            : RL_AQL_PATCH_KERNARG;
  patch.axis = b->target == RL_BINDING_GRID ? b->offset : 0;
  patch.offset = b->target == RL_BINDING_GRID
                     ? (uint32_t)offsetof(rl_aql_dispatch_packet_t,
                                          grid_size_x) + 4 * b->offset
                     : base + b->offset;
  patch.size = b->target == RL_BINDING_GRID ? 4 : b->size;
  return patch;
}

// What the image or packet holds at the site of |patch| (validated).
static uint64_t rl_aql_census_site_value(const rl_aql_program_t* program,
                                         const rl_aql_patch_t* patch) {
  if (patch->kind == RL_AQL_PATCH_GRID) {
    const uint8_t* packet = (const uint8_t*)&program->packets[patch->packet];
    return rl_load_le(packet + patch->offset, 4);
  }
  return rl_load_le(program->kernarg + patch->offset, patch->size);
}

// Checks patch |index| against |expected|; the site must lie inside the
// launch's kernarg slice or the packet.
static rl_status_t rl_aql_census_patch(const rl_aql_census_t* base,
                                       uint32_t index,
                                       const rl_aql_patch_t* expected) {
  const rl_aql_program_t* program = base->program;
  const rl_aql_patch_t* patch = &program->patches[index];
  rl_aql_census_t census = *base;
  census.packet = expected->packet;
  const uint32_t slice = program->kernarg_offsets[expected->launch];
  const uint32_t slice_end =
      slice + base->inputs->capture->launches[expected->launch].kernarg_size;
  bool inside = patch->kind == RL_AQL_PATCH_GRID
                    ? patch->offset + (uint64_t)patch->size <=
                          RL_AQL_PACKET_SIZE
                    : patch->offset >= slice &&
                          patch->offset + (uint64_t)patch->size <= slice_end;
  rl_status_t status = rl_aql_census_expect(&census, "patch kind",
                                            expected->kind, patch->kind);
  if (!status) {
    status = rl_aql_census_expect(&census, "patch launch/packet",
                                  ((uint64_t)expected->launch << 32) |
                                      expected->packet,
                                  ((uint64_t)patch->launch << 32) |
                                      patch->packet);
  }
  if (!status) {
    status = rl_aql_census_expect(
        &census, "patch slot/binding/axis",
        ((uint64_t)expected->slot << 32) | ((uint64_t)expected->binding << 2) |
            expected->axis,
        ((uint64_t)patch->slot << 32) | ((uint64_t)patch->binding << 2) |
            patch->axis);
  }
  if (!status) {
    status = rl_aql_census_expect(&census, "patch offset", expected->offset,
                                  patch->offset);
  }
  if (!status) {
    status = rl_aql_census_expect(&census, "patch size", expected->size,
                                  patch->size);
  }
  if (!status) status = rl_aql_census_expect(&census, "patch site inside", 1,
                                             inside);
  if (!status) {
    status = rl_aql_census_expect(&census, "patch current value",
                                  rl_aql_census_site_value(program, patch),
                                  rl_bind_table_current(program->binds,
                                                        index));
  }
  return rl_status_annotate(status, "patch %u", index);
}

// Walks the expected table (per launch: slots, then bindings).
static rl_status_t rl_aql_census_patches(const rl_aql_census_t* census) {
  const rl_capture_t* capture = census->inputs->capture;
  uint32_t index = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    uint32_t sites = launch->slot_count + launch->binding_count;
    for (uint32_t k = 0; k < sites; ++k, ++index) {
      if (index >= census->program->patch_count) {
        return RL_STATUS(RL_STATUS_PREPARE,
                         "AQL census: %u patches, but launch %u needs more",
                         census->program->patch_count, l);
      }
      bool slot = k < launch->slot_count;
      rl_aql_patch_t expected = rl_aql_census_expected_patch(
          census, l, slot ? k : UINT32_MAX,
          slot ? UINT32_MAX : k - launch->slot_count);
      RL_RETURN_IF_ERROR(rl_aql_census_patch(census, index, &expected));
    }
  }
  if (index != census->program->patch_count) {
    return RL_STATUS(RL_STATUS_PREPARE,
                     "AQL census: %u patches, expected %u (one per pointer "
                     "slot and binding)",
                     census->program->patch_count, index);
  }
  return RL_OK;
}

rl_status_t rl_aql_program_check(const rl_aql_program_t* program,
                                 const rl_aql_lower_inputs_t* inputs) {
  if (!program || !inputs || !inputs->capture || !inputs->plan ||
      !inputs->kernel_objects) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "AQL census needs a program and its lowering inputs");
  }
  // Test-only (base/test_fault.h): lets a lowering fault reach the
  // device, to prove the dynamic hazard checker catches it on its own.
  if (rl_test_fault("no-census", 0)) return RL_OK;
  const rl_capture_t* capture = inputs->capture;
  if (program->packet_count != capture->launch_count ||
      inputs->plan->launch_count != capture->launch_count ||
      program->packet_count == 0) {
    return RL_STATUS(RL_STATUS_PREPARE,
                     "AQL census: %u packets, plan of %u, expected %u (one "
                     "per launch)",
                     program->packet_count, inputs->plan->launch_count,
                     capture->launch_count);
  }
  if (program->kernarg_size != rl_aql_kernarg_segment_size(capture)) {
    return RL_STATUS(RL_STATUS_PREPARE,
                     "AQL census: kernarg segment of %u bytes, expected %u",
                     program->kernarg_size,
                     rl_aql_kernarg_segment_size(capture));
  }
  rl_aql_census_t census = {.program = program, .inputs = inputs};
  RL_RETURN_IF_ERROR(rl_aql_census_packets(&census));
  return rl_aql_census_patches(&census);
}
