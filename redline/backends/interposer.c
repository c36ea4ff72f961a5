// redline/backends/interposer.c — libredline_capture.so: an LD_PRELOAD
// interposer that captures an unmodified HIP program through the recording
// funnel (redline/funnel.h) and writes a capture file.
//
//   LD_PRELOAD=libredline_capture.so REDLINE_CAPTURE_OUT=out.rlc
//   REDLINE_CAPTURE_WINDOW=launches:FIRST:COUNT  ./app
//
// Which library it forwards to: the one named by $REDLINE_HIP_LIBRARY
// (dlopen'd by path; it must be the library the program itself bound to,
// e.g. the CI stand-in found through the program's RUNPATH or
// LD_LIBRARY_PATH — dlopen of the same file returns the same handle), else
// the next definition in lookup order (dlsym(RTLD_NEXT)). Every call is
// forwarded; the interposer only observes and records.
//
// What it records:
//   hipModuleLoadData      the code object (bytes kept; size from the ELF
//                          section-header table);
//   hipModuleGetFunction   the kernel, typed by the code-object metadata;
//   __hipRegisterFatBinary the code object for the device's processor
//                          (hipGetDeviceProperties gcnArchName) taken from
//                          the fat binary's offload bundle
//                          (redline/offload_bundle.h);
//   __hipRegisterFunction  host stub -> kernel of that code object;
//   hipMalloc / hipFree    buffers "bufN" (role state) at the address the
//                          runtime returned; a freed buffer stays allocated
//                          until the capture is written, so no later
//                          allocation can reuse its address;
//   hipModuleLaunchKernel (kernelParams or extra form),
//   hipLaunchKernel (a registered host stub; args like kernelParams) and
//   hipExtModuleLaunchKernel (global sizes that are whole work-groups)
//                          inside the window: the explicit arguments are
//                          sliced from the program's bytes at the metadata
//                          offsets and typed (global_buffer -> pointer with
//                          the funnel's effect rules, 4/8-byte by_value ->
//                          u32/u64, others -> bytes); the funnel assembles
//                          the kernarg and the launch is forwarded with those
//                          exact bytes on the program's stream (extra form;
//                          hipLaunchKernel: per-argument pointers into them).
//   Regions: one BYTES region per buffer, named like it.
// Window ($REDLINE_CAPTURE_WINDOW, default launches:0:all):
//   launches:FIRST:COUNT   module launches FIRST .. FIRST+COUNT-1 (0-based,
//                          in call order; COUNT may be "all");
//   marker:NAME:N          from the Nth (0-based) launch of kernel NAME up to
//                          (not including) its next launch: one iteration.
// The capture is written atomically (rl_capture_file_write) when the window
// closes, else at exit (atexit, before the runtime's own destructors).
// It declares one window: parameter "run" (range [0, 1), bound by no
// launch) walked over the single value 0, i.e. the recorded launches once,
// so a shadow or bench of the file needs no --windows.
//
//   hipModuleLoad          the code object in the file (an ELF, or the
//                          processor's entry of an offload bundle);
//   copies and memsets     into a recorded buffer inside the window, as
//                          launches of the embedded copy/fill kernels
//                          (interposer_copy.hip; host bytes through a
//                          staging buffer "uploadN");
//   stream capture         launches, copies and memsets on a capturing
//                          stream are kept as the graph's nodes and
//                          recorded, in order, at each hipGraphLaunch of an
//                          executable graph instantiated from it.
// docs/capture-interposer.md is the user-facing rule.
//
// Incomplete captures. Work the interposer cannot record is forwarded
// untouched, and when it happens inside an open window the capture is
// marked incomplete (rl_capture_mark_incomplete; replay then refuses it):
// hipLaunchKernel of a host stub the interposer did not see registered,
// launches the funnel refuses (e.g. a pointer outside every hipMalloc
// buffer), hipGraphLaunch of a graph not captured from a stream or changed
// after instantiation, a copy or memset it cannot record (past the end of
// its buffer, from device memory outside every buffer, hipMemcpyDefault
// from an address it cannot classify), and hipFree of a buffer a recorded
// launch used, followed by another recorded launch ("buffer bufN freed
// mid-window"). A capture with no launch, or whose launches the runtime
// failed (at the call, or at the final hipDeviceSynchronize the interposer
// makes before writing), is incomplete too. Other HIP entry points are not
// interposed at all.
//
// Thread-safety: one lock around the recording; calls are forwarded with it
// held, so an interposed program's HIP calls are serialised.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/base/array.h"
#include "redline/base/number.h"
#include "redline/capture_file.h"
#include "redline/code_object.h"
#include "redline/funnel.h"
#include "redline/offload_bundle.h"

#define RL_IP_EXPORT __attribute__((visibility("default")))
#define RL_IP_MAX 4096u

typedef struct rl_ip_module_s {
  hipModule_t module;
  uint32_t code_object;
  rl_code_object_t* parsed;
} rl_ip_module_t;

typedef struct rl_ip_function_s {
  hipFunction_t function;  // NULL for a registered host stub
  const void* host;        // the host stub, or NULL for a module function
  uint32_t module;  // index into modules
  uint32_t kernel;  // funnel kernel index
  const rl_code_object_kernel_t* info;
} rl_ip_function_t;

typedef struct rl_ip_buffer_s {
  void* base;
  uint64_t size;
  uint32_t index;  // funnel buffer
  bool freed;
  bool used;  // referenced by a recorded launch
} rl_ip_buffer_t;

// A staging buffer: device memory holding the host bytes of one recorded
// host->device copy (the copy kernel's source), freed when the capture is
// written.
typedef struct rl_ip_staging_s {
  void* base;
} rl_ip_staging_t;

typedef enum rl_ip_node_kind_e {
  RL_IP_NODE_KERNEL = 0,
  RL_IP_NODE_COPY = 1,  // device or host bytes into a device range
  RL_IP_NODE_FILL = 2,
} rl_ip_node_kind_t;

// One node of a graph captured from a stream, in capture order.
typedef struct rl_ip_node_s {
  rl_ip_node_kind_t kind;
  uint32_t function;  // KERNEL: index into functions
  uint32_t grid[3], block[3], lds;
  uint8_t* kernarg;  // KERNEL: the kernarg image, kernarg_size bytes
  uint64_t dst, src, size;  // COPY / FILL
  bool src_host;            // COPY: src is a host address (read at launch)
  uint32_t pattern, width;  // FILL
} rl_ip_node_t;

// A graph captured from |stream|: its nodes, the hipGraph_t the capture
// ended in and the executable graphs instantiated from it. |broken| names
// why its launches cannot be recorded (a node the interposer does not
// model, or an executable graph updated after instantiation).
typedef struct rl_ip_graph_s {
  hipStream_t stream;
  bool capturing;
  hipGraph_t graph;
  hipGraphExec_t execs[16];
  uint32_t exec_count;
  rl_ip_node_t* nodes;
  uint32_t node_count, node_capacity;
  char broken[160];
} rl_ip_graph_t;

// The interposer's whole state: one object, created with the process
// (an LD_PRELOAD library has one per process) and passed to every function.
typedef struct rl_interposer_s {
  pthread_mutex_t lock;
  bool started, written, failed;
  void* library;
  rl_funnel_device_t device;
  rl_funnel_t* funnel;
  // Values the device functions hand to the funnel.
  uint64_t pending_address;
  uint64_t pending_handle;
  hipFunction_t pending_function;
  const void* pending_host;  // set: launch through hipLaunchKernel
  const rl_code_object_kernel_t* pending_info;
  hipStream_t pending_stream;
  hipError_t launch_result;
  bool launched;
  rl_ip_module_t modules[64];
  uint32_t module_count;
  rl_ip_function_t functions[256];
  uint32_t function_count;
  rl_ip_buffer_t buffers[RL_IP_MAX];
  uint32_t buffer_count;
  // Copies and fills (rl_ip_copy_*): the embedded copy code object, loaded
  // into the funnel on the first device write recorded, and its kernels.
  bool copy_loaded, copy_failed;
  rl_code_object_t* copy_parsed;
  uint32_t copy_kernel, fill_kernel;
  const rl_code_object_kernel_t* copy_info;
  const rl_code_object_kernel_t* fill_info;
  rl_ip_staging_t* staging;  // host bytes of recorded host->device copies
  uint32_t staging_count, staging_capacity;
  bool record_only;  // the funnel's launch records without forwarding
  // Graphs captured from streams (rl_ip_graph_*).
  rl_ip_graph_t* graphs;  // one per hipStreamBeginCapture
  uint32_t graph_count, graph_capacity;
  // Window.
  bool marker;
  char marker_name[128];
  uint64_t first, count;  // launches: window; marker: N
  uint64_t launches_seen;  // module launches (launches:) or marker hits
  bool window_open, window_closed;
  uint32_t recorded;
  uint32_t copies;  // copies and fills recorded as copy-kernel launches
  uint32_t bypassed;
  int64_t freed_in_window;  // funnel buffer freed while open, or -1
  char reason[256];
  char out[4096];
} rl_interposer_t;

static rl_interposer_t rl_ip_instance = {.lock = PTHREAD_MUTEX_INITIALIZER,
                                         .freed_in_window = -1};

static void* rl_ip_real(rl_interposer_t* ip, const char* name) {
  const char* path = getenv("REDLINE_HIP_LIBRARY");
  if (path && path[0]) {
    if (!ip->library) ip->library = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    return ip->library ? dlsym(ip->library, name) : NULL;
  }
  return dlsym(RTLD_NEXT, name);
}

#define RL_IP_REAL(name)                                               \
  static __typeof__(name)* real_##name;                               \
  if (!real_##name) real_##name = (__typeof__(name)*)rl_ip_real(ip, #name)

static void rl_ip_note(rl_interposer_t* ip, uint32_t bypassed, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
static void rl_ip_note(rl_interposer_t* ip, uint32_t bypassed, const char* format, ...) {
  ip->bypassed += bypassed;
  if (!ip->reason[0]) {
    va_list args;
    va_start(args, format);
    vsnprintf(ip->reason, sizeof(ip->reason), format, args);
    va_end(args);
  }
}

static void rl_ip_fail(rl_status_t status, const char* what) {
  fprintf(stderr, "redline_capture: %s: %s\n", what, rl_status_message(status));
  rl_status_free(status);
}

//===----------------------------------------------------------------------===//
// The funnel's device: hands back what the runtime already returned and
// forwards launches with the funnel's exact kernarg bytes.
//===----------------------------------------------------------------------===//

static rl_status_t rl_ip_load(void* self, const void* bytes, size_t size,
                              uint64_t* out_handle) {
  rl_interposer_t* ip = self;
  (void)bytes, (void)size;
  *out_handle = ip->pending_handle;
  return RL_OK;
}

static rl_status_t rl_ip_allocate(void* self, uint64_t size,
                                  uint64_t alignment, uint64_t* out_address) {
  rl_interposer_t* ip = self;
  (void)size, (void)alignment;
  *out_address = ip->pending_address;
  return RL_OK;
}

static rl_status_t rl_ip_write(void* self, uint64_t address, const void* data,
                               uint64_t size) {
  rl_interposer_t* ip = self;
  RL_IP_REAL(hipMemcpy);
  hipError_t error = real_hipMemcpy((void*)(uintptr_t)address, data, size,
                                    hipMemcpyHostToDevice);
  return error ? RL_STATUS(RL_STATUS_UNAVAILABLE, "hipMemcpy: error %d",
                           (int)error)
               : RL_OK;
}

static rl_status_t rl_ip_read(void* self, uint64_t address, void* data,
                              uint64_t size) {
  rl_interposer_t* ip = self;
  RL_IP_REAL(hipMemcpy);
  hipError_t error = real_hipMemcpy(data, (const void*)(uintptr_t)address,
                                    size, hipMemcpyDeviceToHost);
  return error ? RL_STATUS(RL_STATUS_UNAVAILABLE, "hipMemcpy: error %d",
                           (int)error)
               : RL_OK;
}

// Forwards a host-stub launch: hipLaunchKernel takes one pointer per
// explicit argument, here into the funnel's kernarg at the metadata offsets.
static hipError_t rl_ip_launch_host(rl_interposer_t* ip, const rl_funnel_dispatch_t* dispatch) {
  RL_IP_REAL(hipLaunchKernel);
  if (!real_hipLaunchKernel) return hipErrorNotSupported;
  void* params[64];
  uint32_t count = 0;
  const rl_code_object_kernel_t* info = ip->pending_info;
  for (uint32_t a = 0; a < info->arg_count && count < 64; ++a) {
    if (info->args[a].kind == RL_ARG_KIND_HIDDEN) continue;
    params[count++] = (void*)(dispatch->kernarg + info->args[a].offset);
  }
  const dim3 grid = {dispatch->grid[0], dispatch->grid[1], dispatch->grid[2]};
  const dim3 block = {dispatch->block[0], dispatch->block[1],
                      dispatch->block[2]};
  return real_hipLaunchKernel(ip->pending_host, grid, block, params,
                              dispatch->dynamic_lds, ip->pending_stream);
}

static rl_status_t rl_ip_launch(void* self,
                                const rl_funnel_dispatch_t* dispatch) {
  rl_interposer_t* ip = self;
  RL_IP_REAL(hipModuleLaunchKernel);
  size_t size = dispatch->kernarg_size;
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, (void*)dispatch->kernarg,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  ip->launched = true;
  if (ip->record_only) {  // the program's own call does the work
    ip->launch_result = hipSuccess;
    return RL_OK;
  }
  if (ip->pending_host) {
    ip->launch_result = rl_ip_launch_host(ip, dispatch);
  } else {
    ip->launch_result = real_hipModuleLaunchKernel(
        ip->pending_function, dispatch->grid[0], dispatch->grid[1],
        dispatch->grid[2], dispatch->block[0], dispatch->block[1],
        dispatch->block[2], dispatch->dynamic_lds, ip->pending_stream, NULL,
        extra);
  }
  return ip->launch_result
             ? RL_STATUS(RL_STATUS_UNAVAILABLE, "%s: error %d",
                         ip->pending_host ? "hipLaunchKernel"
                                            : "hipModuleLaunchKernel",
                         (int)ip->launch_result)
             : RL_OK;
}

static void rl_ip_write_capture(void);

// Parses the window and creates the funnel on the first interposed call.
// Parses one number of REDLINE_CAPTURE_WINDOW; false on junk or overflow.
static bool rl_ip_number(const char* text, uint64_t* out_value) {
  rl_status_t status = rl_number_parse_u64(text, out_value);
  bool ok = status == RL_OK;
  rl_status_free(status);
  return ok;
}

static bool rl_ip_start(rl_interposer_t* ip) {
  if (ip->started) return !ip->failed;
  ip->started = true;
  const char* out = getenv("REDLINE_CAPTURE_OUT");
  snprintf(ip->out, sizeof(ip->out), "%s",
           out && out[0] ? out : "redline_capture.rlc");
  const char* window = getenv("REDLINE_CAPTURE_WINDOW");
  ip->first = 0;
  ip->count = UINT64_MAX;
  if (window && strncmp(window, "launches:", 9) == 0) {
    // FIRST[:COUNT|:all], each number by the one parser (redline/base/number.h).
    char first[32] = "";
    const char* colon = strchr(window + 9, ':');
    size_t length = colon ? (size_t)(colon - window - 9) : strlen(window + 9);
    if (length >= sizeof(first)) length = 0;  // refused by the parser below
    memcpy(first, window + 9, length);
    first[length] = '\0';
    if (!rl_ip_number(first, &ip->first)) ip->failed = true;
    if (colon && strcmp(colon + 1, "all") != 0 &&
        !rl_ip_number(colon + 1, &ip->count)) {
      ip->failed = true;
    }
  } else if (window && strncmp(window, "marker:", 7) == 0) {
    const char* colon = strrchr(window + 7, ':');
    size_t length = colon ? (size_t)(colon - window - 7) : 0;
    if (!colon || length == 0 || length >= sizeof(ip->marker_name)) {
      ip->failed = true;
    } else {
      ip->marker = true;
      memcpy(ip->marker_name, window + 7, length);
      if (!rl_ip_number(colon + 1, &ip->first)) ip->failed = true;
    }
  } else if (window && window[0]) {
    ip->failed = true;
  }
  if (ip->failed) {
    fprintf(stderr, "redline_capture: REDLINE_CAPTURE_WINDOW='%s': expected "
                    "launches:FIRST:COUNT or marker:NAME:N; not capturing\n",
            window);
    return false;
  }
  ip->device = (rl_funnel_device_t){.self = ip,
                                      .load_code_object = rl_ip_load,
                                      .allocate = rl_ip_allocate,
                                      .write = rl_ip_write,
                                      .read = rl_ip_read,
                                      .launch = rl_ip_launch};
  const char* name = program_invocation_short_name;
  rl_status_t status = rl_funnel_create(name && name[0] ? name : "hip-app",
                                        &ip->device, &ip->funnel);
  if (status) {
    rl_ip_fail(status, "funnel");
    ip->failed = true;
    return false;
  }
  atexit(rl_ip_write_capture);
  return true;
}

#define RL_IP_ENTER()                  \
  rl_interposer_t* ip = &rl_ip_instance; \
  pthread_mutex_lock(&ip->lock);        \
  bool rl_ip_on = rl_ip_start(ip) && !ip->written

static hipError_t rl_ip_unlock(rl_interposer_t* ip, hipError_t error) {
  pthread_mutex_unlock(&ip->lock);
  return error;
}
#define rl_ip_leave(error) rl_ip_unlock(ip, (error))

static rl_ip_buffer_t* rl_ip_buffer_at(rl_interposer_t* ip, uint64_t address) {
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    rl_ip_buffer_t* b = &ip->buffers[i];
    uint64_t base = (uint64_t)(uintptr_t)b->base;
    if (!b->freed && address >= base && address - base < b->size) return b;
  }
  return NULL;
}

// Finishes the funnel and writes the capture (atomically, by the output-file
// rules of rl_capture_file_write).
static void rl_ip_write_capture_locked(rl_interposer_t* ip) {
  if (!ip->funnel || ip->written) return;
  ip->written = true;
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    char name[32];
    snprintf(name, sizeof(name), "buf%u", ip->buffers[i].index);
    uint32_t region = 0;
    rl_status_t status = rl_funnel_region(ip->funnel, name,
                                          ip->buffers[i].index, 0,
                                          ip->buffers[i].size,
                                          RL_REGION_BYTES, &region);
    if (status) rl_ip_fail(status, "region");
  }
  // Launches fail asynchronously too (a fault found when the queue runs):
  // the runtime reports them at the next synchronisation, so the capture
  // asks for one before it is written.
  RL_IP_REAL(hipDeviceSynchronize);
  RL_IP_REAL(hipGetErrorName);
  hipError_t sync = real_hipDeviceSynchronize ? real_hipDeviceSynchronize()
                                              : hipSuccess;
  if (sync != hipSuccess) {
    rl_ip_note(ip, 0, "a forwarded launch failed (hipDeviceSynchronize: %s)",
               real_hipGetErrorName ? real_hipGetErrorName(sync) : "error");
  }
  // The capture declares its window: the whole recorded sequence is one
  // step of parameter "run" (admitted range [0, 1)), so `redline shadow
  // FILE` and `redline bench FILE` need no --windows.
  uint32_t run_param = 0, window = 0;
  rl_status_t declared =
      rl_funnel_param(ip->funnel, "run", 0, 1, 0, &run_param);
  if (!declared) {
    declared = rl_funnel_window(ip->funnel, run_param, 0, 1, 1, &window);
  }
  if (declared) rl_ip_fail(declared, "declaring the window");
  rl_capture_t* capture = NULL;
  rl_status_t status = rl_funnel_finish(ip->funnel, &capture);
  if (!status && capture->launch_count == 0 && !ip->reason[0]) {
    // Nothing to replay: a window past the program's last launch, or a
    // program whose launches never reached the interposer (linked against
    // a runtime it does not interpose). Said, and refused by replay.
    rl_ip_note(ip, 0, "no launch was recorded (window %s)",
               ip->window_open ? "open" : "never opened");
  }
  if (!status && (ip->bypassed || ip->reason[0])) {
    status = rl_capture_mark_incomplete(capture, ip->bypassed, ip->reason);
  }
  if (!status) status = rl_capture_file_write(capture, ip->out, NULL);
  if (status) {
    rl_ip_fail(status, "writing the capture");
  } else {
    fprintf(stderr,
            "redline_capture: %u launches recorded into %s (%u of them "
            "copies or fills)%s%s\n",
            capture->launch_count, ip->out, ip->copies,
            rl_capture_incomplete(capture) ? "; INCOMPLETE: " : "",
            rl_capture_incomplete(capture) ? capture->incomplete_reason : "");
  }
  rl_capture_destroy(capture);
  rl_funnel_destroy(ip->funnel);
  ip->funnel = NULL;
  RL_IP_REAL(hipFree);
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    if (ip->buffers[i].freed && real_hipFree) {
      (void)real_hipFree(ip->buffers[i].base);
    }
  }
  for (uint32_t i = 0; i < ip->staging_count && real_hipFree; ++i) {
    (void)real_hipFree(ip->staging[i].base);
  }
  free(ip->staging);
  ip->staging = NULL;
  ip->staging_count = ip->staging_capacity = 0;
  for (uint32_t g = 0; g < ip->graph_count; ++g) {
    for (uint32_t n = 0; n < ip->graphs[g].node_count; ++n) {
      free(ip->graphs[g].nodes[n].kernarg);
    }
    free(ip->graphs[g].nodes);
  }
  free(ip->graphs);
  ip->graphs = NULL;
  ip->graph_count = ip->graph_capacity = 0;
  rl_code_object_destroy(ip->copy_parsed);
  ip->copy_parsed = NULL;
}

static void rl_ip_write_capture(void) {
  rl_interposer_t* ip = &rl_ip_instance;
  pthread_mutex_lock(&ip->lock);
  rl_ip_write_capture_locked(ip);
  pthread_mutex_unlock(&ip->lock);
}

//===----------------------------------------------------------------------===//
// Interposed entry points
//===----------------------------------------------------------------------===//

// Records the |size|-byte code object |image| the runtime loaded as
// |module|; lock held, recording on.
static void rl_ip_record_code_object(rl_interposer_t* ip, hipModule_t module, const void* image,
                                     size_t size, const char* what) {
  if (ip->module_count == 64) return;
  rl_ip_module_t* m = &ip->modules[ip->module_count];
  ip->pending_handle = ip->module_count;
  rl_status_t status = rl_code_object_parse(image, size, &m->parsed);
  if (!status) {
    status = rl_funnel_load_code_object(ip->funnel, image, size,
                                        &m->code_object);
  }
  if (status) {
    rl_ip_fail(status, what);
    rl_code_object_destroy(m->parsed);
    m->parsed = NULL;
    return;
  }
  m->module = module;
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

// The processor of device 0, defined below.
static bool rl_ip_processor(rl_interposer_t* ip, char* out, size_t capacity);

// Reads the whole file |path| into a malloc'd buffer; NULL on failure.
static uint8_t* rl_ip_read_file(const char* path, size_t* out_size) {
  *out_size = 0;
  FILE* file = fopen(path, "rb");
  if (!file) return NULL;
  uint8_t* bytes = NULL;
  size_t size = 0, capacity = 0;
  for (;;) {
    if (size == capacity) {
      capacity = capacity ? capacity * 2 : 65536;
      uint8_t* grown = realloc(bytes, capacity);
      if (!grown) break;
      bytes = grown;
    }
    size_t got = fread(bytes + size, 1, capacity - size, file);
    size += got;
    if (got == 0) break;
  }
  bool ok = !ferror(file);
  fclose(file);
  if (!ok || size < 64 || size == capacity) {
    free(bytes);
    return NULL;
  }
  *out_size = size;
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
    rl_ip_fail(status, "hipModuleLoad");
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
  if (error || !rl_ip_on || ip->function_count == 256) {
    return rl_ip_leave(error);
  }
  for (uint32_t m = 0; m < ip->module_count; ++m) {
    if (ip->modules[m].module != module) continue;
    rl_ip_function_t* f = &ip->functions[ip->function_count];
    rl_status_t status = rl_funnel_kernel(
        ip->funnel, ip->modules[m].code_object, name, &f->kernel);
    if (status) {
      rl_ip_fail(status, "hipModuleGetFunction");
      break;
    }
    f->function = *function;
    f->module = m;
    f->info = rl_code_object_find_kernel(ip->modules[m].parsed, name);
    ++ip->function_count;
    break;
  }
  return rl_ip_leave(error);
}

// The recorded module loaded as |module|, or NULL.
static rl_ip_module_t* rl_ip_module_find(rl_interposer_t* ip, hipModule_t module) {
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
static bool rl_ip_processor(rl_interposer_t* ip, char* out, size_t capacity) {
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
    rl_ip_fail(status, "__hipRegisterFatBinary");
  } else {
    rl_ip_record_code_object(ip, (hipModule_t)modules, code, (size_t)size,
                             "__hipRegisterFatBinary");
  }
  rl_ip_leave(hipSuccess);
  return modules;
}

RL_IP_EXPORT void __hipRegisterFunction(void** modules,
                                        const void* hostFunction,
                                        char* deviceFunction,
                                        const char* deviceName,
                                        unsigned int threadLimit, void* tid,
                                        void* bid, void* blockDim,
                                        void* gridDim, int* wSize) {
  RL_IP_ENTER();
  RL_IP_REAL(__hipRegisterFunction);
  if (real___hipRegisterFunction) {
    real___hipRegisterFunction(modules, hostFunction, deviceFunction,
                               deviceName, threadLimit, tid, bid, blockDim,
                               gridDim, wSize);
  }
  rl_ip_module_t* m = rl_ip_on ? rl_ip_module_find(ip, (hipModule_t)modules) : NULL;
  const rl_code_object_kernel_t* info =
      m && deviceName ? rl_code_object_find_kernel(m->parsed, deviceName)
                      : NULL;
  if (!info || ip->function_count == 256) {
    rl_ip_leave(hipSuccess);
    return;
  }
  rl_ip_function_t* f = &ip->functions[ip->function_count];
  rl_status_t status =
      rl_funnel_kernel(ip->funnel, m->code_object, deviceName, &f->kernel);
  if (status) {
    rl_ip_fail(status, "__hipRegisterFunction");
  } else {
    *f = (rl_ip_function_t){.host = hostFunction,
                            .module = (uint32_t)(m - ip->modules),
                            .kernel = f->kernel,
                            .info = info};
    ++ip->function_count;
  }
  rl_ip_leave(hipSuccess);
}

RL_IP_EXPORT hipError_t hipMalloc(void** ptr, size_t size) {
  RL_IP_ENTER();
  RL_IP_REAL(hipMalloc);
  if (!real_hipMalloc) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipMalloc(ptr, size);
  if (error || !rl_ip_on || !*ptr || ip->buffer_count == RL_IP_MAX) {
    return rl_ip_leave(error);
  }
  rl_ip_buffer_t* b = &ip->buffers[ip->buffer_count];
  char name[32];
  snprintf(name, sizeof(name), "buf%u", ip->buffer_count);
  ip->pending_address = (uint64_t)(uintptr_t)*ptr;
  uint64_t address = 0;
  rl_status_t status =
      rl_funnel_buffer(ip->funnel, name, size, 256, RL_BUFFER_ROLE_STATE,
                       false, &b->index, &address);
  if (status) {
    rl_ip_fail(status, "hipMalloc");
    if (ip->window_open) rl_ip_note(ip, 0, "an allocation was not recorded");
    return rl_ip_leave(error);
  }
  b->base = *ptr;
  b->size = size;
  ++ip->buffer_count;
  return rl_ip_leave(error);
}

RL_IP_EXPORT hipError_t hipFree(void* ptr) {
  RL_IP_ENTER();
  RL_IP_REAL(hipFree);
  if (!real_hipFree) return rl_ip_leave(hipErrorNotSupported);
  rl_ip_buffer_t* b = rl_ip_on ? rl_ip_buffer_at(ip, (uint64_t)(uintptr_t)ptr) : NULL;
  if (!b || b->base != ptr) return rl_ip_leave(real_hipFree(ptr));
  // Kept allocated until the capture is written (no address reuse).
  b->freed = true;
  // An error only if the window records another launch afterwards.
  if (b->used && ip->window_open && !ip->window_closed &&
      ip->freed_in_window < 0) {
    ip->freed_in_window = b->index;
  }
  return rl_ip_leave(hipSuccess);
}

//===----------------------------------------------------------------------===//
// Copies and fills: device writes without a kernel, recorded as launches of
// the embedded copy kernels (interposer_copy.hip) that the program's own
// call performs (the funnel's launch only records them).
//===----------------------------------------------------------------------===//

// Layout of the table cmake/EmbedFiles.cmake generates.
typedef struct {
  const char* name;
  const uint8_t* bytes;
  size_t size;
} rl_embedded_file_t;
extern const rl_embedded_file_t rl_ip_copy_objects[];

static bool rl_ip_in_window(rl_interposer_t* ip) {
  return ip->funnel && ip->window_open && !ip->window_closed;
}

// Loads the copy code object of the device's processor into the funnel
// once; false (said once on stderr) when there is none.
static bool rl_ip_copy_load(rl_interposer_t* ip) {
  if (ip->copy_loaded || ip->copy_failed) return ip->copy_loaded;
  char processor[64] = "";
  const rl_embedded_file_t* file = NULL;
  if (rl_ip_processor(ip, processor, sizeof(processor))) {
    for (const rl_embedded_file_t* e = rl_ip_copy_objects; e->name; ++e) {
      if (strcmp(e->name, processor) == 0) file = e;
    }
  }
  rl_status_t status =
      file ? rl_code_object_parse(file->bytes, file->size, &ip->copy_parsed)
           : RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "no copy kernels for processor '%s'", processor);
  uint32_t code_object = 0;
  if (!status) {
    ip->pending_handle = UINT64_MAX;  // never loaded in the runtime
    status = rl_funnel_load_code_object(ip->funnel, file->bytes, file->size,
                                        &code_object);
  }
  if (!status) {
    status = rl_funnel_kernel(ip->funnel, code_object, "rl_capture_copy",
                              &ip->copy_kernel);
  }
  if (!status) {
    status = rl_funnel_kernel(ip->funnel, code_object, "rl_capture_fill",
                              &ip->fill_kernel);
  }
  if (status) {
    rl_ip_fail(status, "loading the copy kernels");
    ip->copy_failed = true;
    return false;
  }
  ip->copy_info =
      rl_code_object_find_kernel(ip->copy_parsed, "rl_capture_copy");
  ip->fill_info =
      rl_code_object_find_kernel(ip->copy_parsed, "rl_capture_fill");
  ip->copy_loaded = ip->copy_info && ip->fill_info;
  ip->copy_failed = !ip->copy_loaded;
  return ip->copy_loaded;
}

// The recorded buffer holding [address, address + size), or NULL.
static rl_ip_buffer_t* rl_ip_buffer_range(rl_interposer_t* ip, uint64_t address, uint64_t size) {
  rl_ip_buffer_t* b = rl_ip_buffer_at(ip, address);
  uint64_t base = b ? (uint64_t)(uintptr_t)b->base : 0;
  return b && size <= b->size - (address - base) ? b : NULL;
}

// Records one launch of copy-kernel |kernel| over |size| bytes with
// |args|; the program's call (forwarded by the caller) does the write.
static void rl_ip_record_builtin(rl_interposer_t* ip, uint32_t kernel,
                                 const rl_code_object_kernel_t* info,
                                 uint64_t size, const rl_funnel_arg_t* args,
                                 uint32_t arg_count, const char* call) {
  const uint64_t groups = (size + 255u) / 256u;
  if (size > UINT32_MAX) {  // the kernels count bytes in 32 bits
    rl_ip_note(ip, 1, "%s of %llu bytes is too large to record", call,
               (unsigned long long)size);
    return;
  }
  const uint32_t grid[3] = {(uint32_t)groups, 1, 1}, block[3] = {256, 1, 1};
  ip->record_only = true;
  ip->pending_host = NULL;
  ip->pending_info = info;
  rl_status_t status = rl_funnel_launch(ip->funnel, kernel, grid, block, 0,
                                        args, arg_count, NULL, NULL);
  ip->record_only = false;
  if (status) {
    char what[96];
    snprintf(what, sizeof(what), "%s refused by the funnel", call);
    rl_ip_fail(status, what);
    rl_ip_note(ip, 1, "%s", what);
    return;
  }
  ++ip->copies;
}

// Records a device write of |size| bytes at |dst| from device address
// |src| (|host| NULL) or from the host bytes |host|; lock held, window
// open. A write outside every recorded buffer does not touch the capture.
static void rl_ip_record_copy(rl_interposer_t* ip, const char* call, uint64_t dst, uint64_t src,
                              const void* host, uint64_t size) {
  rl_ip_buffer_t* b = rl_ip_buffer_at(ip, dst);
  if (!b || size == 0) return;
  if (!rl_ip_buffer_range(ip, dst, size)) {
    rl_ip_note(ip, 1, "%s of %llu bytes into buf%u runs past its end", call,
               (unsigned long long)size, b->index);
    return;
  }
  if (!rl_ip_copy_load(ip)) {
    rl_ip_note(ip, 1, "%s into buf%u inside the window (no copy kernels)", call,
               b->index);
    return;
  }
  uint64_t source = src;
  if (host) {  // staged: a read-only buffer holding the program's bytes
    RL_IP_REAL(hipMalloc);
    void* staging = NULL;
    rl_status_t status = RL_ARRAY_RESERVE(&ip->staging,
                                          &ip->staging_capacity,
                                          ip->staging_count + 1);
    if (!status && (!real_hipMalloc || real_hipMalloc(&staging, size) ||
                    !staging)) {
      status = RL_STATUS(RL_STATUS_UNAVAILABLE,
                         "hipMalloc of a %llu-byte staging buffer failed",
                         (unsigned long long)size);
    }
    uint32_t index = 0;
    char name[32];
    snprintf(name, sizeof(name), "upload%u", ip->staging_count);
    if (!status) {
      ip->staging[ip->staging_count++].base = staging;
      ip->pending_address = (uint64_t)(uintptr_t)staging;
      status = rl_funnel_buffer(ip->funnel, name, size, 256,
                                RL_BUFFER_ROLE_WEIGHTS, false, &index,
                                &source);
    }
    if (!status) status = rl_funnel_upload(ip->funnel, index, 0, host, size);
    if (status) {
      rl_ip_fail(status, call);
      rl_ip_note(ip, 1, "%s into buf%u: the host bytes were not staged", call,
                 b->index);
      return;
    }
  } else {
    rl_ip_buffer_t* s = rl_ip_buffer_range(ip, src, size);
    if (!s) {
      rl_ip_note(ip, 1, "%s into buf%u from device memory outside every "
                    "recorded buffer", call, b->index);
      return;
    }
    s->used = true;
  }
  b->used = true;
  const rl_funnel_arg_t args[3] = {
      rl_funnel_arg_pointer_declared(dst, RL_EFFECT_WRITE, 0, size),
      rl_funnel_arg_pointer_declared(source, RL_EFFECT_READ, 0, size),
      rl_funnel_arg_u32((uint32_t)size)};
  rl_ip_record_builtin(ip, ip->copy_kernel, ip->copy_info, size, args, 3,
                       call);
}

// Records a fill of |size| bytes at |dst| with the |width|-byte |pattern|.
static void rl_ip_record_fill(rl_interposer_t* ip, const char* call, uint64_t dst, uint32_t pattern,
                              uint32_t width, uint64_t size) {
  rl_ip_buffer_t* b = rl_ip_buffer_at(ip, dst);
  if (!b || size == 0) return;
  if (!rl_ip_buffer_range(ip, dst, size)) {
    rl_ip_note(ip, 1, "%s of %llu bytes into buf%u runs past its end", call,
               (unsigned long long)size, b->index);
    return;
  }
  if (!rl_ip_copy_load(ip)) {
    rl_ip_note(ip, 1, "%s into buf%u inside the window (no copy kernels)", call,
               b->index);
    return;
  }
  b->used = true;
  const rl_funnel_arg_t args[4] = {
      rl_funnel_arg_pointer_declared(dst, RL_EFFECT_WRITE, 0, size),
      rl_funnel_arg_u32(pattern), rl_funnel_arg_u32(width),
      rl_funnel_arg_u32((uint32_t)size)};
  rl_ip_record_builtin(ip, ip->fill_kernel, ip->fill_info, size, args, 4,
                       call);
}

// A copy of |kind| the program makes: device writes inside the window are
// recorded; a hipMemcpyDefault whose source is not a recorded buffer is a
// host address only the runtime can tell apart, so it is refused.
static void rl_ip_copy(rl_interposer_t* ip, const char* call, void* dst, const void* src,
                       size_t size, hipMemcpyKind kind) {
  if (!rl_ip_in_window(ip)) return;
  if (kind == hipMemcpyDeviceToHost || kind == hipMemcpyHostToHost) return;
  const uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
  if (kind == hipMemcpyDefault) {
    if (!rl_ip_buffer_at(ip, d)) return;
    if (rl_ip_buffer_at(ip, s)) {
      kind = hipMemcpyDeviceToDevice;
    } else {
      rl_ip_note(ip, 1, "%s (hipMemcpyDefault) into a recorded buffer from an "
                    "address the capture cannot classify", call);
      return;
    }
  }
  if (kind == hipMemcpyHostToDevice) {
    rl_ip_record_copy(ip, call, d, 0, src, size);
  } else {
    rl_ip_record_copy(ip, call, d, s, NULL, size);
  }
}

//===----------------------------------------------------------------------===//
// Graphs captured from streams: the nodes are kept at capture time and
// recorded, in capture order, each time an executable graph made from them
// is launched.
//===----------------------------------------------------------------------===//

// The graph |stream| is capturing into, or NULL.
static rl_ip_graph_t* rl_ip_graph_capturing(rl_interposer_t* ip, hipStream_t stream) {
  for (uint32_t i = 0; i < ip->graph_count; ++i) {
    if (ip->graphs[i].capturing && ip->graphs[i].stream == stream) {
      return &ip->graphs[i];
    }
  }
  return NULL;
}

static rl_ip_node_t* rl_ip_graph_node(rl_ip_graph_t* g, rl_ip_node_kind_t kind) {
  if (g->broken[0]) return NULL;
  rl_status_t status =
      RL_ARRAY_RESERVE(&g->nodes, &g->node_capacity, g->node_count + 1);
  if (status) {
    rl_status_free(status);
    snprintf(g->broken, sizeof(g->broken), "out of memory");
    return NULL;
  }
  rl_ip_node_t* n = &g->nodes[g->node_count++];
  *n = (rl_ip_node_t){.kind = kind};
  return n;
}

// Marks |g| unrecordable with |reason| (the first one kept).
static void rl_ip_graph_break(rl_ip_graph_t* g, const char* reason) {
  if (!g->broken[0]) snprintf(g->broken, sizeof(g->broken), "%s", reason);
}

// A copy into the graph |g| is capturing: a node when it writes device
// memory.
static void rl_ip_graph_copy(rl_interposer_t* ip, rl_ip_graph_t* g, void* dst, const void* src,
                             size_t size, hipMemcpyKind kind) {
  if (kind == hipMemcpyDeviceToHost || kind == hipMemcpyHostToHost) return;
  if (kind == hipMemcpyDefault) {
    kind = rl_ip_buffer_at(ip, (uint64_t)(uintptr_t)src) ? hipMemcpyDeviceToDevice
                                                      : hipMemcpyHostToDevice;
  }
  rl_ip_node_t* n = rl_ip_graph_node(g, RL_IP_NODE_COPY);
  if (!n) return;
  n->dst = (uint64_t)(uintptr_t)dst;
  n->src = (uint64_t)(uintptr_t)src;
  n->size = size;
  n->src_host = kind == hipMemcpyHostToDevice;
}

static void rl_ip_graph_fill(rl_ip_graph_t* g, void* dst, uint32_t pattern,
                             uint32_t width, uint64_t size) {
  rl_ip_node_t* n = rl_ip_graph_node(g, RL_IP_NODE_FILL);
  if (!n) return;
  n->dst = (uint64_t)(uintptr_t)dst;
  n->pattern = pattern;
  n->width = width;
  n->size = size;
}

// True when [d, d + size) of a device write is one the capture must see.
static void rl_ip_fill(rl_interposer_t* ip, const char* call, void* dst, uint32_t pattern,
                       uint32_t width, uint64_t size) {
  if (rl_ip_in_window(ip)) {
    rl_ip_record_fill(ip, call, (uint64_t)(uintptr_t)dst, pattern, width, size);
  }
}

//===----------------------------------------------------------------------===//
// The device writes a program makes without a kernel
//===----------------------------------------------------------------------===//

RL_IP_EXPORT hipError_t hipMemcpy(void* dst, const void* src, size_t size,
                                  hipMemcpyKind kind) {
  RL_IP_ENTER();
  RL_IP_REAL(hipMemcpy);
  if (!real_hipMemcpy) return rl_ip_leave(hipErrorNotSupported);
  if (rl_ip_on) rl_ip_copy(ip, "hipMemcpy", dst, src, size, kind);
  return rl_ip_leave(real_hipMemcpy(dst, src, size, kind));
}

// An asynchronous copy on |stream|: a graph node while the stream captures.
static void rl_ip_copy_on(rl_interposer_t* ip, const char* call, void* dst, const void* src,
                          size_t size, hipMemcpyKind kind,
                          hipStream_t stream) {
  rl_ip_graph_t* g = rl_ip_graph_capturing(ip, stream);
  if (g) {
    rl_ip_graph_copy(ip, g, dst, src, size, kind);
  } else {
    rl_ip_copy(ip, call, dst, src, size, kind);
  }
}

static void rl_ip_fill_on(rl_interposer_t* ip, const char* call, void* dst, uint32_t pattern,
                          uint32_t width, uint64_t size, hipStream_t stream) {
  rl_ip_graph_t* g = rl_ip_graph_capturing(ip, stream);
  if (g) {
    rl_ip_graph_fill(g, dst, pattern, width, size);
  } else {
    rl_ip_fill(ip, call, dst, pattern, width, size);
  }
}

// Forwards |name| after |observe| (a statement using the parameters) ran
// with the lock held and recording on.
#define RL_IP_WRITE_FORWARD(name, observe, params, ...)          \
  RL_IP_EXPORT hipError_t name params {                          \
    RL_IP_ENTER();                                            \
    RL_IP_REAL(name);                                               \
    if (!real_##name) return rl_ip_leave(hipErrorNotSupported);  \
    if (rl_ip_on) observe;                                       \
    return rl_ip_leave(real_##name(__VA_ARGS__));                \
  }

RL_IP_WRITE_FORWARD(hipMemcpyAsync,
                    rl_ip_copy_on(ip, "hipMemcpyAsync", dst, src, size, kind,
                                  stream),
                    (void* dst, const void* src, size_t size,
                     hipMemcpyKind kind, hipStream_t stream),
                    dst, src, size, kind, stream)
RL_IP_WRITE_FORWARD(hipMemcpyWithStream,
                    rl_ip_copy_on(ip, "hipMemcpyWithStream", dst, src, size, kind,
                                  stream),
                    (void* dst, const void* src, size_t size,
                     hipMemcpyKind kind, hipStream_t stream),
                    dst, src, size, kind, stream)
RL_IP_WRITE_FORWARD(hipMemcpyHtoD,
                    rl_ip_copy(ip, "hipMemcpyHtoD", dst, src, size,
                               hipMemcpyHostToDevice),
                    (hipDeviceptr_t dst, void* src, size_t size),
                    dst, src, size)
RL_IP_WRITE_FORWARD(hipMemcpyHtoDAsync,
                    rl_ip_copy_on(ip, "hipMemcpyHtoDAsync", dst, src, size,
                                  hipMemcpyHostToDevice, stream),
                    (hipDeviceptr_t dst, void* src, size_t size,
                     hipStream_t stream),
                    dst, src, size, stream)
RL_IP_WRITE_FORWARD(hipMemcpyDtoD,
                    rl_ip_copy(ip, "hipMemcpyDtoD", dst, src, size,
                               hipMemcpyDeviceToDevice),
                    (hipDeviceptr_t dst, hipDeviceptr_t src, size_t size),
                    dst, src, size)
RL_IP_WRITE_FORWARD(hipMemcpyDtoDAsync,
                    rl_ip_copy_on(ip, "hipMemcpyDtoDAsync", dst, src, size,
                                  hipMemcpyDeviceToDevice, stream),
                    (hipDeviceptr_t dst, hipDeviceptr_t src, size_t size,
                     hipStream_t stream),
                    dst, src, size, stream)
RL_IP_WRITE_FORWARD(hipMemset,
                    rl_ip_fill(ip, "hipMemset", dst, (uint8_t)value, 1, size),
                    (void* dst, int value, size_t size), dst, value, size)
RL_IP_WRITE_FORWARD(hipMemsetAsync,
                    rl_ip_fill_on(ip, "hipMemsetAsync", dst, (uint8_t)value, 1,
                                  size, stream),
                    (void* dst, int value, size_t size, hipStream_t stream),
                    dst, value, size, stream)
RL_IP_WRITE_FORWARD(hipMemsetD8,
                    rl_ip_fill(ip, "hipMemsetD8", dst, value, 1, count),
                    (hipDeviceptr_t dst, unsigned char value, size_t count),
                    dst, value, count)
RL_IP_WRITE_FORWARD(hipMemsetD16,
                    rl_ip_fill(ip, "hipMemsetD16", dst, value, 2,
                               (uint64_t)count * 2u),
                    (hipDeviceptr_t dst, unsigned short value, size_t count),
                    dst, value, count)
RL_IP_WRITE_FORWARD(hipMemsetD32,
                    rl_ip_fill(ip, "hipMemsetD32", dst, (uint32_t)value, 4,
                               (uint64_t)count * 4u),
                    (hipDeviceptr_t dst, int value, size_t count),
                    dst, value, count)

//===----------------------------------------------------------------------===//
// Stream capture and graph launches
//===----------------------------------------------------------------------===//

RL_IP_EXPORT hipError_t hipStreamBeginCapture(hipStream_t stream,
                                              hipStreamCaptureMode mode) {
  RL_IP_ENTER();
  RL_IP_REAL(hipStreamBeginCapture);
  if (!real_hipStreamBeginCapture) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipStreamBeginCapture(stream, mode);
  if (error || !rl_ip_on) return rl_ip_leave(error);
  rl_status_t status = RL_ARRAY_RESERVE(&ip->graphs, &ip->graph_capacity,
                                        ip->graph_count + 1);
  if (status) {
    rl_ip_fail(status, "hipStreamBeginCapture");
    return rl_ip_leave(error);
  }
  ip->graphs[ip->graph_count++] =
      (rl_ip_graph_t){.stream = stream, .capturing = true};
  return rl_ip_leave(error);
}

RL_IP_EXPORT hipError_t hipStreamEndCapture(hipStream_t stream,
                                            hipGraph_t* graph) {
  RL_IP_ENTER();
  RL_IP_REAL(hipStreamEndCapture);
  if (!real_hipStreamEndCapture) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipStreamEndCapture(stream, graph);
  rl_ip_graph_t* g = rl_ip_on ? rl_ip_graph_capturing(ip, stream) : NULL;
  if (g) {
    g->capturing = false;
    g->graph = error || !graph ? NULL : *graph;
  }
  return rl_ip_leave(error);
}

// The captured graph whose hipGraph_t is |graph|, or NULL.
static rl_ip_graph_t* rl_ip_graph_of(rl_interposer_t* ip, hipGraph_t graph) {
  for (uint32_t i = 0; graph && i < ip->graph_count; ++i) {
    if (ip->graphs[i].graph == graph) return &ip->graphs[i];
  }
  return NULL;
}

// The captured graph |exec| was instantiated from, or NULL.
static rl_ip_graph_t* rl_ip_graph_exec(rl_interposer_t* ip, hipGraphExec_t exec) {
  for (uint32_t i = 0; exec && i < ip->graph_count; ++i) {
    for (uint32_t e = 0; e < ip->graphs[i].exec_count; ++e) {
      if (ip->graphs[i].execs[e] == exec) return &ip->graphs[i];
    }
  }
  return NULL;
}

static void rl_ip_graph_instantiated(rl_interposer_t* ip, hipGraph_t graph, hipGraphExec_t exec) {
  rl_ip_graph_t* g = rl_ip_graph_of(ip, graph);
  if (!g) return;
  if (g->exec_count == 16) {
    rl_ip_graph_break(g, "more than 16 executable graphs of one graph");
    return;
  }
  g->execs[g->exec_count++] = exec;
}

RL_IP_EXPORT hipError_t hipGraphInstantiate(hipGraphExec_t* exec,
                                            hipGraph_t graph,
                                            hipGraphNode_t* error_node,
                                            char* log, size_t log_size) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphInstantiate);
  if (!real_hipGraphInstantiate) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error =
      real_hipGraphInstantiate(exec, graph, error_node, log, log_size);
  if (!error && rl_ip_on && exec) rl_ip_graph_instantiated(ip, graph, *exec);
  return rl_ip_leave(error);
}

RL_IP_EXPORT hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec,
                                                     hipGraph_t graph,
                                                     unsigned long long flags) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphInstantiateWithFlags);
  if (!real_hipGraphInstantiateWithFlags) {
    return rl_ip_leave(hipErrorNotSupported);
  }
  hipError_t error = real_hipGraphInstantiateWithFlags(exec, graph, flags);
  if (!error && rl_ip_on && exec) rl_ip_graph_instantiated(ip, graph, *exec);
  return rl_ip_leave(error);
}

// Changing an executable graph makes its recorded nodes stale.
RL_IP_EXPORT hipError_t hipGraphExecKernelNodeSetParams(
    hipGraphExec_t exec, hipGraphNode_t node,
    const hipKernelNodeParams* params) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphExecKernelNodeSetParams);
  if (!real_hipGraphExecKernelNodeSetParams) {
    return rl_ip_leave(hipErrorNotSupported);
  }
  rl_ip_graph_t* g = rl_ip_on ? rl_ip_graph_exec(ip, exec) : NULL;
  if (g) rl_ip_graph_break(g, "a kernel node changed after instantiation");
  return rl_ip_leave(real_hipGraphExecKernelNodeSetParams(exec, node, params));
}

RL_IP_EXPORT hipError_t hipGraphExecUpdate(
    hipGraphExec_t exec, hipGraph_t graph, hipGraphNode_t* error_node,
    hipGraphExecUpdateResult* result) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphExecUpdate);
  if (!real_hipGraphExecUpdate) return rl_ip_leave(hipErrorNotSupported);
  rl_ip_graph_t* g = rl_ip_on ? rl_ip_graph_exec(ip, exec) : NULL;
  if (g) rl_ip_graph_break(g, "the executable graph was updated");
  return rl_ip_leave(real_hipGraphExecUpdate(exec, graph, error_node, result));
}

// Moves the window for one module launch of |f|; true when it is recorded.
static bool rl_ip_window_step(rl_interposer_t* ip, const rl_ip_function_t* f) {
  if (ip->window_closed) return false;
  if (ip->marker) {
    if (!f || strcmp(f->info->name, ip->marker_name) != 0) {
      return ip->window_open;
    }
    uint64_t hit = ip->launches_seen++;
    if (hit == ip->first) ip->window_open = true;
    if (hit == ip->first + 1) ip->window_closed = true;
    return ip->window_open && !ip->window_closed;
  }
  uint64_t index = ip->launches_seen++;
  if (index == ip->first) ip->window_open = true;
  if (ip->count != UINT64_MAX && index >= ip->first + ip->count) {
    ip->window_closed = true;
  }
  return ip->window_open && !ip->window_closed;
}

// Steps the window for a launch of |f| and writes the capture when that
// closes it; true when the launch is recorded.
static bool rl_ip_window_launch(rl_interposer_t* ip, const rl_ip_function_t* f) {
  bool closed_before = ip->window_closed;
  bool record = ip->funnel && rl_ip_window_step(ip, f);
  if (!closed_before && ip->window_closed) rl_ip_write_capture_locked(ip);
  return record;
}

// The function launched as |function| (module) or |host| (host stub).
static rl_ip_function_t* rl_ip_function_find(rl_interposer_t* ip, hipFunction_t function,
                                             const void* host) {
  rl_ip_function_t* f = NULL;
  for (uint32_t i = 0; i < ip->function_count; ++i) {
    const rl_ip_function_t* candidate = &ip->functions[i];
    if (host ? candidate->host == host
             : candidate->function == function && !candidate->host) {
      f = &ip->functions[i];
    }
  }
  return f;
}

// Types the explicit arguments of a launch of |info| (argument typing):
// from |params| (one pointer per explicit argument) or from the kernarg
// image |buffer| of |buffer_size| bytes, sliced at the metadata offsets.
// global_buffer -> pointer (the funnel's effect rules), 4/8-byte by_value
// -> u32/u64, others -> bytes (pointing into |params| or |buffer|). False
// when an argument is not readable.
static bool rl_ip_type_args(rl_interposer_t* ip, const rl_code_object_kernel_t* info, void** params,
                            const uint8_t* buffer, size_t buffer_size,
                            rl_funnel_arg_t args[64], uint32_t* out_count) {
  uint32_t count = 0;
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    const uint8_t* bytes = NULL;
    if (params) {
      bytes = params[count];
    } else if (buffer && meta->offset + meta->size <= buffer_size) {
      bytes = buffer + meta->offset;
    }
    if (!bytes || count == 64) return false;
    uint64_t value = 0;
    memcpy(&value, bytes, meta->size < 8 ? meta->size : 8);
    if (meta->kind == RL_ARG_KIND_GLOBAL_BUFFER && meta->size == 8) {
      args[count] = rl_funnel_arg_pointer(value);
      rl_ip_buffer_t* b = rl_ip_buffer_at(ip, value);
      if (b) b->used = true;
    } else if (meta->size == 4) {
      args[count] = rl_funnel_arg_u32((uint32_t)value);
    } else if (meta->size == 8) {
      args[count] = rl_funnel_arg_u64(value);
    } else {
      args[count] = rl_funnel_arg_bytes(bytes, meta->size);
    }
    ++count;
  }
  *out_count = count;
  return true;
}

// The explicit-argument buffer of an |extra| launch, or NULL.
static const uint8_t* rl_ip_extra_buffer(void** extra, size_t* out_size) {
  const uint8_t* buffer = NULL;
  *out_size = 0;
  for (uint32_t i = 0; extra && extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) buffer = extra[i + 1];
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) {
      *out_size = *(const size_t*)extra[i + 1];
    }
  }
  return buffer;
}

// A kernel launch into the graph |g| is capturing: a node holding the
// kernarg image of its explicit arguments.
static void rl_ip_graph_kernel(rl_interposer_t* ip, rl_ip_graph_t* g, const rl_ip_function_t* f,
                               const uint32_t grid[3], const uint32_t block[3],
                               uint32_t lds, void** params, void** extra) {
  if (!f) {
    rl_ip_graph_break(g, "a kernel the interposer did not see loaded");
    return;
  }
  const rl_code_object_kernel_t* info = f->info;
  uint8_t* image = calloc(1, info->kernarg_size + 1u);
  size_t buffer_size = 0;
  const uint8_t* buffer = rl_ip_extra_buffer(extra, &buffer_size);
  bool ok = image && (params || buffer);
  uint32_t explicit_index = 0;
  for (uint32_t a = 0; ok && a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    if (params) {
      memcpy(image + meta->offset, params[explicit_index++], meta->size);
    } else if (meta->offset + meta->size <= buffer_size) {
      memcpy(image + meta->offset, buffer + meta->offset, meta->size);
    } else {
      ok = false;
    }
  }
  rl_ip_node_t* n = ok ? rl_ip_graph_node(g, RL_IP_NODE_KERNEL) : NULL;
  if (!n) {
    free(image);
    rl_ip_graph_break(g, "a kernel node's arguments are not readable");
    return;
  }
  n->function = (uint32_t)(f - ip->functions);
  memcpy(n->grid, grid, sizeof(n->grid));
  memcpy(n->block, block, sizeof(n->block));
  n->lds = lds;
  n->kernarg = image;
}

// Records one launch of |f| with typed |args|; |record_only| when the
// runtime runs it some other way (a graph node), else the funnel forwards
// it with its exact kernarg bytes. Returns the runtime's result of the
// forwarded launch; *|out_recorded| says whether the funnel took it.
static hipError_t rl_ip_record_launch(rl_interposer_t* ip, const rl_ip_function_t* f,
                                      hipFunction_t function,
                                      const uint32_t grid[3],
                                      const uint32_t block[3], uint32_t lds,
                                      hipStream_t stream,
                                      const rl_funnel_arg_t* args,
                                      uint32_t arg_count, bool record_only,
                                      bool* out_recorded) {
  *out_recorded = false;
  if (ip->freed_in_window >= 0) {
    rl_ip_note(ip, 0, "buffer buf%lld freed mid-window",
               (long long)ip->freed_in_window);
  }
  ip->pending_function = function;
  ip->pending_host = f->host;
  ip->pending_info = f->info;
  ip->pending_stream = stream;
  ip->launched = false;
  ip->launch_result = hipSuccess;
  ip->record_only = record_only;
  rl_status_t status = rl_funnel_launch(ip->funnel, f->kernel, grid, block,
                                        lds, args, arg_count, NULL, NULL);
  ip->record_only = false;
  if (!status) {
    ++ip->recorded;
    *out_recorded = true;
    return ip->launch_result;
  }
  if (ip->launched && !record_only) {
    // The runtime refused it: the program sees that, and the capture
    // cannot stand for the program's run.
    rl_ip_note(ip, 0, "the runtime failed the launch of %s (%s)", f->info->name,
               rl_status_message(status));
    rl_status_free(status);
    *out_recorded = true;  // forwarded once already
    return ip->launch_result;
  }
  char what[160];
  snprintf(what, sizeof(what), "launch of %s refused by the funnel",
           f->info->name);
  rl_ip_fail(status, what);
  rl_ip_note(ip, 1, "%s", what);
  return hipSuccess;
}

RL_IP_EXPORT hipError_t hipGraphLaunch(hipGraphExec_t exec,
                                       hipStream_t stream) {
  RL_IP_ENTER();
  RL_IP_REAL(hipGraphLaunch);
  if (!real_hipGraphLaunch) return rl_ip_leave(hipErrorNotSupported);
  rl_ip_graph_t* g = rl_ip_on ? rl_ip_graph_exec(ip, exec) : NULL;
  if (rl_ip_on && (!g || g->broken[0])) {
    // Its kernel nodes are unknown: count the launch as one step.
    if (rl_ip_window_launch(ip, NULL)) {
      rl_ip_note(ip, 1, "hipGraphLaunch is not recorded: %s",
                 g ? g->broken : "a graph not captured from a stream");
    }
  }
  for (uint32_t i = 0; g && !g->broken[0] && i < g->node_count; ++i) {
    const rl_ip_node_t* n = &g->nodes[i];
    if (n->kind == RL_IP_NODE_COPY) {
      if (rl_ip_in_window(ip)) {
        rl_ip_record_copy(ip, "hipGraphLaunch (memcpy node)", n->dst,
                          n->src_host ? 0 : n->src,
                          n->src_host ? (const void*)(uintptr_t)n->src : NULL,
                          n->size);
      }
      continue;
    }
    if (n->kind == RL_IP_NODE_FILL) {
      if (rl_ip_in_window(ip)) {
        rl_ip_record_fill(ip, "hipGraphLaunch (memset node)", n->dst, n->pattern,
                          n->width, n->size);
      }
      continue;
    }
    const rl_ip_function_t* f = &ip->functions[n->function];
    if (!rl_ip_window_launch(ip, f)) continue;
    rl_funnel_arg_t args[64];
    uint32_t arg_count = 0;
    bool recorded = false;
    if (!rl_ip_type_args(ip, f->info, NULL, n->kernarg, f->info->kernarg_size,
                         args, &arg_count)) {
      rl_ip_note(ip, 1, "graph node %u (%s): arguments not readable", i,
                 f->info->name);
      continue;
    }
    (void)rl_ip_record_launch(ip, f, f->function, n->grid, n->block, n->lds,
                              stream, args, arg_count, true, &recorded);
  }
  return rl_ip_leave(real_hipGraphLaunch(exec, stream));
}

// Records and issues one launch of the module function |function|, or
// (|host| set) of the registered host stub |host|; lock held.
static hipError_t rl_ip_module_launch(rl_interposer_t* ip, hipFunction_t function, const void* host,
                                      const uint32_t grid[3],
                                      const uint32_t block[3], uint32_t lds,
                                      hipStream_t stream, void** params,
                                      void** extra) {
  RL_IP_REAL(hipModuleLaunchKernel);
  RL_IP_REAL(hipLaunchKernel);
  if (host ? !real_hipLaunchKernel : !real_hipModuleLaunchKernel) {
    return hipErrorNotSupported;
  }
  rl_ip_function_t* f = rl_ip_function_find(ip, function, host);
  rl_ip_graph_t* g = ip->funnel ? rl_ip_graph_capturing(ip, stream) : NULL;
  bool record = false;
  if (g) {  // a node of the graph: recorded when the graph is launched
    rl_ip_graph_kernel(ip, g, f, grid, block, lds, params, extra);
  } else {
    record = rl_ip_window_launch(ip, f);
  }
  if (record && !f) {
    rl_ip_note(ip, 1, "a launch of a function the interposer did not see loaded");
    record = false;
  }
  rl_funnel_arg_t args[64];
  uint32_t arg_count = 0;
  size_t buffer_size = 0;
  const uint8_t* buffer = rl_ip_extra_buffer(extra, &buffer_size);
  if (record && !rl_ip_type_args(ip, f->info, params, buffer, buffer_size, args,
                                 &arg_count)) {
    rl_ip_note(ip, 1, "launch of %s: arguments not readable", f->info->name);
    record = false;
  }
  if (record) {
    bool forwarded = false;
    hipError_t result = rl_ip_record_launch(ip, f, function, grid, block, lds,
                                            stream, args, arg_count, false,
                                            &forwarded);
    if (forwarded) return result;
  }
  if (host) {
    const dim3 g3 = {grid[0], grid[1], grid[2]};
    const dim3 b3 = {block[0], block[1], block[2]};
    return real_hipLaunchKernel(host, g3, b3, params, lds, stream);
  }
  return real_hipModuleLaunchKernel(function, grid[0], grid[1], grid[2],
                                    block[0], block[1], block[2], lds, stream,
                                    params, extra);
}

RL_IP_EXPORT hipError_t hipLaunchKernel(const void* function, dim3 grid,
                                        dim3 block, void** args,
                                        size_t shared, hipStream_t stream) {
  RL_IP_ENTER();
  if (!rl_ip_on || !args) {
    RL_IP_REAL(hipLaunchKernel);
    if (!real_hipLaunchKernel) return rl_ip_leave(hipErrorNotSupported);
    return rl_ip_leave(real_hipLaunchKernel(function, grid, block, args,
                                            shared, stream));
  }
  const uint32_t g[3] = {grid.x, grid.y, grid.z};
  const uint32_t b[3] = {block.x, block.y, block.z};
  return rl_ip_leave(rl_ip_module_launch(ip, NULL, function, g, b,
                                         (uint32_t)shared, stream, args,
                                         NULL));
}

RL_IP_EXPORT hipError_t hipModuleLaunchKernel(
    hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
    unsigned int bx, unsigned int by, unsigned int bz, unsigned int lds,
    hipStream_t stream, void** kernelParams, void** extra) {
  RL_IP_ENTER();
  if (!rl_ip_on) {
    RL_IP_REAL(hipModuleLaunchKernel);
    if (!real_hipModuleLaunchKernel) return rl_ip_leave(hipErrorNotSupported);
    return rl_ip_leave(real_hipModuleLaunchKernel(
        f, gx, gy, gz, bx, by, bz, lds, stream, kernelParams, extra));
  }
  const uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  return rl_ip_leave(
      rl_ip_module_launch(ip, f, NULL, grid, block, lds, stream, kernelParams, extra));
}

// hip_ext.h (not in Debian's C headers): global sizes in work-items.
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy,
                                    uint32_t gz, uint32_t lx, uint32_t ly,
                                    uint32_t lz, size_t lds, hipStream_t stream,
                                    void** kernelParams, void** extra,
                                    hipEvent_t start, hipEvent_t stop,
                                    uint32_t flags);
RL_IP_EXPORT hipError_t hipExtModuleLaunchKernel(
    hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
    uint32_t ly, uint32_t lz, size_t lds, hipStream_t stream,
    void** kernelParams, void** extra, hipEvent_t start, hipEvent_t stop,
    uint32_t flags) {
  typedef hipError_t ext_fn(hipFunction_t, uint32_t, uint32_t, uint32_t,
                            uint32_t, uint32_t, uint32_t, size_t, hipStream_t,
                            void**, void**, hipEvent_t, hipEvent_t, uint32_t);
  RL_IP_ENTER();
  bool whole = lx && ly && lz && gx % lx == 0 && gy % ly == 0 && gz % lz == 0;
  if (rl_ip_on && whole && !start && !stop && flags == 0) {
    const uint32_t grid[3] = {gx / lx, gy / ly, gz / lz};
    const uint32_t block[3] = {lx, ly, lz};
    return rl_ip_leave(rl_ip_module_launch(ip, f, NULL, grid, block,
                                           (uint32_t)lds, stream, kernelParams,
                                           extra));
  }
  if (rl_ip_on && ip->window_open && !ip->window_closed) {
    rl_ip_note(ip, 1, "hipExtModuleLaunchKernel with a partial work-group, "
                  "events or flags is not recorded");
  }
  ext_fn* real = (ext_fn*)rl_ip_real(ip, "hipExtModuleLaunchKernel");
  if (!real) return rl_ip_leave(hipErrorNotSupported);
  return rl_ip_leave(real(f, gx, gy, gz, lx, ly, lz, lds, stream, kernelParams,
                          extra, start, stop, flags));
}

// HIP 5's hip_ext.h declares hipExtModuleLaunchKernel and
// hipHccModuleLaunchKernel as C++ functions: a program built against it
// binds these names, which must be interposed too or its launches would
// bypass the capture unnoticed.
hipError_t _Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j(
    hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
    uint32_t ly, uint32_t lz, size_t lds, hipStream_t stream, void** params,
    void** extra, hipEvent_t start, hipEvent_t stop, uint32_t flags);
RL_IP_EXPORT hipError_t
_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j(
    hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
    uint32_t ly, uint32_t lz, size_t lds, hipStream_t stream, void** params,
    void** extra, hipEvent_t start, hipEvent_t stop, uint32_t flags) {
  return hipExtModuleLaunchKernel(f, gx, gy, gz, lx, ly, lz, lds, stream,
                                  params, extra, start, stop, flags);
}

hipError_t _Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_(
    hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
    uint32_t ly, uint32_t lz, size_t lds, hipStream_t stream, void** params,
    void** extra, hipEvent_t start, hipEvent_t stop);
RL_IP_EXPORT hipError_t
_Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_(
    hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
    uint32_t ly, uint32_t lz, size_t lds, hipStream_t stream, void** params,
    void** extra, hipEvent_t start, hipEvent_t stop) {
  return hipExtModuleLaunchKernel(f, gx, gy, gz, lx, ly, lz, lds, stream,
                                  params, extra, start, stop, 0);
}
