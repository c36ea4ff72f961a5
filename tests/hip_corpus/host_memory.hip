// host_memory.hip — kernels that read and write host memory directly, as
// the public HIP samples do with pinned buffers: the inputs live in
// hipHostMalloc memory (default and mapped flags), the output in a
// malloc'ed range pinned with hipHostRegister at an unaligned start, and the
// kernels take those host pointers as their arguments (no hipMemcpy). The
// host updates an input between launches, so the second launch must read
// what the host wrote.
#include "corpus.h"

#include <cstring>
#include <vector>

// out[i] = a[i] * s + b[i], grid-stride.
__global__ void axpy(const float* a, const float* b, float s, float* out,
                     int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = a[i] * s + b[i];
}

// acc[i] += key[i] & 0xff, and a count of odd keys per block in counts[].
__global__ void accumulate(const unsigned* key, int* acc, int* counts, int n) {
  __shared__ int odd;
  if (threadIdx.x == 0) odd = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    acc[i] += (int)(key[i] & 0xffu);
    if (key[i] & 1u) atomicAdd(&odd, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = odd;
}

int main() {
  const int n = 5000;  // not a multiple of the block: the tail is checked
  const int block = 128, blocks = (n + block - 1) / block;
  float *a, *b;
  unsigned* key;
  HIP_CHECK(hipHostMalloc((void**)&a, n * sizeof(float), hipHostMallocDefault));
  HIP_CHECK(hipHostMalloc((void**)&b, n * sizeof(float), hipHostMallocMapped));
  HIP_CHECK(hipHostMalloc((void**)&key, n * sizeof(unsigned), 0));
  // Registered at 4 bytes into a malloc'ed block: any start address.
  const size_t out_bytes = n * sizeof(float) + blocks * sizeof(int) +
                           n * sizeof(int);
  char* raw = (char*)std::malloc(out_bytes + 64);
  if (!raw) return 3;
  std::memset(raw, 0, out_bytes + 64);
  float* out = (float*)(raw + 4);
  int* acc = (int*)(out + n);
  int* counts = acc + n;
  HIP_CHECK(hipHostRegister(out, out_bytes, hipHostRegisterDefault));

  CorpusRng rng(17);
  for (int i = 0; i < n; ++i) {
    a[i] = rng.uniform(-2.0f, 2.0f);
    b[i] = rng.uniform(-1.0f, 1.0f);
    key[i] = rng.next();
    acc[i] = i;
  }
  axpy<<<16, block>>>(a, b, 0.5f, out, n);
  HIP_CHECK_LAUNCH();
  accumulate<<<blocks, block>>>(key, acc, counts, n);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipDeviceSynchronize());

  // The host changes the keys; the next launch must read the new ones.
  std::vector<unsigned> first(key, key + n);
  for (int i = 0; i < n; i += 3) key[i] = rng.next();
  accumulate<<<blocks, block>>>(key, acc, counts, n);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipDeviceSynchronize());

  std::vector<float> want_out(n);
  std::vector<int> want_acc(n), want_counts(blocks, 0);
  for (int i = 0; i < n; ++i) {
    want_out[i] = a[i] * 0.5f + b[i];  // one FMA on the device: see below
    want_acc[i] = i + (int)(first[i] & 0xffu) + (int)(key[i] & 0xffu);
    if (key[i] & 1u) ++want_counts[i / block];
  }
  std::vector<float> got_out(out, out + n);
  std::vector<int> got_acc(acc, acc + n), got_counts(counts, counts + blocks);
  HIP_CHECK(hipHostUnregister(out));
  std::free(raw);
  HIP_CHECK(hipHostFree(a));
  HIP_CHECK(hipHostFree(b));
  HIP_CHECK(hipHostFree(key));

  corpus_corrupt(got_acc.data());
  corpus_check_exact("acc", got_acc.data(), want_acc.data(), n);
  corpus_check_exact("counts", got_counts.data(), want_counts.data(), blocks);
  // The device contracts a * s + b into one FMA, the host may not: one
  // rounding apart at most.
  corpus_check_close("out", got_out.data(), want_out.data(), n, 1e-6, 2e-7);
  return corpus_finish("host_memory");
}
