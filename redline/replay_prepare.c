// rl_replay_prepare (redline/replay.h): the REDLINE_ROUTE escape hatch,
// then for every route: buffers (rebased, filled from the capture, guarded
// in checked mode), code objects, kernarg segment (of the route's size) and
// completion signal; then the route's own prepare (redline/replay_route.h:
// queue or IB, lowering and the census of what was built).
// Validate → plan → reserve → emit: the hazard plan and kernarg size are
// computed before any device memory is taken, and a failure releases
// everything prepare took and poisons the replay.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/test_fault.h"
#include "redline/replay_internal.h"

//===----------------------------------------------------------------------===//
// REDLINE_ROUTE
//===----------------------------------------------------------------------===//

rl_status_t rl_replay_policy_from_env(rl_replay_policy_t* out_policy) {
  static const struct {
    const char* name;
    rl_replay_policy_t policy;
  } policies[] = {{"", RL_REPLAY_POLICY_ANY},
                  {"off", RL_REPLAY_POLICY_OFF},
                  {"aql", RL_REPLAY_POLICY_AQL},
                  {"pm4", RL_REPLAY_POLICY_PM4},
                  {"drm", RL_REPLAY_POLICY_DRM}};
  const char* value = getenv("REDLINE_ROUTE");
  *out_policy = RL_REPLAY_POLICY_ANY;
  if (!value) return RL_OK;
  for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); ++i) {
    if (strcmp(value, policies[i].name) == 0) {
      *out_policy = policies[i].policy;
      return RL_OK;
    }
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "REDLINE_ROUTE='%s': expected off, aql, pm4 or drm", value);
}

// Whether |policy| lets |route| run; writes the reason when it does not.
static bool rl_replay_policy_allows(rl_replay_policy_t policy,
                                    rl_route_t route, char* out_reason,
                                    size_t reason_size) {
  static const rl_route_t only[] = {
      [RL_REPLAY_POLICY_AQL] = RL_ROUTE_AQL,
      [RL_REPLAY_POLICY_PM4] = RL_ROUTE_PM4,
      [RL_REPLAY_POLICY_DRM] = RL_ROUTE_DRM};
  if (policy == RL_REPLAY_POLICY_ANY) return true;
  if (policy == RL_REPLAY_POLICY_OFF) {
    snprintf(out_reason, reason_size, "REDLINE_ROUTE=off");
    return false;
  }
  if (only[policy] == route) return true;
  snprintf(out_reason, reason_size, "REDLINE_ROUTE=%s excludes route %s",
           rl_route_name(only[policy]), rl_route_name(route));
  return false;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

// Checked mode's red zone after |buffer|: a no-access range when the
// device can reserve one (a stray read faults as well as a stray write),
// else RL_REPLAY_GUARD_SIZE more bytes of the allocation for the pattern.
static rl_status_t rl_prepare_guard_buffer(rl_replay_t* replay,
                                           rl_replay_buffer_t* buffer) {
  rl_device_t* device = replay->device;
  buffer->guard_size = RL_REPLAY_GUARD_SIZE;
  if (!device->vtable->reserve_guard) return RL_OK;  // pattern guard
  RL_RETURN_IF_ERROR(device->vtable->reserve_guard(
      device, buffer->address + buffer->size, RL_REPLAY_GUARD_SIZE));
  buffer->guard_reserved = true;
  return RL_OK;
}

static rl_status_t rl_prepare_allocate_buffer(rl_replay_t* replay,
                                              uint32_t index) {
  const rl_capture_buffer_t* info = &replay->capture->buffers[index];
  rl_replay_buffer_t* buffer = &replay->buffers[index];
  rl_device_t* device = replay->device;
  const bool checked = replay->options.checked;
  // A device that reserves no-access guards gets the buffer alone; the
  // pattern guard is part of the allocation.
  uint64_t extra =
      checked && !device->vtable->reserve_guard ? RL_REPLAY_GUARD_SIZE : 0;
  rl_device_allocation_t allocation = {0};
  if (info->keep_address) {
    RL_RETURN_IF_ERROR(device->vtable->allocate_fixed(
        device, info->capture_address, info->size + extra,
        RL_MEMORY_KIND_DEVICE, &allocation));
  } else {
    RL_RETURN_IF_ERROR(device->vtable->allocate(device, info->size + extra,
                                                info->alignment,
                                                RL_MEMORY_KIND_DEVICE,
                                                &allocation));
  }
  *buffer = (rl_replay_buffer_t){.address = allocation.address,
                                 .size = info->size,
                                 .host = allocation.host,
                                 .allocated = true};
  return checked ? rl_prepare_guard_buffer(replay, buffer) : RL_OK;
}

// Writes the capture's initial contents (zeros when it has none).
static rl_status_t rl_prepare_fill_buffer(rl_replay_t* replay,
                                          uint32_t index) {
  const rl_capture_buffer_t* info = &replay->capture->buffers[index];
  const rl_replay_buffer_t* buffer = &replay->buffers[index];
  rl_device_t* device = replay->device;
  if (info->initial) {
    return device->vtable->write(device, buffer->address, info->initial,
                                 info->size);
  }
  uint8_t* zeros = calloc((size_t)info->size, 1);
  if (!zeros) return rl_status_out_of_memory();
  rl_status_t status =
      device->vtable->write(device, buffer->address, zeros, info->size);
  free(zeros);
  return status;
}

// Allocates every unbound buffer (at its capture address when it must keep
// it) and fills it; bound buffers keep the caller's contents. Code object
// variables wait for the code objects (rl_prepare_variables).
static rl_status_t rl_prepare_buffers(rl_replay_t* replay) {
  const rl_capture_t* capture = replay->capture;
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    if (rl_capture_buffer_is_variable(&capture->buffers[b])) continue;
    rl_status_t status = RL_OK;
    if (!replay->buffers[b].bound) {
      status = rl_prepare_allocate_buffer(replay, b);
      if (!status) status = rl_prepare_fill_buffer(replay, b);
    }
    if (status) {
      return rl_status_annotate(status, "buffer %u '%s'", b,
                                capture->buffers[b].name);
    }
    replay->addresses[b] = replay->buffers[b].address;
  }
  return replay->options.checked ? rl_replay_guards_write(replay) : RL_OK;
}

//===----------------------------------------------------------------------===//
// Code objects, kernarg segment, signal, queue
//===----------------------------------------------------------------------===//

static rl_status_t rl_prepare_code_objects(rl_replay_t* replay) {
  const rl_capture_t* capture = replay->capture;
  rl_device_t* device = replay->device;
  replay->code_objects =
      calloc(capture->code_object_count + 1u, sizeof(*replay->code_objects));
  replay->kernel_objects =
      calloc(capture->kernel_count + 1u, sizeof(*replay->kernel_objects));
  if (!replay->code_objects || !replay->kernel_objects) {
    return rl_status_out_of_memory();
  }
  for (uint32_t i = 0; i < capture->code_object_count; ++i) {
    const rl_capture_code_object_t* code = &capture->code_objects[i];
    RL_RETURN_IF_ERROR(rl_status_annotate(
        device->vtable->load_code_object(device, code->bytes, code->size,
                                         code->parsed,
                                         &replay->code_objects[i]),
        "loading code object %u", i));
    replay->loaded_code_objects = i + 1;
  }
  for (uint32_t k = 0; k < capture->kernel_count; ++k) {
    const rl_capture_kernel_t* kernel = &capture->kernels[k];
    replay->kernel_objects[k] =
        replay->code_objects[kernel->code_object].load_base +
        kernel->info->descriptor_address;
  }
  return RL_OK;
}

// Binds every code object variable buffer to the variable in this replay's
// load of its code object and writes its initial contents there (nothing
// is allocated, so nothing is freed and no guard follows it).
static rl_status_t rl_prepare_variables(rl_replay_t* replay) {
  const rl_capture_t* capture = replay->capture;
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    const rl_capture_buffer_t* info = &capture->buffers[b];
    if (!rl_capture_buffer_is_variable(info)) continue;
    if (rl_test_fault("variable-copy", b)) {
      // The mistake the fault makes: the variable's buffer is a separate
      // copy, so the pointer and the code object see different bytes.
      rl_status_t status = rl_prepare_allocate_buffer(replay, b);
      if (!status) status = rl_prepare_fill_buffer(replay, b);
      if (status) return status;
      replay->addresses[b] = replay->buffers[b].address;
      continue;
    }
    uint64_t address = 0;
    rl_status_t status = rl_capture_variable_address(
        capture, b, replay->code_objects[info->code_object].load_base,
        &address);
    if (!status) {
      replay->buffers[b] =
          (rl_replay_buffer_t){.address = address, .size = info->size};
      status = rl_prepare_fill_buffer(replay, b);
    }
    if (status) {
      return rl_status_annotate(status, "buffer %u '%s' (variable %s)", b,
                                info->name, info->symbol);
    }
    replay->addresses[b] = address;
  }
  return RL_OK;
}

// Writes every descriptor binding's address fields for where this replay
// placed its image (capture.h rl_capture_descriptor_t), over the initial
// contents (or a bound buffer's) of the buffer holding it.
static rl_status_t rl_prepare_descriptors(rl_replay_t* replay) {
  const rl_capture_t* capture = replay->capture;
  rl_device_t* device = replay->device;
  for (uint32_t i = 0; i < capture->descriptor_count; ++i) {
    const rl_capture_descriptor_t* d = &capture->descriptors[i];
    uint8_t bytes[8];
    rl_status_t status = rl_descriptor_patch(
        capture, i, replay->addresses[d->image], bytes);
    if (!status && d->offset + sizeof(bytes) > replay->buffers[d->buffer].size) {
      status = RL_STATUS(RL_STATUS_CONTRACT,
                         "the buffer bound is smaller than the descriptor "
                         "at byte %llu",
                         (unsigned long long)d->offset);
    }
    if (!status) {
      status = device->vtable->write(
          device, replay->addresses[d->buffer] + d->offset, bytes,
          sizeof(bytes));
    }
    if (status) {
      return rl_status_annotate(status, "descriptor %u in buffer %s", i,
                                capture->buffers[d->buffer].name);
    }
  }
  return RL_OK;
}

// The kernarg segment and the completion signal every route uses.
static rl_status_t rl_prepare_segment(rl_replay_t* replay,
                                      uint32_t kernarg_size) {
  rl_device_t* device = replay->device;
  RL_RETURN_IF_ERROR(device->vtable->allocate(
      device, kernarg_size, 256, RL_MEMORY_KIND_KERNARG, &replay->kernarg));
  replay->has_kernarg = true;
  if (!replay->kernarg.host) {
    return RL_STATUS(RL_STATUS_PREPARE,
                     "the kernarg segment has no host view on device %s",
                     device->name);
  }
  // Route drm never publishes the vendor packet that names the signal,
  // but lowering builds it; the signal stays at its start value.
  RL_RETURN_IF_ERROR(device->vtable->signal_create(
      device, RL_REPLAY_SIGNAL_START, &replay->signal));
  replay->has_signal = true;
  replay->signal_value = RL_REPLAY_SIGNAL_START;
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// The route
//===----------------------------------------------------------------------===//

// Every route: plan, buffers, code objects, kernarg segment and signal,
// then the route's prepare.
static rl_status_t rl_prepare_route(rl_replay_t* replay) {
  const rl_replay_route_t* route = replay->route_ops;
  RL_RETURN_IF_ERROR(rl_hazard_plan_create(replay->capture, &replay->plan));
  uint32_t kernarg_size = route->kernarg_size(replay->capture);
  if (kernarg_size == 0) {
    return RL_STATUS(RL_STATUS_PREPARE,
                     "no kernarg segment: no launches, or one larger than "
                     "4 GiB");
  }
  RL_RETURN_IF_ERROR(rl_prepare_buffers(replay));
  RL_RETURN_IF_ERROR(rl_prepare_code_objects(replay));
  RL_RETURN_IF_ERROR(rl_prepare_variables(replay));
  RL_RETURN_IF_ERROR(rl_prepare_descriptors(replay));
  RL_RETURN_IF_ERROR(rl_prepare_segment(replay, kernarg_size));
  return route->prepare(replay);
}

// Whether the device can run |route| at all: aql and pm4 need an AQL
// queue, drm needs direct IB submission (device.h). Refused before
// anything is built, with the routes the device does run.
static rl_status_t rl_prepare_device_runs(const rl_replay_t* replay,
                                          const rl_replay_route_t* route) {
  if (route->device_runs(replay->device)) return RL_OK;
  char runs[64];
  rl_replay_route_list_runnable(replay->device, runs, sizeof(runs));
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "device %s cannot run route %s: it runs %s",
                   replay->device->name, rl_route_name(route->route), runs);
}

// Undoes a failed prepare: device resources first, then host state.
static rl_status_t rl_prepare_fail(rl_replay_t* replay, rl_status_t status) {
  // A contract failure stays one (4); running out of memory (host memory,
  // or the device's address space) stays RL_STATUS_OUT_OF_MEMORY (exit 8,
  // as everywhere else); every other failure is a prepare failure (5).
  if (!rl_status_is(status, RL_STATUS_CONTRACT) &&
      !rl_status_is(status, RL_STATUS_OUT_OF_MEMORY)) {
    status = rl_replay_recode(status, RL_STATUS_PREPARE);
  }
  status = rl_status_annotate(status, "prepare route %s",
                              rl_route_name(replay->route));
  status = rl_status_join(status, rl_replay_release_device(replay));
  replay->route_ops->destroy(replay);
  rl_hazard_plan_destroy(replay->plan);
  replay->plan = NULL;
  return rl_replay_poison(replay, status);
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//


rl_status_t rl_replay_prepare(rl_replay_t* replay, rl_route_t route) {
  const rl_replay_route_t* ops = rl_replay_route_find(route);
  if (!replay || !ops) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "prepare: needs a replay and route aql, pm4 or drm");
  }
  if (replay->state == RL_REPLAY_CAPTURED) {
    RL_RETURN_IF_ERROR(rl_replay_contract(replay));
  }
  RL_RETURN_IF_ERROR(
      rl_replay_require(replay, RL_REPLAY_CONTRACTED, "rl_replay_prepare"));
  RL_RETURN_IF_ERROR(rl_prepare_device_runs(replay, ops));
  rl_replay_policy_t policy = RL_REPLAY_POLICY_ANY;
  RL_RETURN_IF_ERROR(rl_replay_policy_from_env(&policy));
  replay->policy = policy;
  replay->route = route;
  replay->route_ops = ops;
  replay->reason[0] = '\0';
  if (!rl_replay_policy_allows(policy, route, replay->reason,
                               sizeof(replay->reason))) {
    // The escape hatch: nothing is built, every admission says why.
    replay->route_enabled = false;
    replay->state = RL_REPLAY_PREPARED;
    return RL_OK;
  }
  rl_status_t status = rl_prepare_route(replay);
  if (status) return rl_prepare_fail(replay, status);
  replay->route_enabled = true;
  replay->state = RL_REPLAY_PREPARED;
  return RL_OK;
}
