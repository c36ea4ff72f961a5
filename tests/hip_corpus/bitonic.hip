// bitonic.hip — bitonic sort of 2^12 keys (with a payload carried along)
// in global memory, one launch per (stage, pass) pair like the public
// bitonic-sort sample: each thread compares element i with i ^ j and swaps
// into the direction its block of size k wants. Checked against std::sort;
// the payload must still name its key.
#include "corpus.h"

#include <algorithm>
#include <vector>

__global__ void bitonic_step(unsigned* keys, unsigned* vals, unsigned j,
                             unsigned k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned p = i ^ j;
  if (p > i) {
    bool up = (i & k) == 0;
    unsigned a = keys[i], b = keys[p];
    if ((a > b) == up) {
      keys[i] = b;
      keys[p] = a;
      unsigned t = vals[i];
      vals[i] = vals[p];
      vals[p] = t;
    }
  }
}

int main() {
  const unsigned n = 1u << 12;
  std::vector<unsigned> keys(n), vals(n), got_keys(n), got_vals(n);
  CorpusRng rng(7);
  for (unsigned i = 0; i < n; ++i) {
    keys[i] = rng.next() % 50000u;  // duplicates on purpose
    vals[i] = keys[i] * 2654435761u;  // a function of the key
  }
  std::vector<unsigned> want = keys;
  std::sort(want.begin(), want.end());
  unsigned *dk, *dv;
  HIP_CHECK(hipMalloc(&dk, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dv, n * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(dk, keys.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dv, vals.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
  for (unsigned k = 2; k <= n; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      bitonic_step<<<n / 256, 256>>>(dk, dv, j, k);
      HIP_CHECK_LAUNCH();
    }
  HIP_CHECK(hipMemcpy(got_keys.data(), dk, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(got_vals.data(), dv, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dk));
  HIP_CHECK(hipFree(dv));
  corpus_corrupt(got_keys.data());
  corpus_check_exact("keys", got_keys.data(), want.data(), n);
  for (unsigned i = 0; i < n; ++i)
    if (got_vals[i] != got_keys[i] * 2654435761u)
      corpus_mismatch("payload", i, got_vals[i], got_keys[i] * 2654435761u);
  return corpus_finish("bitonic");
}
