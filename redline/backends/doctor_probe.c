// redline/backends/doctor_probe.c — the probes behind redline/doctor.h that
// are not ROCr's (rocr_agents.c has rl_rocr_probe): HIP, libdrm and the
// device nodes. Each fills facts; none fails.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redline/backends/doctor_internal.h"
#include "redline/backends/drm_loader.h"
#include "redline/backends/hip_loader.h"

void rl_doctor_copy(char* buffer, size_t capacity, const char* text) {
  if (capacity == 0) return;
  size_t length = strlen(text);
  if (length >= capacity) length = capacity - 1;
  memmove(buffer, text, length);
  buffer[length] = '\0';
}

void rl_doctor_append(char* buffer, size_t capacity, const char* text) {
  size_t used = strnlen(buffer, capacity);
  if (used + 1 < capacity) rl_doctor_copy(buffer + used, capacity - used, text);
}

static void rl_doctor_take_error(rl_doctor_library_t* library,
                                 rl_status_t status) {
  snprintf(library->error, sizeof(library->error), "%s",
           rl_status_message(status));
  rl_status_free(status);
}

void rl_doctor_probe_hip(rl_doctor_library_t* library) {
  snprintf(library->name, sizeof(library->name), "libamdhip64");
  rl_hip_api_t api;
  rl_status_t status = rl_hip_api_open(&api, NULL);
  snprintf(library->tried, sizeof(library->tried), "%s", api.library.tried);
  if (status) {
    rl_doctor_take_error(library, status);
    return;
  }
  library->loaded = true;
  snprintf(library->path, sizeof(library->path), "%s", api.library.path);
  int runtime = 0, driver = 0, count = 0;
  api.fn.hipRuntimeGetVersion(&runtime);
  api.fn.hipDriverGetVersion(&driver);
  snprintf(library->version, sizeof(library->version),
           "runtime %d, driver %d", runtime, driver);
  status = RL_HIP_CALL(&api, hipGetDeviceCount, &count);
  if (status) {
    rl_doctor_take_error(library, status);
  } else if (count == 0) {
    snprintf(library->error, sizeof(library->error), "no HIP device");
  }
  // libamdhip64 is not unloaded: its runtime keeps threads and handlers.
}

// Lists /dev/dri/renderD* into |report|, sorted by name.
static void rl_doctor_list_nodes(rl_doctor_report_t* report) {
  DIR* directory = opendir("/dev/dri");
  if (!directory) return;
  struct dirent* entry;
  while ((entry = readdir(directory)) != NULL &&
         report->node_count < RL_DOCTOR_MAX_NODES) {
    if (strncmp(entry->d_name, "renderD", 7) != 0) continue;
    rl_doctor_node_t* node = &report->nodes[report->node_count++];
    snprintf(node->path, sizeof(node->path), "/dev/dri/%.40s", entry->d_name);
  }
  closedir(directory);
  for (uint32_t i = 1; i < report->node_count; ++i) {
    for (uint32_t j = i; j > 0 && strcmp(report->nodes[j - 1].path,
                                         report->nodes[j].path) > 0; --j) {
      rl_doctor_node_t swap = report->nodes[j];
      report->nodes[j] = report->nodes[j - 1];
      report->nodes[j - 1] = swap;
    }
  }
}

// Driver name and version; for amdgpu the GPU family.
static void rl_doctor_describe_node(const rl_drm_api_t* api,
                                    rl_doctor_node_t* node, int fd) {
  drmVersionPtr version = api->fn.drmGetVersion(fd);
  if (!version) {
    snprintf(node->detail, sizeof(node->detail), "drmGetVersion failed");
    return;
  }
  snprintf(node->driver, sizeof(node->driver), "%.60s", version->name);
  snprintf(node->detail, sizeof(node->detail), "kernel driver %.60s %d.%d.%d",
           version->name, version->version_major, version->version_minor,
           version->version_patchlevel);
  api->fn.drmFreeVersion(version);
  if (strcmp(node->driver, "amdgpu") != 0) return;
  uint32_t major = 0, minor = 0;
  amdgpu_device_handle device = NULL;
  if (api->fn.amdgpu_device_initialize(fd, &major, &minor, &device) != 0) {
    return;
  }
  struct amdgpu_gpu_info info;
  memset(&info, 0, sizeof(info));
  if (api->fn.amdgpu_query_gpu_info(device, &info) == 0) {
    const char* family = rl_drm_family_name(info.family_id);
    size_t used = strlen(node->detail);
    snprintf(node->detail + used, sizeof(node->detail) - used,
             "; family %u%s%s", info.family_id, family ? " " : " (not a "
             "redline target)", family ? family : "");
  }
  api->fn.amdgpu_device_deinitialize(device);
}

void rl_doctor_probe_drm(rl_doctor_report_t* report) {
  rl_doctor_library_t* library = &report->drm;
  snprintf(library->name, sizeof(library->name), "libdrm_amdgpu");
  rl_doctor_list_nodes(report);
  rl_drm_api_t api;
  rl_status_t status = rl_drm_api_open(&api, NULL);
  rl_doctor_copy(library->tried, sizeof(library->tried), api.amdgpu.tried);
  if (api.core.tried[0]) {
    rl_doctor_append(library->tried, sizeof(library->tried), "; ");
    rl_doctor_append(library->tried, sizeof(library->tried), api.core.tried);
  }
  if (status) {
    rl_doctor_take_error(library, status);
  } else {
    library->loaded = true;
    snprintf(library->path, sizeof(library->path), "%s", api.amdgpu.path);
  }
  for (uint32_t i = 0; i < report->node_count; ++i) {
    rl_doctor_node_t* node = &report->nodes[i];
    int fd = open(node->path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      snprintf(node->detail, sizeof(node->detail), "open: %s",
               strerror(errno));
      continue;
    }
    node->accessible = true;
    if (library->loaded) rl_doctor_describe_node(&api, node, fd);
    close(fd);
  }
  if (library->loaded && report->node_count == 0) {
    snprintf(library->error, sizeof(library->error),
             "no /dev/dri/renderD* node");
  }
  if (library->loaded) rl_drm_api_close(&api);
}

void rl_doctor_probe_kfd(rl_doctor_report_t* report) {
  if (access("/dev/kfd", F_OK) != 0) {
    snprintf(report->kfd, sizeof(report->kfd), "absent (%s)",
             strerror(errno));
    return;
  }
  report->kfd_present = true;
  if (access("/dev/kfd", R_OK | W_OK) != 0) {
    snprintf(report->kfd, sizeof(report->kfd), "present but not accessible "
             "(%s; is the user in the render group?)", strerror(errno));
    return;
  }
  report->kfd_accessible = true;
  snprintf(report->kfd, sizeof(report->kfd), "accessible");
}
