// texture.hip — texture objects sampled with point filtering: a 2-D float
// hipArray (hipMallocArray, hipMemcpy2DToArray) read with normalized
// coordinates and wrap addressing and with unnormalized coordinates and
// clamp addressing, a 2-D pitched allocation (hipResourceTypePitch2D,
// normalized, clamp), 8-bit unsigned (array, wrap) and 16-bit signed
// (pitched, unnormalized, clamp) texels read as integers, and a 1-D float
// array (hipMemcpyToArray, wrap). The
// kernels use tex2D<float> / tex1D<float>, which clang compiles to
// image_sample_lz. Coordinates land inside a texel (0.1 to 0.9 of it, never
// on an edge), on and far outside the image, so the host recomputes each
// result from the addressing rules alone: texel floor(u) (u = x * size for
// normalized coordinates), then wrapped modulo the size or clamped to the
// last texel. Negative controls: linear filtering and mirror addressing are
// refused with hipErrorNotSupported (the simulator does not model them),
// and REDLINE_CORPUS_CORRUPT flips a result.
#include "corpus.h"

#include <vector>

#define W 37
#define H 23
#define N1 53
#define SAMPLES 2048

template <typename T>
__global__ void sample2d(hipTextureObject_t t, const float2* __restrict__ c,
                         T* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<T>(t, c[i].x, c[i].y);
}

__global__ void sample1d(hipTextureObject_t t, const float* __restrict__ c,
                         float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, c[i]);
}

// A coordinate inside texel k of an axis of |size| texels (k may be
// outside the image): normalized to [0, 1) per image when |normalized|.
static float coord(CorpusRng& rng, int k, int size, bool normalized) {
  float u = (float)k + rng.uniform(0.1f, 0.9f);
  return normalized ? u / (float)size : u;
}

// The texel index the addressing rules give along one axis.
static int texel(float c, int size, bool normalized, bool wrap) {
  float u = normalized ? c * (float)size : c;
  int i = (int)std::floor(u);
  if (wrap) return ((i % size) + size) % size;
  return i < 0 ? 0 : i >= size ? size - 1 : i;
}

static hipTextureObject_t make_texture(const hipResourceDesc& res,
                                       hipTextureAddressMode mode,
                                       bool normalized) {
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = mode;
  td.filterMode = hipFilterModePoint;
  td.readMode = hipReadModeElementType;
  td.normalizedCoords = normalized;
  hipTextureObject_t t = 0;
  HIP_CHECK(hipCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}

// Samples |t| at SAMPLES coordinates over texels [-2 size, 3 size) and
// checks each against the host's texel.
template <typename T>
static void check2d(const char* what, hipTextureObject_t t,
                    const std::vector<T>& img, bool normalized,
                    bool wrap, uint32_t seed) {
  CorpusRng rng(seed);
  std::vector<float2> c(SAMPLES);
  std::vector<T> out(SAMPLES), want(SAMPLES);
  for (int i = 0; i < SAMPLES; ++i) {
    int kx = (int)(rng.next() % (5 * W)) - 2 * W;
    int ky = (int)(rng.next() % (5 * H)) - 2 * H;
    if (i < 4) kx = (i & 1) ? W - 1 : 0, ky = (i & 2) ? H - 1 : 0;  // corners
    c[i].x = coord(rng, kx, W, normalized);
    c[i].y = coord(rng, ky, H, normalized);
    want[i] = img[(size_t)texel(c[i].y, H, normalized, wrap) * W +
                  texel(c[i].x, W, normalized, wrap)];
  }
  float2* d_c;
  T* d_out;
  HIP_CHECK(hipMalloc(&d_c, SAMPLES * sizeof(float2)));
  HIP_CHECK(hipMalloc(&d_out, SAMPLES * sizeof(T)));
  HIP_CHECK(hipMemcpy(d_c, c.data(), SAMPLES * sizeof(float2),
                      hipMemcpyHostToDevice));
  sample2d<T><<<SAMPLES / 64, 64>>>(t, d_c, d_out, SAMPLES);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(out.data(), d_out, SAMPLES * sizeof(T),
                      hipMemcpyDeviceToHost));
  corpus_corrupt(&out[0]);
  corpus_check_exact(what, out.data(), want.data(), SAMPLES);
  HIP_CHECK(hipFree(d_c));
  HIP_CHECK(hipFree(d_out));
}

static void check1d(hipTextureObject_t t, const std::vector<float>& line) {
  CorpusRng rng(77);
  std::vector<float> c(SAMPLES), out(SAMPLES), want(SAMPLES);
  for (int i = 0; i < SAMPLES; ++i) {
    int k = (int)(rng.next() % (5 * N1)) - 2 * N1;
    c[i] = coord(rng, k, N1, true);
    want[i] = line[texel(c[i], N1, true, true)];
  }
  float *d_c, *d_out;
  HIP_CHECK(hipMalloc(&d_c, SAMPLES * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_out, SAMPLES * sizeof(float)));
  HIP_CHECK(hipMemcpy(d_c, c.data(), SAMPLES * sizeof(float),
                      hipMemcpyHostToDevice));
  sample1d<<<SAMPLES / 64, 64>>>(t, d_c, d_out, SAMPLES);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(out.data(), d_out, SAMPLES * sizeof(float),
                      hipMemcpyDeviceToHost));
  corpus_check_exact("1d_wrap", out.data(), want.data(), SAMPLES);
  HIP_CHECK(hipFree(d_c));
  HIP_CHECK(hipFree(d_out));
}

// A texture description the simulator refuses must fail with
// hipErrorNotSupported, not sample something else.
static void check_refused(const char* what, const hipResourceDesc& res,
                          hipTextureFilterMode filter,
                          hipTextureAddressMode mode) {
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = mode;
  td.filterMode = filter;
  td.normalizedCoords = 1;
  hipTextureObject_t t = 0;
  hipError_t e = hipCreateTextureObject(&t, &res, &td, nullptr);
  if (e != hipErrorNotSupported) {
    std::fprintf(stderr, "%s: hipCreateTextureObject returned %s, expected "
                 "hipErrorNotSupported\n", what, hipGetErrorName(e));
    ++corpus_failures;
  }
}

int main() {
  int image = 0;
  HIP_CHECK(hipDeviceGetAttribute(&image, hipDeviceAttributeImageSupport, 0));
  if (image != 1) {
    std::fprintf(stderr, "hipDeviceAttributeImageSupport = %d\n", image);
    ++corpus_failures;
  }
  CorpusRng rng(2026);
  std::vector<float> img((size_t)W * H), line(N1);
  for (float& v : img) v = rng.uniform(-100.0f, 100.0f);
  for (float& v : line) v = rng.uniform(-1.0f, 1.0f);
  hipChannelFormatDesc fd = hipCreateChannelDesc<float>();

  // A 2-D array.
  hipArray* arr = nullptr;
  HIP_CHECK(hipMallocArray(&arr, &fd, W, H, hipArrayDefault));
  HIP_CHECK(hipMemcpy2DToArray(arr, 0, 0, img.data(), W * sizeof(float),
                               W * sizeof(float), H, hipMemcpyHostToDevice));
  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  res.res.array.array = arr;
  hipTextureObject_t wrap = make_texture(res, hipAddressModeWrap, true);
  hipTextureObject_t clamp = make_texture(res, hipAddressModeClamp, false);
  check2d("array_normalized_wrap", wrap, img, true, true, 1);
  check2d("array_unnormalized_clamp", clamp, img, false, false, 2);
  check_refused("linear filtering", res, hipFilterModeLinear,
                hipAddressModeClamp);
  check_refused("mirror addressing", res, hipFilterModePoint,
                hipAddressModeMirror);
  HIP_CHECK(hipDestroyTextureObject(wrap));
  HIP_CHECK(hipDestroyTextureObject(clamp));

  // Pitched linear memory.
  float* pitched = nullptr;
  size_t pitch = 0;
  HIP_CHECK(hipMallocPitch((void**)&pitched, &pitch, W * sizeof(float), H));
  HIP_CHECK(hipMemcpy2D(pitched, pitch, img.data(), W * sizeof(float),
                        W * sizeof(float), H, hipMemcpyHostToDevice));
  hipResourceDesc pres = {};
  pres.resType = hipResourceTypePitch2D;
  pres.res.pitch2D.devPtr = pitched;
  pres.res.pitch2D.desc = fd;
  pres.res.pitch2D.width = W;
  pres.res.pitch2D.height = H;
  pres.res.pitch2D.pitchInBytes = pitch;
  hipTextureObject_t pclamp = make_texture(pres, hipAddressModeClamp, true);
  check2d("pitch2d_normalized_clamp", pclamp, img, true, false, 3);
  HIP_CHECK(hipDestroyTextureObject(pclamp));

  // 8-bit unsigned texels, as the rocm-examples texture sample uses, and
  // 16-bit signed ones (element-type reads: the integers themselves).
  std::vector<unsigned char> img8((size_t)W * H);
  std::vector<short> img16((size_t)W * H);
  for (auto& v : img8) v = (unsigned char)(rng.next() >> 24);
  for (auto& v : img16) v = (short)(rng.next() >> 16);
  hipChannelFormatDesc fd8 = hipCreateChannelDesc<unsigned char>();
  hipArray* arr8 = nullptr;
  HIP_CHECK(hipMallocArray(&arr8, &fd8, W, H, hipArrayDefault));
  HIP_CHECK(hipMemcpy2DToArray(arr8, 0, 0, img8.data(), W, W, H,
                               hipMemcpyHostToDevice));
  hipResourceDesc res8 = {};
  res8.resType = hipResourceTypeArray;
  res8.res.array.array = arr8;
  hipTextureObject_t t8 = make_texture(res8, hipAddressModeWrap, true);
  check2d("uchar_normalized_wrap", t8, img8, true, true, 4);
  HIP_CHECK(hipDestroyTextureObject(t8));
  HIP_CHECK(hipFreeArray(arr8));
  short* p16 = nullptr;
  size_t pitch16 = 0;
  HIP_CHECK(hipMallocPitch((void**)&p16, &pitch16, W * sizeof(short), H));
  HIP_CHECK(hipMemcpy2D(p16, pitch16, img16.data(), W * sizeof(short),
                        W * sizeof(short), H, hipMemcpyHostToDevice));
  hipResourceDesc res16 = {};
  res16.resType = hipResourceTypePitch2D;
  res16.res.pitch2D.devPtr = p16;
  res16.res.pitch2D.desc = hipCreateChannelDesc<short>();
  res16.res.pitch2D.width = W;
  res16.res.pitch2D.height = H;
  res16.res.pitch2D.pitchInBytes = pitch16;
  hipTextureObject_t t16 = make_texture(res16, hipAddressModeClamp, false);
  check2d("short_unnormalized_clamp", t16, img16, false, false, 5);
  HIP_CHECK(hipDestroyTextureObject(t16));
  HIP_CHECK(hipFree(p16));

  // A 1-D array.
  hipArray* arr1 = nullptr;
  HIP_CHECK(hipMallocArray(&arr1, &fd, N1, 0, hipArrayDefault));
  // Deprecated in HIP's headers, still what older texture samples call.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
  HIP_CHECK(hipMemcpyToArray(arr1, 0, 0, line.data(), N1 * sizeof(float),
                             hipMemcpyHostToDevice));
#pragma clang diagnostic pop
  hipResourceDesc res1 = {};
  res1.resType = hipResourceTypeArray;
  res1.res.array.array = arr1;
  hipTextureObject_t t1 = make_texture(res1, hipAddressModeWrap, true);
  check1d(t1, line);
  HIP_CHECK(hipDestroyTextureObject(t1));

  HIP_CHECK(hipFreeArray(arr));
  HIP_CHECK(hipFreeArray(arr1));
  HIP_CHECK(hipFree(pitched));
  return corpus_finish("texture");
}
