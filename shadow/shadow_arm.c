// Arms of a shadow run (shadow/shadow_arm.h): the device every arm owns,
// the kind names, stepping and the negative control.
#include "shadow/shadow_arm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/replay.h"
#include "sim/oracle/oracle.h"
#include "sim/sim.h"

static const char* const rl_shadow_arm_names[RL_SHADOW_ARM_KIND_COUNT_] = {
    [RL_SHADOW_ARM_EAGER] = "eager",
    [RL_SHADOW_ARM_RECORDED] = "recorded",
    [RL_SHADOW_ARM_AQL] = "aql",
    [RL_SHADOW_ARM_PM4] = "pm4",
    [RL_SHADOW_ARM_HIP] = "hip",
    [RL_SHADOW_ARM_HIPGRAPH] = "hipgraph",
    [RL_SHADOW_ARM_DRM] = "drm",
    [RL_SHADOW_ARM_PM4_RELAY] = "pm4-relay",
    [RL_SHADOW_ARM_SIM] = "sim",
};

const char* rl_shadow_arm_kind_name(rl_shadow_arm_kind_t kind) {
  return (unsigned)kind < RL_SHADOW_ARM_KIND_COUNT_ ? rl_shadow_arm_names[kind]
                                                    : "unknown";
}

bool rl_shadow_arm_kind_parse(const char* name, rl_shadow_arm_kind_t* out_kind) {
  for (int k = 0; k < RL_SHADOW_ARM_KIND_COUNT_; ++k) {
    if (name && strcmp(name, rl_shadow_arm_names[k]) == 0) {
      *out_kind = (rl_shadow_arm_kind_t)k;
      return true;
    }
  }
  return false;
}

bool rl_shadow_arm_kind_retained(rl_shadow_arm_kind_t kind) {
  return kind == RL_SHADOW_ARM_AQL || kind == RL_SHADOW_ARM_PM4 ||
         kind == RL_SHADOW_ARM_DRM || kind == RL_SHADOW_ARM_PM4_RELAY;
}

// The routes of the retained arms (rl_shadow_arm_kind_route).
static const struct {
  rl_route_t route;
  bool device_patch;
} rl_shadow_arm_routes[RL_SHADOW_ARM_KIND_COUNT_] = {
    [RL_SHADOW_ARM_AQL] = {RL_ROUTE_AQL, false},
    [RL_SHADOW_ARM_PM4] = {RL_ROUTE_PM4, false},
    [RL_SHADOW_ARM_DRM] = {RL_ROUTE_DRM, false},
    [RL_SHADOW_ARM_PM4_RELAY] = {RL_ROUTE_PM4, true},
};

rl_route_t rl_shadow_arm_kind_route(rl_shadow_arm_kind_t kind,
                                    bool* out_device_patch) {
  bool known = (unsigned)kind < RL_SHADOW_ARM_KIND_COUNT_;
  if (out_device_patch) {
    *out_device_patch = known && rl_shadow_arm_routes[kind].device_patch;
  }
  return known ? rl_shadow_arm_routes[kind].route : RL_ROUTE_NONE;
}

bool rl_shadow_arm_kind_ib_reference(rl_shadow_arm_kind_t kind) {
  return kind == RL_SHADOW_ARM_PM4;
}

bool rl_shadow_arm_kind_replays(rl_shadow_arm_kind_t kind) {
  return rl_shadow_arm_kind_retained(kind) || kind == RL_SHADOW_ARM_HIPGRAPH;
}

bool rl_shadow_arm_kind_hip(rl_shadow_arm_kind_t kind) {
  return kind == RL_SHADOW_ARM_HIP || kind == RL_SHADOW_ARM_HIPGRAPH;
}

const char* rl_shadow_arm_device_kind(rl_shadow_arm_kind_t kind,
                                      const char* device_kind) {
  if (rl_shadow_arm_kind_hip(kind)) return "hip";
  if (kind == RL_SHADOW_ARM_DRM) return "drm";
  if (kind == RL_SHADOW_ARM_SIM || !device_kind) return "sim";
  return device_kind;
}

bool rl_shadow_arm_device_supported(rl_shadow_arm_kind_t kind,
                                    const char* device_kind) {
  return !device_kind || strcmp(device_kind, "drm") != 0 ||
         kind == RL_SHADOW_ARM_DRM || kind == RL_SHADOW_ARM_SIM ||
         rl_shadow_arm_kind_hip(kind);
}

// A simulated device whose isa executor runs under the oracle
// (rl_shadow_device_options_t.oracle): opened here rather than by name
// through rl_device_open, which knows executors only by name.
static rl_status_t rl_shadow_arm_open_oracle_device(
    const rl_shadow_device_options_t* options, const char* processor,
    const rl_limits_t* limits, rl_device_t** out_device) {
  rl_sim_cache_mode_t cache_model = RL_SIM_CACHE_STRICT;
  RL_RETURN_IF_ERROR(
      rl_sim_cache_mode_option(options->cache_model, &cache_model));
  const rl_sim_options_t sim_options = {
      .processor = processor,
      .hazards = options->adversarial ? RL_SIM_HAZARDS_ADVERSARIAL
                                      : RL_SIM_HAZARDS_SEQUENTIAL,
      .seed = options->seed,
      .executor = rl_oracle_executor(options->oracle),
      .max_work_items = limits->max_work_items,
      .max_dispatches = limits->max_dispatches,
      .cache_model = cache_model,
      .no_access_record = options->no_hazard_check,
  };
  return rl_sim_device_create(&sim_options, out_device);
}

// The drm arm opens a "drm" device (library and render node from the
// environment, redline/replay.h), the sim arm a simulated one, every other
// arm one of the kind the options name (simulated by default).
static rl_status_t rl_shadow_arm_open_device(
    rl_shadow_arm_kind_t kind, const rl_capture_t* capture,
    const rl_shadow_device_options_t* options, const rl_limits_t* limits,
    rl_device_t** out_device) {
  const char* processor = rl_capture_processor_or(capture, "gfx1100");
  const char* device_kind = rl_shadow_arm_device_kind(kind, options->kind);
  // The oracle executor does not step work-groups in turn, so it cannot
  // run a cooperative launch (its grid barrier needs every work-group
  // open at once, sim/wg/sim_coop.c): such a capture's arms run the
  // isa executor alone, and the report says the oracle checked nothing.
  bool cooperative = rl_capture_first_cooperative(capture) != UINT32_MAX;
  if (options->oracle && strcmp(device_kind, "sim") == 0 && !cooperative) {
    RL_RETURN_IF_ERROR(rl_shadow_arm_open_oracle_device(
        options, options->processor ? options->processor : processor, limits,
        out_device));
    if (options->pin_cp) rl_sim_device_pin_cp(*out_device, options->cp_cpu);
    return RL_OK;
  }
  const rl_device_options_t device_options = {
      .kind = rl_shadow_arm_device_kind(kind, options->kind),
      .processor = options->processor ? options->processor : processor,
      .adversarial = options->adversarial,
      .seed = options->seed,
      .executor = options->executor,
      .cache_model = options->cache_model ? options->cache_model : "strict",
      .max_work_items = limits->max_work_items,
      .max_dispatches = limits->max_dispatches,
      .no_hazard_check = options->no_hazard_check,
  };
  RL_RETURN_IF_ERROR(rl_device_open(&device_options, out_device));
  if (options->pin_cp) rl_sim_device_pin_cp(*out_device, options->cp_cpu);
  return RL_OK;
}

rl_status_t rl_shadow_arm_create(rl_shadow_arm_kind_t kind,
                                 const rl_capture_t* capture,
                                 const rl_shadow_arm_options_t* options,
                                 rl_shadow_arm_t** out_arm) {
  *out_arm = NULL;
  rl_shadow_arm_t common = {.kind = kind,
                            .capture = capture,
                            .limits = rl_limits_for_capture(&options->limits,
                                                            capture),
                            .device_options = options->device};
  // A cooperative launch (all work-groups resident at once) runs on the
  // simulator, whose device is put in cooperative mode for the arm (as the
  // replay contract does, redline/replay_contract.c); the HIP arms and a
  // hardware device cannot keep its work-groups resident: refused.
  uint32_t cooperative = rl_capture_first_cooperative(capture);
  if (cooperative != UINT32_MAX && rl_shadow_arm_kind_hip(kind)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "arm %s: launch %u (kernel %s) is cooperative "
                     "(hipLaunchCooperativeKernel); the arm launches with "
                     "hipLaunchKernel, which does not keep its work-groups "
                     "resident at once",
                     rl_shadow_arm_kind_name(kind), cooperative,
                     capture->kernels[capture->launches[cooperative].kernel]
                         .name);
  }
  // The HIP arms have no redline device: their memory lives in HIP.
  if (!rl_shadow_arm_kind_hip(kind)) {
    RL_RETURN_IF_ERROR(rl_shadow_arm_open_device(kind, capture,
                                                 &options->device,
                                                 &common.limits,
                                                 &common.device));
    if (cooperative != UINT32_MAX && !rl_sim_device_is(common.device)) {
      rl_status_t refused = RL_STATUS(
          RL_STATUS_CONTRACT,
          "arm %s: launch %u (kernel %s) is cooperative "
          "(hipLaunchCooperativeKernel); device %s cannot keep all its "
          "work-groups resident (no queue with the global wave sync "
          "resource): shadow it on the simulator",
          rl_shadow_arm_kind_name(kind), cooperative,
          capture->kernels[capture->launches[cooperative].kernel].name,
          common.device->name ? common.device->name : "?");
      rl_device_release(common.device);
      return refused;
    }
    if (cooperative != UINT32_MAX) {
      rl_sim_set_cooperative(common.device, true);
    }
  }
  if (!rl_shadow_arm_device_supported(kind, options->device.kind)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "arm %s cannot run on device %s (no AQL queue: on drm "
                     "run the arms drm, hip, hipgraph)",
                     rl_shadow_arm_kind_name(kind), options->device.kind);
  }
  rl_status_t status = RL_OK;
  switch (kind) {
    case RL_SHADOW_ARM_EAGER:
    case RL_SHADOW_ARM_SIM:
      status = rl_shadow_arm_eager_create(&common, out_arm);
      break;
    case RL_SHADOW_ARM_RECORDED:
      status = rl_shadow_arm_recorded_create(&common, out_arm);
      break;
    case RL_SHADOW_ARM_AQL:
    case RL_SHADOW_ARM_PM4:
    case RL_SHADOW_ARM_PM4_RELAY:
    case RL_SHADOW_ARM_DRM:
      status = rl_shadow_arm_retained_create(&common, options, out_arm);
      break;
    case RL_SHADOW_ARM_HIP:
    case RL_SHADOW_ARM_HIPGRAPH:
      // The HIP arms live above shadow (shadow/hip/): their constructor
      // comes with the options, from the program that links them.
      status = options->device.hip_arm
                   ? options->device.hip_arm(&common, out_arm)
                   : RL_STATUS(RL_STATUS_UNAVAILABLE,
                               "arm %s: this program does not link the HIP "
                               "arms (shadow/hip/shadow_hip.h)",
                               rl_shadow_arm_kind_name(kind));
      break;
    default:
      status = RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "arm kind %u",
                         (unsigned)kind);
      break;
  }
  if (status) rl_device_close(common.device);
  return status;
}

rl_status_t rl_shadow_arm_step(rl_shadow_arm_t* arm, const int64_t* values) {
  RL_RETURN_IF_ERROR(arm->vtable->step(arm, values));
  ++arm->steps;
  return RL_OK;
}

rl_status_t rl_shadow_arm_corrupt(rl_shadow_arm_t* arm, uint32_t region,
                                  uint64_t offset) {
  const rl_capture_region_t* r = &arm->capture->regions[region];
  if (offset >= r->size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "offset %llu is outside region %s (%llu bytes)",
                     (unsigned long long)offset, r->name,
                     (unsigned long long)r->size);
  }
  uint64_t base = 0;
  RL_RETURN_IF_ERROR(arm->vtable->buffer_address(arm, r->buffer, &base));
  uint64_t address = base + r->offset + offset;
  if (arm->vtable->flip_byte) return arm->vtable->flip_byte(arm, address);
  const rl_device_vtable_t* vt = arm->device->vtable;
  uint8_t byte = 0;
  RL_RETURN_IF_ERROR(vt->read(arm->device, address, &byte, 1));
  byte ^= 0xFFu;
  return vt->write(arm->device, address, &byte, 1);
}

void rl_shadow_arm_destroy(rl_shadow_arm_t* arm) {
  if (!arm) return;
  rl_device_t* device = arm->device;
  arm->vtable->destroy(arm);
  rl_device_close(device);
}
