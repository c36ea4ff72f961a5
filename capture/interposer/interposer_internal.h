// capture/interposer/interposer_internal.h — the LD_PRELOAD interposer
// (libredline_capture.so), private to capture/interposer/: its state object
// and the functions its files share. What it records and when a capture is
// incomplete, for users: docs/capture-interposer.md.
//
// The interposer captures an unmodified HIP program through the recording
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
//   __hipRegisterVar       host handle -> variable of that code object;
//                          before each recorded launch, every variable of
//                          every code object not done yet becomes a buffer
//                          aliasing it (interposer_vars.c) at the address
//                          hipGetSymbolAddress / hipModuleGetGlobal give;
//   hipMemcpyToSymbol[Async]  inside the window: marks the capture
//                          incomplete (not recorded yet);
//   hipModuleLaunchKernel (kernelParams or extra form),
//   hipLaunchKernel (a registered host stub; args like kernelParams),
//   hipLaunchCooperativeKernel (the same, the launch marked cooperative and
//                          forwarded with hipLaunchCooperativeKernel),
//   hipModuleLaunchCooperativeKernel (HIP 6: as hipModuleLaunchKernel's
//                          kernelParams form, marked cooperative) and
//   hipExtModuleLaunchKernel (global sizes that are whole work-groups)
//                          inside the window: the explicit arguments are
//                          sliced from the program's bytes at the metadata
//                          offsets and typed (global_buffer -> pointer with
//                          the funnel's effect rules, 4/8-byte by_value ->
//                          u32/u64, others -> bytes); the funnel assembles
//                          the kernarg and the launch is forwarded with those
//                          exact bytes on the program's stream (extra form;
//                          hipLaunchKernel: per-argument pointers into them).
//   Regions: one BYTES region per buffer and per variable, named like it.
// Observed effects (interposer_observe.c): on redline's HIP runtime over
// the simulator, pointers without access metadata get the effects the
// simulator observed; REDLINE_CAPTURE_OBSERVE=0 turns that off.
// Window ($REDLINE_CAPTURE_WINDOW, default launches:0:all):
//   launches:FIRST:COUNT   module launches FIRST .. FIRST+COUNT-1 (0-based,
//                          in call order; COUNT may be "all");
//   marker:NAME:N          from the Nth (0-based) launch of kernel NAME up to
//                          (not including) its next launch: one iteration;
//   items:FIRST:COUNT      like launches:, copies and fills counting too.
// Budget: REDLINE_CAPTURE_MAX_LAUNCHES (a positive number, K/M/G suffix;
// default RL_IP_DEFAULT_MAX_LAUNCHES) bounds the launches, copies and
// fills one capture records; past it the capture is marked incomplete
// naming the budget. A value it cannot parse: nothing is recorded.
// Step capture (REDLINE_CAPTURE_STEPS, interposer_steps.c) records K steps
// and writes the first, checked against the others; REDLINE_CAPTURE_SURVEY
// records nothing and lists the launch sequence instead.
// The capture is written atomically (rl_capture_file_write) when the window
// closes, else at exit (atexit, before the runtime's own destructors). A
// forked child of the program records nothing and never writes: only the
// process that made the first interposed call does.
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
//                          executable graph instantiated from it (a
//                          cooperative launch's node as a cooperative
//                          launch).
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
// The files, one concern each:
//   interposer_window.c   the state object (one per process: an LD_PRELOAD
//                         library has no other context), setup from the
//                         environment, the capture window
//   interposer_args.c     argument typing: explicit arguments sliced at the
//                         metadata offsets and typed for the funnel
//   interposer_forward.c  the funnel's device (forwarding with the exact
//                         kernarg bytes) and the launch entry points
//   interposer_load.c     code objects, kernels and allocations
//   interposer_unseen.c   why a code object or kernel was not recorded
//   interposer_copy.c     device writes without kernels, recorded as
//                         launches of the copy kernels (interposer_copy.hip)
//   interposer_host.c     pinned, managed and registered host memory:
//                         buffers of role io, host writes as uploads
//   interposer_graph.c    stream capture and graph launches
//   interposer_observe.c  observed effects: what the simulator saw each
//                         recorded launch touch becomes the effects of
//                         pointers without access metadata
//   interposer_steps.c    step capture and the survey
//   interposer_write.c    write-out of the capture
//
// Thread-safety: every entry point takes the state's lock (RL_IP_ENTER)
// and forwards with it held, so an interposed program's HIP calls are
// serialised; every function here expects the lock held.
#ifndef REDLINE_CAPTURE_INTERPOSER_INTERPOSER_INTERNAL_H_
#define REDLINE_CAPTURE_INTERPOSER_INTERPOSER_INTERNAL_H_

#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <sys/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/recording/hip_observe_abi.h"
#include "redline/code_object.h"
#include "redline/funnel.h"
#include "redline/status.h"

#define RL_IP_EXPORT __attribute__((visibility("default")))
#define RL_IP_MAX 4096u
// Launches (copies and fills included) one capture records unless
// $REDLINE_CAPTURE_MAX_LAUNCHES says otherwise: 2^24, 256 times the
// 65,536 per step a replay of a capture file accepts by default
// (redline/limits.h), a bound on the interposer's memory (every launch
// keeps its kernarg) rather than on trust.
#define RL_IP_DEFAULT_MAX_LAUNCHES (1ull << 24)

typedef struct rl_ip_module_s {
  hipModule_t module;
  uint32_t code_object;
  rl_code_object_t* parsed;
  bool fat_binary;          // __hipRegisterFatBinary (else hipModuleLoad*)
  bool variables_recorded;  // its variables are buffers (interposer_vars.c)
} rl_ip_module_t;

// A variable __hipRegisterVar registered: the host handle the program
// names it by (hipGetSymbolAddress, hipMemcpyToSymbol).
#define RL_IP_MAX_VARS 1024u
typedef struct rl_ip_var_s {
  uint32_t module;  // index into modules
  const void* host;
  char name[256];   // the device symbol
} rl_ip_var_t;

typedef struct rl_ip_function_s {
  hipFunction_t function;  // NULL for a registered host stub
  const void* host;        // the host stub, or NULL for a module function
  uint32_t module;         // index into modules
  uint32_t kernel;         // funnel kernel index
  const rl_code_object_kernel_t* info;
} rl_ip_function_t;

// Why a code object (|module| set) or a kernel (|function| or |host| set)
// was not recorded (interposer_unseen.c), for the INCOMPLETE note of its
// launches.
#define RL_IP_MAX_UNSEEN 256u
typedef struct rl_ip_unseen_s {
  hipModule_t module;
  hipFunction_t function;
  const void* host;
  char why[320];
} rl_ip_unseen_t;

// What memory a recorded buffer is (interposer_host.c for the host kinds).
typedef enum rl_ip_memory_e {
  RL_IP_MEMORY_DEVICE = 0,      // hipMalloc
  RL_IP_MEMORY_PINNED = 1,      // hipHostMalloc, hipMallocHost, hipHostAlloc
  RL_IP_MEMORY_MANAGED = 2,     // hipMallocManaged
  RL_IP_MEMORY_REGISTERED = 3,  // hipHostRegister
  // Device memory the HIP runtime allocates itself (interposer_texture.c).
  RL_IP_MEMORY_ARRAY = 4,    // hipMallocArray: an image's texels
  RL_IP_MEMORY_TEXTURE = 5,  // hipCreateTextureObject: its descriptors
} rl_ip_memory_t;

// True for the host kinds (pinned, managed, registered).
static inline bool rl_ip_memory_host(rl_ip_memory_t memory) {
  return memory == RL_IP_MEMORY_PINNED || memory == RL_IP_MEMORY_MANAGED ||
         memory == RL_IP_MEMORY_REGISTERED;
}

typedef struct rl_ip_buffer_s {
  void* base;
  uint64_t size;
  uint32_t index;  // funnel buffer
  bool freed;
  bool used;  // referenced by a recorded launch
  rl_ip_memory_t memory;
  // ARRAY and TEXTURE: the hipArray* or hipTextureObject_t the runtime
  // returned, released with hipFreeArray / hipDestroyTextureObject.
  void* handle;
  bool unregistered;  // registered memory the program unregistered
  // TEXTURE: the image's address (the array's or pitched memory's) as
  // hipCreateTextureObject was given it, 0 when unknown.
  uint64_t image_address;
  // Host kinds: the bytes as the device left them after the last recorded
  // launch (rl_ip_host_settle), or NULL before one.
  uint8_t* shadow;
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
  uint8_t* kernarg;         // KERNEL: the kernarg image, kernarg_size bytes
  bool cooperative;         // KERNEL: a cooperative launch captured (HIP
                            // launches the node cooperatively)
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
  char broken[512];
} rl_ip_graph_t;

// A recorded launch the runtime was asked to observe: capture launch
// |launch| is the runtime's submission |submission| (hip_observe_abi.h).
typedef struct rl_ip_observed_s {
  uint32_t launch;
  uint64_t submission;
} rl_ip_observed_t;

// The interposer's whole state: one object, created with the process
// (an LD_PRELOAD library has one per process) and passed to every function.
// One launch's explicit arguments as issued (interposer_issued.c).
typedef struct rl_ip_issued_s {
  uint32_t launch;
  uint32_t size;   // 0: none
  uint8_t* bytes;  // owned
} rl_ip_issued_t;

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
  bool pending_cooperative;  // ... through hipLaunchCooperativeKernel
  const rl_code_object_kernel_t* pending_info;
  hipStream_t pending_stream;
  hipError_t launch_result;
  bool launched;
  rl_ip_module_t modules[64];
  uint32_t module_count;
  rl_ip_function_t functions[256];
  uint32_t function_count;
  rl_ip_unseen_t unseen[RL_IP_MAX_UNSEEN];  // what was not recorded, and why
  uint32_t unseen_count;
  rl_ip_buffer_t buffers[RL_IP_MAX];
  uint32_t buffer_count;
  rl_ip_var_t vars[RL_IP_MAX_VARS];
  uint32_t var_count;
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
  bool uploading;    // rl_ip_host_uploads is recording host writes
  // A recorded copy or fill writes a host buffer: when the hook returns
  // (rl_ip_unlock) the device is waited for and the host buffers' shadows
  // are taken again, so the bytes the device writes there are not taken
  // for host writes by the next rl_ip_host_uploads (an asynchronous
  // device-to-host copy would otherwise show up half landed, or not at
  // all, as a spurious "upload" depending on timing).
  bool settle_pending;
  // rl_funnel_buffer is adopting host memory (rl_ip_host_record): its zero
  // fill is skipped, the program's bytes are the buffer's contents.
  bool adopting;
  // Graphs captured from streams (rl_ip_graph_*).
  rl_ip_graph_t* graphs;  // one per hipStreamBeginCapture
  uint32_t graph_count, graph_capacity;
  // Observed effects (interposer_observe.c): the runtime's observation
  // entry points (NULL: a runtime without them, effects stay as recorded)
  // and the recorded launches it ran, by submission number.
  bool observe_begun;
  rl_hip_observe_last_launch_fn observe_last;
  rl_hip_observe_launch_fn observe_launch;
  rl_hip_observe_end_fn observe_end;
  rl_ip_observed_t* observed;
  uint32_t observed_count, observed_capacity;
  uint32_t observed_slots;  // slots that became OBSERVED at write-out
  // As-issued arguments (interposer_issued.c): the pending launch's, then
  // one per recorded launch, attached to the capture at write-out.
  rl_ip_issued_t issued_pending;
  rl_ip_issued_t* issued;
  uint32_t issued_count, issued_capacity;
  // Window.
  bool marker;
  bool items;  // items: window (copies and fills move it too)
  char marker_name[128];
  uint64_t first, count;   // launches:/items: window; marker: N
  uint64_t marker_count;   // marker: iterations recorded (1; K for steps)
  uint64_t launches_seen;  // module launches (launches:) or marker hits
  bool window_open, window_closed;
  uint32_t recorded;
  uint32_t copies;  // copies and fills recorded as copy-kernel launches
  uint32_t bypassed;
  uint64_t max_launches;  // REDLINE_CAPTURE_MAX_LAUNCHES
  char reason[512];
  char out[4096];
  // REDLINE_CAPTURE_REPORT: where the outcome goes (rl_ip_report; "" for
  // nowhere), for `redline run`'s summary.
  char report[4096];
  // Step capture (interposer_steps.c): K steps after M, cut at each
  // launch of |step_start| or every |step_period| items; 0 steps: off.
  uint32_t steps;
  uint64_t skip_steps;
  uint32_t step_period;
  char step_start[128];
  // REDLINE_CAPTURE_VERIFY_STEPS=N: the program's state after each of the
  // K captured steps and N more is hashed (rl_ip_steps_item); the capture
  // is written once those steps ended, or at exit.
  bool verify;
  uint32_t verify_steps;
  uint64_t items_seen;   // items since the start (period boundaries)
  uint64_t starts_seen;  // launches of |step_start| since the start
  uint32_t steps_ended;  // steps whose end state was hashed
  bool holding;          // the window closed; the write waits for them
  uint8_t* writes;       // per funnel buffer: written by step 0 (1) or not
  uint32_t writes_count;
  rl_capture_program_state_t* states;  // region = funnel buffer index
  uint32_t state_count, state_capacity;
  // REDLINE_CAPTURE_SURVEY: the path the item signatures go to; nothing is
  // recorded and no capture is written ("" off).
  char survey[4096];
  uint64_t* survey_items;
  uint32_t survey_count, survey_capacity;
  // Survey items at which redline_step_begin() was called (annotations):
  // the survey file has a line "step" before each.
  uint32_t* survey_begins;
  uint32_t survey_begin_count, survey_begin_capacity;
  // The process that started recording. A forked child (getpid() differs)
  // forwards every call and records and writes nothing (rl_ip_recording).
  pid_t pid;
} rl_interposer_t;

// interposer_issued.c — as-issued arguments (redline/capture_issued.h)
// Lays the explicit arguments of a launch of |info| as the program passed
// them (|params|: one pointer per explicit argument; else the |buffer| of
// |buffer_size| bytes) into the pending record, at the metadata offsets.
// Without readable arguments the pending record is empty.
void rl_ip_issued_take(rl_interposer_t* ip, const rl_code_object_kernel_t* info,
                       void** params, const uint8_t* buffer,
                       size_t buffer_size);
// The pending record becomes capture launch |launch|'s (then empty).
void rl_ip_issued_keep(rl_interposer_t* ip, uint32_t launch);
// Adds every kept record to |capture| (NULL: only frees them).
void rl_ip_issued_attach(rl_interposer_t* ip, rl_capture_t* capture);

// The process's interposer state.
rl_interposer_t* rl_ip_get(void);

#define RL_IP_REAL(name)                \
  static __typeof__(name)* real_##name; \
  if (!real_##name) real_##name = (__typeof__(name)*)rl_ip_real(ip, #name)

#define RL_IP_ENTER()                \
  rl_interposer_t* ip = rl_ip_get(); \
  pthread_mutex_lock(&ip->lock);     \
  bool rl_ip_on = rl_ip_start(ip) && !ip->written

#define rl_ip_leave(error) rl_ip_unlock(ip, (error))

// interposer_window.c — the state object, setup, window control
void rl_ip_fail(rl_status_t status, const char* what);
bool rl_ip_in_window(rl_interposer_t* ip);
void rl_ip_note(rl_interposer_t* ip, uint32_t bypassed, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
void* rl_ip_real(rl_interposer_t* ip, const char* name);
bool rl_ip_start(rl_interposer_t* ip);
// True in the process that started recording, false in a forked child.
bool rl_ip_recording(const rl_interposer_t* ip);
// Writes one line, "written N complete", "written N incomplete REASON" or
// "failed MESSAGE", to REDLINE_CAPTURE_REPORT (nothing when unset or in a
// forked child): `redline run` reads it instead of re-reading the capture,
// which may be a FIFO or a device, or an older file kept by a failed write.
void rl_ip_report(const rl_interposer_t* ip, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
hipError_t rl_ip_unlock(rl_interposer_t* ip, hipError_t error);
// Steps the window for a kernel launch of |f| (NULL: a graph launch it
// cannot see into) with work-group |block| and |lds| bytes; true when it is
// recorded. The capture is written when it closes the window.
bool rl_ip_window_launch(rl_interposer_t* ip, const rl_ip_function_t* f,
                         const uint32_t block[3], uint32_t lds);
// The same for a copy (|fill| false) or fill into a recorded buffer.
bool rl_ip_window_write(rl_interposer_t* ip, bool fill);

// interposer_texture.c — arrays and texture objects (the runtime's own
// allocations, recorded as buffers of kinds "array" and "texture").
// Releases buffer |b|'s array or texture object through the runtime.
void rl_ip_texture_release(rl_interposer_t* ip, rl_ip_buffer_t* b);
// Adds a descriptor binding (redline/capture.h) to |capture| for every
// texture object a recorded launch could read: its T#'s image address,
// read from the recorded descriptor, lies in a recorded buffer (an array
// or pitched memory). A texture whose image is in none marks the capture
// incomplete.
void rl_ip_texture_descriptors(rl_interposer_t* ip, rl_capture_t* capture);
// The row pitch and rows of the recorded array buffer of |array| (the
// allocation's size over its rows); false when |array| is not one.
bool rl_ip_array_rows(rl_interposer_t* ip, const hipArray* array,
                      size_t* out_pitch, size_t* out_rows);

// interposer_args.c — argument typing and buffer lookup
rl_ip_buffer_t* rl_ip_buffer_at(rl_interposer_t* ip, uint64_t address);
// Marks |b| referenced by what is being recorded (a launch's pointer, a
// copy's or fill's range); a texture object whose image the program freed
// before is a use after free (rl_ip_note_freed_use).
void rl_ip_mark_used(rl_interposer_t* ip, rl_ip_buffer_t* b);
// When |address| lies in a buffer the program freed before (hipFree and
// its kin keep it allocated until the capture is written, so it stays a
// buffer of the capture), what is being recorded uses it after it was
// freed: a run without the interposer could find other data there, which
// the capture cannot reproduce, so the capture is incomplete ("buffer bufN
// used after it was freed"). A buffer freed after its last recorded use is
// fine. True when it noted that.
bool rl_ip_note_freed_use(rl_interposer_t* ip, uint64_t address);
rl_ip_buffer_t* rl_ip_buffer_range(rl_interposer_t* ip, uint64_t address,
                                   uint64_t size);
const uint8_t* rl_ip_extra_buffer(void** extra, size_t* out_size);
rl_ip_function_t* rl_ip_function_find(rl_interposer_t* ip,
                                      hipFunction_t function, const void* host);
bool rl_ip_type_args(rl_interposer_t* ip, const rl_code_object_kernel_t* info,
                     void** params, const uint8_t* buffer, size_t buffer_size,
                     rl_funnel_arg_t args[64], uint32_t* out_count,
                     char* why, size_t why_size);

// interposer_forward.c — the funnel device and launch forwarding
rl_status_t rl_ip_allocate(void* self, uint64_t size, uint64_t alignment,
                           uint64_t* out_address);
rl_status_t rl_ip_launch(void* self, const rl_funnel_dispatch_t* dispatch);
rl_status_t rl_ip_load(void* self, const void* bytes, size_t size,
                       uint64_t* out_handle);
rl_status_t rl_ip_read(void* self, uint64_t address, void* data, uint64_t size);
hipError_t rl_ip_record_launch(rl_interposer_t* ip, const rl_ip_function_t* f,
                               hipFunction_t function, const uint32_t grid[3],
                               const uint32_t block[3], uint32_t lds,
                               hipStream_t stream, const rl_funnel_arg_t* args,
                               uint32_t arg_count, bool record_only,
                               bool* out_recorded);
rl_status_t rl_ip_write(void* self, uint64_t address, const void* data,
                        uint64_t size);

// interposer_unseen.c — why a code object or kernel was not recorded
// Keeps |format|'s reason for the handle (one of |module|, |function|,
// |host| set; a later reason for the same handle replaces it).
void rl_ip_unseen(rl_interposer_t* ip, hipModule_t module,
                  hipFunction_t function, const void* host,
                  const char* format, ...)
    __attribute__((format(printf, 5, 6)));
// The reason kept for the handle, or NULL.
const char* rl_ip_unseen_why(const rl_interposer_t* ip, hipModule_t module,
                             hipFunction_t function, const void* host);
// What a launch of |function| (module form) or |host| (a host stub) the
// interposer has no kernel for is, and why, into |out| ("host stub 0x...,
// never registered ...", "a kernel the interposer did not record: ...").
void rl_ip_unseen_describe(const rl_interposer_t* ip, hipFunction_t function,
                           const void* host, char* out, size_t capacity);
// Marks the window incomplete for a launch of |function| (module form) or
// |host| (a host stub) the interposer has no kernel for, naming why.
void rl_ip_note_unseen(rl_interposer_t* ip, hipFunction_t function,
                       const void* host);

// interposer_load.c — code objects, kernels, allocations
bool rl_ip_processor(rl_interposer_t* ip, char* out, size_t capacity);
// The module recorded for runtime handle |module|, or NULL; lock held.
rl_ip_module_t* rl_ip_module_find(rl_interposer_t* ip, hipModule_t module);
// Registers the variables of every module not done yet as buffers that
// alias them (interposer_vars.c); called before each recorded launch.
void rl_ip_record_variables(rl_interposer_t* ip);

// interposer_copy.c — copies and fills
void rl_ip_record_copy(rl_interposer_t* ip, const char* call, uint64_t dst,
                       uint64_t src, const void* host, uint64_t size);
void rl_ip_record_fill(rl_interposer_t* ip, const char* call, uint64_t dst,
                       uint32_t pattern, uint32_t width, uint64_t size);

// interposer_host.c — pinned, managed and registered host memory
// True while a host-memory buffer is live (not freed or unregistered).
bool rl_ip_host_live(const rl_interposer_t* ip);
// Reads [address, +size) when it lies in a host-memory buffer, freed or
// not (after waiting for the device; zeros for an unregistered range,
// which the program may have freed); false, nothing read, otherwise.
bool rl_ip_host_read(rl_interposer_t* ip, uint64_t address, void* data,
                     uint64_t size);
// After a recorded launch was forwarded: waits for the device and keeps
// each live host buffer's bytes as its shadow (nothing without one).
void rl_ip_host_settle(rl_interposer_t* ip);
// Before a launch, copy or fill is recorded: records the bytes the host
// wrote into each host buffer since its shadow as one upload.
void rl_ip_host_uploads(rl_interposer_t* ip);

// interposer_graph.c — stream capture and graphs
rl_ip_graph_t* rl_ip_graph_capturing(rl_interposer_t* ip, hipStream_t stream);
void rl_ip_graph_copy(rl_interposer_t* ip, rl_ip_graph_t* g, void* dst,
                      const void* src, size_t size, hipMemcpyKind kind);
void rl_ip_graph_fill(rl_ip_graph_t* g, void* dst, uint32_t pattern,
                      uint32_t width, uint64_t size);
// Marks |g|'s launches unrecordable for |reason| (the first reason stays).
void rl_ip_graph_break(rl_ip_graph_t* g, const char* reason);
void rl_ip_graph_kernel(rl_interposer_t* ip, rl_ip_graph_t* g,
                        const rl_ip_function_t* f, const uint32_t grid[3],
                        const uint32_t block[3], uint32_t lds, void** params,
                        void** extra);

// interposer_observe.c — observed effects (capture/recording/observed_effects.h)
// Asks the runtime to start observing launches, when it can (once, before
// the first recorded launch is forwarded: launches before the window are
// not kept).
void rl_ip_observe_start(rl_interposer_t* ip);
// After recorded launch |launch| was forwarded: remembers the runtime's
// submission number for it.
void rl_ip_observe_forwarded(rl_interposer_t* ip, uint32_t launch);
// The runtime's launch count before a hipGraphLaunch is forwarded (0
// without observation), and after it: keys the graph's |kernels| kernel
// nodes, in node order, to capture launches |launches| (UINT32_MAX: that
// node was not recorded).
uint64_t rl_ip_observe_mark(rl_interposer_t* ip);
void rl_ip_observe_graph(rl_interposer_t* ip, uint64_t mark,
                         const uint32_t* launches, uint32_t kernels);
// After the device was synchronised: sets the effects of |capture|'s
// launches without access metadata from what the runtime observed, then
// stops observing.
void rl_ip_observe_apply(rl_interposer_t* ip, rl_capture_t* capture);
// interposer_steps.c — step capture and the survey
// Reads REDLINE_CAPTURE_STEPS, _SKIP_STEPS, _STEP_START, _STEP_PERIOD and
// _SURVEY into |ip| (after the window); false (said) on a bad value.
bool rl_ip_steps_setup(rl_interposer_t* ip);
// Called for every item (kernel launch of |f|, or a copy or fill: |f|
// NULL) before the window moves: where a step ends, hashes the program's
// state (every buffer step 0 writes) for --verify-steps, and writes the
// held capture once the last verified step ended.
void rl_ip_steps_item(rl_interposer_t* ip, const rl_ip_function_t* f);
// True when the capture must wait after its window closed (verify steps
// remain); sets |holding|.
bool rl_ip_steps_hold(rl_interposer_t* ip);
// Moves the hashes into |capture|'s program state (regions by buffer).
rl_status_t rl_ip_steps_states(rl_interposer_t* ip, rl_capture_t* capture);
// Adds one item's signature to the survey (nothing when not surveying).
void rl_ip_survey_add(rl_interposer_t* ip, uint64_t signature);
// Notes an annotated step begin at the next survey item; lock held.
void rl_ip_survey_begin(rl_interposer_t* ip);
// Writes the survey file and reports "survey N"; lock held.
void rl_ip_survey_write(rl_interposer_t* ip);
// Replaces *|capture| (the whole window) by the step capture: cut into
// steps, checked for equal structure, merged. A refusal is returned (the
// capture is left as it was).
rl_status_t rl_ip_steps_finish(rl_interposer_t* ip, rl_capture_t** capture);

// interposer_annotate.c — redline/annotate.h's entry points
// After inference over steps |first|, |first| + 1, ... (|result|,
// capture/recording/step_infer.h): a free parameter whose values equal a declared
// parameter's at every step takes its name; a declared parameter named
// like the position parameter must equal it at every step, else false with
// |why| naming the parameter, the step and both values. |quiet|: nothing
// on stderr.
struct rl_step_infer_result_s;
// The exported entry points redline/annotate.h looks up with dlsym.
void redline_annotate_step_begin(void);
void redline_annotate_step_param(const char* name, int64_t value);
bool rl_ip_annotate_apply(uint64_t first,
                          struct rl_step_infer_result_s* result, bool quiet,
                          char* why, size_t why_size);

// interposer_write.c — writing the capture out
void rl_ip_write_capture(void);
void rl_ip_write_capture_locked(rl_interposer_t* ip);

#endif  // REDLINE_CAPTURE_INTERPOSER_INTERPOSER_INTERNAL_H_
