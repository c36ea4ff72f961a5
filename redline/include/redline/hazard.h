// redline/hazard.h — where a launch sequence needs a wait, and why.
//
// Every launch touches memory through accesses: (buffer, byte range, effect).
// For a capture these are the pointer slots of each launch (the slot's
// extent and effect, redline/capture.h), plus a read-write access of the
// whole of every code object variable buffer of the kernel's code object
// (the kernel may reach those without a pointer argument) and a read of the
// whole of every image it reads through a descriptor binding
// (rl_capture_launch_reads_image). Two accesses conflict when they are
// on the same buffer, their byte ranges overlap and at least one of them
// writes:
//   RAW  the earlier access writes, the later one reads;
//   WAW  both write (and the later one does not read);
//   WAR  the earlier access only reads, the later one writes.
// When both could apply (read-write accesses) the first in that order names
// the conflict. Read-read never conflicts; disjoint ranges and different
// buffers never conflict; an access with effect NONE or size 0 is ignored.
//
// Waits. Launches issued since the last wait may run concurrently, so a wait
// is needed before launch i when any access of i conflicts with any access
// issued since the last wait (the "frontier"), not only with launch i-1:
// A→B and B→C may be conflict-free while A and C conflict, and then C waits.
// A wait completes everything before it, so it empties the frontier; launch
// i's own accesses then start the new one. The first launch of a plan never
// waits: a plan assumes everything before it has completed (as at the start
// of a replay or of a shadow window). Accesses of the same launch never
// conflict with each other (one dispatch has no internal ordering to keep).
//
// Dependency edges (for graph views such as hipGraph). Independently of
// waits, each launch gets at most one edge per (conflict kind, buffer): from
// the most recent earlier launch of the plan it conflicts with in that way.
// Edges are not transitively reduced. The per-buffer history drops an
// access once a newer one of the same direction covers its range, so the
// work stays proportional to launches × accesses for the usual whole-buffer
// or repeating extents.
//
// Cost: O(launches × accesses × live accesses of the same buffer), with no
// pass over all pairs of launches.
//
// Thread-safety: a plan is immutable after creation.
#ifndef REDLINE_HAZARD_H_
#define REDLINE_HAZARD_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rl_hazard_kind_e {
  RL_HAZARD_NONE = 0,
  RL_HAZARD_RAW = 1,
  RL_HAZARD_WAR = 2,
  RL_HAZARD_WAW = 3,
  RL_HAZARD_KIND_COUNT_ = 4,
} rl_hazard_kind_t;

// One access of one launch: |size| bytes at |offset| of buffer |buffer|.
typedef struct rl_hazard_access_s {
  uint32_t buffer;
  uint64_t offset;
  uint64_t size;
  rl_effect_t effect;
} rl_hazard_access_t;

// The accesses of one launch, for rl_hazard_plan_compute().
typedef struct rl_hazard_launch_s {
  const rl_hazard_access_t* accesses;
  uint32_t access_count;
} rl_hazard_launch_t;

// A conflict between an access of a later launch and one of |earlier|.
typedef struct rl_hazard_conflict_s {
  rl_hazard_kind_t kind;
  uint32_t buffer;
  uint64_t offset;  // the overlapping byte range [offset, offset + size)
  uint64_t size;
  uint32_t earlier;  // launch index (absolute, see first_launch)
} rl_hazard_conflict_t;

// The boundary before one launch of the plan.
typedef struct rl_hazard_boundary_s {
  bool needs_wait;
  // The first conflict found (accesses in slot order, frontier newest
  // first); kind RL_HAZARD_NONE when no wait is needed.
  rl_hazard_conflict_t reason;
} rl_hazard_boundary_t;

// A dependency of launch |to| on launch |from| (absolute indices).
typedef struct rl_hazard_edge_s {
  uint32_t from;
  uint32_t to;
  rl_hazard_kind_t kind;
  uint32_t buffer;
} rl_hazard_edge_t;

typedef struct rl_hazard_plan_s {
  // The plan covers launches [first_launch, first_launch + launch_count).
  uint32_t first_launch;
  uint32_t launch_count;
  // boundaries[k] is the boundary before launch first_launch + k;
  // boundaries[0].needs_wait is always false.
  rl_hazard_boundary_t* boundaries;
  uint32_t wait_count;  // boundaries with needs_wait
  // Ordered by |to|, then by kind and buffer in order of discovery.
  uint32_t edge_count;
  rl_hazard_edge_t* edges;
} rl_hazard_plan_t;

// Plans all launches of |capture|.
rl_status_t rl_hazard_plan_create(const rl_capture_t* capture,
                                  rl_hazard_plan_t** out_plan);

// Plans launches [|first|, |first| + |count|) of |capture| as a sequence of
// its own (a shadow window, a bisection half). Fails with
// RL_STATUS_INVALID_ARGUMENT when the range is outside the capture.
rl_status_t rl_hazard_plan_create_range(const rl_capture_t* capture,
                                        uint32_t first, uint32_t count,
                                        rl_hazard_plan_t** out_plan);

// Plans |launch_count| hand-built launches. Every access must name a buffer
// below |buffer_count|, have an effect in NONE..READ_WRITE and a range that
// does not overflow; otherwise RL_STATUS_INVALID_ARGUMENT names the launch
// and access. |first_launch| is added to every launch index the plan reports
// (launches[0] is launch |first_launch|).
rl_status_t rl_hazard_plan_compute(const rl_hazard_launch_t* launches,
                                   uint32_t launch_count,
                                   uint32_t buffer_count,
                                   uint32_t first_launch,
                                   rl_hazard_plan_t** out_plan);

void rl_hazard_plan_destroy(rl_hazard_plan_t* plan);

// "RAW", "WAR", "WAW" or "none".
const char* rl_hazard_kind_name(rl_hazard_kind_t kind);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_HAZARD_H_
