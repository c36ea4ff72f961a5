// The retained arms (shadow/shadow.h): aql, pm4 and drm through the public
// replay API. Prepare is rl_replay_create, optional binds, contract and
// prepare on the arm's route; a step is one rl_replay_run after an
// admission check (so a refusal names its reason).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/replay.h"
#include "shadow/proof_json.h"
#include "shadow/shadow_arm.h"

typedef struct rl_shadow_retained_s {
  rl_shadow_arm_t arm;  // first: the arm is the object
  rl_route_t route;
  bool device_patch;  // pm4-relay: the CP relays kernarg values
  rl_replay_t* replay;
  uint64_t bound[RL_SHADOW_MAX_BINDS];  // device addresses the shadow owns
  uint32_t bound_count;
} rl_shadow_retained_t;

static rl_status_t rl_shadow_retained_step(rl_shadow_arm_t* arm,
                                           const int64_t* values) {
  rl_shadow_retained_t* retained = (rl_shadow_retained_t*)arm;
  uint32_t count = arm->capture->param_count;
  rl_admission_t admission;
  RL_RETURN_IF_ERROR(
      rl_replay_admit(retained->replay, values, count, &admission));
  if (!admission.admitted) {
    return RL_STATUS(RL_STATUS_CONTRACT, "not admitted: %s", admission.reason);
  }
  return rl_replay_run(retained->replay, values, count);
}

static rl_status_t rl_shadow_retained_read_region(rl_shadow_arm_t* arm,
                                                  uint32_t region,
                                                  void* out_data,
                                                  uint64_t size) {
  rl_shadow_retained_t* retained = (rl_shadow_retained_t*)arm;
  return rl_replay_read_region(retained->replay, region, out_data, size, NULL);
}

static rl_status_t rl_shadow_retained_buffer_address(
    const rl_shadow_arm_t* arm, uint32_t buffer, uint64_t* out_address) {
  const rl_shadow_retained_t* retained = (const rl_shadow_retained_t*)arm;
  return rl_replay_buffer_address(retained->replay, buffer, out_address);
}

static void rl_shadow_retained_proof(const rl_shadow_arm_t* arm,
                                     rl_shadow_proof_t* out_proof) {
  const rl_shadow_retained_t* retained = (const rl_shadow_retained_t*)arm;
  rl_route_proof_t proof;
  rl_replay_proof(retained->replay, &proof);
  rl_shadow_proof_from_route(&proof, out_proof);
  out_proof->route = rl_shadow_arm_kind_name(arm->kind);
  out_proof->steps = arm->steps;
  out_proof->launches_issued = proof.replay_count * proof.dispatches;
}

static bool rl_shadow_retained_last_host_ns(const rl_shadow_arm_t* arm,
                                            uint64_t* out_ns) {
  const rl_shadow_retained_t* retained = (const rl_shadow_retained_t*)arm;
  rl_replay_counters_t counters;
  rl_replay_counters(retained->replay, &counters);
  *out_ns = counters.last_host_ns;
  return true;
}

static void rl_shadow_retained_replay_counters(
    const rl_shadow_arm_t* arm, rl_replay_counters_t* out_counters) {
  rl_replay_counters(((const rl_shadow_retained_t*)arm)->replay, out_counters);
}

static rl_status_t rl_shadow_retained_stream_packet(const rl_shadow_arm_t* arm,
                                                    uint32_t index,
                                                    uint8_t out_packet[64]) {
  const rl_shadow_retained_t* retained = (const rl_shadow_retained_t*)arm;
  return rl_replay_stream_packet(retained->replay, index, out_packet);
}

static void rl_shadow_retained_destroy(rl_shadow_arm_t* arm) {
  rl_shadow_retained_t* retained = (rl_shadow_retained_t*)arm;
  rl_replay_destroy(retained->replay);
  for (uint32_t i = 0; i < retained->bound_count; ++i) {
    rl_status_free(arm->device->vtable->free(arm->device, retained->bound[i]));
  }
  free(retained);
}

static const rl_shadow_arm_vtable_t rl_shadow_retained_vtable = {
    .step = rl_shadow_retained_step,
    .read_region = rl_shadow_retained_read_region,
    .buffer_address = rl_shadow_retained_buffer_address,
    .proof = rl_shadow_retained_proof,
    .last_host_ns = rl_shadow_retained_last_host_ns,
    .replay_counters = rl_shadow_retained_replay_counters,
    .stream_packet = rl_shadow_retained_stream_packet,
    .destroy = rl_shadow_retained_destroy,
};

// Allocates |bind|'s buffer at its size, fills it from the capture's
// initial contents (truncated, or zero-extended) and binds it.
static rl_status_t rl_shadow_retained_bind(rl_shadow_retained_t* retained,
                                           const rl_shadow_bind_t* bind) {
  rl_device_t* device = retained->arm.device;
  const rl_capture_buffer_t* buffer =
      &retained->arm.capture->buffers[bind->buffer];
  rl_device_allocation_t allocation = {0};
  RL_RETURN_IF_ERROR(device->vtable->allocate(device, bind->size,
                                              buffer->alignment,
                                              RL_MEMORY_KIND_DEVICE,
                                              &allocation));
  retained->bound[retained->bound_count++] = allocation.address;
  uint8_t* bytes = calloc(bind->size ? bind->size : 1, 1);
  if (!bytes) return rl_status_out_of_memory();
  if (buffer->initial) {
    memcpy(bytes, buffer->initial,
           bind->size < buffer->size ? bind->size : buffer->size);
  }
  rl_status_t status =
      device->vtable->write(device, allocation.address, bytes, bind->size);
  free(bytes);
  RL_RETURN_IF_ERROR(status);
  return rl_replay_bind_buffer(retained->replay, bind->buffer,
                               allocation.address, bind->size);
}

static rl_status_t rl_shadow_retained_prepare(
    rl_shadow_retained_t* retained, const rl_shadow_arm_options_t* options) {
  // Every run's wait is bounded by the shadow's timeout; the contract
  // applies the same budgets to this arm alone.
  const rl_replay_options_t replay_options = {
      .wait_timeout_ns = retained->arm.limits.wait_timeout_ns,
      .pm4_device_patch = retained->device_patch,
      .limits = retained->arm.limits,
      .spin_wait = retained->arm.device_options.spin_wait,
      // A retained run is a whole recorded step, as long as the program's
      // run was: bounded by a stall where the device reports progress
      // (the report states it, shadow.h wait_bound).
      .stall_bound = true,
  };
  RL_RETURN_IF_ERROR(rl_replay_create(retained->arm.device,
                                      retained->arm.capture, &replay_options,
                                      &retained->replay));
  for (uint32_t i = 0; i < options->bind_count; ++i) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_shadow_retained_bind(retained, &options->binds[i]),
        "binding buffer %s",
        retained->arm.capture->buffers[options->binds[i].buffer].name));
  }
  RL_RETURN_IF_ERROR(rl_replay_contract(retained->replay));
  return rl_replay_prepare(retained->replay, retained->route);
}

rl_status_t rl_shadow_arm_retained_create(
    rl_shadow_arm_t* common, const rl_shadow_arm_options_t* options,
    rl_shadow_arm_t** out_arm) {
  rl_shadow_retained_t* retained = calloc(1, sizeof(*retained));
  if (!retained) return rl_status_out_of_memory();
  retained->arm = *common;
  retained->arm.vtable = &rl_shadow_retained_vtable;
  retained->route =
      rl_shadow_arm_kind_route(common->kind, &retained->device_patch);
  rl_status_t status = rl_shadow_retained_prepare(retained, options);
  if (status) {
    rl_shadow_retained_destroy(&retained->arm);
    return status;
  }
  *out_arm = &retained->arm;
  return RL_OK;
}
