// redline/replay_internal.h — the replay object shared by the files of the
// replay engine (private to rl_engine):
//   replay.c          create/destroy, bindings, proof, counters, accessors
//   replay_contract.c rl_replay_contract, rl_replay_admit, run-time admission
//   replay_prepare.c  rl_replay_prepare: device resources, lowering, census
//   replay_run.c      rl_replay_run: bind, patch, publish, bounded wait
//   replay_poison.c   checked mode (guards, scratch fill), failure
//                     transitions (poison, quarantine)
//   replay_route.c    the route registry, the routes' state, the shared
//                     apply, publication and the bounded wait over an AQL
//                     queue
//   replay_route_aql.c route aql: retained dispatch packets
//   replay_route_pm4.c route pm4: one IB behind one vendor AQL packet
//   replay_route_drm.c route drm: route pm4's IB submitted directly
// The engine core (replay.c, replay_prepare.c, replay_run.c) reaches the
// route only through replay->route_ops (redline/replay_route.h); the
// route's own state (queue, ring, packets, IB) is opaque here
// (replay->route_state, defined in replay_route_state.h for the routes).
//
// State machine (docs/failure-semantics.md):
//   CAPTURED --contract--> CONTRACTED --prepare--> PREPARED --run--> PREPARED
//   any failure of contract, prepare or run --> POISONED (sticky), except a
//   run whose bounded wait expired with the queue not provably stopped -->
//   QUARANTINED (sticky; nothing on the queue is freed until it is idle).
//   Refusals that change nothing: not admitted values, calls in the wrong
//   state, bad indices.
//
// Thread-safety: one thread at a time per replay (replay.h). The only
// memory shared with another thread is the AQL ring, the kernarg segment
// and the completion signal, which the device's packet processor reads;
// the ring protocol (aql/aql_ring.h) orders every write before the header
// release store, and the engine writes the kernarg segment only while the
// queue is idle (after a completed run's acquire wait).
#ifndef REDLINE_REPLAY_INTERNAL_H_
#define REDLINE_REPLAY_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "capture/bind/bind_table.h"
#include "redline/device/device.h"
#include "redline/hazard.h"
#include "redline/replay.h"
#include "redline/replay_route.h"

// Red zone after every buffer the replay allocates in checked mode. 256
// bytes cover a stray vector store of a full wave32 of 8-byte elements.
#define RL_REPLAY_GUARD_SIZE 256u
// How far past a buffer's end a VM fault is still named after that buffer
// (rl_replay_guards_fault): the simulator's unmapped gap after every
// allocation (sim/sim.h), inside which no other buffer can lie.
#define RL_REPLAY_FAULT_REACH 65536u
// The byte poison-filled scratch holds before each checked run: as a float
// it reads -1.07e8, so a read of unwritten scratch changes every result.
#define RL_REPLAY_SCRATCH_POISON 0xCCu
// Default bound of one run's wait (replay.h: 0 means 10 s).
#define RL_REPLAY_DEFAULT_TIMEOUT_NS 10000000000ull
#define RL_REPLAY_DEFAULT_QUEUE_PACKETS 1024u
// The wait is split into slices so a faulted queue is noticed without
// waiting for the whole bound.
#define RL_REPLAY_WAIT_SLICE_NS 2000000ull
// The completion signal's value before the first step (|signal_value|).
#define RL_REPLAY_SIGNAL_START (INT64_C(1) << 62)

// What REDLINE_ROUTE allows (read once, at prepare).
typedef enum rl_replay_policy_e {
  RL_REPLAY_POLICY_ANY = 0,  // unset or empty
  RL_REPLAY_POLICY_OFF = 1,
  RL_REPLAY_POLICY_AQL = 2,
  RL_REPLAY_POLICY_PM4 = 3,
  RL_REPLAY_POLICY_DRM = 4,
} rl_replay_policy_t;

// Where one capture buffer lives in this replay.
typedef struct rl_replay_buffer_s {
  uint64_t address;     // device address this replay uses
  uint64_t size;        // usable bytes at |address|
  uint64_t guard_size;  // red-zone bytes after |size| (checked mode)
  // The red zone is a no-access range the device reserved at |address| +
  // |size| (device.h reserve_guard), freed with the buffer; otherwise it is
  // part of the allocation and holds the guard pattern.
  bool guard_reserved;
  void* host;           // host view of the allocation, or NULL
  bool bound;           // the caller's allocation (rl_replay_bind_buffer)
  bool allocated;       // allocated by this replay; freed at destroy
  bool unchecked;       // test hook: the contract skips its size check
} rl_replay_buffer_t;

// The routes' state (replay_route_state.h, private to replay_route*.c).
typedef struct rl_replay_route_state_s rl_replay_route_state_t;

struct rl_replay_s {
  rl_device_t* device;         // borrowed
  const rl_capture_t* capture; // borrowed
  rl_replay_options_t options; // defaults filled in
  rl_replay_state_t state;
  rl_route_t route;            // the prepared route, NONE before prepare
  const rl_replay_route_t* route_ops;  // its implementation, or NULL
  rl_replay_policy_t policy;
  bool route_enabled;          // REDLINE_ROUTE allows the prepared route
  char reason[256];            // why not PREPARED / why not enabled, or ""
  rl_replay_buffer_t* buffers; // one per capture buffer
  // Prepared device state; each |has_*| says whether it exists.
  rl_device_code_object_t* code_objects;  // one per capture code object
  uint32_t loaded_code_objects;           // prefix of |code_objects| loaded
  uint64_t* kernel_objects;               // one per capture kernel
  rl_device_allocation_t kernarg;
  bool has_kernarg;
  rl_device_allocation_t signal;
  bool has_signal;
  // The completion signal counts down: the packet processor decrements it
  // by one when the step's last packet completes (AQL), so a step waits for
  // |signal_value| - 1 and the host stores nothing per step. A store would
  // take the signal's cache line back from the device's side (on the
  // simulator a transfer from the command processor's core, about 0.1 µs
  // of every step); a decrement more or less than one is a poisoned step.
  // Stored again at RL_REPLAY_SIGNAL_START before it would reach 0.
  int64_t signal_value;
  rl_hazard_plan_t* plan;
  // The route's own state (queue, ring, packets, IB, scratch ring, relay
  // slots): opaque here, defined and owned by the routes
  // (replay_route_state.h), NULL before the route prepares.
  rl_replay_route_state_t* route_state;
  // The prepared route's compiled patch table (owned by its program) and
  // its destinations, for the shared apply (rl_replay_route_apply).
  rl_bind_table_t* binds;
  rl_bind_dest_t dests[RL_BIND_MAX_DESTS];
  int64_t* values;            // parameter values the stream holds now
  uint64_t* addresses;        // one device address per capture buffer
  rl_replay_counters_t counters;
};

//===----------------------------------------------------------------------===//
// replay.c
//===----------------------------------------------------------------------===//

// Frees every device resource the replay holds (prepared state, buffers it
// allocated) unless the queue is quarantined and still busy, in which case
// they are leaked deliberately. Returns the first error, joined with the
// rest.
rl_status_t rl_replay_release_device(rl_replay_t* replay);

// Refuses a call when the replay is poisoned or quarantined (with the
// sticky reason) or not yet in state |needed|.
rl_status_t rl_replay_require(const rl_replay_t* replay,
                              rl_replay_state_t needed, const char* call);

//===----------------------------------------------------------------------===//
// replay_contract.c
//===----------------------------------------------------------------------===//

// The cheap per-run check: |value_count| values, each inside its admitted
// range, route enabled, state PREPARED. Writes the reason when not.
bool rl_replay_can_run(const rl_replay_t* replay, const int64_t* values,
                       uint32_t value_count, char* out_reason,
                       size_t reason_size);

//===----------------------------------------------------------------------===//
// replay_prepare.c
//===----------------------------------------------------------------------===//

// Parses REDLINE_ROUTE; an unknown value is RL_STATUS_INVALID_ARGUMENT.
rl_status_t rl_replay_policy_from_env(rl_replay_policy_t* out_policy);

//===----------------------------------------------------------------------===//
// replay_poison.c
//===----------------------------------------------------------------------===//

// Moves the replay to POISONED with the status's message as the sticky
// reason and returns |status| unchanged (a contract failure stays
// RL_STATUS_CONTRACT). rl_replay_quarantine moves it to QUARANTINED and
// returns the status re-coded as RL_STATUS_QUARANTINED.
rl_status_t rl_replay_poison(rl_replay_t* replay, rl_status_t status);
rl_status_t rl_replay_quarantine(rl_replay_t* replay, rl_status_t status);

// Returns |status| with code |code| (the original code name appended to the
// message); OK stays OK.
rl_status_t rl_replay_recode(rl_status_t status, rl_status_code_t code);

// Checked mode: writes the guard pattern after every buffer the replay
// allocated (prepare) and checks it (after every run). A corrupted guard
// is RL_STATUS_POISONED naming the buffer and the first bad byte. Buffers
// whose guard is a reserved no-access range are skipped: there a stray
// read or write faults the queue instead (rl_replay_guards_fault).
rl_status_t rl_replay_guards_write(rl_replay_t* replay);
rl_status_t rl_replay_guards_check(rl_replay_t* replay);

// When |fault| is a VM fault near a buffer, the violation as
// RL_STATUS_POISONED naming the access kind, the buffer and the offset,
// with the device's message; RL_OK when the fault is something else.
// Checked mode: an address inside a buffer with a reserved guard or inside
// that guard ("checked mode: a kernel write at offset 256 of buffer 7 'io'
// (256 bytes) runs past its end into the no-access guard: ..."). Every
// mode: an address inside the buffer that starts closest below it or less
// than RL_REPLAY_FAULT_REACH bytes past its end ("queue 1 faulted at
// packet 6: a read at offset 256 of buffer 1 'ids' (256 bytes): ...").
rl_status_t rl_replay_guards_fault(const rl_replay_t* replay,
                                   const rl_device_fault_t* fault);

// Checked mode: fills every scratch-role buffer with the poison byte.
rl_status_t rl_replay_scratch_fill(rl_replay_t* replay);

// The guard byte at |index| of a red zone: position dependent, so a
// shifted copy of the pattern is still noticed.
static inline uint8_t rl_replay_guard_byte(uint64_t index) {
  return (uint8_t)(0xA5u ^ (index * 0x3Bu));
}

//===----------------------------------------------------------------------===//
// Test hooks (tests only; they break the replay on purpose)
//===----------------------------------------------------------------------===//

// Clears the barrier bit of prepared packet |packet| (negative control of
// the hazard plan). RL_STATUS_INVALID_ARGUMENT when not prepared.
rl_status_t rl_replay_test_clear_barrier(rl_replay_t* replay, uint32_t packet);

// Points prepared packet |packet| at |kernel_object| (a queue fault).
rl_status_t rl_replay_test_set_kernel_object(rl_replay_t* replay,
                                             uint32_t packet,
                                             uint64_t kernel_object);

// Binds |buffer| like rl_replay_bind_buffer() but marks the binding so the
// contract does not check its size (a VM fault during a run).
rl_status_t rl_replay_test_bind_unchecked(rl_replay_t* replay, uint32_t buffer,
                                          uint64_t device_address,
                                          uint64_t size);

// The prepared queue (NULL before prepare), for rl_sim_inject_hang.
rl_device_queue_t* rl_replay_test_queue(rl_replay_t* replay);

// Route pm4: replaces the CS_PARTIAL_FLUSH (|acquire| false) or the
// ACQUIRE_MEM (|acquire| true) of the wait before launch |launch| by a NOP
// of the same size, in the program and the device's IB (negative control
// of the hazard plan: the simulator's checker must report it).
// RL_STATUS_INVALID_ARGUMENT when not prepared on route pm4 or when that
// launch has no wait.
rl_status_t rl_replay_test_pm4_drop_wait(rl_replay_t* replay, uint32_t launch,
                                         bool acquire);

#endif  // REDLINE_REPLAY_INTERNAL_H_
