// Whether a device runs a capture's kernels (redline/device/device_kernels.h).
#include "redline/device/device_kernels.h"

#include <stdbool.h>
#include <stdlib.h>

rl_status_t rl_device_check_capture_kernels(rl_device_t* device,
                                            const rl_capture_t* capture) {
  if (device->vtable->check_kernel == NULL || capture->kernel_count == 0) {
    return RL_OK;
  }
  bool* launched = calloc(capture->kernel_count, sizeof(bool));
  if (launched == NULL) return rl_status_out_of_memory();
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    uint32_t k = capture->launches[i].kernel;
    if (k < capture->kernel_count) launched[k] = true;
  }
  rl_status_t status = RL_OK;
  for (uint32_t k = 0; status == RL_OK && k < capture->kernel_count; ++k) {
    if (!launched[k]) continue;
    const rl_capture_kernel_t* kernel = &capture->kernels[k];
    const rl_capture_code_object_t* code =
        &capture->code_objects[kernel->code_object];
    status = device->vtable->check_kernel(device, code->bytes, code->size,
                                          code->parsed, kernel->info);
  }
  free(launched);
  return status;
}
