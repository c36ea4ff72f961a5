// redline/backends/drm_submit.c — submit_ib of the drm device
// (drm_device.h, device.h): one amdgpu command submission of one IB chunk
// on compute ring 0 with the device's buffer list, then a bounded fence
// wait (pm4_reference.md §5 steps 6-7).
#include <inttypes.h>
#include <string.h>

#include "redline/backends/drm_internal.h"

static struct amdgpu_cs_fence rl_drm_fence(const rl_drm_device_t* device,
                                           uint64_t seq) {
  struct amdgpu_cs_fence fence;
  memset(&fence, 0, sizeof(fence));
  fence.context = device->ctx;
  fence.ip_type = AMDGPU_HW_IP_COMPUTE;
  fence.ip_instance = 0;
  fence.ring = 0;
  fence.fence = seq;
  return fence;
}

// Waits up to |timeout_ns| for submission |seq|; *|out_done| is libdrm's
// "expired" (the fence signalled).
static rl_status_t rl_drm_wait(rl_drm_device_t* device, uint64_t seq,
                               uint64_t timeout_ns, bool* out_done) {
  struct amdgpu_cs_fence fence = rl_drm_fence(device, seq);
  uint32_t expired = 0;
  rl_status_t status = RL_DRM_CALL(&device->api, amdgpu_cs_query_fence_status,
                                   &fence, timeout_ns, 0, &expired);
  *out_done = !status && expired != 0;
  return status;
}

bool rl_drm_pending_done(rl_drm_device_t* device) {
  if (!device->pending) return true;
  bool done = false;
  rl_status_free(rl_drm_wait(device, device->pending_seq, 0, &done));
  if (done) device->pending = false;
  return done;
}

rl_status_t rl_drm_submit_ib(rl_device_t* base, uint64_t ib_address,
                             uint32_t dwords, uint64_t timeout_ns,
                             bool* out_fence_ok) {
  rl_drm_device_t* device = rl_drm_cast(base);
  *out_fence_ok = false;
  if (!rl_drm_pending_done(device)) {
    return RL_STATUS(RL_STATUS_QUARANTINED,
                     "drm: submission %" PRIu64 " has not completed; no "
                     "further submission on this device", device->pending_seq);
  }
  if (dwords == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "drm: an IB of 0 dwords");
  }
  amdgpu_bo_list_handle list = NULL;
  RL_RETURN_IF_ERROR(rl_drm_bo_list(device, &list));
  struct amdgpu_cs_ib_info ib;
  memset(&ib, 0, sizeof(ib));
  ib.ib_mc_address = ib_address;
  ib.size = dwords;  // in dwords (amdgpu.h)
  struct amdgpu_cs_request request;
  memset(&request, 0, sizeof(request));
  request.ip_type = AMDGPU_HW_IP_COMPUTE;
  request.ring = 0;
  request.resources = list;
  request.number_of_ibs = 1;
  request.ibs = &ib;
  RL_RETURN_IF_ERROR(rl_status_annotate(
      RL_DRM_CALL(&device->api, amdgpu_cs_submit, device->ctx, 0, &request,
                  1),
      "submitting the IB at 0x%" PRIx64 " (%u dwords)", ib_address, dwords));
  bool done = false;
  rl_status_t status = rl_drm_wait(device, request.seq_no, timeout_ns, &done);
  if (status) {
    // The context was lost (-ECANCELED: the kernel killed the job) or the
    // fence is unknown: nothing of this submission runs any more.
    return rl_status_annotate(status, "waiting for submission %" PRIu64,
                              request.seq_no);
  }
  if (!done) {
    device->pending = true;
    device->pending_seq = request.seq_no;
  }
  *out_fence_ok = done;
  return RL_OK;
}
