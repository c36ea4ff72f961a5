// tools/hipcc/ockl_fixes.c — device-library functions redline adds to
// Debian 12's ockl (rocm-device-libs 5.2.3) for gfx11/gfx12: corrections of
// functions whose Debian build does not do what HIP documents, and functions
// HIP code needs that the libraries clang links for HIP do not have.
// redline-hipcc links this file over Debian's ockl.bc (llvm-link --override,
// into its temporary device-library directory), so these definitions
// replace or join the shipped ones.
//
// __ockl_fdot2(a, b, c, saturate): HIP's amd_mixed_dot(__half2, __half2,
//   float, bool) calls it for a[0]*b[0] + a[1]*b[1] + c. The shipped bitcode
//   ignores |saturate| and always sets the instruction's clamp bit, which
//   clamps the float result to [0, 1] (checked with llvm-dis on ockl.bc and
//   llvm-objdump on the compiled kernel: `v_dot2_f32_f16 ... clamp` for
//   saturate == false). Here the clamp follows |saturate|. Semantics from
//   the HIP headers (amd_hip_fp16.h: amd_mixed_dot) and the LLVM builtin
//   __builtin_amdgcn_fdot2(a, b, c, clamp) (LLVM AMDGPUUsage and the RDNA3
//   ISA guide, V_DOT2_F32_F16).
//
// __ockl_sdot4 / __ockl_udot4 / __ockl_sdot2 / __ockl_udot2 / __ockl_sdot8 /
// __ockl_udot8(a, b, c, saturate): HIP's integer amd_mixed_dot overloads
//   (char4, uchar4, short2, ushort2, and int/uint holding eight 4-bit
//   values). The shipped bitcode picks the dot instruction by
//   __oclc_ISA_version from a list that predates gfx11; for 11000 it takes
//   the path of the gfx9/gfx10 instructions (v_dot4_i32_i8 etc., target
//   feature dot1-insts), which gfx11 does not have, and the compiled kernel
//   came out storing 0 for every char4 dot product (tests/hip_corpus/
//   dot_i8.hip caught it). Here they are plain integer arithmetic, which
//   clang-19 selects to gfx11's own dot instructions where they fit
//   (v_dot4_i32_iu8, v_dot4_u32_u8). Meaning, from HIP's
//   amd_math_functions.h and the RDNA3 ISA guide (V_DOT4_I32_IU8,
//   V_DOT4_U32_U8, V_DOT8_I32_IU4, V_DOT8_U32_U4): the sum of the products
//   of the elements plus c; with saturate, the sum clamped to the 32-bit
//   range instead of wrapping.
//
// Compiled with: clang-19 -x c --target=amdgcn-amd-amdhsa -nogpulib
//   -Xclang -mcode-object-version=none -O2 -Xclang -disable-llvm-passes
//   -emit-llvm -c (no -mcpu and no IR passes: the function asks for the dot
//   instructions it uses and is optimised once inlined into the kernel).
#include <stdbool.h>

typedef _Float16 rl_half2 __attribute__((ext_vector_type(2)));

__attribute__((visibility("protected"), target("dot10-insts"))) float
__ockl_fdot2(rl_half2 a, rl_half2 b, float c, bool saturate) {
  // The clamp operand must be a constant: one call per value.
  if (saturate) return __builtin_amdgcn_fdot2(a, b, c, true);
  return __builtin_amdgcn_fdot2(a, b, c, false);
}

// __printf_alloc(bytes): device printf in the buffered form
// (-mprintf-kind=buffered, redline-hipcc's default). clang lowers each
// printf to a call of __printf_alloc for the record's size and stores the
// record (a control word, the format string's hash, the arguments) at the
// pointer it returns, or skips the record when it returns NULL. The
// function lives in the OpenCL library (opencl.bc), which clang does not
// link for HIP. The buffer is the kernel's hidden_printf_buffer argument:
// byte 72 of the implicit arguments in code object v5 (LLVM AMDGPUUsage,
// "Code Object V5 Metadata", hidden kernel arguments), laid out as
//     uint32 used      bytes of records written so far
//     uint32 capacity  bytes available for records after this header
//     records
// (the layout redline's HIP runtime allocates and prints after each launch,
// sim/hip_sim/hip_sim.h). A compare-and-swap loop claims the bytes, so
// |used| never passes |capacity| and a full buffer drops records cleanly.
#ifndef __HIP_MEMORY_SCOPE_AGENT
#define __HIP_MEMORY_SCOPE_AGENT 3  // clang predefines it for HIP only
#endif
typedef __attribute__((address_space(1))) char rl_global_char;
typedef __attribute__((address_space(1))) unsigned rl_global_uint;

__attribute__((visibility("protected"))) rl_global_char* __printf_alloc(
    unsigned bytes) {
  const __attribute__((address_space(4))) char* implicit =
      (const __attribute__((address_space(4))) char*)
          __builtin_amdgcn_implicitarg_ptr();
  rl_global_char* buffer =
      *(rl_global_char* const __attribute__((address_space(4)))*)(implicit +
                                                                  72);
  if (!buffer) return 0;
  rl_global_uint* header = (rl_global_uint*)buffer;
  unsigned capacity = header[1];
  unsigned used = __hip_atomic_load(&header[0], __ATOMIC_RELAXED,
                                    __HIP_MEMORY_SCOPE_AGENT);
  do {
    if (bytes > capacity || used > capacity - bytes) return 0;
  } while (!__hip_atomic_compare_exchange_weak(
      &header[0], &used, used + bytes, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
      __HIP_MEMORY_SCOPE_AGENT));
  return buffer + 8 + used;
}

typedef signed char rl_char4 __attribute__((ext_vector_type(4)));
typedef unsigned char rl_uchar4 __attribute__((ext_vector_type(4)));
typedef short rl_short2 __attribute__((ext_vector_type(2)));
typedef unsigned short rl_ushort2 __attribute__((ext_vector_type(2)));

static inline int rl_sat_i32(long long v, bool saturate) {
  if (saturate) {
    if (v > 2147483647LL) return 2147483647;
    if (v < -2147483647LL - 1) return -2147483647 - 1;
  }
  return (int)(unsigned)(unsigned long long)v;  // wraps
}

static inline unsigned rl_sat_u32(unsigned long long v, bool saturate) {
  if (saturate && v > 0xffffffffULL) return 0xffffffffu;
  return (unsigned)v;
}

__attribute__((visibility("protected"))) int __ockl_sdot4(rl_char4 a,
                                                          rl_char4 b, int c,
                                                          bool saturate) {
  long long sum = c;
  for (int i = 0; i < 4; ++i) sum += (int)a[i] * (int)b[i];
  return rl_sat_i32(sum, saturate);
}

__attribute__((visibility("protected"))) unsigned __ockl_udot4(
    rl_uchar4 a, rl_uchar4 b, unsigned c, bool saturate) {
  unsigned long long sum = c;
  for (int i = 0; i < 4; ++i) sum += (unsigned)a[i] * (unsigned)b[i];
  return rl_sat_u32(sum, saturate);
}

__attribute__((visibility("protected"))) int __ockl_sdot2(rl_short2 a,
                                                          rl_short2 b, int c,
                                                          bool saturate) {
  long long sum = c;
  for (int i = 0; i < 2; ++i) sum += (long long)a[i] * b[i];
  return rl_sat_i32(sum, saturate);
}

__attribute__((visibility("protected"))) unsigned __ockl_udot2(
    rl_ushort2 a, rl_ushort2 b, unsigned c, bool saturate) {
  unsigned long long sum = c;
  for (int i = 0; i < 2; ++i) sum += (unsigned long long)a[i] * b[i];
  return rl_sat_u32(sum, saturate);
}

// Eight 4-bit elements per 32-bit operand, element i in bits 4i..4i+3.
__attribute__((visibility("protected"))) int __ockl_sdot8(int a, int b, int c,
                                                          bool saturate) {
  long long sum = c;
  for (int i = 0; i < 8; ++i) {
    int x = (int)((unsigned)a << (28 - 4 * i)) >> 28;  // sign-extend
    int y = (int)((unsigned)b << (28 - 4 * i)) >> 28;
    sum += x * y;
  }
  return rl_sat_i32(sum, saturate);
}

__attribute__((visibility("protected"))) unsigned __ockl_udot8(
    unsigned a, unsigned b, unsigned c, bool saturate) {
  unsigned long long sum = c;
  for (int i = 0; i < 8; ++i) sum += ((a >> (4 * i)) & 15u) * ((b >> (4 * i)) & 15u);
  return rl_sat_u32(sum, saturate);
}
