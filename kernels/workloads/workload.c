// The registry of sample workloads (kernels/workloads/workload.h).
#include "kernels/workloads/workload.h"

#include <string.h>

static const rl_workload_t* const rl_workloads[] = {
    &rl_workload_vecchain,
    &rl_workload_decode,
    &rl_workload_verify,
};

#define RL_WORKLOAD_COUNT (sizeof(rl_workloads) / sizeof(rl_workloads[0]))

uint32_t rl_workload_count(void) { return (uint32_t)RL_WORKLOAD_COUNT; }

const rl_workload_t* rl_workload_at(uint32_t index) {
  return index < RL_WORKLOAD_COUNT ? rl_workloads[index] : NULL;
}

const rl_workload_t* rl_workload_find(const char* name) {
  for (uint32_t i = 0; name && i < RL_WORKLOAD_COUNT; ++i) {
    if (strcmp(rl_workloads[i]->name, name) == 0) return rl_workloads[i];
  }
  return NULL;
}

// A list of entries (parameters or configuration) and the caller's values
// for them.
typedef struct rl_workload_entries_s {
  const char* workload;
  const char* kind;  // "parameter" or "config entry"
  const rl_workload_param_t* entries;
  uint32_t entry_count;
  const rl_workload_param_value_t* values;
  uint32_t value_count;
} rl_workload_entries_t;

static const rl_workload_param_t* rl_workload_find_entry(
    const rl_workload_entries_t* list, const char* name) {
  for (uint32_t i = 0; name && i < list->entry_count; ++i) {
    if (strcmp(list->entries[i].name, name) == 0) return &list->entries[i];
  }
  return NULL;
}

// Fails when a value names no entry of the list.
static rl_status_t rl_workload_check_overrides(
    const rl_workload_entries_t* list) {
  for (uint32_t i = 0; i < list->value_count; ++i) {
    const char* name = list->values[i].name;
    if (!rl_workload_find_entry(list, name)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "workload %s has no %s %s",
                       list->workload, list->kind, name ? name : "(null)");
    }
  }
  return RL_OK;
}

static rl_status_t rl_workload_entry_value(const rl_workload_entries_t* list,
                                           const char* name,
                                           int64_t* out_value) {
  *out_value = 0;
  RL_RETURN_IF_ERROR(rl_workload_check_overrides(list));
  const rl_workload_param_t* entry = rl_workload_find_entry(list, name);
  if (!entry) {
    return RL_STATUS(RL_STATUS_NOT_FOUND, "workload %s has no %s %s",
                     list->workload, list->kind, name ? name : "(null)");
  }
  int64_t value = entry->default_value;
  for (uint32_t i = 0; i < list->value_count; ++i) {
    if (strcmp(list->values[i].name, name) == 0) value = list->values[i].value;
  }
  if (value < entry->min || value >= entry->max) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "%s=%lld is outside the admitted range [%lld, %lld) of "
                     "workload %s",
                     name, (long long)value, (long long)entry->min,
                     (long long)entry->max, list->workload);
  }
  *out_value = value;
  return RL_OK;
}

rl_status_t rl_workload_param_value(const rl_workload_t* workload,
                                    const rl_workload_options_t* options,
                                    const char* name, int64_t* out_value) {
  const rl_workload_entries_t list = {
      workload->name,  "parameter",     workload->params,
      workload->param_count, options->params, options->param_count};
  return rl_workload_entry_value(&list, name, out_value);
}

rl_status_t rl_workload_config_value(const rl_workload_t* workload,
                                     const rl_workload_options_t* options,
                                     const char* name, int64_t* out_value) {
  const rl_workload_entries_t list = {
      workload->name,  "config entry",   workload->config,
      workload->config_count, options->config, options->config_count};
  return rl_workload_entry_value(&list, name, out_value);
}
