// The direct arms' shared state (shadow/shadow_direct.h).
#include "shadow/shadow_direct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/bind/launch_bind.h"
#include "redline/device/device_funnel.h"
#include "redline/device/device_kernels.h"

// Bytes written per device write when zero-filling a buffer.
#define RL_SHADOW_DIRECT_ZERO_CHUNK 65536u

static rl_status_t rl_shadow_direct_zero(rl_device_t* device,
                                         uint64_t address, uint64_t size) {
  uint8_t* zeros = calloc(RL_SHADOW_DIRECT_ZERO_CHUNK, 1);
  if (!zeros) return rl_status_out_of_memory();
  rl_status_t status = RL_OK;
  for (uint64_t done = 0; !status && done < size;
       done += RL_SHADOW_DIRECT_ZERO_CHUNK) {
    uint64_t length = size - done < RL_SHADOW_DIRECT_ZERO_CHUNK
                          ? size - done
                          : RL_SHADOW_DIRECT_ZERO_CHUNK;
    status = device->vtable->write(device, address + done, zeros, length);
  }
  free(zeros);
  return status;
}

// Binds code object variable |index| to the variable in this arm's load of
// its code object and fills it from the capture's snapshot; nothing is
// allocated, and deinit frees no variable.
static rl_status_t rl_shadow_direct_variable(rl_shadow_direct_t* direct,
                                             uint32_t index) {
  const rl_capture_buffer_t* buffer = &direct->capture->buffers[index];
  const rl_device_vtable_t* vt = direct->device->vtable;
  uint64_t address = 0;
  RL_RETURN_IF_ERROR(rl_capture_variable_address(
      direct->capture, index,
      rl_device_funnel_load_base(&direct->adapter,
                                 direct->handles[buffer->code_object]),
      &address));
  direct->addresses[index] = address;
  rl_status_t status =
      buffer->initial
          ? vt->write(direct->device, address, buffer->initial, buffer->size)
          : rl_shadow_direct_zero(direct->device, address, buffer->size);
  return rl_status_annotate(status, "filling buffer %s (variable %s)",
                            buffer->name, buffer->symbol);
}

// Allocates buffer |index| and fills it from the capture's snapshot.
static rl_status_t rl_shadow_direct_buffer(rl_shadow_direct_t* direct,
                                           uint32_t index) {
  const rl_capture_buffer_t* buffer = &direct->capture->buffers[index];
  const rl_device_vtable_t* vt = direct->device->vtable;
  if (rl_capture_buffer_is_variable(buffer)) {
    direct->buffers_allocated = index + 1;
    return RL_OK;  // after the code objects (rl_shadow_direct_setup)
  }
  rl_device_allocation_t allocation = {0};
  rl_status_t status =
      buffer->keep_address
          ? vt->allocate_fixed(direct->device, buffer->capture_address,
                               buffer->size, RL_MEMORY_KIND_DEVICE,
                               &allocation)
          : vt->allocate(direct->device, buffer->size, buffer->alignment,
                         RL_MEMORY_KIND_DEVICE, &allocation);
  if (status) {
    return rl_status_annotate(status, "allocating buffer %s (%llu bytes)",
                              buffer->name, (unsigned long long)buffer->size);
  }
  direct->addresses[index] = allocation.address;
  direct->buffers_allocated = index + 1;
  status = buffer->initial
               ? vt->write(direct->device, allocation.address, buffer->initial,
                           buffer->size)
               : rl_shadow_direct_zero(direct->device, allocation.address,
                                       buffer->size);
  return rl_status_annotate(status, "filling buffer %s", buffer->name);
}

static rl_status_t rl_shadow_direct_load(rl_shadow_direct_t* direct) {
  const rl_capture_t* capture = direct->capture;
  for (uint32_t c = 0; c < capture->code_object_count; ++c) {
    const rl_capture_code_object_t* co = &capture->code_objects[c];
    RL_RETURN_IF_ERROR(rl_status_annotate(
        direct->adapter.load_code_object(direct->adapter.self, co->bytes,
                                         co->size, &direct->handles[c]),
        "loading code object %u", c));
  }
  return RL_OK;
}

// Writes every descriptor binding's address fields for where this arm
// placed its image (capture.h rl_capture_descriptor_t).
static rl_status_t rl_shadow_direct_descriptors(rl_shadow_direct_t* direct) {
  const rl_capture_t* capture = direct->capture;
  for (uint32_t i = 0; i < capture->descriptor_count; ++i) {
    const rl_capture_descriptor_t* d = &capture->descriptors[i];
    uint8_t bytes[8];
    rl_status_t status = rl_descriptor_patch(
        capture, i, direct->addresses[d->image], bytes);
    if (!status) {
      status = direct->device->vtable->write(
          direct->device, direct->addresses[d->buffer] + d->offset, bytes,
          sizeof(bytes));
    }
    if (status) {
      return rl_status_annotate(status, "descriptor %u in buffer %s", i,
                                capture->buffers[d->buffer].name);
    }
  }
  return RL_OK;
}

static rl_status_t rl_shadow_direct_setup(rl_shadow_direct_t* direct) {
  const rl_capture_t* capture = direct->capture;
  direct->addresses = calloc(capture->buffer_count + 1u, sizeof(uint64_t));
  direct->handles = calloc(capture->code_object_count + 1u, sizeof(uint64_t));
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    uint32_t size = capture->launches[l].kernarg_size;
    if (size > direct->kernarg_capacity) direct->kernarg_capacity = size;
  }
  direct->kernarg = calloc(direct->kernarg_capacity + 1u, 1);
  if (!direct->addresses || !direct->handles || !direct->kernarg) {
    return rl_status_out_of_memory();
  }
  // Kernels the device cannot run are refused as the replay contract
  // refuses them (RL_STATUS_CONTRACT), before anything is allocated.
  RL_RETURN_IF_ERROR(rl_device_check_capture_kernels(direct->device, capture));
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    RL_RETURN_IF_ERROR(rl_shadow_direct_buffer(direct, b));
  }
  RL_RETURN_IF_ERROR(rl_device_funnel_create_bounded(
      direct->device, direct->timeout_ns, &direct->adapter));
  RL_RETURN_IF_ERROR(rl_shadow_direct_load(direct));
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    if (!rl_capture_buffer_is_variable(&capture->buffers[b])) continue;
    RL_RETURN_IF_ERROR(rl_shadow_direct_variable(direct, b));
  }
  return rl_shadow_direct_descriptors(direct);
}

rl_status_t rl_shadow_direct_init(rl_shadow_direct_t* direct,
                                  rl_device_t* device,
                                  const rl_capture_t* capture,
                                  uint64_t timeout_ns) {
  memset(direct, 0, sizeof(*direct));
  direct->device = device;
  direct->capture = capture;
  direct->timeout_ns = timeout_ns;
  rl_status_t status = rl_shadow_direct_setup(direct);
  if (status) rl_shadow_direct_deinit(direct);
  return status;
}

void rl_shadow_direct_deinit(rl_shadow_direct_t* direct) {
  // The adapter first: it stops its queue before anything it could still
  // reference is freed.
  rl_funnel_device_destroy(&direct->adapter);
  for (uint32_t b = 0; direct->device && b < direct->buffers_allocated; ++b) {
    if (rl_capture_buffer_is_variable(&direct->capture->buffers[b])) continue;
    rl_status_free(
        direct->device->vtable->free(direct->device, direct->addresses[b]));
  }
  free(direct->addresses);
  free(direct->handles);
  free(direct->kernarg);
  memset(direct, 0, sizeof(*direct));
}

rl_status_t rl_shadow_direct_launch(rl_shadow_direct_t* direct,
                                    uint32_t launch, const uint8_t* kernarg,
                                    const uint32_t grid[3]) {
  const rl_capture_t* capture = direct->capture;
  const rl_capture_launch_t* l = &capture->launches[launch];
  const rl_capture_kernel_t* kernel = &capture->kernels[l->kernel];
  rl_funnel_dispatch_t dispatch = {
      .launch_index = launch,
      .code_object = kernel->code_object,
      .code_object_handle = direct->handles[kernel->code_object],
      .kernel = kernel->info,
      .grid = {grid[0], grid[1], grid[2]},
      .block = {l->block[0], l->block[1], l->block[2]},
      .dynamic_lds = l->dynamic_lds,
      .kernarg = kernarg,
      .kernarg_size = l->kernarg_size,
  };
  RL_RETURN_IF_ERROR(rl_status_annotate(
      direct->adapter.launch(direct->adapter.self, &dispatch),
      "launch %u (%s)", launch, kernel->name));
  ++direct->launches_issued;
  return RL_OK;
}

rl_status_t rl_shadow_direct_step(rl_shadow_direct_t* direct,
                                  const int64_t* values) {
  const rl_capture_t* capture = direct->capture;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    uint32_t grid[3];
    RL_RETURN_IF_ERROR(rl_launch_bind(capture, l, values, direct->addresses,
                                      direct->kernarg, grid));
    RL_RETURN_IF_ERROR(
        rl_shadow_direct_launch(direct, l, direct->kernarg, grid));
  }
  return RL_OK;
}

rl_status_t rl_shadow_direct_read_region(rl_shadow_direct_t* direct,
                                         uint32_t region, void* out_data,
                                         uint64_t size) {
  const rl_capture_region_t* r = &direct->capture->regions[region];
  if (size != r->size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "region %s is %llu bytes, %llu requested", r->name,
                     (unsigned long long)r->size, (unsigned long long)size);
  }
  return direct->device->vtable->read(
      direct->device, direct->addresses[r->buffer] + r->offset, out_data,
      size);
}

void rl_shadow_direct_proof(const rl_shadow_direct_t* direct,
                            rl_shadow_arm_kind_t kind, uint64_t steps,
                            rl_shadow_proof_t* out_proof) {
  memset(out_proof, 0, sizeof(*out_proof));
  uint32_t launches = direct->capture->launch_count;
  out_proof->route = rl_shadow_arm_kind_name(kind);
  snprintf(out_proof->device, sizeof(out_proof->device), "%s",
           direct->device->name);
  snprintf(out_proof->target, sizeof(out_proof->target), "%s",
           direct->device->target);
  out_proof->state = "direct";
  out_proof->steps = steps;
  out_proof->launches_issued = direct->launches_issued;
  out_proof->dispatches = launches;
  out_proof->packets = launches;  // one packet per launch
  out_proof->waits = launches;    // each launch is waited for
  out_proof->stream_bytes = 64ull * launches;
}
