// The runtime's API on an ordinary <<<>>> program (hip_sim_tests.cmake):
// device properties, memcpy in every direction (sync and async), memset
// widths, __device__/__constant__ symbols, host and managed memory, dynamic
// shared memory, per-stream ordering with events and hipStreamWaitEvent,
// elapsed time, function attributes, occupancy, errors and an entry that
// is not supported. Exit 0 when every result matches the host's.
#include "hip_sim_check.h"

__device__ int counter[4];
__constant__ int scale[4];

__global__ void axpy(int* y, const int* x, int a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] + scale[i % 4];
}

// y[i] = y[i] * 2 + 1, slowly: ordering between streams must hold anyway.
__global__ void twice_plus_one(int* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * 2 + 1;
}

__global__ void count(int* out) {
  atomicAdd(&counter[threadIdx.x % 4], 1);
  if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x;
}

// Reverses a block through dynamic shared memory.
__global__ void reverse(int* data) {
  extern __shared__ int tile[];
  int t = threadIdx.x;
  tile[t] = data[blockIdx.x * blockDim.x + t];
  __syncthreads();
  data[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t];
}

int main() {
  // Device management and properties.
  int devices = 0;
  CHECK(hipGetDeviceCount(&devices));
  EXPECT_EQ(devices, 1);
  CHECK(hipSetDevice(0));
  hipDeviceProp_t props;
  CHECK(hipGetDeviceProperties(&props, 0));
  const char* want = getenv("HIP_SIM_TEST_ARCH");
  if (want && strcmp(props.gcnArchName, want) != 0) {
    fprintf(stderr, "gcnArchName %s, expected %s\n", props.gcnArchName, want);
    return 1;
  }
  // HIP_SIM_TEST_VERSION "MAJOR.MINOR": the version hipGetDeviceProperties
  // gives (gfx1151: 11.5).
  const char* version = getenv("HIP_SIM_TEST_VERSION");
  int want_major = 0, want_minor = 0;
  if (version && (sscanf(version, "%d.%d", &want_major, &want_minor) != 2 ||
                  props.major != want_major || props.minor != want_minor)) {
    fprintf(stderr, "version %d.%d, expected %s\n", props.major, props.minor,
            version);
    return 1;
  }
  EXPECT_EQ(props.warpSize, 32);
  int value = 0;
  CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeMaxThreadsPerBlock, 0));
  EXPECT_EQ(value, 1024);

  const int n = 1000;
  int host_x[1000], host_y[1000], out[1000];
  for (int i = 0; i < n; ++i) host_x[i] = i, host_y[i] = 3 * i;
  int *x, *y, *z;
  CHECK(hipMalloc((void**)&x, n * sizeof(int)));
  CHECK(hipMalloc((void**)&y, n * sizeof(int)));
  CHECK(hipMalloc((void**)&z, n * sizeof(int)));
  size_t free_bytes = 0, total = 0;
  CHECK(hipMemGetInfo(&free_bytes, &total));
  EXPECT_EQ(free_bytes < total, 1);

  // Symbols.
  const int scales[4] = {1, 2, 3, 4};
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(scale), scales, sizeof(scales), 0,
                          hipMemcpyHostToDevice));
  size_t symbol_size = 0;
  CHECK(hipGetSymbolSize(&symbol_size, HIP_SYMBOL(counter)));
  EXPECT_EQ(symbol_size, 16);
  void* counter_address = NULL;
  CHECK(hipGetSymbolAddress(&counter_address, HIP_SYMBOL(counter)));
  CHECK(hipMemset(counter_address, 0, 16));

  // Copies: H2D, D2D, async D2H; memset widths.
  CHECK(hipMemcpy(x, host_x, n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(z, host_y, n * sizeof(int), hipMemcpyDefault));
  CHECK(hipMemcpy(y, z, n * sizeof(int), hipMemcpyDeviceToDevice));
  axpy<<<(n + 255) / 256, 256>>>(y, x, 5, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpyAsync(out, y, n * sizeof(int), hipMemcpyDeviceToHost, 0));
  CHECK(hipStreamSynchronize(0));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], 5 * i + 3 * i + scales[i % 4]);
  CHECK(hipMemsetD32(z, 0x01020304, n));
  CHECK(hipMemsetD16((char*)z + 4, 0xBEEF, 1));
  CHECK(hipMemsetD8((char*)z + 8, 0x7F, 4));
  CHECK(hipMemcpy(out, z, 16, hipMemcpyDeviceToHost));
  EXPECT_EQ(out[0], 0x01020304);
  EXPECT_EQ(out[1], 0x0102BEEF);
  EXPECT_EQ(out[2], 0x7F7F7F7F);
  int copy[4];
  CHECK(hipMemcpy(copy, out, sizeof(copy), hipMemcpyHostToHost));
  EXPECT_EQ(copy[3], 0x01020304);

  // Streams: on s1 y = 2y+1 then on s2 (after an event of s1) y = 2y+1
  // again; s2's work must see s1's.
  hipStream_t s1, s2;
  CHECK(hipStreamCreate(&s1));
  CHECK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
  hipEvent_t start, done1, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&done1));
  CHECK(hipEventCreate(&stop));
  CHECK(hipMemcpy(y, host_y, n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipEventRecord(start, s1));
  twice_plus_one<<<(n + 127) / 128, 128, 0, s1>>>(y, n);
  CHECK(hipEventRecord(done1, s1));
  CHECK(hipStreamWaitEvent(s2, done1, 0));
  twice_plus_one<<<(n + 127) / 128, 128, 0, s2>>>(y, n);
  CHECK(hipMemcpyAsync(out, y, n * sizeof(int), hipMemcpyDeviceToHost, s2));
  CHECK(hipEventRecord(stop, s2));
  CHECK(hipEventSynchronize(stop));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], (3 * i * 2 + 1) * 2 + 1);
  float ms = -1.0f;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  if (!(ms > 0.0f)) {
    fprintf(stderr, "elapsed %f ms, expected > 0\n", ms);
    return 1;
  }
  CHECK(hipStreamQuery(s1));
  CHECK(hipEventQuery(done1));

  // Atomics on a __device__ array, read back from the symbol.
  count<<<8, 64>>>(z);
  int counts[4];
  CHECK(hipMemcpyFromSymbol(counts, HIP_SYMBOL(counter), sizeof(counts), 0,
                            hipMemcpyDeviceToHost));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(counts[i], 8 * 64 / 4);

  // Host and managed memory, written by the host and read by a kernel.
  int *host_memory, *managed;
  CHECK(hipHostMalloc((void**)&host_memory, n * sizeof(int), 0));
  CHECK(hipMallocManaged((void**)&managed, n * sizeof(int), hipMemAttachGlobal));
  for (int i = 0; i < n; ++i) host_memory[i] = i, managed[i] = 7;
  axpy<<<(n + 255) / 256, 256>>>(managed, host_memory, 2, n);
  CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; ++i) EXPECT_EQ(managed[i], 2 * i + 7 + scales[i % 4]);
  CHECK(hipHostFree(host_memory));
  CHECK(hipFree(managed));

  // Dynamic shared memory.
  for (int i = 0; i < 256; ++i) host_x[i] = i;
  CHECK(hipMemcpy(x, host_x, 256 * sizeof(int), hipMemcpyHostToDevice));
  reverse<<<2, 128, 128 * sizeof(int)>>>(x);
  CHECK(hipMemcpy(out, x, 256 * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < 256; ++i) EXPECT_EQ(out[i], (i / 128) * 128 + 127 - i % 128);

  // Function attributes and occupancy.
  hipFuncAttributes attributes;
  CHECK(hipFuncGetAttributes(&attributes, (const void*)reverse));
  EXPECT_EQ(attributes.maxThreadsPerBlock, 1024);
  int blocks = 0;
  CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, (const void*)axpy, 256, 0));
  EXPECT_EQ(blocks, 8);
  int grid = 0, block = 0;
  CHECK(hipOccupancyMaxPotentialBlockSize(&grid, &block, (const void*)axpy, 0, 0));
  EXPECT_EQ(block, 1024);

  // Errors: a bad launch configuration is reported and then cleared.
  axpy<<<1, 2048>>>(y, x, 1, n);
  EXPECT_EQ(hipPeekAtLastError(), hipErrorInvalidConfiguration);
  EXPECT_EQ(hipGetLastError(), hipErrorInvalidConfiguration);
  EXPECT_EQ(hipGetLastError(), hipSuccess);
  if (strcmp(hipGetErrorName(hipErrorInvalidValue), "hipErrorInvalidValue")) {
    return 1;
  }
  // An entry the runtime does not implement says so.
  EXPECT_EQ(hipMemset2D(x, 16, 0, 16, 2), hipErrorNotSupported);

  CHECK(hipStreamDestroy(s1));
  CHECK(hipStreamDestroy(s2));
  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(done1));
  CHECK(hipEventDestroy(stop));
  CHECK(hipFree(x));
  CHECK(hipFree(y));
  CHECK(hipFree(z));
  printf("hip_sim_api: ok\n");
  return 0;
}
