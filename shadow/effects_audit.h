// shadow/effects_audit.h — the effects and dispatch audits of a simulated
// run: what every dispatch actually touched and ran, against what its
// launch declared.
//
// Effects audit. The capture declares, per launch, the memory a kernel may
// touch: its pointer slots (buffer, extent [extent_offset, extent_offset +
// extent_size), effect READ / WRITE / READ_WRITE, redline/capture.h) plus,
// as the hazard plan assumes (redline/hazard.h), a read-write access of the
// whole of every code object variable buffer of the kernel's code object,
// plus a read of every image it reads through a descriptor binding
// (rl_capture_launch_reads_image: a texture object's image).
// The hazard plan, the AQL barrier bits and the PM4 waits are only as right
// as these declarations. The simulator records the byte ranges each
// dispatch's work-groups loaded and stored through global memory
// (rl_sim_access_log, the dynamic hazard checker's range sets); every byte
// of them that lies in a capture buffer must lie inside a declared range of
// the same direction, else it is a violation naming the step, launch,
// kernel, buffer, byte range and direction:
//   undeclared buffer   the launch has no slot on the buffer at all;
//   outside extent      the buffer is declared in that direction, but not
//                       these bytes;
//   wrong direction     only the other direction covers these bytes (a
//                       store where only a read was declared).
// Bytes outside every capture buffer (the kernarg segment, the code
// object's read-only data) are not judged. Declared slots whose extent no
// access of the dispatch touched are counted as information only (a kernel
// may legitimately skip an argument).
//
// Dispatch audit. For the same dispatches the simulator reports the grid
// and work-group size it derived from the packet and how many work-groups
// ran; each must equal the launch as bound at the step's parameter values
// (rl_launch_bind: work-groups per axis times block), else a violation
// naming the step, launch, kernel and axis.
//
// Mapping of dispatches to launches as in shadow/hazard_verdict.h: each
// step of N launches issues exactly N dispatches in launch order.
//
// Thread-safety: a watch belongs to the thread that drives its device.
#ifndef REDLINE_SHADOW_EFFECTS_AUDIT_H_
#define REDLINE_SHADOW_EFFECTS_AUDIT_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/device/device.h"
#include "shadow/dispatch_watch.h"

#ifdef __cplusplus
extern "C" {
#endif

// What the audits found, summed over the steps they watched.
typedef struct rl_effects_audit_s {
  uint64_t dispatches;          // dispatches audited
  uint32_t violations;          // effects violations (fail the run)
  char first[512];              // the first one, one line
  uint32_t dispatch_violations; // dispatch audit violations (fail the run)
  char first_dispatch[320];
  uint64_t untouched;           // declared slots never touched (information)
  char first_untouched[256];
  uint64_t lost;                // dispatches the log did not keep
} rl_effects_audit_t;

typedef rl_dispatch_watch_t rl_effects_watch_t;

// Starts watching |device| (NULL or not simulated: not watched) for
// |capture|'s launches: turns its access log on and clears it.
void rl_effects_watch_begin(rl_effects_watch_t* watch, rl_device_t* device,
                            const rl_capture_t* capture);

bool rl_effects_watch_active(const rl_effects_watch_t* watch);

// Audits the dispatches since rl_effects_watch_begin(), run at |values|
// (one per capture parameter) with |buffer_addresses| (one per capture
// buffer), into |audit|; |where| prefixes each message ("window 3
// (pos=33)"). Turns the log off. Returns the violations found (both kinds).
uint32_t rl_effects_watch_end(rl_effects_watch_t* watch,
                              const int64_t* values,
                              const uint64_t* buffer_addresses,
                              const char* where, rl_effects_audit_t* audit);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_EFFECTS_AUDIT_H_
