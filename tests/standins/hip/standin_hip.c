// tests/standins/hip/standin_hip.c — a stand-in for HIP's libamdhip64.so.6,
// built for tests only, over redline's simulated GPU (redline/sim/sim.h).
// Selected only through REDLINE_HIP_LIBRARY=PATH (or the RUNPATH of the
// test program linked against it): never installed nor on the default
// search path. The definitions use the real prototypes of Debian's
// hip/hip_runtime_api.h (compiled with __HIP_PLATFORM_AMD__), so they are
// type-checked against the header.
//
// How it maps onto the simulator (one sim device, created by the first
// call that needs it):
//   device      one GPU whose ISA is $REDLINE_STANDIN_ISA (default
//               amdgcn-amd-amdhsa--gfx1100), reference executor;
//   memory      hipMalloc is a sim DEVICE allocation: the pointer returned
//               is a *sim device address* the host cannot dereference;
//               hipMemcpy translates (hipMemcpyDefault: a pointer inside a
//               live allocation is device memory, anything else host);
//   modules     hipModuleLoadData parses the code object and loads it with
//               the sim loader (through the device-funnel adapter of
//               redline/device/device_funnel.h); hipModuleGetFunction finds
//               the kernel in its metadata;
//   launches    hipModuleLaunchKernel assembles the kernarg (below) and
//               appends the launch to its stream; a stream runs its pending
//               launches in order — one AQL kernel-dispatch packet each on
//               the adapter's sim queue, barrier bit set — when it is
//               synchronised (hipStreamSynchronize, hipDeviceSynchronize,
//               and the synchronous hipMemcpy/hipFree/hipMemGetAddressRange
//               which drain every stream first). So completion is
//               stream-ordered and a launch is "in flight" until then;
//   kernargs    kernelParams form: explicit argument i is copied from
//               kernelParams[i] (its metadata size) to its metadata offset.
//               extra form (HIP_LAUNCH_PARAM_BUFFER_POINTER/_SIZE/_END):
//               the buffer is copied as given (at most kernarg_segment_size
//               bytes). Either way hidden arguments not covered by the given
//               bytes are filled as HIP fills them (redline/funnel.h);
//   graphs      hipStreamBeginCapture turns the stream into a recorder:
//               launches are kept, not run; hipStreamEndCapture returns
//               them as a graph; hipGraphInstantiate copies the list and
//               hipGraphLaunch appends it to a stream;
//   fat binaries __hipRegisterFatBinary takes the wrapper clang's host code
//               emits (redline/offload_bundle.h), loads the bundle entry for
//               the device's processor as a module and returns the module as
//               the opaque "modules" handle; __hipRegisterFunction maps a
//               host stub to the named kernel of that module; hipLaunchKernel
//               launches the stub's kernel exactly as hipModuleLaunchKernel's
//               kernelParams form; __hipUnregisterFatBinary unloads the
//               module (as hipModuleUnload) and forgets its stubs.
// Misuse detection and hooks: standin_hip_hooks.h.
//
// Thread-safety: one global lock around every entry point.
#include "tests/standins/hip/standin_hip_internal.h"

rl_hip_state_t rl_hip = {.lock = PTHREAD_MUTEX_INITIALIZER,
                          .null_stream = {.magic = RL_HIP_MAGIC_STREAM}};

//===----------------------------------------------------------------------===//
// Misuse record and hooks
//===----------------------------------------------------------------------===//

void rl_hip_error(
    const char* format, ...) {
  if (rl_hip.error_total < RL_HIP_ERRORS_KEPT) {
    va_list args;
    va_start(args, format);
    vsnprintf(rl_hip.errors[rl_hip.error_total], 256, format, args);
    va_end(args);
  }
  ++rl_hip.error_total;
}

RL_HIP_EXPORT uint32_t rl_standin_hip_error_count(void) {
  pthread_mutex_lock(&rl_hip.lock);
  uint32_t count = rl_hip.error_total;
  pthread_mutex_unlock(&rl_hip.lock);
  return count;
}

RL_HIP_EXPORT const char* rl_standin_hip_error(uint32_t index) {
  return index < RL_HIP_ERRORS_KEPT && index < rl_hip.error_total
             ? rl_hip.errors[index] : "";
}

RL_HIP_EXPORT void rl_standin_hip_clear_errors(void) {
  pthread_mutex_lock(&rl_hip.lock);
  rl_hip.error_total = 0;
  pthread_mutex_unlock(&rl_hip.lock);
}

RL_HIP_EXPORT uint64_t rl_standin_hip_launch_count(void) {
  pthread_mutex_lock(&rl_hip.lock);
  uint64_t count = rl_hip.launches_run;
  pthread_mutex_unlock(&rl_hip.lock);
  return count;
}

void rl_hip_list_clear(rl_hip_list_t* list) {
  for (uint32_t i = 0; i < list->count; ++i) free(list->items[i].kernarg);
  free(list->items);
  memset(list, 0, sizeof(*list));
}

__attribute__((destructor)) static void rl_hip_shutdown(void) {
  const char* path = getenv("REDLINE_STANDIN_HIP_REPORT");
  if (path && path[0]) {
    FILE* file = fopen(path, "w");
    if (file) {
      fprintf(file, "errors %u\nlaunches %llu\n", rl_hip.error_total,
              (unsigned long long)rl_hip.launches_run);
      for (uint32_t i = 0; i < rl_hip.error_total && i < RL_HIP_ERRORS_KEPT;
           ++i) {
        fprintf(file, "error: %s\n", rl_hip.errors[i]);
      }
      fclose(file);
    }
  }
  if (!rl_hip.sim) return;
  for (uint32_t i = 0; i < rl_hip.stream_count; ++i) {
    rl_hip_list_clear(&rl_hip.streams[i]->pending);
    rl_hip_list_clear(&rl_hip.streams[i]->captured);
    free(rl_hip.streams[i]);
  }
  rl_hip_list_clear(&rl_hip.null_stream.pending);
  rl_hip_list_clear(&rl_hip.null_stream.captured);
  rl_funnel_device_destroy(&rl_hip.adapter);
  rl_hip.sim->vtable->destroy(rl_hip.sim);
  rl_hip.sim = NULL;
  free(rl_hip.allocations);
  for (uint32_t i = 0; i < rl_hip.module_count; ++i) {
    rl_code_object_destroy(rl_hip.modules[i]->parsed);
    free(rl_hip.modules[i]->functions);
    free(rl_hip.modules[i]);
  }
  free(rl_hip.modules);
  free(rl_hip.stubs);
}

//===----------------------------------------------------------------------===//
// Device, memory
//===----------------------------------------------------------------------===//

// Creates the simulated device on first use; lock held.
hipError_t rl_hip_start_locked(void) {
  if (rl_hip.started) return rl_hip.start_error;
  rl_hip.started = true;
  const char* isa = getenv("REDLINE_STANDIN_ISA");
  if (!isa || !isa[0]) isa = "amdgcn-amd-amdhsa--gfx1100";
  const char* dash = strrchr(isa, '-');
  snprintf(rl_hip.processor, sizeof(rl_hip.processor), "%s",
           dash ? dash + 1 : isa);
  const rl_sim_options_t options = {.processor = rl_hip.processor,
                                    .executor = rl_ref_executor()};
  rl_status_t status = rl_sim_device_create(&options, &rl_hip.sim);
  if (!status) status = rl_device_funnel_create(rl_hip.sim, &rl_hip.adapter);
  if (status) {
    rl_hip_error("start: %s", rl_status_message(status));
    rl_status_free(status);
    rl_hip.start_error = hipErrorNoDevice;
  }
  return rl_hip.start_error;
}

hipError_t rl_hip_leave(hipError_t error) {
  if (error != hipSuccess) rl_hip.last_error = error;
  pthread_mutex_unlock(&rl_hip.lock);
  return error;
}

// The live allocation holding |address|, or NULL.
static rl_hip_allocation_t* rl_hip_find(uint64_t address) {
  for (uint32_t i = 0; i < rl_hip.allocation_count; ++i) {
    rl_hip_allocation_t* a = &rl_hip.allocations[i];
    if (address >= a->address && address - a->address < a->size) return a;
  }
  return NULL;
}

// Runs |stream|'s pending launches in order; lock held.
static hipError_t rl_hip_drain(struct ihipStream_t* stream) {
  hipError_t result = hipSuccess;
  for (uint32_t i = 0; i < stream->pending.count; ++i) {
    rl_hip_launch_t* launch = &stream->pending.items[i];
    if (result != hipSuccess) continue;
    const rl_funnel_dispatch_t dispatch = {
        .launch_index = (uint32_t)rl_hip.launches_run,
        .code_object_handle = launch->function->module->handle,
        .kernel = launch->function->kernel,
        .grid = {launch->grid[0], launch->grid[1], launch->grid[2]},
        .block = {launch->block[0], launch->block[1], launch->block[2]},
        .dynamic_lds = launch->lds,
        .kernarg = launch->kernarg,
        .kernarg_size = launch->kernarg_size,
    };
    rl_status_t status = rl_hip.adapter.launch(rl_hip.adapter.self, &dispatch);
    if (status) {
      rl_hip_error("launch of %s failed: %s", launch->function->kernel->name,
                   rl_status_message(status));
      rl_status_free(status);
      result = hipErrorLaunchFailure;
    } else {
      ++rl_hip.launches_run;
    }
  }
  rl_hip_list_clear(&stream->pending);
  return result;
}

hipError_t rl_hip_drain_all(void) {
  hipError_t result = rl_hip_drain(&rl_hip.null_stream);
  for (uint32_t i = 0; i < rl_hip.stream_count; ++i) {
    hipError_t error = rl_hip_drain(rl_hip.streams[i]);
    if (result == hipSuccess) result = error;
  }
  return result;
}

// True when a pending launch's kernarg holds an address inside |a|.
static bool rl_hip_in_flight(const rl_hip_allocation_t* a) {
  for (uint32_t s = 0; s <= rl_hip.stream_count; ++s) {
    const struct ihipStream_t* stream =
        s == rl_hip.stream_count ? &rl_hip.null_stream : rl_hip.streams[s];
    for (uint32_t l = 0; l < stream->pending.count; ++l) {
      const rl_hip_launch_t* launch = &stream->pending.items[l];
      for (uint32_t o = 0; o + 8 <= launch->kernarg_size; o += 8) {
        uint64_t value;
        memcpy(&value, launch->kernarg + o, 8);
        if (value >= a->address && value - a->address < a->size) return true;
      }
    }
  }
  return false;
}

RL_HIP_EXPORT hipError_t hipInit(unsigned int flags) {
  RL_HIP_ENTER();
  return rl_hip_leave(flags == 0 ? hipSuccess : hipErrorInvalidValue);
}

RL_HIP_EXPORT hipError_t hipRuntimeGetVersion(int* version) {
  if (!version) return hipErrorInvalidValue;
  *version = 60000000;  // HIP 6.0.0: major * 10^7 + minor * 10^5 + patch
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipDriverGetVersion(int* version) {
  return hipRuntimeGetVersion(version);
}

RL_HIP_EXPORT hipError_t hipGetDeviceCount(int* count) {
  if (!count) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  *count = 1;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_t* props,
                                                int device) {
  if (!props || device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  memset(props, 0, sizeof(*props));
  snprintf(props->name, sizeof(props->name), "redline HIP stand-in (sim %s)",
           rl_hip.processor);
  snprintf(props->gcnArchName, sizeof(props->gcnArchName), "%s",
           rl_hip.processor);
  props->totalGlobalMem = 1ull << 30;
  props->warpSize = 32;
  props->maxThreadsPerBlock = 1024;
  props->sharedMemPerBlock = rl_hip.sim->lds_limit;
  props->major = rl_hip.processor[3] - '0';
  props->minor = rl_hip.processor[4] - '0';
  props->multiProcessorCount = 1;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipDeviceSynchronize(void) {
  RL_HIP_ENTER();
  return rl_hip_leave(rl_hip_drain_all());
}

RL_HIP_EXPORT hipError_t hipGetLastError(void) {
  pthread_mutex_lock(&rl_hip.lock);
  hipError_t error = rl_hip.last_error;
  rl_hip.last_error = hipSuccess;
  pthread_mutex_unlock(&rl_hip.lock);
  return error;
}

RL_HIP_EXPORT hipError_t hipMalloc(void** ptr, size_t size) {
  if (!ptr) return hipErrorInvalidValue;
  *ptr = NULL;
  if (size == 0) return hipSuccess;
  RL_HIP_ENTER();
  rl_device_allocation_t allocation = {0};
  rl_status_t status = RL_OK;
  if (rl_hip.allocation_count == rl_hip.allocation_capacity) {
    uint32_t capacity =
        rl_hip.allocation_capacity ? rl_hip.allocation_capacity * 2 : 64;
    void* grown = realloc(rl_hip.allocations, capacity * sizeof(*rl_hip.allocations));
    if (!grown) return rl_hip_leave(hipErrorOutOfMemory);
    rl_hip.allocations = grown;
    rl_hip.allocation_capacity = capacity;
  }
  status = rl_hip.sim->vtable->allocate(rl_hip.sim, size, 256,
                                        RL_MEMORY_KIND_DEVICE, &allocation);
  if (status) {
    rl_status_free(status);
    return rl_hip_leave(hipErrorOutOfMemory);
  }
  rl_hip.allocations[rl_hip.allocation_count++] =
      (rl_hip_allocation_t){allocation.address, size};
  *ptr = (void*)(uintptr_t)allocation.address;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipFree(void* ptr) {
  if (!ptr) return hipSuccess;
  RL_HIP_ENTER();
  uint64_t address = (uint64_t)(uintptr_t)ptr;
  rl_hip_allocation_t* a = rl_hip_find(address);
  if (!a || a->address != address) {
    rl_hip_error("hipFree(0x%llx): not the base of a live allocation",
                 (unsigned long long)address);
    return rl_hip_leave(hipErrorInvalidValue);
  }
  if (rl_hip_in_flight(a)) {
    rl_hip_error("hipFree(0x%llx): memory still used by a launch in flight",
                 (unsigned long long)address);
  }
  hipError_t result = rl_hip_drain_all();  // hipFree synchronises
  rl_status_t status = rl_hip.sim->vtable->free(rl_hip.sim, address);
  rl_status_free(status);
  *a = rl_hip.allocations[--rl_hip.allocation_count];
  return rl_hip_leave(result);
}

// Checks that [address, address + size) lies inside one live allocation.
static bool rl_hip_device_range(uint64_t address, uint64_t size,
                                const char* call) {
  rl_hip_allocation_t* a = rl_hip_find(address);
  if (!a || size > a->size - (address - a->address)) {
    rl_hip_error("%s: device range [0x%llx, +%llu) is outside every live "
                 "allocation", call, (unsigned long long)address,
                 (unsigned long long)size);
    return false;
  }
  return true;
}

RL_HIP_EXPORT hipError_t hipMemcpy(void* dst, const void* src, size_t size,
                                   hipMemcpyKind kind) {
  if (size == 0) return hipSuccess;
  if (!dst || !src) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  hipError_t result = rl_hip_drain_all();
  if (result) return rl_hip_leave(result);
  uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
  bool dst_device = kind == hipMemcpyHostToDevice ||
                    kind == hipMemcpyDeviceToDevice ||
                    (kind == hipMemcpyDefault && rl_hip_find(d));
  bool src_device = kind == hipMemcpyDeviceToHost ||
                    kind == hipMemcpyDeviceToDevice ||
                    (kind == hipMemcpyDefault && rl_hip_find(s));
  if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToHost &&
      kind != hipMemcpyDeviceToDevice && kind != hipMemcpyHostToHost &&
      kind != hipMemcpyDefault) {
    return rl_hip_leave(hipErrorInvalidMemcpyDirection);
  }
  if ((dst_device && !rl_hip_device_range(d, size, "hipMemcpy")) ||
      (src_device && !rl_hip_device_range(s, size, "hipMemcpy"))) {
    return rl_hip_leave(hipErrorInvalidValue);
  }
  const rl_device_vtable_t* vt = rl_hip.sim->vtable;
  rl_status_t status = RL_OK;
  if (dst_device && src_device) {
    void* bounce = malloc(size);
    if (!bounce) return rl_hip_leave(hipErrorOutOfMemory);
    status = vt->read(rl_hip.sim, s, bounce, size);
    if (!status) status = vt->write(rl_hip.sim, d, bounce, size);
    free(bounce);
  } else if (dst_device) {
    status = vt->write(rl_hip.sim, d, src, size);
  } else if (src_device) {
    status = vt->read(rl_hip.sim, s, dst, size);
  } else {
    memmove(dst, src, size);
  }
  if (status) {
    rl_hip_error("hipMemcpy: %s", rl_status_message(status));
    rl_status_free(status);
    return rl_hip_leave(hipErrorInvalidValue);
  }
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase,
                                               size_t* psize,
                                               hipDeviceptr_t dptr) {
  RL_HIP_ENTER();
  rl_hip_allocation_t* a = rl_hip_find((uint64_t)(uintptr_t)dptr);
  if (!a) {
    rl_hip_error("hipMemGetAddressRange(%p): not inside a live allocation",
                 dptr);
    return rl_hip_leave(hipErrorInvalidValue);
  }
  if (pbase) *pbase = (hipDeviceptr_t)(uintptr_t)a->address;
  if (psize) *psize = a->size;
  return rl_hip_leave(hipSuccess);
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

// Parses and loads the |size|-byte code object |image| as a new module;
// lock held.
hipError_t rl_hip_module_load_locked(const void* image, size_t size,
                                            struct ihipModule_t** out_module) {
  *out_module = NULL;
  struct ihipModule_t* m = calloc(1, sizeof(*m));
  if (!m) return hipErrorOutOfMemory;
  rl_status_t status = rl_code_object_parse(image, size, &m->parsed);
  if (!status) {
    m->functions = calloc(m->parsed->kernel_count + 1, sizeof(*m->functions));
    if (!m->functions) status = rl_status_out_of_memory();
  }
  if (!status) {
    status = RL_ARRAY_RESERVE(&rl_hip.modules, &rl_hip.module_capacity,
                              rl_hip.module_count + 1);
  }
  if (!status) {
    status = rl_hip.adapter.load_code_object(rl_hip.adapter.self, image, size,
                                             &m->handle);
  }
  if (status) {
    rl_hip_error("loading a code object: %s", rl_status_message(status));
    rl_status_free(status);
    rl_code_object_destroy(m->parsed);
    free(m->functions);
    free(m);
    return hipErrorInvalidImage;
  }
  m->magic = RL_HIP_MAGIC_MODULE;
  m->live = true;
  rl_hip.modules[rl_hip.module_count++] = m;
  *out_module = m;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipModuleLoadData(hipModule_t* module,
                                           const void* image) {
  if (!module || !image) return hipErrorInvalidValue;
  *module = NULL;
  RL_HIP_ENTER();
  // The ELF header gives no size: read the section-header table's end.
  const uint8_t* bytes = image;
  if (memcmp(bytes, "\x7f" "ELF", 4) != 0 || bytes[4] != 2) {
    return rl_hip_leave(hipErrorInvalidImage);
  }
  uint64_t shoff;
  uint16_t shentsize, shnum;
  memcpy(&shoff, bytes + 0x28, 8);
  memcpy(&shentsize, bytes + 0x3A, 2);
  memcpy(&shnum, bytes + 0x3C, 2);
  size_t size = (size_t)(shoff + (uint64_t)shentsize * shnum);
  return rl_hip_leave(rl_hip_module_load_locked(image, size, module));
}

// Modules and functions are never freed before exit: a function handle
// kept past hipModuleUnload is detected rather than dangling. The parse
// stays alive because the adapter refers to it until destroyed.
RL_HIP_EXPORT hipError_t hipModuleUnload(hipModule_t module) {
  RL_HIP_ENTER();
  if (!module || module->magic != RL_HIP_MAGIC_MODULE || !module->live) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  rl_hip_drain_all();
  module->live = false;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipModuleGetFunction(hipFunction_t* function,
                                              hipModule_t module,
                                              const char* name) {
  if (!function || !name) return hipErrorInvalidValue;
  *function = NULL;
  RL_HIP_ENTER();
  if (!module || module->magic != RL_HIP_MAGIC_MODULE || !module->live) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  const rl_code_object_kernel_t* kernel =
      rl_code_object_find_kernel(module->parsed, name);
  if (!kernel) return rl_hip_leave(hipErrorNotFound);
  struct ihipModuleSymbol_t* f =
      &module->functions[kernel - module->parsed->kernels];
  *f = (struct ihipModuleSymbol_t){RL_HIP_MAGIC_FUNCTION, module, kernel};
  *function = f;
  return rl_hip_leave(hipSuccess);
}

//===----------------------------------------------------------------------===//
// Streams and launches
//===----------------------------------------------------------------------===//

struct ihipStream_t* rl_hip_stream(hipStream_t stream) {
  return stream ? stream : &rl_hip.null_stream;
}

bool rl_hip_stream_usable(struct ihipStream_t* stream,
                                 const char* call) {
  if (stream->magic != RL_HIP_MAGIC_STREAM) return false;
  if (stream->destroyed) {
    rl_hip_error("%s on destroyed stream %p", call, (void*)stream);
    return false;
  }
  return true;
}

RL_HIP_EXPORT hipError_t hipStreamCreate(hipStream_t* stream) {
  if (!stream) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  if (rl_hip.stream_count == RL_HIP_MAX_STREAMS) {
    return rl_hip_leave(hipErrorOutOfMemory);
  }
  struct ihipStream_t* s = calloc(1, sizeof(*s));
  if (!s) return rl_hip_leave(hipErrorOutOfMemory);
  s->magic = RL_HIP_MAGIC_STREAM;
  rl_hip.streams[rl_hip.stream_count++] = s;
  *stream = s;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) {
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, "hipStreamSynchronize")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  return rl_hip_leave(rl_hip_drain(s));
}

// The stand-in runs a stream's launches when someone waits for them, so a
// query completes the work and reports it done. REDLINE_STANDIN_HIP_HANG=1
// makes every query answer hipErrorNotReady instead (a kernel that never
// finishes), for the tests of redline's bounded waits.
RL_HIP_EXPORT hipError_t hipStreamQuery(hipStream_t stream) {
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, "hipStreamQuery")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  const char* hang = getenv("REDLINE_STANDIN_HIP_HANG");
  if (hang && strcmp(hang, "1") == 0) return rl_hip_leave(hipErrorNotReady);
  return rl_hip_leave(rl_hip_drain(s));
}

RL_HIP_EXPORT hipError_t hipStreamDestroy(hipStream_t stream) {
  RL_HIP_ENTER();
  if (!stream || !rl_hip_stream_usable(stream, "hipStreamDestroy")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  hipError_t result = rl_hip_drain(stream);  // pending work still completes
  rl_hip_list_clear(&stream->captured);
  stream->capturing = false;
  stream->destroyed = true;
  return rl_hip_leave(result);
}

// Appends a copy of |launch| (kernarg copied) to |list|.
hipError_t rl_hip_list_append(rl_hip_list_t* list,
                                     const rl_hip_launch_t* launch) {
  if (list->count == list->capacity) {
    uint32_t capacity = list->capacity ? list->capacity * 2 : 16;
    void* grown = realloc(list->items, capacity * sizeof(*list->items));
    if (!grown) return hipErrorOutOfMemory;
    list->items = grown;
    list->capacity = capacity;
  }
  rl_hip_launch_t copy = *launch;
  copy.kernarg = malloc(launch->kernarg_size ? launch->kernarg_size : 1);
  if (!copy.kernarg) return hipErrorOutOfMemory;
  memcpy(copy.kernarg, launch->kernarg, launch->kernarg_size);
  list->items[list->count++] = copy;
  return hipSuccess;
}

// Writes the hidden arguments at or past |given| bytes of |kernarg|.
static void rl_hip_fill_hidden(const rl_code_object_kernel_t* kernel,
                               uint8_t* kernarg, uint32_t given,
                               const uint32_t grid[3], const uint32_t block[3],
                               uint32_t lds) {
  for (uint32_t i = 0; i < kernel->arg_count; ++i) {
    const rl_kernel_arg_t* arg = &kernel->args[i];
    if (arg->kind != RL_ARG_KIND_HIDDEN || arg->offset < given) continue;
    if (arg->offset + arg->size > kernel->kernarg_size) continue;
    const char* kind = arg->value_kind;
    uint64_t value = 0;
    if (strncmp(kind, "hidden_block_count_", 19) == 0) {
      value = grid[kind[19] - 'x'];
    } else if (strncmp(kind, "hidden_group_size_", 18) == 0) {
      value = block[kind[18] - 'x'];
    } else if (strcmp(kind, "hidden_grid_dims") == 0) {
      value = 3;
    } else if (strcmp(kind, "hidden_dynamic_lds_size") == 0) {
      value = lds;
    }
    memset(kernarg + arg->offset, 0, arg->size);
    memcpy(kernarg + arg->offset, &value, arg->size < 8 ? arg->size : 8);
  }
}

RL_HIP_EXPORT hipError_t hipModuleLaunchKernel(
    hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
    unsigned int bx, unsigned int by, unsigned int bz, unsigned int lds,
    hipStream_t stream, void** kernelParams, void** extra) {
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, "hipModuleLaunchKernel")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (!f || f->magic != RL_HIP_MAGIC_FUNCTION) {
    return rl_hip_leave(hipErrorInvalidResourceHandle);
  }
  if (!f->module->live) {
    rl_hip_error("hipModuleLaunchKernel: %s belongs to an unloaded module",
                 f->kernel->name);
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  if (!gx || !gy || !gz || !bx || !by || !bz) {
    return rl_hip_leave(hipErrorInvalidConfiguration);
  }
  if ((kernelParams == NULL) == (extra == NULL)) {
    return rl_hip_leave(hipErrorInvalidValue);
  }
  const rl_code_object_kernel_t* kernel = f->kernel;
  rl_hip_launch_t launch = {
      .function = f, .grid = {gx, gy, gz}, .block = {bx, by, bz},
      .lds = lds, .kernarg_size = kernel->kernarg_size};
  uint8_t* kernarg = calloc(1, kernel->kernarg_size ? kernel->kernarg_size : 1);
  if (!kernarg) return rl_hip_leave(hipErrorOutOfMemory);
  uint32_t given = 0;
  if (kernelParams) {
    uint32_t explicit_index = 0;
    for (uint32_t i = 0; i < kernel->arg_count; ++i) {
      const rl_kernel_arg_t* arg = &kernel->args[i];
      if (arg->kind == RL_ARG_KIND_HIDDEN) continue;
      memcpy(kernarg + arg->offset, kernelParams[explicit_index++], arg->size);
    }
  } else {
    const void* buffer = NULL;
    size_t size = 0;
    bool have_size = false;
    for (uint32_t i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) {
        buffer = extra[i + 1];
      } else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) {
        size = *(const size_t*)extra[i + 1];
        have_size = true;
      } else {
        free(kernarg);
        return rl_hip_leave(hipErrorInvalidValue);
      }
    }
    if (!buffer || !have_size || size > kernel->kernarg_size) {
      free(kernarg);
      return rl_hip_leave(hipErrorInvalidValue);
    }
    memcpy(kernarg, buffer, size);
    given = (uint32_t)size;
  }
  rl_hip_fill_hidden(kernel, kernarg, given, launch.grid, launch.block, lds);
  launch.kernarg = kernarg;
  hipError_t result =
      rl_hip_list_append(s->capturing ? &s->captured : &s->pending, &launch);
  free(kernarg);
  return rl_hip_leave(result);
}

RL_HIP_EXPORT hipError_t hipLaunchKernel(const void* function_address,
                                         dim3 numBlocks, dim3 dimBlocks,
                                         void** args, size_t sharedMemBytes,
                                         hipStream_t stream) {
  if (!args) return hipErrorInvalidValue;
  pthread_mutex_lock(&rl_hip.lock);
  hipFunction_t f = NULL;
  for (uint32_t i = 0; i < rl_hip.stub_count; ++i) {
    if (rl_hip.stubs[i].host == function_address) f = rl_hip.stubs[i].function;
  }
  if (!f) return rl_hip_leave(hipErrorInvalidDeviceFunction);
  pthread_mutex_unlock(&rl_hip.lock);
  return hipModuleLaunchKernel(f, numBlocks.x, numBlocks.y, numBlocks.z,
                               dimBlocks.x, dimBlocks.y, dimBlocks.z,
                               (unsigned int)sharedMemBytes, stream, args,
                               NULL);
}
