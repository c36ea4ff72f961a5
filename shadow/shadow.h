// shadow/shadow.h — shadow parity runs: the same windows of a capture
// through several arms from identical state, compared byte for byte.
//
// Arms (rl_shadow_arm_kind_t). Every arm gets its own device (a separate
// rl_device_t opened with the same options), so arms share nothing but the
// capture:
//   eager     the reference: each launch issued directly, one at a time,
//             like the original program. Per launch: rl_launch_bind() (the
//             binding helper every route uses) into a fresh kernarg slice,
//             one kernel-dispatch packet with the barrier bit, one
//             doorbell, a bounded wait (the device-funnel adapter of
//             redline/device/device_funnel.h, the same path a capture on
//             the simulator executes through). No retained route.
//   recorded  the captured launches re-issued one by one through the
//             recording funnel's typed launch path: per window a fresh
//             rl_funnel_t over the arm's live buffers re-declares the
//             capture's code objects, kernels, buffers and parameters (at
//             the window's values), then calls rl_funnel_launch() for every
//             launch with typed arguments rebuilt from the capture (pointer
//             slots as typed pointers with their declared effects, bound
//             scalars as bound u32/u64, grid bindings as bound axes, other
//             arguments as bytes; hidden arguments are filled by the funnel
//             itself). The funnel re-assembles each kernarg, and the arm
//             checks that it equals rl_launch_bind()'s bytes exactly (a
//             difference fails the arm naming launch, kernel and byte).
//             Where eager proves the capture's bytes replay, recorded
//             proves the typed model regenerates those bytes. Launches then
//             execute like eager's (one packet, barrier, doorbell, wait).
//             Independently, before each window the arm records the
//             program again from scratch: the capture's workload re-run at
//             the window's values on a simulated device of its own, and
//             every launch's kernel, geometry and kernarg bytes compared
//             with rl_launch_bind()'s, which is what every replay route
//             patches (shadow/shadow_rerecord.h). A binding the capture got
//             wrong fails here naming launch, byte and expression, though
//             every arm agrees on the wrong bytes. Every other arm on a
//             simulated device is then compared with the same recording
//             dispatch by dispatch (geometry and kernarg bytes as the
//             kernels saw them, from the device's launch trace), so a route
//             that patches the wrong byte or skips a patch fails naming the
//             launch and byte. Captures of foreign programs cannot be
//             re-run: the proof's fallback_reason says "not re-recorded:
//             ..." and only the typed-model check runs.
//   aql, pm4  the retained routes of redline/replay.h: rl_replay_create(),
//             contract, prepare(RL_ROUTE_AQL / RL_ROUTE_PM4), then one
//             rl_replay_run() per window.
//   drm       the retained route drm (pm4's IB submitted through
//             libdrm_amdgpu) on a device of kind "drm" (redline/replay.h;
//             the library and render node come from REDLINE_DRM_LIBRARY and
//             REDLINE_DRM_RENDER_NODE, in CI the stand-in of
//             tests/standins/drm).
//   hip       the launches through the HIP runtime (libamdhip64 named by
//             REDLINE_HIP_LIBRARY, else the loader's defaults; in CI the
//             stand-in of tests/standins/hip): hipModuleLoadData of the
//             code objects, hipMalloc'd buffers filled from the initial
//             contents, per launch rl_launch_bind() at the window's values
//             with the HIP addresses and hipModuleLaunchKernel (`extra`
//             form) on one stream, hipStreamSynchronize at the end of the
//             step; regions are read back with hipMemcpy.
//   KIND~advK a seeded pass (rl_shadow_options_t.adversarial_seeds): the
//             retained arm KIND again on a device in adversarial mode with
//             seed device.seed + K, compared with eager like every arm.
//   eager@isa, eager@ref  the second executor (rl_shadow_options_t.
//             second_executor): eager again on a device whose simulator
//             runs the kernels with the other executor than the run's
//             (sim/sim_executor.h): the ISA interpreter of the
//             machine code (sim/isa/) when the run's arms use the C
//             reference kernels (kernels/ref/), those when they use the
//             ISA. Compared with the reference arm like every arm, so a
//             mistake in either executor changes a hash and fails the run
//             naming this arm; the report names it as the run's
//             independent reference.
//   hipgraph  the first step recorded by stream capture
//             (hipStreamBeginCapture, the launches, hipStreamEndCapture),
//             hipGraphInstantiate once, and one hipGraphLaunch per window.
//             A graph holds its kernargs, so when a window's bindings
//             change them (decode's position) the changed kernel nodes are
//             updated in place with hipGraphExecKernelNodeSetParams, as
//             engines do; the proof counts instantiations (must be 1) and
//             node updates. shadow/hip/shadow_arm_hip.c.
//             Both HIP arms are "not available" (RL_STATUS_UNAVAILABLE, the
//             run exits 8) when HIP cannot be loaded, has no device, drives
//             another processor than the capture's, or a buffer must keep
//             its capture address.
//   sim       the simulated reference of a run on a real device (see
//             Devices): the eager arm on a simulated device.
//
// Devices (rl_shadow_device_options_t.kind). "sim" (the default) opens a
// simulated device per arm. "rocr" opens a ROCr device per arm for eager,
// recorded, aql, pm4 and pm4-relay (eager's launches issued one by one
// through that device's AQL queue); "drm" runs only the drm arm on it (the
// drm device has no AQL queue: eager, recorded, aql, pm4 and pm4-relay are
// refused with RL_STATUS_INVALID_ARGUMENT naming the arm). The drm arm
// always opens a "drm" device and hip and hipgraph always run through HIP.
// With a real device, unless |no_sim_reference|, the run appends the arm
// "sim" (eager on a simulated device) and makes it the reference, so every
// hardware run also checks the simulator against the device, and a
// divergence names every arm that differs from the simulator. Seeded
// adversarial passes are only added for arms on a simulated device. Each
// arm allocates and fills its memory through its own device and releases
// it when it is destroyed, after a failure (quarantine) too.
//
// State. Every arm starts from the capture's initial contents (zeros for a
// buffer without them): eager and recorded allocate and fill their buffers
// themselves (keep-address buffers at their capture address), the retained
// arms let rl_replay_prepare() do it (or bind buffers the shadow allocated
// and filled, see |binds|).
//
// Window walk. The window parameter is the capture's first window's
// parameter (parameter 0 without windows); other parameters stay at their
// capture values. Window k runs one step with the window parameter at
// start + k x stride on every arm in turn; state persists on each arm's
// device between windows (the decode workload's produced token stays in
// its token buffer and is read by the next step's embedding: fed back).
// After each window the raw bytes of every state region are read from
// every arm and compared with the reference arm's (eager when present,
// otherwise the first arm): first differing byte, differing byte count,
// max abs difference for f32/f16/bf16 regions, and XXH3-128 per arm.
//
// Route proof. Each arm reports what ran (route, device, replay count,
// launches issued, the prepared identity). After the walk the count is
// checked: a retained arm must have replayed exactly once per window, and
// hipgraph launched its graph once per window; eager, recorded and hip
// replay zero times; anything else FAILs the run.
//
// Failure. An arm that cannot be set up (contract, prepare: "not available:
// <status message>") or fails during a step is dropped from later windows
// and FAILs the run; its status code is kept (rl_shadow_result_t) so the
// CLI can exit with its class. Any divergence FAILs the run.
//
// Hazard verdicts (shadow/hazard_verdict.h). Unless |no_hazard_check|, the
// dynamic hazard checker of every arm on a simulated device (eager,
// recorded, aql, pm4) is read after each window: any finding — two launches
// of the window that touched the same bytes, at least one writing, with no
// barrier bit, wait or acquire ordering them — FAILs the run, naming the
// window, both launches and kernels, the buffer and byte range and the
// missing synchronisation. It comes before any divergence in the verdict:
// a race is the cause, the differing bytes (under adversarial ordering)
// its effect. Arms on other devices (drm, hip, hipgraph) are not checked
// and say so. The checker sees what the kernels actually accessed, so a
// hazard plan that misses a conflict and a lowering that drops its barrier
// fail here even when the default sequential ordering hides the race.
//
// Effects and dispatch audits (shadow/effects_audit.h), on wherever the
// hazard verdicts are (the same arms, off with |no_hazard_check|): after
// each window, every byte a dispatch of the arm loaded or stored in a
// capture buffer must lie inside its launch's declared effects (pointer
// slots' extents and directions, plus the kernel's code object variable
// buffers), and the grid, work-group size and work-groups the simulator
// ran must equal the launch as bound at the window's values. A violation
// FAILs the run naming the window, step, launch, kernel, buffer, bytes and
// direction (or the axis); it comes before hazards in the verdict, since a
// wrong declaration is what makes a plan miss a wait. Declared slots no
// access touched are reported as information only.
//
// Negative control (|flip|): after the first window has run and before its
// regions are read, one byte (XOR 0xFF) of |flip_region| at |flip_offset|
// is corrupted in the device memory of the pm4 arm, or of the last retained
// or HIP arm when pm4 is not requested (through HIP for the HIP arms); the
// run must then FAIL naming exactly that region and offset.
//
// Ownership: the result borrows the capture (region and parameter names):
// destroy the result before the capture.
// Thread-safety: one thread per run; the run uses its devices exclusively.
#ifndef REDLINE_SHADOW_SHADOW_H_
#define REDLINE_SHADOW_SHADOW_H_

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "redline/capture.h"
#include "redline/limits.h"
#include "redline/digest.h"
#include "sim/oracle/oracle.h"
#include "redline/status.h"
#include "shadow/effects_audit.h"
#include "shadow/hazard_verdict.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_SHADOW_MAX_ARMS 16u
#define RL_SHADOW_MAX_BINDS 16u
// Hazard findings kept per arm (more are counted).
#define RL_SHADOW_MAX_HAZARDS 8u

typedef enum rl_shadow_arm_kind_e {
  RL_SHADOW_ARM_EAGER = 0,
  RL_SHADOW_ARM_RECORDED = 1,
  RL_SHADOW_ARM_AQL = 2,
  RL_SHADOW_ARM_PM4 = 3,
  RL_SHADOW_ARM_HIP = 4,
  RL_SHADOW_ARM_HIPGRAPH = 5,
  RL_SHADOW_ARM_DRM = 6,
  // Route pm4 with the CP relaying kernarg values from per-expression
  // slots (rl_replay_options_t.pm4_device_patch).
  RL_SHADOW_ARM_PM4_RELAY = 7,
  // The eager arm on a simulated device: the reference of a run on a real
  // device (see Devices); added by the run, not named in --arms.
  RL_SHADOW_ARM_SIM = 8,
  RL_SHADOW_ARM_KIND_COUNT_ = 9,
} rl_shadow_arm_kind_t;

// "eager", "recorded", "aql", "pm4", "hip", "hipgraph", "drm",
// "pm4-relay".
const char* rl_shadow_arm_kind_name(rl_shadow_arm_kind_t kind);
bool rl_shadow_arm_kind_parse(const char* name, rl_shadow_arm_kind_t* out_kind);
// True for the retained routes (aql, pm4, drm).
bool rl_shadow_arm_kind_retained(rl_shadow_arm_kind_t kind);
// True for the arms whose route proof counts one replay per window: the
// retained routes and hipgraph (one hipGraphLaunch per window).
bool rl_shadow_arm_kind_replays(rl_shadow_arm_kind_t kind);
// True for the arms over the HIP runtime (hip, hipgraph).
bool rl_shadow_arm_kind_hip(rl_shadow_arm_kind_t kind);
// The device kind arm |kind| runs on when the run names |device_kind|
// (NULL: sim): "hip" for hip and hipgraph, "drm" for drm, "sim" for sim,
// |device_kind| for the others (see Devices).
const char* rl_shadow_arm_device_kind(rl_shadow_arm_kind_t kind,
                                      const char* device_kind);
// False when arm |kind| cannot run on |device_kind| (eager, recorded, aql,
// pm4 and pm4-relay on drm, which has no AQL queue).
bool rl_shadow_arm_device_supported(rl_shadow_arm_kind_t kind,
                                    const char* device_kind);

// The arms of a shadow run that names none (CLI, JSON API, demo): the
// eager reference, the re-recorded launches and every retained route the
// simulator runs, the pm4 relay included (its census is the only check of
// the relayed kernarg copies).
#define RL_SHADOW_DEFAULT_ARMS "eager,recorded,aql,pm4,pm4-relay"

// Parses a comma-separated list ("eager,recorded,aql,pm4") into |out_kinds|
// (capacity RL_SHADOW_MAX_ARMS). RL_STATUS_INVALID_ARGUMENT on an unknown
// or repeated name, or an empty list.
rl_status_t rl_shadow_arms_parse(const char* text, rl_shadow_arm_kind_t* out_kinds,
                                 uint32_t* out_count);

// The values the window parameter walks: start, start + stride, ...
typedef struct rl_shadow_window_s {
  int64_t start;
  uint32_t count;
  int64_t stride;
} rl_shadow_window_t;

// Parses "START:COUNT[:STRIDE]" (stride 1 by default; 1 <= count <= 2^32-1)
// with the one number parser (base/number.h: decimal or 0x-hex,
// START and STRIDE may be negative, no whitespace). The last value
// START + (COUNT - 1) x STRIDE must fit 64 bits, so every window value does.
// RL_STATUS_INVALID_ARGUMENT naming the field otherwise.
rl_status_t rl_shadow_window_parse(const char* text,
                                   rl_shadow_window_t* out_window);

// The window parameter and window of a run: |window| when |has_window|,
// else the capture's first window; the parameter is the capture's first
// window's (parameter 0 without windows; UINT32_MAX without parameters).
// RL_STATUS_INVALID_ARGUMENT without any window, with 0 steps or when the
// last value does not fit 64 bits; RL_STATUS_INVALID_INPUT, before any
// value is looked at, when it has more than |max_windows| steps
// (redline/limits.h, 0: the default); RL_STATUS_CONTRACT when a value
// leaves the admitted range.
rl_status_t rl_shadow_window_resolve(const rl_capture_t* capture,
                                     uint32_t max_windows,
                                     bool has_window,
                                     const rl_shadow_window_t* window,
                                     uint32_t* out_param,
                                     rl_shadow_window_t* out_window);

// A buffer the retained arms bind (rl_replay_bind_buffer) instead of letting
// redline allocate it: |size| bytes allocated by the shadow, filled from the
// capture's initial contents (truncated or zero-extended). A size smaller
// than the capture's is a contract failure of those arms (workspace
// capacity), which is what it is for.
typedef struct rl_shadow_bind_s {
  uint32_t buffer;
  uint64_t size;
} rl_shadow_bind_t;

// Progress: |done| of |total| arm-steps finished; |arm| names the arm that
// just stepped. Called from the running thread.
typedef void (*rl_shadow_progress_fn_t)(void* user, uint32_t done,
                                        uint32_t total, const char* arm);

// Creates and prepares the arm |common| describes (shadow/shadow_arm.h:
// kind, capture, limits, device options; |device| is NULL). How a run gets
// the constructor of arms whose runtime sits beside shadow rather than
// under it: the hip and hipgraph arms (shadow/hip/shadow_hip.h).
struct rl_shadow_arm_s;
typedef rl_status_t (*rl_shadow_arm_factory_t)(
    struct rl_shadow_arm_s* common, struct rl_shadow_arm_s** out_arm);

typedef struct rl_shadow_device_options_s {
  const char* processor;  // NULL: the capture's
  bool adversarial;       // sim: seeded interleaving of unbarriered work
  uint64_t seed;
  // sim: "ref" or "isa"; NULL: "ref" when every kernel of the capture has
  // a C reference kernel (rl_ref_executor_has_kernel), else "isa".
  const char* executor;
  // sim: the cache model, "off", "report" or "strict" (NULL: strict, so a
  // missing acquire or write-back changes bytes; docs/cache-model.md).
  const char* cache_model;
  // sim: no access recording (set by the run from |no_hazard_check|).
  bool no_hazard_check;
  // The device of the eager, recorded and retained arms: "sim" (NULL),
  // "rocr" or "drm" (see Devices).
  const char* kind;
  // The hip and hipgraph arms' constructor (rl_shadow_hip_arm_create of
  // shadow/hip/shadow_hip.h); NULL: those arms are unavailable
  // (RL_STATUS_UNAVAILABLE). Set by the CLI and the JSON entry points.
  rl_shadow_arm_factory_t hip_arm;
  // Retained arms: every run polls its completion signal instead of the
  // device's wait (rl_replay_options_t.spin_wait).
  bool spin_wait;
  // sim: the command-processor threads pinned to CPU |cp_cpu|
  // (rl_device_options_t.pin_cp).
  bool pin_cp;
  int cp_cpu;
  // sim with the isa executor: the executor wrapped by this oracle
  // (sim/oracle/oracle.h). Set by the run for one arm (see
  // rl_shadow_options_t.oracle); NULL otherwise.
  rl_oracle_t* oracle;
} rl_shadow_device_options_t;

typedef struct rl_shadow_options_s {
  rl_shadow_arm_kind_t arms[RL_SHADOW_MAX_ARMS];
  uint32_t arm_count;
  bool has_window;            // false: the capture's first window
  rl_shadow_window_t window;
  rl_shadow_device_options_t device;
  bool flip;                  // the negative control (see above)
  uint32_t flip_region;
  uint64_t flip_offset;
  rl_shadow_bind_t binds[RL_SHADOW_MAX_BINDS];
  uint32_t bind_count;
  rl_shadow_progress_fn_t progress;  // may be NULL
  void* progress_user;
  // Budgets (redline/limits.h; zero fields take the defaults). Before any
  // arm is created the run refuses (RL_STATUS_CONTRACT) a capture with
  // more launches per window than max_dispatches, a launch of more than
  // max_work_items work-items at its largest admitted grid, or more device
  // memory over all arms (buffers and code objects, times the arm count)
  // than max_device_bytes. wait_timeout_ns bounds every wait of every
  // redline arm: each eager and recorded launch, each retained run.
  rl_limits_t limits;
  // Skips the hazard verdicts (see above); on by default.
  bool no_hazard_check;
  // With a real device (device.kind rocr or drm): no simulated reference
  // arm "sim" (see Devices).
  bool no_sim_reference;
  // Seeded adversarial passes: for every retained arm on a simulated
  // device (aql, pm4, pm4-relay; not drm, nor any arm with a real
  // device.kind) in |arms|, |adversarial_seeds| more arms of the same kind run every window
  // on devices with the adversarial interleaving, seeds device.seed + 1 ..
  // device.seed + N, named "KIND~advK". So one shadow runs each window
  // sequentially and under N interleavings; a missing barrier or wait that
  // the sequential order hides shows there. Ignored when device.adversarial
  // is already set (every arm is adversarial then). The CLI's default is 2.
  uint32_t adversarial_seeds;
  // The second executor (see eager@isa above): when set, and every kernel
  // of the capture has a C reference kernel (rl_ref_executor_has_kernel),
  // one eager arm on the other executor is appended. Captures without
  // reference kernels get none, and the result says why
  // (independent_reference). The CLI's default is on.
  bool second_executor;
  // The oracle executor (sim/oracle/oracle.h, docs/shadow-oracle.md, "The
  // oracle executor"): "sample" (two work-groups per dispatch, picked by
  // device.seed), "full" or "off" (NULL: off). When on and the run's
  // executor is isa on simulated devices, the first eager arm (else the
  // first sequential retained arm) runs its device's isa executor under the
  // oracle, and so does every adversarial pass on a simulator running isa
  // (an oracle of its own, seeded by the pass's seed; a picked work-group
  // runs whole at its point of the interleaving): a work-group whose bytes
  // differ from the oracle's, or that wrote a byte the oracle did not (or
  // the reverse), fails that arm, naming window, launch, kernel,
  // work-group, address and bytes; what the oracle cannot model is counted
  // as skipped (result.oracle). The CLI's default is "sample".
  const char* oracle;
  // When set, every arm step goes into this trace (shadow/shadow_trace.h):
  // host spans, the dispatches of simulated devices, arrows for the hazard
  // plan's dependencies. Arms are processes |trace_pid_base| + 1 + index.
  struct rl_trace_s* trace;
  uint32_t trace_pid_base;
  // Host threads the arms step on (docs/cli.md, "Arms in parallel"):
  // each window's arms run concurrently on up to this many threads, each
  // arm on its own device (hip and hipgraph, which share the HIP runtime's
  // device, one after the other on the run's thread); the outcomes are
  // merged in arm order, so the result and verdict are the sequential
  // ones. 0: rl_shadow_default_arm_jobs(); at most RL_SHADOW_MAX_ARMS.
  uint32_t arm_jobs;
} rl_shadow_options_t;

// The arm jobs rl_shadow_options_t.arm_jobs == 0 stands for:
// REDLINE_SHADOW_ARM_JOBS when set (1..RL_SHADOW_MAX_ARMS; anything else
// is ignored), else the CPUs of the process's affinity mask divided by the
// simulator's threads per dispatch (rl_sim_default_threads: --sim-threads,
// REDLINE_SIM_THREADS, else those CPUs), at least 1; so arm jobs times
// simulator threads stays within the CPUs, and by default (one simulator
// thread per CPU) the arms step one after another as before.
uint32_t rl_shadow_default_arm_jobs(void);

// What an arm ran: the retained routes' rl_route_proof_t, and the same
// shape for eager and recorded (route "eager"/"recorded", replay count 0).
typedef struct rl_shadow_proof_s {
  const char* route;       // arm kind name (static)
  char device[32];         // "sim" (copied: outlives the arm's device)
  char target[128];        // "amdgcn-amd-amdhsa--gfx1100"
  const char* state;       // replay state name or "direct" (static)
  char fallback_reason[256];
  uint64_t replay_count;   // retained runs; 0 for eager and recorded
  uint64_t steps;          // windows stepped successfully
  uint64_t launches_issued;  // dispatches executed over all steps
  uint32_t dispatches;     // per step
  uint32_t packets;        // AQL packets per step
  uint32_t waits;          // see rl_route_proof_t; eager/recorded: packets
  uint32_t queue_id;
  uint64_t stream_bytes;   // bytes published per step
  uint32_t patch_sites;
  uint32_t ib_dwords;      // pm4
  // recorded: windows re-recorded from the program and launches compared
  // (shadow/shadow_rerecord.h); when re-recording is unavailable
  // fallback_reason says "not re-recorded: <why>".
  uint64_t rerecorded_windows;
  uint64_t rerecorded_launches;
  // recorded: dispatches checked against the launches as the program
  // issued them (shadow/issued_check.h); 0 when the capture kept none.
  uint64_t issued_checked;
  // hipgraph: graphs instantiated (exactly 1 over a run: one capture, later
  // windows update kernel nodes in place) and kernel nodes updated with
  // hipGraphExecKernelNodeSetParams; 0 for the other arms.
  uint64_t instantiations;
  uint64_t node_updates;
} rl_shadow_proof_t;

typedef struct rl_shadow_arm_result_s {
  rl_shadow_arm_kind_t kind;
  char name[24];           // "pm4", "pm4~adv2" for a seeded pass,
                           // "eager@isa" for the second executor
  const char* executor;    // the simulator's executor, "ref" or "isa"
                           // (static; the run's for non-simulated arms)
  bool adversarial;        // its device interleaves unordered work
  uint64_t seed;           // the interleaving's seed (when adversarial)
  bool available;          // set up successfully
  // Dispatches whose received explicit arguments were checked against the
  // launches as issued, from the simulated device's launch trace
  // (shadow/issued_check.h); 0 when the capture kept none.
  uint64_t issued_checked;
  bool failed;             // not available, or failed during a step
  rl_status_code_t failure_code;
  char failure[768];       // "not available: ..." / "window 3 (pos=33): ..."
  rl_shadow_proof_t proof;
  bool proof_ok;
  char proof_problem[256];
  // Hazard verdicts: |hazard_checked| when the arm's device is simulated
  // and the check is on; |hazard_count| findings over all windows, the first
  // RL_SHADOW_MAX_HAZARDS kept with the window they were found in.
  bool hazard_checked;
  uint32_t hazard_count;
  rl_hazard_finding_t hazards[RL_SHADOW_MAX_HAZARDS];
  uint32_t hazard_windows[RL_SHADOW_MAX_HAZARDS];
  // Effects and dispatch audits (see above): |effects_checked| when the
  // arm's device is simulated and the check is on.
  bool effects_checked;
  rl_effects_audit_t effects;
  // Some region of some window differed from the reference arm's.
  bool diverged;
} rl_shadow_arm_result_t;

// One region of one arm after one window, against the reference arm.
#define RL_SHADOW_CELL_SMALL 16u

typedef struct rl_shadow_cell_s {
  bool present;            // the arm produced this state
  bool equal;
  uint64_t first_difference;  // byte offset in the region (when !equal)
  uint64_t differing_bytes;
  bool has_max_abs;        // float region types
  double max_abs_difference;  // +inf when only one side is NaN/inf
  rl_digest128_t digest;   // XXH3-128 of the region's bytes
  // The region's bytes when it has at most RL_SHADOW_CELL_SMALL of them
  // (small_size; 0 otherwise): the verbose table prints small u32 regions'
  // values (a verify step's tau and heads).
  uint8_t small[16];
  uint32_t small_size;
} rl_shadow_cell_t;

typedef struct rl_shadow_result_s {
  const rl_capture_t* capture;  // borrowed
  uint32_t param;               // window parameter index (UINT32_MAX: none)
  rl_shadow_window_t window;
  uint32_t arm_count;
  rl_shadow_arm_result_t arms[RL_SHADOW_MAX_ARMS];
  uint32_t reference;           // arm index
  uint32_t window_count;        // windows walked (<= window.count)
  uint32_t region_count;
  // cells[(w * region_count + r) * arm_count + a]
  rl_shadow_cell_t* cells;
  bool flip;                    // the negative control was applied
  uint32_t flip_arm, flip_region;
  uint64_t flip_offset;
  bool hazard_check;             // hazard verdicts were on
  // What checks the code under test independently: "eager@isa (...)" when
  // the second executor ran, the oracle executor's counts when it ran
  // ("oracle executor (sample): 4 of 96 work-groups in 2 of 2 dispatches
  // checked, 0 skipped"), else why there is none ("none: ...").
  char independent_reference[640];
  // The oracle executor's report (oracle_ran: it wrapped an arm's
  // executor); its arm is arms[oracle_arm].
  bool oracle_ran;
  uint32_t oracle_arm;
  rl_oracle_report_t oracle;
  // The adversarial passes each run under an oracle of their own: how many,
  // and the work-groups their oracles checked and skipped in all.
  uint32_t oracle_adversarial_arms;
  uint64_t oracle_adversarial_checked;
  uint64_t oracle_adversarial_skipped;
  // How every wait of the redline arms is bounded (options.limits
  // wait_timeout_ns): on the simulator a stall (no work-group completing
  // for that long; a step that keeps progressing runs as long as it needs,
  // whatever its recorded length), elsewhere a duration.
  char wait_bound[160];
  bool diverged;
  // The first divergence in (window, region, arm) order.
  uint32_t first_window, first_region, first_arm;
  uint64_t first_offset;
  // The element holding first_offset (region type's size: 4 for u32, i32
  // and f32, 2 for f16 and bf16, 1 for bytes; little-endian), in the
  // reference arm and in the first diverging arm; first_element_offset is
  // first_offset rounded down to the element.
  uint32_t first_element_size;
  uint64_t first_element_offset;
  uint8_t first_reference_value[8];
  uint8_t first_arm_value[8];
  // The program as a reference (shadow/shadow_program.h): region digests
  // compared with the program's recorded ones, and the first mismatch.
  uint32_t program_checked;
  uint32_t program_windows;     // windows with at least one comparison
  bool program_mismatch;
  uint32_t program_window, program_region;
  rl_digest128_t program_expected, program_got;
  bool pass;
  char reason[768];             // "" on PASS
} rl_shadow_result_t;

// Runs the shadow of |capture| with |options| into *|out_result| (the
// caller destroys it). Fails (no result) only on invalid options:
// RL_STATUS_INVALID_ARGUMENT (unknown region, offset outside it, flip
// without a retained arm, bad bind), RL_STATUS_CONTRACT (a window value
// outside the parameter's admitted range). Divergences and arm failures
// are results, not errors.
rl_status_t rl_shadow_run(const rl_capture_t* capture,
                          const rl_shadow_options_t* options,
                          rl_shadow_result_t** out_result);

void rl_shadow_result_destroy(rl_shadow_result_t* result);

// The cell of window |w|, region |r|, arm |a|.
static inline const rl_shadow_cell_t* rl_shadow_result_cell(
    const rl_shadow_result_t* result, uint32_t w, uint32_t r, uint32_t a) {
  return &result->cells[((uint64_t)w * result->region_count + r) *
                            result->arm_count + a];
}

// The value of the window parameter in window |w| < count of a window that
// rl_shadow_window_parse() or rl_shadow_window_resolve() accepted (they
// prove that the last value, and so every value, fits 64 bits).
static inline int64_t rl_shadow_window_value(const rl_shadow_window_t* window,
                                             uint32_t w) {
  return window->start + (int64_t)w * window->stride;
}

// The exit class of a result: 0 on PASS; the status code of the first arm
// that failed with one (contract 4, prepare 5, poisoned 6...); otherwise
// RL_STATUS_MISMATCH (divergence or a failed proof).
rl_status_code_t rl_shadow_result_code(const rl_shadow_result_t* result);

//===----------------------------------------------------------------------===//
// Reports (shadow_report.c). The library formats; the caller prints.
//===----------------------------------------------------------------------===//

// A malloc'd text report: header, one line per arm (proof), per window and
// region a line (equal with its XXH3-128, or the differences per arm), and
// a final "shadow: PASS ..." or "shadow: FAIL (<reason>)" line.
// NULL when out of memory.
char* rl_shadow_report_text(const rl_shadow_result_t* result);

// The short report `redline shadow` and `redline demo` print by default:
// the header, one line per route family of arms that passed ("ok pm4
// (pm4, pm4~adv1, pm4~adv2): ...; proof ok, hazards none") and the full
// line with its hazard findings for every other arm, the negative control,
// on a divergence the
// first differing window, region, byte offset and both values, and the
// final "shadow: PASS ..." / "shadow: FAIL (<reason>)" line. The
// per-window, per-region table is only in rl_shadow_report_text() and the
// JSON. NULL when out of memory.
char* rl_shadow_report_summary(const rl_shadow_result_t* result);

// The same content as JSON (a cJSON tree the caller deletes); NULL when out
// of memory.
cJSON* rl_shadow_report_json(const rl_shadow_result_t* result);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_SHADOW_H_
