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
// redline/hip_sim/hip_sim.h). A compare-and-swap loop claims the bytes, so
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
