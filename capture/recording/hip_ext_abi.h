// capture/recording/hip_ext_abi.h — the HIP extension launch entry points under the
// names programs bind, defined once for both libraries that export them:
// the HIP runtime over the simulator (sim/hip_sim) and the capture
// interposer (capture/interposer).
//
// hipExtModuleLaunchKernel (global sizes in work-items) is declared by
// ROCm's hip_ext.h, which Debian's C headers lack, so it is declared here.
// HIP 5's hip_ext.h declares it and hipHccModuleLaunchKernel as C++
// functions: a program built against it binds the mangled names, which
// must reach the same implementation (for the interposer: or the launches
// would bypass the capture unnoticed). RL_HIP_EXT_ABI_FORWARDERS(EXPORT)
// defines both mangled names as forwarders to hipExtModuleLaunchKernel
// with |EXPORT| (the library's visibility attribute); the including file
// defines hipExtModuleLaunchKernel itself.
#ifndef REDLINE_CAPTURE_HIP_EXT_ABI_H_
#define REDLINE_CAPTURE_HIP_EXT_ABI_H_

#include <hip/hip_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy,
                                    uint32_t gz, uint32_t lx, uint32_t ly,
                                    uint32_t lz, size_t lds, hipStream_t stream,
                                    void** kernelParams, void** extra,
                                    hipEvent_t start, hipEvent_t stop,
                                    uint32_t flags);

#define RL_HIP_EXT_MANGLED_EXT                                                \
  _Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j
#define RL_HIP_EXT_MANGLED_HCC                                                \
  _Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_

#define RL_HIP_EXT_ABI_FORWARDERS(EXPORT)                                     \
  hipError_t RL_HIP_EXT_MANGLED_EXT(                                          \
      hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,    \
      uint32_t ly, uint32_t lz, size_t lds, hipStream_t stream,               \
      void** params, void** extra, hipEvent_t start, hipEvent_t stop,         \
      uint32_t flags);                                                        \
  EXPORT hipError_t RL_HIP_EXT_MANGLED_EXT(                                   \
      hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,    \
      uint32_t ly, uint32_t lz, size_t lds, hipStream_t stream,               \
      void** params, void** extra, hipEvent_t start, hipEvent_t stop,         \
      uint32_t flags) {                                                       \
    return hipExtModuleLaunchKernel(f, gx, gy, gz, lx, ly, lz, lds, stream,   \
                                    params, extra, start, stop, flags);       \
  }                                                                           \
  hipError_t RL_HIP_EXT_MANGLED_HCC(                                          \
      hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,    \
      uint32_t ly, uint32_t lz, size_t lds, hipStream_t stream,               \
      void** params, void** extra, hipEvent_t start, hipEvent_t stop);        \
  EXPORT hipError_t RL_HIP_EXT_MANGLED_HCC(                                   \
      hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,    \
      uint32_t ly, uint32_t lz, size_t lds, hipStream_t stream,               \
      void** params, void** extra, hipEvent_t start, hipEvent_t stop) {       \
    return hipExtModuleLaunchKernel(f, gx, gy, gz, lx, ly, lz, lds, stream,   \
                                    params, extra, start, stop, 0);           \
  }

#endif  // REDLINE_CAPTURE_HIP_EXT_ABI_H_
