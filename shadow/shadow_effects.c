// Effects and dispatch audits of a shadow run (shadow/shadow_effects.h).
#include "shadow/shadow_effects.h"

#include <inttypes.h>
#include <stdlib.h>

void rl_shadow_effects_before(rl_shadow_arm_t* arm, bool enabled,
                              rl_effects_watch_t* watch,
                              rl_shadow_arm_result_t* result) {
  rl_effects_watch_begin(watch, enabled ? arm->device : NULL, arm->capture);
  if (rl_effects_watch_active(watch)) result->effects_checked = true;
}

uint32_t rl_shadow_effects_after(rl_shadow_arm_t* arm,
                                 rl_effects_watch_t* watch,
                                 const rl_shadow_result_t* shadow,
                                 uint32_t window, const int64_t* values,
                                 rl_shadow_arm_result_t* result) {
  if (!rl_effects_watch_active(watch)) return 0;
  const rl_capture_t* capture = arm->capture;
  uint64_t* addresses = calloc(capture->buffer_count + 1u, sizeof(uint64_t));
  for (uint32_t b = 0; addresses && b < capture->buffer_count; ++b) {
    rl_status_free(arm->vtable->buffer_address(arm, b, &addresses[b]));
  }
  char where[96];
  const char* name = shadow->param == UINT32_MAX
                         ? "step"
                         : capture->params[shadow->param].name;
  snprintf(where, sizeof(where), "window %u (%s=%" PRId64 ")", window, name,
           rl_shadow_window_value(&shadow->window, window));
  uint32_t found = rl_effects_watch_end(watch, values, addresses, where,
                                        &result->effects);
  free(addresses);
  return found;
}

void rl_shadow_effects_text(FILE* out, const rl_shadow_result_t* result,
                            const rl_shadow_arm_result_t* arm) {
  if (!arm->available) return;
  if (!arm->effects_checked) {
    fprintf(out, "  effects audit: not checked (%s)\n",
            result->hazard_check ? "not a simulated device"
                                 : "--no-hazard-check");
    return;
  }
  const rl_effects_audit_t* e = &arm->effects;
  if (e->violations == 0) {
    fprintf(out, "  effects audit: every access inside the declared effects "
            "(%" PRIu64 " dispatches)\n", e->dispatches);
  } else {
    fprintf(out, "  effects audit: %u violation%s\n    EFFECTS %s\n",
            e->violations, e->violations == 1 ? "" : "s", e->first);
  }
  if (e->untouched > 0) {
    fprintf(out, "    info: %" PRIu64 " declared slot%s never touched, "
            "first: %s\n", e->untouched, e->untouched == 1 ? "" : "s",
            e->first_untouched);
  }
  if (e->lost > 0) {
    fprintf(out, "    info: %" PRIu64 " dispatches not audited (log full)\n",
            e->lost);
  }
  if (e->dispatch_violations == 0) {
    fprintf(out, "  dispatch audit: grids and work-groups as launched\n");
  } else {
    fprintf(out, "  dispatch audit: %u violation%s\n    DISPATCH %s\n",
            e->dispatch_violations, e->dispatch_violations == 1 ? "" : "s",
            e->first_dispatch);
  }
}

cJSON* rl_shadow_effects_json(const rl_shadow_arm_result_t* arm) {
  cJSON* o = cJSON_CreateObject();
  if (!o) return NULL;
  const rl_effects_audit_t* e = &arm->effects;
  cJSON_AddBoolToObject(o, "checked", arm->effects_checked);
  cJSON_AddNumberToObject(o, "dispatches", (double)e->dispatches);
  cJSON_AddNumberToObject(o, "violations", e->violations);
  if (e->violations) cJSON_AddStringToObject(o, "first", e->first);
  cJSON_AddNumberToObject(o, "untouched_slots", (double)e->untouched);
  if (e->untouched) {
    cJSON_AddStringToObject(o, "first_untouched", e->first_untouched);
  }
  cJSON_AddNumberToObject(o, "not_audited", (double)e->lost);
  cJSON_AddNumberToObject(o, "dispatch_violations", e->dispatch_violations);
  if (e->dispatch_violations) {
    cJSON_AddStringToObject(o, "first_dispatch", e->first_dispatch);
  }
  return o;
}

bool rl_shadow_effects_reason(const rl_shadow_arm_result_t* arm, char* out,
                              size_t size) {
  const rl_effects_audit_t* e = &arm->effects;
  if (e->violations > 0) {
    snprintf(out, size, "arm %s: effects audit: %s%s", arm->name, e->first,
             e->violations > 1 ? " (and more, see the report)" : "");
    return true;
  }
  if (e->dispatch_violations > 0) {
    snprintf(out, size, "arm %s: dispatch audit: %s%s", arm->name,
             e->first_dispatch,
             e->dispatch_violations > 1 ? " (and more, see the report)" : "");
    return true;
  }
  return false;
}
