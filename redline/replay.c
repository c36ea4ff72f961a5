// Replay objects (redline/replay.h): creation and destruction, caller
// bindings, state checks, route proof, counters and read access to the
// replay's buffers. Contract, prepare, run and poison live in their own
// files (redline/replay_internal.h lists them).
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/replay_internal.h"

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

// rl_route_name and rl_route_parse read the route registry
// (replay_route.c), the one table of route names.

const char* rl_replay_state_name(rl_replay_state_t state) {
  switch (state) {
    case RL_REPLAY_CAPTURED: return "captured";
    case RL_REPLAY_CONTRACTED: return "contracted";
    case RL_REPLAY_PREPARED: return "prepared";
    case RL_REPLAY_POISONED: return "poisoned";
    case RL_REPLAY_QUARANTINED: return "quarantined";
    case RL_REPLAY_REPLAYING: return "replaying";
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// Creation and bindings
//===----------------------------------------------------------------------===//

static rl_status_t rl_replay_check_options(const rl_replay_options_t* options) {
  uint32_t packets = options->queue_packets;
  if (packets != 0 && (packets & (packets - 1)) != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "queue_packets %u is not a power of two", packets);
  }
  return RL_OK;
}

rl_status_t rl_replay_create(rl_device_t* device, const rl_capture_t* capture,
                             const rl_replay_options_t* options,
                             rl_replay_t** out_replay) {
  if (!out_replay) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "replay: no output");
  }
  *out_replay = NULL;
  if (!device || !capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "replay: a device and a capture are required");
  }
  rl_replay_options_t defaults = {0};
  if (!options) options = &defaults;
  RL_RETURN_IF_ERROR(rl_replay_check_options(options));
  rl_replay_t* replay = calloc(1, sizeof(*replay));
  if (!replay) return rl_status_out_of_memory();
  replay->buffers = calloc(capture->buffer_count + 1u, sizeof(*replay->buffers));
  replay->values = calloc(capture->param_count + 1u, sizeof(int64_t));
  replay->addresses = calloc(capture->buffer_count + 1u, sizeof(uint64_t));
  if (!replay->buffers || !replay->values || !replay->addresses) {
    rl_replay_destroy(replay);
    return rl_status_out_of_memory();
  }
  replay->device = device;
  rl_device_hold(device);  // released by rl_replay_destroy
  replay->capture = capture;
  replay->options = *options;
  rl_limits_t limits = options->limits;
  if (!device->host_executes) {
    // The work budgets protect the simulator, which executes every
    // work-item on the host; a GPU runs a 2^26-item GEMM in microseconds,
    // so there they apply only when the caller sets them.
    if (!limits.max_work_items) limits.max_work_items = UINT64_MAX;
    if (!limits.max_dispatches) limits.max_dispatches = UINT32_MAX;
  }
  replay->options.limits = rl_limits_for_capture(&limits, capture);
  if (!replay->options.wait_timeout_ns) {
    replay->options.wait_timeout_ns = replay->options.limits.wait_timeout_ns;
  }
  replay->state = RL_REPLAY_CAPTURED;
  *out_replay = replay;
  return RL_OK;
}

static rl_status_t rl_replay_bind(rl_replay_t* replay, uint32_t buffer,
                                  uint64_t device_address, uint64_t size,
                                  bool unchecked) {
  if (!replay) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "bind: no replay");
  }
  if (replay->state != RL_REPLAY_CONTRACTED) {
    RL_RETURN_IF_ERROR(
        rl_replay_require(replay, RL_REPLAY_CAPTURED, "rl_replay_bind_buffer"));
  }
  if (buffer >= replay->capture->buffer_count || device_address == 0 ||
      size == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "bind: buffer %u of %u, address 0x%" PRIx64
                     ", size %" PRIu64 ": need an existing buffer and a "
                     "non-empty allocation",
                     buffer, replay->capture->buffer_count, device_address,
                     size);
  }
  const rl_capture_buffer_t* info = &replay->capture->buffers[buffer];
  if (rl_capture_buffer_is_variable(info)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "bind: buffer %u (%s) aliases variable %s of code object "
                     "%u; the replay binds it to its own load of that code "
                     "object",
                     buffer, info->name, info->symbol, info->code_object);
  }
  rl_replay_buffer_t* slot = &replay->buffers[buffer];
  *slot = (rl_replay_buffer_t){.address = device_address,
                               .size = size,
                               .bound = true,
                               .unchecked = unchecked};
  // A new binding invalidates an earlier contract.
  replay->state = RL_REPLAY_CAPTURED;
  return RL_OK;
}

rl_status_t rl_replay_bind_buffer(rl_replay_t* replay, uint32_t buffer,
                                  uint64_t device_address, uint64_t size) {
  return rl_replay_bind(replay, buffer, device_address, size, false);
}

rl_status_t rl_replay_test_bind_unchecked(rl_replay_t* replay, uint32_t buffer,
                                          uint64_t device_address,
                                          uint64_t size) {
  return rl_replay_bind(replay, buffer, device_address, size, true);
}

rl_status_t rl_replay_require(const rl_replay_t* replay,
                              rl_replay_state_t needed, const char* call) {
  if (replay->state == RL_REPLAY_POISONED) {
    return RL_STATUS(RL_STATUS_POISONED, "%s: the replay is poisoned: %s",
                     call, replay->reason);
  }
  if (replay->state == RL_REPLAY_QUARANTINED) {
    return RL_STATUS(RL_STATUS_QUARANTINED,
                     "%s: the replay is quarantined: %s", call,
                     replay->reason);
  }
  bool ready = replay->state == needed ||
               (needed == RL_REPLAY_PREPARED &&
                replay->state == RL_REPLAY_REPLAYING);
  if (!ready) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "%s needs a %s replay, this one is %s", call,
                     rl_replay_state_name(needed),
                     rl_replay_state_name(replay->state));
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Destruction
//===----------------------------------------------------------------------===//

// The route's device state first (its queue or IB: once released nothing
// reads the rest), then the signal and the kernarg segment.
static rl_status_t rl_replay_release_program(rl_replay_t* replay) {
  rl_device_t* device = replay->device;
  if (replay->route_ops) {
    rl_status_t status = replay->route_ops->release(replay);
    if (status) return status;  // still executing: leak the rest
  }
  rl_status_t status = RL_OK;
  if (replay->has_signal) {
    status = rl_status_join(
        status, device->vtable->signal_destroy(device, replay->signal.address));
    replay->has_signal = false;
  }
  if (replay->has_kernarg) {
    status = rl_status_join(
        status, device->vtable->free(device, replay->kernarg.address));
    replay->has_kernarg = false;
  }
  return status;
}

static rl_status_t rl_replay_release_objects(rl_replay_t* replay) {
  rl_device_t* device = replay->device;
  rl_status_t status = RL_OK;
  while (replay->loaded_code_objects > 0) {
    const rl_device_code_object_t* code =
        &replay->code_objects[--replay->loaded_code_objects];
    status = rl_status_join(status,
                            device->vtable->unload_code_object(device, code));
  }
  for (uint32_t b = 0; b < replay->capture->buffer_count; ++b) {
    rl_replay_buffer_t* buffer = &replay->buffers[b];
    if (!buffer->allocated) continue;
    if (buffer->guard_reserved) {
      status = rl_status_join(
          status, device->vtable->free(device, buffer->address + buffer->size));
    }
    status = rl_status_join(status,
                            device->vtable->free(device, buffer->address));
    *buffer = (rl_replay_buffer_t){0};
  }
  return status;
}

// A quarantined replay's queue may still be executing when it is released.
// Destroying the queue stops its packet processor whatever it is doing
// (device.h): once queue_destroy returns OK nothing references the
// replay's memory and everything is freed. Only when the device cannot
// prove the processor stopped (queue_destroy fails with
// RL_STATUS_QUARANTINED, or a drm IB whose fence never signalled) is the
// rest leaked on purpose, kept valid until the device itself is closed.
rl_status_t rl_replay_release_device(rl_replay_t* replay) {
  rl_status_t status = rl_replay_release_program(replay);
  if (rl_status_is(status, RL_STATUS_QUARANTINED)) return status;
  return rl_status_join(status, rl_replay_release_objects(replay));
}

void rl_replay_destroy(rl_replay_t* replay) {
  if (!replay) return;
  if (replay->buffers) rl_status_free(rl_replay_release_device(replay));
  if (replay->route_ops) replay->route_ops->destroy(replay);
  rl_hazard_plan_destroy(replay->plan);
  free(replay->code_objects);
  free(replay->kernel_objects);
  free(replay->buffers);
  free(replay->values);
  free(replay->addresses);
  if (replay->device) rl_device_release(replay->device);
  free(replay);
}

//===----------------------------------------------------------------------===//
// Proof, counters, accessors
//===----------------------------------------------------------------------===//

rl_replay_state_t rl_replay_state(const rl_replay_t* replay) {
  return replay ? replay->state : RL_REPLAY_POISONED;
}

void rl_replay_proof(const rl_replay_t* replay, rl_route_proof_t* out_proof) {
  if (!out_proof) return;
  memset(out_proof, 0, sizeof(*out_proof));
  if (!replay) return;
  out_proof->device = replay->device->name;
  out_proof->target = replay->device->target;
  out_proof->route = replay->route;
  out_proof->state = replay->state;
  bool ready = (replay->state == RL_REPLAY_PREPARED ||
                replay->state == RL_REPLAY_REPLAYING) &&
               replay->route_enabled;
  if (!ready) {
    snprintf(out_proof->fallback_reason, sizeof(out_proof->fallback_reason),
             "%s", replay->reason[0] ? replay->reason : "not prepared");
  }
  out_proof->replay_count = replay->counters.runs;
  if (replay->route_ops) replay->route_ops->proof(replay, out_proof);
}

void rl_replay_counters(const rl_replay_t* replay,
                        rl_replay_counters_t* out_counters) {
  if (!out_counters) return;
  memset(out_counters, 0, sizeof(*out_counters));
  if (replay) *out_counters = replay->counters;
}

rl_status_t rl_replay_buffer_address(const rl_replay_t* replay,
                                     uint32_t buffer, uint64_t* out_address) {
  if (!out_address) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "buffer address: no output");
  }
  *out_address = 0;
  if (!replay || buffer >= replay->capture->buffer_count ||
      replay->buffers[buffer].address == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "buffer %u has no address (unknown, or not bound and "
                     "not prepared)",
                     buffer);
  }
  *out_address = replay->buffers[buffer].address;
  return RL_OK;
}

static rl_status_t rl_replay_region_check(const rl_replay_t* replay,
                                          uint32_t region, uint64_t size,
                                          bool copying) {
  if (!replay || region >= replay->capture->region_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "region %u does not exist",
                     region);
  }
  const rl_capture_region_t* info = &replay->capture->regions[region];
  if (copying && size != info->size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "region '%s' is %" PRIu64 " bytes, %" PRIu64 " requested",
                     info->name, info->size, size);
  }
  if (replay->state == RL_REPLAY_QUARANTINED) {
    return RL_STATUS(RL_STATUS_QUARANTINED,
                     "region '%s': the queue may still write it: %s",
                     info->name, replay->reason);
  }
  if (replay->buffers[info->buffer].address == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "region '%s': buffer not prepared", info->name);
  }
  return RL_OK;
}

rl_status_t rl_replay_read_region(rl_replay_t* replay, uint32_t region,
                                  void* out_data, uint64_t size,
                                  rl_digest128_t* out_digest) {
  if (out_digest) *out_digest = (rl_digest128_t){0, 0};
  RL_RETURN_IF_ERROR(
      rl_replay_region_check(replay, region, size, out_data != NULL));
  const rl_capture_region_t* info = &replay->capture->regions[region];
  void* data = out_data ? out_data : malloc(info->size ? info->size : 1);
  if (!data) return rl_status_out_of_memory();
  uint64_t address = replay->buffers[info->buffer].address + info->offset;
  rl_status_t status =
      replay->device->vtable->read(replay->device, address, data, info->size);
  if (!status && out_digest) {
    *out_digest = rl_digest128_of(data, (size_t)info->size);
  }
  if (data != out_data) free(data);
  return rl_status_annotate(status, "region '%s'", info->name);
}

//===----------------------------------------------------------------------===//
// The prepared stream
//===----------------------------------------------------------------------===//

rl_status_t rl_replay_stream_packet(const rl_replay_t* replay, uint32_t index,
                                    uint8_t out_packet[64]) {
  if (!out_packet) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "stream packet: no output");
  }
  memset(out_packet, 0, 64);  // one AQL packet (replay.h)
  if (!replay || !replay->route_ops) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "packet %u: no such packet in the prepared stream",
                     index);
  }
  return replay->route_ops->stream_packet(replay, index, out_packet);
}

rl_status_t rl_replay_patch_site(const rl_replay_t* replay, uint32_t index,
                                 rl_patch_site_t* out_site) {
  if (!out_site) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "patch site: no output");
  }
  memset(out_site, 0, sizeof(*out_site));
  if (!replay || !replay->route_ops) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "patch site %u: no such site in the prepared stream",
                     index);
  }
  return replay->route_ops->patch_site(replay, index, out_site);
}

rl_status_t rl_replay_stream_ib(const rl_replay_t* replay,
                                uint32_t* out_dwords, uint32_t capacity,
                                uint32_t* out_count) {
  if (out_count) *out_count = 0;
  if (!replay || !out_count || !replay->route_ops ||
      !replay->route_ops->stream_ib) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "stream IB: no replay prepared on a route with an IB "
                     "(pm4, drm)");
  }
  return replay->route_ops->stream_ib(replay, out_dwords, capacity, out_count);
}
