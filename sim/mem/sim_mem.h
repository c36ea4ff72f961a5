// sim/mem/sim_mem.h — the simulated device's memory (module sim/mem:
// sim_memory.c, sim_loader.c, sim_cache.c): the allocation table and the
// host blocks behind it, the kernel objects loaded into it, the cache model
// between the work-groups and it, and the device's state record
// (rl_sim_device_t) that every module above shares. It calls only down
// (base, the public sim.h); a finding of the cache model reaches the
// device's hazard list through rl_sim_upcalls_t, which the device sets.
//
// The cache model (sim_cache.c): the simulated GPU's cache hierarchy:
// what makes a missing or too-weak acquire, a missing L2 write-back or a
// too-narrow AQL fence scope change bytes, as it can on hardware. Private to
// rl_sim;
// docs/cache-model.md has the rules with their sources and what is
// simplified.
//
// Levels (RDNA3 gfx11 and RDNA4 gfx12; LLVM AMDGPUUsage "Memory Model
// GFX10-GFX11" and "Memory Model GFX12"):
//   - a vector L0 (GLV/TCP) and a scalar cache (GLK/K$) per WGP. Hardware
//     has one vector L0 per CU (two per WGP); the model keeps one per WGP,
//     which is exact in CU mode and misses only WGP-mode sharing between
//     the two CUs of one work-group;
//   - a GL1 per shader array, gfx11 only (gfx12 has no L1 cache: ROCm GPU
//     specs table "L1 cache: N/A" for gfx1201; AMDGPUUsage GFX12 no longer
//     has buffer_gl1_inv);
//   - the L2 (GL2), shared by the whole agent: the device coherence point.
// The simulated memory bytes are the L2's view. Nothing upstream of it is a
// full copy: a table per cache instance holds only the lines that instance
// has filled since its last invalidation, with the 128 bytes it filled them
// with (RDNA3 vector L0, GL1 and L2 lines are 128 bytes: RDNA3 ISA guide
// "Memory" chapter; AMD RDNA whitepaper). Capacity is unbounded, the most
// pessimistic choice: a line stays until an invalidation drops it, so a
// missing invalidation is never hidden by a lucky eviction.
//
// Transitions:
//   - vector load: per line, hit this WGP's L0 → its bytes; else this
//     array's GL1 (gfx11) → its bytes, filling the L0; else L2, filling GL1
//     and L0. GLC=1 on gfx11 makes L0 and GL1 MISS_EVICT (LLVM
//     SIMemoryLegalizer SIGfx11CacheControl::enableLoadCacheBypass), so the
//     load reads L2 and fills nothing; on gfx12 a scope of SCOPE_SE or wider
//     bypasses the per-WGP L0 (AMDGPUUsage GFX12: a cache whose scope is
//     smaller than the instruction's is bypassed). SLC/DLC (gfx11) and
//     TH (gfx12) are temporal hints: no coherence effect here.
//   - scalar load (s_load, s_buffer_load, kernarg reads of the reference
//     executor): the same through this WGP's K$ instead of the vector L0
//     ("the scalar and vector L0 caches are not coherent", AMDGPUUsage).
//   - store: write-through to L2 (the vector L0 is write-through and GL1 is
//     read-only on RDNA; AMDGPUUsage GFX10-GFX11 needs no write-back for an
//     agent-scope release). The writer's own L0 line and its array's GL1
//     line, when present, are updated, so a wave reads its own writes
//     (AMDGPUUsage: no invalidate is needed within a work-group in CU
//     mode). Other WGPs' lines stay as they were: stale. The K$ is not
//     updated by vector stores. A store to coarse-grained (DEVICE) memory
//     also marks the L2 line dirty, keeping the line as memory has it.
//   - instruction fetch: not modelled (no I$); reads L2.
//   - invalidations: GLV_INV drops every vector L0, GLK_INV every K$,
//     GL1_INV every GL1 (ACQUIRE_MEM GCR_CNTL, RELEASE_MEM GCR bits; Linux
//     nvd.h PACKET3_ACQUIRE_MEM_GCR_CNTL_*, PAL gfx12CmdUtil). In-kernel
//     buffer_gl0_inv / buffer_gl1_inv / s_dcache_inv drop the executing
//     WGP's L0, its array's GL1, its K$.
//   - GL2_WB writes every dirty L2 line back to memory (Mesa radeonsi
//     gfx10_emit_barrier: "WB writes dirty lines back"). GL2_INV drops clean
//     L2 lines; host writes land in the L2 view directly here, so it has
//     nothing to do (see docs/cache-model.md).
//   - AQL fence scopes (HSA header bits 10:9 and 12:11): an acquire of agent
//     or system scope at packet start invalidates K$, vector L0 and GL1
//     (AMDGPUUsage: the CP invalidates L0/L1 at the start of each kernel
//     dispatch); a release of system scope at packet end writes L2 back;
//     agent scope needs nothing (L2 is agent-coherent). Scope NONE does
//     neither.
//   - host read (rl_device_t.read): sees memory, i.e. for a dirty DEVICE
//     line the bytes it had before the first store since the last
//     write-back. Fine-grained kinds (KERNARG, SYSTEM) are host-coherent
//     (AMDGPUUsage: fine-grained memory is not cached non-coherently).
//
// Placement: work-group |wg| of dispatch |d| runs on WGP (wg + h(d) * W/2)
// % W, with h(d) = (d + seed) & 1 and W the target's WGP count; WGP w is in
// shader array w / (W / arrays). Consecutive dispatches thus use disjoint
// halves of the WGPs and arrays, dispatches two apart the same ones, so a
// read / write / read chain across a missing acquire always reads through
// the stale caches. Hardware's placement is undocumented; any is legal.
//
// Modes: OFF (no model, loads read L2), REPORT (loads return L2's bytes and
// a stale hit is recorded as an RL_SIM_HAZARD_STALE_READ finding, a stale
// host read as RL_SIM_HAZARD_STALE_HOST_READ), STRICT (the stale bytes are
// returned, as hardware would, and the finding is recorded too). Each stale
// line is reported once per cache fill, except while an executor defers
// this thread's findings (rl_sim_cache_defer, sim_executor.h): then each
// stale load's finding goes to the executor, which reports or retracts it.
//
// Thread-safety: no lock guards the whole model. The caches one WGP reads
// through (its L0 and K$, its array's GL1) are guarded by one lock per
// sharing group (a shader array on gfx11, a WGP on gfx12: the shards of
// rl_sim_cache_shards); the L2's dirty lines are split into
// RL_SIM_CACHE_SLICES slices by line address, as hardware interleaves its
// L2 channels, each with its own lock. An access takes its group's lock
// once per instruction and a slice's lock per dirty-line lookup, so the
// worker threads of a parallel dispatch, which own disjoint groups, meet
// only when they touch the same L2 slice. Every CP thread and the engine
// thread (host reads/writes) take the same locks. Order: a group lock
// before a slice lock, groups and slices each in increasing index (device-
// wide actions and host accesses take them all); a memory read lock (through
// translation) and report_lock may be taken inside. Counters are atomics.
// Workers of one dispatch share no L0, K$ or GL1, so what each finds does
// not depend on how their accesses interleave (docs/cache-model.md,
// "Work-groups in parallel").
#ifndef REDLINE_SIM_MEM_SIM_MEM_H_
#define REDLINE_SIM_MEM_SIM_MEM_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/sim.h"

// RDNA3/RDNA4 cache line (see the header comment).
#define RL_SIM_CACHE_LINE 128u

// Invalidate / write-back actions, one bit per level: what ACQUIRE_MEM and
// RELEASE_MEM GCR fields, AQL fence scopes and in-kernel cache instructions
// decode to.
#define RL_SIM_CACHE_INV_GLV 0x1u  // every vector L0
#define RL_SIM_CACHE_INV_GLK 0x2u  // every scalar cache
#define RL_SIM_CACHE_INV_GL1 0x4u  // every GL1 (gfx11)
#define RL_SIM_CACHE_INV_GL2 0x8u  // clean L2 lines (no effect, see above)
#define RL_SIM_CACHE_WB_GL2 0x10u  // dirty L2 lines to memory
#define RL_SIM_CACHE_WB_GLK 0x20u  // scalar-cache write-back (no s_store)

// L2 slices, each with its own lock (see "Thread-safety").
#define RL_SIM_CACHE_SLICES 16u

typedef struct rl_sim_cache_table_s rl_sim_cache_table_t;

// A spin lock padded to a host cache line, so that two threads' locks do
// not share one.
typedef struct rl_sim_cache_lock_s {
  _Alignas(64) atomic_flag flag;
} rl_sim_cache_lock_t;

typedef struct rl_sim_cache_s {
  rl_sim_cache_mode_t mode;
  uint64_t seed;
  uint32_t wgp_count;
  uint32_t array_count;              // 0: no GL1 (gfx12)
  rl_sim_cache_table_t* vl0;         // [wgp_count]
  rl_sim_cache_table_t* kl0;         // [wgp_count]
  rl_sim_cache_table_t* gl1;         // [array_count]
  uint32_t group_count;              // sharing groups: arrays, or WGPs on gfx12
  rl_sim_cache_lock_t* group_locks;  // [group_count]
  // Dirty L2 lines, bytes as in memory: slice (tag / line) % SLICES.
  rl_sim_cache_table_t* dirty;  // [RL_SIM_CACHE_SLICES]
  rl_sim_cache_lock_t slice_locks[RL_SIM_CACHE_SLICES];
  _Atomic uint64_t stale_reads;  // counters
  _Atomic uint64_t stale_host_reads;
  _Atomic uint64_t retracted_reads;  // stale reads an executor proved harmless
} rl_sim_cache_t;

// Where one access runs and what it is (rl_sim_wg_*_with access flags).
typedef struct rl_sim_cache_access_s {
  uint32_t wgp;
  uint64_t dispatch_index;
  uint32_t flags;  // RL_SIM_ACCESS_*
} rl_sim_cache_access_t;

struct rl_sim_device_s;

// Sets up the model of |processor| in |mode| (OFF allocates nothing); fails
// with RL_STATUS_INVALID_ARGUMENT naming |processor| when rl_target_parse
// refuses it.
rl_status_t rl_sim_cache_init(rl_sim_cache_t* cache, const char* processor,
                              rl_sim_cache_mode_t mode, uint64_t seed);
void rl_sim_cache_deinit(rl_sim_cache_t* cache);

static inline bool rl_sim_cache_enabled(const rl_sim_cache_t* cache) {
  return cache->mode != RL_SIM_CACHE_OFF;
}

// The WGP work-group |wg_index| of dispatch |dispatch_index| runs on.
uint32_t rl_sim_cache_place(const rl_sim_cache_t* cache,
                            uint64_t dispatch_index, uint64_t wg_index);

// How the work-groups of dispatch |dispatch_index| share caches, for
// running them on several host threads (sim_parallel.c): work-group |wg|
// runs on WGP (wg + *|out_half|) % *|out_slots| (rl_sim_cache_place), and
// WGPs w and v share every cache they read through (L0, K$, GL1) exactly
// when w / *|out_group| == v / *|out_group| (a shader array on gfx11, one
// WGP on gfx12). With the model off nothing is shared: |fallback| slots of
// one WGP each, no offset.
void rl_sim_cache_shards(const rl_sim_cache_t* cache, uint64_t dispatch_index,
                         uint32_t fallback, uint32_t* out_slots,
                         uint32_t* out_group, uint32_t* out_half);

// After |data| (|size| bytes at |address|) was read from memory (L2):
// applies the hierarchy, replacing bytes with stale ones in STRICT mode and
// reporting stale hits to |device|.
void rl_sim_cache_load(struct rl_sim_device_s* device,
                       const rl_sim_cache_access_t* access, uint64_t address,
                       void* data, uint32_t size);
// Before a device store of |size| bytes at |address| reaches memory: marks
// L2 lines dirty (keeping memory's bytes). After it: updates the writer's
// L0 and GL1 lines. Call _before, store, then _after.
void rl_sim_cache_store_before(struct rl_sim_device_s* device,
                               const rl_sim_cache_access_t* access,
                               uint64_t address, uint32_t size);
void rl_sim_cache_store_after(struct rl_sim_device_s* device,
                              const rl_sim_cache_access_t* access,
                              uint64_t address, const void* data,
                              uint32_t size);
// The same for the lanes of one vector-memory instruction (lane l of
// |lanes|: |size| bytes at address[l], its data at data + l * 16), under
// one lock and in lane order, so the findings and the lines are those of
// one call per lane. For the _before form every lane lies in one
// allocation.
void rl_sim_cache_load_lanes(struct rl_sim_device_s* device,
                             const rl_sim_cache_access_t* access,
                             const uint64_t* address, uint32_t lanes,
                             uint8_t* data, uint32_t size);
void rl_sim_cache_store_lanes_before(struct rl_sim_device_s* device,
                                     const rl_sim_cache_access_t* access,
                                     const uint64_t* address, uint32_t lanes,
                                     uint32_t size);
void rl_sim_cache_store_lanes_after(struct rl_sim_device_s* device,
                                    const rl_sim_cache_access_t* access,
                                    const uint64_t* address, uint32_t lanes,
                                    const uint8_t* data, uint32_t size);
// Device-wide actions (RL_SIM_CACHE_INV_* / WB_* bits).
void rl_sim_cache_apply(rl_sim_cache_t* cache, uint32_t actions);
// In-kernel invalidations of the caches WGP |wgp| reads through.
void rl_sim_cache_apply_local(rl_sim_cache_t* cache, uint32_t wgp,
                              uint32_t actions);
// A host read of memory: dirty DEVICE lines show memory's bytes (STRICT) or
// a finding (REPORT).
void rl_sim_cache_host_read(struct rl_sim_device_s* device, uint64_t address,
                            void* data, uint64_t size);
// A host write: memory's copy of dirty lines follows it.
void rl_sim_cache_host_write(rl_sim_cache_t* cache, uint64_t address,
                             const void* data, uint64_t size);

// AQL fence scopes to actions: acquire at packet start, release at its end.
uint32_t rl_sim_cache_acquire_actions(uint32_t scope);
uint32_t rl_sim_cache_release_actions(uint32_t scope);


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
// The host's cache line size (x86-64 and arm64 servers), for keeping
// fields that two threads write apart.
#define RL_SIM_HOST_LINE 64

typedef struct rl_sim_allocation_s {
  uint64_t address;
  uint64_t size;
  uint8_t* host;  // NULL for a no-access range
  rl_memory_kind_t kind;
  bool no_access;  // a guard range (reserve_guard): never translates
  bool mapped;     // |host| is an mmap of the page-rounded size
} rl_sim_allocation_t;

// The allocation table's lock, split by reader. Every access of every
// work-group reads the table; one pthread rwlock would have each reader
// write its reader count, a host cache line the cores then pass back and
// forth on every access of a parallel dispatch. Instead each thread reads
// under one of RL_SIM_MEMORY_READERS read-write locks, each on its own host
// line (threads get slots in turn, at their first read; threads sharing a
// slot still read at once), and allocate/free hold all of them for writing,
// taken in increasing order. A reader never writes a line another slot's
// reader writes, and a table that grows or shrinks is never read half-done.
#define RL_SIM_MEMORY_READERS 16u

typedef struct rl_sim_memory_reader_s {
  _Alignas(RL_SIM_HOST_LINE) pthread_rwlock_t lock;
} rl_sim_memory_reader_t;

typedef struct rl_sim_memory_s {
  rl_sim_memory_reader_t readers[RL_SIM_MEMORY_READERS];
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

// Threads and locks:
//   - the engine thread calls the rl_device_t vtable;
//   - one command-processor (CP) thread per queue (sim_cp.c) consumes
//     packets and runs executors; during a parallel dispatch it runs
//     work-groups alongside up to threads - 1 worker threads of the queue's
//     pool, made on its first parallel dispatch and joined when the queue
//     is released (sim_parallel.c; their own lock and conds hand out each
//     dispatch), which touch only their own LDS, ranges and findings, the
//     memory (its read locks, host atomics) and the cache model (its group and
//     slice locks);
//   - memory.readers (read-write locks, one per reader slot) guard the
//     allocation table: every access translates under its thread's slot's
//     read lock, allocate/free take every slot's write lock (above);
//   - loader.lock guards the kernel-object table;
//   - signal_lock + signal_cond are the wakeup channel for every signal
//     change (the values themselves are C11 atomics in device memory);
//   - report_lock guards the hazard list and the dispatch log;
//   - each queue's lock + cond carry the doorbell, stop and fault state;
//   - queue_lock guards the list of live queues (create, destroy, and the
//     device's destruction, which stops and joins whatever is left).
//   - the cache model's group and slice locks guard it (above).
// Lock order: a thread holds at most one of these at a time, except that
// a memory read lock is taken inside signal_lock (a barrier re-translating
// its dependent signals), a memory read lock and report_lock inside the
// cache model's locks (whose own order is above); nothing is taken
// inside the memory locks or report_lock.
// What the memory module reports up without calling up: the device (sim/
// device/sim_device.c) sets these at creation. report_hazard: a stale read
// the cache model saw (sim_cache.c), for the hazard list (sim/wg
// rl_sim_report_hazard).
typedef struct rl_sim_upcalls_s {
  void (*report_hazard)(struct rl_sim_device_s* device,
                        const rl_sim_hazard_t* hazard);
} rl_sim_upcalls_t;

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
  rl_sim_cache_t cache;  // the cache model (sim_mem.h); own lock
  rl_sim_upcalls_t upcalls;  // set by the device at creation
  // Host threads a dispatch's work-groups may run on (options.threads
  // resolved at creation, sim_parallel.c).
  uint32_t threads;
} rl_sim_device_t;

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
// The device's memory and the bytes live allocations take from it
// (rl_sim_memory_info in sim.h).
void rl_sim_memory_usage(rl_sim_memory_t* memory, uint64_t* out_total,
                         uint64_t* out_used);
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
// Copies under a read lock; false when the range is not inside one live
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
#endif  // REDLINE_SIM_MEM_SIM_MEM_H_
