// tools/hipcc/ockl_fixes.c — ockl functions whose Debian 12 build
// (rocm-device-libs 5.2.3) does not do what HIP documents for gfx11/gfx12;
// redline-hipcc links these over Debian's ockl.bc (llvm-link --override,
// into its temporary device-library directory) so they replace the
// shipped definitions.
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
