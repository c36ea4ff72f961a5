// pm4/pm4_family.c — processor → family selection and table lookups.
#include <stddef.h>
#include <string.h>

#include "pm4/pm4_family_internal.h"
#include "pm4/pm4_packet.h"

typedef struct rl_pm4_processor_s {
  const char* processor;
  const rl_pm4_family_t* family;
} rl_pm4_processor_t;

// The processors each family covers. gfx11: RDNA3 gfx1100..gfx1103 and
// RDNA3.5 gfx1150..gfx1152 (LLVM AMDGPUUsage.rst processor table, family
// GFX11); gfx12: RDNA4 gfx1200, gfx1201 (family GFX12).
static const rl_pm4_processor_t rl_pm4_processors[] = {
    {"gfx1100", &rl_pm4_family_gfx11}, {"gfx1101", &rl_pm4_family_gfx11},
    {"gfx1102", &rl_pm4_family_gfx11}, {"gfx1103", &rl_pm4_family_gfx11},
    {"gfx1150", &rl_pm4_family_gfx11}, {"gfx1151", &rl_pm4_family_gfx11},
    {"gfx1152", &rl_pm4_family_gfx11}, {"gfx1200", &rl_pm4_family_gfx12},
    {"gfx1201", &rl_pm4_family_gfx12},
};

rl_status_t rl_pm4_family_for_processor(const char* processor,
                                        const rl_pm4_family_t** out_family) {
  *out_family = NULL;
  if (!processor) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "no processor given");
  }
  for (size_t i = 0; i < RL_PM4_COUNT_OF(rl_pm4_processors); ++i) {
    if (strcmp(processor, rl_pm4_processors[i].processor) == 0) {
      *out_family = rl_pm4_processors[i].family;
      return RL_OK;
    }
  }
  return RL_STATUS(RL_STATUS_UNSUPPORTED,
                   "processor '%s' has no PM4 family table; expected one of "
                   "gfx1100..gfx1103, gfx1150..gfx1152 (gfx11), gfx1200, "
                   "gfx1201 (gfx12)",
                   processor);
}

const rl_pm4_register_t* rl_pm4_family_register(const rl_pm4_family_t* family,
                                                uint32_t index) {
  if (!family) return NULL;
  uint32_t low = 0, high = family->register_count;
  while (low < high) {  // binary search: the table is sorted by index
    uint32_t mid = low + (high - low) / 2;
    uint32_t at = family->registers[mid].index;
    if (at == index) return &family->registers[mid];
    if (at < index) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return NULL;
}

const rl_pm4_register_t* rl_pm4_family_register_named(
    const rl_pm4_family_t* family, const char* name) {
  if (!family || !name) return NULL;
  for (uint32_t i = 0; i < family->register_count; ++i) {
    if (strcmp(family->registers[i].name, name) == 0) {
      return &family->registers[i];
    }
  }
  return NULL;
}

bool rl_pm4_register_field(const rl_pm4_register_t* reg, const char* field_name,
                           uint32_t value, uint32_t* out_field) {
  *out_field = 0;
  if (!reg || !field_name) return false;
  for (uint32_t i = 0; i < reg->field_count; ++i) {
    const rl_pm4_field_t* field = &reg->fields[i];
    if (strcmp(field->name, field_name) == 0) {
      *out_field = rl_pm4_bits_get(value, field->shift, field->width);
      return true;
    }
  }
  return false;
}
