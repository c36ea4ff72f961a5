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

// Findings are identical when they have the same kind and path, the same
// two launches and the same buffer (the bytes and the window may differ):
// the report prints each once with its count.
static bool rl_shadow_hazard_same(const rl_hazard_finding_t* a,
                                  const rl_hazard_finding_t* b) {
  return a->kind == b->kind && a->pm4 == b->pm4 &&
         a->earlier_launch == b->earlier_launch &&
         a->later_launch == b->later_launch && a->buffer == b->buffer;
}

// True when finding |i| of |arm| repeats an earlier kept one.
static bool rl_shadow_hazard_repeats(const rl_shadow_arm_result_t* arm,
                                     uint32_t i) {
  for (uint32_t j = 0; j < i; ++j) {
    if (rl_shadow_hazard_same(&arm->hazards[j], &arm->hazards[i])) return true;
  }
  return false;
}

static uint32_t rl_shadow_hazard_distinct(const rl_shadow_arm_result_t* arm) {
  uint32_t distinct = 0;
  for (uint32_t i = 0; i < rl_shadow_hazard_kept(arm); ++i) {
    if (!rl_shadow_hazard_repeats(arm, i)) ++distinct;
  }
  return distinct;
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
  uint32_t kept = rl_shadow_hazard_kept(arm);
  if (kept < arm->hazard_count) {
    fprintf(out, "  hazards: %u found (the first %u kept, in --json), %u "
            "distinct among them\n", arm->hazard_count, kept,
            rl_shadow_hazard_distinct(arm));
  } else {
    fprintf(out, "  hazards: %u found, %u distinct (all in --json)\n",
            arm->hazard_count, rl_shadow_hazard_distinct(arm));
  }
  for (uint32_t i = 0; i < kept; ++i) {
    if (rl_shadow_hazard_repeats(arm, i)) continue;
    uint32_t count = 0, last = i;
    for (uint32_t j = i; j < kept; ++j) {
      if (!rl_shadow_hazard_same(&arm->hazards[i], &arm->hazards[j])) continue;
      ++count;
      last = j;
    }
    char where[96];
    char line[768];
    rl_shadow_hazard_window(result, arm->hazard_windows[i], where,
                            sizeof(where));
    rl_hazard_finding_format(result->capture, &arm->hazards[i], line,
                             sizeof(line));
    if (count == 1) {
      fprintf(out, "    HAZARD %s: %s\n", where, line);
    } else {
      fprintf(out, "    HAZARD x%u, windows %u..%u, first %s: %s\n", count,
              arm->hazard_windows[i], arm->hazard_windows[last], where, line);
    }
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
  // Short, so that the verdict line stays within 200 characters: where the
  // first finding is and the counts; every finding is in the report (each
  // distinct one once) and in --json.
  const rl_capture_t* capture = result->capture;
  const rl_hazard_finding_t* f = &arm->hazards[0];
  char where[96];
  rl_shadow_hazard_window(result, arm->hazard_windows[0], where,
                          sizeof(where));
  char buffer[64];
  if (f->buffer == UINT32_MAX) {
    snprintf(buffer, sizeof(buffer), "device memory");
  } else {
    snprintf(buffer, sizeof(buffer), "buffer %.24s",
             capture->buffers[f->buffer].name);
  }
  snprintf(out, size,
           "arm %s: hazard in %s: %s between launch %u (%.20s) and launch %u "
           "(%.20s), %s (%u found, %u distinct)",
           arm->name, where, rl_hazard_finding_kind_name(f->kind),
           f->earlier_launch, rl_hazard_kernel_name(capture, f->earlier_launch),
           f->later_launch, rl_hazard_kernel_name(capture, f->later_launch),
           buffer, arm->hazard_count, rl_shadow_hazard_distinct(arm));
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
