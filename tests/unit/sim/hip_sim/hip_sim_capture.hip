// A program to capture whole (hip_sim_tests.cmake): buffers from hipMalloc,
// filled by hipMemcpy before any launch, then three rounds of two <<<>>>
// kernels and one copy back, checked on the host. With the argument
// "none" it launches nothing, with "memset" it clears y by hipMemsetAsync
// after the first round (a capture of "none" must be refused; the memset is
// recorded as a fill launch).
#include "hip_sim_check.h"

__global__ void axpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void shift(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f + 1.0f;
}

int main(int argc, char** argv) {
  const int n = 4096;
  static float x[4096], y[4096], out[4096];
  for (int i = 0; i < n; ++i) x[i] = (float)(i % 97), y[i] = (float)(i % 13);
  float *dx, *dy;
  CHECK(hipMalloc((void**)&dx, n * sizeof(float)));
  CHECK(hipMalloc((void**)&dy, n * sizeof(float)));
  CHECK(hipMemcpy(dx, x, n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dy, y, n * sizeof(float), hipMemcpyHostToDevice));
  bool launch = !(argc > 1 && strcmp(argv[1], "none") == 0);
  bool clear = argc > 1 && strcmp(argv[1], "memset") == 0;
  for (int round = 0; launch && round < 3; ++round) {
    axpy<<<n / 256, 256>>>(dy, dx, 2.0f, n);
    shift<<<n / 128, 128>>>(dx, n);
    for (int i = 0; i < n; ++i) y[i] = 2.0f * x[i] + y[i], x[i] = x[i] * 0.5f + 1.0f;
    if (clear && round == 0) {
      CHECK(hipMemsetAsync(dy, 0, n * sizeof(float), 0));
      memset(y, 0, sizeof(y));
    }
  }
  CHECK(hipMemcpy(out, dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    if (out[i] != y[i] + (float)hip_sim_test_break()) {
      fprintf(stderr, "y[%d] = %g, expected %g\n", i, out[i], y[i]);
      return 1;
    }
  }
  CHECK(hipFree(dx));
  CHECK(hipFree(dy));
  printf("hip_sim_capture: ok\n");
  return 0;
}
