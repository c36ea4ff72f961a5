// capture/interposer/interposer_load.c — code objects, kernels, allocations
// (capture/interposer/interposer_internal.h).
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "base/array.h"
#include "base/file.h"
#include "base/number.h"
#include "redline/capture_file.h"
#include "redline/offload_bundle.h"

//===----------------------------------------------------------------------===//
// Interposed entry points
//===----------------------------------------------------------------------===//

// Names why the code object of |module| was not recorded (for its
// launches' INCOMPLETE note) and prints it; frees |status|.
static void rl_ip_module_failed(rl_interposer_t* ip, hipModule_t module,
                                const char* what, rl_status_t status) {
  rl_ip_unseen(ip, module, NULL, NULL, "its code object (%s) was not recorded: %s",
               what, rl_status_message(status));
  rl_ip_fail(status, what);
}

// The reason a kernel of |module| named |name| cannot be recorded when its
// code object was not: what was kept for the module, else that it was
// loaded before or outside the interposer.
static const char* rl_ip_module_why(const rl_interposer_t* ip,
                                    hipModule_t module) {
  const char* why = rl_ip_unseen_why(ip, module, NULL, NULL);
  return why ? why : "its code object was not seen loaded";
}

// Records the |size|-byte code object |image| the runtime loaded as
// |module|; lock held, recording on.
static void rl_ip_record_code_object(rl_interposer_t* ip, hipModule_t module,
                                     const void* image, size_t size,
                                     const char* what) {
  if (ip->module_count == 64) {
    rl_ip_unseen(ip, module, NULL, NULL,
                 "its code object (%s) is past the 64 the interposer records",
                 what);
    return;
  }
  rl_ip_module_t* m = &ip->modules[ip->module_count];
  ip->pending_handle = ip->module_count;
  rl_status_t status = rl_code_object_parse(image, size, &m->parsed);
  if (!status) {
    status =
        rl_funnel_load_code_object(ip->funnel, image, size, &m->code_object);
  }
  if (status) {
    rl_ip_module_failed(ip, module, what, status);
    rl_code_object_destroy(m->parsed);
    m->parsed = NULL;
    return;
  }
  m->module = module;
  m->fat_binary = strcmp(what, "__hipRegisterFatBinary") == 0;
  m->variables_recorded = false;
  ++ip->module_count;
}

RL_IP_EXPORT hipError_t hipModuleLoadData(hipModule_t* module,
                                          const void* image) {
  RL_IP_ENTER();
  RL_IP_REAL(hipModuleLoadData);
  if (!real_hipModuleLoadData) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipModuleLoadData(module, image);
  if (error || !rl_ip_on) return rl_ip_leave(error);
  const uint8_t* bytes = image;
  uint64_t shoff = 0;
  uint16_t shentsize = 0, shnum = 0;
  memcpy(&shoff, bytes + 0x28, 8);
  memcpy(&shentsize, bytes + 0x3A, 2);
  memcpy(&shnum, bytes + 0x3C, 2);
  size_t size = (size_t)(shoff + (uint64_t)shentsize * shnum);
  rl_ip_record_code_object(ip, *module, image, size, "hipModuleLoadData");
  return rl_ip_leave(error);
}

// Reads the whole file |path| into a malloc'd buffer (base/file.h);
// NULL on failure or when it is too short to be a code object.
static uint8_t* rl_ip_read_file(const char* path, size_t* out_size) {
  uint8_t* bytes = NULL;
  rl_status_t status = rl_file_read_regular(path, &bytes, out_size);
  if (status || *out_size < 64) {
    rl_status_free(status);
    free(bytes);
    *out_size = 0;
    return NULL;
  }
  return bytes;
}

// hipModuleLoad: the runtime reads the file; the interposer reads the same
// file after it and records the code object in it: the file itself when it
// is an ELF, else the entry for the device's processor when it is a clang
// offload bundle (what hipcc --genco writes). A module it cannot record is
// named on stderr; its launches then mark an open window incomplete.
RL_IP_EXPORT hipError_t hipModuleLoad(hipModule_t* module, const char* fname) {
  RL_IP_ENTER();
  RL_IP_REAL(hipModuleLoad);
  if (!real_hipModuleLoad) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipModuleLoad(module, fname);
  if (error || !rl_ip_on) return rl_ip_leave(error);
  size_t size = 0;
  uint8_t* bytes = rl_ip_read_file(fname, &size);
  const void* code = bytes;
  uint64_t code_size = size;
  rl_status_t status =
      bytes ? RL_OK
            : RL_STATUS(RL_STATUS_INVALID_INPUT, "cannot read '%s'", fname);
  if (!status && size >= 24 &&
      memcmp(bytes, RL_OFFLOAD_BUNDLE_MAGIC, 24) == 0) {
    char processor[64];
    const rl_hip_fatbin_wrapper_t wrapper = {.magic = RL_HIP_FATBIN_MAGIC,
                                             .version = RL_HIP_FATBIN_VERSION,
                                             .binary = bytes};
    status = rl_ip_processor(ip, processor, sizeof(processor))
                 ? rl_hip_fatbin_find(&wrapper, processor, &code, &code_size)
                 : RL_STATUS(RL_STATUS_UNAVAILABLE,
                             "hipGetDeviceProperties gave no gcnArchName");
  }
  if (status) {
    rl_ip_module_failed(ip, *module, "hipModuleLoad", status);
  } else {
    rl_ip_record_code_object(ip, *module, code, (size_t)code_size,
                             "hipModuleLoad");
  }
  free(bytes);
  return rl_ip_leave(error);
}

RL_IP_EXPORT hipError_t hipModuleGetFunction(hipFunction_t* function,
                                             hipModule_t module,
                                             const char* name) {
  RL_IP_ENTER();
  RL_IP_REAL(hipModuleGetFunction);
  if (!real_hipModuleGetFunction) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipModuleGetFunction(function, module, name);
  if (error || !rl_ip_on) return rl_ip_leave(error);
  rl_ip_module_t* m = rl_ip_module_find(ip, module);
  const char* shown = name ? name : "(null)";
  if (!m) {
    rl_ip_unseen(ip, NULL, *function, NULL, "kernel '%.200s' (hipModuleGetFunction): %s",
                 shown, rl_ip_module_why(ip, module));
    return rl_ip_leave(error);
  }
  if (ip->function_count == 256) {
    rl_ip_unseen(ip, NULL, *function, NULL,
                 "kernel '%.200s' (hipModuleGetFunction): past the 256 kernels "
                 "the interposer records",
                 shown);
    return rl_ip_leave(error);
  }
  rl_ip_function_t* f = &ip->functions[ip->function_count];
  const rl_code_object_kernel_t* info =
      name ? rl_code_object_find_kernel(m->parsed, name) : NULL;
  rl_status_t status =
      info ? rl_funnel_kernel(ip->funnel, m->code_object, name, &f->kernel)
           : RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "not in the metadata of code object %u",
                       (unsigned)(m - ip->modules));
  if (status) {
    rl_ip_unseen(ip, NULL, *function, NULL,
                 "kernel '%.200s' (hipModuleGetFunction): %s", shown,
                 rl_status_message(status));
    char what[256];
    snprintf(what, sizeof(what), "hipModuleGetFunction(%.200s)", shown);
    rl_ip_fail(status, what);
    return rl_ip_leave(error);
  }
  f->function = *function;
  f->host = NULL;
  f->module = (uint32_t)(m - ip->modules);
  f->info = info;
  ++ip->function_count;
  return rl_ip_leave(error);
}

// The recorded module loaded as |module|, or NULL.
rl_ip_module_t* rl_ip_module_find(rl_interposer_t* ip,
                                         hipModule_t module) {
  for (uint32_t m = 0; m < ip->module_count; ++m) {
    if (ip->modules[m].module == module) return &ip->modules[m];
  }
  return NULL;
}

// Not in HIP's C headers: clang's host code declares them itself. The
// handle types are opaque here (hip::FatBinaryInfo** in ROCm/clr
// hipamd/src/hip_platform.cpp).
void** __hipRegisterFatBinary(const void* data);

void __hipRegisterFunction(void** modules, const void* hostFunction,
                           char* deviceFunction, const char* deviceName,
                           unsigned int threadLimit, void* tid, void* bid,
                           void* blockDim, void* gridDim, int* wSize);

// The processor of device 0 ("gfx1100"), from gcnArchName without its
// target-id features (":sramecc+:xnack-"); false when the runtime says none.
bool rl_ip_processor(rl_interposer_t* ip, char* out, size_t capacity) {
  RL_IP_REAL(hipGetDeviceProperties);
  hipDeviceProp_t props;
  if (!real_hipGetDeviceProperties || real_hipGetDeviceProperties(&props, 0)) {
    return false;
  }
  props.gcnArchName[sizeof(props.gcnArchName) - 1] = '\0';
  snprintf(out, capacity, "%.*s", (int)strcspn(props.gcnArchName, ":"),
           props.gcnArchName);
  return out[0] != '\0';
}

RL_IP_EXPORT void** __hipRegisterFatBinary(const void* data) {
  RL_IP_ENTER();
  RL_IP_REAL(__hipRegisterFatBinary);
  void** modules =
      real___hipRegisterFatBinary ? real___hipRegisterFatBinary(data) : NULL;
  if (!modules || !rl_ip_on) {
    rl_ip_leave(hipSuccess);
    return modules;
  }
  char processor[64];
  const void* code = NULL;
  uint64_t size = 0;
  rl_status_t status =
      rl_ip_processor(ip, processor, sizeof(processor))
          ? rl_hip_fatbin_find(data, processor, &code, &size)
          : RL_STATUS(RL_STATUS_UNAVAILABLE,
                      "hipGetDeviceProperties gave no gcnArchName");
  if (status) {
    rl_ip_module_failed(ip, (hipModule_t)modules, "__hipRegisterFatBinary",
                        status);
  } else {
    rl_ip_record_code_object(ip, (hipModule_t)modules, code, (size_t)size,
                             "__hipRegisterFatBinary");
  }
  rl_ip_leave(hipSuccess);
  return modules;
}

RL_IP_EXPORT void __hipRegisterFunction(
    void** modules, const void* hostFunction, char* deviceFunction,
    const char* deviceName, unsigned int threadLimit, void* tid, void* bid,
    void* blockDim, void* gridDim, int* wSize) {
  RL_IP_ENTER();
  RL_IP_REAL(__hipRegisterFunction);
  if (real___hipRegisterFunction) {
    real___hipRegisterFunction(modules, hostFunction, deviceFunction,
                               deviceName, threadLimit, tid, bid, blockDim,
                               gridDim, wSize);
  }
  if (!rl_ip_on || !hostFunction) {
    rl_ip_leave(hipSuccess);
    return;
  }
  rl_ip_module_t* m = rl_ip_module_find(ip, (hipModule_t)modules);
  const char* shown = deviceName ? deviceName : "(null)";
  if (!m) {
    rl_ip_unseen(ip, NULL, NULL, hostFunction,
                 "kernel '%.200s' (__hipRegisterFunction): %s", shown,
                 rl_ip_module_why(ip, (hipModule_t)modules));
    rl_ip_leave(hipSuccess);
    return;
  }
  if (ip->function_count == 256) {
    rl_ip_unseen(ip, NULL, NULL, hostFunction,
                 "kernel '%.200s' (__hipRegisterFunction): past the 256 "
                 "kernels the interposer records",
                 shown);
    rl_ip_leave(hipSuccess);
    return;
  }
  const rl_code_object_kernel_t* info =
      deviceName ? rl_code_object_find_kernel(m->parsed, deviceName) : NULL;
  rl_ip_function_t* f = &ip->functions[ip->function_count];
  rl_status_t status =
      info ? rl_funnel_kernel(ip->funnel, m->code_object, deviceName,
                              &f->kernel)
           : RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "not in the metadata of code object %u",
                       (unsigned)(m - ip->modules));
  if (status) {
    rl_ip_unseen(ip, NULL, NULL, hostFunction,
                 "kernel '%.200s' (__hipRegisterFunction): %s", shown,
                 rl_status_message(status));
    char what[256];
    snprintf(what, sizeof(what), "__hipRegisterFunction(%.200s)", shown);
    rl_ip_fail(status, what);
  } else {
    *f = (rl_ip_function_t){.host = hostFunction,
                            .module = (uint32_t)(m - ip->modules),
                            .kernel = f->kernel,
                            .info = info};
    ++ip->function_count;
  }
  rl_ip_leave(hipSuccess);
}

// Records the device allocation |ptr| of |size| bytes that |call| made as
// buffer "bufN". After the window (a step capture held for --verify-steps)
// nothing recorded can use a new allocation.
static void rl_ip_device_record(rl_interposer_t* ip, void* ptr, size_t size,
                                const char* call) {
  if (!ptr || ip->buffer_count == RL_IP_MAX || ip->window_closed) return;
  rl_ip_buffer_t* b = &ip->buffers[ip->buffer_count];
  char name[32];
  snprintf(name, sizeof(name), "buf%u", ip->buffer_count);
  ip->pending_address = (uint64_t)(uintptr_t)ptr;
  uint64_t address = 0;
  rl_status_t status =
      rl_funnel_buffer(ip->funnel, name, size, 256, RL_BUFFER_ROLE_STATE, false,
                       &b->index, &address);
  if (status) {
    rl_ip_fail(status, call);
    if (ip->window_open) rl_ip_note(ip, 0, "an allocation was not recorded");
    return;
  }
  b->base = ptr;
  b->size = size;
  ++ip->buffer_count;
}

RL_IP_EXPORT hipError_t hipMalloc(void** ptr, size_t size) {
  RL_IP_ENTER();
  RL_IP_REAL(hipMalloc);
  if (!real_hipMalloc) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipMalloc(ptr, size);
  if (!error && rl_ip_on) rl_ip_device_record(ip, *ptr, size, "hipMalloc");
  return rl_ip_leave(error);
}

// Pitched memory (a 2-D kernel's rows, a Pitch2D texture's image): the
// runtime allocates it inside, so it is recorded here, |*pitch| x |height|
// bytes as the runtime answered.
RL_IP_EXPORT hipError_t hipMallocPitch(void** ptr, size_t* pitch,
                                       size_t width, size_t height) {
  RL_IP_ENTER();
  RL_IP_REAL(hipMallocPitch);
  if (!real_hipMallocPitch) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipMallocPitch(ptr, pitch, width, height);
  if (!error && rl_ip_on && *pitch && height) {
    rl_ip_device_record(ip, *ptr, *pitch * height, "hipMallocPitch");
  }
  return rl_ip_leave(error);
}

RL_IP_EXPORT hipError_t hipFree(void* ptr) {
  RL_IP_ENTER();
  RL_IP_REAL(hipFree);
  if (!real_hipFree) return rl_ip_leave(hipErrorNotSupported);
  rl_ip_buffer_t* b =
      rl_ip_on ? rl_ip_buffer_at(ip, (uint64_t)(uintptr_t)ptr) : NULL;
  if (!b || b->base != ptr) return rl_ip_leave(real_hipFree(ptr));
  // Kept allocated until the capture is written (no address reuse).
  // An error only if a later recorded launch uses it (rl_ip_mark_used).
  b->freed = true;
  return rl_ip_leave(hipSuccess);
}
