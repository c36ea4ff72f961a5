// The recording funnel (redline/funnel.h): lifecycle, code objects,
// buffers and their initial contents, parameters, regions and windows.
// Launches are in funnel_launch.c, the record-only device in
// funnel_device.c.
#include <stdlib.h>
#include <string.h>

#include "capture/model/capture_internal.h"
#include "capture/recording/funnel_internal.h"
#include "base/array.h"

// Zero-filling a new buffer goes through the device in chunks of this size,
// so registering a large buffer needs no host allocation of its size.
#define RL_FUNNEL_ZERO_CHUNK (1u << 20)

rl_status_t rl_funnel_check_open(const rl_funnel_t* funnel) {
  if (!funnel) return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "no funnel");
  if (funnel->finished) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "the funnel is finished and accepts no more calls");
  }
  return RL_OK;
}

static bool rl_funnel_device_complete(const rl_funnel_device_t* device) {
  return device && device->load_code_object && device->allocate &&
         device->write && device->read && device->launch;
}

rl_status_t rl_funnel_create(const char* workload,
                             const rl_funnel_device_t* device,
                             rl_funnel_t** out_funnel) {
  if (!workload || !out_funnel) {
    return RL_STATUS(
        RL_STATUS_INVALID_ARGUMENT,
        "funnel create: a workload name and an output are required");
  }
  *out_funnel = NULL;
  if (!rl_funnel_device_complete(device)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "the funnel needs a device with load_code_object, "
                     "allocate, write, read and launch functions");
  }
  rl_funnel_t* funnel = calloc(1, sizeof(*funnel));
  if (!funnel) return rl_status_out_of_memory();
  funnel->device = *device;
  rl_status_t status = rl_capture_create(workload, &funnel->capture);
  if (status) {
    free(funnel);
    return status;
  }
  *out_funnel = funnel;
  return RL_OK;
}

void rl_funnel_destroy(rl_funnel_t* funnel) {
  if (!funnel) return;
  rl_capture_destroy(funnel->capture);
  free(funnel->code_object_handles);
  free(funnel->param_first_binder);
  free(funnel);
}

const rl_capture_t* rl_funnel_capture(const rl_funnel_t* funnel) {
  return funnel ? funnel->capture : NULL;
}

// Removes the last code object again (the device refused it).
static void rl_funnel_pop_code_object(rl_capture_t* capture) {
  rl_capture_code_object_t* entry =
      &capture->code_objects[--capture->code_object_count];
  free(entry->bytes);
  rl_code_object_destroy(entry->parsed);
  memset(entry, 0, sizeof(*entry));
  if (capture->code_object_count == 0) {
    free(capture->target);
    capture->target = NULL;
    memset(&capture->typed_target, 0, sizeof(capture->typed_target));
  }
}

rl_status_t rl_funnel_load_code_object(rl_funnel_t* funnel, const void* bytes,
                                       size_t size, uint32_t* out_code_object) {
  if (!out_code_object) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel: no output");
  }
  *out_code_object = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  rl_capture_t* capture = funnel->capture;
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&funnel->code_object_handles,
                                      &funnel->code_object_handle_capacity,
                                      capture->code_object_count + 1));
  uint32_t index = 0;
  RL_RETURN_IF_ERROR(rl_capture_add_code_object(capture, bytes, size, &index));
  uint64_t handle = 0;
  rl_status_t status = funnel->device.load_code_object(funnel->device.self,
                                                       bytes, size, &handle);
  if (status) {
    rl_funnel_pop_code_object(capture);
    return rl_status_annotate(status, "device load of code object %u", index);
  }
  funnel->code_object_handles[index] = handle;
  *out_code_object = index;
  return RL_OK;
}

rl_status_t rl_funnel_kernel(rl_funnel_t* funnel, uint32_t code_object,
                             const char* name, uint32_t* out_kernel) {
  if (!out_kernel) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel: no output");
  }
  *out_kernel = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  return rl_capture_add_kernel(funnel->capture, code_object, name, out_kernel);
}

// Writes zeros over [address, address + size) through the device.
static rl_status_t rl_funnel_zero_fill(rl_funnel_t* funnel, uint64_t address,
                                       uint64_t size) {
  size_t chunk = size < RL_FUNNEL_ZERO_CHUNK ? (size_t)size
                                             : RL_FUNNEL_ZERO_CHUNK;
  uint8_t* zeros = calloc(chunk ? chunk : 1, 1);
  if (!zeros) return rl_status_out_of_memory();
  rl_status_t status = RL_OK;
  for (uint64_t done = 0; !status && done < size; done += chunk) {
    uint64_t length = size - done < chunk ? size - done : chunk;
    status = funnel->device.write(funnel->device.self, address + done, zeros,
                                  length);
  }
  free(zeros);
  return status;
}

rl_status_t rl_funnel_buffer(rl_funnel_t* funnel, const char* name,
                             uint64_t size, uint64_t alignment,
                             rl_buffer_role_t role, bool keep_address,
                             uint32_t* out_buffer, uint64_t* out_address) {
  if (!name) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel buffer: no name");
  }
  if (!out_buffer || !out_address) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel: no output");
  }
  *out_buffer = UINT32_MAX;
  *out_address = 0;
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  rl_capture_buffer_t buffer = {
      .name = (char*)name, .size = size, .alignment = alignment,
      .role = role, .keep_address = keep_address};
  // Everything the model can reject is checked before device memory is
  // taken (address 0 is aligned to anything).
  RL_RETURN_IF_ERROR(rl_capture_check_buffer(&buffer));
  uint32_t existing = 0;
  if (rl_capture_find_buffer(funnel->capture, name, &existing)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "buffer name %s is already used by buffer %u", name,
                     existing);
  }
  RL_RETURN_IF_ERROR(rl_status_annotate(
      funnel->device.allocate(funnel->device.self, size, alignment,
                              &buffer.capture_address),
      "device allocation of buffer %s (%llu bytes)", name,
      (unsigned long long)size));
  RL_RETURN_IF_ERROR(rl_status_annotate(
      rl_funnel_zero_fill(funnel, buffer.capture_address, size),
      "zero-filling buffer %s", name));
  RL_RETURN_IF_ERROR(
      rl_capture_add_buffer(funnel->capture, &buffer, out_buffer));
  *out_address = buffer.capture_address;
  return RL_OK;
}

rl_status_t rl_funnel_keep_address(rl_funnel_t* funnel, uint32_t buffer) {
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  if (buffer >= funnel->capture->buffer_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "funnel: no buffer %u to keep at its address", buffer);
  }
  funnel->capture->buffers[buffer].keep_address = true;
  return RL_OK;
}

rl_status_t rl_funnel_variable(rl_funnel_t* funnel, const char* name,
                               uint32_t code_object, const char* symbol,
                               uint64_t address, rl_buffer_role_t role,
                               uint32_t* out_buffer) {
  if (!out_buffer) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel: no output");
  }
  *out_buffer = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  const rl_capture_t* capture = funnel->capture;
  const rl_code_object_variable_t* variable =
      code_object < capture->code_object_count
          ? rl_code_object_find_variable(
                capture->code_objects[code_object].parsed, symbol)
          : NULL;
  if (!variable) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "buffer %s: code object %u has no variable %s (unknown "
                     "symbol)",
                     name, code_object, symbol ? symbol : "(null)");
  }
  // The largest power of two up to 256 dividing the address: a variable's
  // alignment is not in the symbol table, and no route allocates it.
  uint64_t alignment = 1;
  while (alignment < 256 && address % (alignment * 2) == 0) alignment *= 2;
  rl_capture_buffer_t buffer = {
      .name = (char*)name, .size = variable->size, .alignment = alignment,
      .role = role, .capture_address = address, .code_object = code_object,
      .symbol = (char*)symbol};
  return rl_capture_add_buffer(funnel->capture, &buffer, out_buffer);
}

// Checks that [offset, offset + size) lies inside buffer |index|.
static rl_status_t rl_funnel_check_range(const rl_funnel_t* funnel,
                                         uint32_t index, uint64_t offset,
                                         uint64_t size, const void* data) {
  const rl_capture_t* capture = funnel->capture;
  if (index >= capture->buffer_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "buffer %u of %u", index,
                     capture->buffer_count);
  }
  const rl_capture_buffer_t* buffer = &capture->buffers[index];
  if (offset > buffer->size || size > buffer->size - offset ||
      (size && !data)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "bytes [%llu, +%llu) are outside buffer %s of %llu "
                     "bytes (or no host data)",
                     (unsigned long long)offset, (unsigned long long)size,
                     buffer->name, (unsigned long long)buffer->size);
  }
  return RL_OK;
}

rl_status_t rl_funnel_upload(rl_funnel_t* funnel, uint32_t buffer,
                             uint64_t offset, const void* data, uint64_t size) {
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  RL_RETURN_IF_ERROR(rl_funnel_check_range(funnel, buffer, offset, size, data));
  if (buffer < funnel->first_pending_buffer) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "buffer %s already has recorded initial contents (a "
                     "launch has been issued since it was registered); a "
                     "host write now could not be replayed",
                     funnel->capture->buffers[buffer].name);
  }
  uint64_t address = funnel->capture->buffers[buffer].capture_address + offset;
  return rl_status_annotate(
      funnel->device.write(funnel->device.self, address, data, size),
      "device write to buffer %s", funnel->capture->buffers[buffer].name);
}

rl_status_t rl_funnel_read(rl_funnel_t* funnel, uint32_t buffer,
                           uint64_t offset, void* data, uint64_t size) {
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  RL_RETURN_IF_ERROR(rl_funnel_check_range(funnel, buffer, offset, size, data));
  uint64_t address = funnel->capture->buffers[buffer].capture_address + offset;
  return rl_status_annotate(
      funnel->device.read(funnel->device.self, address, data, size),
      "device read of buffer %s", funnel->capture->buffers[buffer].name);
}

rl_status_t rl_funnel_param(rl_funnel_t* funnel, const char* name, int64_t min,
                            int64_t max, int64_t value, uint32_t* out_param) {
  if (!name) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel parameter: no name");
  }
  if (!out_param) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel: no output");
  }
  *out_param = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  uint32_t count = funnel->capture->param_count;
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&funnel->param_first_binder,
                                      &funnel->param_binder_capacity,
                                      count + 1));
  rl_capture_param_t param = {
      .name = (char*)name, .min = min, .max = max, .capture_value = value};
  RL_RETURN_IF_ERROR(rl_capture_add_param(funnel->capture, &param, out_param));
  funnel->param_first_binder[*out_param] = UINT32_MAX;
  return RL_OK;
}

rl_status_t rl_funnel_set_param(rl_funnel_t* funnel, uint32_t param,
                                int64_t value) {
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  rl_capture_t* capture = funnel->capture;
  if (param >= capture->param_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "parameter %u of %u", param,
                     capture->param_count);
  }
  rl_capture_param_t* entry = &capture->params[param];
  if (value == entry->capture_value) return RL_OK;
  if (funnel->param_first_binder[param] != UINT32_MAX) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "parameter %s is bound by launch %u, recorded at %lld; a "
                     "capture holds one value per parameter",
                     entry->name, funnel->param_first_binder[param],
                     (long long)entry->capture_value);
  }
  rl_capture_param_t changed = *entry;
  changed.capture_value = value;
  RL_RETURN_IF_ERROR(rl_capture_check_param(&changed));
  entry->capture_value = value;
  return RL_OK;
}

rl_status_t rl_funnel_region(rl_funnel_t* funnel, const char* name,
                             uint32_t buffer, uint64_t offset, uint64_t size,
                             rl_region_type_t type, uint32_t* out_region) {
  if (!name) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel region: no name");
  }
  if (!out_region) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel: no output");
  }
  *out_region = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  rl_capture_region_t region = {.name = (char*)name, .buffer = buffer,
                                .offset = offset, .size = size, .type = type};
  return rl_capture_add_region(funnel->capture, &region, out_region);
}

rl_status_t rl_funnel_window(rl_funnel_t* funnel, uint32_t param,
                             int64_t start, uint32_t count, int64_t stride,
                             uint32_t* out_window) {
  if (!out_window) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel: no output");
  }
  *out_window = UINT32_MAX;
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  rl_capture_window_t window = {
      .param = param, .start = start, .count = count, .stride = stride};
  return rl_capture_add_window(funnel->capture, &window, out_window);
}

void rl_funnel_free_snapshots(uint8_t** snapshots, uint32_t count) {
  for (uint32_t i = 0; snapshots && i < count; ++i) free(snapshots[i]);
  free(snapshots);
}

rl_status_t rl_funnel_snapshot_pending(rl_funnel_t* funnel,
                                       uint8_t*** out_snapshots) {
  *out_snapshots = NULL;
  const rl_capture_t* capture = funnel->capture;
  uint32_t first = funnel->first_pending_buffer;
  uint32_t count = capture->buffer_count - first;
  if (count == 0) return RL_OK;
  uint8_t** snapshots = calloc(count, sizeof(*snapshots));
  if (!snapshots) return rl_status_out_of_memory();
  for (uint32_t i = 0; i < count; ++i) {
    const rl_capture_buffer_t* buffer = &capture->buffers[first + i];
    snapshots[i] = malloc((size_t)buffer->size);
    rl_status_t status = snapshots[i] ? RL_OK : rl_status_out_of_memory();
    if (!status) {
      status = rl_status_annotate(
          funnel->device.read(funnel->device.self, buffer->capture_address,
                              snapshots[i], buffer->size),
          "reading the initial contents of buffer %s", buffer->name);
    }
    if (status) {
      rl_funnel_free_snapshots(snapshots, count);
      return status;
    }
  }
  *out_snapshots = snapshots;
  return RL_OK;
}

void rl_funnel_commit_snapshots(rl_funnel_t* funnel, uint8_t** snapshots) {
  rl_capture_t* capture = funnel->capture;
  if (!snapshots) return;
  for (uint32_t i = funnel->first_pending_buffer; i < capture->buffer_count;
       ++i) {
    capture->buffers[i].initial = snapshots[i - funnel->first_pending_buffer];
  }
  funnel->first_pending_buffer = capture->buffer_count;
  free(snapshots);
}

rl_status_t rl_funnel_finish(rl_funnel_t* funnel, rl_capture_t** out_capture) {
  if (!out_capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "funnel finish: no output");
  }
  *out_capture = NULL;
  RL_RETURN_IF_ERROR(rl_funnel_check_open(funnel));
  funnel->finished = true;
  uint8_t** snapshots = NULL;
  RL_RETURN_IF_ERROR(rl_funnel_snapshot_pending(funnel, &snapshots));
  rl_funnel_commit_snapshots(funnel, snapshots);
  RL_RETURN_IF_ERROR(rl_status_annotate(
      rl_capture_validate(funnel->capture), "finishing the capture of %s",
      funnel->capture->workload));
  *out_capture = funnel->capture;
  funnel->capture = NULL;
  return RL_OK;
}
