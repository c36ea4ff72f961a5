// The dispatches a watch covers (shadow/dispatch_watch.h).
#include "shadow/dispatch_watch.h"

#include "sim/sim.h"

bool rl_dispatch_watch_begin(rl_dispatch_watch_t* watch, rl_device_t* device,
                             const rl_capture_t* capture) {
  *watch = (rl_dispatch_watch_t){.capture = capture};
  if (!device || !rl_sim_device_is(device)) return false;
  watch->device = device;
  watch->base = rl_sim_dispatch_next(device);
  return true;
}
