// reduce.hip — a grid-wide sum and maximum: grid-stride accumulation per
// thread, a warp-level tree with __shfl_down (sum) and __shfl_xor (max),
// then one atomicAdd / atomicMax per warp. Integers, so the check is exact
// whatever order the atomics land in.
#include "corpus.h"

#include <climits>
#include <vector>

__global__ void reduce(const int* __restrict__ in, unsigned long long* sum,
                       int* max, int n) {
  long long acc = 0;
  int best = INT_MIN;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    acc += in[i];
    best = in[i] > best ? in[i] : best;
  }
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    acc += __shfl_down(acc, offset);
    int other = __shfl_xor(best, offset);
    best = other > best ? other : best;
  }
  if ((threadIdx.x & (warpSize - 1)) == 0) {
    atomicAdd(sum, (unsigned long long)acc);
    atomicMax(max, best);
  }
}

int main() {
  const int n = 100003;
  std::vector<int> in(n);
  CorpusRng rng(4);
  long long want_sum = 0;
  int want_max = INT_MIN;
  for (int i = 0; i < n; ++i) {
    in[i] = (int)(rng.next() % 2000001u) - 1000000;
    want_sum += in[i];
    want_max = in[i] > want_max ? in[i] : want_max;
  }
  int* din;
  unsigned long long* dsum;
  int* dmax;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dsum, sizeof(*dsum)));
  HIP_CHECK(hipMalloc(&dmax, sizeof(*dmax)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dsum, 0, sizeof(*dsum)));
  int lowest = INT_MIN;
  HIP_CHECK(hipMemcpy(dmax, &lowest, sizeof(int), hipMemcpyHostToDevice));
  reduce<<<40, 256>>>(din, dsum, dmax, n);
  HIP_CHECK_LAUNCH();
  unsigned long long got_sum = 0;
  int got_max = 0;
  HIP_CHECK(hipMemcpy(&got_sum, dsum, sizeof(got_sum), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&got_max, dmax, sizeof(got_max), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dsum));
  HIP_CHECK(hipFree(dmax));
  long long got = (long long)got_sum;
  corpus_corrupt(&got);
  corpus_check_exact("sum", &got, &want_sum, 1);
  corpus_check_exact("max", &got_max, &want_max, 1);
  return corpus_finish("reduce");
}
