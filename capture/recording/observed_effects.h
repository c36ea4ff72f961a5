// capture/recording/observed_effects.h — a launch's pointer effects from the memory
// the capture run observed it to touch, for code objects without access
// metadata (docs/capture-interposer.md "Observed effects").
//
// clang with Debian's HIP headers emits no .actual_access / .access
// metadata, so the funnel gives every such pointer slot source UNKNOWN:
// read-write of its whole buffer, and the hazard plan (redline/hazard.h)
// then waits at nearly every boundary. When the capture ran on redline's
// simulator, the HIP runtime there reports the byte ranges each launch's
// work-groups loaded and stored (capture/recording/hip_observe_abi.h); this module
// turns them into the slots' effects, source OBSERVED.
//
// Attribution is by buffer, not by pointer: the simulator sees addresses,
// not which kernel argument an address came from. For each UNKNOWN slot of
// the launch on buffer B, the accesses that fall inside B (its capture
// address and size) give
//   effect  READ when some byte was loaded, WRITE when some byte was
//           stored, READ_WRITE for both, NONE for neither;
//   extent  the smallest interval holding every such byte (one interval per
//           slot, so scattered accesses are covered by their hull), or the
//           empty extent at the pointer when none was touched.
// When several slots of the launch point into the same buffer, each of them
// gets everything observed in that buffer (both directions, the one hull):
// conservative, since any of them may have made any of the accesses. Slots
// of other sources (declared, metadata) are left as they are. Accesses
// outside every slot's buffer (code object variables, which the hazard plan
// already takes whole, or memory reached through a pointer stored in
// memory) change nothing; the effects audit of a later simulated run
// reports the latter (shadow/effects_audit.h).
//
// What was observed is one run: where the touched range moves with a
// parameter, this records the range of the capture's values only (a step
// capture gives the union over its steps), and a later run that touches
// more fails the effects audit naming the access.
//
// Thread-safety: none; the caller owns |capture|.
#ifndef REDLINE_CAPTURE_OBSERVED_EFFECTS_H_
#define REDLINE_CAPTURE_OBSERVED_EFFECTS_H_

#include <stdint.h>

#include "capture/recording/hip_observe_abi.h"
#include "redline/capture.h"

#ifdef __cplusplus
extern "C" {
#endif

// Sets the effects of launch |launch|'s UNKNOWN slots from |observed|
// (device addresses of the capture run, compared with the buffers'
// capture_address) by the rules above; *|out_changed| counts the slots
// that became OBSERVED (may be NULL). Fails with RL_STATUS_INVALID_ARGUMENT
// for a launch index out of range or a range with begin > end; |capture|
// is then unchanged.
rl_status_t rl_observed_effects_apply(rl_capture_t* capture, uint32_t launch,
                                      const rl_hip_observed_t* observed,
                                      uint32_t* out_changed);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_CAPTURE_OBSERVED_EFFECTS_H_
