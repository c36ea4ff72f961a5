// The shadow run's checks before any arm is created
// (shadow/shadow_run_internal.h): the options against the capture, and the
// budgets of redline/limits.h over all arms.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shadow/shadow_arm.h"
#include "shadow/shadow_run_internal.h"

// The arm the negative control corrupts: pm4, else the last retained or HIP
// arm.
static bool rl_shadow_flip_arm(const rl_shadow_options_t* options,
                               uint32_t* out_arm) {
  bool found = false;
  for (uint32_t a = 0; a < options->arm_count; ++a) {
    if (rl_shadow_arm_kind_ib_reference(options->arms[a])) {
      *out_arm = a;
      return true;
    }
    if (rl_shadow_arm_kind_retained(options->arms[a]) ||
        rl_shadow_arm_kind_hip(options->arms[a])) {
      *out_arm = a;
      found = true;
    }
  }
  return found;
}

// The budgets of redline/limits.h, before any arm allocates: every arm
// holds its own copy of the buffers and code objects.
rl_status_t rl_shadow_check_budgets(const rl_capture_t* capture,
                                    const rl_shadow_options_t* options) {
  const rl_limits_t limits = rl_limits_for_capture(&options->limits, capture);
  uint64_t per_arm = rl_limits_capture_device_bytes(capture, 0);
  uint64_t arms = options->arm_count ? options->arm_count : 1;
  uint64_t total = per_arm > UINT64_MAX / arms ? UINT64_MAX : per_arm * arms;
  return rl_status_annotate(rl_limits_check_capture(capture, &limits, total),
                            "shadow of %u arms", options->arm_count);
}

rl_status_t rl_shadow_check_options(const rl_capture_t* capture,
                                           const rl_shadow_options_t* options,
                                           rl_shadow_result_t* result) {
  if (options->arm_count == 0 || options->arm_count > RL_SHADOW_MAX_ARMS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "%u arms (1..%u)",
                     options->arm_count, RL_SHADOW_MAX_ARMS);
  }
  if (options->arm_jobs > RL_SHADOW_MAX_ARMS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "%u arm jobs (1..%u)",
                     options->arm_jobs, RL_SHADOW_MAX_ARMS);
  }
  const char* kind = options->device.kind;
  if (kind && strcmp(kind, "sim") != 0 && strcmp(kind, "rocr") != 0 &&
      strcmp(kind, "drm") != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "device '%s': expected sim, rocr or drm", kind);
  }
  for (uint32_t a = 0; a < options->arm_count; ++a) {
    if ((unsigned)options->arms[a] >= RL_SHADOW_ARM_KIND_COUNT_) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "arm kind %u",
                       (unsigned)options->arms[a]);
    }
    if (!rl_shadow_arm_device_supported(options->arms[a], kind)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "arm %s cannot run on device %s (it has no AQL queue; "
                       "on drm run the arms drm, hip, hipgraph)",
                       rl_shadow_arm_kind_name(options->arms[a]), kind);
    }
  }
  rl_oracle_mode_t oracle_mode;
  if (options->oracle && !rl_oracle_mode_parse(options->oracle, &oracle_mode)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "oracle '%s': expected sample, full or off",
                     options->oracle);
  }
  if (options->bind_count > RL_SHADOW_MAX_BINDS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "%u binds (at most %u)",
                     options->bind_count, RL_SHADOW_MAX_BINDS);
  }
  for (uint32_t i = 0; i < options->bind_count; ++i) {
    if (options->binds[i].buffer >= capture->buffer_count ||
        options->binds[i].size == 0) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "bind %u: buffer %u of %u, size %" PRIu64, i,
                       options->binds[i].buffer, capture->buffer_count,
                       options->binds[i].size);
    }
  }
  if (options->flip) {
    if (options->flip_region >= capture->region_count) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "flip: region %u of %u",
                       options->flip_region, capture->region_count);
    }
    const rl_capture_region_t* region = &capture->regions[options->flip_region];
    if (options->flip_offset >= region->size) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "flip: offset %" PRIu64 " is outside region %s "
                       "(%" PRIu64 " bytes)",
                       options->flip_offset, region->name, region->size);
    }
    if (!rl_shadow_flip_arm(options, &result->flip_arm)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "flip: needs a retained or HIP arm (aql, pm4, drm, hip, hipgraph)");
    }
  }
  return rl_shadow_window_resolve(capture, options->limits.max_windows,
                                  options->has_window, &options->window,
                                  &result->param, &result->window);
}
