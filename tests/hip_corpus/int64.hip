// int64.hip — 64-bit integer arithmetic the GPU has no single instruction
// for: signed and unsigned division and remainder (the compiler's long
// division expansion), 64-bit multiply (low and __umul64hi high half),
// shifts by variable amounts, and __clzll / __popcll. Exact check.
#include "corpus.h"

#include <vector>

struct Out {
  unsigned long long udiv, urem, mul_lo, mul_hi, shl, shr;
  long long sdiv, srem;
  int clz, popc;
};

__global__ void int64_ops(const unsigned long long* __restrict__ a,
                          const unsigned long long* __restrict__ b,
                          Out* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i];
  long long sx = (long long)x, sy = (long long)y;
  Out o;
  o.udiv = x / y;
  o.urem = x % y;
  o.sdiv = sx / sy;
  o.srem = sx % sy;
  o.mul_lo = x * y;
  o.mul_hi = __umul64hi(x, y);
  o.shl = x << (y & 63);
  o.shr = (unsigned long long)(sx >> (x & 63));
  o.clz = __clzll((long long)x);
  o.popc = __popcll(y);
  out[i] = o;
}

int main() {
  const int n = 4096;
  std::vector<unsigned long long> a(n), b(n);
  std::vector<Out> got(n);
  CorpusRng rng(13);
  for (int i = 0; i < n; ++i) {
    unsigned long long x = ((unsigned long long)rng.next() << 32) | rng.next();
    unsigned long long y = ((unsigned long long)rng.next() << 32) | rng.next();
    // Divisors of every width: 1..64 bits, never 0 (and never -1 with
    // INT64_MIN, which is undefined).
    y >>= rng.next() % 64;
    if (y == 0) y = 7;
    if ((long long)y == -1) y = 3;
    if (i % 5 == 0) x >>= rng.next() % 64;  // small dividends too
    a[i] = x;
    b[i] = y;
  }
  unsigned long long *da, *db;
  Out* dout;
  HIP_CHECK(hipMalloc(&da, n * sizeof(unsigned long long)));
  HIP_CHECK(hipMalloc(&db, n * sizeof(unsigned long long)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(Out)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * sizeof(unsigned long long), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * sizeof(unsigned long long), hipMemcpyHostToDevice));
  int64_ops<<<n / 128, 128>>>(da, db, dout, n);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dout, n * sizeof(Out), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dout));
  corpus_corrupt(&got[0].udiv);
  for (int i = 0; i < n; ++i) {
    unsigned long long x = a[i], y = b[i];
    long long sx = (long long)x, sy = (long long)y;
    const Out& g = got[i];
    if (g.udiv != x / y) corpus_mismatch("udiv", i, (double)g.udiv, (double)(x / y));
    if (g.urem != x % y) corpus_mismatch("urem", i, (double)g.urem, (double)(x % y));
    if (g.sdiv != sx / sy) corpus_mismatch("sdiv", i, (double)g.sdiv, (double)(sx / sy));
    if (g.srem != sx % sy) corpus_mismatch("srem", i, (double)g.srem, (double)(sx % sy));
    if (g.mul_lo != x * y) corpus_mismatch("mul_lo", i, (double)g.mul_lo, (double)(x * y));
    unsigned long long hi = (unsigned long long)(((unsigned __int128)x * y) >> 64);
    if (g.mul_hi != hi) corpus_mismatch("mul_hi", i, (double)g.mul_hi, (double)hi);
    if (g.shl != x << (y & 63)) corpus_mismatch("shl", i, (double)g.shl, (double)(x << (y & 63)));
    unsigned long long shr = (unsigned long long)(sx >> (x & 63));
    if (g.shr != shr) corpus_mismatch("shr", i, (double)g.shr, (double)shr);
    int clz = x ? __builtin_clzll(x) : 64;
    if (g.clz != clz) corpus_mismatch("clz", i, g.clz, clz);
    if (g.popc != __builtin_popcountll(y)) corpus_mismatch("popc", i, g.popc, __builtin_popcountll(y));
  }
  return corpus_finish("int64");
}
