// redline/backends/doctor.c — rl_doctor_collect (redline/doctor.h): runs
// the probes and derives one device entry per device redline could open.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/backends/doctor_internal.h"
#include "redline/backends/drm_device.h"
#include "redline/backends/rocr_device.h"

static rl_doctor_device_t* rl_doctor_add_device(rl_doctor_report_t* report,
                                                const char* kind) {
  if (report->device_count == RL_DOCTOR_MAX_DEVICES) return NULL;
  rl_doctor_device_t* device = &report->devices[report->device_count++];
  snprintf(device->kind, sizeof(device->kind), "%s", kind);
  return device;
}

static void rl_doctor_add_sim(rl_doctor_report_t* report) {
  rl_doctor_device_t* device = rl_doctor_add_device(report, "sim");
  if (!device) return;
  snprintf(device->target, sizeof(device->target), "gfx1100, gfx1151, gfx1201");
  device->available = true;
  device->routes = RL_DOCTOR_ROUTE_AQL | RL_DOCTOR_ROUTE_PM4;
}

static void rl_doctor_copy_hsa(rl_doctor_report_t* report,
                               const rl_rocr_probe_t* probe) {
  rl_doctor_library_t* library = &report->hsa;
  snprintf(library->name, sizeof(library->name), "libhsa-runtime64");
  library->loaded = probe->loaded;
  snprintf(library->path, sizeof(library->path), "%s", probe->library_path);
  snprintf(library->tried, sizeof(library->tried), "%s", probe->tried);
  snprintf(library->error, sizeof(library->error), "%s", probe->error);
  if (probe->initialized) {
    snprintf(library->version, sizeof(library->version), "HSA %u.%u",
             probe->version_major, probe->version_minor);
  }
  for (uint32_t i = 0; i < probe->agent_count && i < RL_DOCTOR_MAX_AGENTS;
       ++i) {
    const rl_rocr_agent_info_t* agent = &probe->agents[i];
    rl_doctor_agent_t* out = &report->agents[report->agent_count++];
    out->gpu = agent->gpu;
    out->supported = agent->supported;
    memcpy(out->name, agent->name, sizeof(out->name));
    memcpy(out->vendor, agent->vendor, sizeof(out->vendor));
    memcpy(out->isa, agent->isa, sizeof(out->isa));
    memcpy(out->reason, agent->reason, sizeof(out->reason));
  }
}

// One rocr device per GPU agent, or one unavailable entry saying why there
// is none.
static void rl_doctor_add_rocr(rl_doctor_report_t* report,
                               const rl_rocr_probe_t* probe) {
  uint32_t gpus = 0;
  for (uint32_t i = 0; i < report->agent_count; ++i) {
    const rl_doctor_agent_t* agent = &report->agents[i];
    if (!agent->gpu) continue;
    ++gpus;
    rl_doctor_device_t* device = rl_doctor_add_device(report, "rocr");
    if (!device) return;
    device->hardware = true;
    memcpy(device->target, agent->isa, sizeof(device->target));
    device->available = agent->supported;
    if (agent->supported) {
      device->routes = RL_DOCTOR_ROUTE_AQL | RL_DOCTOR_ROUTE_PM4;
    } else {
      rl_doctor_copy(device->reason, sizeof(device->reason), agent->reason);
    }
  }
  rl_doctor_device_t* device = gpus ? NULL : rl_doctor_add_device(report, "rocr");
  if (!device) return;
  device->hardware = true;
  if (!probe->initialized) {
    rl_doctor_copy(device->reason, sizeof(device->reason), probe->error);
    if (!report->kfd_present) {
      rl_doctor_append(device->reason, sizeof(device->reason),
                       " (no /dev/kfd)");
    }
  } else {
    snprintf(device->reason, sizeof(device->reason),
             "ROCr initialised but lists no GPU agent");
  }
}

// The drm device as rl_drm_device_create would open it (the render node
// from $REDLINE_DRM_RENDER_NODE or the first amdgpu one), or why not.
static void rl_doctor_add_drm(rl_doctor_report_t* report) {
  rl_drm_probe_t* probe = calloc(1, sizeof(*probe));
  if (!probe) return;
  rl_drm_probe(NULL, probe);
  rl_doctor_device_t* device = rl_doctor_add_device(report, "drm");
  if (device) {
    device->hardware = true;
    if (probe->available) {
      device->available = true;
      device->routes = RL_DOCTOR_ROUTE_DRM;
      rl_doctor_copy(device->target, sizeof(device->target), probe->target);
    } else {
      rl_doctor_copy(device->reason, sizeof(device->reason), probe->reason);
    }
  }
  free(probe);
}

rl_status_t rl_doctor_collect(rl_doctor_report_t* out_report) {
  if (!out_report) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "doctor: no report");
  }
  rl_doctor_report_t* report = out_report;
  memset(report, 0, sizeof(*report));
  rl_doctor_probe_kfd(report);
  // HIP first: it loads the system libhsa-runtime64 by SONAME, which an
  // overriding REDLINE_HSA_LIBRARY (a stand-in) must not satisfy.
  rl_doctor_probe_hip(&report->hip);
  rl_rocr_probe_t* probe = calloc(1, sizeof(*probe));
  if (!probe) return rl_status_out_of_memory();
  rl_rocr_probe(NULL, probe);
  rl_doctor_copy_hsa(report, probe);
  rl_doctor_probe_drm(report);
  rl_doctor_add_sim(report);
  rl_doctor_add_rocr(report, probe);
  rl_doctor_add_drm(report);
  free(probe);
  return RL_OK;
}

bool rl_doctor_has_hardware(const rl_doctor_report_t* report) {
  for (uint32_t i = 0; report && i < report->device_count; ++i) {
    if (report->devices[i].hardware && report->devices[i].available) {
      return true;
    }
  }
  return false;
}
