// capture/interposer/interposer_observe.c — observed effects
// (capture/interposer/interposer_internal.h; the rule for users:
// docs/capture-interposer.md "Observed effects").
//
// The runtime the interposer forwards to may export the observation entry
// points of capture/recording/hip_observe_abi.h (redline's HIP runtime over the
// simulator does; ROCm's does not). When it does, each launch the
// interposer forwards is keyed by the runtime's launch number, and the
// kernel nodes of a recorded hipGraphLaunch by the numbers the call
// queued, in node order; the launches complete asynchronously, so their
// observed ranges are read only at write-out, after the hipDeviceSynchronize
// that precedes it, and turned into effects by rl_observed_effects_apply
// when the runtime ran the kernel the launch records. Copies and fills are
// not keyed: the copy kernels declare their effects exactly.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "capture/recording/observed_effects.h"
#include "base/array.h"

void rl_ip_observe_start(rl_interposer_t* ip) {
  if (ip->observe_begun) return;
  ip->observe_begun = true;
  // REDLINE_CAPTURE_OBSERVE=0: record the effects as a runtime without
  // observation would (to compare the hazard plans).
  const char* observe = getenv("REDLINE_CAPTURE_OBSERVE");
  if (observe && strcmp(observe, "0") == 0) return;
  rl_hip_observe_begin_fn begin =
      (rl_hip_observe_begin_fn)rl_ip_real(ip, RL_HIP_OBSERVE_BEGIN);
  ip->observe_last =
      (rl_hip_observe_last_launch_fn)rl_ip_real(ip, RL_HIP_OBSERVE_LAST_LAUNCH);
  ip->observe_launch =
      (rl_hip_observe_launch_fn)rl_ip_real(ip, RL_HIP_OBSERVE_LAUNCH);
  ip->observe_end = (rl_hip_observe_end_fn)rl_ip_real(ip, RL_HIP_OBSERVE_END);
  if (!begin || !ip->observe_last || !ip->observe_launch || !ip->observe_end) {
    ip->observe_last = NULL;
    ip->observe_launch = NULL;
    ip->observe_end = NULL;
    return;
  }
  begin();
}

// Keys capture launch |launch| by the runtime's launch |submission|.
static void rl_ip_observe_key(rl_interposer_t* ip, uint32_t launch,
                              uint64_t submission) {
  if (submission == 0 || !ip->funnel) return;
  rl_status_t status = RL_ARRAY_RESERVE(&ip->observed, &ip->observed_capacity,
                                        ip->observed_count + 1);
  if (status) {  // that launch keeps its recorded effects
    rl_status_free(status);
    return;
  }
  ip->observed[ip->observed_count++] =
      (rl_ip_observed_t){.launch = launch, .submission = submission};
}

void rl_ip_observe_forwarded(rl_interposer_t* ip, uint32_t launch) {
  if (ip->observe_last) rl_ip_observe_key(ip, launch, ip->observe_last());
}

uint64_t rl_ip_observe_mark(rl_interposer_t* ip) {
  return ip->observe_last ? ip->observe_last() : 0;
}

void rl_ip_observe_graph(rl_interposer_t* ip, uint64_t mark,
                         const uint32_t* launches, uint32_t kernels) {
  // Keyed only when the call queued exactly one launch per kernel node.
  if (!ip->observe_last || !launches ||
      ip->observe_last() - mark != kernels) {
    return;
  }
  for (uint32_t j = 0; j < kernels; ++j) {
    if (launches[j] != UINT32_MAX) {
      rl_ip_observe_key(ip, launches[j], mark + 1 + j);
    }
  }
}

// Host memory (pinned, managed, registered: interposer_host.c) is reached
// by the simulator at addresses other than the capture's (a mirror, or its
// own mapping), so what it observed says nothing about such a buffer: the
// slots pointing into one get back their recorded effects |kept|. Returns
// how many of the |changed| slots were restored.
static uint32_t rl_ip_observe_keep_host(const rl_interposer_t* ip,
                                        const rl_capture_launch_t* launch,
                                        const rl_pointer_slot_t* kept,
                                        uint32_t changed) {
  uint32_t restored = 0;
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    for (uint32_t b = 0; b < ip->buffer_count; ++b) {
      const rl_ip_buffer_t* buffer = &ip->buffers[b];
      if (buffer->index != launch->slots[s].buffer ||
          !rl_ip_memory_host(buffer->memory)) {
        continue;
      }
      if (memcmp(&launch->slots[s], &kept[s], sizeof(kept[s])) != 0) {
        launch->slots[s] = kept[s];
        restored += restored < changed;
      }
      break;
    }
  }
  return restored;
}

void rl_ip_observe_apply(rl_interposer_t* ip, rl_capture_t* capture) {
  for (uint32_t i = 0; capture && ip->observe_launch && i < ip->observed_count;
       ++i) {
    rl_hip_observed_t observed;
    if (!ip->observe_launch(ip->observed[i].submission, &observed)) continue;
    const rl_capture_launch_t* launch =
        &capture->launches[ip->observed[i].launch];
    if (!observed.kernel ||
        strcmp(observed.kernel, capture->kernels[launch->kernel].name) != 0) {
      continue;  // not the launch it was keyed to: effects left as recorded
    }
    uint32_t changed = 0;
    const rl_capture_launch_t before = *launch;
    rl_pointer_slot_t kept[before.slot_count + 1];
    memcpy(kept, before.slots, before.slot_count * sizeof(*kept));
    rl_status_t status = rl_observed_effects_apply(
        capture, ip->observed[i].launch, &observed, &changed);
    if (status) {
      rl_ip_fail(status, "observed effects");
      continue;
    }
    changed -= rl_ip_observe_keep_host(ip, launch, kept, changed);
    ip->observed_slots += changed;
  }
  if (ip->observe_end) ip->observe_end();
  free(ip->observed);
  ip->observed = NULL;
  ip->observed_count = ip->observed_capacity = 0;
}
