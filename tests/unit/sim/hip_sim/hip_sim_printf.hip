// Device printf (buffered; sim/hip_sim/hip_sim.h): the test compares
// stdout with the lines below, in order (hip_sim_tests.cmake).
#include "hip_sim_check.h"

__global__ void hello(int base) {
  if (threadIdx.x < 2) {
    printf("thread %d: %d %u %x %5.2f %s|%c|%lld\n", (int)threadIdx.x,
           base + (int)threadIdx.x, 4000000000u, 255, 2.5, "hip", 'z',
           -1234567890123ll);
  }
}

int main() {
  hello<<<1, 32>>>(40);
  CHECK(hipDeviceSynchronize());
  printf("host after kernel\n");
  return 0;
}
