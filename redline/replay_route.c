// The route registry and what the routes share (redline/replay_route.h):
// the one apply, and publication and the bounded wait over an AQL queue.
#include "base/clock.h"
#include "redline/device/device_ring.h"
#include "redline/replay_route.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/replay_internal.h"
#include "redline/replay_route_state.h"

// The registry: one line per route.
static const rl_replay_route_t* const rl_replay_routes[] = {
    &rl_replay_route_aql,
    &rl_replay_route_pm4,
    &rl_replay_route_drm,
};

#define RL_REPLAY_ROUTE_COUNT \
  (sizeof(rl_replay_routes) / sizeof(rl_replay_routes[0]))

const rl_replay_route_t* rl_replay_route_find(rl_route_t route) {
  for (size_t i = 0; i < RL_REPLAY_ROUTE_COUNT; ++i) {
    if (rl_replay_routes[i]->route == route) return rl_replay_routes[i];
  }
  return NULL;
}

const char* rl_route_name(rl_route_t route) {
  if (route == RL_ROUTE_NONE) return "none";
  const rl_replay_route_t* ops = rl_replay_route_find(route);
  return ops ? ops->name : "unknown";
}

bool rl_route_parse(const char* name, rl_route_t* out_route) {
  if (!out_route || !name) return false;
  if (strcmp(name, "none") == 0) {
    *out_route = RL_ROUTE_NONE;
    return true;
  }
  for (size_t i = 0; i < RL_REPLAY_ROUTE_COUNT; ++i) {
    if (strcmp(name, rl_replay_routes[i]->name) == 0) {
      *out_route = rl_replay_routes[i]->route;
      return true;
    }
  }
  return false;
}

void rl_replay_route_list_runnable(const rl_device_t* device, char* out,
                                   size_t out_size) {
  const char* names[RL_REPLAY_ROUTE_COUNT];
  size_t count = 0;
  for (size_t i = 0; i < RL_REPLAY_ROUTE_COUNT; ++i) {
    if (rl_replay_routes[i]->device_runs(device)) {
      names[count++] = rl_route_name(rl_replay_routes[i]->route);
    }
  }
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < count && used < out_size; ++i) {
    const char* glue = i == 0 ? "" : i + 1 == count ? " and " : ", ";
    int n = snprintf(out + used, out_size - used, "%s%s", glue, names[i]);
    if (n < 0) break;
    used += (size_t)n;
  }
  if (count == 0) snprintf(out, out_size, "no route");
  if (count == 1 && used < out_size) {
    snprintf(out + used, out_size - used, " only");
  }
}

rl_status_t rl_replay_route_state_get(rl_replay_t* replay,
                                      rl_replay_route_state_t** out_state) {
  if (!replay->route_state) {
    replay->route_state = calloc(1, sizeof(*replay->route_state));
    if (!replay->route_state) return rl_status_out_of_memory();
  }
  *out_state = replay->route_state;
  return RL_OK;
}

void rl_replay_route_state_free(rl_replay_t* replay) {
  free(replay->route_state);
  replay->route_state = NULL;
}

rl_status_t rl_replay_route_apply(rl_replay_t* replay, const int64_t* values,
                                  uint32_t value_count,
                                  uint32_t* out_changed) {
  return rl_bind_table_apply(replay->binds, values, value_count,
                             replay->dests, out_changed);
}

rl_status_t rl_replay_route_site_what(const rl_capture_t* capture,
                                      uint32_t launch_index, bool pointer,
                                      uint32_t slot, uint32_t binding,
                                      rl_patch_site_t* out_site) {
  const rl_capture_launch_t* launch = &capture->launches[launch_index];
  if (pointer) {
    const rl_pointer_slot_t* s = &launch->slots[slot];
    snprintf(out_site->what, sizeof(out_site->what), "buffer %s +0x%" PRIx64,
             capture->buffers[s->buffer].name, s->offset);
    return RL_OK;
  }
  rl_expr_format(capture, &launch->bindings[binding].expr, out_site->what,
                 sizeof(out_site->what));
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Routes over an AQL queue
//===----------------------------------------------------------------------===//

bool rl_replay_queue_device_runs(const rl_device_t* device) {
  return device->vtable->queue_create != NULL;
}

// The ring size: the option, or the smallest power of two >= 1024 that
// holds one run's packets.
static uint32_t rl_replay_queue_packets(const rl_replay_t* replay) {
  if (replay->options.queue_packets) return replay->options.queue_packets;
  uint32_t packets = RL_REPLAY_DEFAULT_QUEUE_PACKETS;
  while (packets < replay->capture->launch_count && packets < (1u << 30)) {
    packets <<= 1;
  }
  return packets;
}

rl_status_t rl_replay_queue_create(rl_replay_t* replay) {
  rl_device_t* device = replay->device;
  rl_replay_route_state_t* state = NULL;
  RL_RETURN_IF_ERROR(rl_replay_route_state_get(replay, &state));
  uint32_t packets = rl_replay_queue_packets(replay);
  if (packets < replay->capture->launch_count) {
    return RL_STATUS(RL_STATUS_PREPARE,
                     "%u launches do not fit a ring of %u packets",
                     replay->capture->launch_count, packets);
  }
  RL_RETURN_IF_ERROR(device->vtable->queue_create(device, packets,
                                                  &state->queue));
  state->has_queue = true;
  rl_device_aql_ring_init(&state->ring, device, &state->queue);
  return RL_OK;
}

rl_status_t rl_replay_queue_release(rl_replay_t* replay) {
  rl_replay_route_state_t* state = replay->route_state;
  if (!state || !state->has_queue) return RL_OK;
  RL_RETURN_IF_ERROR(
      replay->device->vtable->queue_destroy(replay->device, &state->queue));
  state->has_queue = false;
  return RL_OK;
}

uint32_t rl_replay_queue_id(const rl_replay_t* replay) {
  const rl_replay_route_state_t* state = replay->route_state;
  return state && state->has_queue ? state->queue.id : 0;
}

rl_device_queue_t* rl_replay_test_queue(rl_replay_t* replay) {
  rl_replay_route_state_t* state = replay ? replay->route_state : NULL;
  return state && state->has_queue ? &state->queue : NULL;
}

rl_status_t rl_replay_queue_fault(rl_replay_t* replay) {
  rl_device_fault_t fault = {0};
  rl_device_queue_t* queue = &replay->route_state->queue;
  replay->device->vtable->queue_fault(replay->device, queue, &fault);
  if (!fault.faulted) return RL_OK;
  RL_RETURN_IF_ERROR(rl_replay_guards_fault(replay, &fault));
  return RL_STATUS(RL_STATUS_POISONED,
                   "queue %u faulted at packet %" PRIu64 ": %s",
                   queue->id, fault.packet_id, fault.message);
}

// The aql/aql_ring.h protocol step by step, so the doorbell (on the
// simulator: waking the command-processor thread) is timed apart.
rl_status_t rl_replay_queue_publish(rl_replay_t* replay, const void* packets,
                                    uint32_t count, uint64_t* out_last) {
  rl_device_t* device = replay->device;
  rl_aql_ring_t* ring = &replay->route_state->ring;
  if (replay->signal_value < 1) {  // after 2^62 steps
    device->vtable->signal_store(device, replay->signal.address,
                                 RL_REPLAY_SIGNAL_START);
    replay->signal_value = RL_REPLAY_SIGNAL_START;
  }
  uint64_t first = 0;
  rl_status_t status = rl_aql_ring_reserve(
      ring, count, replay->options.wait_timeout_ns, &first);
  if (status) {
    // A reserve that timed out without a fault: earlier packets are stuck.
    rl_status_t fault = rl_replay_queue_fault(replay);
    if (fault) {
      rl_status_free(status);
      return fault;
    }
    return rl_replay_recode(status, RL_STATUS_QUARANTINED);
  }
  const uint8_t* bytes = packets;
  for (uint32_t i = 0; i < count; ++i) {
    rl_aql_ring_emit(ring, first + i, bytes + i * RL_AQL_PACKET_SIZE);
  }
  for (uint32_t i = 0; i < count; ++i) {
    rl_aql_ring_commit(ring, first + i,
                       rl_aql_header_word(bytes + i * RL_AQL_PACKET_SIZE));
  }
  *out_last = first + count - 1;
  uint64_t before = rl_now_ns();
  rl_aql_ring_doorbell(ring, *out_last);
  replay->counters.doorbell_ns += rl_now_ns() - before;
  replay->counters.packets_published += count;
  ++replay->counters.doorbells;
  return RL_OK;
}

// Waits in slices so a faulted queue (whose signal never completes) is
// reported at once; a wait that runs out without a fault leaves the
// queue's state unknown. Then the completion value and the fault. With
// options.stall_bound on a device that reports progress (queue_progress:
// the simulator) the bound is a stall, as the funnel's (device_funnel.h):
// it restarts whenever a work-group completes or a dispatch starts, so a
// long step that keeps progressing runs as long as it needs and a hung one
// fails after |timeout| without progress.
rl_status_t rl_replay_queue_wait(rl_replay_t* replay, uint64_t last) {
  rl_device_t* device = replay->device;
  const rl_device_queue_t* queue = &replay->route_state->queue;
  const uint64_t timeout = replay->options.wait_timeout_ns;
  uint64_t start = rl_now_ns();
  const int64_t expected = replay->signal_value - 1;
  int64_t value = replay->signal_value;
  const bool stall =
      replay->options.stall_bound && device->vtable->queue_progress;
  rl_device_progress_t progress = {0}, now = {0};
  if (stall) device->vtable->queue_progress(device, queue, &progress);
  for (;;) {
    if (stall) {
      device->vtable->queue_progress(device, queue, &now);
      if (now.events != progress.events) start = rl_now_ns();
      progress = now;
    }
    uint64_t elapsed = rl_now_ns() - start;
    uint64_t left = elapsed < timeout ? timeout - elapsed : 0;
    uint64_t slice = left < RL_REPLAY_WAIT_SLICE_NS ? left
                                                    : RL_REPLAY_WAIT_SLICE_NS;
    // spin_wait takes the device's polling wait where it has one.
    bool (*wait_lt)(rl_device_t*, uint64_t, int64_t, uint64_t, int64_t*) =
        replay->options.spin_wait && device->vtable->signal_spin_lt
            ? device->vtable->signal_spin_lt
            : device->vtable->signal_wait_lt;
    bool below = wait_lt(device, replay->signal.address, replay->signal_value,
                         slice, &value);
    if (below) {
      if (value != expected) {
        return RL_STATUS(RL_STATUS_POISONED,
                         "completion signal holds %" PRId64 ", expected %" PRId64
                         " (one decrement per step)",
                         value, expected);
      }
      replay->signal_value = expected;
      // The packet processor moves the read id past a packet before that
      // packet completes, so a signal that reached its value with the
      // step's last packet unread was decremented by something else: the
      // step's results are not there yet.
      uint64_t read_id =
          __atomic_load_n(queue->read_index, __ATOMIC_ACQUIRE);
      if (read_id <= last) {
        return RL_STATUS(RL_STATUS_POISONED,
                         "completion signal reached %" PRId64
                         " while packet %" PRIu64 " was still unread (read id %"
                         PRIu64 "): a decrement this step did not make",
                         value, last, read_id);
      }
      return rl_replay_queue_fault(replay);
    }
    RL_RETURN_IF_ERROR(rl_replay_queue_fault(replay));
    if (left == 0) break;
  }
  uint64_t read_id = __atomic_load_n(queue->read_index, __ATOMIC_ACQUIRE);
  if (stall) {
    return RL_STATUS(RL_STATUS_QUARANTINED,
                     "no progress for %" PRIu64 " ns (%" PRIu64 " of %" PRIu64
                     " work-groups of the current dispatch done): completion "
                     "signal %" PRId64 ", queue %u read id %" PRIu64
                     " of last packet %" PRIu64 "; packets may still execute",
                     timeout, progress.wg_done, progress.wg_total, value,
                     queue->id, read_id, last);
  }
  return RL_STATUS(RL_STATUS_QUARANTINED,
                   "bounded wait of %" PRIu64 " ns expired: completion "
                   "signal %" PRId64 ", queue %u read id %" PRIu64
                   " of last packet %" PRIu64 "; packets may still execute",
                   timeout, value, queue->id, read_id, last);
}
