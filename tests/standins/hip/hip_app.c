// tests/standins/hip/hip_app.c — a small, unmodified HIP program in plain C
// against hip_runtime_api.h (module API): it knows nothing of redline. It
// loads the vecchain code object given as argv[1], runs
//   vc_fill(a, 1.5, n)          kernelParams form
//   vc_scale(a, b, 3, n)        extra form (explicit arguments only)
//   vc_add(a, b, c, n)          kernelParams form, on a second stream
//   vc_axpy_pos(a, c, pos, n)   for pos = 1..3
// and prints "region bufN <XXH3-128>" for a, b and c (the allocation order
// names them buf0, buf1, buf2, as the interposer does), so a test can
// compare a replay of the interposed capture with the program's own
// results. argv[2] == "free-mid" frees b right after vc_add, its last use
// (fine: the capture is complete); argv[2] == "use-after-free" also runs
// vc_add once more on the freed b (a program bug the capture must report,
// not crash on). argv[2] == "copies" also writes
// device memory without kernels inside the window, between the launches:
// an async host-to-device copy into c, a memset of part of b, a device-to-
// device copy from c into a. argv[2] == "fork" forks after vc_scale; the
// child exits at once through exit() (its exit handlers run), so a test
// can check that only the parent writes the outputs
// (base/run_owner.h). argv[2] == "graph" runs the vc_axpy_pos loop
// as a graph captured from |stream| (a memset node, the kernel, a
// device-to-device copy node) launched three times instead.
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#define N 1000u
#define CHECK(call)                                                   \
  do {                                                                \
    hipError_t e_ = (call);                                           \
    if (e_ != hipSuccess) {                                           \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,    \
              hipGetErrorString(e_));                                 \
      exit(1);                                                        \
    }                                                                 \
  } while (0)

static void print_region(const char* name, const void* device) {
  float host[N];
  CHECK(hipMemcpy(host, device, sizeof(host), hipMemcpyDeviceToHost));
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits(host, sizeof(host)));
  printf("region %s ", name);
  for (int i = 0; i < 16; ++i) printf("%02x", canonical.digest[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: hip_app CODE_OBJECT "
                    "[free-mid|use-after-free|copies|graph|fork]\n");
    return 2;
  }
  bool use_after_free = argc > 2 && strcmp(argv[2], "use-after-free") == 0;
  bool free_mid =
      use_after_free || (argc > 2 && strcmp(argv[2], "free-mid") == 0);
  bool copies = argc > 2 && strcmp(argv[2], "copies") == 0;
  bool graph = argc > 2 && strcmp(argv[2], "graph") == 0;
  bool forks = argc > 2 && strcmp(argv[2], "fork") == 0;
  FILE* file = fopen(argv[1], "rb");
  if (!file) return 1;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  void* image = malloc((size_t)size);
  if (!image || fread(image, 1, (size_t)size, file) != (size_t)size) return 1;
  fclose(file);

  CHECK(hipInit(0));
  hipModule_t module;
  CHECK(hipModuleLoadData(&module, image));
  hipFunction_t fill, scale, add, axpy;
  CHECK(hipModuleGetFunction(&fill, module, "vc_fill"));
  CHECK(hipModuleGetFunction(&scale, module, "vc_scale"));
  CHECK(hipModuleGetFunction(&add, module, "vc_add"));
  CHECK(hipModuleGetFunction(&axpy, module, "vc_axpy_pos"));
  float *a, *b, *c;
  CHECK(hipMalloc((void**)&a, N * sizeof(float)));
  CHECK(hipMalloc((void**)&b, N * sizeof(float)));
  CHECK(hipMalloc((void**)&c, N * sizeof(float)));
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  unsigned n = N, groups = (N + 63) / 64;

  float value = 1.5f;
  void* fill_args[] = {&a, &value, &n};
  CHECK(hipModuleLaunchKernel(fill, groups, 1, 1, 64, 1, 1, 0, NULL, fill_args,
                              NULL));
  struct {
    float* in;
    float* out;
    float s;
    unsigned n;
  } scale_args = {a, b, 3.0f, n};
  size_t scale_size = sizeof(scale_args);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &scale_args,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &scale_size,
                   HIP_LAUNCH_PARAM_END};
  CHECK(hipModuleLaunchKernel(scale, groups, 1, 1, 64, 1, 1, 0, NULL, NULL,
                              extra));
  CHECK(hipDeviceSynchronize());
  if (forks) {
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) exit(0);  // the parent's device is not the child's
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status)) return 1;
  }
  void* add_args[] = {&a, &b, &c, &n};
  CHECK(hipModuleLaunchKernel(add, groups, 1, 1, 64, 1, 1, 0, stream, add_args,
                              NULL));
  CHECK(hipStreamSynchronize(stream));
  if (free_mid) CHECK(hipFree(b));
  if (use_after_free) {  // only under the interposer, which keeps b
    CHECK(hipModuleLaunchKernel(add, groups, 1, 1, 64, 1, 1, 0, stream,
                                add_args, NULL));
  }
  if (copies) {
    static float host[200];
    for (unsigned i = 0; i < 200; ++i) host[i] = (float)i * 0.25f - 7.0f;
    CHECK(hipMemcpyAsync(c + 100, host, sizeof(host), hipMemcpyHostToDevice,
                         stream));
    CHECK(hipMemsetAsync(b + 10, 0x3f, 40 * sizeof(float), stream));
    CHECK(hipStreamSynchronize(stream));
    CHECK(hipMemcpy(a + 500, c + 50, 300 * sizeof(float),
                    hipMemcpyDeviceToDevice));
  }
  if (graph) {
    unsigned pos = 2;
    void* axpy_args[] = {&a, &c, &pos, &n};
    hipGraph_t g;
    hipGraphExec_t exec;
    CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
    CHECK(hipMemsetAsync(b + 7, 0x41, 13 * sizeof(float), stream));
    CHECK(hipModuleLaunchKernel(axpy, groups, 1, 1, 64, 1, 1, 0, stream,
                                axpy_args, NULL));
    CHECK(hipMemcpyAsync(b + 100, c + 3, 60 * sizeof(float),
                         hipMemcpyDeviceToDevice, stream));
    CHECK(hipStreamEndCapture(stream, &g));
    CHECK(hipGraphInstantiate(&exec, g, NULL, NULL, 0));
    for (int l = 0; l < 3; ++l) CHECK(hipGraphLaunch(exec, stream));
    CHECK(hipStreamSynchronize(stream));
    CHECK(hipGraphExecDestroy(exec));
    CHECK(hipGraphDestroy(g));
  }
  for (unsigned pos = 1; pos <= 3 && !graph; ++pos) {
    void* axpy_args[] = {&a, &c, &pos, &n};
    CHECK(hipModuleLaunchKernel(axpy, groups, 1, 1, 64, 1, 1, 0, stream,
                                axpy_args, NULL));
  }
  CHECK(hipStreamSynchronize(stream));
  print_region("buf0", a);
  if (!free_mid) print_region("buf1", b);
  print_region("buf2", c);
  CHECK(hipStreamDestroy(stream));
  CHECK(hipFree(a));
  if (!free_mid) CHECK(hipFree(b));
  CHECK(hipFree(c));
  CHECK(hipModuleUnload(module));
  free(image);
  return 0;
}
