// rtc.hip — run-time compilation (hiprtc): compiles a kernel from a string
// with two named headers and a -D option for the device's own processor
// (hipDeviceProp_t::gcnArchName, as public samples pass it), loads the code
// with hipModuleLoadData and launches it with hipModuleLaunchKernel over
// data an ordinary (compiled-ahead) kernel prepared. Exact check.
// Its controls, each a mismatch when hiprtc answers otherwise: a source
// with a syntax error gives HIPRTC_ERROR_COMPILATION, no code and a log
// naming the file and the error; an unsupported processor gives
// HIPRTC_ERROR_INVALID_OPTION; a destroyed program is NULL.
//
// Usage: rtc             the above
//        rtc missing     the compiler cannot be found (the test sets
//                        REDLINE_HIPRTC_HIPCC to a missing file): the
//                        compile answers HIPRTC_ERROR_INTERNAL_ERROR with a
//                        log naming the driver, and no crash
#include "corpus.h"

#include <hip/hiprtc.h>

#include <cstring>
#include <string>
#include <vector>

static const char* const kSource = R"(
#include "rtc_types.h"
#include "sub/rtc_scale.h"
extern "C" __global__ void affine(const value_t* x, value_t* y,
                                  unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = RTC_SCALE * x[i] + RTC_OFFSET;
}
)";
static const char* kHeaderNames[] = {"rtc_types.h", "sub/rtc_scale.h"};
static const char* kHeaders[] = {
    "#pragma once\ntypedef int value_t;\n",
    "#pragma once\n#define RTC_SCALE 3\n"};

static const char* const kBroken = R"(
extern "C" __global__ void broken(int* y) {
  y[threadIdx.x] = undeclared_name;
}
)";

#define RTC_CHECK(call)                                                     \
  do {                                                                      \
    hiprtcResult rl_r_ = (call);                                            \
    if (rl_r_ != HIPRTC_SUCCESS) {                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,    \
                   #call, hiprtcGetErrorString(rl_r_));                     \
      std::exit(2);                                                         \
    }                                                                       \
  } while (0)

static std::string program_log(hiprtcProgram prog) {
  size_t size = 0;
  RTC_CHECK(hiprtcGetProgramLogSize(prog, &size));
  std::string log(size, '\0');
  if (size) RTC_CHECK(hiprtcGetProgramLog(prog, &log[0]));
  return log.c_str();
}

// A control: |what| must hold, else a mismatch naming it.
static void expect(bool ok, const char* what, const std::string& log) {
  if (ok) return;
  std::fprintf(stderr, "control failed: %s\nlog:\n%s\n", what, log.c_str());
  corpus_mismatch(what, 0, 0, 1);
}

__global__ void prepare(int* x, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = (int)(i * 7u % 1000u) - 500;
}

static int missing_compiler() {
  hiprtcProgram prog;
  RTC_CHECK(hiprtcCreateProgram(&prog, kSource, "missing.hip", 2, kHeaders,
                                kHeaderNames));
  hiprtcResult r = hiprtcCompileProgram(prog, 0, nullptr);
  std::string log = program_log(prog);
  std::printf("compile without a compiler: %s\n%s", hiprtcGetErrorString(r),
              log.c_str());
  expect(r == HIPRTC_ERROR_INTERNAL_ERROR,
         "a missing compiler gives HIPRTC_ERROR_INTERNAL_ERROR", log);
  expect(log.find("redline-hipcc") != std::string::npos,
         "the log names the driver", log);
  size_t code_size = 1;
  RTC_CHECK(hiprtcGetCodeSize(prog, &code_size));
  expect(code_size == 0, "no code after a failed compile", log);
  RTC_CHECK(hiprtcDestroyProgram(&prog));
  return corpus_finish("rtc missing");
}

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "missing") == 0)
    return missing_compiler();
  if (argc != 1) {
    std::fprintf(stderr, "usage: %s [missing]\n", argv[0]);
    return 3;
  }
  hipDeviceProp_t props;
  HIP_CHECK(hipGetDeviceProperties(&props, 0));
  std::string arch = std::string("--gpu-architecture=") + props.gcnArchName;

  // The control first: a syntax error is a compilation error with a log.
  hiprtcProgram bad;
  RTC_CHECK(hiprtcCreateProgram(&bad, kBroken, "broken.hip", 0, nullptr,
                                nullptr));
  const char* bad_opts[] = {arch.c_str()};
  hiprtcResult r = hiprtcCompileProgram(bad, 1, bad_opts);
  std::string log = program_log(bad);
  expect(r == HIPRTC_ERROR_COMPILATION,
         "a syntax error gives HIPRTC_ERROR_COMPILATION", log);
  expect(log.find("broken.hip:3") != std::string::npos &&
             log.find("undeclared_name") != std::string::npos,
         "the log names the file, line and identifier", log);
  size_t bad_size = 1;
  RTC_CHECK(hiprtcGetCodeSize(bad, &bad_size));
  expect(bad_size == 0, "no code after a compilation error", log);
  RTC_CHECK(hiprtcDestroyProgram(&bad));
  expect(bad == nullptr, "a destroyed program is NULL", "");

  // A processor the simulator does not model is an invalid option.
  hiprtcProgram other;
  RTC_CHECK(hiprtcCreateProgram(&other, kSource, "other.hip", 2, kHeaders,
                                kHeaderNames));
  const char* other_opts[] = {"--gpu-architecture=gfx906"};
  r = hiprtcCompileProgram(other, 1, other_opts);
  log = program_log(other);
  expect(r == HIPRTC_ERROR_INVALID_OPTION,
         "an unsupported processor gives HIPRTC_ERROR_INVALID_OPTION", log);
  RTC_CHECK(hiprtcDestroyProgram(&other));

  // The program itself.
  hiprtcProgram prog;
  RTC_CHECK(hiprtcCreateProgram(&prog, kSource, "affine.hip", 2, kHeaders,
                                kHeaderNames));
  const char* opts[] = {arch.c_str(), "-DRTC_OFFSET=11"};
  r = hiprtcCompileProgram(prog, 2, opts);
  log = program_log(prog);
  if (r != HIPRTC_SUCCESS) {
    std::fprintf(stderr, "hiprtcCompileProgram: %s\n%s\n",
                 hiprtcGetErrorString(r), log.c_str());
    return 2;
  }
  size_t code_size = 0;
  RTC_CHECK(hiprtcGetCodeSize(prog, &code_size));
  std::vector<char> code(code_size);
  RTC_CHECK(hiprtcGetCode(prog, code.data()));
  RTC_CHECK(hiprtcDestroyProgram(&prog));

  const unsigned int n = 5000;
  int *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(int)));
  prepare<<<(n + 255) / 256, 256>>>(dx, n);
  HIP_CHECK_LAUNCH();
  hipModule_t module;
  hipFunction_t affine;
  HIP_CHECK(hipModuleLoadData(&module, code.data()));
  HIP_CHECK(hipModuleGetFunction(&affine, module, "affine"));
  unsigned int count = n;
  void* params[] = {&dx, &dy, &count};
  HIP_CHECK(hipModuleLaunchKernel(affine, (n + 127) / 128, 1, 1, 128, 1, 1, 0,
                                  nullptr, params, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<int> got(n), want(n);
  HIP_CHECK(hipMemcpy(got.data(), dy, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipModuleUnload(module));
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  for (unsigned int i = 0; i < n; ++i)
    want[i] = 3 * ((int)(i * 7u % 1000u) - 500) + 11;
  corpus_corrupt(got.data());
  corpus_check_exact("y", got.data(), want.data(), n);
  return corpus_finish("rtc");
}
