// oracle_probe.hip — the instruction forms the oracle executor's mutation
// rows need in a real HIP program (tools/shadow_mutations.sh, docs/
// shadow-mutations.md): a float add with an |operand| (the VOP3 form of
// v_add_f32), a three-source fma with negated and absolute operands (VOP3
// v_fma_f32), a load at a negative immediate offset (a[i - 1]), a
// cross-lane __shfl (ds_bpermute_b32), a select (v_cndmask_b32) in every
// lane of a 64-wide block, and a 2-D grid whose rows are blockIdx.y.
// Checked on the host.
#include "corpus.h"

#include <cmath>
#include <vector>

__global__ void oracle_probe(const float* __restrict__ a,
                             const float* __restrict__ b,
                             float* __restrict__ out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * w + x;
  float av = a[i], bv = b[i];
  float s = av + fabsf(bv);
  float f = fmaf(av, -bv, fabsf(s));
  float prev = x > 0 ? a[i - 1] : 0.0f;
  float sh = __shfl(s, (int)((threadIdx.x * 7u + 3u) & 31u));
  float sel = av > bv ? s : f;
  out[4 * i + 0] = s;
  out[4 * i + 1] = f;
  out[4 * i + 2] = prev + sh;
  out[4 * i + 3] = sel;
}

int main() {
  // |a| has 4096 more elements than the grid reads: an executor that gets
  // the offset of a[i - 1] wrong reads other values inside the allocation
  // (not a fault), which only a comparison of bytes can notice.
  const int w = 256, h = 4, n = w * h, block = 64, pad = 4096;
  std::vector<float> a(n + pad), b(n), got(4 * n), want(4 * n);
  CorpusRng rng(27);
  for (int i = n; i < n + pad; ++i) a[i] = rng.uniform(-4.0f, 4.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = rng.uniform(-4.0f, 4.0f);
    b[i] = rng.uniform(-4.0f, 4.0f);
  }
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int i = y * w + x;
      float s = a[i] + std::fabs(b[i]);
      want[4 * i + 0] = s;
      want[4 * i + 1] = std::fma(a[i], -b[i], std::fabs(s));
      want[4 * i + 3] = a[i] > b[i] ? s : want[4 * i + 1];
    }
  }
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int i = y * w + x, t = x % block, warp = t / 32 * 32;
      int src = x - t + warp + (int)((t * 7u + 3u) & 31u);
      float prev = x > 0 ? a[i - 1] : 0.0f;
      want[4 * i + 2] = prev + want[4 * (y * w + src)];
    }
  }
  float *da, *db, *dout;
  HIP_CHECK(hipMalloc(&da, (n + pad) * sizeof(float)));
  HIP_CHECK(hipMalloc(&db, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, 4 * n * sizeof(float)));
  HIP_CHECK(hipMemcpy(da, a.data(), (n + pad) * sizeof(float),
                      hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
  oracle_probe<<<dim3(w / block, h), dim3(block)>>>(da, db, dout, w);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dout, got.size() * sizeof(float),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dout));
  corpus_corrupt(got.data());
  corpus_check_close("out", got.data(), want.data(), got.size(), 0.0, 1e-6);
  return corpus_finish("oracle_probe");
}
