// host_register.hip — hipHostRegister pins a range of the program's memory
// for copies: copies to and from it work in both directions and in stream
// order; registering an overlapping range again fails with
// hipErrorHostMemoryAlreadyRegistered; unregistering an unregistered
// pointer fails with hipErrorHostMemoryNotRegistered.
// Rule: HIP API reference, hipHostRegister / hipHostUnregister; CUDA
// cudaHostRegister ("Page-locks the memory range ... accelerates copies")
// and its errors (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html);
// API synchronization behavior: copies from pinned memory are
// asynchronous, so the program synchronises before touching the buffer.
#include "conformance.h"

__global__ void add(int* v, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += k;
}

int main() {
  const int n = 4096;
  int* host = (int*)std::malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) host[i] = i;
  HIP_CHECK(hipHostRegister(host, n * sizeof(int), hipHostRegisterDefault));
  EXPECT_ERROR(hipHostRegister(host + 8, 64, hipHostRegisterDefault),
               hipErrorHostMemoryAlreadyRegistered);
  int* device;
  HIP_CHECK(hipMalloc(&device, n * sizeof(int)));
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  HIP_CHECK(hipMemcpyAsync(device, host, n * sizeof(int),
                           hipMemcpyHostToDevice, stream));
  add<<<n / 256, 256, 0, stream>>>(device, 5, n);
  HIP_CHECK(hipMemcpyAsync(host, device, n * sizeof(int),
                           hipMemcpyDeviceToHost, stream));
  HIP_CHECK(hipStreamSynchronize(stream));
  EXPECT(host[0] == 5 && host[n - 1] == n + 4, "round trip: host[%d] = %d",
         n - 1, host[n - 1]);
  HIP_CHECK(hipHostUnregister(host));
  EXPECT_ERROR(hipHostUnregister(host), hipErrorHostMemoryNotRegistered);
  conformance_ok("host_register");
  return 0;
}
