// rtc.hip — run-time compilation (hiprtc): compiles a kernel from a string
// with two named headers and a -D option for the device's own processor
// (hipDeviceProp_t::gcnArchName, as public samples pass it), loads the code
// with hipModuleLoadData and launches it with hipModuleLaunchKernel over
// data an ordinary (compiled-ahead) kernel prepared. Exact check.
// Its controls, each a mismatch when hiprtc answers otherwise: a source
// with a syntax error gives HIPRTC_ERROR_COMPILATION, no code and a log
// naming the file and the error; an unsupported processor gives
// HIPRTC_ERROR_INVALID_OPTION; a destroyed program is NULL.
// Name expressions: a template kernel ("scale_add<int, 2>") and a
// namespaced __device__ variable ("&rtc::bias") added before the compile,
// looked up by their lowered (mangled) names after it; the kernel is
// launched and reads the variable, which the host set through
// hipModuleGetGlobal (exact check). Controls: a lowered name before the
// compile (HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION), an
// expression never added and one naming a __device__ function
// (HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID), one added after the compile
// (HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION), each with a log
// line naming it, and an undeclared expression (HIPRTC_ERROR_COMPILATION,
// the log naming it).
//
// Usage: rtc             the above
//        rtc missing     the compiler cannot be found (the test sets
//                        REDLINE_HIPRTC_HIPCC to a missing file): the
//                        compile answers HIPRTC_ERROR_INTERNAL_ERROR with a
//                        log naming the driver, and no crash
//        rtc host_names  name expressions naming host code, a host
//                        function and a host variable: the compile fails
//                        with HIPRTC_ERROR_COMPILATION and no code, as
//                        ROCm's hiprtc's does (it takes each expression's
//                        address in a __device__ variable, which host code
//                        cannot be), the log naming the expression and not
//                        the kernel's beside it; control: the same program
//                        with the kernel's expression alone compiles and
//                        lowers it
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

static const char* const kTemplates = R"(
namespace rtc {
__device__ int bias;
__device__ int twice(int v) { return 2 * v; }
}
template <typename T, int Scale>
__global__ void scale_add(const T* x, T* y, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = Scale * x[i] + rtc::bias;
}
template __global__ void scale_add<float, 3>(const float*, float*,
                                             unsigned int);
)";

static const char* const kHostCode = R"(
int host_only(int v) { return v + 1; }
int host_counter;
extern "C" __global__ void touch(int* y) { y[threadIdx.x] = 1; }
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

// Name expressions: the kernel and variable named by C++ expressions, then
// their controls. Returns the kernel's lowered name, the variable's in
// *|var_name|.
static std::string name_expressions(const std::string& arch_opt,
                                    std::vector<char>* code,
                                    std::string* var_name) {
  hiprtcProgram prog;
  RTC_CHECK(hiprtcCreateProgram(&prog, kTemplates, "templates.hip", 0,
                                nullptr, nullptr));
  const char* lowered = nullptr;
  hiprtcResult r = hiprtcGetLoweredName(prog, "scale_add<int, 2>", &lowered);
  std::string log = program_log(prog);
  expect(r == HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION &&
             lowered == nullptr,
         "a lowered name before the compile is refused", log);
  expect(log.find("scale_add<int, 2>") != std::string::npos,
         "the log names the expression asked before the compile", log);
  RTC_CHECK(hiprtcAddNameExpression(prog, "scale_add<int, 2>"));
  RTC_CHECK(hiprtcAddNameExpression(prog, "&rtc::bias"));
  RTC_CHECK(hiprtcAddNameExpression(prog, "rtc::twice"));
  RTC_CHECK(hiprtcAddNameExpression(prog, "scale_add<int, 2>"));  // again
  const char* opts[] = {arch_opt.c_str()};
  r = hiprtcCompileProgram(prog, 1, opts);
  log = program_log(prog);
  if (r != HIPRTC_SUCCESS) {
    std::fprintf(stderr, "hiprtcCompileProgram(templates): %s\n%s\n",
                 hiprtcGetErrorString(r), log.c_str());
    std::exit(2);
  }
  const char* kernel = nullptr;
  const char* bias = nullptr;
  RTC_CHECK(hiprtcGetLoweredName(prog, "scale_add<int, 2>", &kernel));
  RTC_CHECK(hiprtcGetLoweredName(prog, "&rtc::bias", &bias));
  std::printf("lowered: scale_add<int, 2> -> %s, &rtc::bias -> %s\n", kernel,
              bias);
  // The Itanium mangling clang gives them (the simulator's loader finds
  // the kernel by it below, which is the real check).
  expect(std::strcmp(kernel, "_Z9scale_addIiLi2EEvPKT_PS0_j") == 0,
         "scale_add<int, 2> lowers to its mangled name", kernel);
  expect(std::strcmp(bias, "_ZN3rtc4biasE") == 0,
         "&rtc::bias lowers to its mangled name", bias);
  std::string kernel_name = kernel;
  *var_name = bias;

  r = hiprtcGetLoweredName(prog, "scale_add<long, 2>", &lowered);
  log = program_log(prog);
  expect(r == HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID && lowered == nullptr,
         "an expression never added has no lowered name", log);
  expect(log.find("scale_add<long, 2>\" was not added") != std::string::npos,
         "the log names the expression never added", log);
  r = hiprtcGetLoweredName(prog, "rtc::twice", &lowered);
  log = program_log(prog);
  expect(r == HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID,
         "a __device__ function has no lowered name", log);
  expect(log.find("\"rtc::twice\" names no kernel or variable") !=
             std::string::npos,
         "the log names the __device__ function", log);
  r = hiprtcAddNameExpression(prog, "scale_add<float, 3>");
  log = program_log(prog);
  expect(r == HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION,
         "an expression added after the compile is refused", log);
  expect(log.find("\"scale_add<float, 3>\" added after") != std::string::npos,
         "the log names the expression added late", log);

  size_t code_size = 0;
  RTC_CHECK(hiprtcGetCodeSize(prog, &code_size));
  code->resize(code_size);
  RTC_CHECK(hiprtcGetCode(prog, code->data()));
  RTC_CHECK(hiprtcDestroyProgram(&prog));

  // An expression naming nothing declared fails the compile, naming it.
  hiprtcProgram undeclared;
  RTC_CHECK(hiprtcCreateProgram(&undeclared, kTemplates, "undeclared.hip", 0,
                                nullptr, nullptr));
  RTC_CHECK(hiprtcAddNameExpression(undeclared, "no_such_kernel<int>"));
  r = hiprtcCompileProgram(undeclared, 1, opts);
  log = program_log(undeclared);
  expect(r == HIPRTC_ERROR_COMPILATION,
         "an undeclared name expression fails the compile", log);
  expect(log.find("<name expression 0: no_such_kernel<int>>") !=
                 std::string::npos &&
             log.find("no_such_kernel") != std::string::npos,
         "the log names the undeclared expression", log);
  RTC_CHECK(hiprtcDestroyProgram(&undeclared));
  return kernel_name;
}

// Name expressions naming host code (usage above), each beside a
// kernel's; |arch_opt| the device's processor option.
static int host_names(const std::string& arch_opt) {
  const char* opts[] = {arch_opt.c_str()};
  // Control: the kernel's expression alone compiles and lowers.
  hiprtcProgram plain;
  RTC_CHECK(hiprtcCreateProgram(&plain, kHostCode, "host_code.hip", 0,
                                nullptr, nullptr));
  RTC_CHECK(hiprtcAddNameExpression(plain, "touch"));
  hiprtcResult r = hiprtcCompileProgram(plain, 1, opts);
  std::string log = program_log(plain);
  const char* lowered = nullptr;
  expect(r == HIPRTC_SUCCESS &&
             hiprtcGetLoweredName(plain, "touch", &lowered) ==
                 HIPRTC_SUCCESS &&
             lowered && std::strcmp(lowered, "touch") == 0,
         "the host-code program with the kernel's expression alone "
         "compiles and lowers it",
         log);
  RTC_CHECK(hiprtcDestroyProgram(&plain));
  // A host function (its address is undefined in device code) and a host
  // variable fail the compile, each named in the log.
  static const char* const names[] = {"host_only", "&host_counter"};
  for (const char* name : names) {
    hiprtcProgram host;
    RTC_CHECK(hiprtcCreateProgram(&host, kHostCode, "host_code.hip", 0,
                                  nullptr, nullptr));
    RTC_CHECK(hiprtcAddNameExpression(host, "touch"));
    r = hiprtcAddNameExpression(host, name);
    expect(r == HIPRTC_SUCCESS, "an expression naming host code is added",
           name);
    r = hiprtcCompileProgram(host, 1, opts);
    log = program_log(host);
    std::printf("name expression %s: %s\n%s", name, hiprtcGetErrorString(r),
                log.c_str());
    expect(r == HIPRTC_ERROR_COMPILATION,
           "an expression naming host code fails the compile", log);
    expect(log.find(std::string("name expression \"") + name +
                    "\" names no __global__ kernel") != std::string::npos,
           "the log names the expression naming host code", log);
    expect(log.find("\"touch\" names no") == std::string::npos,
           "the log does not blame the kernel's expression", log);
    size_t code_size = 1;
    RTC_CHECK(hiprtcGetCodeSize(host, &code_size));
    expect(code_size == 0, "no code when host code is named", log);
    RTC_CHECK(hiprtcDestroyProgram(&host));
  }
  return corpus_finish("rtc host_names");
}

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "missing") == 0)
    return missing_compiler();
  const bool host = argc == 2 && std::strcmp(argv[1], "host_names") == 0;
  if (argc != 1 && !host) {
    std::fprintf(stderr, "usage: %s [missing|host_names]\n", argv[0]);
    return 3;
  }
  hipDeviceProp_t props;
  HIP_CHECK(hipGetDeviceProperties(&props, 0));
  std::string arch = std::string("--gpu-architecture=") + props.gcnArchName;
  if (host) return host_names(arch);

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
  for (unsigned int i = 0; i < n; ++i)
    want[i] = 3 * ((int)(i * 7u % 1000u) - 500) + 11;
  corpus_corrupt(got.data());
  corpus_check_exact("y", got.data(), want.data(), n);

  // The template kernel found by its name expression's lowered name.
  std::vector<char> templ_code;
  std::string bias_name;
  std::string lowered = name_expressions(arch, &templ_code, &bias_name);
  hipModule_t templ;
  hipFunction_t scale_add;
  HIP_CHECK(hipModuleLoadData(&templ, templ_code.data()));
  HIP_CHECK(hipModuleGetFunction(&scale_add, templ, lowered.c_str()));
  int* dbias;
  size_t bias_size = 0;
  HIP_CHECK(hipModuleGetGlobal((hipDeviceptr_t*)&dbias, &bias_size, templ,
                               bias_name.c_str()));
  const int bias = -7;
  HIP_CHECK(hipMemcpy(dbias, &bias, sizeof(bias), hipMemcpyHostToDevice));
  HIP_CHECK(hipModuleLaunchKernel(scale_add, (n + 127) / 128, 1, 1, 128, 1, 1,
                                  0, nullptr, params, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(got.data(), dy, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipModuleUnload(templ));
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  for (unsigned int i = 0; i < n; ++i)
    want[i] = 2 * ((int)(i * 7u % 1000u) - 500) + bias;
  corpus_check_exact("y (scale_add<int, 2>)", got.data(), want.data(), n);
  return corpus_finish("rtc");
}
