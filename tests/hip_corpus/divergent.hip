// divergent.hip — control flow that splits waves: a Collatz step count
// (a while loop whose trip count differs per lane), a loop with break and
// continue on data, a switch on the lane's value, and early return from
// half the lanes before a warp vote (__ballot, __any, __all) among the
// rest. Exact check.
#include "corpus.h"

#include <vector>

__device__ unsigned collatz(unsigned x) {
  unsigned steps = 0;
  while (x > 1u && steps < 1000u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    ++steps;
  }
  return steps;
}

__global__ void divergent(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                          unsigned long long* __restrict__ votes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = in[i];
  unsigned a = collatz(v);
  unsigned b = 0;
  for (unsigned k = 0; k < (v & 63u); ++k) {
    if ((k * v) % 7u == 3u) continue;
    if (b > 200u) break;
    b += k ^ (v >> 3);
  }
  unsigned c;
  switch (v % 5u) {
    case 0: c = v * 3u; break;
    case 1: c = v >> 2; break;
    case 2: c = ~v; break;
    case 3: c = v + a; break;
    default: c = b - a; break;
  }
  out[3 * i] = a;
  out[3 * i + 1] = b;
  out[3 * i + 2] = c;
  // Half the lanes leave; the vote sees only the others. Warps are whole
  // (n is a multiple of the block), so lane i%32 of warp i/32 is thread i.
  if (v & 1u) return;
  unsigned long long ballot = __ballot(a > 50u);
  int any = __any(b > 100u), all = __all(c != 0u);
  if ((threadIdx.x % warpSize) == (unsigned)(__ffsll((long long)__ballot(1)) - 1))
    votes[i / warpSize] = ballot | ((unsigned long long)any << 62) |
                          ((unsigned long long)all << 63);
}

int main() {
  const int n = 8192, warps = n / 32;
  std::vector<unsigned> in(n), got(3 * n), want(3 * n);
  std::vector<unsigned long long> got_votes(warps), want_votes(warps, 0);
  CorpusRng rng(20);
  for (auto& v : in) v = rng.next() % 100000u + 1u;
  for (int i = 0; i < n; ++i) {
    unsigned v = in[i], steps = 0, x = v;
    while (x > 1u && steps < 1000u) {
      x = (x & 1u) ? 3u * x + 1u : x >> 1;
      ++steps;
    }
    unsigned b = 0;
    for (unsigned k = 0; k < (v & 63u); ++k) {
      if ((k * v) % 7u == 3u) continue;
      if (b > 200u) break;
      b += k ^ (v >> 3);
    }
    unsigned c;
    switch (v % 5u) {
      case 0: c = v * 3u; break;
      case 1: c = v >> 2; break;
      case 2: c = ~v; break;
      case 3: c = v + steps; break;
      default: c = b - steps; break;
    }
    want[3 * i] = steps;
    want[3 * i + 1] = b;
    want[3 * i + 2] = c;
  }
  for (int w = 0; w < warps; ++w) {
    unsigned long long ballot = 0;
    int any = 0, all = 1, active = 0;
    for (int l = 0; l < 32; ++l) {
      int i = w * 32 + l;
      if (in[i] & 1u) continue;
      active = 1;
      if (want[3 * i] > 50u) ballot |= 1ull << l;
      any |= want[3 * i + 1] > 100u;
      all &= want[3 * i + 2] != 0u;
    }
    want_votes[w] = active ? ballot | ((unsigned long long)any << 62) |
                                 ((unsigned long long)all << 63)
                           : 0xdeadbeefull;
  }
  unsigned *din, *dout;
  unsigned long long* dvotes;
  HIP_CHECK(hipMalloc(&din, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dout, 3 * n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dvotes, warps * sizeof(unsigned long long)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
  std::vector<unsigned long long> marker(warps, 0xdeadbeefull);
  HIP_CHECK(hipMemcpy(dvotes, marker.data(), warps * sizeof(unsigned long long), hipMemcpyHostToDevice));
  divergent<<<n / 128, 128>>>(din, dout, dvotes, n);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dout, got.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(got_votes.data(), dvotes, warps * sizeof(unsigned long long), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dvotes));
  corpus_corrupt(got.data());
  corpus_check_exact("out", got.data(), want.data(), got.size());
  for (int w = 0; w < warps; ++w)
    if (got_votes[w] != want_votes[w]) corpus_mismatch("votes", w, (double)got_votes[w], (double)want_votes[w]);
  return corpus_finish("divergent");
}
