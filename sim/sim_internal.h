// sim/sim_internal.h — the simulated device's private state, shared
// by the files of rl_sim (one per concern: device, memory, loader, signal,
// queue, cp, schedule, wg, hazard checker; the PM4 interpreter adds its own
// private header, sim_pm4.h). Nothing outside sim/ includes it.
//
// Threads and locks:
//   - the engine thread calls the rl_device_t vtable;
//   - one command-processor (CP) thread per queue (sim_cp.c) consumes
//     packets and runs executors; during a parallel dispatch it runs
//     work-groups alongside up to threads - 1 worker threads of the queue's
//     pool, made on its first parallel dispatch and joined when the queue
//     is released (sim_parallel.c; their own lock and conds hand out each
//     dispatch), which touch only their own LDS, ranges and findings, the
//     memory (memory.lock, host atomics) and the cache model (its group and
//     slice locks);
//   - memory.lock (rwlock) guards the allocation table: the CP translates
//     under the read lock on every access, allocate/free take the write lock;
//   - loader.lock guards the kernel-object table;
//   - signal_lock + signal_cond are the wakeup channel for every signal
//     change (the values themselves are C11 atomics in device memory);
//   - report_lock guards the hazard list and the dispatch log;
//   - each queue's lock + cond carry the doorbell, stop and fault state;
//   - queue_lock guards the list of live queues (create, destroy, and the
//     device's destruction, which stops and joins whatever is left).
//   - the cache model's group and slice locks guard it (sim_cache.h).
// Lock order: a thread holds at most one of these at a time, except that
// memory.lock (read) is taken inside signal_lock (a barrier re-translating
// its dependent signals), memory.lock (read) and report_lock inside the
// cache model's locks (whose own order is in sim_cache.h); nothing is taken
// inside memory.lock or report_lock.
#ifndef REDLINE_SIM_SIM_INTERNAL_H_
#define REDLINE_SIM_SIM_INTERNAL_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "aql/aql_decode.h"
#include "base/clock.h"
#include "sim/sim.h"
#include "sim/sim_cache.h"
#include "sim/sim_hazard_checker.h"

// Allocations are placed at page granularity (4 KiB, the GPU page size ROCr
// allocates in) and separated by an unmapped guard gap, so an access that
// runs off the end of one buffer faults instead of landing in the next.
#define RL_SIM_PAGE_SIZE 4096ull
#define RL_SIM_GUARD_SIZE 65536ull
// Host blocks of at least this many bytes are anonymous mappings reserved
// with MAP_NORESERVE, committed page by page as they are touched; smaller
// ones come from the heap in whole cache lines. 1 MiB keeps the mapping
// count of a full 16 GiB device (16,384) far below Linux's default
// vm.max_map_count (65,530).
#define RL_SIM_MAP_MIN (1ull << 20)
// How many hazards are kept for rl_sim_hazards(); more are only counted.
#define RL_SIM_HAZARD_CAPACITY 1024u
// Most dispatches one unbarriered batch gathers; a longer run of
// unbarriered packets is split into several batches.
#define RL_SIM_BATCH_MAX 64u
// Adversarial interleaving at instruction granularity: a step runs 1..this
// many wave-instructions of one dispatch (sim_schedule.c).
#define RL_SIM_QUANTUM_MAX 16u
// ... among up to this many work-groups of each dispatch in flight at once.
#define RL_SIM_OPEN_WG_MAX 4u
// How long any sleeping wait sleeps before it re-checks its condition and
// the queue's stop flag (1 ms), so no wait depends on a wakeup alone.
#define RL_SIM_WAIT_SLICE_NS 1000000ull
// amd_signal_t.kind for a user signal (Debian hsa/amd_hsa_signal.h
// AMD_SIGNAL_KIND_USER).
#define RL_SIM_SIGNAL_KIND_USER 1

typedef struct rl_sim_allocation_s {
  uint64_t address;
  uint64_t size;
  uint8_t* host;  // NULL for a no-access range
  rl_memory_kind_t kind;
  bool no_access;  // a guard range (reserve_guard): never translates
  bool mapped;     // |host| is an mmap of the page-rounded size
} rl_sim_allocation_t;

typedef struct rl_sim_memory_s {
  pthread_rwlock_t lock;
  rl_sim_allocation_t* items;  // sorted by address, disjoint
  uint32_t count;
  uint32_t capacity;
  uint64_t next_address;  // bump pointer; freed ranges are never reused
  // The device's memory (rl_sim_options_t.memory_bytes, page rounded down)
  // and the page-rounded bytes of the live allocations (guards excluded):
  // an allocation that would take |used_bytes| past |total_bytes| fails.
  uint64_t total_bytes;
  uint64_t used_bytes;
} rl_sim_memory_t;

typedef struct rl_sim_loaded_kernel_s {
  uint64_t kernel_object;
  uint64_t entry_address;
  uint64_t handle;  // the code object it came from
  const rl_code_object_kernel_t* kernel;
} rl_sim_loaded_kernel_t;

typedef struct rl_sim_loader_s {
  pthread_mutex_t lock;
  rl_sim_loaded_kernel_t* items;  // sorted by kernel_object
  uint32_t count;
  uint32_t capacity;
} rl_sim_loader_t;

typedef struct rl_sim_device_s {
  rl_device_t base;  // first: rl_device_t* casts to rl_sim_device_t*
  rl_sim_options_t options;
  char processor[16];
  char target[64];
  rl_sim_memory_t memory;
  rl_sim_loader_t loader;
  pthread_mutex_t signal_lock;
  pthread_cond_t signal_cond;
  // Waits inside signal_lock that may sleep on signal_cond (counted from
  // before their first check of a value to after their last): a change
  // made while none is counted wakes nobody and costs no system call.
  atomic_uint signal_sleepers;
  // The CPU a command processor last ran a dispatch on (-1 unknown): a
  // signal waiter on that CPU yields its polls to it (sim_spin.c). Stored
  // only when it changes, like the two below: the CP reads this line on
  // every signal change (|signal_sleepers|).
  atomic_int cp_cpu;
  // Whether the last signal wait that succeeded took longer than the
  // polling window (sim_signal.c: a long one shortens the next wait's
  // polling).
  atomic_bool last_wait_long;
  atomic_uint next_queue_id;
  // rl_sim_set_cooperative (sim.h): dispatches validated while set are
  // cooperative (sim_coop.c).
  atomic_bool cooperative;
  pthread_mutex_t queue_lock;
  struct rl_sim_queue_s* queues;  // live queues, under queue_lock
  atomic_uint_fast64_t dispatch_count;
  pthread_mutex_t report_lock;
  rl_sim_hazard_t hazards[RL_SIM_HAZARD_CAPACITY];
  uint32_t hazard_count;  // total found, may exceed the capacity
  // Launch trace (sim.h): written under report_lock; atomic so the CP can
  // skip the lock per dispatch while tracing is off.
  atomic_bool trace_enabled;
  rl_sim_launch_record_t* trace;
  uint32_t trace_count;  // total traced; min(count, capacity) kept
  uint32_t trace_capacity;
  // Access log (sim.h): written under report_lock, like the trace.
  atomic_bool access_enabled;
  rl_sim_access_record_t* access;
  uint32_t access_count;  // total recorded; min(count, capacity) kept
  uint32_t access_capacity;
  rl_sim_dispatch_record_t log[RL_SIM_DISPATCH_LOG];
  uint64_t log_count;  // total recorded; the ring keeps the last ones
  rl_sim_cache_t cache;  // the cache model (sim_cache.h); own lock
  // Host threads a dispatch's work-groups may run on (options.threads
  // resolved at creation, sim_parallel.c).
  uint32_t threads;
} rl_sim_device_t;

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

// The host's cache line size (x86-64 and arm64 servers), for keeping
// fields that two threads write apart.
#define RL_SIM_HOST_LINE 64

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
  // with later ones (sim_hazard_checker.h).
  rl_sim_hazard_open_t open;
  // Dispatches a barrier ordered before later ones whose writes no AQL
  // acquire fence has covered since (a barrier packet with acquire scope
  // NONE): a later packet that also does not acquire and reads them is a
  // RAW (no acquire) (sim_hazard_checker.h).
  rl_sim_hazard_open_t unacquired;
  uint8_t* lds;  // RL_SIM_LDS_LIMIT bytes, zero below |lds_dirty|
  // Bytes of |lds| an executor may have written since they were last
  // zeroed: a work-group sees [0, group_segment_size) zeroed, and only the
  // dirty part of it is cleared (none with an executor that never touches
  // LDS, sim_executor.h leaves_lds_untouched).
  uint32_t lds_dirty;
  // PM4 register file and in-flight state (sim_pm4.h), created by the
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

static inline rl_sim_device_t* rl_sim_device_cast(rl_device_t* device) {
  return (rl_sim_device_t*)device;
}

// sim_memory.c
// |total_bytes|: the device's memory (0: RL_SIM_DEFAULT_MEMORY_BYTES).
rl_status_t rl_sim_memory_init(rl_sim_memory_t* memory, uint64_t total_bytes);
void rl_sim_memory_deinit(rl_sim_memory_t* memory);
rl_status_t rl_sim_memory_allocate(rl_sim_memory_t* memory, uint64_t size,
                                   uint64_t alignment, rl_memory_kind_t kind,
                                   rl_device_allocation_t* out_allocation);
rl_status_t rl_sim_memory_allocate_fixed(
    rl_sim_memory_t* memory, uint64_t address, uint64_t size,
    rl_memory_kind_t kind, rl_device_allocation_t* out_allocation);
// Places a no-access range at |address| (device.h reserve_guard): no host
// block, never translated, freed with rl_sim_memory_free.
rl_status_t rl_sim_memory_reserve_guard(rl_sim_memory_t* memory,
                                        uint64_t address, uint64_t size);
// True when some byte of [address, address + size) lies in a no-access
// range: the reason a failed access faulted.
bool rl_sim_memory_touches_guard(rl_sim_memory_t* memory, uint64_t address,
                                 uint64_t size);
// Names the live allocation a refused access of [|address|, |address| +
// |size|) ran off, for a VM fault's message: "offset 4096 of allocation
// 0x400000000000 (4096 bytes), 4 bytes past its end" when it starts inside
// one or at most RL_SIM_GUARD_SIZE bytes after one's end (without "past its
// end" when the access lies inside, e.g. a misaligned one), "8 bytes before
// the start of allocation 0x... (N bytes)" when it lies in the gap at most
// that far before one; "" (in |out_text|) when no allocation is that close.
void rl_sim_memory_describe(rl_sim_memory_t* memory, uint64_t address,
                            uint64_t size, char* out_text, size_t capacity);
rl_status_t rl_sim_memory_free(rl_sim_memory_t* memory, uint64_t address);
// Host view of [address, address + size) inside one live allocation, or
// NULL. The view stays valid until that allocation is freed.
void* rl_sim_memory_translate(rl_sim_memory_t* memory, uint64_t address,
                              uint64_t size);
// Host block of the live allocation holding |address| (NULL if none):
// [*|out_start|, *|out_end|) are its device addresses, *|out_kind| (may be
// NULL) its kind.
uint8_t* rl_sim_memory_span(rl_sim_memory_t* memory, uint64_t address,
                            uint64_t* out_start, uint64_t* out_end,
                            rl_memory_kind_t* out_kind);
// Copies under the read lock; false when the range is not inside one live
// allocation.
bool rl_sim_memory_copy_in(rl_sim_memory_t* memory, uint64_t address,
                           const void* data, uint64_t size);
bool rl_sim_memory_copy_out(rl_sim_memory_t* memory, uint64_t address,
                            void* data, uint64_t size);
// The accesses of one vector-memory instruction: lane l of |lanes| moves
// |size| (1..16) bytes at address[l], from or to data + l * 16. Under one
// read lock, when [|lo|, |hi|) — the lanes' extent — lies inside one live
// allocation, every lane is copied (scatter: in lane order, so of lanes
// writing the same byte the highest wins) and true returned; false, with
// nothing copied, otherwise.
bool rl_sim_memory_gather(rl_sim_memory_t* memory, uint64_t lo, uint64_t hi,
                          const uint64_t* address, uint32_t lanes,
                          uint32_t size, uint8_t* data);
bool rl_sim_memory_scatter(rl_sim_memory_t* memory, uint64_t lo, uint64_t hi,
                           const uint64_t* address, uint32_t lanes,
                           uint32_t size, const uint8_t* data);

// sim_loader.c
void rl_sim_loader_init(rl_sim_loader_t* loader);
void rl_sim_loader_deinit(rl_sim_loader_t* loader);
// rl_device_vtable_t.check_kernel: lays the image out on the host and asks
// the executor's check_kernel (OK when it has none).
rl_status_t rl_sim_check_kernel(rl_device_t* device, const void* bytes,
                                size_t size, const rl_code_object_t* parsed,
                                const rl_code_object_kernel_t* kernel);
rl_status_t rl_sim_load_code_object(rl_device_t* device, const void* bytes,
                                    size_t size, const rl_code_object_t* parsed,
                                    rl_device_code_object_t* out_code_object);
rl_status_t rl_sim_unload_code_object(rl_device_t* device,
                                      const rl_device_code_object_t* object);
// Copies the entry for |kernel_object|; false when it is not a loaded `.kd`.
bool rl_sim_loader_find(rl_sim_loader_t* loader, uint64_t kernel_object,
                        rl_sim_loaded_kernel_t* out_kernel);
// Copies the entry whose first instruction is at |entry_address| (what a PM4
// dispatch's COMPUTE_PGM_LO/HI name); false when no loaded kernel starts
// there.
bool rl_sim_loader_find_entry(rl_sim_loader_t* loader, uint64_t entry_address,
                              rl_sim_loaded_kernel_t* out_kernel);

// sim_signal.c
rl_status_t rl_sim_signal_create(rl_device_t* device, int64_t initial_value,
                                 rl_device_allocation_t* out_signal);
rl_status_t rl_sim_signal_destroy(rl_device_t* device, uint64_t signal);
void rl_sim_signal_store(rl_device_t* device, uint64_t signal, int64_t value);
int64_t rl_sim_signal_load(rl_device_t* device, uint64_t signal);
bool rl_sim_signal_spin_lt(rl_device_t* device, uint64_t signal, int64_t value,
                           uint64_t timeout_ns, int64_t* out_value);
bool rl_sim_signal_wait_lt(rl_device_t* device, uint64_t signal, int64_t value,
                           uint64_t timeout_ns, int64_t* out_value);
// The atomic value of the signal at |signal|, or NULL when it is not a
// 64-byte, 8-aligned object inside live memory.
_Atomic int64_t* rl_sim_signal_value(rl_sim_device_t* device, uint64_t signal);
// Decrements |signal| by one (release) and wakes every waiter.
void rl_sim_signal_decrement(rl_sim_device_t* device, uint64_t signal);
// Wakes every thread sleeping on any signal (after a change or a stop).
void rl_sim_signal_wake_all(rl_sim_device_t* device);
// Takes signal_lock and counts the caller in signal_sleepers (before it
// checks any value), and the reverse: every wait that may sleep on
// signal_cond is bracketed by these two.
void rl_sim_signal_lock(rl_sim_device_t* device);
void rl_sim_signal_unlock(rl_sim_device_t* device);
// Sleeps on the signal channel until |deadline_ns| (CLOCK_MONOTONIC) or at
// most one wait slice, whichever is first. The caller holds signal_lock.
void rl_sim_signal_sleep(rl_sim_device_t* device, uint64_t deadline_ns);

// A spin-wait hint to the core (x86 PAUSE, AArch64 YIELD).
static inline void rl_sim_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}
// The polling phase of a wait (sim_spin.c): PAUSE polls, except that a
// poll yields the core (sched_yield, at most twice) while |other_cpu| — the
// CPU the side that will end the wait last ran on, -1 unknown — is the
// waiter's own; until |window_ns| after start or a third yield would be
// due, then the caller sleeps (counted as a
// sleeper, so the other side wakes it). Usage:
//   rl_sim_spin_t spin;
//   for (rl_sim_spin_start(&spin, WINDOW, &cpu); !ready();) {
//     if (!rl_sim_spin_again(&spin)) { sleep until ready; break; }
//   }
typedef struct rl_sim_spin_s {
  uint64_t start_ns, window_ns;
  const atomic_int* other_cpu;
  uint32_t polls;
  uint32_t yields;  // polls that yielded the core (tests read it)
} rl_sim_spin_t;
void rl_sim_spin_start(rl_sim_spin_t* spin, uint64_t window_ns,
                       const atomic_int* other_cpu);
// The CPU the calling thread runs on (sched_getcpu), -1 when unknown.
int rl_sim_current_cpu(void);
// One poll's wait: false when the window is over.
bool rl_sim_spin_again(rl_sim_spin_t* spin);
// Sleeps |ns| on CLOCK_MONOTONIC (no lock, nobody wakes it early).
void rl_sim_nap_ns(uint64_t ns);
// pthread_cond_timedwait on |cond| (|lock| held) until |deadline_ns|
// (CLOCK_MONOTONIC) or at most RL_SIM_WAIT_SLICE_NS, whichever is first.
void rl_sim_cond_sleep(pthread_cond_t* cond, pthread_mutex_t* lock,
                       uint64_t deadline_ns);
uint64_t rl_sim_timestamp(rl_device_t* device);
void rl_sim_log_dispatch(rl_sim_device_t* device,
                         const rl_sim_dispatch_record_t* record);
void rl_sim_report_hazard(rl_sim_device_t* device,
                          const rl_sim_hazard_t* hazard);
// sim_trace.c: records |launch| (dispatch |dispatch_index|) when tracing.
void rl_sim_trace_launch(rl_sim_device_t* device, const rl_sim_launch_t* launch,
                         uint64_t dispatch_index);
void rl_sim_trace_deinit(rl_sim_device_t* device);
// sim_access_log.c: records the end of |run| when the access log is on.
void rl_sim_access_log_run(rl_sim_device_t* device, const rl_sim_run_t* run);
void rl_sim_access_log_deinit(rl_sim_device_t* device);

// sim_queue.c
rl_status_t rl_sim_queue_create(rl_device_t* device, uint32_t packet_count,
                                rl_device_queue_t* out_queue);
rl_status_t rl_sim_queue_destroy(rl_device_t* device, rl_device_queue_t* queue);
void rl_sim_queue_doorbell(rl_device_t* device, rl_device_queue_t* queue,
                           uint64_t packet_id);
bool rl_sim_queue_idle(rl_device_t* device, const rl_device_queue_t* queue);
// Publishes |run|'s work-groups done and total as the queue's progress
// (CP thread; at a dispatch's start and after each work-group).
void rl_sim_queue_progress_note(rl_sim_queue_t* queue, const rl_sim_run_t* run);
void rl_sim_queue_progress(rl_device_t* device, const rl_device_queue_t* queue,
                           rl_device_progress_t* out_progress);
void rl_sim_queue_fault(rl_device_t* device, const rl_device_queue_t* queue,
                        rl_device_fault_t* out_fault);
// Stops and joins the command processor of every queue still live on
// |device| and frees them: what the device's destruction does first, so no
// CP thread runs a kernel into memory that is being freed. Packets in
// flight are abandoned at the next work-group boundary or, inside a
// work-group, at the executor's next stop poll (sim_executor.h
// rl_sim_wg_stopping: every RL_SIM_WG_STOP_POLL wave-instructions); every
// CP loop re-checks the stop flag there and in every wait slice.
void rl_sim_queues_stop_all(rl_sim_device_t* device);
// Puts |queue| in the error state with |message| (consumes |status| when
// not OK, appending its message). Called from the CP thread only.
void rl_sim_queue_set_fault(rl_sim_queue_t* queue, uint64_t packet_id,
                            uint64_t address, const char* what,
                            rl_status_t status);

// sim_cp.c
void* rl_sim_cp_main(void* queue);
// The 64-byte slot of dispatch id |id|.
uint8_t* rl_sim_cp_slot(rl_sim_queue_t* queue, uint64_t id);
// Retires packet |id|: header INVALID (release), read id + 1 (release),
// then the completion signal (if any) minus one.
void rl_sim_cp_retire(rl_sim_queue_t* queue, uint64_t id,
                      uint64_t completion_signal);

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
// the open list (sim_hazard_checker.h).
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

#endif  // REDLINE_SIM_SIM_INTERNAL_H_
