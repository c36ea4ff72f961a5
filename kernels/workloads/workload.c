// The registry of sample workloads (kernels/workloads/workload.h).
#include "kernels/workloads/workload.h"

#include <string.h>

static const rl_workload_t* const rl_workloads[] = {
    &rl_workload_vecchain,
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

static const rl_workload_param_t* rl_workload_find_param(
    const rl_workload_t* workload, const char* name) {
  for (uint32_t i = 0; name && i < workload->param_count; ++i) {
    if (strcmp(workload->params[i].name, name) == 0) {
      return &workload->params[i];
    }
  }
  return NULL;
}

// Fails when an override names no parameter of |workload|.
static rl_status_t rl_workload_check_overrides(
    const rl_workload_t* workload, const rl_workload_options_t* options) {
  for (uint32_t i = 0; i < options->param_count; ++i) {
    const char* name = options->params[i].name;
    if (!rl_workload_find_param(workload, name)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "workload %s has no parameter %s", workload->name,
                       name ? name : "(null)");
    }
  }
  return RL_OK;
}

rl_status_t rl_workload_param_value(const rl_workload_t* workload,
                                    const rl_workload_options_t* options,
                                    const char* name, int64_t* out_value) {
  *out_value = 0;
  RL_RETURN_IF_ERROR(rl_workload_check_overrides(workload, options));
  const rl_workload_param_t* param = rl_workload_find_param(workload, name);
  if (!param) {
    return RL_STATUS(RL_STATUS_NOT_FOUND, "workload %s has no parameter %s",
                     workload->name, name ? name : "(null)");
  }
  int64_t value = param->default_value;
  for (uint32_t i = 0; i < options->param_count; ++i) {
    if (strcmp(options->params[i].name, name) == 0) {
      value = options->params[i].value;
    }
  }
  if (value < param->min || value >= param->max) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "%s=%lld is outside the admitted range [%lld, %lld) of "
                     "workload %s",
                     name, (long long)value, (long long)param->min,
                     (long long)param->max, workload->name);
  }
  *out_value = value;
  return RL_OK;
}
