// Kernels loaded as a module by hip_sim_module.hip (built with --genco
// into a code object, hip_sim_tests.cmake).
#include <hip/hip_runtime.h>

__device__ int bias;

extern "C" __global__ void add_bias(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += bias;
}
