// transpose.hip — matrix transpose through an LDS tile (32x32 floats plus
// one column of padding against bank conflicts), 32x8 threads per block
// each moving four elements: the classic coalesced-transpose sample.
// Exact check.
#include "corpus.h"

#include <vector>

#define TILE 32
#define ROWS 8

__global__ void transpose(const float* __restrict__ in, float* __restrict__ out,
                          int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int width = 200, height = 136;  // not multiples of the tile
  const size_t n = (size_t)width * height;
  std::vector<float> in(n), got(n), want(n);
  CorpusRng rng(2);
  for (size_t i = 0; i < n; ++i) in[i] = rng.uniform(-100.0f, 100.0f);
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) want[(size_t)c * height + r] = in[(size_t)r * width + c];
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
  dim3 block(TILE, ROWS);
  dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
  hipLaunchKernelGGL(transpose, grid, block, 0, 0, din, dout, width, height);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  corpus_corrupt(got.data());
  corpus_check_exact("out", got.data(), want.data(), n);  // exact: a copy
  return corpus_finish("transpose");
}
