// Route aql of the replay engine (redline/replay_route.h): one retained
// kernel-dispatch packet per launch (aql/aql_lower.h), the barrier bit
// only where the hazard plan says so, published with the ring protocol and
// one doorbell per run.
//
// Prepare (after the shared state): the queue, lowering, the census of
// what was built, then the kernarg image written to the device. Run: the
// shared apply writes only changed values into the device's kernarg
// segment and the packet templates; the packets go out through the ring.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "aql/aql_patch.h"
#include "base/test_fault.h"
#include "redline/replay_internal.h"
#include "redline/replay_route_state.h"

// Test-only (base/test_fault.h): narrows the fence scopes of the
// lowered AQL packets after the census passed them, so a test can show the
// simulator's cache model catching it. narrow-acquire:N sets packet N's
// acquire scope to NONE; narrow-release:N lowers a SYSTEM release to AGENT.
static void rl_route_aql_test_fault(rl_aql_program_t* program) {
  if (!rl_test_fault_name()[0]) return;
  for (uint32_t i = 0; i < program->packet_count; ++i) {
    uint16_t header = program->packets[i].header;
    if (rl_test_fault("narrow-acquire", i)) {
      header &= (uint16_t)~(RL_AQL_HEADER_SCOPE_MASK
                            << RL_AQL_HEADER_ACQUIRE_SHIFT);
    }
    uint32_t scope =
        (header >> RL_AQL_HEADER_RELEASE_SHIFT) & RL_AQL_HEADER_SCOPE_MASK;
    if (rl_test_fault("narrow-release", i) &&
        scope == RL_AQL_FENCE_SCOPE_SYSTEM) {
      header &= (uint16_t)~(RL_AQL_HEADER_SCOPE_MASK
                            << RL_AQL_HEADER_RELEASE_SHIFT);
      header |= (uint16_t)(RL_AQL_FENCE_SCOPE_AGENT
                           << RL_AQL_HEADER_RELEASE_SHIFT);
    }
    program->packets[i].header = header;
  }
}

// The prepared program, or NULL.
static rl_aql_program_t* rl_route_aql_program(const rl_replay_t* replay) {
  return replay->route_state ? replay->route_state->program : NULL;
}

static rl_status_t rl_route_aql_prepare(rl_replay_t* replay) {
  RL_RETURN_IF_ERROR(rl_replay_queue_create(replay));
  rl_replay_route_state_t* state = replay->route_state;
  const rl_capture_t* capture = replay->capture;
  for (uint32_t p = 0; p < capture->param_count; ++p) {
    replay->values[p] = capture->params[p].capture_value;
  }
  const rl_aql_lower_inputs_t inputs = {
      .capture = capture,
      .plan = replay->plan,
      .buffer_addresses = replay->addresses,
      .kernel_objects = replay->kernel_objects,
      .kernarg_address = replay->kernarg.address,
      .completion_signal = replay->signal.address,
      .param_values = replay->values,
  };
  RL_RETURN_IF_ERROR(rl_aql_lower(&inputs, &state->program));
  rl_aql_program_t* program = state->program;
  // The census reads the program back; what it checks is what runs.
  RL_RETURN_IF_ERROR(rl_aql_program_check(program, &inputs));
  rl_route_aql_test_fault(program);
  memcpy(replay->kernarg.host, program->kernarg, program->kernarg_size);
  replay->binds = program->binds;
  rl_aql_program_dests(program, replay->kernarg.host, replay->dests);
  // A run writes the device's kernarg segment only (one store per changed
  // site); the packets are published from the program's own images.
  rl_bind_dest_t* kernarg = &replay->dests[RL_AQL_DEST_KERNARG];
  kernarg->base = kernarg->mirror;
  kernarg->mirror = NULL;
  return RL_OK;
}

static rl_status_t rl_route_aql_publish(rl_replay_t* replay,
                                        uint64_t* out_last) {
  const rl_aql_program_t* program = replay->route_state->program;
  return rl_replay_queue_publish(replay, program->packets,
                                 program->packet_count, out_last);
}

static void rl_route_aql_proof(const rl_replay_t* replay,
                               rl_route_proof_t* out_proof) {
  const rl_aql_program_t* program = rl_route_aql_program(replay);
  if (!program) return;
  out_proof->queue_id = rl_replay_queue_id(replay);
  out_proof->dispatches = replay->capture->launch_count;
  out_proof->packets = program->packet_count;
  out_proof->waits = program->barrier_count;
  out_proof->stream_bytes = (uint64_t)program->packet_count * RL_AQL_PACKET_SIZE;
  out_proof->patch_sites = program->patch_count;
}

static rl_status_t rl_route_aql_stream_packet(const rl_replay_t* replay,
                                              uint32_t index,
                                              uint8_t out_packet[64]) {
  const rl_aql_program_t* program = rl_route_aql_program(replay);
  if (!program || index >= program->packet_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "packet %u: no such packet in the prepared stream",
                     index);
  }
  memcpy(out_packet, &program->packets[index], RL_AQL_PACKET_SIZE);
  return RL_OK;
}

static rl_status_t rl_route_aql_patch_site(const rl_replay_t* replay,
                                           uint32_t index,
                                           rl_patch_site_t* out_site) {
  const rl_aql_program_t* program = rl_route_aql_program(replay);
  if (!program || index >= program->patch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "patch site %u: no such site in the prepared stream",
                     index);
  }
  const rl_aql_patch_t* patch = &program->patches[index];
  static const rl_patch_site_kind_t kinds[] = {
      [RL_AQL_PATCH_KERNARG] = RL_PATCH_SITE_SCALAR,
      [RL_AQL_PATCH_POINTER] = RL_PATCH_SITE_POINTER,
      [RL_AQL_PATCH_GRID] = RL_PATCH_SITE_GRID};
  out_site->kind = kinds[patch->kind];
  out_site->launch = patch->launch;
  out_site->packet = patch->packet;
  out_site->size = patch->size;
  out_site->current = rl_bind_table_current(program->binds, index);
  if (patch->kind == RL_AQL_PATCH_GRID) {
    out_site->dword = (patch->packet * RL_AQL_PACKET_SIZE + patch->offset) / 4;
  } else {
    out_site->device_address = replay->kernarg.address + patch->offset;
    out_site->dword = patch->offset / 4;
  }
  return rl_replay_route_site_what(
      replay->capture, patch->launch, patch->kind == RL_AQL_PATCH_POINTER,
      patch->slot, patch->binding, out_site);
}

static void rl_route_aql_destroy(rl_replay_t* replay) {
  rl_aql_program_destroy(rl_route_aql_program(replay));
  rl_replay_route_state_free(replay);
  replay->binds = NULL;
}

//===----------------------------------------------------------------------===//
// Test hooks (replay_internal.h)
//===----------------------------------------------------------------------===//

static rl_status_t rl_route_aql_test_packet(rl_replay_t* replay,
                                            uint32_t packet,
                                            rl_aql_dispatch_packet_t** out) {
  *out = NULL;
  rl_aql_program_t* program = replay ? rl_route_aql_program(replay) : NULL;
  if (!program || packet >= program->packet_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "test hook: packet %u is not prepared", packet);
  }
  *out = &program->packets[packet];
  return RL_OK;
}

rl_status_t rl_replay_test_clear_barrier(rl_replay_t* replay,
                                         uint32_t packet) {
  rl_aql_dispatch_packet_t* target = NULL;
  RL_RETURN_IF_ERROR(rl_route_aql_test_packet(replay, packet, &target));
  const uint16_t bit = (uint16_t)(1u << RL_AQL_HEADER_BARRIER_SHIFT);
  if (target->header & bit) {
    target->header = (uint16_t)(target->header & ~bit);
    --replay->route_state->program->barrier_count;
  }
  return RL_OK;
}

rl_status_t rl_replay_test_set_kernel_object(rl_replay_t* replay,
                                             uint32_t packet,
                                             uint64_t kernel_object) {
  rl_aql_dispatch_packet_t* target = NULL;
  RL_RETURN_IF_ERROR(rl_route_aql_test_packet(replay, packet, &target));
  target->kernel_object = kernel_object;
  return RL_OK;
}

const rl_replay_route_t rl_replay_route_aql = {
    .route = RL_ROUTE_AQL,
    .name = "aql",
    .device_runs = rl_replay_queue_device_runs,
    .kernarg_size = rl_aql_kernarg_segment_size,
    .prepare = rl_route_aql_prepare,
    .apply = rl_replay_route_apply,
    .publish = rl_route_aql_publish,
    .wait = rl_replay_queue_wait,
    .proof = rl_route_aql_proof,
    .stream_packet = rl_route_aql_stream_packet,
    .stream_ib = NULL,
    .patch_site = rl_route_aql_patch_site,
    .release = rl_replay_queue_release,
    .destroy = rl_route_aql_destroy,
};
