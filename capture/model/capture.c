// Building and destroying the capture model (redline/capture.h). Each add
// function checks its input, deep-copies it into the model's arrays and
// returns the new index; on failure the model is unchanged.
#include "redline/capture.h"

#include <stdlib.h>
#include <string.h>

#include "capture/model/capture_internal.h"
#include "redline/capture_issued.h"
#include "base/array.h"
#include "base/test_fault.h"

rl_status_t rl_capture_create(const char* workload, rl_capture_t** out_capture) {
  if (!workload) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "capture create: no workload name");
  }
  if (!out_capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "capture create: no output");
  }
  *out_capture = NULL;
  RL_RETURN_IF_ERROR(rl_capture_check_name("workload", workload));
  rl_capture_t* capture = calloc(1, sizeof(*capture));
  if (!capture) return rl_status_out_of_memory();
  capture->workload = rl_strdup(workload);
  if (!capture->workload) {
    free(capture);
    return rl_status_out_of_memory();
  }
  *out_capture = capture;
  return RL_OK;
}

void rl_capture_launch_deinit(rl_capture_launch_t* launch) {
  free(launch->kernarg);
  free(launch->slots);
  free(launch->bindings);
}

void rl_capture_pop_launch(rl_capture_t* capture) {
  rl_capture_launch_t* launch = &capture->launches[--capture->launch_count];
  rl_capture_launch_deinit(launch);
  memset(launch, 0, sizeof(*launch));
}

rl_status_t rl_capture_mark_incomplete(rl_capture_t* capture,
                                       uint32_t bypassed, const char* reason) {
  if (!capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "mark incomplete: no capture");
  }
  capture->bypassed_launches += bypassed;
  if (!capture->incomplete_reason) {
    capture->incomplete_reason = strdup(reason && reason[0] ? reason
                                                           : "unrecorded work");
    if (!capture->incomplete_reason) return rl_status_out_of_memory();
  }
  return RL_OK;
}

void rl_capture_destroy(rl_capture_t* capture) {
  if (!capture) return;
  free(capture->incomplete_reason);
  rl_capture_issued_clear(capture);
  for (uint32_t i = 0; i < capture->code_object_count; ++i) {
    free(capture->code_objects[i].bytes);
    rl_code_object_destroy(capture->code_objects[i].parsed);
  }
  for (uint32_t i = 0; i < capture->kernel_count; ++i) {
    free(capture->kernels[i].name);
  }
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    free(capture->buffers[i].name);
    free(capture->buffers[i].initial);
    free(capture->buffers[i].symbol);
  }
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    free(capture->params[i].name);
  }
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    rl_capture_launch_deinit(&capture->launches[i]);
  }
  for (uint32_t i = 0; i < capture->region_count; ++i) {
    free(capture->regions[i].name);
  }
  free(capture->code_objects);
  free(capture->kernels);
  free(capture->buffers);
  free(capture->params);
  free(capture->launches);
  free(capture->regions);
  free(capture->windows);
  free(capture->program_states);
  free(capture->program_params);
  free(capture->descriptors);
  free(capture->workload);
  free(capture->target);
  free(capture);
}

rl_status_t rl_capture_add_code_object(rl_capture_t* capture, const void* data,
                                       size_t size, uint32_t* out_index) {
  if (!capture || !data || !out_index) {
    return RL_STATUS(
        RL_STATUS_INVALID_ARGUMENT,
        "add code object: a capture, data and an output are required");
  }
  *out_index = UINT32_MAX;
  rl_code_object_t* parsed = NULL;
  RL_RETURN_IF_ERROR(rl_status_annotate(
      rl_code_object_parse(data, size, &parsed), "code object %u",
      capture->code_object_count));
  rl_status_t status = RL_OK;
  if (capture->target && strcmp(capture->target, parsed->target) != 0) {
    status = RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "code object %u targets %s, but the capture targets %s",
                       capture->code_object_count, parsed->target,
                       capture->target);
  }
  char* target = NULL;
  if (!status && !capture->target) {
    target = rl_strdup(parsed->target);
    if (!target) status = rl_status_out_of_memory();
  }
  uint8_t* bytes = NULL;
  if (!status) {
    bytes = malloc(size ? size : 1);
    if (!bytes) status = rl_status_out_of_memory();
  }
  if (!status) {
    status = RL_ARRAY_RESERVE(&capture->code_objects,
                              &capture->code_object_capacity,
                              capture->code_object_count + 1);
  }
  if (status) {
    free(target);
    free(bytes);
    rl_code_object_destroy(parsed);
    return status;
  }
  memcpy(bytes, data, size);
  if (target) {
    capture->target = target;
    rl_code_object_target(parsed, &capture->typed_target);
  }
  rl_capture_code_object_t* entry =
      &capture->code_objects[capture->code_object_count];
  entry->bytes = bytes;
  entry->size = size;
  entry->digest = rl_digest128_of(bytes, size);
  entry->parsed = parsed;
  *out_index = capture->code_object_count++;
  return RL_OK;
}

rl_status_t rl_capture_add_kernel(rl_capture_t* capture, uint32_t code_object,
                                  const char* name, uint32_t* out_index) {
  if (!capture || !name || !out_index) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "add kernel: a capture, name and an output are required");
  }
  *out_index = UINT32_MAX;
  if (code_object >= capture->code_object_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "kernel %s refers to code object %u, but there are %u",
                     name ? name : "(null)", code_object,
                     capture->code_object_count);
  }
  RL_RETURN_IF_ERROR(rl_capture_check_symbol("kernel", name));
  const rl_code_object_kernel_t* info = rl_code_object_find_kernel(
      capture->code_objects[code_object].parsed, name);
  if (!info) {
    return RL_STATUS(RL_STATUS_NOT_FOUND, "code object %u has no kernel %s",
                     code_object, name);
  }
  for (uint32_t i = 0; i < capture->kernel_count; ++i) {
    if (capture->kernels[i].info == info) {
      *out_index = i;
      return RL_OK;
    }
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->kernels,
                                      &capture->kernel_capacity,
                                      capture->kernel_count + 1));
  char* copy = rl_strdup(info->name);
  if (!copy) return rl_status_out_of_memory();
  rl_capture_kernel_t* kernel = &capture->kernels[capture->kernel_count];
  kernel->code_object = code_object;
  kernel->name = copy;
  kernel->info = info;
  *out_index = capture->kernel_count++;
  return RL_OK;
}

rl_status_t rl_capture_add_buffer(rl_capture_t* capture,
                                  const rl_capture_buffer_t* buffer,
                                  uint32_t* out_index) {
  if (!capture || !buffer || !out_index) {
    return RL_STATUS(
        RL_STATUS_INVALID_ARGUMENT,
        "add buffer: a capture, buffer and an output are required");
  }
  *out_index = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_status_annotate(rl_capture_check_buffer(buffer),
                                        "buffer %u", capture->buffer_count));
  RL_RETURN_IF_ERROR(
      rl_status_annotate(rl_capture_check_variable(capture, buffer),
                         "buffer %u", capture->buffer_count));
  uint32_t existing = 0;
  if (rl_capture_find_buffer(capture, buffer->name, &existing)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "buffer %u: name %s is already used by buffer %u",
                     capture->buffer_count, buffer->name, existing);
  }
  // Pointers are typed by the buffer holding their address, so capture
  // address ranges must be disjoint (rl_capture_validate checks it too).
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    const rl_capture_buffer_t* other = &capture->buffers[i];
    if (buffer->capture_address < other->capture_address + other->size &&
        other->capture_address < buffer->capture_address + buffer->size) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "buffer %u (%s) overlaps buffer %u (%s) at capture "
                       "addresses",
                       capture->buffer_count, buffer->name, i, other->name);
    }
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->buffers,
                                      &capture->buffer_capacity,
                                      capture->buffer_count + 1));
  rl_capture_buffer_t copy = *buffer;
  copy.name = rl_strdup(buffer->name);
  copy.initial = NULL;
  copy.symbol = buffer->symbol ? rl_strdup(buffer->symbol) : NULL;
  if (buffer->initial) copy.initial = malloc((size_t)buffer->size);
  if (!copy.name || (buffer->initial && !copy.initial) ||
      (buffer->symbol && !copy.symbol)) {
    free(copy.name);
    free(copy.initial);
    free(copy.symbol);
    return rl_status_out_of_memory();
  }
  if (buffer->initial) memcpy(copy.initial, buffer->initial, buffer->size);
  capture->buffers[capture->buffer_count] = copy;
  *out_index = capture->buffer_count++;
  return RL_OK;
}

rl_status_t rl_capture_add_param(rl_capture_t* capture,
                                 const rl_capture_param_t* param,
                                 uint32_t* out_index) {
  if (!capture || !param || !out_index) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "add param: a capture, param and an output are required");
  }
  *out_index = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_status_annotate(rl_capture_check_param(param),
                                        "parameter %u", capture->param_count));
  uint32_t existing = 0;
  if (rl_capture_find_param(capture, param->name, &existing)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "parameter %u: name %s is already used by parameter %u",
                     capture->param_count, param->name, existing);
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->params,
                                      &capture->param_capacity,
                                      capture->param_count + 1));
  rl_capture_param_t copy = *param;
  copy.name = rl_strdup(param->name);
  if (!copy.name) return rl_status_out_of_memory();
  capture->params[capture->param_count] = copy;
  *out_index = capture->param_count++;
  return RL_OK;
}

// Deep-copies the arrays of |launch| into |out_copy|.
static rl_status_t rl_capture_launch_copy(const rl_capture_launch_t* launch,
                                          rl_capture_launch_t* out_copy) {
  *out_copy = *launch;
  out_copy->kernarg = malloc(launch->kernarg_size ? launch->kernarg_size : 1);
  out_copy->slots =
      calloc(launch->slot_count ? launch->slot_count : 1, sizeof(*launch->slots));
  out_copy->bindings = calloc(launch->binding_count ? launch->binding_count : 1,
                              sizeof(*launch->bindings));
  if (!out_copy->kernarg || !out_copy->slots || !out_copy->bindings) {
    rl_capture_launch_deinit(out_copy);
    return rl_status_out_of_memory();
  }
  if (launch->kernarg_size) {
    memcpy(out_copy->kernarg, launch->kernarg, launch->kernarg_size);
  }
  if (launch->slot_count) {
    memcpy(out_copy->slots, launch->slots,
           launch->slot_count * sizeof(*launch->slots));
  }
  if (launch->binding_count) {
    memcpy(out_copy->bindings, launch->bindings,
           launch->binding_count * sizeof(*launch->bindings));
  }
  return RL_OK;
}

static void rl_capture_fault_slots(rl_capture_launch_t* launch,
                                   uint32_t index) {
  if (launch->slot_count > 1 && rl_test_fault("effect-shift", index)) {
    rl_effect_t first = launch->slots[0].effect;
    for (uint32_t s = 0; s + 1 < launch->slot_count; ++s) {
      launch->slots[s].effect = launch->slots[s + 1].effect;
    }
    launch->slots[launch->slot_count - 1].effect = first;
  }
  if (rl_test_fault("extent-shrink", index)) {
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      rl_pointer_slot_t* slot = &launch->slots[s];
      slot->extent_size = slot->extent_size > 4 ? slot->extent_size - 4 : 0;
    }
  }
}

void rl_capture_fault_effects(rl_capture_t* capture) {
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    rl_capture_fault_slots(&capture->launches[l], l);
  }
}

rl_status_t rl_capture_add_launch(rl_capture_t* capture,
                                  const rl_capture_launch_t* launch,
                                  uint32_t* out_index) {
  if (!capture || !launch || !out_index) {
    return RL_STATUS(
        RL_STATUS_INVALID_ARGUMENT,
        "add launch: a capture, launch and an output are required");
  }
  *out_index = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_status_annotate(
      rl_capture_check_launch(capture, launch), "launch %u",
      capture->launch_count));
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->launches,
                                      &capture->launch_capacity,
                                      capture->launch_count + 1));
  RL_RETURN_IF_ERROR(rl_capture_launch_copy(
      launch, &capture->launches[capture->launch_count]));
  *out_index = capture->launch_count++;
  return RL_OK;
}

rl_status_t rl_capture_add_region(rl_capture_t* capture,
                                  const rl_capture_region_t* region,
                                  uint32_t* out_index) {
  if (!capture || !region || !out_index) {
    return RL_STATUS(
        RL_STATUS_INVALID_ARGUMENT,
        "add region: a capture, region and an output are required");
  }
  *out_index = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_status_annotate(
      rl_capture_check_region(capture, region), "region %u",
      capture->region_count));
  for (uint32_t i = 0; i < capture->region_count; ++i) {
    if (strcmp(capture->regions[i].name, region->name) == 0) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "region %u: name %s is already used by region %u",
                       capture->region_count, region->name, i);
    }
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->regions,
                                      &capture->region_capacity,
                                      capture->region_count + 1));
  rl_capture_region_t copy = *region;
  copy.name = rl_strdup(region->name);
  if (!copy.name) return rl_status_out_of_memory();
  capture->regions[capture->region_count] = copy;
  *out_index = capture->region_count++;
  return RL_OK;
}

rl_status_t rl_capture_add_window(rl_capture_t* capture,
                                  const rl_capture_window_t* window,
                                  uint32_t* out_index) {
  if (!capture || !window || !out_index) {
    return RL_STATUS(
        RL_STATUS_INVALID_ARGUMENT,
        "add window: a capture, window and an output are required");
  }
  *out_index = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_status_annotate(
      rl_capture_check_window(capture, window), "window %u",
      capture->window_count));
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->windows,
                                      &capture->window_capacity,
                                      capture->window_count + 1));
  capture->windows[capture->window_count] = *window;
  *out_index = capture->window_count++;
  return RL_OK;
}

bool rl_capture_find_param(const rl_capture_t* capture, const char* name,
                           uint32_t* out_index) {
  if (!capture || !out_index) return false;
  for (uint32_t i = 0; name && i < capture->param_count; ++i) {
    if (strcmp(capture->params[i].name, name) == 0) {
      *out_index = i;
      return true;
    }
  }
  return false;
}

bool rl_capture_find_buffer(const rl_capture_t* capture, const char* name,
                            uint32_t* out_index) {
  if (!capture || !out_index) return false;
  for (uint32_t i = 0; name && i < capture->buffer_count; ++i) {
    if (strcmp(capture->buffers[i].name, name) == 0) {
      *out_index = i;
      return true;
    }
  }
  return false;
}
