// redline/backends/rocr_loader.c — code objects on the rocr device: a ROCr
// executable per code object, kernel objects from the `.kd` symbols and
// the load base the engine adds descriptor addresses to (rocr_device.h
// "Code objects").
#include <stdio.h>
#include <string.h>

#include "base/array.h"
#include "redline/backends/rocr_internal.h"

// Reader, executable, load and freeze: ROCr's loader applies relocations
// and places the image on the agent.
static rl_status_t rl_rocr_executable_build(rl_rocr_device_t* device,
                                            const void* bytes, size_t size,
                                            rl_rocr_code_object_t* object) {
  const rl_hsa_api_t* api = &device->api;
  RL_RETURN_IF_ERROR(RL_HSA_CALL(api, hsa_code_object_reader_create_from_memory,
                                 bytes, size, &object->reader));
  rl_status_t status = RL_HSA_CALL(
      api, hsa_executable_create_alt, device->profile,
      HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &object->executable);
  if (status) {
    api->fn.hsa_code_object_reader_destroy(object->reader);
    return status;
  }
  status = RL_HSA_CALL(api, hsa_executable_load_agent_code_object,
                       object->executable, device->gpu, object->reader, NULL,
                       NULL);
  if (!status) {
    status = RL_HSA_CALL(api, hsa_executable_freeze, object->executable, NULL);
  }
  if (status) {
    api->fn.hsa_executable_destroy(object->executable);
    api->fn.hsa_code_object_reader_destroy(object->reader);
  }
  return status;
}

// The kernel object of |kernel| (its `.kd` symbol) in |object|.
static rl_status_t rl_rocr_kernel_object(rl_rocr_device_t* device,
                                         const rl_rocr_code_object_t* object,
                                         const rl_code_object_kernel_t* kernel,
                                         uint64_t* out_kernel_object) {
  const rl_hsa_api_t* api = &device->api;
  *out_kernel_object = 0;
  hsa_executable_symbol_t symbol = {0};
  RL_RETURN_IF_ERROR(rl_status_annotate(
      RL_HSA_CALL(api, hsa_executable_get_symbol_by_name, object->executable,
                  kernel->symbol, &device->gpu, &symbol),
      "kernel %s", kernel->name));
  return rl_status_annotate(
      RL_HSA_CALL(api, hsa_executable_symbol_get_info, symbol,
                  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, out_kernel_object),
      "kernel %s", kernel->symbol);
}

// load_base = kernel object - descriptor_address, identical for every
// kernel of the code object.
static rl_status_t rl_rocr_load_base(rl_rocr_device_t* device,
                                     const rl_rocr_code_object_t* object,
                                     const rl_code_object_t* parsed,
                                     uint64_t* out_load_base) {
  *out_load_base = 0;
  for (uint32_t k = 0; k < parsed->kernel_count; ++k) {
    const rl_code_object_kernel_t* kernel = &parsed->kernels[k];
    uint64_t kernel_object = 0;
    RL_RETURN_IF_ERROR(
        rl_rocr_kernel_object(device, object, kernel, &kernel_object));
    uint64_t base = kernel_object - kernel->descriptor_address;
    if (k == 0) {
      *out_load_base = base;
    } else if (base != *out_load_base) {
      return RL_STATUS(RL_STATUS_INTERNAL,
                       "rocr: kernel %s: kernel object 0x%llx is not load "
                       "base 0x%llx + descriptor address 0x%llx; the loader "
                       "did not place the image contiguously",
                       kernel->name, (unsigned long long)kernel_object,
                       (unsigned long long)*out_load_base,
                       (unsigned long long)kernel->descriptor_address);
    }
  }
  return RL_OK;
}

rl_status_t rl_rocr_load_code_object(rl_device_t* base, const void* bytes,
                                     size_t size,
                                     const rl_code_object_t* parsed,
                                     rl_device_code_object_t* out_code_object) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  memset(out_code_object, 0, sizeof(*out_code_object));
  if (!parsed || strcmp(parsed->processor, device->processor) != 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "rocr: code object for %s on a %s agent",
                     parsed ? parsed->processor : "(unparsed)",
                     device->processor);
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&device->code_objects,
                                      &device->code_object_capacity,
                                      device->code_object_count + 1));
  rl_rocr_code_object_t object = {0};
  RL_RETURN_IF_ERROR(rl_rocr_executable_build(device, bytes, size, &object));
  uint64_t load_base = 0;
  rl_status_t status = rl_rocr_load_base(device, &object, parsed, &load_base);
  if (status) {
    device->api.fn.hsa_executable_destroy(object.executable);
    device->api.fn.hsa_code_object_reader_destroy(object.reader);
    return status;
  }
  object.live = true;
  object.load_base = load_base;
  object.image_size = parsed->image_size;
  device->code_objects[device->code_object_count++] = object;
  *out_code_object = (rl_device_code_object_t){
      .load_base = load_base,
      .image_size = parsed->image_size,
      .handle = device->code_object_count,  // index + 1; 0 is never valid
  };
  return RL_OK;
}

rl_status_t rl_rocr_unload_code_object(
    rl_device_t* base, const rl_device_code_object_t* code_object) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  uint64_t handle = code_object ? code_object->handle : 0;
  if (handle == 0 || handle > device->code_object_count ||
      !device->code_objects[handle - 1].live) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "rocr: code object %llu is not loaded",
                     (unsigned long long)handle);
  }
  rl_rocr_code_object_t* object = &device->code_objects[handle - 1];
  object->live = false;
  rl_status_t status = RL_HSA_CALL(&device->api, hsa_executable_destroy,
                                   object->executable);
  return rl_status_join(status,
                        RL_HSA_CALL(&device->api,
                                    hsa_code_object_reader_destroy,
                                    object->reader));
}

rl_status_t rl_rocr_loader_release_all(rl_rocr_device_t* device) {
  rl_status_t status = RL_OK;
  for (uint32_t i = 0; i < device->code_object_count; ++i) {
    if (!device->code_objects[i].live) continue;
    rl_device_code_object_t code = {.handle = i + 1};
    status = rl_status_join(status,
                            rl_rocr_unload_code_object(&device->base, &code));
  }
  return status;
}
