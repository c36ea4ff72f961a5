// sim/sim.h — the simulated GPU: a faithful software device that
// consumes the exact bytes a real command processor would and rejects what a
// real one would hang or fault on. It implements redline/device/device.h.
//
// What it models:
//   - A device virtual address space. Allocations get addresses in a range
//     host pointers do not use ([RL_SIM_VA_BASE, RL_SIM_VA_END), with unmapped guard
//     gaps between allocations); every access from a packet or a kernel is
//     translated and bounds-checked, and an access outside a live allocation
//     is a VM fault naming the address, the packet and the dispatch.
//   - Code objects loaded as their PT_LOAD image (redline/code_object.h
//     rl_code_object_load_image); a kernel object is the device address of
//     the kernel's 64-byte `.kd` descriptor, exactly as on hardware. A
//     dispatch whose kernel_object is not such an address faults.
//   - AQL queues processed by a command-processor thread per queue: it waits
//     for the doorbell and a valid header (acquire), validates the packet,
//     executes kernel-dispatch, barrier-AND and barrier-OR packets, honours
//     the barrier bit and fence scopes, decrements completion signals, resets
//     the header to INVALID and advances the read id. Vendor-specific
//     PM4-IB packets run their indirect buffer on a PM4 interpreter with a
//     per-queue SH register file (SET_SH_REG, DISPATCH_DIRECT built from the
//     registers exactly as hardware reads them, CS_PARTIAL_FLUSH,
//     ACQUIRE_MEM, RELEASE_MEM, WAIT_REG_MEM, WRITE_DATA, COPY_DATA, nested
//     and chained INDIRECT_BUFFER, NOP); anything else in an IB is a fault
//     naming the IB address, the dword offset and the opcode (sim_cp.h has
//     the rules).
//   - Concurrency: dispatches not separated by a barrier may overlap. In
//     RL_SIM_HAZARDS_ADVERSARIAL mode the processor gathers such a batch and
//     interleaves the work-groups of its dispatches in a seeded random order
//     (with the `isa` executor, their instructions: a quantum of a few
//     wave-instructions at a time), so a missing barrier changes results. The dynamic hazard checker
//     records the byte ranges every dispatch actually read and wrote and
//     reports RAW/WAR/WAW between dispatches nothing orders (no barrier bit
//     since the earlier one, whatever batches the CP happened to form),
//     independent of any declared effects.
//   - Faults (invalid packet type, reserved header bits, unknown kernel
//     object, kernarg outside memory, VM fault, executor refusal, a
//     completion or dependent signal outside memory, scratch use) put the
//     queue in an error state: it consumes nothing more, and its signals
//     never complete; the engine's bounded wait must notice. queue_fault()
//     then reports the packet id, the faulting address and a message
//     "queue Q packet P: <packet kind>: <reason>" naming the kernel and
//     dispatch index when there is one.
//   - Retiring a packet: header := INVALID (release), read id + 1 (release),
//     then the completion signal - 1 (release) and a wakeup of waiters.
//   - Caches (optional, rl_sim_options_t.cache_model; sim/mem/sim_mem.h and
//     docs/cache-model.md): per-WGP vector L0 and scalar cache, per-array
//     GL1 (gfx11) and a write-back L2, maintained only by ACQUIRE_MEM /
//     RELEASE_MEM GCR bits, AQL fence scopes and in-kernel invalidations,
//     so a missing one makes loads (or the host) see stale bytes.
//   - Device memory of a fixed size (rl_sim_options_t.memory_bytes, 16 GiB
//     by default): allocations beyond what is free fail as on a GPU. Host
//     backing is reserved, not committed: a large allocation is an
//     anonymous MAP_NORESERVE mapping whose pages cost host memory only
//     once touched, so the host memory the device holds never exceeds its
//     size (plus the allocation table).
//   - A 100 MHz timestamp counter and start/end timestamps per dispatch.
//
// Thread-safety: the rl_device_t API is for one engine thread at a time;
// each queue has its own command-processor thread synchronised through the
// ring (acquire/release on headers and ids), the doorbell (mutex + condvar)
// and signals (atomics).
#ifndef REDLINE_SIM_SIM_H_
#define REDLINE_SIM_SIM_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/device/device.h"
#include "redline/limits.h"
#include "sim/sim_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

// Device addresses lie in [RL_SIM_VA_BASE, RL_SIM_VA_END): inside the lower,
// canonical half of the GPU's 48-bit virtual address space (bit 47 clear), so
// a 64-bit address is the same whether a target sign-extends it from bit 47
// (gfx12 code re-extends the zero-extended S_GETPC_B64 result; the amdgpu
// driver treats [2^47, 2^64 - 2^47) as a hole) or not. The range sits below
// where Linux x86-64 places executables (0x55.., PIE), heaps, mappings and
// stacks (0x7f.., top-down), and where ASan's allocator (0x6000..) and TSan's
// application ranges are, so a host pointer does not fall in it in practice;
// RL_SIM_VA_END bounds the check. Allocations are page aligned with
// an unmapped 64 KiB guard gap after each; freed ranges are never reused;
// bounds are checked to the byte (stricter than hardware's page granularity).
// A VM fault within RL_SIM_GUARD_SIZE bytes of a live allocation names that
// allocation and the offset of the access in it.
#define RL_SIM_VA_BASE 0x0000400000000000ull
#define RL_SIM_VA_END 0x0000500000000000ull
#define RL_SIM_TIMESTAMP_HZ 100000000ull  // 100 MHz
// LDS per work-group on gfx11/gfx12 (AMDGPUUsage "Memory Spaces": 64 KiB).
#define RL_SIM_LDS_LIMIT 65536u

typedef enum rl_sim_hazard_mode_e {
  RL_SIM_HAZARDS_SEQUENTIAL = 0,   // dispatches run one after another
  RL_SIM_HAZARDS_ADVERSARIAL = 1,  // unbarriered work-groups interleave
} rl_sim_hazard_mode_t;

// The cache model (sim/mem/sim_mem.h, docs/cache-model.md): OFF keeps memory
// coherent; REPORT records a finding (RL_SIM_HAZARD_STALE_READ /
// _STALE_HOST_READ) where a load would hit a stale line but returns the
// current bytes; STRICT returns the stale bytes, as hardware would, and
// records the finding too.
typedef enum rl_sim_cache_mode_e {
  RL_SIM_CACHE_OFF = 0,
  RL_SIM_CACHE_REPORT = 1,
  RL_SIM_CACHE_STRICT = 2,
} rl_sim_cache_mode_t;

// Parses "off", "report" or "strict"; false otherwise.
bool rl_sim_cache_mode_parse(const char* text, rl_sim_cache_mode_t* out_mode);
// The cache model an option names: |text| NULL leaves |*in_out_mode| (the
// caller's default) as it is; a name rl_sim_cache_mode_parse does not know is
// RL_STATUS_INVALID_ARGUMENT naming it and the three it takes.
rl_status_t rl_sim_cache_mode_option(const char* text,
                                     rl_sim_cache_mode_t* in_out_mode);
const char* rl_sim_cache_mode_name(rl_sim_cache_mode_t mode);

typedef struct rl_sim_options_s {
  const char* processor;  // "gfx1100", "gfx1151", "gfx1201"
  rl_sim_hazard_mode_t hazards;
  uint64_t seed;          // adversarial interleaving seed
  // The kernel executor. rl_sim cannot link the reference executor (it is
  // built on rl_sim: kernels/ref, rl_ref_executor()), so callers pass it
  // here; with NULL every kernel dispatch faults as unsupported.
  const rl_sim_executor_t* executor;
  // The work cap (redline/limits.h; 0: the defaults there). A dispatch of
  // more than |max_work_items| work-items (grid_size over three axes) is
  // refused before its executor begins; a PM4-IB packet that launches more
  // than |max_dispatches| dispatches (chained IBs included) faults before
  // the one over the limit. Either is a queue fault naming the numbers.
  uint64_t max_work_items;
  uint32_t max_dispatches;
  // The cache model (default OFF). Its work-group placement is seeded with
  // |seed|.
  rl_sim_cache_mode_t cache_model;
  // Turns the dynamic hazard checker off: kernel accesses are not recorded
  // (the checker's only per-access cost, about a sixth of a decode shadow's
  // CPU time, docs/BENCHMARKS.md) and no hazards are reported.
  bool no_access_record;
  // Adversarial mode with an executor that can pause a work-group (the
  // `isa` executor: rl_sim_executor_t.wg_step) interleaves the dispatches of
  // a batch at instruction granularity: each step runs a random quantum of
  // 1..RL_SIM_QUANTUM_MAX wave-instructions of one dispatch's work-group in
  // flight. Set this to interleave whole work-groups only, as with every
  // other executor.
  bool whole_workgroups;
  // Pins every queue's command-processor thread to CPU |cp_cpu| when
  // |pin_cp| is set: a fixed placement apart from the host's thread, as a
  // GPU's packet processor is (benchmarks; by default the scheduler places
  // it, and a short stream's two threads may end up sharing one core).
  bool pin_cp;
  int cp_cpu;
  // The device's memory in bytes (0: RL_SIM_DEFAULT_MEMORY_BYTES; rounded
  // down to whole 4 KiB pages). Every allocation, of any kind, takes its
  // page-rounded size from it (the simulator backs every kind with host
  // memory); one that does not fit what is left fails with
  // RL_STATUS_OUT_OF_MEMORY and changes nothing. No-access guards
  // (reserve_guard) take nothing.
  uint64_t memory_bytes;
  // Host threads a dispatch's work-groups run on (docs/cache-model.md,
  // "Work-groups in parallel"): 0 takes the environment variable
  // REDLINE_SIM_THREADS, else the CPUs this process may run on
  // (sched_getaffinity); at most RL_SIM_THREADS_MAX. Memory, hazard,
  // stale-read and cache findings are the same for every count; adversarial
  // mode always runs one thread.
  uint32_t threads;
} rl_sim_options_t;

// The thread count rl_sim_options_t.threads == 0 stands for:
// REDLINE_SIM_THREADS when set (1..RL_SIM_THREADS_MAX; anything else is
// ignored), else the CPUs of the process's affinity mask (at least 1).
uint32_t rl_sim_default_threads(void);

// What a simulated device has by default: the 16 GiB the HIP runtime over
// the simulator has always reported (hipDeviceProp_t.totalGlobalMem).
#define RL_SIM_DEFAULT_MEMORY_BYTES (16ull << 30)

// The memory of |device|: *|out_total| bytes (rl_sim_options_t
// .memory_bytes) of which live allocations take *|out_used| (page-rounded
// sizes); total - used is the most allocate() can still hand out. Both 0
// when |device| is NULL or not simulated.
void rl_sim_memory_info(rl_device_t* device, uint64_t* out_total,
                        uint64_t* out_used);

// Creates a simulated device for |options| (NULL: gfx1100, sequential, no
// executor). The processor must be gfx1100, gfx1151 or gfx1201
// (RL_STATUS_UNSUPPORTED otherwise); the target is
// "amdgcn-amd-amdhsa--<processor>". Queues must be destroyed before the
// device; destroying the device frees every allocation still live.
rl_status_t rl_sim_device_create(const rl_sim_options_t* options,
                                 rl_device_t** out_device);

// An executor that accepts every dispatch and runs no kernel code (name
// "noop"): for measuring host and command-processor costs alone.
const rl_sim_executor_t* rl_sim_noop_executor(void);

// True when |device| is a simulated device.
bool rl_sim_device_is(const rl_device_t* device);

// Pins the command-processor threads of the queues |device| creates from now
// on to CPU |cp_cpu| (rl_sim_options_t.pin_cp after the device was opened
// through rl_device_open; benchmarks). No effect on other devices.
void rl_sim_device_pin_cp(rl_device_t* device, int cp_cpu);

// The instruction count of |device|'s executor (rl_sim_executor_t
// .instructions); 0 when |device| is NULL, not simulated, or its executor
// does not count.
uint64_t rl_sim_executor_instructions(const rl_device_t* device);

// A dynamic hazard found between two dispatches that nothing orders: one
// record per (pair of dispatches, kind). On an AQL queue a dispatch is
// unordered with every dispatch since the last packet with the barrier bit
// set, whether the CP ran them in one batch (sim_schedule.c has the batching
// rule) or in several (a batch cut at RL_SIM_BATCH_MAX packets, or packets
// published after the earlier ones completed): the verdict depends on the
// stream's barrier bits only (sim/wg/sim_wg.h). The records of a batch
// are published before the batch's last packet retires, so they are visible
// once its completion signal is.
//
// PM4 IBs add a kind: RL_SIM_HAZARD_RAW_NO_ACQUIRE, a dispatch launched
// after a compute-idle wait (CS_PARTIAL_FLUSH, or WAIT_REG_MEM on a
// RELEASE_MEM fence) with no ACQUIRE_MEM since that wait, reading bytes an
// earlier dispatch wrote: it may read stale L0/GL1 lines. Dispatches of one
// IB not separated by a compute-idle wait are reported as RAW/WAR/WAW like
// an unbarriered AQL batch. On an AQL queue the same kind names a
// dispatch whose packet has acquire fence scope NONE reading bytes that a
// dispatch before a barrier packet with acquire scope NONE wrote, with no
// acquiring packet between them (sim/wg/sim_wg.h).
#define RL_SIM_HAZARD_RAW_NO_ACQUIRE 4u
// Cache-model findings (rl_sim_options_t.cache_model REPORT or STRICT):
// a device load that hit a line its L0, K$ or GL1 filled before a later
// write and no invalidation has dropped since (earlier_dispatch: the
// dispatch that dirtied the line in L2 when known, else UINT64_MAX;
// later_dispatch: the reader), and a host read of coarse-grained memory a
// dispatch wrote with no L2 write-back since (later_dispatch UINT64_MAX).
// Each finding names the first stale byte and the stale bytes of that line.
#define RL_SIM_HAZARD_STALE_READ 5u
#define RL_SIM_HAZARD_STALE_HOST_READ 6u

//
// |ordering| names the synchronisation that was missing: for AQL a barrier
// bit on the later dispatch's packet (or a barrier packet before it); for
// PM4 a compute-idle wait (RAW/WAR/WAW) or an ACQUIRE_MEM after the wait
// (RAW_NO_ACQUIRE) before the later dispatch; RAW_NO_ACQUIRE with AQL
// ordering: an acquire fence scope on the later packet.
#define RL_SIM_HAZARD_ORDERING_AQL 0u
#define RL_SIM_HAZARD_ORDERING_PM4 1u

typedef struct rl_sim_hazard_s {
  uint32_t kind;          // rl_hazard_kind_t values: 1 RAW, 2 WAR, 3 WAW;
                          // 4 RL_SIM_HAZARD_RAW_NO_ACQUIRE;
                          // 5, 6 cache-model findings
  uint64_t earlier_dispatch;  // dispatch indices (rl_sim_dispatch_t), in
  uint64_t later_dispatch;    // packet order, whatever order groups ran in
  uint64_t address;       // first overlapping byte
  uint64_t size;          // total overlapping bytes (may be several ranges)
  uint64_t end;           // one past the last overlapping byte
  uint32_t ordering;      // RL_SIM_HAZARD_ORDERING_*
} rl_sim_hazard_t;

// Copies up to |capacity| hazards found since the last clear (the first
// 1024 are kept); returns the total number found.
uint32_t rl_sim_hazards(rl_device_t* device, rl_sim_hazard_t* out_hazards,
                        uint32_t capacity);
void rl_sim_hazards_clear(rl_device_t* device);

// The dispatch index the next kernel dispatch on |device| will get
// (rl_sim_dispatch_t.dispatch_index counts every dispatch of the device, in
// the order command processors launch them): a caller that notes it before
// submitting a sequence maps hazards and traced launches back to its own
// launch indices.
uint64_t rl_sim_dispatch_next(rl_device_t* device);

// Launch trace, for checking what a route actually dispatched against an
// independent recording of the program (shadow/shadow_rerecord.h). While
// enabled, every kernel dispatch the command processors begin is recorded
// with its geometry and the bytes of its kernarg segment as the kernel sees
// them at launch (up to RL_SIM_TRACE_KERNARG_MAX; at most
// RL_SIM_DISPATCH_LOG records are kept until taken, more are counted).
// Disabled by default; enabling or taking clears it. Thread-safety: under
// the device's report lock, like the hazard list.
#define RL_SIM_TRACE_KERNARG_MAX 512u

typedef struct rl_sim_launch_record_s {
  uint64_t dispatch_index;
  uint64_t kernel_object;
  uint32_t workgroup_size[3];
  uint32_t grid_size[3];  // work-items
  uint32_t kernarg_size;  // bytes kept in |kernarg|
  uint8_t kernarg[RL_SIM_TRACE_KERNARG_MAX];
} rl_sim_launch_record_t;

void rl_sim_launch_trace_enable(rl_device_t* device, bool enable);

// Moves up to |capacity| records, oldest first, into |out_records| (NULL
// with capacity 0 only counts), clears the trace and returns how many
// dispatches were traced since the last clear.
uint32_t rl_sim_launch_trace_take(rl_device_t* device,
                                  rl_sim_launch_record_t* out_records,
                                  uint32_t capacity);

// Access log, for auditing each dispatch against what its launch declared
// (shadow/effects_audit.h). While enabled, every kernel dispatch that ends
// (completed, or cut short by a fault or a queue stop) is recorded with
// the byte ranges its work-groups loaded and stored through global memory
// (the hazard checker's coalesced range sets: empty when |no_access_record|),
// the geometry the command processor derived from its packet, and how many
// work-groups ran. At most RL_SIM_DISPATCH_LOG records are kept until taken,
// in the order dispatches ended (not necessarily dispatch order); more are
// counted. Disabled by default; enabling or taking clears it.
// Thread-safety: under the device's report lock, like the hazard list.
typedef struct rl_sim_access_range_s {
  uint64_t begin;
  uint64_t end;  // exclusive
} rl_sim_access_range_t;

typedef struct rl_sim_access_record_s {
  uint64_t dispatch_index;
  uint32_t workgroup_size[3];   // work-items per work-group
  uint32_t grid_size[3];        // work-items (AQL semantics)
  uint32_t workgroup_count[3];  // work-groups per axis, as derived
  uint64_t workgroups_run;      // work-groups that ran to their end
  uint32_t read_count;
  uint32_t write_count;
  rl_sim_access_range_t* reads;   // sorted, disjoint; owned by the record
  rl_sim_access_range_t* writes;
} rl_sim_access_record_t;

void rl_sim_access_log_enable(rl_device_t* device, bool enable);

// Moves the kept records into a new array (*|out_records|, NULL when
// none; free it with rl_sim_access_log_free), clears the log and returns
// how many are kept in it (*|out_total|: how many dispatches ended since
// the last clear, which exceeds the return value when records were lost).
uint32_t rl_sim_access_log_take(rl_device_t* device,
                                rl_sim_access_record_t** out_records,
                                uint32_t* out_total);
void rl_sim_access_log_free(rl_sim_access_record_t* records, uint32_t count);

// Per-dispatch record (kept for the most recent RL_SIM_DISPATCH_LOG
// dispatches): timestamps in 100 MHz ticks.
#define RL_SIM_DISPATCH_LOG 4096
typedef struct rl_sim_dispatch_record_s {
  uint64_t dispatch_index;
  uint64_t packet_id;
  uint32_t queue_id;
  uint64_t kernel_object;
  uint64_t start_timestamp;
  uint64_t end_timestamp;
} rl_sim_dispatch_record_t;

// Copies the last |capacity| records, oldest first; returns how many.
uint32_t rl_sim_dispatch_log(rl_device_t* device,
                             rl_sim_dispatch_record_t* out_records,
                             uint32_t capacity);

// Cooperative dispatches (hipLaunchCooperativeKernel; ROCr runs them on a
// queue with the global wave sync resource). While set, every kernel
// dispatch a command processor validates is cooperative: all its
// work-groups are resident at once and take turns (sim_coop.c), so a
// grid barrier (gfx11 ds_gws_barrier) or a program's own spin on a global
// counter completes; a grid barrier that cannot complete is a fault, not a
// hang. A producer sets it around one dispatch it waits for (the HIP
// runtime does, holding its device lock).
void rl_sim_set_cooperative(rl_device_t* device, bool cooperative);

// Fault injection for tests: the command processor of |queue| stops before
// executing the packet with dispatch id |packet_id| and never resumes (a
// hung queue: no fault is reported, signals never complete, queue_idle is
// false; queue_destroy still stops it). Inject before ringing the doorbell
// for that packet.
void rl_sim_inject_hang(rl_device_t* device, const rl_device_queue_t* queue,
                        uint64_t packet_id);

// For stand-ins of runtimes without a loader API (libdrm: code is bytes
// written into a buffer object): declares that the live allocation at
// |image_address| already holds |parsed|'s image laid out for that address
// (rl_code_object_load_image), so dispatches of its kernels resolve as
// after load_code_object. |parsed| must outlive the registration, which
// ends with rl_sim_unregister_code_object(|image_address|). Fails with
// RL_STATUS_CONTRACT for another processor or when the image does not lie
// inside one live allocation.
rl_status_t rl_sim_register_code_object(rl_device_t* device,
                                        const rl_code_object_t* parsed,
                                        uint64_t image_address);
void rl_sim_unregister_code_object(rl_device_t* device,
                                   uint64_t image_address);

// Cache-model counters: loads that hit a stale line and host reads that
// saw memory older than L2 (each access counted once per stale line).
typedef struct rl_sim_cache_stats_s {
  uint64_t stale_reads;
  uint64_t stale_host_reads;
} rl_sim_cache_stats_t;
void rl_sim_cache_stats(rl_device_t* device, rl_sim_cache_stats_t* out_stats);

// Translation for tests and the funnel adapter: a host view of
// [|address|, |address| + |size|) when it lies inside one live allocation,
// NULL otherwise.
void* rl_sim_translate(rl_device_t* device, uint64_t address, uint64_t size);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SIM_SIM_H_
