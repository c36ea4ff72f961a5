// sim/sim_cache.h — the simulated GPU's cache hierarchy: what makes
// a missing or too-weak acquire, a missing L2 write-back or a too-narrow AQL
// fence scope change bytes, as it can on hardware. Private to rl_sim;
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
// wide actions and host accesses take them all); memory.lock (read, through
// translation) and report_lock may be taken inside. Counters are atomics.
// Workers of one dispatch share no L0, K$ or GL1, so what each finds does
// not depend on how their accesses interleave (docs/cache-model.md,
// "Work-groups in parallel").
#ifndef REDLINE_SIM_SIM_CACHE_H_
#define REDLINE_SIM_SIM_CACHE_H_

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
  atomic_flag flag;
  uint8_t pad[64 - sizeof(atomic_flag)];
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

#endif  // REDLINE_SIM_SIM_CACHE_H_
