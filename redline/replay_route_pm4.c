// Route pm4 of the replay engine (redline/replay_route.h): the whole
// capture as one PM4 command stream (pm4/pm4_lower.h: one IB, or IBs
// chained past 1,048,575 dwords in the same allocation) behind one AMD
// vendor AQL packet. Route drm (replay_route_drm.c) shares the IB.
//
// Prepare (after the shared buffers, code objects, kernarg segment and
// signal): the queue (route pm4 only), the kernels' entry addresses, the
// scratch ring (device memory, only when a kernel needs scratch: its size
// is rl_pm4_scratch_layout's), the exact IB size
// (rl_pm4_lower_measure, every IB of the chain), the IB allocation
// (host-visible kernarg memory, 256-byte aligned), lowering, the census of
// what was built, then the IB and the kernarg image written to the device. Validate → plan → reserve →
// emit: every refusal (a kernel the route cannot launch) is raised by the
// measurement, before the IB is reserved.
//
// Run: the shared apply (capture/bind/bind_table.h) writes only the changed
// patch sites into the device's IB and kernarg segment — with
// options.pm4_device_patch, the relay slots the IB's COPY_DATA packets
// copy into the kernarg sites instead (pm4/pm4_lower.h Relay) — (all or
// nothing; the program's host images keep the prepared stream),
// then the vendor packet is published with the AQL ring protocol (bytes 4..63, one release store
// of the header word, one doorbell). The writes are safe because the
// previous run's wait observed its completion (acquire) first.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm4/pm4_decode.h"
#include "pm4/pm4_packet.h"
#include "base/test_fault.h"
#include "redline/replay_internal.h"
#include "redline/replay_route_state.h"

// The IB's alignment: INDIRECT_BUFFER needs dwords; a cache line keeps the
// CP's fetches aligned.
#define RL_REPLAY_PM4_IB_ALIGN 256u

static rl_pm4_lower_inputs_t rl_replay_pm4_inputs(const rl_replay_t* replay) {
  const rl_replay_route_state_t* state = replay->route_state;
  return (rl_pm4_lower_inputs_t){
      .capture = replay->capture,
      .plan = replay->plan,
      .buffer_addresses = replay->addresses,
      .kernel_objects = replay->kernel_objects,
      .kernel_entries = state->kernel_entries,
      .kernarg_address = replay->kernarg.address,
      .ib_address = state->ib.address,
      .completion_signal = replay->signal.address,
      .param_values = replay->values,
      .scratch_address = state->has_scratch ? state->scratch.address : 0,
      .relay_address = state->has_relay ? state->relay.address : 0,
  };
}

// The scratch ring (pm4/pm4_lower.h rl_pm4_scratch_t): device memory the
// CP hands out in per-wave slots; nothing but the kernels reads it, so no
// host view is needed. None without a scratch kernel.
static rl_status_t rl_replay_pm4_scratch(rl_replay_t* replay) {
  rl_replay_route_state_t* state = replay->route_state;
  rl_pm4_scratch_t scratch;
  RL_RETURN_IF_ERROR(rl_pm4_scratch_layout(replay->capture, &scratch));
  if (scratch.bytes == 0) return RL_OK;
  rl_device_t* device = replay->device;
  RL_RETURN_IF_ERROR(device->vtable->allocate(
      device, scratch.bytes, RL_PM4_SCRATCH_WAVESIZE_UNIT,
      RL_MEMORY_KIND_DEVICE, &state->scratch));
  state->has_scratch = true;
  return RL_OK;
}

// The relay slots (options.pm4_device_patch; pm4/pm4_lower.h Relay):
// host-visible kernarg memory, one 8-byte slot per distinct expression.
// None without the option or without a relayable binding.
static rl_status_t rl_replay_pm4_relay(rl_replay_t* replay) {
  rl_replay_route_state_t* state = replay->route_state;
  if (!replay->options.pm4_device_patch) return RL_OK;
  uint32_t slots = 0;
  RL_RETURN_IF_ERROR(rl_pm4_relay_slot_count(replay->capture, &slots));
  if (slots == 0) return RL_OK;
  rl_device_t* device = replay->device;
  RL_RETURN_IF_ERROR(device->vtable->allocate(device, 8ull * slots, 64,
                                              RL_MEMORY_KIND_KERNARG,
                                              &state->relay));
  state->has_relay = true;
  if (!state->relay.host) {
    return RL_STATUS(RL_STATUS_PREPARE,
                     "the relay slots have no host view on device %s",
                     device->name);
  }
  return RL_OK;
}

static rl_status_t rl_replay_pm4_entries(rl_replay_t* replay) {
  rl_replay_route_state_t* state = replay->route_state;
  const rl_capture_t* capture = replay->capture;
  state->kernel_entries =
      calloc(capture->kernel_count + 1u, sizeof(*state->kernel_entries));
  if (!state->kernel_entries) return rl_status_out_of_memory();
  for (uint32_t k = 0; k < capture->kernel_count; ++k) {
    const rl_capture_kernel_t* kernel = &capture->kernels[k];
    state->kernel_entries[k] =
        replay->code_objects[kernel->code_object].load_base +
        kernel->info->entry_address;
  }
  return RL_OK;
}

// Test-only (base/test_fault.h): drops or weakens one ACQUIRE_MEM
// of the IB after the census passed it, so a test can show the simulator's
// cache model, not the census, catching the missing invalidation; or drops
// one relay COPY_DATA ("nop-copy"), so a test can show the run's results,
// not the census, catching a kernarg value the device never received. A
// NOP of the same length keeps every offset (and parameter patch) valid.
static void rl_replay_pm4_test_fault(rl_pm4_program_t* program) {
  if (!rl_test_fault_name()[0]) return;
  const rl_pm4_field_t* glv = NULL;
  const rl_pm4_register_t* gcr = program->family->acquire_gcr_cntl;
  for (uint32_t f = 0; f < gcr->field_count; ++f) {
    if (strcmp(gcr->fields[f].name, "GLV_INV") == 0) glv = &gcr->fields[f];
  }
  uint32_t acquire = 0, copy = 0;
  rl_pm4_packet_t packet;
  for (uint32_t offset = 0; offset < program->dword_count;
       offset += packet.dwords) {
    if (rl_pm4_decode_next(program->family, program->dwords,
                           program->dword_count, offset, &packet) != RL_OK) {
      return;  // the census accepted it; nothing to do on odd input
    }
    uint32_t* p = program->dwords + offset;
    if (packet.type == 3 && packet.opcode == RL_PM4_COPY_DATA &&
        rl_test_fault("nop-copy", copy++)) {
      p[0] = rl_pm4_header(RL_PM4_NOP, packet.dwords, p[0] & 0xffu);
      for (uint32_t i = 1; i < packet.dwords; ++i) p[i] = 0;
    }
    if (packet.type != 3 || packet.opcode != RL_PM4_ACQUIRE_MEM) continue;
    if (rl_test_fault("nop-acquire", acquire)) {
      p[0] = rl_pm4_header(RL_PM4_NOP, packet.dwords, p[0] & 0xffu);
      for (uint32_t i = 1; i < packet.dwords; ++i) p[i] = 0;
    }
    if (rl_test_fault("weaken-gcr", acquire) && glv) {
      p[RL_PM4_ACQUIRE_MEM_GCR_CNTL_DWORD] &= ~(1u << glv->shift);
    }
    ++acquire;
  }
}

rl_status_t rl_replay_pm4_prepare_ib(rl_replay_t* replay) {
  rl_replay_route_state_t* state = NULL;
  RL_RETURN_IF_ERROR(rl_replay_route_state_get(replay, &state));
  rl_device_t* device = replay->device;
  const rl_pm4_lower_options_t options = {
      .retain = !replay->options.pm4_no_retain};
  for (uint32_t p = 0; p < replay->capture->param_count; ++p) {
    replay->values[p] = replay->capture->params[p].capture_value;
  }
  RL_RETURN_IF_ERROR(rl_replay_pm4_entries(replay));
  RL_RETURN_IF_ERROR(rl_replay_pm4_scratch(replay));
  RL_RETURN_IF_ERROR(rl_replay_pm4_relay(replay));
  rl_pm4_lower_inputs_t inputs = rl_replay_pm4_inputs(replay);
  uint32_t dwords = 0;
  RL_RETURN_IF_ERROR(rl_pm4_lower_measure(&inputs, &options, &dwords));
  RL_RETURN_IF_ERROR(device->vtable->allocate(device, 4ull * dwords,
                                              RL_REPLAY_PM4_IB_ALIGN,
                                              RL_MEMORY_KIND_KERNARG,
                                              &state->ib));
  state->has_ib = true;
  if (!state->ib.host) {
    return RL_STATUS(RL_STATUS_PREPARE, "the IB has no host view on device %s",
                     device->name);
  }
  inputs.ib_address = state->ib.address;
  RL_RETURN_IF_ERROR(rl_pm4_lower(&inputs, &options, &state->pm4));
  // The census reads the program back; what it checks is what runs.
  RL_RETURN_IF_ERROR(rl_pm4_program_check(state->pm4, &inputs));
  rl_replay_pm4_test_fault(state->pm4);
  memcpy(state->ib.host, state->pm4->dwords, 4ull * state->pm4->dword_count);
  memcpy(replay->kernarg.host, state->pm4->kernarg,
         state->pm4->kernarg_size);
  if (state->has_relay) {
    memcpy(state->relay.host, state->pm4->relay,
           8ull * state->pm4->relay_count);
  }
  replay->binds = state->pm4->binds;
  rl_pm4_program_dests(state->pm4, replay->kernarg.host, state->ib.host,
                       state->has_relay ? state->relay.host : NULL,
                       replay->dests);
  // A run writes the device's views only: the program's own images
  // (pm4->dwords, pm4->kernarg) keep the prepared stream, and what runs
  // is read back from the device (rl_replay_stream_ib). One store per
  // changed site instead of two.
  rl_bind_dest_t* dests = replay->dests;
  dests[RL_PM4_DEST_KERNARG].base = dests[RL_PM4_DEST_KERNARG].mirror;
  dests[RL_PM4_DEST_KERNARG].mirror = NULL;
  dests[RL_PM4_DEST_IB].base = dests[RL_PM4_DEST_IB].mirror;
  dests[RL_PM4_DEST_IB].mirror = NULL;
  dests[RL_PM4_DEST_RELAY].base = dests[RL_PM4_DEST_RELAY].mirror;
  dests[RL_PM4_DEST_RELAY].mirror = NULL;
  return RL_OK;
}

static rl_status_t rl_route_pm4_prepare(rl_replay_t* replay) {
  RL_RETURN_IF_ERROR(rl_replay_queue_create(replay));
  return rl_replay_pm4_prepare_ib(replay);
}

static rl_status_t rl_route_pm4_publish(rl_replay_t* replay,
                                        uint64_t* out_last) {
  return rl_replay_queue_publish(replay, &replay->route_state->pm4->packet, 1,
                                 out_last);
}

void rl_replay_pm4_proof(const rl_replay_t* replay,
                         rl_route_proof_t* out_proof) {
  const rl_pm4_program_t* program =
      replay->route_state ? replay->route_state->pm4 : NULL;
  if (!program) return;
  out_proof->queue_id = rl_replay_queue_id(replay);
  out_proof->dispatches = program->stats.dispatches;
  out_proof->packets = 1;
  out_proof->waits = program->stats.waits;
  out_proof->ib_dwords = program->dword_count;
  out_proof->stream_bytes =
      RL_AQL_PACKET_SIZE + 4ull * (uint64_t)program->dword_count;
  out_proof->patch_sites = program->patch_count;
}

rl_status_t rl_replay_pm4_stream_packet(const rl_replay_t* replay,
                                        uint32_t index,
                                        uint8_t out_packet[64]) {
  const rl_replay_route_state_t* state = replay->route_state;
  if (!state || !state->pm4 || index != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "packet %u: no such packet in the prepared stream",
                     index);
  }
  memcpy(out_packet, &state->pm4->packet, RL_AQL_PACKET_SIZE);
  return RL_OK;
}

rl_status_t rl_replay_pm4_patch_site(const rl_replay_t* replay,
                                     uint32_t index,
                                     rl_patch_site_t* out_site) {
  const rl_replay_route_state_t* state = replay->route_state;
  if (!state || !state->pm4 || index >= state->pm4->patch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "patch site %u: no such site in the prepared stream",
                     index);
  }
  const rl_pm4_patch_t* patch = &state->pm4->patches[index];
  static const rl_patch_site_kind_t kinds[] = {
      [RL_PM4_PATCH_KERNARG] = RL_PATCH_SITE_SCALAR,
      [RL_PM4_PATCH_POINTER] = RL_PATCH_SITE_POINTER,
      [RL_PM4_PATCH_GRID_DIM] = RL_PATCH_SITE_GRID,
      [RL_PM4_PATCH_GRID_SIZE] = RL_PATCH_SITE_GRID};
  out_site->kind = kinds[patch->kind];
  out_site->launch = patch->launch;
  out_site->packet = 0;
  out_site->size = patch->size;
  out_site->current = rl_bind_table_current(state->pm4->binds, index);
  if (patch->kind == RL_PM4_PATCH_GRID_DIM) {
    out_site->device_address = state->ib.address + 4ull * patch->offset;
    out_site->dword = patch->offset;
  } else {
    out_site->device_address = replay->kernarg.address + patch->offset;
    out_site->dword = patch->offset / 4;
  }
  return rl_replay_route_site_what(
      replay->capture, patch->launch, patch->kind == RL_PM4_PATCH_POINTER,
      patch->slot, patch->binding, out_site);
}

rl_status_t rl_replay_pm4_stream_ib(const rl_replay_t* replay,
                                    uint32_t* out_dwords, uint32_t capacity,
                                    uint32_t* out_count) {
  const rl_replay_route_state_t* state = replay->route_state;
  if (!state || !state->pm4) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "stream IB: no replay prepared on route pm4");
  }
  const rl_pm4_program_t* program = state->pm4;
  *out_count = program->dword_count;
  if (!out_dwords && capacity == 0) return RL_OK;
  if (!out_dwords || capacity < program->dword_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "stream IB of %u dwords, room for %u",
                     program->dword_count, capacity);
  }
  // The device's view: the stream as the last run left it.
  memcpy(out_dwords, state->ib.host, 4ull * program->dword_count);
  return RL_OK;
}

rl_status_t rl_replay_pm4_release_ib(rl_replay_t* replay) {
  rl_replay_route_state_t* state = replay->route_state;
  rl_status_t status = RL_OK;
  if (!state) return RL_OK;
  if (state->has_relay) {
    state->has_relay = false;
    status = replay->device->vtable->free(replay->device,
                                          state->relay.address);
  }
  if (state->has_scratch) {
    state->has_scratch = false;
    status = rl_status_join(
        status,
        replay->device->vtable->free(replay->device, state->scratch.address));
  }
  if (!state->has_ib) return status;
  state->has_ib = false;
  rl_status_t ib = replay->device->vtable->free(replay->device,
                                                state->ib.address);
  return rl_status_join(status, ib);
}

// The queue first: once it is destroyed nothing reads the IB.
static rl_status_t rl_route_pm4_release(rl_replay_t* replay) {
  RL_RETURN_IF_ERROR(rl_replay_queue_release(replay));
  return rl_replay_pm4_release_ib(replay);
}

void rl_replay_pm4_destroy(rl_replay_t* replay) {
  rl_replay_route_state_t* state = replay->route_state;
  replay->binds = NULL;
  if (!state) return;
  rl_pm4_program_destroy(state->pm4);
  free(state->kernel_entries);
  rl_replay_route_state_free(replay);
}

//===----------------------------------------------------------------------===//
// Test hook
//===----------------------------------------------------------------------===//

// The IB dword of the packet with |opcode| between launch |launch - 1|'s
// dispatch and launch |launch|'s, or UINT32_MAX.
static uint32_t rl_replay_pm4_find(const rl_pm4_program_t* program,
                                   uint32_t launch, uint32_t opcode) {
  uint32_t offset = program->dispatch_offsets[launch - 1];
  while (offset < program->dispatch_offsets[launch]) {
    uint32_t header = program->dwords[offset];
    if (rl_pm4_header_opcode(header) == opcode) return offset;
    offset += rl_pm4_header_dwords(header);
  }
  return UINT32_MAX;
}

rl_status_t rl_replay_test_pm4_drop_wait(rl_replay_t* replay, uint32_t launch,
                                         bool acquire) {
  rl_replay_route_state_t* state = replay ? replay->route_state : NULL;
  if (!state || !state->pm4 || launch == 0 ||
      launch >= replay->capture->launch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "test hook: launch %u of a route pm4 replay", launch);
  }
  rl_pm4_program_t* program = state->pm4;
  uint32_t offset = rl_replay_pm4_find(
      program, launch,
      acquire ? (uint32_t)RL_PM4_ACQUIRE_MEM : (uint32_t)RL_PM4_EVENT_WRITE);
  if (offset == UINT32_MAX) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "test hook: no wait before launch %u", launch);
  }
  uint32_t size = rl_pm4_header_dwords(program->dwords[offset]);
  program->dwords[offset] = rl_pm4_header(RL_PM4_NOP, size, 0);
  memset(program->dwords + offset + 1, 0, 4ull * (size - 1));
  uint32_t* ib = state->ib.host;
  memcpy(ib + offset, program->dwords + offset, 4ull * size);
  return RL_OK;
}

const rl_replay_route_t rl_replay_route_pm4 = {
    .route = RL_ROUTE_PM4,
    .name = "pm4",
    .device_runs = rl_replay_queue_device_runs,
    .kernarg_size = rl_pm4_kernarg_segment_size,
    .prepare = rl_route_pm4_prepare,
    .apply = rl_replay_route_apply,
    .publish = rl_route_pm4_publish,
    .wait = rl_replay_queue_wait,
    .proof = rl_replay_pm4_proof,
    .stream_packet = rl_replay_pm4_stream_packet,
    .stream_ib = rl_replay_pm4_stream_ib,
    .patch_site = rl_replay_pm4_patch_site,
    .release = rl_route_pm4_release,
    .destroy = rl_replay_pm4_destroy,
};
