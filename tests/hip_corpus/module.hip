// module.hip — the module API: loads a code object built with
// `redline-hipcc --genco` (module_kernels.hip) with hipModuleLoad, finds
// its kernels with hipModuleGetFunction and launches them with
// hipModuleLaunchKernel, once with kernelParams and once with the
// HIP_LAUNCH_PARAM_BUFFER "extra" form. Exact check.
//
// Usage: module CODE_OBJECT
#include "corpus.h"

#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CODE_OBJECT (module_kernels.hip built with --genco)\n", argv[0]);
    return 3;
  }
  const int n = 3000;
  std::vector<float> x(n), y(n), got(n), want(n);
  std::vector<int> v(n), gotv(n), wantv(n);
  CorpusRng rng(18);
  for (int i = 0; i < n; ++i) {
    x[i] = rng.uniform(-2.0f, 2.0f);
    y[i] = rng.uniform(-2.0f, 2.0f);
    want[i] = std::fma(1.5f, x[i], y[i]);
    v[i] = (int)(rng.next() % 40000u) - 20000;
    wantv[i] = v[i] * v[i];
  }
  hipModule_t module;
  hipFunction_t scale_add, square;
  HIP_CHECK(hipModuleLoad(&module, argv[1]));
  HIP_CHECK(hipModuleGetFunction(&scale_add, module, "scale_add"));
  HIP_CHECK(hipModuleGetFunction(&square, module, "square"));
  float *dx, *dy;
  int* dv;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dv, n * sizeof(int)));
  HIP_CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dv, v.data(), n * sizeof(int), hipMemcpyHostToDevice));

  float a = 1.5f;
  int count = n;
  void* params[] = {&dy, &dx, &a, &count};
  HIP_CHECK(hipModuleLaunchKernel(scale_add, (n + 255) / 256, 1, 1, 256, 1, 1,
                                  0, nullptr, params, nullptr));
  // The "extra" form: the arguments packed as the kernel lays them out.
  struct {
    int* v;
    int n;
  } args = {dv, n};
  size_t size = sizeof(args);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  HIP_CHECK(hipModuleLaunchKernel(square, (n + 127) / 128, 1, 1, 128, 1, 1, 0,
                                  nullptr, nullptr, extra));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(got.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(gotv.data(), dv, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  HIP_CHECK(hipFree(dv));
  HIP_CHECK(hipModuleUnload(module));
  corpus_corrupt(got.data());
  corpus_check_exact("y", got.data(), want.data(), n);
  corpus_check_exact("v", gotv.data(), wantv.data(), n);
  return corpus_finish("module");
}
