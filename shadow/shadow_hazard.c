// Hazard verdicts of a shadow run (shadow/shadow_hazard.h).
#include "shadow/shadow_hazard.h"

#include <inttypes.h>
#include <stdlib.h>

void rl_shadow_hazard_before(rl_shadow_arm_t* arm, bool enabled,
                             rl_hazard_watch_t* watch,
                             rl_shadow_arm_result_t* result) {
  rl_hazard_watch_begin(watch, enabled ? arm->device : NULL, arm->capture);
  if (rl_hazard_watch_active(watch)) result->hazard_checked = true;
}

uint32_t rl_shadow_hazard_after(rl_shadow_arm_t* arm,
                                const rl_hazard_watch_t* watch,
                                uint32_t window,
                                rl_shadow_arm_result_t* result) {
  if (!rl_hazard_watch_active(watch)) return 0;
  const rl_capture_t* capture = arm->capture;
  uint64_t* addresses = calloc(capture->buffer_count + 1u, sizeof(uint64_t));
  for (uint32_t b = 0; addresses && b < capture->buffer_count; ++b) {
    rl_status_free(arm->vtable->buffer_address(arm, b, &addresses[b]));
  }
  uint32_t kept = result->hazard_count < RL_SHADOW_MAX_HAZARDS
                      ? result->hazard_count
                      : RL_SHADOW_MAX_HAZARDS;
  uint32_t found = rl_hazard_watch_collect(watch, addresses,
                                           &result->hazards[kept],
                                           RL_SHADOW_MAX_HAZARDS - kept);
  free(addresses);
  for (uint32_t i = kept; i < RL_SHADOW_MAX_HAZARDS && i < kept + found; ++i) {
    result->hazard_windows[i] = window;
  }
  result->hazard_count += found;
  return found;
}

static uint32_t rl_shadow_hazard_kept(const rl_shadow_arm_result_t* arm) {
  return arm->hazard_count < RL_SHADOW_MAX_HAZARDS ? arm->hazard_count
                                                   : RL_SHADOW_MAX_HAZARDS;
}

static void rl_shadow_hazard_window(const rl_shadow_result_t* result,
                                    uint32_t w, char* out, size_t size) {
  const char* name = result->param == UINT32_MAX
                         ? "step"
                         : result->capture->params[result->param].name;
  snprintf(out, size, "window %u (%s=%" PRId64 ")", w, name,
           rl_shadow_window_value(&result->window, w));
}

void rl_shadow_hazard_text(FILE* out, const rl_shadow_result_t* result,
                           const rl_shadow_arm_result_t* arm) {
  if (!arm->available) return;
  if (!arm->hazard_checked) {
    fprintf(out, "  hazards: not checked (%s)\n",
            result->hazard_check ? "not a simulated device"
                                 : "--no-hazard-check");
    return;
  }
  if (arm->hazard_count == 0) {
    fprintf(out, "  hazards: none (dynamic checker, every window)\n");
    return;
  }
  fprintf(out, "  hazards: %u found\n", arm->hazard_count);
  for (uint32_t i = 0; i < rl_shadow_hazard_kept(arm); ++i) {
    char where[96];
    char line[768];
    rl_shadow_hazard_window(result, arm->hazard_windows[i], where,
                            sizeof(where));
    rl_hazard_finding_format(result->capture, &arm->hazards[i], line,
                             sizeof(line));
    fprintf(out, "    HAZARD %s: %s\n", where, line);
  }
}

cJSON* rl_shadow_hazard_json(const rl_shadow_result_t* result,
                             const rl_shadow_arm_result_t* arm) {
  cJSON* o = cJSON_CreateObject();
  if (!o) return NULL;
  cJSON_AddBoolToObject(o, "checked", arm->hazard_checked);
  cJSON_AddNumberToObject(o, "count", arm->hazard_count);
  cJSON* findings = cJSON_AddArrayToObject(o, "findings");
  for (uint32_t i = 0; findings && i < rl_shadow_hazard_kept(arm); ++i) {
    cJSON* f = rl_hazard_finding_json(result->capture, &arm->hazards[i]);
    if (!f) continue;
    cJSON_AddNumberToObject(f, "window", arm->hazard_windows[i]);
    cJSON_AddNumberToObject(
        f, "value",
        (double)rl_shadow_window_value(&result->window,
                                       arm->hazard_windows[i]));
    cJSON_AddItemToArray(findings, f);
  }
  return o;
}

void rl_shadow_hazard_reason(const rl_shadow_result_t* result,
                             const rl_shadow_arm_result_t* arm, char* out,
                             size_t size) {
  char where[96];
  char line[640];
  rl_shadow_hazard_window(result, arm->hazard_windows[0], where,
                          sizeof(where));
  rl_hazard_finding_format(result->capture, &arm->hazards[0], line,
                           sizeof(line));
  snprintf(out, size, "arm %s: hazard in %s: %s%s",
           arm->name, where, line,
           arm->hazard_count > 1 ? " (and more, see the report)" : "");
}

rl_status_t rl_shadow_hazard_status(rl_shadow_arm_t* arm,
                                    const rl_hazard_watch_t* watch) {
  if (!rl_hazard_watch_active(watch)) return RL_OK;
  rl_shadow_arm_result_t* scratch = calloc(1, sizeof(*scratch));
  if (!scratch) return rl_status_out_of_memory();
  rl_status_t status = RL_OK;
  if (rl_shadow_hazard_after(arm, watch, 0, scratch) > 0) {
    char line[640];
    rl_hazard_finding_format(arm->capture, &scratch->hazards[0], line,
                             sizeof(line));
    status = RL_STATUS(RL_STATUS_MISMATCH, "hazard: %s (%u found)", line,
                       scratch->hazard_count);
  }
  free(scratch);
  return status;
}
