// The census of a PM4 program's patch table (rl_pm4_census_patch_table in
// pm4/pm4_lower_internal.h): the table must list, per launch in order, its
// pointer slots, then its bindings (a grid binding: its DISPATCH_DIRECT
// dim, then its dispatch image's grid size when the launch has an image),
// each site inside its launch's kernarg slice, image or the IB and holding
// the value its bind-table site holds (capture/bind/bind_table.h); a relayed
// site relayed to its binding's slot, and the slot holding the value.
#include <stddef.h>
#include <stdio.h>

#include "capture/bind/launch_bind.h"
#include "pm4/pm4_lower_internal.h"

typedef struct rl_pm4_patch_census_s {
  const rl_pm4_program_t* program;
  const rl_pm4_layout_t* layout;
  uint32_t next;  // index of the next patch to check
} rl_pm4_patch_census_t;

// Whether the site of |patch| lies inside its launch's slice, its image or
// the IB; its value there.
static bool rl_pm4_patch_site(const rl_pm4_patch_census_t* census,
                              const rl_pm4_patch_t* patch,
                              uint64_t* out_value) {
  const rl_pm4_program_t* program = census->program;
  const uint32_t l = patch->launch;
  const uint64_t end = (uint64_t)patch->offset + patch->size;
  uint64_t lo = census->layout->kernarg_offsets[l];
  uint64_t hi = lo + census->layout->inputs->capture->launches[l].kernarg_size;
  if (patch->kind == RL_PM4_PATCH_GRID_DIM) {
    if (patch->offset >= program->dword_count) return false;
    *out_value = program->dwords[patch->offset];
    return true;
  }
  if (patch->kind == RL_PM4_PATCH_GRID_SIZE) {
    lo = census->layout->image_offsets[l];
    hi = lo + RL_AQL_PACKET_SIZE;
  }
  if (patch->offset < lo || end > hi || end > program->kernarg_size) {
    return false;
  }
  *out_value = rl_launch_load_le(program->kernarg + patch->offset, patch->size);
  // A relayed site (pm4_lower.h Relay): what it will hold is its slot's.
  const uint32_t slot =
      patch->kind == RL_PM4_PATCH_KERNARG
          ? rl_pm4_relay_slot(census->layout, l, patch->binding)
          : RL_PM4_RELAY_NONE;
  if (census->next - 1 >= program->binds->site_count) return false;
  const rl_bind_site_t* site = &program->binds->sites[census->next - 1];
  if (site->relayed != (slot != RL_PM4_RELAY_NONE) ||
      (site->relayed && (site->relay_dest != RL_PM4_DEST_RELAY ||
                         site->relay_offset != 8 * slot ||
                         slot >= program->relay_count))) {
    return false;
  }
  if (site->relayed) {
    *out_value = rl_launch_load_le(program->relay + 8ull * slot, patch->size);
  }
  return true;
}

static bool rl_pm4_patch_same(const rl_pm4_patch_t* a,
                              const rl_pm4_patch_t* b) {
  return a->kind == b->kind && a->launch == b->launch && a->axis == b->axis &&
         a->offset == b->offset && a->size == b->size &&
         a->binding == b->binding && a->slot == b->slot;
}

// Checks the next patch of the table against |expected|.
static rl_status_t rl_pm4_patch_expect(rl_pm4_patch_census_t* census,
                                       const rl_pm4_patch_t* expected) {
  const rl_pm4_program_t* program = census->program;
  const uint32_t index = census->next++;
  if (index >= program->patch_count) {
    return RL_STATUS(RL_STATUS_PREPARE,
                     "PM4 census: %u patches, but launch %u needs more",
                     program->patch_count, expected->launch);
  }
  const rl_pm4_patch_t* patch = &program->patches[index];
  uint64_t value = 0;
  bool same = rl_pm4_patch_same(patch, expected);
  bool inside = same && rl_pm4_patch_site(census, patch, &value);
  const uint64_t current = rl_bind_table_current(program->binds, index);
  if (same && inside && value == current) return RL_OK;
  const rl_capture_t* capture = census->layout->inputs->capture;
  char where[48] = "";
  if (expected->kind == RL_PM4_PATCH_GRID_DIM) {
    snprintf(where, sizeof(where), " at IB dword %u (0x%x)", expected->offset,
             expected->offset);
  }
  return RL_STATUS(
      RL_STATUS_PREPARE,
      "PM4 census: patch %u (launch %u, %s)%s: %s (kind %u offset %u size "
      "%u, expected kind %u offset %u size %u; current 0x%llx, site 0x%llx)",
      index, expected->launch,
      capture->kernels[capture->launches[expected->launch].kernel].name,
      where,
      !same ? "not the expected site"
            : !inside ? "site outside its slice, image or the IB, or not "
                        "relayed as the layout says"
                      : "current value differs from the site",
      (unsigned)patch->kind, patch->offset, patch->size,
      (unsigned)expected->kind, expected->offset, expected->size,
      (unsigned long long)current, (unsigned long long)value);
}

// The sites of binding |b| of launch |l|.
static rl_status_t rl_pm4_patch_binding(rl_pm4_patch_census_t* census,
                                        uint32_t l, uint32_t b) {
  const rl_pm4_layout_t* layout = census->layout;
  const rl_scalar_binding_t* binding =
      &layout->inputs->capture->launches[l].bindings[b];
  rl_pm4_patch_t patch = {.launch = l, .binding = b, .size = 4};
  if (binding->target == RL_BINDING_POINTER_OFFSET) {
    const rl_capture_launch_t* launch = &layout->inputs->capture->launches[l];
    patch.kind = RL_PM4_PATCH_POINTER;
    patch.slot = binding->offset;
    patch.size = 8;
    patch.offset = layout->kernarg_offsets[l] +
                   launch->slots[binding->offset].kernarg_offset;
    return rl_pm4_patch_expect(census, &patch);
  }
  if (binding->target != RL_BINDING_GRID) {
    patch.kind = RL_PM4_PATCH_KERNARG;
    patch.offset = layout->kernarg_offsets[l] + binding->offset;
    patch.size = binding->size;
    return rl_pm4_patch_expect(census, &patch);
  }
  patch.kind = RL_PM4_PATCH_GRID_DIM;
  patch.axis = binding->offset;
  patch.offset = census->program->dispatch_offsets[l] + 1 + binding->offset;
  RL_RETURN_IF_ERROR(rl_pm4_patch_expect(census, &patch));
  if (layout->image_offsets[l] == RL_PM4_NO_IMAGE) return RL_OK;
  patch.kind = RL_PM4_PATCH_GRID_SIZE;
  patch.offset = layout->image_offsets[l] +
                 (uint32_t)offsetof(rl_aql_dispatch_packet_t, grid_size_x) +
                 4 * binding->offset;
  return rl_pm4_patch_expect(census, &patch);
}

rl_status_t rl_pm4_census_patch_table(const rl_pm4_program_t* program,
                                      const rl_pm4_layout_t* layout) {
  rl_pm4_patch_census_t census = {.program = program, .layout = layout};
  const rl_capture_t* capture = layout->inputs->capture;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      const rl_pm4_patch_t patch = {
          .kind = RL_PM4_PATCH_POINTER, .launch = l, .slot = s, .size = 8,
          .offset = layout->kernarg_offsets[l] + launch->slots[s].kernarg_offset};
      RL_RETURN_IF_ERROR(rl_pm4_patch_expect(&census, &patch));
    }
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      RL_RETURN_IF_ERROR(rl_pm4_patch_binding(&census, l, b));
    }
  }
  if (census.next != program->patch_count) {
    return RL_STATUS(RL_STATUS_PREPARE, "PM4 census: %u patches, expected %u",
                     program->patch_count, census.next);
  }
  return RL_OK;
}
