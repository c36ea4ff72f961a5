// rocprim.hip — rocPRIM's block and warp primitives from Debian's
// librocprim-dev (5.3): block_reduce, block_scan and block_radix_sort over
// 256-thread blocks, warp_reduce and warp_scan over wave32, and rocPRIM's
// DPP warp path (detail::warp_reduce_dpp / warp_scan_dpp: quad_perm and
// row_shr steps) on logical warps of 16. Built with -DROCPRIM_DISABLE_DPP
// -DROCPRIM_DETAIL_USE_DPP=false (tests/hip_corpus.cmake,
// docs/hip-corpus.md): rocPRIM 5.3's DPP warp code predates gfx11 and uses
// row_bcast:15 for warps wider than 16 lanes, which clang refuses for
// gfx10 and later; the 16-lane DPP path is instantiated here directly.
// Integers and small integral floats: every result is exact.
#include "corpus.h"

#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <vector>

#define BLOCK 256
#define ITEMS 4

__global__ void block_ops(const int* __restrict__ in, int* __restrict__ sums,
                          int* __restrict__ scans) {
  using reduce_t = rocprim::block_reduce<int, BLOCK>;
  using scan_t = rocprim::block_scan<int, BLOCK>;
  __shared__ union {
    reduce_t::storage_type reduce;
    scan_t::storage_type scan;
  } storage;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int v = in[i], sum, scan;
  reduce_t().reduce(v, sum, storage.reduce);
  if (threadIdx.x == 0) sums[blockIdx.x] = sum;
  __syncthreads();
  scan_t().inclusive_scan(v, scan, storage.scan);
  scans[i] = scan;
}

__global__ void block_sort(unsigned* keys) {
  using sort_t = rocprim::block_radix_sort<unsigned, BLOCK, ITEMS>;
  __shared__ sort_t::storage_type storage;
  unsigned k[ITEMS];
  unsigned* base = keys + blockIdx.x * BLOCK * ITEMS + threadIdx.x * ITEMS;
  for (int j = 0; j < ITEMS; ++j) k[j] = base[j];
  sort_t().sort(k, storage);
  for (int j = 0; j < ITEMS; ++j) base[j] = k[j];
}

__global__ void warp_ops(const float* __restrict__ in, float* __restrict__ wsum,
                         int* __restrict__ wscan, int* __restrict__ dsum,
                         int* __restrict__ dscan) {
  using wreduce_t = rocprim::warp_reduce<float, 32>;
  using wscan_t = rocprim::warp_scan<int, 32>;
  __shared__ wreduce_t::storage_type rs[BLOCK / 32];
  __shared__ wscan_t::storage_type ss[BLOCK / 32];
  int i = blockIdx.x * BLOCK + threadIdx.x, w = threadIdx.x / 32;
  float f = in[i], fr;
  int x = (int)f, xs;
  wreduce_t().reduce(f, fr, rs[w]);
  if (threadIdx.x % 32 == 0) wsum[i / 32] = fr;
  wscan_t().inclusive_scan(x, xs, ss[w]);
  wscan[i] = xs;
  // rocPRIM's DPP warp path on 16-lane logical warps.
  int dr, dc;
  rocprim::detail::warp_reduce_dpp<int, 16, false>().reduce(
      x, dr, rocprim::plus<int>());
  if (threadIdx.x % 16 == 0) dsum[i / 16] = dr;
  rocprim::detail::warp_scan_dpp<int, 16>().inclusive_scan(
      x, dc, rocprim::plus<int>());
  dscan[i] = dc;
}

int main() {
  const int blocks = 64, n = blocks * BLOCK, nk = n * ITEMS;
  CorpusRng rng(53);
  std::vector<int> in(n);
  std::vector<float> fin(n);
  std::vector<unsigned> keys(nk);
  for (int i = 0; i < n; ++i) in[i] = (int)(rng.next() % 20001u) - 10000;
  for (int i = 0; i < n; ++i) fin[i] = (float)((int)(rng.next() % 201u) - 100);
  for (int i = 0; i < nk; ++i) keys[i] = rng.next();

  int *d_in, *d_sums, *d_scans, *d_wscan, *d_dsum, *d_dscan;
  float *d_fin, *d_wsum;
  unsigned* d_keys;
  HIP_CHECK(hipMalloc(&d_in, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_sums, blocks * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_scans, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_fin, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_wsum, n / 32 * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_wscan, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_dsum, n / 16 * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_dscan, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_keys, nk * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(d_in, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_fin, fin.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_keys, keys.data(), nk * sizeof(unsigned),
                      hipMemcpyHostToDevice));
  block_ops<<<blocks, BLOCK>>>(d_in, d_sums, d_scans);
  HIP_CHECK_LAUNCH();
  block_sort<<<blocks, BLOCK>>>(d_keys);
  HIP_CHECK_LAUNCH();
  warp_ops<<<blocks, BLOCK>>>(d_fin, d_wsum, d_wscan, d_dsum, d_dscan);
  HIP_CHECK_LAUNCH();

  std::vector<int> sums(blocks), scans(n), wscan(n), dsum(n / 16), dscan(n);
  std::vector<float> wsum(n / 32);
  std::vector<unsigned> sorted(nk);
  HIP_CHECK(hipMemcpy(sums.data(), d_sums, blocks * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(scans.data(), d_scans, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(wsum.data(), d_wsum, n / 32 * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(wscan.data(), d_wscan, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(dsum.data(), d_dsum, n / 16 * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(dscan.data(), d_dscan, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(sorted.data(), d_keys, nk * sizeof(unsigned),
                      hipMemcpyDeviceToHost));

  std::vector<int> want_sums(blocks, 0), want_scans(n), want_wscan(n),
      want_dsum(n / 16, 0), want_dscan(n);
  std::vector<float> want_wsum(n / 32, 0.0f);
  for (int i = 0; i < n; ++i) {
    want_sums[i / BLOCK] += in[i];
    want_scans[i] = in[i] + (i % BLOCK ? want_scans[i - 1] : 0);
    int x = (int)fin[i];
    want_wsum[i / 32] += fin[i];
    want_wscan[i] = x + (i % 32 ? want_wscan[i - 1] : 0);
    want_dsum[i / 16] += x;
    want_dscan[i] = x + (i % 16 ? want_dscan[i - 1] : 0);
  }
  std::vector<unsigned> want_sorted(keys);
  for (int b = 0; b < blocks; ++b) {
    auto first = want_sorted.begin() + (size_t)b * BLOCK * ITEMS;
    std::sort(first, first + BLOCK * ITEMS);
  }
  corpus_corrupt(&sums[0]);
  corpus_check_exact("block_reduce", sums.data(), want_sums.data(), sums.size());
  corpus_check_exact("block_scan", scans.data(), want_scans.data(), scans.size());
  corpus_check_exact("block_radix_sort", sorted.data(), want_sorted.data(),
                     sorted.size());
  corpus_check_exact("warp_reduce", wsum.data(), want_wsum.data(), wsum.size());
  corpus_check_exact("warp_scan", wscan.data(), want_wscan.data(), wscan.size());
  corpus_check_exact("warp_reduce_dpp16", dsum.data(), want_dsum.data(),
                     dsum.size());
  corpus_check_exact("warp_scan_dpp16", dscan.data(), want_dscan.data(),
                     dscan.size());
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_sums));
  HIP_CHECK(hipFree(d_scans));
  HIP_CHECK(hipFree(d_fin));
  HIP_CHECK(hipFree(d_wsum));
  HIP_CHECK(hipFree(d_wscan));
  HIP_CHECK(hipFree(d_dsum));
  HIP_CHECK(hipFree(d_dscan));
  HIP_CHECK(hipFree(d_keys));
  return corpus_finish("rocprim");
}
