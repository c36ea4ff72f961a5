// shadow/hazard_verdict.h — the simulated device's dynamic hazard findings
// (sim/sim.h, rl_sim_hazards) turned into verdicts about a capture's
// launches: which two launches, which kernels, which bytes of which buffer,
// and which synchronisation was missing.
//
// The checker's findings are facts about what the kernels actually loaded
// and stored (the executor's accesses, sim_hazard_checker.h), not about the
// effects the capture declares: a plan that misses a conflict, a lowering
// that drops a barrier bit, a wait or an acquire, all show up here whatever
// the plan believed. Every path that runs a capture on a simulated device
// uses it: `redline shadow` and `redline demo` (on by default), `redline
// replay` and `redline bench` (also on by default; `--no-hazard-check`
// turns it off everywhere). A finding fails the run (exit 1).
//
// Mapping. A watch notes the device's next dispatch index before a sequence
// of steps (rl_sim_dispatch_next) and clears the device's findings; each
// step of N launches issues exactly N dispatches in launch order on every
// redline route (eager, recorded, aql, pm4), so dispatch d is launch
// (d - base) mod N of step (d - base) / N. A byte address is mapped to the
// capture buffer holding it through the arm's buffer addresses.
//
// Missing synchronisation, by the finding's ordering and kind:
//   AQL, RAW/WAR/WAW   the later launch's packet has no barrier bit (and no
//                      barrier packet with one came between them);
//   PM4, RAW/WAR/WAW   no compute-idle wait (CS_PARTIAL_FLUSH, or
//                      WAIT_REG_MEM on a RELEASE_MEM) between the launches;
//   PM4, RAW no acquire  a wait but no ACQUIRE_MEM after it before the
//                      later launch (it may read stale L0/GL1 lines).
//
// Thread-safety: a watch belongs to the thread that drives its device.
#ifndef REDLINE_SHADOW_HAZARD_VERDICT_H_
#define REDLINE_SHADOW_HAZARD_VERDICT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "redline/capture.h"
#include "redline/device/device.h"
#include "shadow/dispatch_watch.h"

#ifdef __cplusplus
extern "C" {
#endif

// Kind 4 of a finding: RAW across a wait with no acquire (PM4 only).
#define RL_HAZARD_FINDING_RAW_NO_ACQUIRE 4u

// One finding mapped onto the capture.
typedef struct rl_hazard_finding_s {
  uint32_t kind;        // 1 RAW, 2 WAR, 3 WAW, 4 RAW_NO_ACQUIRE
  bool pm4;             // found between PM4 dispatches (else AQL packets)
  uint64_t step;        // step of the watch the later launch belongs to
  uint32_t earlier_launch;  // launch indices in the capture
  uint32_t later_launch;
  uint32_t buffer;      // capture buffer, UINT32_MAX when in none
  uint64_t offset;      // first overlapping byte (in the buffer, or the
  uint64_t end;         // device address when in none); end exclusive,
                        // clipped to the buffer
  uint64_t size;        // overlapping bytes in total
  bool same_dispatch;   // earlier and later are one dispatch (a stale read
                        // between work-groups of one launch)
} rl_hazard_finding_t;

typedef rl_dispatch_watch_t rl_hazard_watch_t;

// Starts watching |device| for |capture|'s launches: clears the device's
// findings and notes its next dispatch index. A device that is not a
// simulated one is not watched (rl_hazard_watch_active() is false).
void rl_hazard_watch_begin(rl_hazard_watch_t* watch, rl_device_t* device,
                           const rl_capture_t* capture);

// True when |watch| watches a simulated device.
bool rl_hazard_watch_active(const rl_hazard_watch_t* watch);

// Maps the findings since rl_hazard_watch_begin() into |out_findings|
// (at most |capacity|, in the order found) with |buffer_addresses| (one
// per capture buffer) and returns how many there are in total.
uint32_t rl_hazard_watch_collect(const rl_hazard_watch_t* watch,
                                 const uint64_t* buffer_addresses,
                                 rl_hazard_finding_t* out_findings,
                                 uint32_t capacity);

// A 64-bit digest (FNV-1a) of every finding since rl_hazard_watch_begin()
// that the device kept, in the order found: kind, ordering, dispatches
// (relative to the watch's first), address range. Two runs that report
// the same findings in the same order have the same digest (the
// simulator's thread-count tests compare it, docs/cache-model.md). 0 when
// not watching.
uint64_t rl_hazard_watch_digest(const rl_hazard_watch_t* watch);

// "RAW", "WAR", "WAW" or "RAW (no acquire)".
const char* rl_hazard_finding_kind_name(uint32_t kind);

// The name of the kernel launch |launch| of |capture| runs ("?" when out
// of range).
const char* rl_hazard_kernel_name(const rl_capture_t* capture,
                                  uint32_t launch);

// The synchronisation that was missing, one phrase.
const char* rl_hazard_finding_missing(const rl_hazard_finding_t* finding);

// One line: "RAW between launch 3 (dc_rope) and launch 4 (dc_kv_append):
// buffer qkv bytes [256, 512) (256 bytes): no barrier bit on launch 4's AQL
// packet". Returns what snprintf returns.
int rl_hazard_finding_format(const rl_capture_t* capture,
                             const rl_hazard_finding_t* finding, char* out,
                             size_t size);

// The finding as a JSON object (NULL when out of memory).
cJSON* rl_hazard_finding_json(const rl_capture_t* capture,
                              const rl_hazard_finding_t* finding);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_HAZARD_VERDICT_H_
