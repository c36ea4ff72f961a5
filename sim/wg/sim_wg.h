// sim/wg/sim_wg.h — dispatch execution (module sim/wg): a batch of
// kernel dispatches run to their retirement, one work-group at a time or in
// parallel (sim_schedule.c, sim_wg.c, sim_coop.c, sim_parallel.c), with what
// they leave behind recorded: accessed byte ranges and the hazards found in
// them (sim_hazard_checker.c), the dispatch log and the hazard list
// (sim_report.c), the launch trace (sim_trace.c), the access log
// (sim_access_log.c). The queue, run and launch records live here; the
// command processor above (sim/cp) decodes packets into them and calls in.
// Calls down only: sim/signal, sim/mem, sim/clock, and the executor through
// its vtable (sim_executor.h).
//
// The dynamic hazard checker (sim_hazard_checker.c).
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
// completed without a compute-idle wait (sim/cp/sim_cp.h).
//
// Ordered is not yet visible: a barrier bit makes the later packet wait for
// the earlier ones to complete, but its reads go through the vector L0 and
// scalar caches, which only an acquire fence at agent or system scope
// invalidates (LLVM AMDGPUUsage, memory model for GFX11: "acquire" at agent
// scope = buffer_gl0_inv/gl1_inv; the AQL packet's acquire fence scope
// does the same at packet start, HSA runtime spec 2.9.1 / sim/mem/sim_mem.h). So
// at a barrier packet whose acquire scope is NONE the open list moves to
// the queue's unacquired list instead of being forgotten, and a later
// dispatch that does not acquire either and reads what those wrote is
// reported as RAW_NO_ACQUIRE (ordering AQL); an acquiring packet empties
// the list. This is the AQL counterpart of the PM4 rule (a wait without
// ACQUIRE_MEM), and it does not depend on the cache model being on.
//
// Thread-safety: a range set belongs to the command-processor thread that
// owns the dispatch; the device's hazard list is under its report lock.
#ifndef REDLINE_SIM_WG_SIM_WG_H_
#define REDLINE_SIM_WG_SIM_WG_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "aql/aql_decode.h"
#include "redline/status.h"
#include "sim/mem/sim_mem.h"
#include "sim/sim.h"

// Most dispatches one unbarriered batch gathers; a longer run of
// unbarriered packets is split into several batches.
#define RL_SIM_BATCH_MAX 64u
// Adversarial interleaving at instruction granularity: a step runs 1..this
// many wave-instructions of one dispatch (sim_schedule.c).
#define RL_SIM_QUANTUM_MAX 16u
// ... among up to this many work-groups of each dispatch in flight at once.
#define RL_SIM_OPEN_WG_MAX 4u

typedef struct rl_sim_range_s {
  uint64_t begin;
  uint64_t end;  // exclusive
} rl_sim_range_t;

#define RL_SIM_RANGE_RECENT 4u

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
  // Per lane, 1 + the index of the logged range lane l's last access landed
  // in (0: none; rl_sim_range_set_log_lanes), and the index of the interval
  // of |items| that last held it. Only hints: each is used only when that
  // range still holds (or, logged, touches) the lane's next access.
  uint32_t lane_pending[32];
  uint32_t lane_item[32];
  // The intervals the last RL_SIM_RANGE_RECENT searches found (hints too),
  // |recent_next| counting them.
  uint32_t recent[RL_SIM_RANGE_RECENT];
  uint32_t recent_next;
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
rl_status_t rl_sim_range_set_add_sorted(rl_sim_range_set_t* set,
                                        const rl_sim_range_t* ranges,
                                        uint32_t count);

// Logs [|begin|, |begin| + |size|) for |set| without sorting it in: an
// append (the hot path of the simulator's access recording), the log
// sorted and merged into |items| when it grows past a bound and by
// rl_sim_range_set_settle(). Until then |items| and |count| miss the
// logged ranges: whoever reads the set settles it first (the simulator:
// when a dispatch ends, rl_sim_run_end, and when the work-group threads'
// sets merge, sim_parallel.c). Fails only when out of memory.
rl_status_t rl_sim_range_set_log(rl_sim_range_set_t* set, uint64_t begin,
                                 uint64_t size);

// Logs the accesses of one vector-memory instruction (lane l of |lanes|:
// |size| bytes at address[l]) as rl_sim_range_set_log() lane by lane does,
// the same set once settled; a lane whose access starts inside or right
// after the range its previous access was logged into extends that range
// instead of adding one (a wave walking a strided column byte by byte logs
// one range per lane, not one per lane and instruction), and a lane whose
// access lies in the interval of the set that held its previous one is
// done without a search (lanes striding over a set of many small
// intervals, as one thread's share of a dispatch's reads can be).
rl_status_t rl_sim_range_set_log_lanes(rl_sim_range_set_t* set,
                                       const uint64_t* address, uint32_t lanes,
                                       uint32_t size);

// Merges the logged ranges into the set (the set rl_sim_range_set_add()
// would give range by range) and empties the log. Fails only when out of
// memory (the logged ranges are then lost, the set keeps the others).
rl_status_t rl_sim_range_set_settle(rl_sim_range_set_t* set);

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

// One kernel launch as a command processor decoded it, from an AQL dispatch
// packet (sim_wg.c) or from the PM4 register file and a DISPATCH_DIRECT
// (sim_pm4_dispatch.c): the input both share in rl_sim_run_launch().
typedef struct rl_sim_launch_s {
  uint64_t packet_id;       // dispatch id of the AQL packet
  uint64_t packet_address;  // AQL packet, or the PM4 dispatch-ptr image (0)
  rl_sim_loaded_kernel_t kernel;
  uint32_t dimensions;
  uint32_t workgroup_size[3];
  uint32_t grid_size[3];  // work-items
  uint32_t group_segment_size;
  uint32_t private_segment_size;
  uint64_t kernarg_address;
  uint64_t completion_signal;  // 0 for PM4 dispatches (the packet retires)
  // PM4 only: the USER_DATA values the CP loads into s0.. (see
  // rl_sim_dispatch_t.user_sgprs); they must outlive the run.
  const uint32_t* user_sgprs;
  uint32_t user_sgpr_count;
} rl_sim_launch_t;

// One kernel dispatch of a batch, owned by the CP thread.
typedef struct rl_sim_run_s {
  rl_sim_dispatch_t dispatch;
  uint64_t completion_signal;
  void* state;        // the executor's, from begin()
  bool begun;         // begin() succeeded and end() is still due
  uint64_t wg_total;  // product of workgroup_count
  uint64_t wg_done;
  uint64_t wg_stride;  // adversarial: permutation of work-group order
  uint64_t wg_offset;
  uint64_t wg_next;    // (wg_offset + wg_done * wg_stride) % wg_total
  uint64_t start_timestamp;
  bool finished;
  // AQL: the packet's acquire fence scope, applied to the caches when its
  // first work-group starts (PM4 dispatches: NONE, the IB acquires).
  uint32_t acquire_scope;
  rl_sim_range_set_t reads;
  rl_sim_range_set_t writes;
  // Adversarial interleaving at instruction granularity (sim_schedule.c):
  // the work-groups in flight (open_wg[0, open_count)), how many have been
  // opened, and the random stream of the slots and quanta drawn for them.
  struct rl_sim_open_wg_s* open_wg[RL_SIM_OPEN_WG_MAX];
  uint32_t open_count;
  uint64_t wg_opened;
  uint64_t quantum_rng;
  // A cooperative dispatch's work-groups, all open at once (sim_coop.c);
  // NULL otherwise and after rl_sim_run_end.
  struct rl_sim_coop_s* coop;
} rl_sim_run_t;

typedef enum rl_sim_queue_state_e {
  RL_SIM_QUEUE_RUNNING = 0,
  RL_SIM_QUEUE_FAULTED = 1,
  RL_SIM_QUEUE_HUNG = 2,
} rl_sim_queue_state_t;

typedef struct rl_sim_queue_s {
  rl_sim_device_t* device;
  uint32_t id;
  uint32_t packet_count;
  uint8_t* ring;  // host view of packet_count * 64 bytes
  uint64_t ring_address;
  uint64_t descriptor_address;  // amd_queue_t-shaped: ids at 56 and 128
  _Atomic uint64_t* write_index;
  _Atomic uint64_t* read_index;
  pthread_t thread;
  bool thread_started;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  // The doorbell's cache line, apart from the fields the CP writes while
  // it runs (a doorbell that shares their line pays for taking it back
  // from the CP's core): one past the last id rung, raised by the producer
  // with an atomic max; the producer wakes the CP only when it sleeps
  // (|sleepers| > 0), so a doorbell rung while the CP polls or naps costs
  // no system call (sim_queue.c).
  _Alignas(RL_SIM_HOST_LINE) _Atomic uint64_t doorbell_end;
  atomic_uint sleepers;  // CP waits asleep on |cond| for the doorbell
  // The CPU of the last doorbell's producer (-1 unknown): the CP polling
  // for the next doorbell on that CPU yields its polls (sim_spin.c).
  atomic_int producer_cpu;
  _Alignas(RL_SIM_HOST_LINE) atomic_bool stop;
  atomic_uint_fast64_t hang_id;  // UINT64_MAX: none
  atomic_int state;              // rl_sim_queue_state_t
  rl_device_fault_t fault;       // under lock; set once
  // Progress for waits (queue_progress): written by the CP thread only
  // (rl_sim_queue_progress_note), read by any.
  _Atomic uint64_t progress_events;
  _Atomic uint64_t progress_wg_done;
  _Atomic uint64_t progress_wg_total;
  // CP-thread-only state.
  // Worker threads for parallel dispatches (sim_parallel.c), made on the
  // first; NULL before.
  struct rl_sim_parallel_s* parallel;
  rl_sim_run_t runs[RL_SIM_BATCH_MAX];
  uint32_t run_count;
  // Bit k set while runs[k] is launched and unfinished: picking the next
  // run is a few bit operations, not a scan of the batch.
  uint64_t unfinished;
  // Dispatches since the last packet with the barrier bit set, unordered
  // with later ones (the hazard checker, above).
  rl_sim_hazard_open_t open;
  // Dispatches a barrier ordered before later ones whose writes no AQL
  // acquire fence has covered since (a barrier packet with acquire scope
  // NONE): a later packet that also does not acquire and reads them is a
  // RAW (no acquire) (the hazard checker, above).
  rl_sim_hazard_open_t unacquired;
  uint8_t* lds;  // RL_SIM_LDS_LIMIT bytes, zero below |lds_dirty|
  // Bytes of |lds| an executor may have written since they were last
  // zeroed: a work-group sees [0, group_segment_size) zeroed, and only the
  // dirty part of it is cleared (none with an executor that never touches
  // LDS, sim_executor.h leaves_lds_untouched).
  uint32_t lds_dirty;
  // PM4 register file and in-flight state (sim/cp/sim_cp.h), created by the
  // first PM4-IB packet; CP-thread-only.
  struct rl_sim_pm4_state_s* pm4;
  // The device's list of live queues (under device->queue_lock).
  struct rl_sim_queue_s* prev;
  struct rl_sim_queue_s* next;
} rl_sim_queue_t;

// Per-work-group context behind rl_sim_wg_t.context.
typedef struct rl_sim_wg_context_s {
  rl_sim_device_t* device;
  rl_sim_run_t* run;
  uint8_t* lds;
  // Where the work-group's accesses are recorded: the run's sets, or a
  // worker thread's own (sim_parallel.c), merged when the dispatch ends.
  rl_sim_range_set_t* reads;
  rl_sim_range_set_t* writes;
  // This work-group's writes alone, when a caller watches them
  // (rl_sim_wg_watch_writes; NULL otherwise).
  rl_sim_range_set_t* wg_writes;
  uint64_t fault_address;  // set by a failed access
  uint32_t wgp;            // the WGP it runs on (cache-model placement)
  // Whose stop flag rl_sim_wg_stopping() reads (NULL: never stopping, for
  // tests that run an executor without a queue).
  rl_sim_queue_t* queue;
} rl_sim_wg_context_t;

// sim_report.c: the device's dispatch log and hazard list (read back
// through sim.h rl_sim_dispatch_log, rl_sim_hazards).
void rl_sim_log_dispatch(rl_sim_device_t* device,
                         const rl_sim_dispatch_record_t* record);
void rl_sim_report_hazard(rl_sim_device_t* device,
                          const rl_sim_hazard_t* hazard);
// Copies the records a read-back returns: the first of |total| recorded,
// at most |kept| (how many the list holds) and |capacity| (the caller's
// room), each |size| bytes, from |records| to |out|. Called under the
// report lock (rl_sim_hazards, rl_sim_launch_trace_take).
void rl_sim_report_copy(void* out, const void* records, size_t size,
                        uint32_t total, uint32_t kept, uint32_t capacity);
// sim_trace.c: records |launch| (dispatch |dispatch_index|) when tracing.
void rl_sim_trace_launch(rl_sim_device_t* device, const rl_sim_launch_t* launch,
                         uint64_t dispatch_index);
void rl_sim_trace_deinit(rl_sim_device_t* device);
// sim_access_log.c: records the end of |run| when the access log is on.
void rl_sim_access_log_run(rl_sim_device_t* device, const rl_sim_run_t* run);
void rl_sim_access_log_deinit(rl_sim_device_t* device);

// sim_retire.c: the end of a packet, shared by the batches and the
// command processor above.
// The 64-byte slot of dispatch id |id|.
uint8_t* rl_sim_cp_slot(rl_sim_queue_t* queue, uint64_t id);
// Retires packet |id|: header INVALID (release), read id + 1 (release),
// then the completion signal (if any) minus one.
void rl_sim_cp_retire(rl_sim_queue_t* queue, uint64_t id,
                      uint64_t completion_signal);
// Publishes |run|'s work-groups done and total as the queue's progress
// (CP thread; at a dispatch's start and after each work-group).
void rl_sim_queue_progress_note(rl_sim_queue_t* queue, const rl_sim_run_t* run);

// sim_wg.c: validation of a dispatch packet into a run, and the executor.
// Validates a decoded dispatch packet against the loaded kernels, memory and
// limits, fills |run| and calls the executor's begin(). On failure
// *|out_fault_address| names the offending address (0 if none).
rl_status_t rl_sim_run_prepare(rl_sim_queue_t* queue, uint64_t id,
                               const rl_aql_decoded_t* packet,
                               rl_sim_run_t* run, uint64_t* out_fault_address);
// The shared half of rl_sim_run_prepare(): validates |launch| against the
// kernel's limits and memory (scratch, LDS, work-group size, kernarg
// segment), fills |run| and calls the executor's begin().
rl_status_t rl_sim_run_launch(rl_sim_queue_t* queue,
                              const rl_sim_launch_t* launch, rl_sim_run_t* run,
                              uint64_t* out_fault_address);
rl_status_t rl_sim_run_workgroup(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                 uint64_t wg_index,
                                 uint64_t* out_fault_address);
// rl_sim_run_workgroup on behalf of worker thread |worker| of
// sim_parallel.c: the executor's run_workgroup_on, |lds| (zeroed by the
// caller) as the work-group's LDS, its accesses recorded into |reads| and
// |writes|.
rl_status_t rl_sim_run_workgroup_on(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                    uint64_t wg_index, uint32_t worker,
                                    uint8_t* lds, rl_sim_range_set_t* reads,
                                    rl_sim_range_set_t* writes,
                                    uint64_t* out_fault_address);
void rl_sim_run_end(rl_sim_queue_t* queue, rl_sim_run_t* run);
// The resumable form of rl_sim_run_workgroup() (executors with wg_step):
// opens work-group |wg_index| of |run| as run->open_wg[open_count++], with
// its own zeroed LDS; steps open_wg[|slot|] by at most |quantum|
// wave-instructions (*|out_done| once it has ended); closes open_wg[|slot|]
// (also when it has not ended: a fault, a stop), moving the last open one
// into its slot.
rl_status_t rl_sim_wg_open(rl_sim_queue_t* queue, rl_sim_run_t* run,
                           uint64_t wg_index, uint64_t* out_fault_address);
rl_status_t rl_sim_wg_step(rl_sim_queue_t* queue, rl_sim_run_t* run,
                           uint32_t slot, uint64_t quantum, bool* out_done,
                           uint64_t* out_fault_address);
void rl_sim_wg_close(rl_sim_queue_t* queue, rl_sim_run_t* run, uint32_t slot);
// Closes |open| in the executor and frees it (its slot is the caller's).
void rl_sim_open_wg_free(rl_sim_queue_t* queue, struct rl_sim_open_wg_s* open);
// What rl_sim_wg_open and the cooperative runs (sim_coop.c) share: creates
// work-group |wg_index| of |run| with its own zeroed LDS, set up but not yet
// opened in the executor (rl_sim_open_wg_free frees it); then opens it in
// the executor, a failure translated by rl_sim_wg_failed (the caller closes
// the slot it put |open| in).
rl_status_t rl_sim_open_wg_create(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                  uint64_t wg_index,
                                  struct rl_sim_open_wg_s** out_open);
rl_status_t rl_sim_open_wg_start(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                 struct rl_sim_open_wg_s* open,
                                 uint64_t* out_fault_address);
// True when |status| (from rl_sim_run_workgroup or rl_sim_wg_step) is an
// executor's stop (sim_executor.h rl_sim_wg_stopped) while |queue| is
// stopping: then it is consumed, and the work-group counts as neither done
// nor failed. False otherwise (|status| is left to the caller).
bool rl_sim_wg_was_stopped(rl_sim_queue_t* queue, rl_status_t status);
// A work-group in flight between quanta: what rl_sim_run_workgroup keeps on
// its stack, plus the LDS of its own (the queue's is for whole work-groups).
typedef struct rl_sim_open_wg_s {
  rl_sim_wg_t wg;
  rl_sim_wg_context_t context;
  void* state;  // the executor's, from wg_open()
  uint8_t* lds;
} rl_sim_open_wg_t;
// Fills |wg| and |context| for work-group |wg_index| of |run|, with |lds|
// as its LDS; and the executor's failure annotated with the work-group
// (*|out_fault_address| its fault address). Shared with sim_coop.c.
void rl_sim_wg_setup(rl_sim_queue_t* queue, rl_sim_run_t* run,
                     uint64_t wg_index, uint8_t* lds, rl_sim_wg_t* wg,
                     rl_sim_wg_context_t* context);
rl_status_t rl_sim_wg_failed(rl_status_t status, const rl_sim_wg_t* wg,
                             uint64_t* out_fault_address);

// sim_coop.c: the schedule of a cooperative dispatch (its work-groups all
// open at once, stepped in turn). rl_sim_coop_applies: whether |run| takes
// it (cooperative, and the executor can pause work-groups); step: one
// quantum of one work-group, opening them all first, finishing the run
// after the last; end: closes what is open (rl_sim_run_end).
bool rl_sim_coop_applies(const rl_sim_queue_t* queue, const rl_sim_run_t* run);
rl_status_t rl_sim_coop_step(rl_sim_queue_t* queue, rl_sim_run_t* run,
                             uint64_t* out_fault_address);
void rl_sim_coop_end(rl_sim_queue_t* queue, rl_sim_run_t* run);
// sim_schedule.c: records the end of |run| (dispatch log, executor end).
void rl_sim_schedule_finish(rl_sim_queue_t* queue, rl_sim_run_t* run);

// sim_schedule.c: gathers the unbarriered batch starting with the dispatch
// |first| (dispatch id |first_id|) into queue->runs; fails only for the
// first packet (later problems end the batch early).
rl_status_t rl_sim_schedule_gather(rl_sim_queue_t* queue, uint64_t first_id,
                                   const rl_aql_decoded_t* first,
                                   uint64_t* out_fault_address);
// Runs the gathered batch and retires its packets in order; on a fault
// *|out_fault_id| is the packet that faulted.
rl_status_t rl_sim_schedule_batch(rl_sim_queue_t* queue, uint64_t first_id,
                                  uint64_t* out_fault_id,
                                  uint64_t* out_fault_address);
// Pieces of the batch machinery the PM4 interpreter (sim_pm4_batch.c) runs
// its in-flight dispatches with. The random state |rng| is splitmix64.
uint64_t rl_sim_schedule_random(uint64_t* rng);
// Gives |run| its work-group order: linear, or (adversarial) a random
// affine permutation.
void rl_sim_schedule_order_run(rl_sim_queue_t* queue, rl_sim_run_t* run,
                               uint64_t* rng);
// Picks an unfinished run among queue->runs[0, |limit|): the first one
// (sequential) or a uniformly random one (adversarial); |limit| when all of
// them have finished.
uint32_t rl_sim_schedule_pick(rl_sim_queue_t* queue, uint32_t limit,
                              uint64_t* rng);
// Runs the next work-group of |run| (stamping its start first, logging and
// ending it after its last one). When the queue is stopping, a work-group
// the executor left unfinished returns OK with |run| unfinished: callers
// check the stop flag before their next step.
rl_status_t rl_sim_schedule_step(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                 uint64_t* out_fault_address);

// sim_parallel.c: a dispatch's work-groups on several host threads
// (docs/cache-model.md "Work-groups in parallel").
// True when |run| (none of its work-groups run yet) goes to
// rl_sim_parallel_run: more than one thread, sequential mode, an executor
// with run_workgroup_on, at least two work-groups, no device printf.
bool rl_sim_parallel_wanted(const rl_sim_queue_t* queue,
                            const rl_sim_run_t* run);
// Runs every work-group of |run| and merges what they found, as
// rl_sim_run_workgroup called for each in linear order would have left it;
// on a fault the failing work-group is the lowest-numbered one that failed.
// Sets run->wg_done (wg_total when all ran).
rl_status_t rl_sim_parallel_run(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                uint64_t* out_fault_address);
// Ends and joins |queue|'s worker threads and frees their state (after its
// CP thread ended; nothing when it made none).
void rl_sim_parallel_pool_free(rl_sim_queue_t* queue);
// For rl_sim_report_hazard: true when the calling thread is a worker of a
// parallel dispatch, which then keeps |hazard| for the deterministic merge.
bool rl_sim_parallel_capture(const rl_sim_hazard_t* hazard);

// sim_hazard_checker.c: reports overlaps between the runs of the queue's
// batch and against its open list, then moves the batch's accesses into
// the open list (the hazard checker, above).
void rl_sim_hazard_check_batch(rl_sim_queue_t* queue);
// Reports one kind of overlap of |earlier_set| and |later_set|.
void rl_sim_hazard_report_overlap(rl_sim_device_t* device, uint32_t kind,
                                  uint32_t ordering, uint64_t earlier,
                                  const rl_sim_range_set_t* earlier_set,
                                  uint64_t later,
                                  const rl_sim_range_set_t* later_set);
// Reports RAW, WAR and WAW of dispatch |earlier| (its accesses) against
// |later|, which nothing ordered after it.
void rl_sim_hazard_check_unordered(rl_sim_device_t* device, uint32_t ordering,
                                   uint64_t earlier,
                                   const rl_sim_range_set_t* earlier_reads,
                                   const rl_sim_range_set_t* earlier_writes,
                                   const rl_sim_run_t* later);

#endif  // REDLINE_SIM_WG_SIM_WG_H_
