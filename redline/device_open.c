// Opening devices by kind (redline/replay.h "Devices"). The simulated GPU
// is the default and runs everywhere, with the reference executor
// (kernels/ref/ref_executor.h); "rocr" drives a GPU through ROCr
// (redline/backends/rocr_device.h); "drm" submits PM4 IBs through libdrm
// (redline/backends/drm_device.h).
#include <string.h>

#include "kernels/ref/ref_executor.h"
#include "redline/backends/drm_device.h"
#include "redline/backends/rocr_device.h"
#include "redline/device/device.h"
#include "redline/device/device_funnel.h"
#include "redline/replay.h"
#include "sim/isa/isa_executor.h"
#include "sim/sim.h"

// The sim executor named |name| ("ref" when NULL).
static rl_status_t rl_device_sim_executor(const char* name,
                                          const rl_sim_executor_t** out) {
  if (!name || strcmp(name, "ref") == 0) {
    *out = rl_ref_executor();
  } else if (strcmp(name, "isa") == 0) {
    *out = rl_isa_executor();
  } else if (strcmp(name, "noop") == 0) {
    *out = rl_sim_noop_executor();
  } else {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "executor '%s': expected ref, isa or noop", name);
  }
  return RL_OK;
}

static rl_status_t rl_device_open_sim(const rl_device_options_t* options,
                                      rl_device_t** out_device) {
  const rl_sim_executor_t* executor = NULL;
  RL_RETURN_IF_ERROR(rl_device_sim_executor(options->executor, &executor));
  rl_sim_cache_mode_t cache_model = RL_SIM_CACHE_OFF;
  RL_RETURN_IF_ERROR(
      rl_sim_cache_mode_option(options->cache_model, &cache_model));
  const rl_sim_options_t sim_options = {
      .processor = options->processor ? options->processor : "gfx1100",
      .hazards = options->adversarial ? RL_SIM_HAZARDS_ADVERSARIAL
                                      : RL_SIM_HAZARDS_SEQUENTIAL,
      .seed = options->seed,
      .executor = executor,
      .max_work_items = options->max_work_items,
      .max_dispatches = options->max_dispatches,
      .cache_model = cache_model,
      .no_access_record = options->no_hazard_check,
  };
  return rl_sim_device_create(&sim_options, out_device);
}

rl_status_t rl_device_open(const rl_device_options_t* options,
                           rl_device_t** out_device) {
  if (!out_device) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "device open: no output");
  }
  *out_device = NULL;
  static const rl_device_options_t defaults = {0};
  if (!options) options = &defaults;
  const char* kind = options->kind ? options->kind : "sim";
  if (strcmp(kind, "sim") == 0) return rl_device_open_sim(options, out_device);
  if (strcmp(kind, "rocr") == 0) {
    const rl_rocr_options_t rocr_options = {
        .processor = options->processor, .library = options->library};
    return rl_rocr_device_create(&rocr_options, out_device);
  }
  if (strcmp(kind, "drm") == 0) {
    const rl_drm_options_t drm_options = {
        .processor = options->processor, .library = options->library};
    return rl_drm_device_create(&drm_options, out_device);
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "device '%s': expected sim, rocr or drm", kind);
}

void rl_device_close(rl_device_t* device) {
  if (device) rl_device_release(device);
}

const char* rl_device_target(const rl_device_t* device) {
  return device ? device->target : "";
}

const char* rl_device_kind(const rl_device_t* device) {
  return device ? device->name : "";
}

rl_status_t rl_device_funnel_device_create(
    rl_device_t* device, rl_funnel_device_t* out_funnel_device) {
  if (!device || !out_funnel_device) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "funnel device: a device and an output are required");
  }
  return rl_device_funnel_create(device, out_funnel_device);
}
