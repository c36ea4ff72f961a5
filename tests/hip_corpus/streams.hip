// streams.hip — four created streams each running its own chunk through
// async copies and two kernels, a cross-stream dependency through
// hipEventRecord + hipStreamWaitEvent (the final kernel on stream 0 reads
// every chunk), hipEventElapsedTime between events, and hipStreamQuery /
// hipStreamSynchronize. Pinned host memory (hipHostMalloc). Exact check;
// elapsed times must be finite and not negative.
#include "corpus.h"

#include <vector>

#define STREAMS 4

__global__ void add_one(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

__global__ void times(int* v, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= k;
}

// total[j] = sum over chunks of chunk[j]: needs every stream's work.
__global__ void gather(const int* v, int chunk, int* total) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= chunk) return;
  int s = 0;
  for (int c = 0; c < STREAMS; ++c) s += v[c * chunk + j];
  total[j] = s;
}

int main() {
  const int chunk = 2048, n = STREAMS * chunk;
  int *host, *host_total, *dv, *dtotal;
  HIP_CHECK(hipHostMalloc((void**)&host, n * sizeof(int), hipHostMallocDefault));
  HIP_CHECK(hipHostMalloc((void**)&host_total, chunk * sizeof(int), hipHostMallocDefault));
  HIP_CHECK(hipMalloc(&dv, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dtotal, chunk * sizeof(int)));
  for (int i = 0; i < n; ++i) host[i] = i % 977;
  std::vector<int> want(n), want_total(chunk, 0);
  for (int i = 0; i < n; ++i) {
    int c = i / chunk;
    want[i] = (host[i] + 1) * (c + 2);
    want_total[i % chunk] += want[i];
  }
  hipStream_t streams[STREAMS];
  hipEvent_t done[STREAMS], start, stop;
  for (int c = 0; c < STREAMS; ++c) {
    HIP_CHECK(hipStreamCreate(&streams[c]));
    HIP_CHECK(hipEventCreate(&done[c]));
  }
  HIP_CHECK(hipEventCreate(&start));
  HIP_CHECK(hipEventCreate(&stop));
  HIP_CHECK(hipEventRecord(start, streams[0]));
  for (int c = 0; c < STREAMS; ++c) {
    int* part = dv + c * chunk;
    HIP_CHECK(hipMemcpyAsync(part, host + c * chunk, chunk * sizeof(int),
                             hipMemcpyHostToDevice, streams[c]));
    add_one<<<chunk / 256, 256, 0, streams[c]>>>(part, chunk);
    HIP_CHECK_LAUNCH();
    times<<<chunk / 256, 256, 0, streams[c]>>>(part, c + 2, chunk);
    HIP_CHECK_LAUNCH();
    HIP_CHECK(hipEventRecord(done[c], streams[c]));
    HIP_CHECK(hipMemcpyAsync(host + c * chunk, part, chunk * sizeof(int),
                             hipMemcpyDeviceToHost, streams[c]));
  }
  for (int c = 1; c < STREAMS; ++c) HIP_CHECK(hipStreamWaitEvent(streams[0], done[c], 0));
  gather<<<chunk / 256, 256, 0, streams[0]>>>(dv, chunk, dtotal);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpyAsync(host_total, dtotal, chunk * sizeof(int),
                           hipMemcpyDeviceToHost, streams[0]));
  HIP_CHECK(hipEventRecord(stop, streams[0]));
  for (int c = 0; c < STREAMS; ++c) HIP_CHECK(hipStreamSynchronize(streams[c]));
  for (int c = 0; c < STREAMS; ++c) {
    hipError_t q = hipStreamQuery(streams[c]);
    if (q != hipSuccess) {
      std::fprintf(stderr, "hipStreamQuery(stream %d) after synchronize: %s\n", c, hipGetErrorName(q));
      return 1;
    }
  }
  HIP_CHECK(hipEventSynchronize(stop));
  float ms = -1.0f;
  HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
  if (!(ms >= 0.0f && std::isfinite(ms))) {
    std::fprintf(stderr, "hipEventElapsedTime = %g ms\n", ms);
    return 1;
  }
  corpus_corrupt(host);
  corpus_check_exact("chunks", host, want.data(), n);
  corpus_check_exact("total", host_total, want_total.data(), chunk);
  for (int c = 0; c < STREAMS; ++c) {
    HIP_CHECK(hipEventDestroy(done[c]));
    HIP_CHECK(hipStreamDestroy(streams[c]));
  }
  HIP_CHECK(hipEventDestroy(start));
  HIP_CHECK(hipEventDestroy(stop));
  HIP_CHECK(hipHostFree(host));
  HIP_CHECK(hipHostFree(host_total));
  HIP_CHECK(hipFree(dv));
  HIP_CHECK(hipFree(dtotal));
  return corpus_finish("streams");
}
