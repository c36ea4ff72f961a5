// tests/standins/hip/standin_hip_internal.h — state and helpers shared by
// the files of the HIP stand-in (standin_hip.c: device, memory, modules,
// streams and launches; standin_hip_fatbin.c: fat-binary registration;
// standin_hip_graph.c: stream capture, graphs and error names). Private to
// the stand-in library.
//
// Thread-safety: every entry point takes rl_hip.lock (RL_HIP_ENTER) and
// releases it through rl_hip_leave(); the helpers below that end in
// _locked, and every helper that touches rl_hip, expect the lock held.
#ifndef REDLINE_TESTS_STANDINS_HIP_STANDIN_HIP_INTERNAL_H_
#define REDLINE_TESTS_STANDINS_HIP_STANDIN_HIP_INTERNAL_H_

#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels/ref/ref_executor.h"
#include "redline/base/array.h"
#include "redline/code_object.h"
#include "redline/device/device.h"
#include "redline/device/device_funnel.h"
#include "redline/funnel.h"
#include "redline/offload_bundle.h"
#include "redline/sim/sim.h"
#include "tests/standins/hip/standin_hip_hooks.h"

#define RL_HIP_EXPORT __attribute__((visibility("default")))
#define RL_HIP_MAGIC_MODULE 0x4D4F4455u
#define RL_HIP_MAGIC_FUNCTION 0x46554E43u
#define RL_HIP_MAGIC_STREAM 0x5354524Du
#define RL_HIP_MAGIC_GRAPH 0x47524150u
#define RL_HIP_MAGIC_EXEC 0x45584543u
#define RL_HIP_ERRORS_KEPT 64u

struct ihipModuleSymbol_t {
  uint32_t magic;
  struct ihipModule_t* module;
  const rl_code_object_kernel_t* kernel;
};

struct ihipModule_t {
  uint32_t magic;
  bool live;
  rl_code_object_t* parsed;
  uint64_t handle;  // adapter handle
  // One function handle per kernel, owned by the module as in HIP (the same
  // handle for repeated hipModuleGetFunction calls).
  struct ihipModuleSymbol_t* functions;
};

typedef struct rl_hip_launch_s {
  struct ihipModuleSymbol_t* function;
  uint32_t grid[3], block[3], lds;
  uint8_t* kernarg;
  uint32_t kernarg_size;
} rl_hip_launch_t;

typedef struct rl_hip_list_s {
  rl_hip_launch_t* items;
  uint32_t count, capacity;
} rl_hip_list_t;

struct ihipStream_t {
  uint32_t magic;
  bool destroyed;
  bool capturing;
  rl_hip_list_t pending;
  rl_hip_list_t captured;
};

struct ihipGraph {
  uint32_t magic;
  rl_hip_list_t launches;
};

struct hipGraphExec {
  uint32_t magic;
  rl_hip_list_t launches;
};

// A host stub registered by __hipRegisterFunction.
typedef struct rl_hip_stub_s {
  const void* host;
  struct ihipModuleSymbol_t* function;
} rl_hip_stub_t;

typedef struct rl_hip_allocation_s {
  uint64_t address, size;
} rl_hip_allocation_t;

#define RL_HIP_MAX_STREAMS 256u

typedef struct rl_hip_state_s {
  pthread_mutex_t lock;
  bool started;
  hipError_t start_error;
  rl_device_t* sim;
  rl_funnel_device_t adapter;
  char processor[32];
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
  uint64_t launches_run;
  char errors[RL_HIP_ERRORS_KEPT][256];
  uint32_t error_total;
  hipError_t last_error;
} rl_hip_state_t;

extern rl_hip_state_t rl_hip;

// Records a misuse or failure (rl_standin_hip_error and the report).
void rl_hip_error(const char* format, ...) __attribute__((format(printf, 1, 2)));
// Creates the simulated device on first use.
hipError_t rl_hip_start_locked(void);
// Remembers |error| as the last error, unlocks and returns it.
hipError_t rl_hip_leave(hipError_t error);
// Runs every stream's pending launches.
hipError_t rl_hip_drain_all(void);
// Parses and loads a code object as a new module.
hipError_t rl_hip_module_load_locked(const void* image, size_t size,
                                     struct ihipModule_t** out_module);
void rl_hip_list_clear(rl_hip_list_t* list);
hipError_t rl_hip_list_append(rl_hip_list_t* list, const rl_hip_launch_t* launch);
struct ihipStream_t* rl_hip_stream(hipStream_t stream);
bool rl_hip_stream_usable(struct ihipStream_t* stream, const char* call);

#define RL_HIP_ENTER()                               \
  pthread_mutex_lock(&rl_hip.lock);                  \
  hipError_t rl_hip_started = rl_hip_start_locked(); \
  if (rl_hip_started) return rl_hip_leave(rl_hip_started)

#endif  // REDLINE_TESTS_STANDINS_HIP_STANDIN_HIP_INTERNAL_H_
