// scan.hip — exclusive prefix sum of a large array in three launches
// (scan each block in LDS with Hillis-Steele steps, scan the block totals,
// add each block's offset): the scan-then-propagate shape of the public
// prefix-sum samples. Integers: exact.
#include "corpus.h"

#include <vector>

#define BLOCK 256

__global__ void scan_blocks(const unsigned* __restrict__ in,
                            unsigned* __restrict__ out,
                            unsigned* __restrict__ totals, int n) {
  __shared__ unsigned buf[2][BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  unsigned v = i < n ? in[i] : 0u;
  int src = 0;
  buf[0][tid] = v;
  __syncthreads();
  for (int s = 1; s < BLOCK; s <<= 1) {
    unsigned x = buf[src][tid];
    if (tid >= s) x += buf[src][tid - s];
    buf[src ^ 1][tid] = x;
    src ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = buf[src][tid] - v;
  if (tid == BLOCK - 1) totals[blockIdx.x] = buf[src][tid];
}

// One block: each thread scans a chunk of totals sequentially, then the
// chunk sums are scanned by thread 0.
__global__ void scan_totals(unsigned* totals, int count) {
  __shared__ unsigned chunk_sum[BLOCK];
  int per = (count + BLOCK - 1) / BLOCK;
  int begin = threadIdx.x * per;
  unsigned run = 0;
  for (int i = begin; i < begin + per && i < count; ++i) {
    unsigned t = totals[i];
    totals[i] = run;
    run += t;
  }
  chunk_sum[threadIdx.x] = run;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned acc = 0;
    for (int c = 0; c < BLOCK; ++c) {
      unsigned t = chunk_sum[c];
      chunk_sum[c] = acc;
      acc += t;
    }
  }
  __syncthreads();
  for (int i = begin; i < begin + per && i < count; ++i)
    totals[i] += chunk_sum[threadIdx.x];
}

__global__ void add_offsets(unsigned* out, const unsigned* totals, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] += totals[blockIdx.x];
}

int main() {
  const int n = 300000;
  const int blocks = (n + BLOCK - 1) / BLOCK;
  std::vector<unsigned> in(n), got(n), want(n);
  CorpusRng rng(5);
  unsigned acc = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = rng.next() % 1000u;
    want[i] = acc;
    acc += in[i];
  }
  unsigned *din, *dout, *dtot;
  HIP_CHECK(hipMalloc(&din, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dtot, blocks * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
  scan_blocks<<<blocks, BLOCK>>>(din, dout, dtot, n);
  HIP_CHECK_LAUNCH();
  scan_totals<<<1, BLOCK>>>(dtot, blocks);
  HIP_CHECK_LAUNCH();
  add_offsets<<<blocks, BLOCK>>>(dout, dtot, n);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dout, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dtot));
  corpus_corrupt(got.data());
  corpus_check_exact("out", got.data(), want.data(), n);
  return corpus_finish("scan");
}
