// sim/sim_hazard_checker.h — the simulated device's dynamic hazard
// checker. Private to rl_sim.
//
// Every kernel-dispatch run records the byte ranges it actually loaded and
// stored (rl_sim_wg_load/rl_sim_wg_store) into two range sets. A range set
// keeps sorted, disjoint, coalesced [begin, end) intervals: the common case
// of a kernel touching consecutive 4-byte words appends to or extends the
// last interval in O(1); an out-of-order access (work-groups interleaved by
// the adversarial scheduler) is placed by binary search and merged with its
// neighbours. The simulator's per-access recording does not insert: it
// logs each range (rl_sim_range_set_log, dropping ranges the set already
// covers) and sorts the log into the set when it fills and once when the
// dispatch ends (rl_sim_run_end), which is the same set. At the end of an
// unbarriered batch, rl_sim_hazard_check_batch()
// intersects the sets of every pair of dispatches of the batch (a linear
// merge walk per pair) and reports RAW, WAR and WAW overlaps in program
// order, whatever order the work-groups actually ran in. It does not look at
// declared effects: it is the independent witness for them.
//
// Batches are a scheduling device, not the ordering rule: a batch is also
// cut at RL_SIM_BATCH_MAX packets or at a packet not yet published, and the
// packets on both sides of such a cut are still unordered (no barrier bit
// between them). So the dispatches of every batch stay in the queue's open
// list (rl_sim_hazard_open_t) until a packet with the barrier bit set, and
// each later dispatch is checked against them too: the verdict depends only
// on the barrier bits of the stream, never on when the host published it.
// The PM4 interpreter keeps the same list for dispatches a full batch
// completed without a compute-idle wait (sim_pm4.h).
//
// Ordered is not yet visible: a barrier bit makes the later packet wait for
// the earlier ones to complete, but its reads go through the vector L0 and
// scalar caches, which only an acquire fence at agent or system scope
// invalidates (LLVM AMDGPUUsage, memory model for GFX11: "acquire" at agent
// scope = buffer_gl0_inv/gl1_inv; the AQL packet's acquire fence scope
// does the same at packet start, HSA runtime spec 2.9.1 / sim_cache.h). So
// at a barrier packet whose acquire scope is NONE the open list moves to
// the queue's unacquired list instead of being forgotten, and a later
// dispatch that does not acquire either and reads what those wrote is
// reported as RAW_NO_ACQUIRE (ordering AQL); an acquiring packet empties
// the list. This is the AQL counterpart of the PM4 rule (a wait without
// ACQUIRE_MEM), and it does not depend on the cache model being on.
//
// Thread-safety: a range set belongs to the command-processor thread that
// owns the dispatch; the device's hazard list is under its report lock.
#ifndef REDLINE_SIM_SIM_HAZARD_CHECKER_H_
#define REDLINE_SIM_SIM_HAZARD_CHECKER_H_

#include <stdint.h>

#include "redline/status.h"

typedef struct rl_sim_range_s {
  uint64_t begin;
  uint64_t end;  // exclusive
} rl_sim_range_t;

typedef struct rl_sim_range_set_s {
  rl_sim_range_t* items;  // sorted by begin, disjoint, non-adjacent
  uint32_t count;
  uint32_t capacity;
  // The interval the last add landed in (valid when below |count|): a
  // range inside it adds nothing, found without a search (the lanes of a
  // gather re-reading what earlier waves read).
  uint32_t hint;
  // Ranges logged but not yet in |items| (rl_sim_range_set_log): in the
  // order they came, each joined to the one before when it starts inside
  // or right after it. rl_sim_range_set_settle() sorts them in.
  rl_sim_range_t* pending;
  uint32_t pending_count;
  uint32_t pending_capacity;
} rl_sim_range_set_t;

// Adds [|begin|, |begin| + |size|) to |set|, merging with overlapping or
// adjacent intervals. Fails only when out of memory (|set| unchanged).
rl_status_t rl_sim_range_set_add(rl_sim_range_set_t* set, uint64_t begin,
                                 uint64_t size);

// Adds |count| ranges, sorted by begin, disjoint and not touching (the
// lanes of one instruction, coalesced): the set rl_sim_range_set_add()
// would give range by range, with one move of the intervals after them
// instead of one per range. Fails only when out of memory (|set|
// unchanged).
// Logs [|begin|, |begin| + |size|) for |set| without sorting it in: an
// append (the hot path of the simulator's access recording), the log
// sorted and merged into |items| when it grows past a bound and by
// rl_sim_range_set_settle(). Until then |items| and |count| miss the
// logged ranges: whoever reads the set settles it first (the simulator:
// when a dispatch ends, rl_sim_run_end, and when the work-group threads'
// sets merge, sim_parallel.c). Fails only when out of memory.
rl_status_t rl_sim_range_set_log(rl_sim_range_set_t* set, uint64_t begin,
                                 uint64_t size);

// Merges the logged ranges into the set (the set rl_sim_range_set_add()
// would give range by range) and empties the log. Fails only when out of
// memory (the logged ranges are then lost, the set keeps the others).
rl_status_t rl_sim_range_set_settle(rl_sim_range_set_t* set);

rl_status_t rl_sim_range_set_add_sorted(rl_sim_range_set_t* set,
                                        const rl_sim_range_t* ranges,
                                        uint32_t count);

// Empties |set| and keeps its storage for the next dispatch.
void rl_sim_range_set_clear(rl_sim_range_set_t* set);

// Frees |set|'s storage.
void rl_sim_range_set_deinit(rl_sim_range_set_t* set);

// Number of bytes in both |a| and |b|; *|out_first| is the first of them
// (0 when there are none).
uint64_t rl_sim_range_set_overlap(const rl_sim_range_set_t* a,
                                  const rl_sim_range_set_t* b,
                                  uint64_t* out_first);

// The same, and *|out_end| one past the last common byte (0 when none).
uint64_t rl_sim_range_set_overlap_span(const rl_sim_range_set_t* a,
                                       const rl_sim_range_set_t* b,
                                       uint64_t* out_first, uint64_t* out_end);

// The accesses of a dispatch that is still unordered with later ones.
typedef struct rl_sim_hazard_open_entry_s {
  uint64_t dispatch_index;
  rl_sim_range_set_t reads;
  rl_sim_range_set_t writes;
} rl_sim_hazard_open_entry_t;

// Most entries an open list keeps; the oldest are dropped beyond this (a
// stream without any barrier bit for that long is not checked further back).
#define RL_SIM_HAZARD_OPEN_MAX 256u

typedef struct rl_sim_hazard_open_s {
  rl_sim_hazard_open_entry_t* items;
  uint32_t count;
  uint32_t capacity;
} rl_sim_hazard_open_t;

// Moves |reads| and |writes| into a new entry of |open| (they are left
// empty, without storage). Fails only when out of memory (then the sets
// are only cleared: the dispatch is forgotten).
rl_status_t rl_sim_hazard_open_add(rl_sim_hazard_open_t* open,
                                   uint64_t dispatch_index,
                                   rl_sim_range_set_t* reads,
                                   rl_sim_range_set_t* writes);

// Moves every entry of |from| to the end of |to| (oldest dropped beyond
// RL_SIM_HAZARD_OPEN_MAX); |from| is left empty.
void rl_sim_hazard_open_move(rl_sim_hazard_open_t* to,
                             rl_sim_hazard_open_t* from);

// Forgets every entry (an ordering point) and keeps the storage.
void rl_sim_hazard_open_clear(rl_sim_hazard_open_t* open);
void rl_sim_hazard_open_deinit(rl_sim_hazard_open_t* open);

#endif  // REDLINE_SIM_SIM_HAZARD_CHECKER_H_
