// A kernel that traps (__builtin_trap, what assert and __trap become): the
// launch must fail with the kernel named, the program sees
// hipErrorLaunchFailure at the next synchronisation and exits 3
// (hip_sim_tests.cmake). With an argument the kernel does not trap and the
// program exits 0.
#include "hip_sim_check.h"

__global__ void checked(int* data, int limit) {
  if (data[threadIdx.x] > limit) __builtin_trap();
  data[threadIdx.x] += 1;
}

int main(int argc, char** argv) {
  int host[64];
  for (int i = 0; i < 64; ++i) host[i] = i;
  int* data;
  CHECK(hipMalloc((void**)&data, sizeof(host)));
  CHECK(hipMemcpy(data, host, sizeof(host), hipMemcpyHostToDevice));
  checked<<<1, 64>>>(data, argc > 1 ? 1000 : 10);
  hipError_t error = hipDeviceSynchronize();
  if (error == hipErrorLaunchFailure) {
    fprintf(stderr, "hip_sim_trap: %s\n", hipGetErrorName(error));
    return 3;
  }
  CHECK(error);
  CHECK(hipMemcpy(host, data, sizeof(host), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(host[i], i + 1);
  printf("hip_sim_trap: no trap\n");
  return 0;
}
