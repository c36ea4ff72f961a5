// sim/hip_sim/hip_sim.c — the HIP runtime over the simulator
// (hip_sim.h): the simulated device it starts on first use, device
// management and properties, errors recorded for the test hooks, and the
// exit report. The definitions use the prototypes of Debian's
// hip/hip_runtime_api.h (compiled with __HIP_PLATFORM_AMD__), so they are
// type-checked against the header.
#include <limits.h>

#include "kernels/ref/ref_executor.h"
#include "base/number.h"
#include "base/run_owner.h"
#include "base/trace.h"
#include "sim/hip_sim/hip_sim_internal.h"
#include "sim/isa/isa_executor.h"

rl_hip_state_t rl_hip = {.lock = PTHREAD_MUTEX_INITIALIZER,
                         .device_lock = PTHREAD_MUTEX_INITIALIZER,
                         .null_stream = {.magic = RL_HIP_MAGIC_STREAM}};

//===----------------------------------------------------------------------===//
// Misuse record and hooks
//===----------------------------------------------------------------------===//

void rl_hip_error(const char* format, ...) {
  if (rl_hip.error_total < RL_HIP_ERRORS_KEPT) {
    va_list args;
    va_start(args, format);
    vsnprintf(rl_hip.errors[rl_hip.error_total], RL_HIP_ERROR_BYTES, format,
              args);
    va_end(args);
  }
  ++rl_hip.error_total;
}

RL_HIP_EXPORT uint32_t rl_hip_sim_error_count(void) {
  pthread_mutex_lock(&rl_hip.lock);
  uint32_t count = rl_hip.error_total;
  pthread_mutex_unlock(&rl_hip.lock);
  return count;
}

RL_HIP_EXPORT const char* rl_hip_sim_error(uint32_t index) {
  return index < RL_HIP_ERRORS_KEPT && index < rl_hip.error_total
             ? rl_hip.errors[index] : "";
}

RL_HIP_EXPORT void rl_hip_sim_clear_errors(void) {
  pthread_mutex_lock(&rl_hip.lock);
  rl_hip.error_total = 0;
  pthread_mutex_unlock(&rl_hip.lock);
}

// |*counter| (a field of rl_hip), read under the lock.
static uint64_t rl_hip_counter(const uint64_t* counter) {
  pthread_mutex_lock(&rl_hip.lock);
  uint64_t value = *counter;
  pthread_mutex_unlock(&rl_hip.lock);
  return value;
}

RL_HIP_EXPORT uint64_t rl_hip_sim_launch_count(void) {
  return rl_hip_counter(&rl_hip.launches_run);
}

RL_HIP_EXPORT uint64_t rl_hip_sim_device_ticks(void) {
  return rl_hip_counter(&rl_hip.device_ticks);
}

RL_HIP_EXPORT uint64_t rl_hip_sim_progress_events(void) {
  rl_device_progress_t progress = {0};
  pthread_mutex_lock(&rl_hip.lock);
  if (rl_hip.started && rl_hip.start_error == hipSuccess) {
    (void)rl_device_funnel_progress(&rl_hip.adapter, &progress);
  }
  pthread_mutex_unlock(&rl_hip.lock);
  return progress.events;
}

void rl_hip_list_clear(rl_hip_list_t* list) {
  for (uint32_t i = 0; i < list->count; ++i) {
    rl_hip_op_release(&list->items[i]);
  }
  free(list->items);
  memset(list, 0, sizeof(*list));
}

static const char* rl_hip_env(const char* name, const char* fallback) {
  const char* value = getenv(name);
  if (value && value[0]) return value;
  value = fallback ? getenv(fallback) : NULL;
  return value && value[0] ? value : NULL;
}

// |trace|: "written", "failed MESSAGE", or "" without a trace.
static void rl_hip_write_report(const char* trace) {
  const char* path =
      rl_hip_env("REDLINE_HIP_REPORT", "REDLINE_STANDIN_HIP_REPORT");
  if (!path) return;
  FILE* file = fopen(path, "w");
  if (!file) return;
  fprintf(file,
          "errors %u\nlaunches %llu\nkernels %llu\ndevice_ticks %llu\n"
          "processor %s\nexecutor %s\nfailed %d\n",
          rl_hip.error_total, (unsigned long long)rl_hip.launches_run,
          (unsigned long long)rl_hip.kernels_run,
          (unsigned long long)rl_hip.device_ticks, rl_hip.processor,
          rl_hip.executor ? rl_hip.executor : "none",
          rl_hip.sticky_error != hipSuccess);
  fprintf(file, "timeout_ms %llu\n", (unsigned long long)rl_hip.timeout_ms);
  if (rl_hip.stopped[0]) fprintf(file, "stopped %s\n", rl_hip.stopped);
  if (rl_hip.failed_launch[0]) {
    fprintf(file, "failed_launch %s\n", rl_hip.failed_launch);
  }
  if (rl_hip.stopped[0] && rl_hip.stopped_stall) {
    fprintf(file, "stopped_wg_done %llu\nstopped_wg_total %llu\n",
            (unsigned long long)rl_hip.stopped_wg_done,
            (unsigned long long)rl_hip.stopped_wg_total);
  }
  if (trace[0]) fprintf(file, "trace %s\n", trace);
  for (uint32_t i = 0; i < rl_hip.error_total && i < RL_HIP_ERRORS_KEPT; ++i) {
    fprintf(file, "error: %s\n", rl_hip.errors[i]);
  }
  fclose(file);
}

// The process that writes the report and the trace (run_owner.h): a
// forked child of the program neither writes its parent's files nor tears
// down the parent's device (whose threads it does not have).
static pid_t rl_hip_owner;
__attribute__((constructor)) static void rl_hip_load(void) {
  rl_hip_owner = rl_run_owner_at_load();
}

__attribute__((destructor)) static void rl_hip_shutdown(void) {
  if (!rl_run_owner_is_self(rl_hip_owner)) return;
  pthread_mutex_lock(&rl_hip.lock);
  // Queued work completes (after a fault it completes as failed; a launch
  // that outlived its bound failed, and its work-group is stopped when the
  // device is destroyed below).
  if (rl_hip.worker_running) rl_hip_wait_all();
  pthread_mutex_unlock(&rl_hip.lock);
  rl_hip_exec_stop();
  pthread_mutex_lock(&rl_hip.lock);
  char trace[512] = "";
  if (rl_hip.trace) {
    const char* path = rl_hip_env("REDLINE_HIP_TRACE", NULL);
    rl_status_t status = rl_trace_write(rl_hip.trace, path);
    snprintf(trace, sizeof(trace), "%s%s", status ? "failed " : "written",
             status ? rl_status_message(status) : "");
    if (status) {
      fprintf(stderr, "redline hip: trace %s: %s\n", path,
              rl_status_message(status));
      rl_status_free(status);
    }
    rl_trace_destroy(rl_hip.trace);
    rl_hip.trace = NULL;
  }
  rl_hip_write_report(trace);
  if (!rl_hip.sim) {
    pthread_mutex_unlock(&rl_hip.lock);
    return;
  }
  for (uint32_t i = 0; i < rl_hip.stream_count; ++i) {
    rl_hip_list_clear(&rl_hip.streams[i]->pending);
    free(rl_hip.streams[i]);
  }
  for (uint32_t i = 0; i < rl_hip.destroyed_count; ++i) {
    rl_hip_list_clear(&rl_hip.destroyed[i]->pending);
    free(rl_hip.destroyed[i]);
  }
  free(rl_hip.destroyed);
  rl_hip_list_clear(&rl_hip.null_stream.pending);
  rl_funnel_device_destroy(&rl_hip.adapter);
  rl_hip.sim->vtable->destroy(rl_hip.sim);
  rl_hip.sim = NULL;
  free(rl_hip.allocations);
  for (uint32_t i = 0; i < rl_hip.module_count; ++i) {
    struct ihipModule_t* m = rl_hip.modules[i];
    rl_code_object_destroy(m->parsed);
    for (uint32_t f = 0; f < m->format_count; ++f) free(m->formats[f].text);
    free(m->formats);
    free(m->image);
    free(m->functions);
    free(m);
  }
  free(rl_hip.modules);
  free(rl_hip.stubs);
  free(rl_hip.registered);
  free(rl_hip.vars);
  pthread_mutex_unlock(&rl_hip.lock);
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

// Creates the simulated device on first use; lock held.
// The simulator options `redline run` passes through the environment
// (tools/cmd_run.c, docs/hip-runtime.md): REDLINE_HIP_HAZARDS (sequential
// or adversarial), REDLINE_HIP_SEED, REDLINE_HIP_CACHE_MODEL (off, report
// or strict), REDLINE_HIP_MAX_WORK_ITEMS and REDLINE_HIP_MAX_DISPATCHES
// (redline/limits.h). A value the simulator cannot take fails the start,
// naming the variable.
static rl_status_t rl_hip_sim_env_options(rl_sim_options_t* options) {
  const char* hazards = rl_hip_env("REDLINE_HIP_HAZARDS", NULL);
  if (hazards && strcmp(hazards, "adversarial") == 0) {
    options->hazards = RL_SIM_HAZARDS_ADVERSARIAL;
  } else if (hazards && strcmp(hazards, "sequential") != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "REDLINE_HIP_HAZARDS='%s': expected sequential or "
                     "adversarial", hazards);
  }
  const char* cache = rl_hip_env("REDLINE_HIP_CACHE_MODEL", NULL);
  if (cache && !rl_sim_cache_mode_parse(cache, &options->cache_model)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "REDLINE_HIP_CACHE_MODEL='%s': expected off, report or "
                     "strict", cache);
  }
  const char* seed = rl_hip_env("REDLINE_HIP_SEED", NULL);
  if (seed) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_number_parse_u64(seed, &options->seed), "REDLINE_HIP_SEED"));
  }
  // The budgets take a K, M or G suffix, as the command-line options do.
  // A program the user runs is trusted: without REDLINE_HIP_MAX_WORK_ITEMS
  // its launches get the hardware's limit, what an AQL dispatch packet can
  // express (three 32-bit grid sizes, hsa_kernel_dispatch_packet_t), not
  // the 2^24 budget that guards replays of capture files (redline/limits.h).
  options->max_work_items = UINT64_MAX;
  const char* items = rl_hip_env("REDLINE_HIP_MAX_WORK_ITEMS", NULL);
  if (items) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_number_parse_size(items, &options->max_work_items),
        "REDLINE_HIP_MAX_WORK_ITEMS"));
  }
  const char* dispatches = rl_hip_env("REDLINE_HIP_MAX_DISPATCHES", NULL);
  if (dispatches) {
    uint64_t value = 0;
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_number_parse_size(dispatches, &value),
        "REDLINE_HIP_MAX_DISPATCHES"));
    if (value > UINT32_MAX) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "REDLINE_HIP_MAX_DISPATCHES='%s': over %u", dispatches,
                       (unsigned)UINT32_MAX);
    }
    options->max_dispatches = (uint32_t)value;
  }
  return RL_OK;
}

hipError_t rl_hip_start_locked(void) {
  if (rl_hip.started) return rl_hip.start_error;
  rl_hip.started = true;
  // REDLINE_HIP_PROCESSOR, else the target id the stand-in ISA names
  // ("amdgcn-amd-amdhsa--gfx1201:xnack-"), through the one target parser; a
  // string it refuses is passed on unchanged for the simulator to refuse.
  const char* processor = rl_hip_env("REDLINE_HIP_PROCESSOR", NULL);
  const char* isa = rl_hip_env("REDLINE_STANDIN_ISA", NULL);
  const char* text = processor ? processor : isa ? isa : "gfx1100";
  rl_target_t target;
  rl_status_t parsed = rl_target_parse(text, &target);
  snprintf(rl_hip.processor, sizeof(rl_hip.processor), "%s",
           parsed ? text : target.processor);
  rl_status_free(parsed);
  const char* executor = rl_hip_env("REDLINE_HIP_EXECUTOR", NULL);
  rl_hip.executor = executor && strcmp(executor, "ref") == 0 ? "ref" : "isa";
  rl_status_t status = RL_OK;
  if (executor && strcmp(executor, "ref") != 0 &&
      strcmp(executor, "isa") != 0) {
    status = RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "REDLINE_HIP_EXECUTOR='%s': expected isa or ref",
                       executor);
  }
  // REDLINE_HIP_MEMORY: the device's memory (`redline run --device-memory`).
  uint64_t memory_bytes = 0;
  const char* memory = rl_hip_env("REDLINE_HIP_MEMORY", NULL);
  if (!status && memory) {
    status = rl_status_annotate(rl_number_parse_size(memory, &memory_bytes),
                                "REDLINE_HIP_MEMORY");
  }
  rl_sim_options_t options = {
      .processor = rl_hip.processor,
      .executor = strcmp(rl_hip.executor, "ref") == 0 ? rl_ref_executor()
                                                       : rl_isa_executor(),
      .memory_bytes = memory_bytes};
  if (!status) status = rl_hip_sim_env_options(&options);
  if (!status && rl_hip_env("REDLINE_HIP_TRACE", NULL)) {
    status = rl_trace_create(&rl_hip.trace);
    if (!status) {
      rl_trace_name_process(rl_hip.trace, 1, "redline run: HIP program", 1);
      rl_trace_name_thread(rl_hip.trace, 1, 1, "device (in order)", 0);
    }
  }
  if (!status) status = rl_sim_device_create(&options, &rl_hip.sim);
  // Every launch's wait is bounded by a stall (10 s unless
  // REDLINE_HIP_TIMEOUT_MS): a launch none of whose work-groups completes
  // for that long is given up (device_funnel.h) and stopped when the
  // device is destroyed, at exit at the latest (the simulator stops a
  // work-group mid-way); one that keeps completing work-groups runs on.
  const char* timeout = rl_hip_env("REDLINE_HIP_TIMEOUT_MS", NULL);
  rl_hip.timeout_ms = timeout ? strtoull(timeout, NULL, 10) : 0;
  if (rl_hip.timeout_ms == 0 || rl_hip.timeout_ms > UINT64_MAX / 1000000u) {
    rl_hip.timeout_ms = RL_DEVICE_FUNNEL_TIMEOUT_NS / 1000000u;
  }
  if (!status) {
    status = rl_device_funnel_create_bounded(
        rl_hip.sim, rl_hip.timeout_ms * 1000000u, &rl_hip.adapter);
  }
  if (!status && rl_hip_exec_start_locked()) {
    status = RL_STATUS(RL_STATUS_INTERNAL, "cannot start the device worker");
  }
  rl_device_allocation_t printf_buffer = {0};
  if (!status) {
    status = rl_hip.sim->vtable->allocate(
        rl_hip.sim, 8u + RL_HIP_PRINTF_BYTES, 256, RL_MEMORY_KIND_DEVICE,
        &printf_buffer);
  }
  if (!status) {
    const uint32_t header[2] = {0, RL_HIP_PRINTF_BYTES};
    status = rl_hip.sim->vtable->write(rl_hip.sim, printf_buffer.address,
                                       header, sizeof(header));
    rl_hip.printf_buffer = printf_buffer.address;
  }
  if (status) {
    fprintf(stderr, "redline hip: no simulated device: %s\n",
            rl_status_message(status));
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

void rl_hip_unsupported(const char* name) {
  rl_hip_unsupported_answer(name, "hipErrorNotSupported");
}

void rl_hip_unsupported_answer(const char* name, const char* answer) {
  static char seen[256][64];
  static uint32_t seen_count;
  static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&seen_lock);
  bool first = true;
  for (uint32_t i = 0; i < seen_count; ++i) {
    if (strcmp(seen[i], name) == 0) first = false;
  }
  if (first && seen_count < 256) {
    snprintf(seen[seen_count++], sizeof(seen[0]), "%s", name);
  }
  pthread_mutex_unlock(&seen_lock);
  if (first) {
    fprintf(stderr, "redline hip: %s is not supported by the simulator "
            "runtime (%s)\n", name, answer);
  }
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

RL_HIP_EXPORT hipError_t hipSetDevice(int device) {
  RL_HIP_ENTER();
  return rl_hip_leave(device == 0 ? hipSuccess : hipErrorInvalidDevice);
}

RL_HIP_EXPORT hipError_t hipGetDevice(int* device) {
  if (!device) return hipErrorInvalidValue;
  *device = 0;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
  if (!device) return hipErrorInvalidValue;
  if (ordinal != 0) return hipErrorInvalidDevice;
  *device = 0;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipSetDeviceFlags(unsigned flags) {
  (void)flags;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipGetDeviceFlags(unsigned int* flags) {
  if (!flags) return hipErrorInvalidValue;
  *flags = 0;
  return hipSuccess;
}

// A nominal compute-unit count per processor (programs size grids by it);
// the simulator runs work-groups one after another whatever the count.
int rl_hip_compute_units(void) {
  if (strcmp(rl_hip.processor, "gfx1151") == 0) return 40;
  if (strcmp(rl_hip.processor, "gfx1201") == 0) return 64;
  return 96;
}

// The simulated device's memory (rl_sim_options_t.memory_bytes) and the
// bytes its live allocations take.
static uint64_t rl_hip_memory(uint64_t* out_used) {
  uint64_t total = 0, used = 0;
  rl_sim_memory_info(rl_hip.sim, &total, &used);
  if (out_used) *out_used = used;
  return total;
}

// A hex digit of a processor name ("gfx90a": 'a' is 10); 0 for anything
// else, the end of the name included.
static int rl_hip_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return 0;
}

void rl_hip_fill_properties(hipDeviceProp_t* props) {
  memset(props, 0, sizeof(*props));
  snprintf(props->name, sizeof(props->name), "redline simulated %s",
           rl_hip.processor);
  snprintf(props->gcnArchName, sizeof(props->gcnArchName), "%s",
           rl_hip.processor);
  // "gfx1151": major 11 (the typed target's generation), minor 5 and
  // stepping 1, the two hex digits after the major (gfx90a: 9, 0, 10), as
  // HIP's gcnArch = major * 100 + minor * 10 + stepping.
  rl_target_t target;
  rl_status_t parsed = rl_target_parse(rl_hip.processor, &target);
  if (!parsed) {
    const char* digits = target.processor + (target.gfx_major >= 10 ? 5 : 4);
    props->major = (int)target.gfx_major;
    props->minor = rl_hip_hex_digit(digits[0]);
    props->gcnArch = props->major * 100 + props->minor * 10 +
                     rl_hip_hex_digit(digits[0] ? digits[1] : '\0');
  }
  rl_status_free(parsed);
  props->totalGlobalMem = rl_hip_memory(NULL);
  props->sharedMemPerBlock = rl_hip.sim->lds_limit;
  props->regsPerBlock = 65536;
  props->warpSize = 32;
  props->maxThreadsPerBlock = 1024;
  props->maxThreadsDim[0] = props->maxThreadsDim[1] =
      props->maxThreadsDim[2] = 1024;
  props->maxGridSize[0] = INT_MAX;
  props->maxGridSize[1] = props->maxGridSize[2] = 65535;
  props->clockRate = 2500000;        // kHz
  props->memoryClockRate = 1250000;  // kHz
  props->memoryBusWidth = 256;
  props->totalConstMem = INT_MAX;
  props->multiProcessorCount = rl_hip_compute_units();
  props->l2CacheSize = 4 << 20;
  props->maxThreadsPerMultiProcessor = 2048;
  props->computeMode = 0;
  props->clockInstructionRate = 100000;  // kHz: the 100 MHz timestamp
  props->concurrentKernels = 1;
  props->maxSharedMemoryPerMultiProcessor = rl_hip.sim->lds_limit;
  props->isMultiGpuBoard = 0;
  props->canMapHostMemory = 1;
  props->integrated = strcmp(rl_hip.processor, "gfx1151") == 0;
  props->managedMemory = 1;
  props->directManagedMemAccessFromHost = 1;
  props->concurrentManagedAccess = 1;
  props->pageableMemoryAccess = 0;
  props->cooperativeLaunch = 1;  // hip_sim_cooperative.c
  props->textureAlignment = 256;
  // Textures (hip_sim_texture.c): 1-D and 2-D images up to the 14-bit
  // WIDTH/HEIGHT fields of the image descriptor; no 3-D images and no
  // textures over linear memory (their maxima stay 0).
  props->maxTexture1D = 16384;
  props->maxTexture2D[0] = 16384;
  props->maxTexture2D[1] = 16384;
  props->texturePitchAlignment = 256;
  props->memPitch = INT_MAX;
  props->ECCEnabled = 0;
  props->tccDriver = 0;
  props->asicRevision = 0;
}

RL_HIP_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_t* props,
                                                int device) {
  if (!props) return hipErrorInvalidValue;
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  rl_hip_fill_properties(props);
  return rl_hip_leave(hipSuccess);
}

// HIP 6 renamed the entry (its headers #define hipGetDeviceProperties to
// it) and reordered hipDeviceProp_t; this runtime is built against HIP
// 5.2's layout, so filling a HIP 6 structure would put every field in the
// wrong place. Refused instead of a silent wrong answer.
hipError_t hipGetDevicePropertiesR0600(void* props, int device);
RL_HIP_EXPORT hipError_t hipGetDevicePropertiesR0600(void* props, int device) {
  (void)props, (void)device;
  rl_hip_unsupported("hipGetDevicePropertiesR0600 (HIP 6 layout)");
  return hipErrorNotSupported;
}

RL_HIP_EXPORT hipError_t hipDeviceGetName(char* name, int length,
                                          hipDevice_t device) {
  if (!name || length <= 0) return hipErrorInvalidValue;
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  snprintf(name, (size_t)length, "redline simulated %s", rl_hip.processor);
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipDeviceComputeCapability(int* major, int* minor,
                                                    hipDevice_t device) {
  if (!major || !minor) return hipErrorInvalidValue;
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  hipDeviceProp_t p;
  rl_hip_fill_properties(&p);
  *major = p.major;
  *minor = p.minor;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
  if (!bytes) return hipErrorInvalidValue;
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  *bytes = rl_hip_memory(NULL);
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total) {
  if (!free_bytes || !total) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  uint64_t used = 0;
  *total = rl_hip_memory(&used);
  *free_bytes = *total - used;
  return rl_hip_leave(hipSuccess);
}

// Not while a stream captures (HIP: hipErrorStreamCaptureUnsupported).
RL_HIP_EXPORT hipError_t hipDeviceSynchronize(void) {
  RL_HIP_ENTER();
  for (uint32_t i = 0; i < rl_hip.stream_count; ++i) {
    if (rl_hip.streams[i]->capture) {
      return rl_hip_leave(hipErrorStreamCaptureUnsupported);
    }
  }
  return rl_hip_leave(rl_hip_wait_all());
}

// Waits for every stream; the simulated device keeps its memory (a reset
// that freed allocations behind the program's back would turn later use
// into VM faults the program did not write).
RL_HIP_EXPORT hipError_t hipDeviceReset(void) {
  RL_HIP_ENTER();
  return rl_hip_leave(rl_hip_wait_all());
}

// The last error, under the lock; |reset| sets it back to hipSuccess.
static hipError_t rl_hip_last_error(bool reset) {
  pthread_mutex_lock(&rl_hip.lock);
  hipError_t error = rl_hip.last_error;
  if (reset) rl_hip.last_error = hipSuccess;
  pthread_mutex_unlock(&rl_hip.lock);
  return error;
}

RL_HIP_EXPORT hipError_t hipGetLastError(void) {
  return rl_hip_last_error(true);
}

RL_HIP_EXPORT hipError_t hipPeekAtLastError(void) {
  return rl_hip_last_error(false);
}
