// block2d.hip — 2-D and 3-D work-groups whose shape the kernels read at
// run time (blockDim.x/y/z, gridDim.x/y), as image and stencil samples do:
// the same 3x3 stencil launched with five block shapes, and a 3-D volume
// kernel. On gfx12 clang reads the work-group sizes with sub-dword scalar
// loads from the dispatch packet (s_load_u16), on gfx11 with dword loads
// and shifts.
#include "corpus.h"

#include <vector>

// out = sum of the 3x3 neighbourhood (clamped at the edges) + y * 3 - x.
__global__ void stencil(const int* in, int* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int s = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), w - 1);
      s += in[yy * w + xx];
    }
  }
  out[y * w + x] = s + y * 3 - x;
}

// A grid-stride walk over a d x h x w volume with a 3-D block:
// out[z][y][x] = in[z][y][x] * (z + 1) + the linear thread index.
__global__ void volume(const int* in, int* out, int w, int h, int d) {
  int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  for (int z = threadIdx.z; z < d; z += blockDim.z)
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h;
         y += blockDim.y * gridDim.y)
      for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w;
           x += blockDim.x * gridDim.x) {
        size_t i = ((size_t)z * h + y) * w + x;
        out[i] = in[i] * (z + 1) + tid;
      }
}

static void stencil_ref(const std::vector<int>& in, std::vector<int>& out,
                        int w, int h) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int s = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int yy = std::min(std::max(y + dy, 0), h - 1);
          int xx = std::min(std::max(x + dx, 0), w - 1);
          s += in[yy * w + xx];
        }
      out[y * w + x] = s + y * 3 - x;
    }
}

int main() {
  const int w = 203, h = 77;  // no shape below divides them
  const dim3 shapes[] = {dim3(16, 16), dim3(32, 4), dim3(8, 32), dim3(64, 1),
                         dim3(5, 7)};
  const int nshapes = sizeof(shapes) / sizeof(shapes[0]);
  const size_t npx = (size_t)w * h;
  std::vector<int> in(npx);
  CorpusRng rng(2024);
  for (auto& v : in) v = (int)(rng.next() % 2001u) - 1000;
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, npx * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, nshapes * npx * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, in.data(), npx * sizeof(int), hipMemcpyHostToDevice));
  for (int s = 0; s < nshapes; ++s) {
    dim3 b = shapes[s];
    dim3 g((w + b.x - 1) / b.x, (h + b.y - 1) / b.y);
    stencil<<<g, b>>>(din, dout + s * npx, w, h);
    HIP_CHECK_LAUNCH();
  }

  const int vw = 37, vh = 19, vd = 6;
  const size_t nv = (size_t)vw * vh * vd;
  const dim3 vb(8, 4, 3), vg(2, 3);  // fewer threads than cells: strides
  int *dvin, *dvout;
  HIP_CHECK(hipMalloc(&dvin, nv * sizeof(int)));
  HIP_CHECK(hipMalloc(&dvout, nv * sizeof(int)));
  std::vector<int> vin(nv);
  for (auto& v : vin) v = (int)(rng.next() % 1000u);
  HIP_CHECK(hipMemcpy(dvin, vin.data(), nv * sizeof(int), hipMemcpyHostToDevice));
  volume<<<vg, vb>>>(dvin, dvout, vw, vh, vd);
  HIP_CHECK_LAUNCH();

  std::vector<int> got(nshapes * npx), vgot(nv);
  HIP_CHECK(hipMemcpy(got.data(), dout, got.size() * sizeof(int),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(vgot.data(), dvout, nv * sizeof(int),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dvin));
  HIP_CHECK(hipFree(dvout));

  std::vector<int> want(npx);
  stencil_ref(in, want, w, h);
  corpus_corrupt(got.data());
  for (int s = 0; s < nshapes; ++s)
    corpus_check_exact("stencil", got.data() + s * npx, want.data(), npx);
  std::vector<int> vwant(nv);
  for (int z = 0; z < vd; ++z)
    for (int y = 0; y < vh; ++y)
      for (int x = 0; x < vw; ++x) {
        // The thread that owns (x, y, z): its position inside its block.
        int tx = x % (int)vb.x, ty = y % (int)vb.y, tz = z % (int)vb.z;
        int tid = (tz * (int)vb.y + ty) * (int)vb.x + tx;
        size_t i = ((size_t)z * vh + y) * vw + x;
        vwant[i] = vin[i] * (z + 1) + tid;
      }
  corpus_check_exact("volume", vgot.data(), vwant.data(), nv);
  return corpus_finish("block2d");
}
