// host_memory_kernels.hip — kernels dereference pinned, managed and
// registered host memory passed to them directly: a kernel's writes to it
// are visible to the host once the device is synchronised, and what the
// host writes into it between launches is what the next kernel reads.
// Rule: HIP programming guide, "Host memory" (pinned memory allocated with
// hipHostMalloc is mapped into the device's address space; hipHostRegister
// pins and maps an existing range; managed memory is accessible from host
// and device); CUDA cudaHostRegister / cudaHostAlloc "mapped" memory
// (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
#include "conformance.h"

__global__ void scale_add(int* v, int mul, int add, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * mul + add;
}

// out[i] = a[i] + b[i]: reads two host buffers, writes a third.
__global__ void sum(const int* a, const int* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

// The first index where v[i] != mul * i + add, or -1.
static int first_wrong(const int* v, int n, int mul, int add) {
  for (int i = 0; i < n; ++i) {
    if (v[i] != mul * i + add) return i;
  }
  return -1;
}

int main() {
  const int n = 3000;  // not a multiple of the block: the tail is checked
  const size_t bytes = n * sizeof(int);
  const int blocks = (n + 255) / 256;
  int *pinned, *managed;
  HIP_CHECK(hipHostMalloc((void**)&pinned, bytes, 0));
  HIP_CHECK(hipMallocManaged((void**)&managed, bytes));
  // Registered at an offset into a larger block: any start address.
  char* block = (char*)std::malloc(bytes + 64);
  int* registered = (int*)(block + 4);
  for (int i = 0; i < n; ++i) pinned[i] = managed[i] = registered[i] = i;
  HIP_CHECK(hipHostRegister(registered, bytes, hipHostRegisterDefault));

  // With unified addressing the device pointer of pinned or registered
  // memory is the host pointer itself (HIP runtime API reference,
  // hipHostGetDevicePointer; ROCm answers so), and a kernel reaches the
  // same bytes through it. (First, so that the sum below stays the last
  // launch: host_uploads.sh compares the final state with its window.)
  void* mapped = nullptr;
  HIP_CHECK(hipHostGetDevicePointer(&mapped, registered, 0));
  EXPECT(mapped == registered, "hipHostGetDevicePointer(registered %p) = %p",
         (void*)registered, mapped);
  HIP_CHECK(hipHostGetDevicePointer(&mapped, pinned + 5, 0));
  EXPECT(mapped == pinned + 5, "hipHostGetDevicePointer(pinned %p) = %p",
         (void*)(pinned + 5), mapped);
  int stack_value = 0;
  EXPECT(hipHostGetDevicePointer(&mapped, &stack_value, 0) ==
             hipErrorInvalidValue,
         "hipHostGetDevicePointer of pageable memory did not fail");
  HIP_CHECK(hipHostGetDevicePointer(&mapped, pinned, 0));
  scale_add<<<blocks, 256>>>((int*)mapped, 3, 0, n);
  HIP_CHECK(hipDeviceSynchronize());
  int wrong = first_wrong(pinned, n, 3, 0);
  EXPECT(wrong < 0, "pinned[%d] = %d through the device pointer", wrong,
         wrong < 0 ? 0 : pinned[wrong]);
  for (int i = 0; i < n; ++i) pinned[i] = i;

  scale_add<<<blocks, 256>>>(pinned, 2, 1, n);
  HIP_CHECK(hipDeviceSynchronize());
  wrong = first_wrong(pinned, n, 2, 1);
  EXPECT(wrong < 0, "pinned[%d] = %d after the kernel", wrong,
         wrong < 0 ? 0 : pinned[wrong]);

  for (int i = 0; i < n; ++i) managed[i] = 3 * i;
  scale_add<<<blocks, 256>>>(managed, 1, 7, n);
  scale_add<<<blocks, 256>>>(registered, 5, 2, n);
  HIP_CHECK(hipDeviceSynchronize());
  wrong = first_wrong(managed, n, 3, 7);
  EXPECT(wrong < 0, "managed[%d] = %d", wrong, wrong < 0 ? 0 : managed[wrong]);
  wrong = first_wrong(registered, n, 5, 2);
  EXPECT(wrong < 0, "registered[%d] = %d", wrong,
         wrong < 0 ? 0 : registered[wrong]);

  // Host writes the next kernel must read, between launches.
  for (int i = 100; i < 200; ++i) pinned[i] = -i;
  pinned[7] = 1000;
  sum<<<blocks, 256>>>(pinned, registered, managed, n);
  HIP_CHECK(hipDeviceSynchronize());
  int expect7 = 1000 + 5 * 7 + 2;
  EXPECT(managed[7] == expect7, "managed[7] = %d, expected %d", managed[7],
         expect7);
  for (int i = 0; i < n; ++i) {
    int host = i == 7 ? 1000 : i >= 100 && i < 200 ? -i : 2 * i + 1;
    int want = host + 5 * i + 2;
    EXPECT(managed[i] == want, "sum[%d] = %d, expected %d", i, managed[i],
           want);
  }

  HIP_CHECK(hipHostUnregister(registered));
  std::free(block);
  HIP_CHECK(hipHostFree(pinned));
  HIP_CHECK(hipFree(managed));
  conformance_ok("host_memory_kernels");
  return 0;
}
