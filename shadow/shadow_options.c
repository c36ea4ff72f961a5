// Parsing of shadow options given as text (shadow/shadow.h): arm lists and
// windows, shared by `redline shadow`, `bench` and `demo`.
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
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
                       "arms: unknown arm '%s' (eager, recorded, aql, pm4, hip, hipgraph, drm, pm4-relay)",
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

// The window's last value START + (COUNT - 1) x STRIDE, false when it does
// not fit 64 bits. Every value in between then fits too (the values are
// monotone in k), so rl_shadow_window_value() cannot overflow.
static bool rl_shadow_window_last(const rl_shadow_window_t* window,
                                  int64_t* out_last) {
  int64_t span = 0;
  return window->count >= 1 &&
         !__builtin_mul_overflow((int64_t)window->count - 1, window->stride,
                                 &span) &&
         !__builtin_add_overflow(window->start, span, out_last);
}

// Parses |field|, one ':'-separated field of the window spec |text|, with
// the one number parser (base/number.h) in [|min|, |max|]; |name|
// names the field in errors.
static rl_status_t rl_shadow_window_field(const char* text, const char* field,
                                          const char* name, int64_t min,
                                          int64_t max, int64_t* out_value) {
  // 64 characters hold any 64-bit number, even with leading zeros to spare.
  char copy[64];
  size_t length = strcspn(field, ":");
  if (length >= sizeof(copy)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "'%s': %s has %zu characters", text, name, length);
  }
  memcpy(copy, field, length);
  copy[length] = '\0';
  return rl_status_annotate(rl_number_parse_i64_in(copy, min, max, out_value),
                            "'%s': %s", text, name);
}

rl_status_t rl_shadow_window_parse(const char* text,
                                   rl_shadow_window_t* out_window) {
  memset(out_window, 0, sizeof(*out_window));
  const char* fields[4] = {text ? text : "", NULL, NULL, NULL};
  uint32_t field_count = 1;
  for (const char* c = fields[0]; *c; ++c) {
    if (*c != ':') continue;
    if (field_count == 4) break;
    fields[field_count++] = c + 1;
  }
  if (field_count < 2 || field_count > 3) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "'%s': expected START:COUNT[:STRIDE]",
                     fields[0]);
  }
  int64_t start = 0, count = 0, stride = 1;
  RL_RETURN_IF_ERROR(rl_shadow_window_field(fields[0], fields[0], "START",
                                            INT64_MIN, INT64_MAX, &start));
  RL_RETURN_IF_ERROR(rl_shadow_window_field(fields[0], fields[1], "COUNT", 1,
                                            UINT32_MAX, &count));
  if (fields[2]) {
    RL_RETURN_IF_ERROR(rl_shadow_window_field(fields[0], fields[2], "STRIDE",
                                              INT64_MIN, INT64_MAX, &stride));
  }
  rl_shadow_window_t window = {start, (uint32_t)count, stride};
  int64_t last = 0;
  if (!rl_shadow_window_last(&window, &last)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "'%s': START + (COUNT - 1) x STRIDE does not "
                     "fit 64 bits",
                     fields[0]);
  }
  *out_window = window;
  return RL_OK;
}

rl_status_t rl_shadow_window_resolve(const rl_capture_t* capture,
                                     uint32_t max_windows, bool has_window,
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
  const rl_limits_t limits =
      rl_limits_resolve(&(rl_limits_t){.max_windows = max_windows});
  if (out_window->count > limits.max_windows) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "%u windows exceed the limit of %u (max_windows, "
                     "--max-windows)",
                     out_window->count, limits.max_windows);
  }
  int64_t last = 0;
  if (!rl_shadow_window_last(out_window, &last)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "window %" PRId64 " + %u steps of %" PRId64
                     " does not fit 64 bits",
                     out_window->start, out_window->count, out_window->stride);
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
