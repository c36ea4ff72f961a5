// sim/hip_sim/hip_sim_internal.h — state and helpers shared by the
// files of the HIP runtime over the simulator (hip_sim.h has the contract):
//   hip_sim.c          device start, properties, errors, hooks, shutdown;
//   hip_sim_memory.c   allocations, copies, memset, symbols;
//   hip_sim_module.c   modules, fat binaries, variables, function queries;
//   hip_sim_stream.c   streams, operations, launches, events;
//   hip_sim_exec.c     the device worker thread that runs the streams'
//                      queued operations, and the host's waits for them;
//   hip_sim_observe.c  observed launch accesses for the capture interposer;
//   hip_sim_copy2d.c   pitched memory, 2D/3D and peer copies;
//   hip_sim_register.c hipHostRegister;
//   hip_sim_copy.c     the copy rules: what a copy's pointers are, when a
//                      source is staged and when the caller waits;
//   hip_sim_graph.c    stream capture, graphs;
//   hip_sim_graph_nodes.c  the node queries of captured graphs;
//   hip_sim_error.c    error names and descriptions;
//   hip_sim_printf.c   the device printf buffer;
//   hip_sim_attribute.c  hipDeviceGetAttribute;
//   hip_sim_context.c  contexts and the primary context;
//   hip_sim_device.c   hipChooseDevice, device limits;
//   hip_sim_unsupported.c  entries that answer hipErrorNotSupported;
//   hip_sim_stubs.c    the same, generated (hip_sim_stubs_gen.py) for
//                      every other entry Debian's libamdhip64 exports.
// Private to the library.
//
// Thread-safety: every entry point takes rl_hip.lock (RL_HIP_ENTER) and
// releases it through rl_hip_leave(); every helper that touches rl_hip
// expects the lock held. The simulated device (rl_hip.sim and
// rl_hip.adapter) is used by one thread at a time (redline/device/device.h):
// every call into it holds rl_hip.device_lock. Lock order: rl_hip.lock may
// be held when taking rl_hip.device_lock, never the reverse; the worker
// (hip_sim_exec.c) runs an operation holding only rl_hip.device_lock, so
// the host's API calls proceed while a kernel runs.
#ifndef REDLINE_HIP_SIM_HIP_SIM_INTERNAL_H_
#define REDLINE_HIP_SIM_HIP_SIM_INTERNAL_H_

#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "redline/code_object.h"
#include "redline/device/device.h"
#include "redline/device/device_funnel.h"
#include "redline/funnel.h"
#include "sim/hip_sim/hip_sim.h"
#include "redline/offload_bundle.h"
#include "sim/sim.h"

#define RL_HIP_EXPORT __attribute__((visibility("default")))
#define RL_HIP_MAGIC_MODULE 0x4D4F4455u
#define RL_HIP_MAGIC_FUNCTION 0x46554E43u
#define RL_HIP_MAGIC_STREAM 0x5354524Du
#define RL_HIP_MAGIC_GRAPH 0x47524150u
#define RL_HIP_MAGIC_EXEC 0x45584543u
#define RL_HIP_MAGIC_EVENT 0x45564E54u
#define RL_HIP_MAGIC_NODE 0x4E4F4445u
#define RL_HIP_ERRORS_KEPT 64u
// Bytes of each kept error: a launch's fault message whole, with the
// kernel's name around it.
#define RL_HIP_ERROR_BYTES (RL_DEVICE_FAULT_MESSAGE_MAX + 512)
// The device printf buffer (hip_sim.c), also hipLimitPrintfFifoSize.
#define RL_HIP_PRINTF_BYTES (1u << 20)

// One "id:...:hash,format" entry of a code object's amdhsa.printf.
typedef struct rl_hip_format_s {
  uint64_t hash;
  char* text;
} rl_hip_format_t;

struct ihipModuleSymbol_t {
  uint32_t magic;
  struct ihipModule_t* module;
  const rl_code_object_kernel_t* kernel;
  uint64_t launches;  // run on the device
};

struct ihipModule_t {
  uint32_t magic;
  bool live;
  rl_code_object_t* parsed;
  uint8_t* image;  // the code object's bytes (symbol lookups)
  size_t image_size;
  uint64_t handle;     // adapter handle
  uint64_t load_base;  // device address of the image's vaddr 0
  // One function handle per kernel, owned by the module as in HIP (the same
  // handle for repeated hipModuleGetFunction calls).
  struct ihipModuleSymbol_t* functions;
  rl_hip_format_t* formats;  // device printf formats
  uint32_t format_count;
};

struct ihipEvent_t {
  uint32_t magic;
  unsigned flags;   // hipEventDisableTiming, ...
  bool recorded;    // hipEventRecord called outside a capture
  // The last record: the event completes when |stream| has completed
  // |seq| operations (its marker is operation |seq|).
  struct ihipStream_t* stream;
  uint64_t seq;
  uint64_t timestamp;  // set by the marker of the last record
  uint32_t markers_pending;  // queued markers naming this event
  // A record inside a stream capture (hip_sim_graph.c): the capture's id,
  // the capturing stream and its tip at the record.
  uint64_t capture_id;
  struct ihipStream_t* capture_stream;
  uint64_t capture_tip;
};

typedef enum rl_hip_op_kind_e {
  RL_HIP_OP_LAUNCH = 0,
  RL_HIP_OP_COPY = 1,   // dst/src/size, |value| the hipMemcpyKind
  RL_HIP_OP_SET = 2,    // dst/size/value (value_size 1, 2 or 4)
  RL_HIP_OP_EVENT = 3,  // record |event| (its record |event_seq|)
  RL_HIP_OP_WAIT = 4,   // until |wait_stream| completed |wait_seq| ops
  RL_HIP_OP_HOST = 5,   // call host_fn(host_data) or the stream callback
} rl_hip_op_kind_t;

// One operation of a stream (or of a captured graph).
typedef struct rl_hip_op_s {
  rl_hip_op_kind_t kind;
  uint64_t order;  // queued: the device-wide submission number
  uint64_t launch_number;  // queued launch: launches queued up to it
  struct ihipModuleSymbol_t* function;
  uint32_t grid[3], block[3], lds;
  bool cooperative;  // hipLaunchCooperativeKernel (hip_sim_cooperative.c)
  uint8_t* kernarg;
  uint32_t kernarg_size;
  void* dst;
  const void* src;
  size_t size;
  uint32_t value, value_size;
  // Resolved when queued (hip_sim_copy.c), so the worker never looks at
  // the allocation table: a device address (*_device) or a host pointer.
  bool dst_device, src_device;
  uint64_t dst_address, src_address;
  uint8_t* staged;  // owned copy of a pageable source, or NULL
  struct ihipEvent_t* event;
  uint64_t event_seq;
  struct ihipStream_t* wait_stream;
  uint64_t wait_seq;
  hipHostFn_t host_fn;
  hipStreamCallback_t callback;  // with |callback_stream|
  struct ihipStream_t* callback_stream;
  void* host_data;
  struct ihipStream_t* host_on;  // handed to the host thread: its stream
} rl_hip_op_t;

typedef struct rl_hip_list_s {
  rl_hip_op_t* items;
  uint32_t count, capacity;
} rl_hip_list_t;

// One stream capture (hip_sim_graph.c): the streams that joined it append
// their operations to |ops| in the order the program issued them, a valid
// order of the captured graph.
typedef struct rl_hip_capture_s {
  uint64_t id;
  struct ihipStream_t* origin;
  rl_hip_list_t ops;
  uint64_t next_tip;
} rl_hip_capture_t;

struct ihipStream_t {
  uint32_t magic;
  bool destroyed;
  bool non_blocking;  // hipStreamNonBlocking: no implicit null-stream sync
  // Queued operations: pending.items[head, count) in order. |submitted|
  // counts operations ever queued, |completed| those the worker finished;
  // operation n (from 1) is done when completed >= n.
  rl_hip_list_t pending;
  uint32_t head;
  uint64_t submitted, completed;
  bool host_busy;  // its host function runs on the host thread
  // Capture state: the capture this stream belongs to (NULL: none), the
  // tip (the last operation it captured), and the tip another capturing
  // stream (|capture_joined_by|) has waited for through an event.
  rl_hip_capture_t* capture;
  uint64_t capture_tip, capture_joined_tip;
  struct ihipStream_t* capture_joined_by;
};

// A graph node handle (hip_sim_graph_nodes.c): operation |index| of
// |graph|, made on the first node query and freed with the graph.
struct hipGraphNode {
  uint32_t magic;
  struct ihipGraph* graph;
  uint32_t index;
};

struct ihipGraph {
  uint32_t magic;
  rl_hip_list_t ops;
  struct hipGraphNode* nodes;  // NULL until queried; ops.count of them
};

struct hipGraphExec {
  uint32_t magic;
  rl_hip_list_t ops;
};

// A host stub registered by __hipRegisterFunction.
typedef struct rl_hip_stub_s {
  const void* host;
  struct ihipModuleSymbol_t* function;
} rl_hip_stub_t;

// A device variable registered by __hipRegisterVar / ManagedVar.
typedef struct rl_hip_var_s {
  const void* host;  // the host shadow's address (the program's handle)
  struct ihipModule_t* module;
  uint64_t address;  // device address
  uint64_t size;
} rl_hip_var_t;

// A live allocation; |host| is non-NULL for host-visible memory
// (hipHostMalloc, hipMallocManaged): the pointer the program got.
typedef struct rl_hip_allocation_s {
  uint64_t address, size;
  uint8_t* host;
} rl_hip_allocation_t;

// A host range registered with hipHostRegister (hip_sim_register.c) and
// the system-memory allocation of the same size that mirrors it for
// kernels (|mirror|, its device address).
typedef struct rl_hip_registered_s {
  uint64_t base, size;
  uint64_t mirror;
} rl_hip_registered_t;

// Live streams at once (destroyed streams free their slot).
#define RL_HIP_MAX_STREAMS 1024u

typedef struct rl_hip_state_s {
  pthread_mutex_t lock;
  pthread_mutex_t device_lock;  // every call into sim/adapter
  // The worker (hip_sim_exec.c): |work| wakes it when an operation is
  // queued, |done| wakes the host's waits when one completes.
  pthread_cond_t work, done, host_work;
  pthread_t worker, host_thread;
  bool worker_running, worker_stop;
  // Host functions and callbacks handed from the worker to the host
  // thread (hip_sim_exec.c): host_queue.items[host_head, count).
  rl_hip_list_t host_queue;
  uint32_t host_head;
  uint64_t next_order;  // submission numbers (rl_hip_op_t.order)
  uint64_t next_capture_id;
  bool started;
  hipError_t start_error;
  rl_device_t* sim;
  rl_funnel_device_t adapter;
  char processor[32];
  const char* executor;  // "isa" or "ref"
  rl_hip_allocation_t* allocations;
  uint32_t allocation_count, allocation_capacity;
  struct ihipStream_t null_stream;
  // The live streams. Destroyed ones leave this table (their slot is
  // reused) but stay allocated in |destroyed|, flagged, so misuse is
  // detected rather than a use-after-free, until shutdown.
  struct ihipStream_t* streams[RL_HIP_MAX_STREAMS];
  uint32_t stream_count;
  struct ihipStream_t** destroyed;
  uint32_t destroyed_count, destroyed_capacity;
  // Every module ever loaded (unloaded ones stay, flagged, like streams);
  // freed at shutdown after the adapter that refers to their code.
  struct ihipModule_t** modules;
  uint32_t module_count, module_capacity;
  rl_hip_registered_t* registered;
  uint32_t registered_count, registered_capacity;
  rl_hip_stub_t* stubs;
  uint32_t stub_count, stub_capacity;
  rl_hip_var_t* vars;
  uint32_t var_count, var_capacity;
  uint64_t printf_buffer;  // device address (hip_sim.h "printf")
  uint64_t launches_run;
  // Kernel launches queued so far: each launch op's |launch_number|, for
  // the capture interposer (hip_sim_observe.c).
  uint64_t launches_queued;
  uint64_t kernels_run;  // distinct kernels launched at least once
  uint64_t device_ticks;  // sum of dispatch end - start
  hipError_t sticky_error;  // a launch faulted: the device is lost
  // The bound of every launch's wait (REDLINE_HIP_TIMEOUT_MS), and the
  // kernel of the first launch that outlived it and was stopped ("" none).
  uint64_t timeout_ms;
  char stopped[128];
  // The first launch that failed: "#INDEX KERNEL: MESSAGE" (INDEX counts
  // the launches run before it), "" none; the report's failed_launch line.
  char failed_launch[RL_HIP_ERROR_BYTES + 128];
  // Set with |stopped| when the launch stalled (no work-group completed for
  // timeout_ms): how many of its work-groups had completed.
  bool stopped_stall;
  uint64_t stopped_wg_done, stopped_wg_total;
  char errors[RL_HIP_ERRORS_KEPT][RL_HIP_ERROR_BYTES];
  uint32_t error_total;
  hipError_t last_error;
  // REDLINE_HIP_TRACE (`redline run --trace`): every launch's device span
  // in a Chrome/Perfetto trace (base/trace.h), written at exit.
  struct rl_trace_s* trace;
} rl_hip_state_t;

extern rl_hip_state_t rl_hip;

// Records a misuse or failure (rl_hip_sim_error and the report).
void rl_hip_error(const char* format, ...) __attribute__((format(printf, 1, 2)));
// Creates the simulated device on first use.
hipError_t rl_hip_start_locked(void);
// Remembers |error| as the last error, unlocks and returns it.
hipError_t rl_hip_leave(hipError_t error);
// Starts the worker thread (rl_hip_start_locked) / stops and joins it
// (shutdown; called without rl_hip.lock held).
hipError_t rl_hip_exec_start_locked(void);
void rl_hip_exec_stop(void);
// Waits until every stream completed what was queued before the call.
hipError_t rl_hip_wait_all(void);
// Waits until |stream| completed |seq| operations; the error of a lost
// device (or of a wait from inside a host function) otherwise.
hipError_t rl_hip_wait_seq(struct ihipStream_t* stream, uint64_t seq);
// Waits for what |stream| had queued; for the null stream also for every
// blocking stream (hipStreamSynchronize(0) is a device-wide wait).
hipError_t rl_hip_wait_stream(struct ihipStream_t* stream);
// Queues |op| (already prepared) on |stream| with the legacy null
// stream's implicit waits, and wakes the worker. Lock held.
hipError_t rl_hip_exec_queue(struct ihipStream_t* stream, const rl_hip_op_t* op);
// Stream capture (hip_sim_graph.c). A record on a capturing stream marks
// |event| with the capture and the stream's tip. A wait on such an event
// joins |stream| to the capture (fork) or, on the origin stream, joins the
// recording stream back (join); returns false when |event| was not
// recorded in a live capture.
void rl_hip_capture_record_event(struct ihipStream_t* stream,
                                 struct ihipEvent_t* event);
bool rl_hip_capture_wait_event(struct ihipStream_t* stream,
                               struct ihipEvent_t* event);
// Observed accesses for the capture interposer (hip_sim_observe.c,
// capture/recording/hip_observe_abi.h): around each launch the worker runs, device
// lock held.
void rl_hip_observe_before_launch(void);
void rl_hip_observe_after_launch(const rl_hip_op_t* op, bool succeeded);
// Frees what |op| owns (kernarg, staged source).
void rl_hip_op_release(rl_hip_op_t* op);
// Resolves a copy or memset's pointers and stages a pageable source;
// *|out_wait| says whether the caller must wait for the operation (the
// copy rules of hip_sim_copy.c). |sync|: a synchronous call.
hipError_t rl_hip_copy_prepare(rl_hip_op_t* op, bool sync, bool* out_wait);
// Checks a copy's or memset's ranges at the call (the same error the
// queued operation would meet).
hipError_t rl_hip_copy_check(const rl_hip_op_t* op);
// Runs a prepared copy or memset on the device; device lock held, not
// rl_hip.lock. A failure is described in |message|.
hipError_t rl_hip_copy_run(const rl_hip_op_t* op, char* message,
                           size_t message_size);
// Parses and loads a code object as a new module.
hipError_t rl_hip_module_load_locked(const void* image, size_t size,
                                     struct ihipModule_t** out_module);
void rl_hip_list_clear(rl_hip_list_t* list);
// The kernarg segment of a launch of |f| (hip_sim_stream.c): the launch
// checked (geometry, LDS), the explicit arguments from |params| (one
// pointer per argument) or the `extra` buffer, pointers translated, hidden
// arguments filled. *|out_kernarg| is malloc'd (f->kernel->kernarg_size
// bytes); lock held. |call| names the entry in errors.
hipError_t rl_hip_launch_kernarg(struct ihipModuleSymbol_t* f,
                                 const uint32_t grid[3],
                                 const uint32_t block[3], uint32_t lds,
                                 void** params, void** extra,
                                 const char* call, uint8_t** out_kernarg);
// Queues a launch of |f| on |s| (the kernarg built by
// rl_hip_launch_kernarg), cooperative or not; lock held.
hipError_t rl_hip_launch_locked(struct ihipModuleSymbol_t* f,
                                const uint32_t grid[3],
                                const uint32_t block[3], uint32_t lds,
                                struct ihipStream_t* s, void** params,
                                void** extra, const char* call,
                                bool cooperative);
// Work-groups of |kernel| with |block| work-items and |lds| dynamic LDS
// bytes that fit one compute unit (hipOccupancyMaxActiveBlocksPerMultiprocessor;
// hip_sim_module.c); times rl_hip_compute_units(), how many can be resident.
int rl_hip_blocks_per_unit(const rl_code_object_kernel_t* kernel, int block,
                           size_t lds);
// Appends a copy of |op| (kernarg copied).
hipError_t rl_hip_list_append(rl_hip_list_t* list, const rl_hip_op_t* op);
struct ihipStream_t* rl_hip_stream(hipStream_t stream);
bool rl_hip_stream_usable(struct ihipStream_t* stream, const char* call);
// Queues |op| on |stream| (or records it when the stream is capturing),
// with the legacy null stream's implicit synchronisation; copies and
// memsets are prepared (hip_sim_copy.c) and, when their rule says so or
// |sync|, waited for before returning.
hipError_t rl_hip_enqueue(struct ihipStream_t* stream, const rl_hip_op_t* op,
                          bool sync);
// The live allocation holding |address| (a device address, or a host
// pointer into host-visible memory), or NULL.
rl_hip_allocation_t* rl_hip_find(uint64_t address);
// True when [address, address + size) lies in a range registered with
// hipHostRegister; lock held.
bool rl_hip_registered(uint64_t address, uint64_t size);
// The mirror's device address of registered host address |address|, or 0
// when it is in no registered range; lock held.
uint64_t rl_hip_registered_device(uint64_t address);
// Launch-time mirroring of registered memory (hip_sim_register.c): before
// a kernel runs, every registered range's bytes go to its mirror
// (rl_hip_mirror_in: lock held, device lock not held, it takes it);
// after, the bytes the kernel changed, and only those, come back
// (rl_hip_mirror_out: device lock held), so host writes to other bytes
// of the range meanwhile are kept. The returned state is freed by
// rl_hip_mirror_out; NULL when nothing is registered.
typedef struct rl_hip_mirror_s rl_hip_mirror_t;
rl_hip_mirror_t* rl_hip_mirror_in(void);
void rl_hip_mirror_out(rl_hip_mirror_t* mirror);
// The device address behind |pointer|: itself for device memory, the
// device address of host-visible memory, |pointer| otherwise.
uint64_t rl_hip_device_address(const void* pointer);
// The function of a host stub, or NULL.
struct ihipModuleSymbol_t* rl_hip_stub_function(const void* host);
// Reads amdhsa.printf of |module|'s code object.
void rl_hip_printf_formats(struct ihipModule_t* module);
// Prints and consumes what the kernels wrote to the printf buffer; lock
// held (it takes the device lock).
void rl_hip_printf_flush(void);
// Runs a launch on the device; device lock held, not rl_hip.lock. On
// failure |message| says why; *|out_ticks| the dispatch's device time and
// *|out_start| its start timestamp.
hipError_t rl_hip_launch_run(const rl_hip_op_t* op, uint64_t launch_index,
                             char* message, size_t message_size,
                             uint64_t* out_start, uint64_t* out_ticks);
// Records a finished launch (counters, trace); lock held.
void rl_hip_launch_finish(const rl_hip_op_t* op, hipError_t result,
                          const char* message, uint64_t start,
                          uint64_t ticks);
// The device's properties as hipGetDeviceProperties reports them (hip_sim.c).
void rl_hip_fill_properties(hipDeviceProp_t* props);
// The device's nominal compute-unit count.
int rl_hip_compute_units(void);
// Prints "redline hip: NAME is not supported ..." once per NAME.
void rl_hip_unsupported(const char* name);
// The same for an entry answering |answer| ("NULL", "HIPRTC_ERROR_...").
void rl_hip_unsupported_answer(const char* name, const char* answer);

// Defines NAME(...) with the header's prototype, answering not supported
// (hip_sim_unsupported.c, and hip_sim_stubs.c which hip_sim_stubs_gen.py
// generates).
#define RL_HIP_UNSUPPORTED(name, ...) \
  RL_HIP_UNSUPPORTED_RETURNING(hipError_t, hipErrorNotSupported, name, __VA_ARGS__)
// The same for an entry declared with another return |type|: |value|.
#define RL_HIP_UNSUPPORTED_RETURNING(type, value, name, ...) \
  RL_HIP_EXPORT type name(__VA_ARGS__) {                     \
    rl_hip_unsupported_answer(#name, #value);                \
    return value;                                            \
  }
#define RL_HIP_UNSUPPORTED_VOID(name, ...)        \
  RL_HIP_EXPORT void name(__VA_ARGS__) {          \
    rl_hip_unsupported_answer(#name, "no result"); \
  }
// The same for an entry the reference library exports and
// <hip/hip_runtime_api.h> does not declare: no parameters.
#define RL_HIP_UNSUPPORTED_UNDECLARED(name)         \
  hipError_t name(void);                            \
  RL_HIP_UNSUPPORTED(name, void)

#define RL_HIP_ENTER()                               \
  pthread_mutex_lock(&rl_hip.lock);                  \
  hipError_t rl_hip_started = rl_hip_start_locked(); \
  if (rl_hip_started) return rl_hip_leave(rl_hip_started)

#endif  // REDLINE_HIP_SIM_HIP_SIM_INTERNAL_H_
