// redline/backends/drm_device.c — opening and closing the drm device, its
// target and its vtable (drm_device.h). Memory is in drm_memory.c, the
// submission in drm_submit.c.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redline/backends/drm_internal.h"

// The first and last render minors the kernel hands out (drm_drv.c:
// DRM_MINOR_RENDER is 128 + index, 64 of them).
#define RL_DRM_RENDER_FIRST 128
#define RL_DRM_RENDER_LAST 191

// Devices closed while a submission was still pending, kept reachable on
// purpose (a deliberate retention, not a lost pointer).
static rl_drm_device_t* rl_drm_retained;

const char* rl_drm_processor(uint32_t family_id, uint32_t chip_external_rev) {
  switch (family_id) {
    case AMDGPU_FAMILY_GC_11_0_0:
      return chip_external_rev >= 0x01 && chip_external_rev < 0x10
                 ? "gfx1100" : NULL;
    case AMDGPU_FAMILY_GC_11_5_0:
      return chip_external_rev >= 0xC0 && chip_external_rev < 0xFF
                 ? "gfx1151" : NULL;
    case AMDGPU_FAMILY_GC_12_0_0:
      return chip_external_rev >= 0x50 && chip_external_rev < 0xFF
                 ? "gfx1201" : NULL;
    default: return NULL;
  }
}

static uint64_t rl_drm_timestamp(rl_device_t* base) {
  rl_drm_device_t* device = rl_drm_cast(base);
  uint64_t ticks = 0;
  device->api.fn.amdgpu_query_info(device->dev, AMDGPU_INFO_TIMESTAMP,
                                   sizeof(ticks), &ticks);
  return ticks;
}

static void rl_drm_destroy(rl_device_t* base) {
  rl_drm_device_t* device = rl_drm_cast(base);
  if (device->pending && !rl_drm_pending_done(device)) {
    device->retained_next = rl_drm_retained;
    rl_drm_retained = device;
    return;
  }
  rl_status_free(rl_drm_memory_release_all(device));
  if (device->ctx) device->api.fn.amdgpu_cs_ctx_free(device->ctx);
  if (device->dev) device->api.fn.amdgpu_device_deinitialize(device->dev);
  if (device->fd >= 0) close(device->fd);
  if (device->api_open) rl_drm_api_close(&device->api);
  free(device->bos);
  free(device);
}

static const rl_device_vtable_t rl_drm_vtable = {
    .destroy = rl_drm_destroy,
    .allocate = rl_drm_allocate,
    .allocate_fixed = rl_drm_allocate_fixed,
    .free = rl_drm_free,
    .write = rl_drm_write,
    .read = rl_drm_read,
    .load_code_object = rl_drm_load_code_object,
    .unload_code_object = rl_drm_unload_code_object,
    // No AQL queues: route drm only (drm_device.h).
    .queue_create = NULL,
    .signal_create = rl_drm_signal_create,
    .signal_destroy = rl_drm_signal_destroy,
    .signal_store = rl_drm_signal_store,
    .signal_load = rl_drm_signal_load,
    .signal_wait_lt = rl_drm_signal_wait_lt,
    .timestamp = rl_drm_timestamp,
    .submit_ib = rl_drm_submit_ib,
};

// Initialises |path| as an amdgpu device and names its processor.
static rl_status_t rl_drm_open_node(rl_drm_device_t* device, const char* path,
                                    const char* processor) {
  device->fd = open(path, O_RDWR | O_CLOEXEC);
  if (device->fd < 0) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE, "open %s: %s", path,
                     strerror(errno));
  }
  uint32_t major = 0, minor = 0;
  RL_RETURN_IF_ERROR(rl_status_annotate(
      RL_DRM_CALL(&device->api, amdgpu_device_initialize, device->fd, &major,
                  &minor, &device->dev),
      "render node %s", path));
  struct amdgpu_gpu_info info;
  memset(&info, 0, sizeof(info));
  RL_RETURN_IF_ERROR(RL_DRM_CALL(&device->api, amdgpu_query_gpu_info,
                                 device->dev, &info));
  const char* name = rl_drm_processor(info.family_id, info.chip_external_rev);
  if (!name) {
    const char* family = rl_drm_family_name(info.family_id);
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "render node %s: amdgpu family %u%s%s, chip external "
                     "rev 0x%x is not a redline target: redline targets "
                     "gfx1100 (family %u GC 11.0.0), gfx1151 (family %u "
                     "GC 11.5.0), gfx1201 (family %u GC 12.0.0)",
                     path, info.family_id, family ? " " : "",
                     family ? family : "", info.chip_external_rev,
                     AMDGPU_FAMILY_GC_11_0_0, AMDGPU_FAMILY_GC_11_5_0,
                     AMDGPU_FAMILY_GC_12_0_0);
  }
  if (processor && strcmp(processor, name) != 0) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "render node %s is a %s, not the requested %s", path,
                     name, processor);
  }
  snprintf(device->processor, sizeof(device->processor), "%s", name);
  snprintf(device->target, sizeof(device->target), "amdgcn-amd-amdhsa--%s",
           name);
  snprintf(device->node, sizeof(device->node), "%s", path);
  device->base.timestamp_frequency = 1000ull * info.gpu_counter_freq;
  if (device->base.timestamp_frequency == 0) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "render node %s reports a counter frequency of 0", path);
  }
  return RL_OK;
}

// Closes a node that did not fit, so the scan can try the next.
static void rl_drm_close_node(rl_drm_device_t* device) {
  if (device->dev) device->api.fn.amdgpu_device_deinitialize(device->dev);
  device->dev = NULL;
  if (device->fd >= 0) close(device->fd);
  device->fd = -1;
}

// The explicit node, or the first render node that opens as a target.
static rl_status_t rl_drm_select_node(rl_drm_device_t* device,
                                      const rl_drm_options_t* options) {
  const char* path = options->render_node;
  if (!path) path = getenv(RL_DRM_RENDER_NODE_ENV);
  if (path && path[0]) {
    return rl_drm_open_node(device, path, options->processor);
  }
  char tried[1024] = "";
  for (int minor = RL_DRM_RENDER_FIRST; minor <= RL_DRM_RENDER_LAST; ++minor) {
    char node[64];
    snprintf(node, sizeof(node), "/dev/dri/renderD%d", minor);
    if (access(node, F_OK) != 0) continue;
    rl_status_t status = rl_drm_open_node(device, node, options->processor);
    if (!status) return RL_OK;
    size_t used = strlen(tried);
    snprintf(tried + used, sizeof(tried) - used, "%s%s", used ? "; " : "",
             rl_status_message(status));
    rl_status_free(status);
    rl_drm_close_node(device);
  }
  return RL_STATUS(RL_STATUS_UNAVAILABLE, "%s",
                   tried[0] ? tried : "no /dev/dri/renderD* node (set "
                   RL_DRM_RENDER_NODE_ENV " to choose one)");
}

static rl_status_t rl_drm_device_init(rl_drm_device_t* device,
                                      const rl_drm_options_t* options) {
  RL_RETURN_IF_ERROR(rl_drm_api_open(&device->api, options->library));
  device->api_open = true;
  RL_RETURN_IF_ERROR(rl_drm_select_node(device, options));
  return RL_DRM_CALL(&device->api, amdgpu_cs_ctx_create, device->dev,
                     &device->ctx);
}

rl_status_t rl_drm_device_create(const rl_drm_options_t* options,
                                 rl_device_t** out_device) {
  *out_device = NULL;
  static const rl_drm_options_t defaults = {0};
  if (!options) options = &defaults;
  rl_drm_device_t* device = calloc(1, sizeof(*device));
  if (!device) return rl_status_out_of_memory();
  device->fd = -1;
  device->base = (rl_device_t){
      .vtable = &rl_drm_vtable,
      .name = "drm",
      .target = device->target,
      .lds_limit = 65536,  // AMDGPUUsage "Memory Spaces": 64 KiB on gfx11+
  };
  rl_status_t status = rl_drm_device_init(device, options);
  if (status) {
    rl_drm_destroy(&device->base);
    if (rl_status_is(status, RL_STATUS_UNAVAILABLE)) {
      return rl_status_annotate(status, "device drm");
    }
    // Open failures are "device unavailable" (exit 8), as for rocr.
    rl_status_t recoded = rl_status_make(
        RL_STATUS_UNAVAILABLE, rl_status_file(status), rl_status_line(status),
        "device drm: %s", rl_status_message(status));
    rl_status_free(status);
    return recoded;
  }
  *out_device = &device->base;
  return RL_OK;
}

void rl_drm_probe(const char* library, rl_drm_probe_t* out_probe) {
  memset(out_probe, 0, sizeof(*out_probe));
  const rl_drm_options_t options = {.library = library};
  rl_device_t* base = NULL;
  rl_status_t status = rl_drm_device_create(&options, &base);
  if (status) {
    snprintf(out_probe->reason, sizeof(out_probe->reason), "%s",
             rl_status_message(status));
    rl_status_free(status);
    return;
  }
  rl_drm_device_t* device = rl_drm_cast(base);
  out_probe->available = true;
  snprintf(out_probe->target, sizeof(out_probe->target), "%s", device->target);
  snprintf(out_probe->node, sizeof(out_probe->node), "%s", device->node);
  rl_drm_destroy(base);
}
