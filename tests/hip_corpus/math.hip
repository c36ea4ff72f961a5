// math.hip — single-precision division, sqrtf, expf, logf, sinf, cosf,
// sincosf, powf and rsqrtf over a spread of arguments, the functions every
// shader-style kernel calls, against the host's libm in double.
// Tolerances (relative to |want|, plus an absolute floor for results near
// zero): division and sqrtf correctly rounded in HIP's default mode
// (-fhip-fp32-correctly-rounded-divide-sqrt): 1 ulp = 1.2e-7 relative;
// expf, logf, powf: 4 ulp (5e-7) ; sinf, cosf, sincosf: 4 ulp plus 2e-7
// absolute (arguments up to 100 radians); rsqrtf: 2 ulp (2.4e-7).
#include "corpus.h"

#include <vector>

#define NF 10

__global__ void math_ops(const float* __restrict__ x, const float* __restrict__ y,
                         float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = y[i];
  float* o = out + NF * i;
  o[0] = a / b;
  o[1] = sqrtf(a);
  o[2] = expf(b);
  o[3] = logf(a);
  o[4] = sinf(b * 10.0f);
  o[5] = cosf(b * 10.0f);
  float s, c;
  sincosf(a, &s, &c);
  o[6] = s;
  o[7] = c;
  o[8] = powf(a, 0.75f);
  o[9] = rsqrtf(a);
}

int main() {
  const int n = 4096;
  std::vector<float> x(n), y(n), got(NF * n);
  std::vector<double> want(NF * n);
  CorpusRng rng(15);
  for (int i = 0; i < n; ++i) {
    x[i] = rng.uniform(0.001f, 100.0f);
    y[i] = rng.uniform(-10.0f, 10.0f);
    double a = x[i], b = y[i];
    double* w = &want[NF * i];
    w[0] = a / b;
    w[1] = std::sqrt(a);
    w[2] = std::exp(b);
    w[3] = std::log(a);
    w[4] = std::sin((double)(y[i] * 10.0f));
    w[5] = std::cos((double)(y[i] * 10.0f));
    w[6] = std::sin(a);
    w[7] = std::cos(a);
    w[8] = std::pow(a, 0.75);
    w[9] = 1.0 / std::sqrt(a);
  }
  float *dx, *dy, *dout;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, NF * n * sizeof(float)));
  HIP_CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
  math_ops<<<n / 256, 256>>>(dx, dy, dout, n);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dout, got.size() * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  HIP_CHECK(hipFree(dout));
  corpus_corrupt(got.data());
  static const char* names[NF] = {"div", "sqrtf", "expf", "logf", "sinf",
                                  "cosf", "sincosf.sin", "sincosf.cos",
                                  "powf", "rsqrtf"};
  // A correctly rounded float is within half an ulp (6e-8 relative) of the
  // exact value; 1.2e-7 allows for the double reference's own rounding.
  static const double rel[NF] = {1.2e-7, 1.2e-7, 5e-7, 5e-7, 5e-7,
                                 5e-7, 5e-7, 5e-7, 5e-7, 2.4e-7};
  static const double abs_tol[NF] = {0, 0, 0, 2e-7, 2e-7, 2e-7, 2e-7, 2e-7, 0, 0};
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < NF; ++k) {
      double g = got[NF * i + k], w = want[NF * i + k];
      if (!(std::fabs(g - w) <= rel[k] * std::fabs(w) + abs_tol[k]))
        corpus_mismatch(names[k], i, g, w);
    }
  return corpus_finish("math");
}
