// sim/cp/sim_cp.c — the command processor (CP) of one simulated queue.
//
// The CP thread sleeps until the doorbell covers the next dispatch id, then
// waits for that slot's header to be published (an acquire load of the
// 32-bit header word; a header still INVALID means "not yet", exactly as the
// hardware packet processor treats it), copies the packet once and decodes
// it with aql/aql_decode.h. Then:
//   - kernel dispatch: sim_schedule.c gathers the unbarriered batch that
//     starts here and runs it;
//   - barrier-AND / barrier-OR: waits for the dependent signals (AND: every
//     non-null signal is 0; OR: some non-null signal is 0; with every
//     signal null both complete at once). Like hardware this can wait
//     forever; only queue destruction ends it;
//   - vendor PM4_IB: the IB runs on the queue's PM4 interpreter
//     (sim/cp/sim_cp.h), then the packet retires;
//   - anything that does not decode: a queue fault.
// Retiring a packet stores INVALID into its header (release), advances the
// read id (release) and then decrements the completion signal. The read id
// goes first so that a waiter released by the signal already sees the queue
// idle; this is safe because the CP copied the packet before executing it,
// and it matches hardware, which frees a slot once it has fetched it.
//
// After a fault or an injected hang the CP parks: it consumes nothing more,
// so signals of later packets never complete, until queue_destroy sets the
// stop flag. Every wait here re-checks the stop flag at least every
// RL_SIM_WAIT_SLICE_NS.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sim/clock/sim_clock.h"
#include "sim/cp/sim_cp.h"
#include "sim/signal/sim_signal.h"

// Header polls before the CP sleeps waiting for a late header.
#define RL_SIM_CP_HEADER_SPIN 1000
// How long the CP polls the doorbell before it sleeps (yielding the core
// between polls: sim_spin.c): longer than the host takes from a
// completion to its next doorbell (admit, apply and publish), so a decode
// loop's doorbell finds the CP polling and needs no system call; short
// enough to leave the core to other work when the queue goes quiet.
#define RL_SIM_CP_DOORBELL_SPIN_NS 200000ull
// Then the CP naps: timed sleeps of RL_SIM_CP_NAP_NS that do not count it
// in |sleepers|, so a doorbell rung meanwhile is a plain store the producer
// pays no wake-up for; the CP finds it when the nap ends. Waking a sleeping
// thread is a system call and, on a virtual machine, an interrupt to an
// idle virtual CPU: 40-50 µs inside the producer's doorbell on this
// project's machines, measured whenever the host came back later than the
// poll window (1 % of 2,604-launch steps; docs/BENCHMARKS.md). A hardware
// doorbell is a register write that never waits for the packet processor.
// After RL_SIM_CP_NAP_TOTAL_NS of naps the CP sleeps until woken.
#define RL_SIM_CP_NAP_NS 50000ull
#define RL_SIM_CP_NAP_TOTAL_NS 20000000ull

static uint32_t rl_sim_cp_load_header(rl_sim_queue_t* queue, uint64_t id) {
  return atomic_load_explicit((_Atomic uint32_t*)rl_sim_cp_slot(queue, id),
                              memory_order_acquire);
}

static bool rl_sim_cp_stopping(rl_sim_queue_t* queue) {
  return atomic_load_explicit(&queue->stop, memory_order_acquire);
}

static bool rl_sim_cp_rung(rl_sim_queue_t* queue, uint64_t id) {
  return atomic_load_explicit(&queue->doorbell_end, memory_order_acquire) > id;
}

// Waits until the doorbell covers |id|; false when the queue is stopping.
// Polls first (a decode step rings again within microseconds), then naps,
// so the producer's doorbell needs no system call; then counts itself in
// |sleepers| and sleeps on the condition variable (the handshake is
// described at rl_sim_queue_doorbell in sim_queue.c).
static bool rl_sim_cp_wait_doorbell(rl_sim_queue_t* queue, uint64_t id) {
  rl_sim_spin_t spin;
  rl_sim_spin_start(&spin, RL_SIM_CP_DOORBELL_SPIN_NS, &queue->producer_cpu);
  for (;;) {
    if (rl_sim_cp_rung(queue, id)) return !rl_sim_cp_stopping(queue);
    if (rl_sim_cp_stopping(queue)) return false;
    if (!rl_sim_spin_again(&spin)) break;
  }
  for (uint64_t napped = 0; napped < RL_SIM_CP_NAP_TOTAL_NS;
       napped += RL_SIM_CP_NAP_NS) {
    rl_sim_nap_ns(RL_SIM_CP_NAP_NS);
    if (rl_sim_cp_rung(queue, id)) return !rl_sim_cp_stopping(queue);
    if (rl_sim_cp_stopping(queue)) return false;
  }
  pthread_mutex_lock(&queue->lock);
  atomic_fetch_add_explicit(&queue->sleepers, 1, memory_order_seq_cst);
  while (!rl_sim_cp_stopping(queue) &&
         atomic_load_explicit(&queue->doorbell_end, memory_order_seq_cst) <=
             id) {
    pthread_cond_wait(&queue->cond, &queue->lock);
  }
  atomic_fetch_sub_explicit(&queue->sleepers, 1, memory_order_relaxed);
  pthread_mutex_unlock(&queue->lock);
  return !rl_sim_cp_stopping(queue);
}

// Waits for the header of |id| to leave INVALID; false when stopping.
static bool rl_sim_cp_wait_header(rl_sim_queue_t* queue, uint64_t id,
                                  uint32_t* out_word) {
  for (;;) {
    for (int spin = 0; spin < RL_SIM_CP_HEADER_SPIN; ++spin) {
      *out_word = rl_sim_cp_load_header(queue, id);
      if ((*out_word & RL_AQL_HEADER_TYPE_MASK) != RL_AQL_PACKET_TYPE_INVALID) {
        return true;
      }
    }
    // Asleep for at most a slice; counted in |sleepers| so the next
    // doorbell wakes it.
    pthread_mutex_lock(&queue->lock);
    atomic_fetch_add_explicit(&queue->sleepers, 1, memory_order_seq_cst);
    if (!rl_sim_cp_stopping(queue)) {
      rl_sim_cond_sleep(&queue->cond, &queue->lock,
                        rl_now_ns() + RL_SIM_WAIT_SLICE_NS);
    }
    atomic_fetch_sub_explicit(&queue->sleepers, 1, memory_order_relaxed);
    pthread_mutex_unlock(&queue->lock);
    if (rl_sim_cp_stopping(queue)) return false;
  }
}

// Parks the CP in |state| (faulted or hung) until the queue is destroyed.
static void rl_sim_cp_park(rl_sim_queue_t* queue, rl_sim_queue_state_t state) {
  pthread_mutex_lock(&queue->lock);
  if (state == RL_SIM_QUEUE_HUNG) {
    atomic_store_explicit(&queue->state, state, memory_order_release);
  }
  while (!rl_sim_cp_stopping(queue)) {
    pthread_cond_wait(&queue->cond, &queue->lock);
  }
  pthread_mutex_unlock(&queue->lock);
}

// True when the barrier packet's dependencies are satisfied.
static bool rl_sim_cp_barrier_ready(rl_sim_queue_t* queue,
                                    const rl_aql_decoded_t* packet) {
  bool is_and = packet->type == RL_AQL_PACKET_TYPE_BARRIER_AND;
  bool any_signal = false;
  for (int i = 0; i < 5; ++i) {
    if (packet->dep_signal[i] == 0) continue;
    any_signal = true;
    _Atomic int64_t* value =
        rl_sim_signal_value(queue->device, packet->dep_signal[i]);
    // A signal freed while the barrier waits never reads as zero.
    bool zero =
        value != NULL && atomic_load_explicit(value, memory_order_acquire) == 0;
    if (is_and && !zero) return false;
    if (!is_and && zero) return true;
  }
  return is_and || !any_signal;
}

// Executes a barrier-AND/OR packet. Returns false on a fault (reported).
static bool rl_sim_cp_barrier(rl_sim_queue_t* queue, uint64_t id,
                              const rl_aql_decoded_t* packet) {
  for (int i = 0; i < 5; ++i) {
    uint64_t signal = packet->dep_signal[i];
    if (signal != 0 && rl_sim_signal_value(queue->device, signal) == NULL) {
      char what[160];
      snprintf(what, sizeof(what),
               "%s: VM fault: dep_signal[%d] 0x%" PRIx64
               " is not a signal in live memory",
               rl_aql_packet_type_name(packet->type), i, signal);
      rl_sim_queue_set_fault(queue, id, signal, what, RL_OK);
      return false;
    }
  }
  rl_sim_device_t* device = queue->device;
  rl_sim_signal_lock(device);
  bool ready = false;
  while (!(ready = rl_sim_cp_barrier_ready(queue, packet)) &&
         !rl_sim_cp_stopping(queue)) {
    rl_sim_signal_sleep(device, rl_now_ns() + RL_SIM_WAIT_SLICE_NS);
  }
  rl_sim_signal_unlock(device);
  if (ready) rl_sim_cp_retire(queue, id, packet->completion_signal);
  return true;
}

// Runs the batch of dispatches that starts at |id|. False on a fault.
static bool rl_sim_cp_dispatch(rl_sim_queue_t* queue, uint64_t id,
                               const rl_aql_decoded_t* packet) {
  uint64_t address = 0;
  rl_status_t status = rl_sim_schedule_gather(queue, id, packet, &address);
  uint64_t fault_id = id;
  if (status == RL_OK) {
    status = rl_sim_schedule_batch(queue, id, &fault_id, &address);
  }
  if (status == RL_OK) return true;
  rl_sim_queue_set_fault(queue, fault_id, address, "kernel dispatch", status);
  return false;
}

// Completion-signal check shared by every packet type: a signal the CP
// could not decrement would be a VM fault at the end of the packet.
static bool rl_sim_cp_check_signal(rl_sim_queue_t* queue, uint64_t id,
                                   const rl_aql_decoded_t* packet) {
  uint64_t signal = packet->completion_signal;
  if (signal == 0 || rl_sim_signal_value(queue->device, signal) != NULL) {
    return true;
  }
  char what[160];
  snprintf(what, sizeof(what),
           "%s: VM fault: completion_signal 0x%" PRIx64
           " is not a signal in live memory",
           rl_aql_packet_type_name(packet->type), signal);
  rl_sim_queue_set_fault(queue, id, signal, what, RL_OK);
  return false;
}

// Consumes the packet |id| whose header word is |word|. False on a fault.
static bool rl_sim_cp_step(rl_sim_queue_t* queue, uint64_t id, uint32_t word) {
  uint8_t bytes[RL_AQL_PACKET_SIZE];
  memcpy(bytes, &word, sizeof(word));
  memcpy(bytes + 4, rl_sim_cp_slot(queue, id) + 4, RL_AQL_PACKET_SIZE - 4);
  rl_aql_decoded_t packet;
  if (rl_aql_packet_decode(bytes, &packet) != RL_AQL_OK) {
    char what[256];
    snprintf(what, sizeof(what), "invalid packet (header 0x%04x, %s): %s",
             packet.header, rl_aql_error_name(packet.error), packet.reason);
    rl_sim_queue_set_fault(queue, id, 0, what, RL_OK);
    return false;
  }
  if (!rl_sim_cp_check_signal(queue, id, &packet)) return false;
  // The barrier bit orders this packet after every earlier one: nothing
  // before it can race with what follows (sim/wg/sim_wg.h). Without an
  // acquire fence, what they wrote is ordered but not yet visible to a
  // dispatch that does not acquire either: kept as unacquired.
  if (packet.barrier) {
    if (packet.type == RL_AQL_PACKET_TYPE_KERNEL_DISPATCH &&
        packet.acquire_scope == RL_AQL_FENCE_SCOPE_NONE) {
      rl_sim_hazard_open_move(&queue->unacquired, &queue->open);
    } else {
      rl_sim_hazard_open_clear(&queue->unacquired);
    }
    rl_sim_hazard_open_clear(&queue->open);
  } else if (packet.acquire_scope != RL_AQL_FENCE_SCOPE_NONE) {
    rl_sim_hazard_open_clear(&queue->unacquired);
  }
  // An acquire fence at packet start invalidates the caches, which ends the
  // stale-cache window of earlier PM4 dispatches (sim/cp/sim_cp.h).
  if (queue->pm4 != NULL && packet.acquire_scope != RL_AQL_FENCE_SCOPE_NONE) {
    rl_sim_pm4_batch_acquire(queue->pm4);
  }
  // The cache side of that acquire (sim/mem/sim_mem.h); a kernel dispatch applies
  // its own when its first work-group starts, since a batch gathers several.
  if (packet.type != RL_AQL_PACKET_TYPE_KERNEL_DISPATCH) {
    rl_sim_cache_apply(&queue->device->cache,
                       rl_sim_cache_acquire_actions(packet.acquire_scope));
  }
  switch (packet.type) {
    case RL_AQL_PACKET_TYPE_KERNEL_DISPATCH:
      return rl_sim_cp_dispatch(queue, id, &packet);
    case RL_AQL_PACKET_TYPE_BARRIER_AND:
    case RL_AQL_PACKET_TYPE_BARRIER_OR:
      return rl_sim_cp_barrier(queue, id, &packet);
    default:  // the decoder only accepts vendor format PM4_IB
      return rl_sim_pm4_execute_packet(queue, id, &packet);
  }
}

void* rl_sim_cp_main(void* arg) {
  rl_sim_queue_t* queue = arg;
  uint64_t next = 0;
  while (rl_sim_cp_wait_doorbell(queue, next)) {
    if (atomic_load_explicit(&queue->hang_id, memory_order_acquire) == next) {
      rl_sim_cp_park(queue, RL_SIM_QUEUE_HUNG);
      break;
    }
    uint32_t word = 0;
    if (!rl_sim_cp_wait_header(queue, next, &word)) break;
    if (!rl_sim_cp_step(queue, next, word)) {
      rl_sim_cp_park(queue, RL_SIM_QUEUE_FAULTED);
      break;
    }
    // The CP is the only writer of the read id.
    next = atomic_load_explicit(queue->read_index, memory_order_relaxed);
  }
  return NULL;
}
