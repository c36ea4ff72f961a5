// sim/hip_sim/hip_sim_cooperative.c — cooperative launches
// (hipLaunchCooperativeKernel, hipModuleLaunchCooperativeKernel): every work-group of the grid is resident
// at once, so cooperative groups' grid sync works (docs/hip-runtime.md,
// "Cooperative launches").
//
// A grid larger than can be resident is refused with
// hipErrorCooperativeLaunchTooLarge, the limit derived as HIP's
// documentation tells programs to size such a grid:
// hipOccupancyMaxActiveBlocksPerMultiprocessor (rl_hip_blocks_per_unit)
// times the compute units (hipDeviceProp_t.multiProcessorCount). The
// launch is queued like hipLaunchKernel's, marked cooperative; the worker
// runs it as a cooperative dispatch of the simulator (sim.h
// rl_sim_set_cooperative). The multi-device form stays
// hipErrorNotSupported (one simulated device; hip_sim_stubs.c).
#include "sim/hip_sim/hip_sim_internal.h"

// Refuses a grid larger than can be resident, else queues the cooperative
// launch of |function|; |call| names the entry in errors.
static hipError_t rl_hip_launch_cooperative(
    struct ihipModuleSymbol_t* function, const uint32_t grid[3],
    const uint32_t block[3], unsigned int lds, hipStream_t stream,
    void** params, const char* call) {
  const uint64_t items = (uint64_t)block[0] * block[1] * block[2];
  const uint64_t groups = (uint64_t)grid[0] * grid[1] * grid[2];
  const int per_unit = rl_hip_blocks_per_unit(
      function->kernel, items > INT32_MAX ? 0 : (int)items, lds);
  const uint64_t resident = (uint64_t)per_unit * (uint64_t)rl_hip_compute_units();
  // A block the kernel cannot take (per_unit 0) is left to the launch's
  // own checks, which name it.
  if (per_unit > 0 && groups > resident) {
    rl_hip_error("%s(%s): %llu work-groups of %llu "
                 "work-items, but at most %llu can be resident at once (%d "
                 "per compute unit x %d compute units)",
                 call, function->kernel->name, (unsigned long long)groups,
                 (unsigned long long)items, (unsigned long long)resident,
                 per_unit, rl_hip_compute_units());
    return hipErrorCooperativeLaunchTooLarge;
  }
  return rl_hip_launch_locked(function, grid, block, lds,
                              rl_hip_stream(stream), params, NULL, call, true);
}

RL_HIP_EXPORT hipError_t hipLaunchCooperativeKernel(const void* f,
                                                    dim3 gridDim,
                                                    dim3 blockDim,
                                                    void** kernelParams,
                                                    unsigned int sharedMemBytes,
                                                    hipStream_t stream) {
  RL_HIP_ENTER();
  struct ihipModuleSymbol_t* function = rl_hip_stub_function(f);
  if (!function) {
    rl_hip_error("hipLaunchCooperativeKernel(%p): not a registered kernel", f);
    return rl_hip_leave(hipErrorInvalidDeviceFunction);
  }
  const uint32_t grid[3] = {gridDim.x, gridDim.y, gridDim.z};
  const uint32_t block[3] = {blockDim.x, blockDim.y, blockDim.z};
  return rl_hip_leave(rl_hip_launch_cooperative(
      function, grid, block, sharedMemBytes, stream, kernelParams,
      "hipLaunchCooperativeKernel"));
}

// HIP 6's module form (hip_runtime_api.h of ROCm 6; Debian's HIP 5.2 has
// no declaration): a function from hipModuleGetFunction, launched
// cooperatively with per-argument pointers.
hipError_t hipModuleLaunchCooperativeKernel(
    hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
    void** kernelParams);
RL_HIP_EXPORT hipError_t hipModuleLaunchCooperativeKernel(
    hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
    void** kernelParams) {
  RL_HIP_ENTER();
  if (!f || !f->kernel) {
    rl_hip_error("hipModuleLaunchCooperativeKernel(%p): not a function of a "
                 "loaded module", (void*)f);
    return rl_hip_leave(hipErrorInvalidResourceHandle);
  }
  const uint32_t grid[3] = {gridDimX, gridDimY, gridDimZ};
  const uint32_t block[3] = {blockDimX, blockDimY, blockDimZ};
  return rl_hip_leave(rl_hip_launch_cooperative(
      f, grid, block, sharedMemBytes, stream, kernelParams,
      "hipModuleLaunchCooperativeKernel"));
}
