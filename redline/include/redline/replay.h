// redline/replay.h — the product path: replay a captured decode step on a
// fixed queue, with contract, prepare, replay and poison checks.
//
// Typical use (error handling elided):
//
//   rl_device_t* device;        rl_device_open(NULL, &device);   // sim
//   rl_capture_t* capture;      rl_capture_file_read("step.rlc", &capture, NULL);
//     (or in process: record through a funnel on
//      rl_device_funnel_device_create(device, ...) and rl_funnel_finish())
//   rl_replay_t* replay;        rl_replay_create(device, capture, NULL, &replay);
//   rl_replay_bind_buffer(replay, kv, my_kv_address, my_kv_size);  // optional
//   rl_replay_contract(replay);
//   rl_replay_prepare(replay, RL_ROUTE_AQL);
//   for each step:
//     int64_t pos = ...;
//     rl_admission_t admission;
//     rl_replay_admit(replay, &pos, 1, &admission);
//     if (!admission.admitted) { run the usual HIP path; continue; }
//     if (rl_replay_run(replay, &pos, 1)) { fall back and re-capture }
//   rl_replay_destroy(replay); rl_capture_destroy(capture); rl_device_close(device);
//
// Lifecycle: CAPTURED → CONTRACTED → PREPARED → REPLAYING (after the first
// completed run; later runs keep it there). Any failure of contract,
// prepare or run moves it to POISONED (sticky: every later call fails
// with RL_STATUS_POISONED until the caller destroys it and re-captures) or,
// when the queue's state after the failure is unknown (a bounded wait
// expired with packets possibly executing), to QUARANTINED (sticky, with
// RL_STATUS_QUARANTINED: nothing runs on the queue, regions are not read,
// and nothing it references is freed until rl_replay_destroy() finds the
// queue idle; otherwise destroy leaks those to the device deliberately).
// Refusals change nothing: values that are not admitted (RL_STATUS_CONTRACT
// from rl_replay_run), calls in the wrong state or with bad indices
// (RL_STATUS_INVALID_ARGUMENT). docs/failure-semantics.md has the details.
//
// Contract (rl_replay_contract; before anything is reserved on the
// device): the device's exact ISA equals the capture's target; code-object
// digests match their bytes; every launch's kernarg size equals the loader
// metadata, its implicit arguments hold what the runtime passes and every
// byte outside the arguments is zero (kernels with a private segment are
// admitted: routes pm4 and drm allocate a scratch ring at prepare and free
// it at destroy; a dynamic stack without a fixed size is refused there); LDS
// (static + dynamic) fits the device; every bound buffer is at least as
// large as captured (workspace capacities) and aligned; keep-address
// buffers sit at their capture address; the captured parameter values lie
// in their admitted ranges and every binding is representable over the
// whole range. Failures are RL_STATUS_CONTRACT naming what and where
// (launch and kernel, buffer and role, parameter). Before every run the
// cheap part is checked again: state, route, parameter ranges.
//
// Admission is not failure: rl_replay_admit() answers whether the route may
// run these parameter values (inside the admitted ranges, route enabled by
// REDLINE_ROUTE, replay prepared and not poisoned) and why not, without
// side effects.
//
// Escape hatch: the environment variable REDLINE_ROUTE is read at
// rl_replay_prepare(): "off" disables redline (prepare succeeds and builds
// nothing, every admit answers not admitted with reason
// "REDLINE_ROUTE=off"), "aql", "pm4" or "drm" restricts to that route (preparing
// another route succeeds but is never admitted). Other values are
// RL_STATUS_INVALID_ARGUMENT.
//
// Rebasing: a capture replays in a new process with fresh allocations; every
// pointer slot is rewritten from its typed binding (buffer + offset), never
// by guessing which 8-byte value looks like an address. Buffers redline
// allocates start from the capture's initial contents (zeros without them);
// buffers the caller binds keep the caller's contents.
//
// Route proof (rl_replay_proof) after every run: device, route, state,
// fallback reason, replay count and the prepared identity (dispatches,
// packets, waits, queue id, bytes published, patch sites).
//
// Thread-safety: a replay object is used by one thread at a time; different
// replay objects on one device may be used from different threads only if
// the device allows it (sim does not: serialise calls per device). The
// device's packet processor runs on its own thread; the replay synchronises
// with it through the AQL ring protocol (aql/aql_ring.h) and the completion
// signal, and touches the kernarg segment and buffers only while the queue
// is idle.
// Ownership: the capture is borrowed and must outlive the replay; buffers
// bound by the caller stay the caller's and must outlive the replay (after
// a quarantine: until the device is closed).
//
// Teardown: a replay holds its device, so the order does not matter. A
// device closed while replays of it exist stays open for them (they run,
// read and destroy as before) and is destroyed with the last of them;
// rl_device_close() itself never blocks on them. Closing a device twice,
// or using it after rl_device_close() except through its replays, is a
// bug. (tests/unit/redline/public_api_null_test.c closes a device before
// its two replays.) Statuses
// returned are the caller's to free.
#ifndef REDLINE_REPLAY_H_
#define REDLINE_REPLAY_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/digest.h"
#include "redline/funnel.h"
#include "redline/limits.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_device_s rl_device_t;
typedef struct rl_replay_s rl_replay_t;

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

typedef struct rl_device_options_s {
  const char* kind;       // "sim" (default), "rocr", "drm"
  const char* processor;  // "gfx1100" (default), "gfx1151", "gfx1201"
  bool adversarial;       // sim: interleave unbarriered work-groups
  uint64_t seed;          // sim: adversarial seed
  // sim: the cache model (docs/cache-model.md): "off" (NULL), "report" or
  // "strict".
  const char* cache_model;
  // rocr: the libhsa-runtime64 to load (NULL: $REDLINE_HSA_LIBRARY, else
  // libhsa-runtime64.so.1, then /opt/rocm/lib). drm: the libdrm_amdgpu to
  // load (NULL: $REDLINE_DRM_LIBRARY, else libdrm_amdgpu.so.1).
  const char* library;
  // sim: the kernel executor, "ref" (default: C reference kernels), "isa"
  // (interprets the code object's gfx11 machine code) or "noop" (runs no
  // kernel code: for timing the host and the command processor alone).
  const char* executor;
  // sim: the work cap (redline/limits.h, rl_sim_options_t; 0: defaults):
  // work-items per dispatch and dispatches per PM4-IB packet.
  uint64_t max_work_items;
  uint32_t max_dispatches;
  // sim: no dynamic hazard checking (rl_sim_options_t.no_access_record).
  bool no_hazard_check;
} rl_device_options_t;

// Opens a device; |options| may be NULL (sim, gfx1100). A device kind that
// is not available here is RL_STATUS_UNAVAILABLE with the reason.
rl_status_t rl_device_open(const rl_device_options_t* options,
                           rl_device_t** out_device);
// Drops the caller's hold on |device| (NULL is ignored): the device is
// destroyed now, or with the last replay of it (see "Teardown" above).
void rl_device_close(rl_device_t* device);

// The exact ISA ("amdgcn-amd-amdhsa--gfx1100") and kind ("sim").
const char* rl_device_target(const rl_device_t* device);
const char* rl_device_kind(const rl_device_t* device);

// Fills *|out_funnel_device| with a recording-funnel device
// (redline/funnel.h) that executes every launch on |device|, so a funnel
// recording is also an eager run there (capture in-process, then replay
// the capture on the same device). Release it with
// rl_funnel_device_destroy() before closing |device|.
rl_status_t rl_device_funnel_device_create(
    rl_device_t* device, rl_funnel_device_t* out_funnel_device);

//===----------------------------------------------------------------------===//
// Replay objects
//===----------------------------------------------------------------------===//

typedef enum rl_route_e {
  RL_ROUTE_NONE = 0,
  RL_ROUTE_AQL = 1,  // one kernel-dispatch packet per launch
  RL_ROUTE_PM4 = 2,  // one PM4 IB in one vendor AQL packet
  RL_ROUTE_DRM = 3,  // route pm4's IB submitted directly (device drm:
                     // one amdgpu command submission per run, completion
                     // = the CS fence; needs device.h submit_ib)
} rl_route_t;

typedef enum rl_replay_state_e {
  RL_REPLAY_CAPTURED = 0,
  RL_REPLAY_CONTRACTED = 1,
  RL_REPLAY_PREPARED = 2,
  RL_REPLAY_POISONED = 3,
  RL_REPLAY_QUARANTINED = 4,
  // PREPARED and at least one run completed; runs keep it here.
  RL_REPLAY_REPLAYING = 5,
} rl_replay_state_t;

typedef struct rl_replay_options_s {
  // Checked mode: red-zone guards after every buffer redline allocates and
  // poison-filled scratch before each run; a corrupted guard poisons.
  bool checked;
  // Bound on waiting for one replay to complete (0 = limits.wait_timeout_ns,
  // itself 10 s by default).
  uint64_t wait_timeout_ns;
  // AQL ring slots (power of two; 0 = 1024, or the next power of two that
  // holds one run's packets).
  uint32_t queue_packets;
  // Route pm4: turn register-state retention off (pm4/pm4_lower.h; on by
  // default: a SET_SH_REG whose value the IB already holds is elided).
  bool pm4_no_retain;
  // How a run waits for its step: by default the device's own wait (on the
  // simulator and ROCr: poll about 200 µs, then sleep until the completion
  // wakes the thread). With |spin_wait| the run polls the completion signal
  // for the whole step instead (HSA_WAIT_STATE_ACTIVE, HIP's
  // hipDeviceScheduleSpin): the lowest latency and a cache still warm for
  // the next step's host work, for one host core kept busy while the device
  // runs. Faults and the wait bound are checked as in the default wait; a
  // device without a polling wait (device.h signal_spin_lt) waits its own
  // way.
  bool spin_wait;
  // Routes pm4 and drm: the command processor writes the changed kernarg
  // values, not the host (pm4/pm4_lower.h "Relay"). A run then stores one
  // 8-byte slot per distinct changed expression, however many launches use
  // it, and the IB copies each slot into its launches' kernarg with one
  // COPY_DATA per site (6 dwords, placed before a wait the launch already
  // has, so on hardware the copy overlaps the previous dispatch). Host
  // cost per step no longer grows with the launches whose arguments
  // change; the command processor's does. Grid bindings stay host-written.
  // Ignored by route aql.
  bool pm4_device_patch;
  // Budgets for an untrusted capture (redline/limits.h; zero fields take
  // the defaults). The contract refuses (RL_STATUS_CONTRACT, before
  // anything is allocated) a capture with more launches than
  // max_dispatches, a launch of more than max_work_items work-items at
  // its largest admitted grid, or buffers and code objects over
  // max_device_bytes. max_decompressed_bytes is the reader's
  // (capture_file.h); it is not used here.
  rl_limits_t limits;
  // On a device that reports progress (device.h queue_progress: the
  // simulator), bound each run's wait by a stall instead of a duration:
  // it fails once no work-group completed and no dispatch started for
  // |wait_timeout_ns|, so a step of any length runs to its end. The
  // shadow's retained arms set it (their steps are a program's whole
  // run); off, the bound is wall time, as for any untrusted capture.
  bool stall_bound;
} rl_replay_options_t;

// Creates a replay of |capture| on |device|; |options| may be NULL.
rl_status_t rl_replay_create(rl_device_t* device, const rl_capture_t* capture,
                             const rl_replay_options_t* options,
                             rl_replay_t** out_replay);

// Binds capture buffer |buffer| to the caller's allocation at
// |device_address| of |size| bytes (before prepare; binding after
// rl_replay_contract undoes the contract, which then runs again). Unbound
// buffers are allocated by redline and filled from the capture's initial
// contents at prepare; bound ones keep the caller's contents.
rl_status_t rl_replay_bind_buffer(rl_replay_t* replay, uint32_t buffer,
                                  uint64_t device_address, uint64_t size);

// Checks the contract above (CAPTURED → CONTRACTED); a failure poisons.
rl_status_t rl_replay_contract(rl_replay_t* replay);

// Builds the stream for |route| (contracting first when still CAPTURED):
// buffers, code objects, kernarg segment, completion signal, queue,
// lowering and the census of the built packets; route pm4 also allocates
// the IB (host-visible kernarg memory) and lowers into it
// (pm4/pm4_lower.h), so a run publishes one vendor AQL packet. A kernel
// the pm4 route cannot launch (scratch, an implicit SGPR it cannot
// provide) fails here naming the kernel. A failure releases what prepare
// took and poisons.
rl_status_t rl_replay_prepare(rl_replay_t* replay, rl_route_t route);

typedef struct rl_admission_s {
  bool admitted;
  char reason[256];  // why not, when !admitted
} rl_admission_t;

// |values| holds one value per capture parameter, in capture order.
// *|out_admission| is cleared first; the call itself fails only on NULL
// arguments.
rl_status_t rl_replay_admit(const rl_replay_t* replay, const int64_t* values,
                            uint32_t value_count, rl_admission_t* out_admission);

// Applies the bindings for |values|, publishes, waits (bounded) and checks
// completion and guards. Not admitted values are RL_STATUS_CONTRACT (the
// replay is not poisoned); every other failure poisons or quarantines.
rl_status_t rl_replay_run(rl_replay_t* replay, const int64_t* values,
                          uint32_t value_count);

// Route proof: what ran, where, and how often.
typedef struct rl_route_proof_s {
  const char* device;       // "sim"
  const char* target;
  rl_route_t route;
  rl_replay_state_t state;
  char fallback_reason[256];  // why runs are refused (state, REDLINE_ROUTE), or ""
  uint64_t replay_count;      // successful runs
  uint32_t dispatches;        // launches in the prepared stream
  uint32_t packets;           // AQL packets per run
  uint32_t waits;             // aql: packets with the barrier bit per run;
                              // pm4: CS_PARTIAL_FLUSH + ACQUIRE_MEM pairs
  uint32_t queue_id;
  uint64_t stream_bytes;      // bytes published per run (packets + IB)
  uint32_t patch_sites;       // entries of the patch table
  uint32_t ib_dwords;         // pm4: dwords of the IB (0 on route aql)
} rl_route_proof_t;

void rl_replay_proof(const rl_replay_t* replay, rl_route_proof_t* out_proof);
rl_replay_state_t rl_replay_state(const rl_replay_t* replay);

// Host-side counters, cumulative since rl_replay_create(). |host_ns| covers
// what the host does per run besides waiting: admission, binding
// evaluation, patching, checked-mode fills, publication and the doorbell.
typedef struct rl_replay_counters_s {
  uint64_t runs;               // successful runs (the proof's replay_count)
  uint64_t refused;            // runs refused as not admitted
  uint64_t values_written;     // patch sites whose value changed and was written
  uint64_t values_unchanged;   // patch sites evaluated and left alone
  uint64_t packets_published;
  uint64_t doorbells;
  uint64_t host_ns;            // summed over runs
  uint64_t doorbell_ns;        // the part of host_ns spent ringing doorbells
  uint64_t wait_ns;            // bounded waits, summed over runs
  uint64_t last_host_ns;       // of the most recent run
  uint64_t last_wait_ns;
  // The most recent run's host time by phase (they add up to last_host_ns):
  // admission (the contract's range check), apply (binding evaluation and
  // patch writes) and publish (packets or IB, and the doorbell).
  uint64_t last_admit_ns;
  uint64_t last_apply_ns;
  uint64_t last_publish_ns;
} rl_replay_counters_t;

void rl_replay_counters(const rl_replay_t* replay,
                        rl_replay_counters_t* out_counters);

//===----------------------------------------------------------------------===//
// The prepared stream (for `redline lower` and reports)
//===----------------------------------------------------------------------===//

// Copies the 64 bytes of packet |index| of the prepared AQL stream, as the
// next run publishes it (header included), into |out_packet| (route pm4:
// the one vendor PM4-IB packet). Fails with RL_STATUS_INVALID_ARGUMENT
// before prepare or when |index| >= packets.
rl_status_t rl_replay_stream_packet(const rl_replay_t* replay, uint32_t index,
                                    uint8_t out_packet[64]);

// Route pm4: copies the prepared IB, as the next run executes it, into
// |out_dwords| (|capacity| dwords; NULL with 0 only asks the size) and sets
// *|out_count| to its size in dwords. RL_STATUS_INVALID_ARGUMENT before
// prepare on route pm4, or when |capacity| is too small (nothing copied).
rl_status_t rl_replay_stream_ib(const rl_replay_t* replay,
                                uint32_t* out_dwords, uint32_t capacity,
                                uint32_t* out_count);

typedef enum rl_patch_site_kind_e {
  RL_PATCH_SITE_SCALAR = 0,   // a scalar binding in a kernarg
  RL_PATCH_SITE_POINTER = 1,  // a rebased pointer slot in a kernarg
  RL_PATCH_SITE_GRID = 2,     // a grid size in a packet (route pm4: a
                              // DISPATCH_DIRECT dim in the IB, or a grid
                              // size in a dispatch-packet image)
} rl_patch_site_kind_t;

// One entry of the patch table: a value a run may rewrite, and where.
typedef struct rl_patch_site_s {
  rl_patch_site_kind_t kind;
  uint32_t launch;
  uint32_t packet;          // packet index of the launch
  uint64_t device_address;  // address of the first patched byte
  uint32_t dword;           // dword index (kernarg segment or packet
                            // stream; route pm4: IB dword of a dim)
  uint32_t size;            // bytes: 4 or 8
  uint64_t current;         // the value the stream holds now
  // "pos+1", "ceil((pos+1)/64)" or "buffer y +0x0" (NUL-terminated).
  char what[96];
} rl_patch_site_t;

// Describes patch site |index| (< proof.patch_sites) of a prepared replay.
rl_status_t rl_replay_patch_site(const rl_replay_t* replay, uint32_t index,
                                 rl_patch_site_t* out_site);

// The device address buffer |buffer| has in this replay.
rl_status_t rl_replay_buffer_address(const rl_replay_t* replay,
                                     uint32_t buffer, uint64_t* out_address);

// Reads state region |region| into |out_data| (then |size| must equal the
// region's size) and/or computes its XXH3-128 digest into |out_digest|;
// either output may be NULL. Refused (RL_STATUS_QUARANTINED) while the
// queue may still write the region.
rl_status_t rl_replay_read_region(rl_replay_t* replay, uint32_t region,
                                  void* out_data, uint64_t size,
                                  rl_digest128_t* out_digest);

// Destroys |replay|. Its queue is destroyed first, which stops the
// device's packet processor whatever it is doing (a quarantined replay's
// queue may still be executing), and only then is its memory freed. When
// the device cannot prove the processor stopped (a ROCr queue destroy that
// fails, a drm IB whose fence never signalled) the queue and memory are
// leaked deliberately and left to the device, which keeps them until it is
// closed; the simulator always stops and joins. Destroying the device
// (rl_device_close, or the last replay's destroy after it) stops every
// queue the device still owns before it frees device memory.
void rl_replay_destroy(rl_replay_t* replay);

const char* rl_route_name(rl_route_t route);
bool rl_route_parse(const char* name, rl_route_t* out_route);
const char* rl_replay_state_name(rl_replay_state_t state);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_REPLAY_H_
