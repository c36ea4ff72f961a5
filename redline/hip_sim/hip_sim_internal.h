// redline/hip_sim/hip_sim_internal.h — state and helpers shared by the
// files of the HIP runtime over the simulator (hip_sim.h has the contract):
//   hip_sim.c          device start, properties, errors, hooks, shutdown;
//   hip_sim_memory.c   allocations, copies, memset, symbols;
//   hip_sim_module.c   modules, fat binaries, variables, function queries;
//   hip_sim_stream.c   streams, operations, launches, events;
//   hip_sim_graph.c    stream capture, graphs, error names;
//   hip_sim_printf.c   the device printf buffer;
//   hip_sim_unsupported.c  entries that answer hipErrorNotSupported.
// Private to the library.
//
// Thread-safety: every entry point takes rl_hip.lock (RL_HIP_ENTER) and
// releases it through rl_hip_leave(); every helper that touches rl_hip
// expects the lock held.
#ifndef REDLINE_HIP_SIM_HIP_SIM_INTERNAL_H_
#define REDLINE_HIP_SIM_HIP_SIM_INTERNAL_H_

#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/base/array.h"
#include "redline/code_object.h"
#include "redline/device/device.h"
#include "redline/device/device_funnel.h"
#include "redline/funnel.h"
#include "redline/hip_sim/hip_sim.h"
#include "redline/offload_bundle.h"
#include "redline/sim/sim.h"

#define RL_HIP_EXPORT __attribute__((visibility("default")))
#define RL_HIP_MAGIC_MODULE 0x4D4F4455u
#define RL_HIP_MAGIC_FUNCTION 0x46554E43u
#define RL_HIP_MAGIC_STREAM 0x5354524Du
#define RL_HIP_MAGIC_GRAPH 0x47524150u
#define RL_HIP_MAGIC_EXEC 0x45584543u
#define RL_HIP_MAGIC_EVENT 0x45564E54u
#define RL_HIP_ERRORS_KEPT 64u

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
  bool recorded;  // hipEventRecord called
  bool done;      // its marker executed: |timestamp| is valid
  uint64_t timestamp;
  struct ihipStream_t* stream;
};

typedef enum rl_hip_op_kind_e {
  RL_HIP_OP_LAUNCH = 0,
  RL_HIP_OP_COPY = 1,   // dst/src/size: resolved when run
  RL_HIP_OP_SET = 2,    // dst/size/value (value_size 1, 2 or 4)
  RL_HIP_OP_EVENT = 3,  // record |event|
  RL_HIP_OP_WAIT = 4,   // wait for |event|
} rl_hip_op_kind_t;

// One operation of a stream (or of a captured graph).
typedef struct rl_hip_op_s {
  rl_hip_op_kind_t kind;
  struct ihipModuleSymbol_t* function;
  uint32_t grid[3], block[3], lds;
  uint8_t* kernarg;
  uint32_t kernarg_size;
  void* dst;
  const void* src;
  size_t size;
  uint32_t value, value_size;
  struct ihipEvent_t* event;
} rl_hip_op_t;

typedef struct rl_hip_list_s {
  rl_hip_op_t* items;
  uint32_t count, capacity;
} rl_hip_list_t;

struct ihipStream_t {
  uint32_t magic;
  bool destroyed;
  bool capturing;
  bool non_blocking;  // hipStreamNonBlocking: no implicit null-stream sync
  rl_hip_list_t pending;
  rl_hip_list_t captured;
};

struct ihipGraph {
  uint32_t magic;
  rl_hip_list_t ops;
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

#define RL_HIP_MAX_STREAMS 256u

typedef struct rl_hip_state_s {
  pthread_mutex_t lock;
  bool started;
  hipError_t start_error;
  rl_device_t* sim;
  rl_funnel_device_t adapter;
  char processor[32];
  const char* executor;  // "isa" or "ref"
  rl_hip_allocation_t* allocations;
  uint32_t allocation_count, allocation_capacity;
  struct ihipStream_t null_stream;
  // Every stream ever created (destroyed ones stay, flagged, so misuse is
  // detected rather than a use-after-free).
  struct ihipStream_t* streams[RL_HIP_MAX_STREAMS];
  uint32_t stream_count;
  // Every module ever loaded (unloaded ones stay, flagged, like streams);
  // freed at shutdown after the adapter that refers to their code.
  struct ihipModule_t** modules;
  uint32_t module_count, module_capacity;
  rl_hip_stub_t* stubs;
  uint32_t stub_count, stub_capacity;
  rl_hip_var_t* vars;
  uint32_t var_count, var_capacity;
  uint64_t printf_buffer;  // device address (hip_sim.h "printf")
  uint64_t launches_run;
  uint64_t kernels_run;  // distinct kernels launched at least once
  uint64_t device_ticks;  // sum of dispatch end - start
  hipError_t sticky_error;  // a launch faulted: the device is lost
  // The bound of every launch's wait (REDLINE_HIP_TIMEOUT_MS), and the
  // kernel of the first launch that outlived it and was stopped ("" none).
  uint64_t timeout_ms;
  char stopped[128];
  char errors[RL_HIP_ERRORS_KEPT][256];
  uint32_t error_total;
  hipError_t last_error;
  // REDLINE_HIP_TRACE (`redline run --trace`): every launch's device span
  // in a Chrome/Perfetto trace (redline/base/trace.h), written at exit.
  struct rl_trace_s* trace;
} rl_hip_state_t;

extern rl_hip_state_t rl_hip;

// Records a misuse or failure (rl_hip_sim_error and the report).
void rl_hip_error(const char* format, ...) __attribute__((format(printf, 1, 2)));
// Creates the simulated device on first use.
hipError_t rl_hip_start_locked(void);
// Remembers |error| as the last error, unlocks and returns it.
hipError_t rl_hip_leave(hipError_t error);
// Runs every stream's pending operations.
hipError_t rl_hip_drain_all(void);
// Runs |stream|'s pending operations in order.
hipError_t rl_hip_drain(struct ihipStream_t* stream);
// Parses and loads a code object as a new module.
hipError_t rl_hip_module_load_locked(const void* image, size_t size,
                                     struct ihipModule_t** out_module);
void rl_hip_list_clear(rl_hip_list_t* list);
// Appends a copy of |op| (kernarg copied).
hipError_t rl_hip_list_append(rl_hip_list_t* list, const rl_hip_op_t* op);
struct ihipStream_t* rl_hip_stream(hipStream_t stream);
bool rl_hip_stream_usable(struct ihipStream_t* stream, const char* call);
// Queues |op| on |stream| (or records it when the stream is capturing),
// with the legacy null stream's implicit synchronisation.
hipError_t rl_hip_enqueue(struct ihipStream_t* stream, const rl_hip_op_t* op);
// The live allocation holding |address| (a device address, or a host
// pointer into host-visible memory), or NULL.
rl_hip_allocation_t* rl_hip_find(uint64_t address);
// The device address behind |pointer|: itself for device memory, the
// device address of host-visible memory, |pointer| otherwise.
uint64_t rl_hip_device_address(const void* pointer);
// Runs a copy or memset operation now.
hipError_t rl_hip_run_memory_op(const rl_hip_op_t* op);
// The function of a host stub, or NULL.
struct ihipModuleSymbol_t* rl_hip_stub_function(const void* host);
// Reads amdhsa.printf of |module|'s code object.
void rl_hip_printf_formats(struct ihipModule_t* module);
// Prints and consumes what the kernels wrote to the printf buffer.
void rl_hip_printf_flush(void);
// The device's nominal compute-unit count.
int rl_hip_compute_units(void);
// Prints "redline hip: NAME is not supported ..." once per NAME.
void rl_hip_unsupported(const char* name);

#define RL_HIP_ENTER()                               \
  pthread_mutex_lock(&rl_hip.lock);                  \
  hipError_t rl_hip_started = rl_hip_start_locked(); \
  if (rl_hip_started) return rl_hip_leave(rl_hip_started)

#endif  // REDLINE_HIP_SIM_HIP_SIM_INTERNAL_H_
