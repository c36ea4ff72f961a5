// Spellings of the capture model's enumerations, shared by the file-format
// docs, `redline inspect` and every JSON report, and the capture-incomplete
// refusal replay and shadow give.
#include <stdio.h>
#include <string.h>

#include "redline/capture.h"

static const char* const rl_buffer_role_names[RL_BUFFER_ROLE_COUNT_] = {
    "weights", "state", "scratch", "io", "workspace"};
static const char* const rl_effect_source_names[RL_EFFECT_SOURCE_COUNT_] = {
    "declared", "metadata", "unknown", "observed"};
static const char* const rl_region_type_names[RL_REGION_TYPE_COUNT_] = {
    "bytes", "u32", "i32", "f32", "f16", "bf16"};

static const char* rl_name_or_invalid(const char* const* names, unsigned count,
                                      unsigned value) {
  return value < count ? names[value] : "invalid";
}

static bool rl_name_parse(const char* const* names, unsigned count,
                          const char* name, unsigned* out_value) {
  for (unsigned i = 0; name && i < count; ++i) {
    if (strcmp(names[i], name) == 0) {
      *out_value = i;
      return true;
    }
  }
  return false;
}

const char* rl_buffer_role_name(rl_buffer_role_t role) {
  return rl_name_or_invalid(rl_buffer_role_names, RL_BUFFER_ROLE_COUNT_,
                            (unsigned)role);
}

bool rl_buffer_role_parse(const char* name, rl_buffer_role_t* out_role) {
  unsigned value = 0;
  if (!out_role ||
      !rl_name_parse(rl_buffer_role_names, RL_BUFFER_ROLE_COUNT_, name, &value))
    return false;
  *out_role = (rl_buffer_role_t)value;
  return true;
}

const char* rl_effect_source_name(rl_effect_source_t source) {
  return rl_name_or_invalid(rl_effect_source_names, RL_EFFECT_SOURCE_COUNT_,
                            (unsigned)source);
}

const char* rl_region_type_name(rl_region_type_t type) {
  return rl_name_or_invalid(rl_region_type_names, RL_REGION_TYPE_COUNT_,
                            (unsigned)type);
}

bool rl_region_type_parse(const char* name, rl_region_type_t* out_type) {
  unsigned value = 0;
  if (!out_type ||
      !rl_name_parse(rl_region_type_names, RL_REGION_TYPE_COUNT_, name, &value))
    return false;
  *out_type = (rl_region_type_t)value;
  return true;
}

rl_status_t rl_capture_incomplete_status(const rl_capture_t* capture) {
  if (capture == NULL) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "capture incomplete status: a capture is required");
  }
  if (!rl_capture_incomplete(capture)) return RL_OK;
  const char* reason = capture->incomplete_reason
                           ? capture->incomplete_reason
                           : "no reason recorded";
  if (capture->bypassed_launches == 0) {
    return RL_STATUS(RL_STATUS_CONTRACT, "capture incomplete: %s", reason);
  }
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "capture incomplete: %u launch%s bypassed (%s)",
                   capture->bypassed_launches,
                   capture->bypassed_launches == 1 ? "" : "es", reason);
}
