// Route drm of the replay engine (redline/replay_route.h): route pm4's IB
// (replay_route_pm4.c builds it; there is no AQL queue) submitted directly
// through the device's submit_ib (libdrm_amdgpu command submission), one
// submission per run, and a bounded wait on its fence. A chained stream
// (pm4/pm4_lower.h Chained IBs) is submitted as its first IB, as Mesa's
// winsys submits a chained command stream: the CP follows the chain.
//
// Publication is part of the submission, so publish does nothing and the
// wait submits: the host work of a run (rl_replay_counters_t.host_ns) is
// the apply. An expired fence wait sets |ib_pending|: the IB may still
// run, so nothing is freed (release refuses with RL_STATUS_QUARANTINED).
#include <inttypes.h>

#include "redline/replay_internal.h"
#include "redline/replay_route_state.h"

static bool rl_route_drm_device_runs(const rl_device_t* device) {
  return device->vtable->submit_ib != NULL;
}

static rl_status_t rl_route_drm_publish(rl_replay_t* replay,
                                        uint64_t* out_last) {
  (void)replay;
  *out_last = 0;
  return RL_OK;
}

static rl_status_t rl_route_drm_wait(rl_replay_t* replay, uint64_t last) {
  (void)last;
  rl_device_t* device = replay->device;
  rl_replay_route_state_t* state = replay->route_state;
  const uint64_t timeout = replay->options.wait_timeout_ns;
  bool fence_ok = false;
  RL_RETURN_IF_ERROR(device->vtable->submit_ib(device, state->ib.address,
                                               state->pm4->stats.entry_dwords,
                                               timeout, &fence_ok));
  ++replay->counters.doorbells;
  replay->counters.packets_published += 1;
  if (fence_ok) return RL_OK;
  state->ib_pending = true;
  return RL_STATUS(RL_STATUS_QUARANTINED,
                   "bounded wait of %" PRIu64 " ns on the fence of the IB "
                   "at 0x%" PRIx64 " expired; it may still execute",
                   timeout, state->ib.address);
}

static rl_status_t rl_route_drm_release(rl_replay_t* replay) {
  if (replay->route_state && replay->route_state->ib_pending) {
    return RL_STATUS(RL_STATUS_QUARANTINED,
                     "the submitted IB has not completed: its memory is "
                     "left to the device");
  }
  return rl_replay_pm4_release_ib(replay);
}

const rl_replay_route_t rl_replay_route_drm = {
    .route = RL_ROUTE_DRM,
    .name = "drm",
    .device_runs = rl_route_drm_device_runs,
    .kernarg_size = rl_pm4_kernarg_segment_size,
    .prepare = rl_replay_pm4_prepare_ib,
    .apply = rl_replay_route_apply,
    .publish = rl_route_drm_publish,
    .wait = rl_route_drm_wait,
    .proof = rl_replay_pm4_proof,
    .stream_packet = rl_replay_pm4_stream_packet,
    .stream_ib = rl_replay_pm4_stream_ib,
    .patch_site = rl_replay_pm4_patch_site,
    .release = rl_route_drm_release,
    .destroy = rl_replay_pm4_destroy,
};
