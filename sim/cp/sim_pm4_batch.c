// sim/cp/sim_pm4_batch.c — dispatches in flight inside a PM4 IB: their
// execution with the AQL batching machinery, the compute-idle waits and
// acquires that order them, deferred RELEASE_MEM writes, and the hazard
// report (contract in sim/cp/sim_cp.h).
//
// The batch is queue->runs[0, run_count) with an ordering record per run:
// ordered_after = the compute-idle prefix when it was launched (runs below
// it had completed), acquired_after = the prefix an ACQUIRE_MEM had covered,
// and the acquire epoch. Runs only make progress when the CP has to wait for
// them (a CS_PARTIAL_FLUSH, a WAIT_REG_MEM, the end of the IB, a full
// batch): the CP itself is infinitely fast, which is one legal timing.
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "redline/hazard.h"
#include "sim/clock/sim_clock.h"
#include "sim/cp/sim_cp.h"

// Most completed-but-unacquired writers kept as RAW_NO_ACQUIRE candidates;
// the oldest are dropped beyond this.
#define RL_SIM_PM4_MAX_STALE 1024u

static bool rl_sim_pm4_stopping(rl_sim_queue_t* queue) {
  return atomic_load_explicit(&queue->stop, memory_order_acquire);
}

// Index of the first unfinished run (run_count when all have finished):
// the lowest bit of queue->unfinished, not a scan.
static uint32_t rl_sim_pm4_finished_prefix(rl_sim_queue_t* queue) {
  uint64_t mask = queue->unfinished;
  if (queue->run_count < 64) mask &= (1ull << queue->run_count) - 1;
  return mask ? (uint32_t)__builtin_ctzll(mask) : queue->run_count;
}

static rl_status_t rl_sim_pm4_release_write(rl_sim_pm4_exec_t* exec,
                                            const rl_sim_pm4_release_t* r) {
  uint64_t value = r->data;
  uint32_t size = r->data_sel == 1 ? 4u : 8u;
  if (r->data_sel == 0) return RL_OK;
  if (r->data_sel == 3) value = rl_sim_timestamp(&exec->queue->device->base);
  if (rl_sim_pm4_store(exec->queue, r->address, &value, size)) return RL_OK;
  exec->fault_address = r->address;
  return RL_STATUS(RL_STATUS_POISONED,
                   "VM fault: RELEASE_MEM write of %u bytes at 0x%" PRIx64
                   " is outside any live allocation",
                   size, r->address);
}

// Performs, in program order, every pending RELEASE_MEM whose dispatches
// have all finished. Releases fire in order, so the fired ones are a
// prefix of the list (state->release_fired of them) and are not rescanned.
static rl_status_t rl_sim_pm4_fire(rl_sim_pm4_exec_t* exec) {
  rl_sim_pm4_state_t* state = exec->state;
  if (state->release_fired == state->release_count) return RL_OK;
  uint32_t done = rl_sim_pm4_finished_prefix(exec->queue);
  for (uint32_t i = state->release_fired; i < state->release_count; ++i) {
    rl_sim_pm4_release_t* r = &state->releases[i];
    if (r->after > done) break;
    r->fired = true;
    state->release_fired = i + 1;
    // The GCR actions come first: the write signals that they are done.
    rl_sim_cache_apply(&exec->queue->device->cache, r->cache_actions);
    RL_RETURN_IF_ERROR(rl_sim_pm4_release_write(exec, r));
  }
  return RL_OK;
}

// Runs one work-group of run |k|, then any RELEASE_MEM that became due.
static rl_status_t rl_sim_pm4_step(rl_sim_pm4_exec_t* exec, uint32_t k) {
  rl_sim_queue_t* queue = exec->queue;
  RL_RETURN_IF_ERROR(
      rl_sim_schedule_step(queue, &queue->runs[k], &exec->fault_address));
  return rl_sim_pm4_fire(exec);
}

// Runs queue->runs[0, |limit|) to completion in the batch's order (the
// others may stay unfinished). Sets exec->stopped when the queue stops.
static rl_status_t rl_sim_pm4_run_to(rl_sim_pm4_exec_t* exec, uint32_t limit) {
  for (;;) {
    uint32_t k = rl_sim_schedule_pick(exec->queue, limit, &exec->state->rng);
    if (k == limit) break;
    if (rl_sim_pm4_stopping(exec->queue)) {
      exec->stopped = true;
      return RL_OK;
    }
    RL_RETURN_IF_ERROR(rl_sim_pm4_step(exec, k));
  }
  return rl_sim_pm4_fire(exec);
}

// Reports the hazards of later run |j| against every earlier run of the
// batch, every dispatch a full batch left unordered and every stale writer
// of its acquire epoch.
static void rl_sim_pm4_check_run(rl_sim_pm4_exec_t* exec, uint32_t j) {
  rl_sim_device_t* device = exec->queue->device;
  const rl_sim_run_t* later = &exec->queue->runs[j];
  const rl_sim_pm4_order_t* order = &exec->state->order[j];
  const uint32_t pm4 = RL_SIM_HAZARD_ORDERING_PM4;
  // A dispatch that touched no memory conflicts with nothing.
  if (later->reads.count == 0 && later->writes.count == 0) return;
  uint64_t b = later->dispatch.dispatch_index;
  const rl_sim_hazard_open_t* open = &exec->state->open;
  for (uint32_t e = 0; e < open->count; ++e) {
    rl_sim_hazard_check_unordered(device, pm4, open->items[e].dispatch_index,
                                  &open->items[e].reads,
                                  &open->items[e].writes, later);
  }
  for (uint32_t i = 0; i < j; ++i) {
    const rl_sim_run_t* earlier = &exec->queue->runs[i];
    uint64_t a = earlier->dispatch.dispatch_index;
    if (i >= order->ordered_after) {
      rl_sim_hazard_check_unordered(device, pm4, a, &earlier->reads,
                                    &earlier->writes, later);
    } else if (i >= order->acquired_after) {
      rl_sim_hazard_report_overlap(device, RL_SIM_HAZARD_RAW_NO_ACQUIRE, pm4,
                                   a, &earlier->writes, b, &later->reads);
    }
  }
  for (uint32_t s = 0; s < exec->state->stale_count; ++s) {
    const rl_sim_pm4_stale_t* stale = &exec->state->stale[s];
    if (stale->epoch != order->epoch) continue;
    rl_sim_hazard_report_overlap(device, RL_SIM_HAZARD_RAW_NO_ACQUIRE, pm4,
                                 stale->dispatch_index, &stale->writes, b,
                                 &later->reads);
  }
}

// Drops stale writers an acquire has covered, then the oldest ones so that
// |room| more fit under the cap. Slots past the count are left zeroed, so a
// reused slot never aliases a live range set.
static void rl_sim_pm4_stale_prune(rl_sim_pm4_state_t* state, uint32_t room) {
  uint32_t kept = 0;
  for (uint32_t s = 0; s < state->stale_count; ++s) {
    if (state->stale[s].epoch != state->epoch) {
      rl_sim_range_set_deinit(&state->stale[s].writes);
    } else {
      state->stale[kept++] = state->stale[s];
    }
  }
  uint32_t limit =
      room < RL_SIM_PM4_MAX_STALE ? RL_SIM_PM4_MAX_STALE - room : 0;
  uint32_t drop = kept > limit ? kept - limit : 0;
  if (drop > 0) {
    for (uint32_t s = 0; s < drop; ++s) {
      rl_sim_range_set_deinit(&state->stale[s].writes);
    }
    memmove(state->stale, state->stale + drop,
            (kept - drop) * sizeof(state->stale[0]));
  }
  if (state->stale_count > kept - drop) {
    memset(state->stale + (kept - drop), 0,
           (state->stale_count - (kept - drop)) * sizeof(state->stale[0]));
  }
  state->stale_count = kept - drop;
}

// Moves the writes of runs [acquire_prefix, idle_prefix) — completed behind
// a wait, not acquired — to the stale list. The range sets are moved, not
// copied: the run slot starts over with empty storage.
static rl_status_t rl_sim_pm4_stale_keep(rl_sim_pm4_exec_t* exec) {
  rl_sim_pm4_state_t* state = exec->state;
  uint32_t first = state->acquire_prefix;
  uint32_t count = state->idle_prefix - first;
  rl_sim_pm4_stale_prune(state, count);
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&state->stale, &state->stale_capacity,
                                      state->stale_count + count));
  for (uint32_t i = first; i < state->idle_prefix; ++i) {
    rl_sim_run_t* run = &exec->queue->runs[i];
    if (run->writes.count == 0) continue;  // no writer: never stale
    rl_sim_pm4_stale_t* stale = &state->stale[state->stale_count++];
    stale->dispatch_index = run->dispatch.dispatch_index;
    stale->epoch = state->epoch;
    stale->writes = run->writes;
    memset(&run->writes, 0, sizeof(run->writes));
  }
  return RL_OK;
}

// A compute-idle wait completes the open list's dispatches too: their
// writes become RAW_NO_ACQUIRE candidates of the current acquire epoch.
static void rl_sim_pm4_open_settle(rl_sim_pm4_state_t* state) {
  rl_sim_hazard_open_t* open = &state->open;
  if (open->count == 0) return;
  rl_sim_pm4_stale_prune(state, open->count);
  if (RL_ARRAY_RESERVE(&state->stale, &state->stale_capacity,
                       state->stale_count + open->count) == RL_OK) {
    for (uint32_t e = 0; e < open->count; ++e) {
      rl_sim_pm4_stale_t* stale = &state->stale[state->stale_count++];
      stale->dispatch_index = open->items[e].dispatch_index;
      stale->epoch = state->epoch;
      stale->writes = open->items[e].writes;
      memset(&open->items[e].writes, 0, sizeof(open->items[e].writes));
    }
  }
  rl_sim_hazard_open_clear(open);
}

// Moves runs [idle_prefix, run_count), which no wait ordered, to the open
// list before a full batch is emptied.
static void rl_sim_pm4_open_keep(rl_sim_pm4_exec_t* exec) {
  rl_sim_pm4_state_t* state = exec->state;
  for (uint32_t k = state->idle_prefix; k < exec->queue->run_count; ++k) {
    rl_sim_run_t* run = &exec->queue->runs[k];
    rl_status_free(rl_sim_hazard_open_add(&state->open,
                                          run->dispatch.dispatch_index,
                                          &run->reads, &run->writes));
  }
}

static void rl_sim_pm4_reset(rl_sim_pm4_exec_t* exec) {
  exec->queue->run_count = 0;
  exec->state->idle_prefix = 0;
  exec->state->acquire_prefix = 0;
  exec->state->release_count = 0;
  exec->state->release_fired = 0;
}

// Completes every run; |idle| says whether this is a compute-idle wait
// (CS_PARTIAL_FLUSH, end of IB) or only a full batch.
static rl_status_t rl_sim_pm4_complete(rl_sim_pm4_exec_t* exec, bool idle) {
  rl_sim_queue_t* queue = exec->queue;
  RL_RETURN_IF_ERROR(rl_sim_pm4_run_to(exec, queue->run_count));
  if (exec->stopped) return RL_OK;
  for (uint32_t j = 0; j < queue->run_count; ++j) rl_sim_pm4_check_run(exec, j);
  if (idle) {
    exec->state->idle_prefix = queue->run_count;
    rl_sim_pm4_open_settle(exec->state);
  }
  rl_status_t status = rl_sim_pm4_stale_keep(exec);
  if (!idle) rl_sim_pm4_open_keep(exec);
  rl_sim_pm4_reset(exec);
  return status;
}

rl_status_t rl_sim_pm4_batch_idle(rl_sim_pm4_exec_t* exec) {
  return rl_sim_pm4_complete(exec, true);
}

void rl_sim_pm4_batch_acquire(rl_sim_pm4_state_t* state) {
  state->acquire_prefix = state->idle_prefix;
  state->epoch++;
}

rl_status_t rl_sim_pm4_batch_launch(rl_sim_pm4_exec_t* exec,
                                    const rl_sim_launch_t* launch) {
  rl_sim_queue_t* queue = exec->queue;
  rl_sim_pm4_state_t* state = exec->state;
  if (queue->run_count == RL_SIM_BATCH_MAX) {
    RL_RETURN_IF_ERROR(rl_sim_pm4_complete(exec, false));
    if (exec->stopped) return RL_OK;
  }
  uint32_t k = queue->run_count;
  rl_sim_run_t* run = &queue->runs[k];
  rl_sim_launch_t copy = *launch;
  memcpy(state->user_sgprs[k], launch->user_sgprs,
         4u * launch->user_sgpr_count);
  copy.user_sgprs = state->user_sgprs[k];
  RL_RETURN_IF_ERROR(
      rl_sim_run_launch(queue, &copy, run, &exec->fault_address));
  state->order[k] = (rl_sim_pm4_order_t){state->idle_prefix,
                                         state->acquire_prefix, state->epoch};
  rl_sim_schedule_order_run(queue, run, &state->rng);
  queue->run_count++;
  return RL_OK;
}

// Makes room in the release list: forgets releases that no longer order
// anything (fired, covering only runs already behind a wait), and completes
// the batch when that is not enough.
static rl_status_t rl_sim_pm4_release_room(rl_sim_pm4_exec_t* exec) {
  rl_sim_pm4_state_t* state = exec->state;
  uint32_t kept = 0, fired = 0;
  for (uint32_t i = 0; i < state->release_count; ++i) {
    rl_sim_pm4_release_t* r = &state->releases[i];
    if (!r->fired || r->after > state->idle_prefix) {
      fired += r->fired && fired == kept;
      state->releases[kept++] = *r;
    }
  }
  state->release_count = kept;
  state->release_fired = fired;
  if (kept < RL_SIM_PM4_MAX_RELEASES) return RL_OK;
  return rl_sim_pm4_complete(exec, false);
}

rl_status_t rl_sim_pm4_batch_release(rl_sim_pm4_exec_t* exec,
                                     const rl_sim_pm4_release_t* release) {
  rl_sim_pm4_state_t* state = exec->state;
  if (state->release_count == RL_SIM_PM4_MAX_RELEASES) {
    RL_RETURN_IF_ERROR(rl_sim_pm4_release_room(exec));
    if (exec->stopped) return RL_OK;
  }
  rl_sim_pm4_release_t* r = &state->releases[state->release_count++];
  *r = *release;
  r->after = exec->queue->run_count;
  r->fired = false;
  return rl_sim_pm4_fire(exec);
}

static bool rl_sim_pm4_compare(uint32_t value, uint32_t function,
                               uint32_t reference) {
  switch (function) {
    case 0:
      return true;
    case 1:
      return value < reference;
    case 2:
      return value <= reference;
    case 3:
      return value == reference;
    case 4:
      return value != reference;
    case 5:
      return value >= reference;
    default:
      return value > reference;  // 6; 7 is refused by the caller
  }
}

// The first RELEASE_MEM of the batch that writes the dword at |address|,
// fired or not (NULL if none); |unfired| restricts it to pending ones.
static rl_sim_pm4_release_t* rl_sim_pm4_fence(rl_sim_pm4_state_t* state,
                                              uint64_t address, bool unfired) {
  for (uint32_t i = 0; i < state->release_count; ++i) {
    rl_sim_pm4_release_t* r = &state->releases[i];
    uint64_t size = r->data_sel == 1 ? 4 : 8;
    if (r->data_sel == 0 || (unfired && r->fired)) continue;
    if (address + 4 > r->address && address < r->address + size) return r;
  }
  return NULL;
}

// A satisfied wait on a dword RELEASE_MEMs of this batch wrote is a
// compute-idle wait for the runs launched before each of them.
static void rl_sim_pm4_wait_done(rl_sim_pm4_state_t* state, uint64_t address) {
  for (uint32_t i = 0; i < state->release_count; ++i) {
    rl_sim_pm4_release_t* r = &state->releases[i];
    uint64_t size = r->data_sel == 1 ? 4 : 8;
    bool hit = r->fired && r->data_sel != 0 && address + 4 > r->address &&
               address < r->address + size;
    if (hit && r->after > state->idle_prefix) state->idle_prefix = r->after;
    if (hit) rl_sim_pm4_open_settle(state);
  }
}

// One round of a wait that found the condition false: make progress on
// what could change it, or sleep one slice.
static rl_status_t rl_sim_pm4_wait_round(rl_sim_pm4_exec_t* exec,
                                         uint64_t address) {
  rl_sim_queue_t* queue = exec->queue;
  rl_sim_pm4_release_t* fence = rl_sim_pm4_fence(exec->state, address, true);
  if (fence != NULL) return rl_sim_pm4_run_to(exec, fence->after);
  uint32_t k = rl_sim_schedule_pick(queue, queue->run_count, &exec->state->rng);
  if (k != queue->run_count) return rl_sim_pm4_step(exec, k);
  // Asleep for at most a slice; counted in |sleepers| so that a doorbell
  // (the host's next step) wakes it, as sim_cp.c's waits are.
  pthread_mutex_lock(&queue->lock);
  atomic_fetch_add_explicit(&queue->sleepers, 1, memory_order_seq_cst);
  if (!rl_sim_pm4_stopping(queue)) {
    rl_sim_cond_sleep(&queue->cond, &queue->lock,
                      rl_now_ns() + RL_SIM_WAIT_SLICE_NS);
  }
  atomic_fetch_sub_explicit(&queue->sleepers, 1, memory_order_relaxed);
  pthread_mutex_unlock(&queue->lock);
  return RL_OK;
}

rl_status_t rl_sim_pm4_batch_wait(rl_sim_pm4_exec_t* exec, uint64_t address,
                                  uint32_t function, uint32_t reference,
                                  uint32_t mask) {
  for (;;) {
    uint32_t value = 0;
    if (!rl_sim_pm4_load(exec->queue, address, &value, 4)) {
      exec->fault_address = address;
      return RL_STATUS(RL_STATUS_POISONED,
                       "VM fault: WAIT_REG_MEM poll of 0x%" PRIx64
                       " is outside any live allocation",
                       address);
    }
    if (rl_sim_pm4_compare(value & mask, function, reference)) {
      rl_sim_pm4_wait_done(exec->state, address);
      return RL_OK;
    }
    if (rl_sim_pm4_stopping(exec->queue)) {
      exec->stopped = true;
      return RL_OK;
    }
    RL_RETURN_IF_ERROR(rl_sim_pm4_wait_round(exec, address));
    if (exec->stopped) return RL_OK;
  }
}

void rl_sim_pm4_batch_abandon(rl_sim_pm4_exec_t* exec) {
  for (uint32_t k = 0; k < exec->queue->run_count; ++k) {
    rl_sim_run_end(exec->queue, &exec->queue->runs[k]);
  }
  rl_sim_pm4_reset(exec);
}
