// redline/backends/hip_loader.h — the HIP runtime (libamdhip64) loaded with
// dlopen, type-checked against Debian's hip/hip_runtime_api.h (compile with
// -D__HIP_PLATFORM_AMD__).
//
// Loading: rl_hip_api_open() opens an explicit path, else
// $REDLINE_HIP_LIBRARY, else libamdhip64.so.6, libamdhip64.so.5, then the
// same under /opt/rocm/lib (dl_library.h), and resolves every function of
// hip_symbols.h up front (and RL_HIP_SIM_PROGRESS when present). It does
// not call hipInit.
//
// Errors: hipError_t is translated once, here, by rl_hip_error_info()
// (code, name, redline status, description); RL_HIP_CALL(api, function,
// args...) yields RL_OK for hipSuccess, else a status at the caller's file
// and line naming the call, the error and the runtime's hipGetErrorString.
//
// Loading libamdhip64 also loads the libhsa-runtime64.so.1 it depends on
// (by SONAME). Load HIP before pointing REDLINE_HSA_LIBRARY at a stand-in
// in the same process, or HIP binds to the stand-in.
#ifndef REDLINE_BACKENDS_HIP_LOADER_H_
#define REDLINE_BACKENDS_HIP_LOADER_H_

#include <hip/hip_runtime_api.h>

#include "redline/backends/dl_library.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_HIP_LIBRARY_ENV "REDLINE_HIP_LIBRARY"

#define RL_HIP_SYMBOL(name) typedef __typeof__(name) rl_hip_##name##_t;
#include "redline/backends/hip_symbols.h"
#undef RL_HIP_SYMBOL

typedef struct rl_hip_functions_s {
#define RL_HIP_SYMBOL(name) rl_hip_##name##_t* name;
#include "redline/backends/hip_symbols.h"
#undef RL_HIP_SYMBOL
} rl_hip_functions_t;

// An optional export of redline's own HIP runtime over the simulator
// (sim/hip_sim/hip_sim.h rl_hip_sim_progress_events): a counter that grows
// whenever a work-group completes or a dispatch starts. Other runtimes do
// not have it.
#define RL_HIP_SIM_PROGRESS "rl_hip_sim_progress_events"

typedef struct rl_hip_api_s {
  rl_dl_library_t library;
  rl_hip_functions_t fn;
  // RL_HIP_SIM_PROGRESS when the runtime exports it, else NULL
  // (hip_wait.h: the wait's bound is then a stall, not a duration).
  uint64_t (*progress_events)(void);
} rl_hip_api_t;

rl_status_t rl_hip_api_open(rl_hip_api_t* api, const char* explicit_path);
void rl_hip_api_close(rl_hip_api_t* api);

typedef struct rl_hip_error_info_s {
  hipError_t error;
  const char* name;
  rl_status_code_t code;
  const char* description;
} rl_hip_error_info_t;

// The row for |error|; unknown values get "hipErrorUnknownCode".
const rl_hip_error_info_t* rl_hip_error_info(hipError_t error);

rl_status_t rl_hip_check(const rl_hip_api_t* api, hipError_t error,
                         const char* call, const char* file, int line);

#define RL_HIP_CALL(api, function, ...)                               \
  rl_hip_check((api), (api)->fn.function(__VA_ARGS__), #function, \
               __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BACKENDS_HIP_LOADER_H_
