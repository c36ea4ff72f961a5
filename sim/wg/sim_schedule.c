// sim/wg/sim_schedule.c — batching and ordering of kernel dispatches.
//
// Batching rule: an unbarriered batch is a run of consecutive, already
// published kernel-dispatch packets, starting at the packet the CP is on and
// ending before the first packet that (a) has its barrier bit set, (b) is
// not a valid kernel dispatch, (c) fails validation, (d) is not published
// yet, (e) lies beyond the doorbell, (f) is the injected hang point, or at
// RL_SIM_BATCH_MAX packets. The first packet may carry the barrier bit: every
// earlier packet has completed before a batch starts. A packet that ends a
// batch for reason (b) or (c) becomes the first of the next step, where it
// faults with its own message. Waiting for more packets never delays a
// batch: the CP runs what is published, as hardware would.
//
// Ordering: RL_SIM_HAZARDS_SEQUENTIAL runs the batch's dispatches one after
// another, work-groups in linear order (after the first one, possibly on
// several host threads with the results of that order: sim_parallel.c). RL_SIM_HAZARDS_ADVERSARIAL runs the
// batch's work-groups in a seeded pseudo-random interleaving: each step picks
// an unfinished dispatch uniformly (splitmix64 seeded with options.seed ^
// the first dispatch index of the batch), and each dispatch walks its own
// work-groups in a random affine permutation (offset + k * stride mod n with
// stride coprime to n), so a consumer may run before, between or after its
// producer's work-groups. With an executor that can pause a work-group
// (rl_sim_executor_t.wg_step: the `isa` executor) and unless
// options.whole_workgroups, a step is not a whole work-group but a quantum
// of 1..RL_SIM_QUANTUM_MAX wave-instructions (uniform, from the run's own
// splitmix64 stream) of one of the up to RL_SIM_OPEN_WG_MAX work-groups
// the picked dispatch has in flight (opened in its work-group order, the
// slot drawn uniformly), so the instructions of unordered dispatches, and
// of the work-groups of one dispatch, interleave as on a GPU with several
// work-groups resident: a consumer can read between two stores of one
// producer work-item, which no order of whole work-groups shows. Both modes retire packets in id order as soon as a
// packet and all earlier ones have finished, except the batch's last packet:
// it retires after the batch's hazards are reported, so whoever waits on the
// last completion signal can read them.
#include <string.h>

#include "sim/clock/sim_clock.h"
#include "sim/signal/sim_signal.h"
#include "sim/wg/sim_wg.h"

// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014): constants from the reference implementation.
uint64_t rl_sim_schedule_random(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t rl_sim_gcd(uint64_t a, uint64_t b) {
  while (b != 0) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// Copies the published packet |id| and decodes it; false when the header is
// not published yet.
static bool rl_sim_schedule_peek(rl_sim_queue_t* queue, uint64_t id,
                                 rl_aql_decoded_t* out_packet) {
  uint8_t* slot = rl_sim_cp_slot(queue, id);
  uint32_t word =
      atomic_load_explicit((_Atomic uint32_t*)slot, memory_order_acquire);
  if ((word & RL_AQL_HEADER_TYPE_MASK) == RL_AQL_PACKET_TYPE_INVALID) {
    return false;
  }
  uint8_t bytes[RL_AQL_PACKET_SIZE];
  memcpy(bytes, &word, sizeof(word));
  memcpy(bytes + 4, slot + 4, RL_AQL_PACKET_SIZE - 4);
  rl_aql_packet_decode(bytes, out_packet);
  return true;
}

// True when packet |id| can join the batch that is being gathered.
static bool rl_sim_schedule_can_join(rl_sim_queue_t* queue, uint64_t id) {
  if (atomic_load_explicit(&queue->hang_id, memory_order_acquire) == id) {
    return false;
  }
  rl_aql_decoded_t packet;
  if (!rl_sim_schedule_peek(queue, id, &packet)) return false;
  if (packet.error != RL_AQL_OK || packet.barrier ||
      packet.type != RL_AQL_PACKET_TYPE_KERNEL_DISPATCH) {
    return false;
  }
  if (packet.completion_signal != 0 &&
      rl_sim_signal_value(queue->device, packet.completion_signal) == NULL) {
    return false;
  }
  uint64_t address = 0;
  rl_status_t status = rl_sim_run_prepare(
      queue, id, &packet, &queue->runs[queue->run_count], &address);
  if (status != RL_OK) {
    rl_status_free(status);
    return false;
  }
  return true;
}

rl_status_t rl_sim_schedule_gather(rl_sim_queue_t* queue, uint64_t first_id,
                                   const rl_aql_decoded_t* first,
                                   uint64_t* out_fault_address) {
  queue->run_count = 0;
  RL_RETURN_IF_ERROR(rl_sim_run_prepare(queue, first_id, first, &queue->runs[0],
                                        out_fault_address));
  queue->run_count = 1;
  uint64_t end =
      atomic_load_explicit(&queue->doorbell_end, memory_order_acquire);
  for (uint64_t id = first_id + 1;
       id < end && queue->run_count < RL_SIM_BATCH_MAX &&
       rl_sim_schedule_can_join(queue, id);
       ++id) {
    queue->run_count++;
  }
  return RL_OK;
}

// Records the end of |run| in the dispatch log and ends its executor state.
void rl_sim_schedule_finish(rl_sim_queue_t* queue, rl_sim_run_t* run) {
  run->finished = true;
  // Where this CP runs, for a waiter deciding whether to yield to it
  // (stored when it changed: the waiter polls this line).
  int cpu = rl_sim_current_cpu();
  if (atomic_load_explicit(&queue->device->cp_cpu, memory_order_relaxed) !=
      cpu) {
    atomic_store_explicit(&queue->device->cp_cpu, cpu, memory_order_relaxed);
  }
  queue->unfinished &= ~(1ull << (uint32_t)(run - queue->runs));
  rl_sim_dispatch_record_t record = {
      .dispatch_index = run->dispatch.dispatch_index,
      .packet_id = run->dispatch.packet_id,
      .queue_id = queue->id,
      .kernel_object = run->dispatch.kernel_object,
      .start_timestamp = run->start_timestamp,
      .end_timestamp = rl_sim_timestamp(&queue->device->base),
  };
  rl_sim_log_dispatch(queue->device, &record);
  rl_sim_run_end(queue, run);
}

// True when adversarial steps are instruction quanta (see the top).
static bool rl_sim_schedule_by_quantum(const rl_sim_queue_t* queue) {
  const rl_sim_options_t* options = &queue->device->options;
  return options->hazards == RL_SIM_HAZARDS_ADVERSARIAL &&
         !options->whole_workgroups && options->executor->wg_step != NULL &&
         options->executor->wg_open != NULL &&
         options->executor->wg_close != NULL;
}

// Quantum mode: opens work-groups (in the run's own order) until
// RL_SIM_OPEN_WG_MAX are in flight, then runs a random quantum of a random
// one of them.
static rl_status_t rl_sim_schedule_quantum(rl_sim_queue_t* queue,
                                           rl_sim_run_t* run,
                                           uint64_t* out_fault_address) {
  while (run->open_count < RL_SIM_OPEN_WG_MAX &&
         run->wg_opened < run->wg_total) {
    uint64_t index =
        (run->wg_offset + run->wg_opened * run->wg_stride) % run->wg_total;
    RL_RETURN_IF_ERROR(rl_sim_wg_open(queue, run, index, out_fault_address));
    run->wg_opened++;
  }
  uint32_t slot =
      (uint32_t)(rl_sim_schedule_random(&run->quantum_rng) % run->open_count);
  uint64_t quantum =
      1 + rl_sim_schedule_random(&run->quantum_rng) % RL_SIM_QUANTUM_MAX;
  bool done = false;
  rl_status_t status =
      rl_sim_wg_step(queue, run, slot, quantum, &done, out_fault_address);
  if (rl_sim_wg_was_stopped(queue, status)) return RL_OK;
  RL_RETURN_IF_ERROR(status);
  if (!done) return RL_OK;
  rl_sim_wg_close(queue, run, slot);
  ++run->wg_done;
  rl_sim_queue_progress_note(queue, run);
  if (run->wg_done == run->wg_total) rl_sim_schedule_finish(queue, run);
  return RL_OK;
}

// Runs the next work-group (in the run's own order) of |run|, or in
// quantum mode the next quantum; finishes the run after its last one. A
// work-group the executor stopped because the queue is stopping
// (sim_executor.h rl_sim_wg_stopping) returns OK unfinished.
rl_status_t rl_sim_schedule_step(rl_sim_queue_t* queue, rl_sim_run_t* run,
                                 uint64_t* out_fault_address) {
  if (run->wg_done == 0 && run->wg_opened == 0) {
    rl_sim_queue_progress_note(queue, run);
    run->start_timestamp = rl_sim_timestamp(&queue->device->base);
    // The packet's acquire fence happens when it starts (sim/mem/sim_mem.h).
    rl_sim_cache_apply(&queue->device->cache,
                       rl_sim_cache_acquire_actions(run->acquire_scope));
  }
  if (rl_sim_coop_applies(queue, run)) {
    return rl_sim_coop_step(queue, run, out_fault_address);
  }
  if (rl_sim_schedule_by_quantum(queue)) {
    return rl_sim_schedule_quantum(queue, run, out_fault_address);
  }
  // After the first work-group, the rest may run on several threads with
  // the same results (sim_parallel.c).
  if (run->wg_done == 1 && rl_sim_parallel_wanted(queue, run)) {
    RL_RETURN_IF_ERROR(rl_sim_parallel_run(queue, run, out_fault_address));
    rl_sim_queue_progress_note(queue, run);
    // Short of the total only when the queue is stopping (see below).
    if (run->wg_done == run->wg_total) rl_sim_schedule_finish(queue, run);
    return RL_OK;
  }
  // (wg_offset + wg_done * wg_stride) % wg_total, kept incrementally: no
  // division per work-group (wg_stride < wg_total, or both 1).
  if (run->wg_done == 0) run->wg_next = run->wg_offset;
  uint64_t index = run->wg_next;
  run->wg_next += run->wg_stride;
  if (run->wg_next >= run->wg_total) run->wg_next -= run->wg_total;
  rl_status_t status =
      rl_sim_run_workgroup(queue, run, index, out_fault_address);
  // Stopped inside the work-group (its queue is being destroyed): the run
  // stays unfinished, and the caller's loop sees the stop flag next.
  if (rl_sim_wg_was_stopped(queue, status)) return RL_OK;
  RL_RETURN_IF_ERROR(status);
  ++run->wg_done;
  rl_sim_queue_progress_note(queue, run);
  if (run->wg_done == run->wg_total) rl_sim_schedule_finish(queue, run);
  return RL_OK;
}

// Retires every finished packet after *|retired| whose predecessors are
// done, up to (not including) index |limit|.
static void rl_sim_schedule_retire(rl_sim_queue_t* queue, uint64_t first_id,
                                   uint32_t limit, uint32_t* retired) {
  while (*retired < limit && queue->runs[*retired].finished) {
    rl_sim_cp_retire(queue, first_id + *retired,
                     queue->runs[*retired].completion_signal);
    (*retired)++;
  }
}

void rl_sim_schedule_order_run(rl_sim_queue_t* queue, rl_sim_run_t* run,
                               uint64_t* rng) {
  run->wg_stride = 1;
  run->wg_offset = 0;
  if (queue->device->options.hazards != RL_SIM_HAZARDS_ADVERSARIAL) return;
  // Its own stream, derived without advancing |rng|, so whole-work-group
  // orders stay what they were for a given seed.
  run->quantum_rng = *rng ^ 0xD1B54A32D192ED03ull ^ run->dispatch.dispatch_index;
  if (run->wg_total < 2) return;
  run->wg_offset = rl_sim_schedule_random(rng) % run->wg_total;
  do {
    run->wg_stride = 1 + rl_sim_schedule_random(rng) % (run->wg_total - 1);
  } while (rl_sim_gcd(run->wg_stride, run->wg_total) != 1);
}

// Gives every run of the batch its work-group order.
static void rl_sim_schedule_order(rl_sim_queue_t* queue, uint64_t* rng) {
  for (uint32_t k = 0; k < queue->run_count; ++k) {
    rl_sim_schedule_order_run(queue, &queue->runs[k], rng);
  }
}

// The index of the |r|-th (from 0) set bit of |mask|, which has more than
// |r| set bits: a binary search on population counts.
static uint32_t rl_sim_schedule_select(uint64_t mask, uint32_t r) {
  uint32_t base = 0;
  for (uint32_t width = 32; width > 0; width /= 2) {
    uint64_t low = mask & ((1ull << width) - 1);
    uint32_t count = (uint32_t)__builtin_popcountll(low);
    if (r >= count) {
      r -= count;
      mask >>= width;
      base += width;
    } else {
      mask = low;
    }
  }
  return base;
}

// queue->unfinished keeps the batch's unfinished runs as bits, so a pick is
// O(1): the lowest one, or (adversarial) the uniformly chosen r-th one in
// index order — the same choice a scan of the batch would make.
uint32_t rl_sim_schedule_pick(rl_sim_queue_t* queue, uint32_t limit,
                              uint64_t* rng) {
  uint64_t mask = queue->unfinished;
  if (limit < 64) mask &= (1ull << limit) - 1;
  if (mask == 0) return limit;
  if (queue->device->options.hazards != RL_SIM_HAZARDS_ADVERSARIAL) {
    return (uint32_t)__builtin_ctzll(mask);
  }
  uint32_t count = (uint32_t)__builtin_popcountll(mask);
  return rl_sim_schedule_select(mask,
                                (uint32_t)(rl_sim_schedule_random(rng) % count));
}

rl_status_t rl_sim_schedule_batch(rl_sim_queue_t* queue, uint64_t first_id,
                                  uint64_t* out_fault_id,
                                  uint64_t* out_fault_address) {
  uint64_t rng =
      queue->device->options.seed ^ queue->runs[0].dispatch.dispatch_index;
  rl_sim_schedule_order(queue, &rng);
  uint32_t retired = 0;
  rl_status_t status = RL_OK;
  for (;;) {
    uint32_t k = rl_sim_schedule_pick(queue, queue->run_count, &rng);
    if (k == queue->run_count) break;
    // queue_destroy does not wait for a long batch: the unfinished packets
    // stay unretired, as on a preempted queue.
    if (atomic_load_explicit(&queue->stop, memory_order_acquire)) break;
    status = rl_sim_schedule_step(queue, &queue->runs[k], out_fault_address);
    if (status != RL_OK) {
      *out_fault_id = first_id + k;
      break;
    }
    // The last packet retires only after the hazard report below, so a
    // waiter released by its signal sees the batch's hazards.
    rl_sim_schedule_retire(queue, first_id, queue->run_count - 1, &retired);
  }
  for (uint32_t k = 0; k < queue->run_count; ++k) {
    if (!queue->runs[k].finished) rl_sim_run_end(queue, &queue->runs[k]);
  }
  rl_sim_hazard_check_batch(queue);
  if (status == RL_OK) {
    rl_sim_schedule_retire(queue, first_id, queue->run_count, &retired);
  }
  return status;
}
