// Parsing of shadow options given as text (shadow/shadow.h): arm lists and
// windows, shared by `redline shadow`, `bench` and `demo`.
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "shadow/shadow.h"

rl_status_t rl_shadow_arms_parse(const char* text,
                                 rl_shadow_arm_kind_t* out_kinds,
                                 uint32_t* out_count) {
  *out_count = 0;
  const char* cursor = text ? text : "";
  while (*cursor) {
    size_t length = strcspn(cursor, ",");
    char name[32];
    rl_shadow_arm_kind_t kind;
    if (length == 0 || length >= sizeof(name)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "arms: empty or overlong name in '%s'", text);
    }
    memcpy(name, cursor, length);
    name[length] = '\0';
    if (!rl_shadow_arm_kind_parse(name, &kind)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "arms: unknown arm '%s' (eager, recorded, aql, pm4, hip, hipgraph, drm)",
                       name);
    }
    for (uint32_t i = 0; i < *out_count; ++i) {
      if (out_kinds[i] == kind) {
        return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "arms: '%s' twice", name);
      }
    }
    if (*out_count == RL_SHADOW_MAX_ARMS) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "arms: more than %u",
                       RL_SHADOW_MAX_ARMS);
    }
    out_kinds[(*out_count)++] = kind;
    cursor += length;
    if (*cursor == ',') ++cursor;
  }
  if (*out_count == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "arms: empty list");
  }
  return RL_OK;
}

// Parses one signed decimal field ending at |stop| or the end; advances.
static bool rl_shadow_parse_field(const char** cursor, int64_t* out_value) {
  char* end = NULL;
  errno = 0;
  long long value = strtoll(*cursor, &end, 10);
  if (errno || end == *cursor || (*end && *end != ':')) return false;
  *out_value = value;
  *cursor = *end ? end + 1 : end;
  return true;
}

rl_status_t rl_shadow_window_parse(const char* text,
                                   rl_shadow_window_t* out_window) {
  memset(out_window, 0, sizeof(*out_window));
  const char* cursor = text ? text : "";
  int64_t start = 0, count = 0, stride = 1;
  bool ok = rl_shadow_parse_field(&cursor, &start) &&
            rl_shadow_parse_field(&cursor, &count);
  if (ok && *cursor) ok = rl_shadow_parse_field(&cursor, &stride) && !*cursor;
  if (!ok || count < 1 || count > UINT32_MAX) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "windows: expected START:COUNT[:STRIDE] with COUNT >= 1, "
                     "got '%s'", text ? text : "");
  }
  *out_window = (rl_shadow_window_t){start, (uint32_t)count, stride};
  return RL_OK;
}

rl_status_t rl_shadow_window_resolve(const rl_capture_t* capture,
                                     bool has_window,
                                     const rl_shadow_window_t* window,
                                     uint32_t* out_param,
                                     rl_shadow_window_t* out_window) {
  *out_param = capture->window_count ? capture->windows[0].param
               : capture->param_count ? 0u
                                      : UINT32_MAX;
  if (has_window) {
    *out_window = *window;
  } else if (capture->window_count) {
    const rl_capture_window_t* w = &capture->windows[0];
    *out_window = (rl_shadow_window_t){w->start, w->count, w->stride};
  } else {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "the capture declares no window: give one");
  }
  if (out_window->count == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "a window of 0 steps");
  }
  if (*out_param == UINT32_MAX) return RL_OK;
  const rl_capture_param_t* param = &capture->params[*out_param];
  for (uint32_t w = 0; w < out_window->count; ++w) {
    int64_t value = rl_shadow_window_value(out_window, w);
    if (value < param->min || value >= param->max) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "window %u: %s=%" PRId64 " is outside the admitted "
                       "range [%" PRId64 ", %" PRId64 ")",
                       w, param->name, value, param->min, param->max);
    }
  }
  return RL_OK;
}
