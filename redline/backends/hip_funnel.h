// redline/backends/hip_funnel.h — the recording funnel's device
// (redline/funnel.h rl_funnel_device_t) over HIP (libamdhip64 loaded by
// hip_loader.h; in CI sim/hip_sim over the simulator). A funnel
// recording through it is an eager run on whatever GPU HIP drives.
//
// Mapping of the funnel's calls:
//   load_code_object  hipModuleLoadData; the handle is the adapter's index
//                     of the module; functions are resolved by kernel name
//                     with hipModuleGetFunction and cached;
//   allocate          hipMalloc (HIP aligns to at least 256 bytes; a larger
//                     alignment over-allocates and aligns up); every
//                     allocation is tracked and freed at destroy;
//   write / read      hipMemcpy, after the range is resolved with
//                     hipMemGetAddressRange and checked to lie inside one
//                     tracked allocation (RL_STATUS_INVALID_ARGUMENT
//                     otherwise); read first synchronises the stream;
//   launch            hipModuleLaunchKernel on the adapter's stream with the
//                     exact recorded kernarg bytes through the `extra` form
//                     (HIP_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END); the
//                     grid is in work-groups, as the funnel's.
// Errors are HIP errors translated by rl_hip_check (hip_loader.h).
//
// Thread-safety: none; one thread drives the funnel and its device.
#ifndef REDLINE_BACKENDS_HIP_FUNNEL_H_
#define REDLINE_BACKENDS_HIP_FUNNEL_H_

#include "redline/funnel.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Opens HIP (|library_path|, else $REDLINE_HIP_LIBRARY, else the default
// names), calls hipInit and creates a stream. *|out_device| is cleared on
// entry and on failure; release it with rl_funnel_device_destroy().
rl_status_t rl_hip_funnel_create(const char* library_path,
                                 rl_funnel_device_t* out_device);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BACKENDS_HIP_FUNNEL_H_
