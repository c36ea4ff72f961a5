// module_kernels.hip — the device code of module.hip, built on its own
// with `redline-hipcc --genco` into a code object that module.hip loads at
// run time with hipModuleLoad. extern "C" keeps the kernel names plain for
// hipModuleGetFunction.
#include <hip/hip_runtime.h>

extern "C" __global__ void scale_add(float* __restrict__ y,
                                     const float* __restrict__ x, float a,
                                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void square(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= v[i];
}
