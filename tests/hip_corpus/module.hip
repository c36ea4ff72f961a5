// module.hip — the module API: loads a code object built with
// `redline-hipcc --genco` (module_kernels.hip) with hipModuleLoad, finds
// its kernels with hipModuleGetFunction and launches them with
// hipModuleLaunchKernel, once with kernelParams and once with the
// HIP_LAUNCH_PARAM_BUFFER "extra" form. Exact check. With
// REDLINE_MODULE_COOPERATIVE=1 the kernelParams launch is a cooperative one,
// hipModuleLaunchCooperativeKernel (HIP 6: Debian's HIP 5.2 headers and
// library lack it, so it is looked up with dlsym, as a program supporting
// both would): tests/hip_corpus/module_cooperative.sh.
//
// Usage: module CODE_OBJECT
#include "corpus.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <vector>

typedef hipError_t (*ModuleLaunchCooperative)(
    hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
    void** kernelParams);

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
  const char* cooperative = std::getenv("REDLINE_MODULE_COOPERATIVE");
  if (cooperative && cooperative[0] == '1') {
    ModuleLaunchCooperative launch = reinterpret_cast<ModuleLaunchCooperative>(
        dlsym(RTLD_DEFAULT, "hipModuleLaunchCooperativeKernel"));
    if (!launch) {
      std::fprintf(stderr, "module: no hipModuleLaunchCooperativeKernel\n");
      return 1;
    }
    HIP_CHECK(launch(
        scale_add, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params));
  } else {
    HIP_CHECK(hipModuleLaunchKernel(scale_add, (n + 255) / 256, 1, 1, 256, 1,
                                    1, 0, nullptr, params, nullptr));
  }
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
