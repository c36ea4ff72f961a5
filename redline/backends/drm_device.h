// redline/backends/drm_device.h — the `drm` device: redline/device/device.h
// implemented on libdrm_amdgpu (loaded with dlopen through drm_loader.h),
// submitting PM4 indirect buffers to a compute ring with amdgpu command
// submission (pm4_reference.md §5). It runs route drm only: no AQL queues
// (queue_create is NULL), one submission per replay step.
//
// Opening: the render node is rl_drm_options_t.render_node, else
// $REDLINE_DRM_RENDER_NODE, else the first of /dev/dri/renderD128..191 that
// amdgpu_device_initialize accepts. amdgpu_query_gpu_info's family id and
// chip_external_rev name the exact processor (the kernel sets
// external_rev_id = rev_id + 0x01 for GC 11.0.0, + 0xC1 for GC 11.5.1 and
// + 0x50 for GC 12.0.1; Mesa's amdgpu_asic_addr.h ranges):
//   family 145 (GC 11.0.0), rev [0x01, 0x10)  gfx1100
//   family 150 (GC 11.5.0), rev [0xC0, 0xFF)  gfx1151
//   family 152 (GC 12.0.0), rev [0x50, 0xFF)  gfx1201
// Anything else is refused with RL_STATUS_UNAVAILABLE naming the family
// and what redline targets. Then a context (amdgpu_cs_ctx_create).
//
// Memory: every allocation is one buffer object (amdgpu_bo_alloc; GTT for
// KERNARG/SYSTEM, VRAM for DEVICE, all CPU_ACCESS_REQUIRED), given a GPU
// VA (amdgpu_va_range_alloc; allocate_fixed passes the address as
// va_base_required), mapped (amdgpu_bo_va_op MAP) and CPU-mapped
// (amdgpu_bo_cpu_map). The device address is the GPU VA; the host view is
// the CPU map (never assumed equal). One buffer list (amdgpu_bo_list_create)
// covers every live BO; it is rebuilt before a submission only when the set
// of BOs changed, so a replay's steps reuse it.
//
// Signals: 64-byte amd_signal_t-shaped host-visible BOs; the value is read
// and written with host atomics through the CPU map; waits poll with a
// bound.
//
// Code objects: the PT_LOAD image laid out (rl_code_object_load_image) in
// a BO at its GPU VA; kernel objects are load_base + descriptor address.
//
// Submission (submit_ib, device.h): amdgpu_cs_submit of one IB chunk
// (AMDGPU_HW_IP_COMPUTE, ring 0) with the buffer list, then
// amdgpu_cs_query_fence_status with the caller's timeout. An expired wait
// leaves the submission pending: further submissions are refused until its
// fence signals, and destroying the device then frees nothing (the device
// is retained on purpose, as rocr does for a live queue).
//
// Thread-safety: as device.h, one engine thread at a time.
#ifndef REDLINE_BACKENDS_DRM_DEVICE_H_
#define REDLINE_BACKENDS_DRM_DEVICE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/device/device.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_DRM_RENDER_NODE_ENV "REDLINE_DRM_RENDER_NODE"

typedef struct rl_drm_options_s {
  const char* processor;    // "gfx1100"...; NULL: whatever the node is
  const char* library;      // libdrm_amdgpu path; NULL: env, then default
  const char* render_node;  // NULL: $REDLINE_DRM_RENDER_NODE, then scan
} rl_drm_options_t;

rl_status_t rl_drm_device_create(const rl_drm_options_t* options,
                                 rl_device_t** out_device);

// The processor redline targets for amdgpu |family_id| and
// |chip_external_rev| ("gfx1100"), or NULL.
const char* rl_drm_processor(uint32_t family_id, uint32_t chip_external_rev);

// For `redline doctor`: opens the device with default options and closes
// it. Never fails; *|out_probe| holds the result or why not.
typedef struct rl_drm_probe_s {
  bool available;
  char target[96];   // "amdgcn-amd-amdhsa--gfx1100" when available
  char node[256];    // the render node opened
  char reason[1024]; // why not available
} rl_drm_probe_t;
void rl_drm_probe(const char* library, rl_drm_probe_t* out_probe);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BACKENDS_DRM_DEVICE_H_
