// pm4/pm4_scratch.c — the scratch ring of a capture on route pm4
// (rl_pm4_scratch_layout, pm4/pm4_lower.h; docs/pm4-scratch.md).
#include "pm4/pm4_lower.h"

// A kernel needs scratch when it has a fixed private size, a dynamic
// stack or COMPUTE_PGM_RSRC2.SCRATCH_EN (ENABLE_PRIVATE_SEGMENT) — the
// simulator's rule (sim/wg/sim_wg.c).
static bool rl_pm4_kernel_needs_scratch(const rl_code_object_kernel_t* k) {
  return k->private_segment_size != 0 || k->uses_dynamic_stack ||
         k->descriptor_info.uses_dynamic_stack ||
         k->descriptor_info.enable_private_segment;
}

rl_status_t rl_pm4_scratch_layout(const rl_capture_t* capture,
                                  rl_pm4_scratch_t* out_scratch) {
  *out_scratch = (rl_pm4_scratch_t){0};
  if (!capture || capture->code_object_count == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "PM4 scratch layout of a capture without code objects");
  }
  const rl_pm4_family_t* family = NULL;
  RL_RETURN_IF_ERROR(rl_pm4_family_for_processor(
      capture->code_objects[0].parsed->processor, &family));
  uint64_t wave_bytes = 0;
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    const rl_capture_kernel_t* kernel =
        &capture->kernels[capture->launches[i].kernel];
    const rl_code_object_kernel_t* info = kernel->info;
    if (!rl_pm4_kernel_needs_scratch(info)) continue;
    if (info->private_segment_size == 0) {
      return RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "kernel %s: enables its private segment (dynamic "
                       "stack: %d) without a fixed size: route pm4 sizes "
                       "scratch from the fixed size",
                       kernel->name,
                       info->uses_dynamic_stack ||
                               info->descriptor_info.uses_dynamic_stack
                           ? 1
                           : 0);
    }
    uint64_t lanes = info->descriptor_info.enable_wavefront_size32 ? 32 : 64;
    uint64_t bytes = lanes * info->private_segment_size;
    bytes = (bytes + RL_PM4_SCRATCH_WAVESIZE_UNIT - 1) /
            RL_PM4_SCRATCH_WAVESIZE_UNIT * RL_PM4_SCRATCH_WAVESIZE_UNIT;
    if (bytes > wave_bytes) wave_bytes = bytes;
  }
  if (wave_bytes == 0) return RL_OK;
  const uint64_t units = wave_bytes / RL_PM4_SCRATCH_WAVESIZE_UNIT;
  const rl_pm4_field_t wavesize = family->field[RL_PM4_FIELD_TMPRING_WAVESIZE];
  if (wavesize.width == 0 || units >= (1ull << wavesize.width)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "%s: a scratch slot of %llu bytes per wave does not fit "
                     "COMPUTE_TMPRING_SIZE.WAVESIZE (%u bits of 256 bytes)",
                     family->name, (unsigned long long)wave_bytes,
                     wavesize.width);
  }
  out_scratch->wave_bytes = (uint32_t)wave_bytes;
  out_scratch->waves = RL_PM4_SCRATCH_WAVES_PER_SE;
  out_scratch->tmpring_size =
      rl_pm4_field_put(family, RL_PM4_FIELD_TMPRING_WAVES,
                       RL_PM4_SCRATCH_WAVES_PER_SE) |
      rl_pm4_field_put(family, RL_PM4_FIELD_TMPRING_WAVESIZE, (uint32_t)units);
  out_scratch->bytes = (uint64_t)RL_PM4_SCRATCH_WAVES_PER_SE *
                       family->regs.static_thread_mgmt_count * wave_bytes;
  return RL_OK;
}
