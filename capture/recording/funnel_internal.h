// capture/recording/funnel_internal.h — the funnel object shared by funnel.c
// (lifecycle, buffers, parameters) and funnel_launch.c (kernarg assembly
// and launch recording). Private to rl_capture.
#ifndef REDLINE_CAPTURE_FUNNEL_INTERNAL_H_
#define REDLINE_CAPTURE_FUNNEL_INTERNAL_H_

#include "redline/funnel.h"

struct rl_funnel_s {
  rl_funnel_device_t device;  // borrowed
  rl_capture_t* capture;      // owned until finish
  bool finished;
  // Device handles of the capture's code objects, by index.
  uint64_t* code_object_handles;
  uint32_t code_object_handle_capacity;
  // Buffers [first_pending_buffer, buffer_count) have no recorded initial
  // contents yet; the next launch (or finish) snapshots them. Buffers are
  // registered in index order, so the pending ones are always a suffix.
  uint32_t first_pending_buffer;
  // For each parameter, the first launch binding it (UINT32_MAX: none yet).
  uint32_t* param_first_binder;
  uint32_t param_binder_capacity;
};

// Fails with RL_STATUS_INVALID_ARGUMENT once the funnel is finished.
rl_status_t rl_funnel_check_open(const rl_funnel_t* funnel);

// Reads the current contents of the pending buffers from the device into
// |out_snapshots| (one malloc'd array per pending buffer, in index order).
rl_status_t rl_funnel_snapshot_pending(rl_funnel_t* funnel,
                                       uint8_t*** out_snapshots);

// Stores |snapshots| (from rl_funnel_snapshot_pending) as the pending
// buffers' initial contents and marks them recorded; takes ownership.
void rl_funnel_commit_snapshots(rl_funnel_t* funnel, uint8_t** snapshots);

// Frees |snapshots| of |count| buffers without committing them.
void rl_funnel_free_snapshots(uint8_t** snapshots, uint32_t count);

#endif  // REDLINE_CAPTURE_FUNNEL_INTERNAL_H_
