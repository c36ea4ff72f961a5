// shadow/shadow_rerecord.h — the independent half of the recorded arm: each
// window's launches recorded again from the program itself.
//
// The recorded arm re-issues the capture through the funnel's typed path,
// but the values it feeds the funnel come from rl_launch_bind(), the same
// binding evaluation every replay route patches with: a wrong binding (an
// expression that no longer matches what the program computes, an evaluator
// bug) would be fed back in and agree with itself. So before each window
// the arm re-runs the workload that made the capture (kernels/workloads, by
// the capture's workload name) at the window's parameter values, through a
// fresh funnel over a device-funnel adapter (redline/device/device_funnel.h)
// on a simulated device of its own: an eager run, exactly as `redline
// capture` made the original. It then compares, launch by launch, what the
// program issued with what rl_launch_bind() makes of the capture at those
// values and at the fresh run's buffer addresses:
//   - the kernel, the block, the dynamic LDS and the work-group counts;
//   - every kernarg byte.
// A difference fails the recorded arm (RL_STATUS_MISMATCH) naming the
// window's values, the launch and kernel, the first differing byte (or
// axis), both values, and what the capture says of that byte: the binding
// expression ("kernarg[16:20] = pos"), a pointer slot, or "recorded bytes,
// no binding" (a value the capture froze that the program changes).
//
// What each route actually dispatched. Every other arm on a simulated
// device runs its step with the device's launch trace on (sim/sim.h
// rl_sim_launch_trace_*): the geometry and kernarg bytes of each dispatch
// as the kernel saw them, after the route's own patching. They must equal
// the re-recorded program's launch for launch, pointers compared as (buffer,
// offset) through each side's buffer addresses; a difference fails that arm
// ("dispatched launch 3 (dc_rope): kernarg byte 20 is 0x1f, the
// re-recorded program has 0x00 (recorded bytes, no binding)"). So a route
// that patches a value at the wrong offset, skips a patch or keeps a stale
// grid is named by launch and byte, not only by the regions it spoils.
//
// The configuration the workload was recorded with is derived from the
// capture (rl_workload_t.config_of); the seed is 1, as `redline capture`
// and `redline demo` record (initial contents never reach a kernarg).
//
// Unavailable: a capture whose workload is not registered here (interposer
// captures of foreign programs, or a workload renamed since), whose shape
// matches no configuration, or that does not have exactly one code object
// cannot be re-run. The arm then keeps only the typed-model check (funnel
// bytes == rl_launch_bind bytes) and says so in its proof's
// fallback_reason ("not re-recorded: ...") and in the report.
//
// Ownership: the shadow run (shadow_run.c) owns it when the recorded arm is
// requested and attributes its failures to that arm.
// Thread-safety: one thread (the run's).
#ifndef REDLINE_SHADOW_SHADOW_RERECORD_H_
#define REDLINE_SHADOW_SHADOW_RERECORD_H_

#include <stdbool.h>
#include <stdint.h>

#include "kernels/workloads/workload.h"
#include "redline/capture.h"
#include "redline/device/device.h"
#include "shadow/shadow.h"
#include "shadow/shadow_arm.h"

#define RL_SHADOW_RERECORD_MAX_CONFIG 8u

typedef struct rl_shadow_rerecord_s {
  const rl_capture_t* capture;  // borrowed
  const rl_workload_t* workload;  // NULL when unavailable
  rl_workload_param_value_t config[RL_SHADOW_RERECORD_MAX_CONFIG];
  uint32_t config_count;
  rl_workload_param_value_t* params;  // one per capture parameter
  rl_device_t* device;  // the fresh eager runs' device (owned)
  uint64_t wait_timeout_ns;
  char unavailable[200];  // "" when re-recording is available
  rl_capture_t* fresh;    // this window's re-recording (NULL: none)
  uint64_t windows;       // windows re-recorded and compared
  uint64_t launches;      // launches compared
} rl_shadow_rerecord_t;

// Prepares re-recording |capture| with a device opened from |options| (the
// arm's processor and executor). Unavailability is not an error: it is
// recorded in |rerecord|->unavailable. Fails only on out of memory or when
// the device cannot be opened.
rl_status_t rl_shadow_rerecord_init(rl_shadow_rerecord_t* rerecord,
                                    const rl_capture_t* capture,
                                    const rl_shadow_device_options_t* options,
                                    uint64_t wait_timeout_ns);

void rl_shadow_rerecord_deinit(rl_shadow_rerecord_t* rerecord);

// True when the workload can be re-run.
static inline bool rl_shadow_rerecord_available(
    const rl_shadow_rerecord_t* rerecord) {
  return rerecord->workload != NULL;
}

// Re-records the window at |values| (one per capture parameter), keeps the
// recording for the arms' comparisons and compares it with the capture's
// bindings (see above). RL_OK when unavailable; after a failure no
// recording is kept.
rl_status_t rl_shadow_rerecord_window(rl_shadow_rerecord_t* rerecord,
                                      const int64_t* values);

// Before |arm|'s step: turns its device's launch trace on when there is a
// recording to compare with and the device is simulated. Returns whether
// the step is traced.
bool rl_shadow_rerecord_trace_begin(const rl_shadow_rerecord_t* rerecord,
                                    rl_shadow_arm_t* arm);

// After a traced step: compares what |arm| dispatched with the recording
// and turns the trace off. RL_STATUS_MISMATCH naming the launch and byte.
rl_status_t rl_shadow_rerecord_compare_dispatched(
    const rl_shadow_rerecord_t* rerecord, rl_shadow_arm_t* arm);

#endif  // REDLINE_SHADOW_SHADOW_RERECORD_H_
