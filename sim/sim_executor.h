// sim/sim_executor.h — pluggable kernel executors of the simulated
// GPU.
//
// The simulated command processor turns every kernel-dispatch packet into an
// rl_sim_dispatch_t and asks the executor to run it one work-group at a
// time. The executor sees the device only through this interface:
//   - rl_sim_wg_load()/rl_sim_wg_store() translate device addresses,
//     bounds-check them against live allocations (an access outside one is a
//     VM fault naming the address, the packet and the dispatch) and report
//     every byte range to the dynamic hazard checker;
//   - rl_sim_wg_lds() is this work-group's LDS (group segment) memory, zeroed
//     before the work-group starts, exactly group_segment_size bytes;
//   - ids and geometry come from rl_sim_wg_t.
// Kernel arguments are read from the kernarg segment in device memory
// (dispatch->kernarg_address) at the offsets of the kernel's metadata,
// through rl_sim_wg_load() like any other access.
//
// Two executors are planned: `ref` (C reference implementations of the
// kernels in kernels/, kernels/ref/) and `isa` (an interpreter of the real
// gfx11 machine code at dispatch->entry_address, sim/isa/). An
// executor that cannot run a kernel fails begin() with RL_STATUS_UNSUPPORTED
// naming the kernel; the command processor turns that into a queue fault.
//
// Thread-safety: begin/run_workgroup/end of one dispatch are called from the
// command-processor thread of its queue only (run_workgroup_on, when an
// executor has it, from several threads: see there); with several queues, several
// CP threads call one executor at once, so |self| must be immutable or
// thread-safe; work-groups of different dispatches may be
// interleaved (adversarial hazard mode), so an executor keeps per-dispatch
// state in the |state| it returns from begin(), never in globals.
#ifndef REDLINE_SIM_SIM_EXECUTOR_H_
#define REDLINE_SIM_SIM_EXECUTOR_H_

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "redline/code_object.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// One kernel dispatch as the command processor decoded it from a packet
// (AQL today; PM4 DISPATCH_DIRECT later fills the same struct).
typedef struct rl_sim_dispatch_s {
  uint64_t packet_id;        // dispatch id of the AQL packet
  uint64_t dispatch_index;   // running count of dispatches on this device
                             // (all queues), assigned at validation
  uint64_t packet_address;   // device address of the AQL packet (or 0)
  uint64_t kernel_object;    // device address of the kernel descriptor
  uint64_t entry_address;    // device address of the first instruction
  uint64_t kernarg_address;  // device address of the kernarg segment
  const rl_code_object_kernel_t* kernel;  // metadata + decoded descriptor
  uint32_t dimensions;       // 1..3
  uint32_t workgroup_size[3];  // work-items per work-group
  uint32_t grid_size[3];       // work-items (AQL semantics)
  uint32_t workgroup_count[3]; // ceil(grid_size / workgroup_size)
  uint32_t group_segment_size;    // static + dynamic LDS bytes
  // Scratch bytes per work-item: the packet's private_segment_size (PM4:
  // what COMPUTE_TMPRING_SIZE provides), checked by the simulator to cover
  // the kernel's fixed private segment. An executor that models scratch
  // gives every work-item its own zero-based private segment of this many
  // bytes, lives only as long as the work-item, and faults any access past
  // it (a dynamic stack that outgrows it included).
  uint32_t private_segment_size;
  // The processor of the loaded code object ("gfx1100"; the device's, which
  // the loader checked): the ISA of the code at entry_address. NULL when the
  // producer does not know it; an executor that interprets machine code
  // then refuses the dispatch.
  const char* processor;
  // Optional user SGPR values as a command processor loads them from
  // COMPUTE_USER_DATA_0.. (a PM4 dispatch): when |user_sgprs| is non-NULL an
  // executor that models the wave's initial state uses these
  // |user_sgpr_count| values verbatim as s0.. instead of deriving them from
  // the kernel descriptor and the AQL packet (dispatch ptr, kernarg ptr...).
  // Read during begin() only.
  const uint32_t* user_sgprs;
  uint32_t user_sgpr_count;
  // A cooperative dispatch (hipLaunchCooperativeKernel; sim.h
  // rl_sim_set_cooperative): all its work-groups are resident at once
  // (sim_coop.c), so a grid-wide barrier (gfx11 ds_gws_barrier) can
  // complete. Elsewhere a wave reaching one can never be released.
  bool cooperative;
} rl_sim_dispatch_t;

// The flat-address apertures of the simulated device (gfx9+ 64-bit mode,
// LLVM AMDGPUUsage "Address Spaces": each aperture is 2^32 bytes with a base
// aligned to 2^32; the values are the ones the amdgpu driver programs for
// gfx9 and later, kfd_flat_memory.c MAKE_LDS_APP_BASE_V9 / MAKE_SCRATCH_
// APP_BASE_V9): a FLAT access whose address lies in [base, base + 2^32)
// reaches the work-group's LDS (shared) or the work-item's private segment
// at offset address - base. src_shared_base/limit and src_private_base/
// limit read these values. The simulator's own VA (RL_SIM_VA_BASE..
// RL_SIM_VA_END) lies below both.
#define RL_SIM_APERTURE_SHARED_BASE 0x0001000000000000ull
#define RL_SIM_APERTURE_PRIVATE_BASE 0x0002000000000000ull
#define RL_SIM_APERTURE_SIZE 0x100000000ull

typedef struct rl_sim_wg_s rl_sim_wg_t;

// The work-group being executed.
struct rl_sim_wg_s {
  const rl_sim_dispatch_t* dispatch;
  uint32_t group_id[3];
  // Work-items in this (possibly partial, at the grid's edge) work-group.
  uint32_t size[3];
  void* context;  // the simulator's; do not touch
};

// Memory access through the simulated MMU. A failure is a VM fault
// (RL_STATUS_POISONED, "VM fault: write of 4 bytes at 0x... (packet P,
// dispatch D)"): the executor must return the status from run_workgroup()
// unchanged. Every successful access is recorded for the hazard checker.
rl_status_t rl_sim_wg_load(rl_sim_wg_t* wg, uint64_t address, void* out_data,
                           uint32_t size);
rl_status_t rl_sim_wg_store(rl_sim_wg_t* wg, uint64_t address,
                            const void* data, uint32_t size);

// What an access is, for the cache model (sim/mem/sim_mem.h): plain vector
// accesses pass 0 (rl_sim_wg_load/store). Scalar loads (s_load,
// s_buffer_load) go through the scalar cache. The policy bits are the
// instruction's: gfx11 GLC/SLC/DLC (RDNA3 ISA guide, FLAT and SMEM
// encodings); gfx12 SCOPE (0 CU, 1 SE, 2 DEV, 3 SYS; AMDGPUUsage GFX12) in
// bits 5:4. Instruction fetch bypasses the data caches.
#define RL_SIM_ACCESS_SCALAR 0x1u
#define RL_SIM_ACCESS_GLC 0x2u
#define RL_SIM_ACCESS_SLC 0x4u
#define RL_SIM_ACCESS_DLC 0x8u
#define RL_SIM_ACCESS_SCOPE(scope) (((uint32_t)(scope) & 3u) << 4)
#define RL_SIM_ACCESS_SCOPE_OF(flags) (((flags) >> 4) & 3u)
#define RL_SIM_ACCESS_SCOPE_SE 1u
#define RL_SIM_ACCESS_INSTRUCTION 0x40u
// The read of an atomic read-modify-write (global/flat atomics): performed
// at the L2, so it bypasses the per-WGP L0 and the GL1 whatever its policy
// bits (LLVM AMDGPUUsage memory model: atomic read-modify-write instructions
// implicitly bypass the L0/L1 caches; on gfx10/gfx11 their GLC bit only
// selects whether the pre-operation value is returned).
#define RL_SIM_ACCESS_ATOMIC 0x80u
rl_status_t rl_sim_wg_load_with(rl_sim_wg_t* wg, uint64_t address,
                                void* out_data, uint32_t size,
                                uint32_t access);
rl_status_t rl_sim_wg_store_with(rl_sim_wg_t* wg, uint64_t address,
                                 const void* data, uint32_t size,
                                 uint32_t access);

// An atomic read-modify-write of |size| (4 or 8) bytes at |address|,
// performed at the L2 (it bypasses the L0 and GL1, RL_SIM_ACCESS_ATOMIC):
// old = MEM; MEM = |update|(old, |arg|); *|out_old| = old, as one host
// atomic on the backing memory (__atomic compare-and-exchange), so it is
// atomic with respect to every other rl_sim_wg_atomic of any work-group on
// any host thread (work-groups run in parallel: sim_parallel.c). Faults,
// cache effects and recorded ranges are those of rl_sim_wg_load_with(...,
// RL_SIM_ACCESS_ATOMIC) followed by rl_sim_wg_store(): a "read" VM fault
// outside live memory, a read and a write range for the hazard checker.
// |update| may be called more than once (a lost race retries it).
typedef uint64_t (*rl_sim_wg_update_fn)(uint64_t old, const void* arg);
rl_status_t rl_sim_wg_atomic(rl_sim_wg_t* wg, uint64_t address, uint32_t size,
                             rl_sim_wg_update_fn update, const void* arg,
                             uint64_t* out_old);
// Reads |size| bytes of device memory at |address| as they are now, without
// recording the access for the hazard checker and without the cache model:
// the coherent bytes, as an observer outside the GPU sees them (the oracle
// executor, sim/oracle/, reads and checks memory through it). False
// when a byte lies outside every live allocation (nothing is read then).
bool rl_sim_wg_peek(rl_sim_wg_t* wg, uint64_t address, void* out_data,
                    uint32_t size);

// One work-group's writes apart from its dispatch's union: a set of byte
// ranges, kept sorted, disjoint and not touching. rl_sim_wg_watch_writes()
// records every range |wg| writes from now on (stores, the lanes of a
// vector store, atomics: the ranges the hazard checker gets, whether or not
// the device keeps an access record) into |into|, until called again with
// NULL. The oracle executor compares them with the bytes it wrote itself.
typedef struct rl_sim_range_set_s rl_sim_wg_writes_t;
rl_sim_wg_writes_t* rl_sim_wg_writes_new(void);  // NULL: out of memory
void rl_sim_wg_writes_free(rl_sim_wg_writes_t* writes);  // NULL ignored
void rl_sim_wg_watch_writes(rl_sim_wg_t* wg, rl_sim_wg_writes_t* into);
uint32_t rl_sim_wg_writes_count(const rl_sim_wg_writes_t* writes);
// Range |index| (< count), [*|out_begin|, *|out_end|), in address order.
void rl_sim_wg_writes_range(const rl_sim_wg_writes_t* writes, uint32_t index,
                            uint64_t* out_begin, uint64_t* out_end);

// The accesses of one vector-memory instruction at once: lane l of |lanes|
// loads (stores) |size| bytes (1..16) at address[l] into (from) data +
// l * 16. When every lane's bytes lie inside one live allocation, the
// lanes are moved under one translation and one cache-model lock and
// recorded, with the same bytes, cache findings and recorded ranges as
// rl_sim_wg_load_with (store_with) called for each lane in lane order, and
// *|out_done| is set. Otherwise nothing happens (*|out_done| false) and the
// caller goes lane by lane, which reports the first faulting lane. Fails
// only when out of memory.
rl_status_t rl_sim_wg_load_lanes(rl_sim_wg_t* wg, const uint64_t* address,
                                 uint32_t lanes, uint32_t size,
                                 uint32_t access, uint8_t* data,
                                 bool* out_done);
rl_status_t rl_sim_wg_store_lanes(rl_sim_wg_t* wg, const uint64_t* address,
                                  uint32_t lanes, uint32_t size,
                                  uint32_t access, const uint8_t* data,
                                  bool* out_done);

// Deferred stale reads (docs/cache-model.md, "Compare-and-swap loops"). The
// cache model reports a load that hits a stale line as it happens. An
// executor that can tell what the loaded value is used for may hold those
// findings back: between rl_sim_cache_defer(into) and
// rl_sim_cache_defer(NULL) the stale-read findings of this thread's loads
// go to |into| (with the bytes each load returned for the stale range)
// instead of the device's list, until |into| is full; the executor then
// either reports them (rl_sim_deferred_report_owner) or retracts one
// (rl_sim_deferred_retract) when the value was provably harmless. The ISA
// executor retracts a read whose value only reached the compare operand of
// a compare-and-swap on the same bytes (isa_stale.c).
#define RL_SIM_DEFERRED_MAX 64u  // two wave32 loads, one finding a lane
#define RL_SIM_DEFERRED_BYTES 128u  // a cache line: findings are per line
typedef struct rl_sim_deferred_read_s {
  uint64_t address;           // the stale bytes of one line
  uint32_t size;
  uint64_t earlier_dispatch;  // as in the finding (rl_sim_hazard_t)
  uint64_t later_dispatch;
  uint32_t owner;          // the executor's tag (ISA executor: wave id)
  uint8_t bytes[RL_SIM_DEFERRED_BYTES];  // what the load returned for them
} rl_sim_deferred_read_t;
typedef struct rl_sim_deferred_s {
  void* device;    // the simulator's; set by the model
  uint32_t owner;  // the tag reads deferred from now on get
  uint32_t count;
  rl_sim_deferred_read_t reads[RL_SIM_DEFERRED_MAX];
} rl_sim_deferred_t;
// True when |wg|'s device runs the cache model (findings can occur).
bool rl_sim_wg_cache_enabled(const rl_sim_wg_t* wg);
void rl_sim_cache_defer(rl_sim_deferred_t* into);
// Drops reads[index] as harmless; the last read takes its place.
void rl_sim_deferred_retract(rl_sim_deferred_t* deferred, uint32_t index);
// Reports every read of |owner|, one finding per line and pair of
// dispatches (as the model reports a line once per fill), and drops them.
void rl_sim_deferred_report_owner(rl_sim_deferred_t* deferred,
                                  uint32_t owner);

// In-kernel cache invalidations of the caches this work-group's WGP reads
// through: gfx11 buffer_gl0_inv (RL_SIM_WG_INV_GL0: the vector L0),
// buffer_gl1_inv (RL_SIM_WG_INV_GL1: the shader array's GL1), s_dcache_inv
// (RL_SIM_WG_INV_SCALAR: the scalar cache). No-ops when the model is off.
#define RL_SIM_WG_INV_GL0 0x1u
#define RL_SIM_WG_INV_SCALAR 0x2u
#define RL_SIM_WG_INV_GL1 0x4u
void rl_sim_wg_cache_invalidate(rl_sim_wg_t* wg, uint32_t caches);

// Typed kernarg readers: the argument at |offset| of the kernarg segment,
// read as a scalar load (hardware kernels s_load their kernargs).
// A read past the kernel's kernarg_size fails (RL_STATUS_INVALID_ARGUMENT).
rl_status_t rl_sim_wg_kernarg_u32(rl_sim_wg_t* wg, uint32_t offset,
                                  uint32_t* out_value);
rl_status_t rl_sim_wg_kernarg_u64(rl_sim_wg_t* wg, uint32_t offset,
                                  uint64_t* out_value);
rl_status_t rl_sim_wg_kernarg_f32(rl_sim_wg_t* wg, uint32_t offset,
                                  float* out_value);

// This work-group's LDS: dispatch->group_segment_size bytes (NULL if 0).
void* rl_sim_wg_lds(rl_sim_wg_t* wg);

// Stopping. A work-group may never end (a kernel spinning on a flag no one
// sets, `for (;;)`), yet destroying its queue (queue_destroy, the device's
// destruction, a quarantined replay's teardown) must end the command
// processor within milliseconds. So an executor whose work-groups can run
// unboundedly long (one that interprets machine code) polls
// rl_sim_wg_stopping() at least every RL_SIM_WG_STOP_POLL wave-instructions
// of a run_workgroup() or wg_step() call, and once it answers true leaves
// the work-group unfinished and returns rl_sim_wg_stopped(|wg|) unchanged.
// The simulator then abandons the dispatch (its packet never retires) and
// records no fault: the queue is going away. The poll is one acquire load
// of the queue's stop flag, which is set once and never cleared.
#define RL_SIM_WG_STOP_POLL 16384u
bool rl_sim_wg_stopping(const rl_sim_wg_t* wg);
// The status that tells the simulator "stopped, not failed"
// (RL_STATUS_QUARANTINED naming the work-group); only valid once
// rl_sim_wg_stopping(|wg|) answered true.
rl_status_t rl_sim_wg_stopped(const rl_sim_wg_t* wg);

typedef struct rl_sim_executor_s {
  const char* name;  // "ref", "isa"
  void* self;
  // Prepares a dispatch; *|out_state| is passed to run_workgroup and end.
  rl_status_t (*begin)(void* self, const rl_sim_dispatch_t* dispatch,
                       void** out_state);
  // Runs |wg| to its end (or its fault; or, when its queue stops, to the
  // next stop poll: rl_sim_wg_stopping()).
  rl_status_t (*run_workgroup)(void* self, void* state, rl_sim_wg_t* wg);
  void (*end)(void* self, void* state);
  // Optional (NULL: every kernel is accepted until begin()). Checks, before
  // anything is reserved for a replay (the engine's contract step), that
  // the executor can run |kernel| of a code object built for |processor|,
  // whose image laid out at base 0 is |image| (|image_size| bytes);
  // RL_STATUS_CONTRACT naming the kernel and what it cannot run otherwise.
  rl_status_t (*check_kernel)(void* self, const char* processor,
                              const void* image, uint64_t image_size,
                              const rl_code_object_kernel_t* kernel);
  // True when run_workgroup never reads or writes the work-group's LDS
  // (the no-op executor): the simulator then skips zeroing it.
  bool leaves_lds_untouched;
  // Optional (NULL: the executor does not count). Machine instructions the
  // executor has retired so far; a process-wide, monotonically increasing
  // count, so callers measure growth between two reads.
  uint64_t (*instructions)(void* self);
  // Optional (all three NULL: work-groups only run whole). Resumable
  // work-groups, for the adversarial scheduler's interleaving at
  // instruction granularity (sim_schedule.c): wg_open() prepares |wg|, which
  // the simulator keeps valid (with its own LDS) until wg_close();
  // wg_step() retires at most |quantum| wave-instructions of it and sets
  // *|out_done| once it has ended (polling the stop flag as run_workgroup
  // does when |quantum| is large); wg_close() frees it, ended or not. A
  // work-group stepped to its end computes what run_workgroup computes.
  // Several work-groups of one or several dispatches may be open at once
  // and are stepped in any order, from the queue's CP thread only.
  rl_status_t (*wg_open)(void* self, void* state, rl_sim_wg_t* wg,
                         void** out_wg_state);
  rl_status_t (*wg_step)(void* self, void* wg_state, uint64_t quantum,
                         bool* out_done);
  void (*wg_close)(void* self, void* wg_state);
  // Optional (NULL: a dispatch's work-groups run one after another on its
  // queue's CP thread). Work-groups on several host threads (sim_parallel.c,
  // docs/cache-model.md "Work-groups in parallel"): run_workgroup_on() runs
  // |wg| as run_workgroup() does, on behalf of host thread |worker| (0 ..
  // RL_SIM_THREADS_MAX - 1). Calls with different |worker| may run at once
  // for one dispatch, calls with the same one never do; the first call of a
  // dispatch (worker 0) returns before any other starts. After it,
  // concurrent() says whether this dispatch's memory results are the same
  // whatever the order its work-groups' atomics run in (false: the
  // simulator keeps it on one thread).
  rl_status_t (*run_workgroup_on)(void* self, void* state, rl_sim_wg_t* wg,
                                  uint32_t worker);
  bool (*concurrent)(void* self, void* state);
  // Optional (NULL: never). True when the open work-group |wg_state| cannot
  // retire another instruction until other work-groups of its dispatch do
  // (every live wave waits at a grid barrier, or at s_barrier behind one):
  // wg_step then returns at once without retiring anything; |why| (of
  // |why_size| bytes) then says what it waits at, naming the PC. The
  // cooperative schedule (sim_coop.c) uses it to tell a wait from a
  // deadlock.
  bool (*wg_blocked)(void* self, void* wg_state, char* why, size_t why_size);
} rl_sim_executor_t;

// Most host threads one dispatch's work-groups run on.
#define RL_SIM_THREADS_MAX 64u

// Moves one vector-memory element of |size| bytes with a fixed-size copy
// for the sizes memory instructions have (1, 2, 4, 8, 12, 16; a
// variable-size memcpy is a call per lane): the simulator's per-instruction
// lane moves (sim_memory.c) and the ISA executor's LDS moves share it.
static inline void rl_sim_move_element(uint8_t* to, const uint8_t* from,
                                       uint32_t size) {
  switch (size) {
    case 1: *to = *from; break;
    case 2: memcpy(to, from, 2); break;
    case 4: memcpy(to, from, 4); break;
    case 8: memcpy(to, from, 8); break;
    case 12: memcpy(to, from, 12); break;
    case 16: memcpy(to, from, 16); break;
    default: memcpy(to, from, size); break;
  }
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SIM_SIM_EXECUTOR_H_
