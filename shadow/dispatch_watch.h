// shadow/dispatch_watch.h — which dispatches of a simulated device belong
// to a capture's steps: the part the effects audit (shadow/effects_audit.h)
// and the hazard verdicts (shadow/hazard_verdict.h) share.
//
// A watch notes the device's next dispatch index (rl_sim_dispatch_next)
// before a sequence of steps; each step of N launches issues exactly N
// dispatches in launch order, so dispatch d is launch (d - base) mod N of
// step (d - base) / N. What each watch arms on the device (the access log,
// the hazard findings) stays with it.
//
// Thread-safety: a watch belongs to the thread that drives its device.
#ifndef REDLINE_SHADOW_DISPATCH_WATCH_H_
#define REDLINE_SHADOW_DISPATCH_WATCH_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/device/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_dispatch_watch_s {
  rl_device_t* device;  // NULL: nothing is watched
  const rl_capture_t* capture;
  uint64_t base;        // dispatch index of launch 0 of step 0
} rl_dispatch_watch_t;

// Starts |watch| on |device| for |capture|'s launches: notes the device's
// next dispatch index. A device that is NULL or not a simulated one is not
// watched; returns whether |device| is.
bool rl_dispatch_watch_begin(rl_dispatch_watch_t* watch, rl_device_t* device,
                             const rl_capture_t* capture);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_DISPATCH_WATCH_H_
