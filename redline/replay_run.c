// rl_replay_run (redline/replay.h): the hot path of routes aql, pm4 and
// drm (steps 4-5 of route drm are one device submit_ib: the IB, then a
// bounded wait on its fence; replay_pm4.c).
//
//   1. admit: the cheap contract (state, REDLINE_ROUTE, parameter ranges);
//      a refusal changes nothing;
//   2. checked mode: poison-fill scratch;
//   3. bind + patch: rl_aql_program_apply (route pm4:
//      rl_pm4_program_apply) re-evaluates the patch table (aql/launch_bind.h,
//      the helper every arm shares) and writes only the values that
//      changed, all or nothing;
//   4. publish: completion signal armed at 1, then the ring protocol
//      (bytes 4..63 of every packet, headers with release stores in id
//      order, one doorbell with the last packet id);
//   5. bounded wait on the signal in slices, watching for a queue fault;
//   6. check the completion value and, in checked mode, the guards.
// Writes to the kernarg segment in step 3 are safe because the previous
// run's wait observed its completion (acquire) before this run started.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "aql/aql_patch.h"
#include "redline/base/clock.h"
#include "redline/replay_internal.h"

// The one clock (redline/base/clock.h); the local name keeps this file's
// diff small while the route layer is being rewritten (issue 13).
static uint64_t rl_run_now_ns(void) { return rl_now_ns(); }

// Steps 2-3. Admitted values always bind (the contract checked the ends of
// every admitted range), so a failure here is a broken invariant.
static rl_status_t rl_run_bind(rl_replay_t* replay, const int64_t* values,
                               uint32_t value_count) {
  if (replay->options.checked) {
    RL_RETURN_IF_ERROR(rl_replay_scratch_fill(replay));
  }
  uint32_t changed = 0, sites = 0;
  if (replay->route == RL_ROUTE_PM4 || replay->route == RL_ROUTE_DRM) {
    RL_RETURN_IF_ERROR(
        rl_replay_pm4_apply(replay, values, value_count, &changed));
    sites = replay->pm4->patch_count;
  } else {
    RL_RETURN_IF_ERROR(rl_aql_program_apply(
        replay->program, replay->capture, values, value_count,
        replay->addresses, replay->kernarg.host, &changed));
    sites = replay->program->patch_count;
  }
  replay->counters.values_written += changed;
  replay->counters.values_unchanged += sites - changed;
  if (value_count) {
    memcpy(replay->values, values, value_count * sizeof(*values));
  }
  return RL_OK;
}

// One doorbell for the |packets| just committed, timed apart.
static rl_status_t rl_run_doorbell(rl_replay_t* replay, uint64_t last,
                                   uint32_t packets) {
  uint64_t before = rl_run_now_ns();
  rl_aql_ring_doorbell(&replay->ring, last);
  replay->counters.doorbell_ns += rl_run_now_ns() - before;
  replay->counters.packets_published += packets;
  ++replay->counters.doorbells;
  return RL_OK;
}

// Step 4: the aql/aql_ring.h protocol step by step, so the doorbell (on
// the simulator: waking the command-processor thread) is timed apart.
// Route pm4 publishes its one vendor packet (replay_pm4.c).
static rl_status_t rl_run_publish(rl_replay_t* replay, uint64_t* out_last) {
  rl_device_t* device = replay->device;
  const rl_aql_program_t* program = replay->program;
  device->vtable->signal_store(device, replay->signal.address, 1);
  if (replay->route == RL_ROUTE_PM4) {
    RL_RETURN_IF_ERROR(rl_replay_pm4_publish(replay, out_last));
    return rl_run_doorbell(replay, *out_last, 1);
  }
  uint64_t first = 0;
  RL_RETURN_IF_ERROR(rl_aql_ring_reserve(&replay->ring, program->packet_count,
                                         replay->options.wait_timeout_ns,
                                         &first));
  for (uint32_t i = 0; i < program->packet_count; ++i) {
    rl_aql_ring_emit(&replay->ring, first + i, &program->packets[i]);
  }
  for (uint32_t i = 0; i < program->packet_count; ++i) {
    rl_aql_ring_commit(&replay->ring, first + i,
                       rl_aql_header_word(&program->packets[i]));
  }
  *out_last = first + program->packet_count - 1;
  return rl_run_doorbell(replay, *out_last, program->packet_count);
}

// A fault the device reports on the queue, as a POISONED status, or RL_OK.
static rl_status_t rl_run_fault(rl_replay_t* replay) {
  rl_device_fault_t fault = {0};
  replay->device->vtable->queue_fault(replay->device, &replay->queue, &fault);
  if (!fault.faulted) return RL_OK;
  if (replay->options.checked) {
    RL_RETURN_IF_ERROR(rl_replay_guards_fault(replay, &fault));
  }
  return RL_STATUS(RL_STATUS_POISONED,
                   "queue %u faulted at packet %" PRIu64 ": %s",
                   replay->queue.id, fault.packet_id, fault.message);
}

// Step 5: waits in slices so a faulted queue (whose signal never
// completes) is reported at once; a wait that runs out without a fault
// leaves the queue's state unknown.
static rl_status_t rl_run_wait(rl_replay_t* replay, uint64_t last_id,
                               int64_t* out_value) {
  rl_device_t* device = replay->device;
  const uint64_t timeout = replay->options.wait_timeout_ns;
  const uint64_t start = rl_run_now_ns();
  for (;;) {
    uint64_t elapsed = rl_run_now_ns() - start;
    uint64_t left = elapsed < timeout ? timeout - elapsed : 0;
    uint64_t slice = left < RL_REPLAY_WAIT_SLICE_NS ? left
                                                    : RL_REPLAY_WAIT_SLICE_NS;
    if (device->vtable->signal_wait_lt(device, replay->signal.address, 1,
                                       slice, out_value)) {
      return RL_OK;
    }
    RL_RETURN_IF_ERROR(rl_run_fault(replay));
    if (left == 0) break;
  }
  uint64_t read_id = __atomic_load_n(replay->queue.read_index, __ATOMIC_ACQUIRE);
  return RL_STATUS(RL_STATUS_QUARANTINED,
                   "bounded wait of %" PRIu64 " ns expired: completion "
                   "signal %" PRId64 ", queue %u read id %" PRIu64
                   " of last packet %" PRIu64 "; packets may still execute",
                   timeout, *out_value, replay->queue.id, read_id, last_id);
}

// Step 6.
static rl_status_t rl_run_check(rl_replay_t* replay, int64_t value) {
  if (value != 0) {
    return RL_STATUS(RL_STATUS_POISONED,
                     "completion signal holds %" PRId64 ", expected 0", value);
  }
  RL_RETURN_IF_ERROR(rl_run_fault(replay));
  return replay->options.checked ? rl_replay_guards_check(replay) : RL_OK;
}

// Turns a failure of steps 2-6 into the replay's sticky state: quarantine
// when the queue may still run, poison otherwise.
static rl_status_t rl_run_fail(rl_replay_t* replay, rl_status_t status) {
  if (rl_status_is(status, RL_STATUS_QUARANTINED)) {
    return rl_replay_quarantine(replay, status);
  }
  status = rl_replay_recode(status, RL_STATUS_POISONED);
  return rl_replay_poison(replay, rl_status_annotate(status, "replay"));
}

// Steps 2-6 of an admitted run.
static rl_status_t rl_run_admitted(rl_replay_t* replay, const int64_t* values,
                                   uint32_t value_count, uint64_t start) {
  RL_RETURN_IF_ERROR(rl_run_bind(replay, values, value_count));
  if (replay->route == RL_ROUTE_DRM) {
    replay->counters.last_host_ns = rl_run_now_ns() - start;
    replay->counters.host_ns += replay->counters.last_host_ns;
    uint64_t submitted = rl_run_now_ns();
    rl_status_t status = rl_replay_drm_submit(replay);
    replay->counters.last_wait_ns = rl_run_now_ns() - submitted;
    replay->counters.wait_ns += replay->counters.last_wait_ns;
    if (status) return status;
    return replay->options.checked ? rl_replay_guards_check(replay) : RL_OK;
  }
  uint64_t last_id = 0;
  rl_status_t status = rl_run_publish(replay, &last_id);
  if (status) {
    // A reserve that timed out without a fault: earlier packets are stuck.
    rl_status_t fault = rl_run_fault(replay);
    if (fault) {
      rl_status_free(status);
      return fault;
    }
    return rl_replay_recode(status, RL_STATUS_QUARANTINED);
  }
  uint64_t published = rl_run_now_ns();
  replay->counters.last_host_ns = published - start;
  int64_t value = 1;
  status = rl_run_wait(replay, last_id, &value);
  replay->counters.last_wait_ns = rl_run_now_ns() - published;
  replay->counters.host_ns += replay->counters.last_host_ns;
  replay->counters.wait_ns += replay->counters.last_wait_ns;
  return status ? status : rl_run_check(replay, value);
}

rl_status_t rl_replay_run(rl_replay_t* replay, const int64_t* values,
                          uint32_t value_count) {
  if (!replay) return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "run: no replay");
  RL_RETURN_IF_ERROR(
      rl_replay_require(replay, RL_REPLAY_PREPARED, "rl_replay_run"));
  const uint64_t start = rl_run_now_ns();
  char reason[256];
  if (!rl_replay_can_run(replay, values, value_count, reason,
                         sizeof(reason))) {
    ++replay->counters.refused;
    return RL_STATUS(RL_STATUS_CONTRACT, "run not admitted: %s", reason);
  }
  rl_status_t status = rl_run_admitted(replay, values, value_count, start);
  if (status) return rl_run_fail(replay, status);
  ++replay->counters.runs;
  replay->state = RL_REPLAY_REPLAYING;
  return RL_OK;
}
