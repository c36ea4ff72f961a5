// sim/wg/sim_retire.c — the end of an AQL packet (its ring slot, its
// retirement) and the queue's progress, shared by the batches below the
// command processor and the command processor itself (sim/cp).
#include "aql/aql_packet.h"
#include "sim/signal/sim_signal.h"
#include "sim/wg/sim_wg.h"

uint8_t* rl_sim_cp_slot(rl_sim_queue_t* queue, uint64_t id) {
  return queue->ring + (id & (queue->packet_count - 1)) * RL_AQL_PACKET_SIZE;
}

void rl_sim_cp_retire(rl_sim_queue_t* queue, uint64_t id,
                      uint64_t completion_signal) {
  // The release fence happens before the packet is seen complete: a system
  // scope writes the L2 back for the host (sim/mem/sim_mem.h). The slot still
  // holds the packet's header.
  uint32_t header = atomic_load_explicit(
      (_Atomic uint32_t*)rl_sim_cp_slot(queue, id), memory_order_relaxed);
  uint32_t release = (header >> RL_AQL_HEADER_RELEASE_SHIFT) &
                     RL_AQL_HEADER_SCOPE_MASK;
  rl_sim_cache_apply(&queue->device->cache,
                     rl_sim_cache_release_actions(release));
  atomic_store_explicit((_Atomic uint32_t*)rl_sim_cp_slot(queue, id),
                        RL_AQL_PACKET_TYPE_INVALID, memory_order_release);
  atomic_store_explicit(queue->read_index, id + 1, memory_order_release);
  if (completion_signal != 0) {
    rl_sim_signal_decrement(queue->device, completion_signal);
  }
}

void rl_sim_queue_progress_note(rl_sim_queue_t* queue,
                                const rl_sim_run_t* run) {
  atomic_store_explicit(&queue->progress_wg_total, run->wg_total,
                        memory_order_relaxed);
  atomic_store_explicit(&queue->progress_wg_done, run->wg_done,
                        memory_order_relaxed);
  atomic_fetch_add_explicit(&queue->progress_events, 1, memory_order_release);
}
