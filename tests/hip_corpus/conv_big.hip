// conv_big.hip — a 4096x4096 image convolved with a 5x5 filter the way
// image samples launch it: one thread per pixel of a 20x20 input tile (the
// 16x16 output tile and its 2-pixel halo), so the grid has 26,214,400
// work-items, over the simulator's default cap of 2^24 per dispatch (run it
// with `--max-work-items`). Outside the image reads as zero. Pixels and
// weights are small integers, so the device equals the host exactly.
#include "corpus.h"

#include <vector>

#define OUT 16           // output tile side
#define R 2              // filter radius
#define IN (OUT + 2 * R) // input tile side: one thread per input pixel

__constant__ float weights[2 * R + 1][2 * R + 1];

__global__ void __launch_bounds__(IN * IN)
    conv5x5(const float* __restrict__ in, float* __restrict__ out, int w,
            int h) {
  __shared__ float tile[IN][IN];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * OUT + tx - R, y = blockIdx.y * OUT + ty - R;
  tile[ty][tx] = x >= 0 && x < w && y >= 0 && y < h ? in[(size_t)y * w + x]
                                                    : 0.0f;
  __syncthreads();
  if (tx < R || ty < R || tx >= OUT + R || ty >= OUT + R) return;  // halo
  if (x >= w || y >= h) return;
  float s = 0.0f;
  for (int dy = -R; dy <= R; ++dy)
    for (int dx = -R; dx <= R; ++dx)
      s += tile[ty + dy][tx + dx] * weights[dy + R][dx + R];
  out[(size_t)y * w + x] = s;
}

int main() {
  const int w = 4096, h = 4096;
  const size_t npx = (size_t)w * h;
  std::vector<float> img(npx), got(npx);
  float wt[2 * R + 1][2 * R + 1];
  CorpusRng rng(4096);
  for (auto& v : img) v = (float)(rng.next() % 16u);  // 0..15
  for (auto& row : wt)
    for (auto& v : row) v = (float)((int)(rng.next() % 9u) - 4);  // -4..4
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, npx * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, npx * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, img.data(), npx * sizeof(float),
                      hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(weights), wt, sizeof(wt)));
  dim3 grid((w + OUT - 1) / OUT, (h + OUT - 1) / OUT), block(IN, IN);
  conv5x5<<<grid, block>>>(din, dout, w, h);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dout, npx * sizeof(float),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));

  corpus_corrupt(got.data());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int s = 0;  // |s| <= 25 * 15 * 4: exact in a float
      for (int dy = -R; dy <= R; ++dy)
        for (int dx = -R; dx <= R; ++dx) {
          int yy = y + dy, xx = x + dx;
          if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
          s += (int)img[(size_t)yy * w + xx] * (int)wt[dy + R][dx + R];
        }
      size_t i = (size_t)y * w + x;
      if (got[i] != (float)s) corpus_mismatch("out", i, got[i], s);
    }
  return corpus_finish("conv_big");
}
