// oracle_reach.hip — instruction forms no other corpus program executes
// with values that tell a mistake apart, so that the oracle executor in the
// default shadow sees them (docs/shadow-mutations.md, "Mutations chosen
// outside the team"): a float subtraction of a kernel argument (VGPR minus
// SGPR: v_subrev_f32), __builtin_amdgcn_readfirstlane of a per-lane value
// in a branch that leaves lanes 0-4 out (v_readfirstlane_b32, first active
// lane 5), a signed min of operands of
// both signs (v_min_i32), a uniform 64-bit add whose low half carries
// (s_add_u32 + s_addc_u32), and stores at a uniform address with an
// immediate offset (GLOBAL with an SGPR base). Exact check on the host.
#include "corpus.h"

#include <vector>

__global__ void oracle_reach(const float* __restrict__ a,
                             const int* __restrict__ k,
                             float* __restrict__ out, int* __restrict__ iout,
                             unsigned long long* __restrict__ wide, float c,
                             unsigned long long base,
                             unsigned long long step, int last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] - c;
  int kv = k[i];
  // Lanes 0-4 of each wave inactive: the first active lane is 5 (the lowest
  // set bit of EXEC), not 0 (a count of leading zeros would say 0).
  iout[2 * i] = (threadIdx.x & 31u) >= 5u ? __builtin_amdgcn_readfirstlane(kv)
                                          : -1;
  iout[2 * i + 1] = min(kv, 3 - kv);
  if ((int)blockIdx.x == last) {  // the block the oracle always samples
    wide[0] = base + step;  // carries out of the low 32 bits
    wide[3] = base ^ step;
  }
}

int main() {
  const int n = 256, block = 64;
  const float c = 1.75f;
  const unsigned long long base = 0x00000001fffffff0ull, step = 0x20ull;
  std::vector<float> a(n), out(n), want(n);
  std::vector<int> k(n), iout(2 * n), iwant(2 * n);
  std::vector<unsigned long long> wide(4), wwant(4, 0);
  CorpusRng rng(31);
  for (int i = 0; i < n; ++i) {
    a[i] = rng.uniform(-4.0f, 4.0f);
    k[i] = (int)rng.uniform(-1000.0f, 1000.0f) + 7 * (i % 32);
  }
  for (int i = 0; i < n; ++i) {
    want[i] = a[i] - c;
    iwant[2 * i] = i % 32 >= 5 ? k[i - i % 32 + 5] : -1;  // lane 5's
    iwant[2 * i + 1] = std::min(k[i], 3 - k[i]);
  }
  wwant[0] = base + step;
  wwant[3] = base ^ step;
  float *da, *dout;
  int *dk, *diout;
  unsigned long long* dwide;
  HIP_CHECK(hipMalloc(&da, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dk, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&diout, 2 * n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dwide, 4 * sizeof(unsigned long long)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dk, k.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dwide, 0, 4 * sizeof(unsigned long long)));
  oracle_reach<<<dim3(n / block), dim3(block)>>>(da, dk, dout, diout, dwide,
                                                 c, base, step, n / block - 1);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(float),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(iout.data(), diout, 2 * n * sizeof(int),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(wide.data(), dwide, 4 * sizeof(unsigned long long),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(dk));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(diout));
  HIP_CHECK(hipFree(dwide));
  corpus_corrupt(out.data());
  corpus_check_exact("out", out.data(), want.data(), out.size());
  corpus_check_exact("iout", iout.data(), iwant.data(), iout.size());
  corpus_check_exact("wide", wide.data(), wwant.data(), wide.size());
  return corpus_finish("oracle_reach");
}
