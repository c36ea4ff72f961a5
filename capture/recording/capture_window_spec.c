// The interposer's window specification (capture/recording/capture_window_spec.h).
#include "capture/recording/capture_window_spec.h"

#include <string.h>

#include "base/number.h"

// Parses |length| bytes at |text| as an unsigned number.
static bool rl_window_spec_number(const char* text, size_t length,
                                  uint64_t* out_value) {
  char number[32];
  if (length >= sizeof(number)) return false;
  memcpy(number, text, length);
  number[length] = '\0';
  rl_status_t status = rl_number_parse_u64(number, out_value);
  bool ok = status == RL_OK;
  rl_status_free(status);
  return ok;
}

static bool rl_window_spec_launches(const char* text,
                                    rl_capture_window_spec_t* spec) {
  const char* colon = strchr(text, ':');
  size_t length = colon ? (size_t)(colon - text) : strlen(text);
  if (!rl_window_spec_number(text, length, &spec->first)) return false;
  if (!colon || strcmp(colon + 1, "all") == 0) return true;
  return rl_window_spec_number(colon + 1, strlen(colon + 1), &spec->count);
}

static bool rl_window_spec_marker(const char* text,
                                  rl_capture_window_spec_t* spec) {
  const char* colon = strrchr(text, ':');
  size_t length = colon ? (size_t)(colon - text) : 0;
  if (length == 0 || length >= sizeof(spec->marker_name)) return false;
  spec->marker = true;
  memcpy(spec->marker_name, text, length);
  spec->marker_name[length] = '\0';
  return rl_window_spec_number(colon + 1, strlen(colon + 1), &spec->first);
}

rl_status_t rl_capture_window_spec_parse(const char* text,
                                         rl_capture_window_spec_t* out_spec) {
  const rl_capture_window_spec_t all = {.first = 0, .count = UINT64_MAX};
  *out_spec = all;
  if (!text || !text[0]) return RL_OK;
  bool ok = false;
  if (strncmp(text, "launches:", 9) == 0) {
    ok = rl_window_spec_launches(text + 9, out_spec);
  } else if (strncmp(text, "items:", 6) == 0) {
    out_spec->items = true;
    ok = rl_window_spec_launches(text + 6, out_spec);
  } else if (strncmp(text, "marker:", 7) == 0) {
    ok = rl_window_spec_marker(text + 7, out_spec);
  }
  if (ok) return RL_OK;
  *out_spec = all;
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "window '%s': expected launches:FIRST[:COUNT|:all], "
                   "items:FIRST[:COUNT|:all] or marker:NAME:N (numbers decimal or 0x-hexadecimal)",
                   text);
}
