// Lowering a capture into one PM4 stream (one IB or a chain) and its vendor
// AQL packet
// (pm4/pm4_lower.h): validate (pm4_layout.c) → plan (measure the IB) →
// reserve (the program) → emit (kernarg image, dispatch images, IB, patch
// table, vendor packet).
#include "pm4/pm4_lower.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "capture/bind/launch_bind.h"
#include "pm4/pm4_lower_internal.h"

// The INDIRECT_BUFFER address is dword aligned and 48 bits wide
// (pm4_reference.md §1.3, §4.4).
#define RL_PM4_IB_ALIGN 4u
#define RL_PM4_IB_ADDRESS_LIMIT (1ull << 48)

uint32_t rl_pm4_kernarg_segment_size(const rl_capture_t* capture) {
  uint32_t size = 0;
  if (!capture || capture->launch_count == 0) return 0;
  return rl_pm4_segment_layout(capture, NULL, NULL, NULL, &size) ? size : 0;
}

// The emitter's options for |options| (NULL: retention on, the hardware's
// IB limit), or RL_STATUS_INVALID_ARGUMENT for an IB limit outside
// RL_PM4_IB_MIN_DWORDS..RL_PM4_IB_MAX_DWORDS.
static rl_status_t rl_pm4_emit_options(const rl_pm4_lower_options_t* options,
                                       rl_pm4_emit_options_t* out_options) {
  *out_options = (rl_pm4_emit_options_t){
      .retain = options ? options->retain : true,
      .ib_max_dwords = RL_PM4_IB_MAX_DWORDS};
  uint32_t limit = options ? options->ib_max_dwords : 0;
  if (limit == 0) return RL_OK;
  if (limit < RL_PM4_IB_MIN_DWORDS || limit > RL_PM4_IB_MAX_DWORDS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "IB limit of %u dwords: expected %u..%u", limit,
                     RL_PM4_IB_MIN_DWORDS, RL_PM4_IB_MAX_DWORDS);
  }
  out_options->ib_max_dwords = limit;
  return RL_OK;
}

// Plans the stream of a validated |layout|: its exact size, every IB of
// the chain.
static rl_status_t rl_pm4_lower_plan(const rl_pm4_layout_t* layout,
                                     const rl_pm4_emit_options_t* options,
                                     uint32_t* out_dwords) {
  rl_pm4_stats_t stats;
  *out_dwords = 0;
  RL_RETURN_IF_ERROR(rl_pm4_emit_program(layout, options, NULL, NULL, NULL,
                                         &stats));
  *out_dwords = stats.dwords;
  return RL_OK;
}

static rl_status_t rl_pm4_lower_check_addresses(
    const rl_pm4_lower_inputs_t* inputs) {
  if (inputs->completion_signal == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "PM4 lowering needs a completion signal");
  }
  if (inputs->ib_address == 0 || inputs->ib_address % RL_PM4_IB_ALIGN != 0 ||
      inputs->ib_address >= RL_PM4_IB_ADDRESS_LIMIT) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "IB at 0x%llx: expected a nonzero dword-aligned "
                     "address below 2^48",
                     (unsigned long long)inputs->ib_address);
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Reserve
//===----------------------------------------------------------------------===//

// Patch sites of launch |index| (pm4_lower.h: slots, bindings, and a
// GRID_SIZE site per grid binding of a launch with a dispatch image).
static uint32_t rl_pm4_launch_patch_count(const rl_pm4_layout_t* layout,
                                          uint32_t index) {
  const rl_capture_launch_t* launch =
      &layout->inputs->capture->launches[index];
  uint32_t count = launch->slot_count + launch->binding_count;
  if (layout->image_offsets[index] == RL_PM4_NO_IMAGE) return count;
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    count += launch->bindings[b].target == RL_BINDING_GRID;
  }
  return count;
}

static rl_status_t rl_pm4_program_allocate(const rl_pm4_layout_t* layout,
                                           uint32_t dwords,
                                           rl_pm4_program_t** out_program) {
  const rl_capture_t* capture = layout->inputs->capture;
  uint64_t patches = 0;
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    patches += rl_pm4_launch_patch_count(layout, i);
  }
  if (patches > UINT32_MAX / 2) {
    return RL_STATUS(RL_STATUS_CONTRACT, "%llu patch sites do not fit",
                     (unsigned long long)patches);
  }
  rl_pm4_program_t* p = calloc(1, sizeof(*p));
  if (!p) return rl_status_out_of_memory();
  const size_t launches = capture->launch_count;
  p->dword_count = dwords;
  p->patch_count = (uint32_t)patches;
  p->kernarg_size = layout->kernarg_size;
  p->dwords = calloc(dwords + 1u, sizeof(*p->dwords));
  p->dispatch_offsets = calloc(launches, sizeof(*p->dispatch_offsets));
  p->kernarg = calloc(p->kernarg_size + 1u, 1);
  p->kernarg_offsets = calloc(launches, sizeof(*p->kernarg_offsets));
  p->image_offsets = calloc(launches, sizeof(*p->image_offsets));
  p->patches = calloc(p->patch_count + 1u, sizeof(*p->patches));
  p->relay_count = layout->relay_count;
  p->relay = calloc(p->relay_count + 1u, 8);
  rl_status_t status = rl_bind_table_create(capture, &p->binds);
  if (status || !p->dwords || !p->dispatch_offsets || !p->kernarg ||
      !p->kernarg_offsets || !p->image_offsets || !p->patches || !p->relay) {
    rl_status_free(status);
    rl_pm4_program_destroy(p);
    return rl_status_out_of_memory();
  }
  *out_program = p;
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Emit
//===----------------------------------------------------------------------===//

// Kernarg slices and dispatch images at the initial values; the bound
// work-group counts go to |grids| (3 per launch).
static rl_status_t rl_pm4_lower_bind(const rl_pm4_layout_t* layout,
                                     rl_pm4_program_t* program,
                                     uint32_t* grids) {
  const rl_pm4_lower_inputs_t* in = layout->inputs;
  const rl_capture_t* capture = in->capture;
  memcpy(program->kernarg_offsets, layout->kernarg_offsets,
         capture->launch_count * sizeof(uint32_t));
  memcpy(program->image_offsets, layout->image_offsets,
         capture->launch_count * sizeof(uint32_t));
  program->image_count = layout->image_count;
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    uint32_t* grid = grids + 3 * i;
    RL_RETURN_IF_ERROR(rl_launch_bind(capture, i, in->param_values,
                                      in->buffer_addresses,
                                      program->kernarg +
                                          layout->kernarg_offsets[i],
                                      grid));
    if (layout->image_offsets[i] != RL_PM4_NO_IMAGE) {
      rl_aql_dispatch_packet_t image;
      rl_pm4_dispatch_image(layout, i, grid, &image);
      memcpy(program->kernarg + layout->image_offsets[i], &image,
             sizeof(image));
    }
  }
  return RL_OK;
}

// Appends |patch| to the patch table and its site, holding what lowering
// wrote there, to the bind table.
static rl_status_t rl_pm4_patch_add(const rl_capture_t* capture,
                                    rl_pm4_program_t* program,
                                    const rl_pm4_patch_t* patch,
                                    uint32_t* next) {
  program->patches[(*next)++] = *patch;
  const rl_capture_launch_t* launch = &capture->launches[patch->launch];
  switch (patch->kind) {
    case RL_PM4_PATCH_GRID_DIM:
      return rl_bind_table_add(program->binds, RL_BIND_SITE_GRID,
                               patch->launch, patch->binding, RL_PM4_DEST_IB,
                               4 * patch->offset, 4, 1,
                               program->dwords[patch->offset]);
    case RL_PM4_PATCH_GRID_SIZE:
      return rl_bind_table_add(
          program->binds, RL_BIND_SITE_GRID, patch->launch, patch->binding,
          RL_PM4_DEST_KERNARG, patch->offset, 4,
          launch->block[patch->axis < 3 ? patch->axis : 0],
          rl_launch_load_le(program->kernarg + patch->offset, 4));
    case RL_PM4_PATCH_POINTER:
      return rl_bind_table_add(
          program->binds, RL_BIND_SITE_POINTER, patch->launch, patch->slot,
          RL_PM4_DEST_KERNARG, patch->offset, 8, 1,
          rl_launch_load_le(program->kernarg + patch->offset, 8));
    case RL_PM4_PATCH_KERNARG:
      return rl_bind_table_add(
          program->binds, RL_BIND_SITE_KERNARG, patch->launch, patch->binding,
          RL_PM4_DEST_KERNARG, patch->offset, (uint8_t)patch->size, 1,
          rl_launch_load_le(program->kernarg + patch->offset, patch->size));
  }
  return RL_STATUS(RL_STATUS_INTERNAL, "patch kind %u", (unsigned)patch->kind);
}

// Relays the kernarg site just added for |patch| to relay slot |slot|
// (pm4_lower.h Relay): the slot image takes the value the site holds.
static rl_status_t rl_pm4_patch_relay(rl_pm4_program_t* program,
                                      const rl_pm4_patch_t* patch,
                                      uint32_t slot) {
  memcpy(program->relay + 8ull * slot, program->kernarg + patch->offset,
         patch->size);
  return rl_bind_table_relay(program->binds, program->binds->site_count - 1,
                             RL_PM4_DEST_RELAY, 8 * slot);
}

// Appends the patch sites of launch |index| (pm4_lower.h order).
static rl_status_t rl_pm4_lower_patches(const rl_pm4_layout_t* layout,
                                        rl_pm4_program_t* program,
                                        uint32_t index, uint32_t* next) {
  const rl_capture_t* capture = layout->inputs->capture;
  const rl_capture_launch_t* launch = &capture->launches[index];
  const uint32_t base = program->kernarg_offsets[index];
  const uint32_t image = program->image_offsets[index];
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    const rl_pm4_patch_t patch = {
        .kind = RL_PM4_PATCH_POINTER, .launch = index, .slot = s, .size = 8,
        .offset = base + launch->slots[s].kernarg_offset};
    RL_RETURN_IF_ERROR(rl_pm4_patch_add(capture, program, &patch, next));
  }
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    const rl_scalar_binding_t* binding = &launch->bindings[b];
    rl_pm4_patch_t patch = {.launch = index, .binding = b, .size = 4};
    if (binding->target == RL_BINDING_POINTER_OFFSET) {
      // The slot's 8 bytes, a bound pointer site of the bind table
      // (capture/bind/bind_table.h) like the slot's own patch above.
      patch.kind = RL_PM4_PATCH_POINTER;
      patch.slot = binding->offset;
      patch.size = 8;
      patch.offset = base + launch->slots[binding->offset].kernarg_offset;
      RL_RETURN_IF_ERROR(rl_pm4_patch_add(capture, program, &patch, next));
      continue;
    }
    if (binding->target != RL_BINDING_GRID) {
      patch.kind = RL_PM4_PATCH_KERNARG;
      patch.offset = base + binding->offset;
      patch.size = binding->size;
      RL_RETURN_IF_ERROR(rl_pm4_patch_add(capture, program, &patch, next));
      const uint32_t slot = rl_pm4_relay_slot(layout, index, b);
      if (slot != RL_PM4_RELAY_NONE) {
        RL_RETURN_IF_ERROR(rl_pm4_patch_relay(program, &patch, slot));
      }
      continue;
    }
    patch.kind = RL_PM4_PATCH_GRID_DIM;
    patch.axis = binding->offset;
    patch.offset = program->dispatch_offsets[index] + 1 + binding->offset;
    RL_RETURN_IF_ERROR(rl_pm4_patch_add(capture, program, &patch, next));
    if (image == RL_PM4_NO_IMAGE) continue;
    patch.kind = RL_PM4_PATCH_GRID_SIZE;
    patch.offset = image + (uint32_t)offsetof(rl_aql_dispatch_packet_t,
                                              grid_size_x) +
                   4 * binding->offset;
    RL_RETURN_IF_ERROR(rl_pm4_patch_add(capture, program, &patch, next));
  }
  return RL_OK;
}

// The vendor packet: an INDIRECT_BUFFER to the IB (ROCR ExecutePM4), with
// the barrier bit and system scopes (CLR's 0x1500 vendor header).
static rl_status_t rl_pm4_lower_packet(const rl_pm4_lower_inputs_t* in,
                                       rl_pm4_program_t* program) {
  rl_aql_pm4_ib_packet_t* packet = &program->packet;
  memset(packet, 0, sizeof(*packet));
  rl_pm4_builder_t jump;
  rl_pm4_builder_init(&jump, program->family, packet->ib_jump_cmd, 4);
  if (!rl_pm4_emit_indirect_buffer(&jump, in->ib_address,
                                   program->stats.entry_dwords, false,
                                   NULL) ||
      jump.count != 4) {
    return RL_STATUS(RL_STATUS_INTERNAL,
                     "INDIRECT_BUFFER to 0x%llx of %u dwords refused",
                     (unsigned long long)in->ib_address,
                     program->stats.entry_dwords);
  }
  packet->header =
      rl_aql_header(RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC, 1,
                    RL_AQL_FENCE_SCOPE_SYSTEM, RL_AQL_FENCE_SCOPE_SYSTEM);
  packet->vendor_format = RL_AQL_VENDOR_FORMAT_PM4_IB;
  packet->dw_cnt_remain = RL_PM4_VENDOR_DW_CNT_REMAIN;
  packet->completion_signal = in->completion_signal;
  return RL_OK;
}

static rl_status_t rl_pm4_lower_emit(const rl_pm4_layout_t* layout,
                                     rl_pm4_program_t* program,
                                     uint32_t* grids) {
  RL_RETURN_IF_ERROR(rl_pm4_lower_bind(layout, program, grids));
  rl_pm4_builder_t builder;
  rl_pm4_builder_init(&builder, layout->family, program->dwords,
                      program->dword_count);
  const rl_pm4_emit_options_t options = {
      .retain = program->retain, .ib_max_dwords = program->ib_max_dwords};
  RL_RETURN_IF_ERROR(rl_pm4_emit_program(layout, &options, grids,
                                         &builder, program->dispatch_offsets,
                                         &program->stats));
  if (program->stats.dwords != program->dword_count) {
    return RL_STATUS(RL_STATUS_INTERNAL, "IB of %u dwords, measured %u",
                     program->stats.dwords, program->dword_count);
  }
  uint32_t next = 0;
  for (uint32_t i = 0; i < layout->inputs->capture->launch_count; ++i) {
    RL_RETURN_IF_ERROR(rl_pm4_lower_patches(layout, program, i, &next));
  }
  RL_RETURN_IF_ERROR(
      rl_bind_table_finish(program->binds, layout->inputs->param_values));
  program->stats.patch_sites = program->patch_count;
  return rl_pm4_lower_packet(layout->inputs, program);
}

static rl_status_t rl_pm4_lower_layout(const rl_pm4_layout_t* layout,
                                       const rl_pm4_emit_options_t* options,
                                       rl_pm4_program_t** out_program) {
  uint32_t dwords = 0;
  RL_RETURN_IF_ERROR(rl_pm4_lower_check_addresses(layout->inputs));
  RL_RETURN_IF_ERROR(rl_pm4_lower_plan(layout, options, &dwords));
  rl_pm4_program_t* program = NULL;
  RL_RETURN_IF_ERROR(rl_pm4_program_allocate(layout, dwords, &program));
  program->family = layout->family;
  program->retain = options->retain;
  program->ib_max_dwords = options->ib_max_dwords;
  uint32_t* grids =
      calloc(3u * layout->inputs->capture->launch_count, sizeof(uint32_t));
  rl_status_t status = grids ? rl_pm4_lower_emit(layout, program, grids)
                             : rl_status_out_of_memory();
  free(grids);
  if (status) {
    rl_pm4_program_destroy(program);
    return rl_status_annotate(status, "PM4 lowering (internal)");
  }
  *out_program = program;
  return RL_OK;
}

// Lays |inputs| out under |options|, then lowers them into |out_program|,
// or, when |out_program| is NULL, only plans them: the IB's dword count in
// |out_ib_dwords|. Measuring and lowering share this one path, so the two
// cannot disagree on the options or the layout.
static rl_status_t rl_pm4_lower_run(const rl_pm4_lower_inputs_t* inputs,
                                    const rl_pm4_lower_options_t* options,
                                    uint32_t* out_ib_dwords,
                                    rl_pm4_program_t** out_program) {
  rl_pm4_emit_options_t emit;
  RL_RETURN_IF_ERROR(rl_pm4_emit_options(options, &emit));
  rl_pm4_layout_t layout;
  rl_status_t status = rl_pm4_layout_init(inputs, &layout);
  if (!status) {
    status = out_program ? rl_pm4_lower_layout(&layout, &emit, out_program)
                         : rl_pm4_lower_plan(&layout, &emit, out_ib_dwords);
  }
  rl_pm4_layout_deinit(&layout);
  return status;
}

rl_status_t rl_pm4_lower_measure(const rl_pm4_lower_inputs_t* inputs,
                                 const rl_pm4_lower_options_t* options,
                                 uint32_t* out_ib_dwords) {
  *out_ib_dwords = 0;
  return rl_pm4_lower_run(inputs, options, out_ib_dwords, NULL);
}

rl_status_t rl_pm4_lower(const rl_pm4_lower_inputs_t* inputs,
                         const rl_pm4_lower_options_t* options,
                         rl_pm4_program_t** out_program) {
  *out_program = NULL;
  return rl_pm4_lower_run(inputs, options, NULL, out_program);
}

void rl_pm4_program_destroy(rl_pm4_program_t* program) {
  if (!program) return;
  free(program->dwords);
  free(program->dispatch_offsets);
  free(program->kernarg);
  free(program->kernarg_offsets);
  free(program->image_offsets);
  free(program->patches);
  free(program->relay);
  rl_bind_table_destroy(program->binds);
  free(program);
}
