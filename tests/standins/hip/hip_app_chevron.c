// tests/standins/hip/hip_app_chevron.c — hip_app's computation written the
// way clang compiles a triple-chevron HIP program, in plain C: it knows
// nothing of redline. Like clang's host code it embeds a fat binary (the
// wrapper in .hipFatBinSegment, the clang offload bundle in .hip_fatbin:
// a host entry and hipv4-amdgcn-amd-amdhsa--gfx1100 holding the vecchain
// code object RL_CHEVRON_CODE_OBJECT, assembled at build time), registers
// it and one host stub per kernel from a constructor, unregisters it at
// exit, and launches each kernel with hipLaunchKernel(stub, ..., args).
// It prints "region bufN <XXH3-128>" for a, b and c like hip_app (same
// launches, so the same hashes). argv[1] == "unknown-stub" also launches a
// stub that was never registered (the runtime refuses it; a capture must
// say it is incomplete); argv[1] == "unknown-kernel" registers a stub under
// a name its code object does not have and launches it (the capture must
// name that kernel and why).
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

// What clang's host code declares for itself.
void** __hipRegisterFatBinary(const void* data);
void __hipRegisterFunction(void** modules, const void* hostFunction,
                           char* deviceFunction, const char* deviceName,
                           unsigned int threadLimit, void* tid, void* bid,
                           void* blockDim, void* gridDim, int* wSize);
void __hipUnregisterFatBinary(void** modules);

// The offload bundle (clang-offload-bundler's binary layout: magic, u64
// count, per entry u64 offset from the bundle start, u64 size, u64 triple
// length, triple), code object aligned to 4096 as clang does.
__asm__(
    ".section .hip_fatbin,\"a\",@progbits\n"
    ".balign 4096\n"
    "chevron_bundle:\n"
    ".ascii \"__CLANG_OFFLOAD_BUNDLE__\"\n"
    ".quad 2\n"
    ".quad 0, 0, 2f - 1f\n"
    "1: .ascii \"host-x86_64-unknown-linux-gnu-\"\n"
    "2: .quad chevron_code - chevron_bundle, chevron_code_end - chevron_code\n"
    ".quad 4f - 3f\n"
    "3: .ascii \"hipv4-amdgcn-amd-amdhsa--gfx1100\"\n"
    "4: .balign 4096\n"
    "chevron_code:\n"
    ".incbin \"" RL_CHEVRON_CODE_OBJECT "\"\n"
    "chevron_code_end:\n"
    ".previous\n");
extern const char chevron_bundle[];

static const struct {
  unsigned magic, version;
  const void* binary;
  void* unused;
} chevron_wrapper __attribute__((section(".hipFatBinSegment"), used)) = {
    0x48495046u, 1u, chevron_bundle, NULL};

// Host stubs: distinct bodies so no two share an address.
static volatile int chevron_last_stub;
static void vc_fill_stub(void) { chevron_last_stub = 1; }
static void vc_scale_stub(void) { chevron_last_stub = 2; }
static void vc_add_stub(void) { chevron_last_stub = 3; }
static void vc_axpy_pos_stub(void) { chevron_last_stub = 4; }
static void never_registered_stub(void) { chevron_last_stub = 5; }
static void missing_kernel_stub(void) { chevron_last_stub = 6; }

static void** chevron_modules;

static void chevron_module_dtor(void) {
  if (chevron_modules) __hipUnregisterFatBinary(chevron_modules);
  chevron_modules = NULL;
}

static void chevron_register(const void* stub, const char* name) {
  __hipRegisterFunction(chevron_modules, stub, (char*)name, name, (unsigned)-1,
                        NULL, NULL, NULL, NULL, NULL);
}

__attribute__((constructor)) static void chevron_module_ctor(void) {
  chevron_modules = __hipRegisterFatBinary(&chevron_wrapper);
  chevron_register((const void*)vc_fill_stub, "vc_fill");
  chevron_register((const void*)vc_scale_stub, "vc_scale");
  chevron_register((const void*)vc_add_stub, "vc_add");
  chevron_register((const void*)vc_axpy_pos_stub, "vc_axpy_pos");
  atexit(chevron_module_dtor);
}

static void print_region(const char* name, const void* device) {
  float host[N];
  CHECK(hipMemcpy(host, device, sizeof(host), hipMemcpyDeviceToHost));
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits(host, sizeof(host)));
  printf("region %s ", name);
  for (int i = 0; i < 16; ++i) printf("%02x", canonical.digest[i]);
  printf("\n");
}

static void launch(void (*stub)(void), unsigned groups, void** args,
                   hipStream_t stream) {
  const dim3 grid = {groups, 1, 1}, block = {64, 1, 1};
  CHECK(hipLaunchKernel((const void*)stub, grid, block, args, 0, stream));
}

int main(int argc, char** argv) {
  bool unknown_stub = argc > 1 && strcmp(argv[1], "unknown-stub") == 0;
  bool unknown_kernel = argc > 1 && strcmp(argv[1], "unknown-kernel") == 0;
  if (unknown_kernel) {
    chevron_register((const void*)missing_kernel_stub, "vc_not_in_the_object");
  }
  if (!chevron_modules) {
    fprintf(stderr, "hip_app_chevron: __hipRegisterFatBinary failed\n");
    return 1;
  }
  float *a, *b, *c;
  CHECK(hipMalloc((void**)&a, N * sizeof(float)));
  CHECK(hipMalloc((void**)&b, N * sizeof(float)));
  CHECK(hipMalloc((void**)&c, N * sizeof(float)));
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  unsigned n = N, groups = (N + 63) / 64;
  float value = 1.5f, scale = 3.0f;
  launch(vc_fill_stub, groups, (void*[]){&a, &value, &n}, NULL);
  launch(vc_scale_stub, groups, (void*[]){&a, &b, &scale, &n}, NULL);
  CHECK(hipDeviceSynchronize());
  launch(vc_add_stub, groups, (void*[]){&a, &b, &c, &n}, stream);
  CHECK(hipStreamSynchronize(stream));
  for (unsigned pos = 1; pos <= 3; ++pos) {
    launch(vc_axpy_pos_stub, groups, (void*[]){&a, &c, &pos, &n}, stream);
  }
  if (unknown_stub || unknown_kernel) {
    const dim3 one = {1, 1, 1};
    void* args[] = {&a, &value, &n};
    const void* stub = unknown_stub ? (const void*)never_registered_stub
                                    : (const void*)missing_kernel_stub;
    hipError_t error = hipLaunchKernel(stub, one, one, args, 0, stream);
    if (error != hipErrorInvalidDeviceFunction) {
      fprintf(stderr, "unknown stub: got %s\n", hipGetErrorName(error));
      return 1;
    }
  }
  CHECK(hipStreamSynchronize(stream));
  print_region("buf0", a);
  print_region("buf1", b);
  print_region("buf2", c);
  CHECK(hipStreamDestroy(stream));
  CHECK(hipFree(a));
  CHECK(hipFree(b));
  CHECK(hipFree(c));
  return 0;
}
