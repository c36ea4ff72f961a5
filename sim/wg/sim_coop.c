// sim/wg/sim_coop.c — the schedule of a cooperative dispatch.
//
// A cooperative launch (hipLaunchCooperativeKernel) promises that every
// work-group of the dispatch is resident at once, so its work-items may
// wait for each other across work-groups: cooperative groups' grid sync
// (gfx11: ds_gws_barrier, isa_gws.c) or a program's own spin on a global
// atomic counter. The usual schedules cannot run such a kernel: sequential
// mode runs one work-group to its end before the next starts, adversarial
// mode keeps at most RL_SIM_OPEN_WG_MAX open. Here all the dispatch's
// work-groups are opened (in the run's work-group order, sim_schedule.c)
// before its first instruction, and stepped in turn:
//   - sequential hazard mode: round-robin, RL_SIM_COOP_QUANTUM
//     wave-instructions each, deterministic;
//   - adversarial: a uniformly drawn open work-group and a quantum of
//     1..RL_SIM_QUANTUM_MAX, from the run's own random stream.
// A work-group blocked at a grid barrier (executor wg_blocked) is passed
// over for the next one that can run; when none of the open work-groups
// can, the barrier can never complete (a count larger than the waves that
// reach it, a work-group that ended without arriving) and the dispatch
// faults naming the kernel, a waiting work-group and its wave's PC —
// rather than hanging. A program's own spin barrier that never completes
// is not blocked but spinning: the progress watchdog of the wait stops it
// (docs/reliability.md, "The watchdog").
//
// Executors without wg_step (ref, noop: no grid barriers) run cooperative
// dispatches with the usual schedule.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/wg/sim_wg.h"

// Wave-instructions a work-group runs per turn in sequential mode: a
// spinning wave costs at most this much before the others move.
#define RL_SIM_COOP_QUANTUM 1024u

typedef struct rl_sim_coop_s {
  rl_sim_open_wg_t** open;  // [count]; ended ones are closed and removed
  uint64_t count;           // open now
  uint64_t next;            // sequential: the round-robin position
} rl_sim_coop_t;

void rl_sim_set_cooperative(rl_device_t* device, bool cooperative) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  atomic_store_explicit(&sim->cooperative, cooperative, memory_order_release);
}

bool rl_sim_coop_applies(const rl_sim_queue_t* queue,
                         const rl_sim_run_t* run) {
  const rl_sim_executor_t* executor = queue->device->options.executor;
  return run->dispatch.cooperative && executor->wg_open != NULL &&
         executor->wg_step != NULL && executor->wg_close != NULL;
}

static void rl_sim_coop_close(rl_sim_queue_t* queue, rl_sim_coop_t* coop,
                              uint64_t slot) {
  rl_sim_open_wg_free(queue, coop->open[slot]);
  coop->open[slot] = coop->open[--coop->count];
  coop->open[coop->count] = NULL;
}

void rl_sim_coop_end(rl_sim_queue_t* queue, rl_sim_run_t* run) {
  rl_sim_coop_t* coop = run->coop;
  while (coop->count > 0) rl_sim_coop_close(queue, coop, 0);
  free(coop->open);
  free(coop);
  run->coop = NULL;
}

// Opens work-group |wg_index| of |run| as coop->open[count++].
static rl_status_t rl_sim_coop_open(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                    uint64_t wg_index,
                                    uint64_t* out_fault_address) {
  rl_sim_coop_t* coop = run->coop;
  rl_sim_open_wg_t* open = NULL;
  RL_RETURN_IF_ERROR(rl_sim_open_wg_create(queue, run, wg_index, &open));
  coop->open[coop->count++] = open;
  rl_status_t status =
      rl_sim_open_wg_start(queue, run, open, out_fault_address);
  if (status != RL_OK) rl_sim_coop_close(queue, coop, coop->count - 1);
  return status;
}

// Opens every work-group of |run|, in its work-group order.
static rl_status_t rl_sim_coop_begin(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                     uint64_t* out_fault_address) {
  run->coop = calloc(1, sizeof(*run->coop));
  if (run->coop == NULL) return rl_status_out_of_memory();
  run->coop->open = calloc(run->wg_total, sizeof(*run->coop->open));
  if (run->coop->open == NULL) return rl_status_out_of_memory();
  for (uint64_t k = 0; k < run->wg_total; ++k) {
    uint64_t index = (run->wg_offset + k * run->wg_stride) % run->wg_total;
    RL_RETURN_IF_ERROR(rl_sim_coop_open(queue, run, index, out_fault_address));
  }
  run->wg_opened = run->wg_total;
  return RL_OK;
}

// The fault of a dispatch none of whose open work-groups can run.
static rl_status_t rl_sim_coop_deadlock(const rl_sim_run_t* run,
                                        const rl_sim_open_wg_t* open,
                                        const char* why,
                                        uint64_t* out_fault_address) {
  *out_fault_address = 0;
  return RL_STATUS(
      RL_STATUS_POISONED,
      "kernel %s dispatch %" PRIu64
      ": cooperative dispatch deadlocked: work-group (%u,%u,%u) %s, and "
      "none of its %" PRIu64 " running work-groups can go on (%" PRIu64
      " of %" PRIu64
      " have ended): the grid barrier can never complete (a count larger "
      "than the waves that reach it, or a work-group that ended without "
      "arriving)",
      run->dispatch.kernel->name, run->dispatch.dispatch_index,
      open->wg.group_id[0], open->wg.group_id[1], open->wg.group_id[2], why,
      run->coop->count, run->wg_done, run->wg_total);
}

rl_status_t rl_sim_coop_step(rl_sim_queue_t* queue, rl_sim_run_t* run,
                             uint64_t* out_fault_address) {
  if (run->coop == NULL) {
    RL_RETURN_IF_ERROR(rl_sim_coop_begin(queue, run, out_fault_address));
  }
  rl_sim_coop_t* coop = run->coop;
  const rl_sim_executor_t* executor = queue->device->options.executor;
  const bool adversarial =
      queue->device->options.hazards == RL_SIM_HAZARDS_ADVERSARIAL;
  uint64_t slot = 0, quantum = RL_SIM_COOP_QUANTUM;
  if (adversarial) {
    slot = rl_sim_schedule_random(&run->quantum_rng) % coop->count;
    quantum = 1 + rl_sim_schedule_random(&run->quantum_rng) % RL_SIM_QUANTUM_MAX;
  } else {
    slot = coop->next % coop->count;
  }
  // Passes over blocked work-groups to the next one that can run.
  char why[192] = "";
  for (uint64_t tried = 0;; ++tried) {
    if (tried == coop->count) {  // back at the first: it says what it waits at
      return rl_sim_coop_deadlock(run, coop->open[slot], why,
                                  out_fault_address);
    }
    if (executor->wg_blocked == NULL ||
        !executor->wg_blocked(executor->self, coop->open[slot]->state, why,
                              tried == 0 ? sizeof(why) : 0)) {
      break;
    }
    slot = (slot + 1) % coop->count;
  }
  coop->next = slot + 1;
  rl_sim_open_wg_t* open = coop->open[slot];
  bool done = false;
  rl_status_t status =
      executor->wg_step(executor->self, open->state, quantum, &done);
  if (status != RL_OK) {
    status = rl_sim_wg_failed(status, &open->wg, out_fault_address);
    if (rl_sim_wg_was_stopped(queue, status)) return RL_OK;
    return status;
  }
  if (!done) return RL_OK;
  rl_sim_coop_close(queue, coop, slot);
  coop->next = slot;  // the last open one moved into this slot
  ++run->wg_done;
  rl_sim_queue_progress_note(queue, run);
  if (run->wg_done == run->wg_total) rl_sim_schedule_finish(queue, run);
  return RL_OK;
}
