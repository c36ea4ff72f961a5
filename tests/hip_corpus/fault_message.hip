// fault_message.hip — not a corpus program: the fixture of
// tests/hip_corpus/fault_message.sh (docs/failure-semantics.md, "Fault
// messages are whole"). Its kernel, whose name is over 300 characters,
// writes 64 MiB past its buffer: the simulator faults it with a message
// longer than the 512 and 600 bytes it was once cut at, which must reach
// the user whole.
//
// Exit status: 0 the launch faulted as it must (hipDeviceSynchronize
// reports the error), 1 it did not.
#include <hip/hip_runtime.h>

#include <cstdio>

extern "C" __global__ void fault_message_long_kernel_name_part_00_long_kernel_name_part_01_long_kernel_name_part_02_long_kernel_name_part_03_long_kernel_name_part_04_long_kernel_name_part_05_long_kernel_name_part_06_long_kernel_name_part_07_long_kernel_name_part_08_long_kernel_name_part_09_long_kernel_name_part_10_long_kernel_name_part_11(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i + n] = i;
}

int main() {
  int* p = nullptr;
  if (hipMalloc(&p, 256 * sizeof(int)) != hipSuccess) return 1;
  fault_message_long_kernel_name_part_00_long_kernel_name_part_01_long_kernel_name_part_02_long_kernel_name_part_03_long_kernel_name_part_04_long_kernel_name_part_05_long_kernel_name_part_06_long_kernel_name_part_07_long_kernel_name_part_08_long_kernel_name_part_09_long_kernel_name_part_10_long_kernel_name_part_11<<<1, 64>>>(p, 1 << 24);
  hipError_t error = hipDeviceSynchronize();
  std::printf("fault_message: synchronize: %s\n", hipGetErrorName(error));
  return error == hipSuccess;
}
