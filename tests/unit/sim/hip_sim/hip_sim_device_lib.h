// tests/unit/sim/hip_sim/hip_sim_device_lib.h — the few device-library
// functions Debian's HIP headers call and Debian's clang cannot link for
// gfx11 without ROCm's device libraries, for the runtime's own test
// programs (force-included by rl_hip_sim_test_program, hip_sim_tests.cmake;
// redline-hipcc brings the project's device library instead). Layout of
// the implicit (hidden) kernel arguments: LLVM AMDGPUUsage, "Code Object V5
// Metadata", hidden kernarg table: block counts at 0, group sizes at 12,
// the printf buffer pointer at 72.
#pragma once
#include <stddef.h>

extern "C" {
__device__ __attribute__((always_inline)) size_t __ockl_get_local_id(unsigned dim) {
  return dim == 0 ? __builtin_amdgcn_workitem_id_x()
       : dim == 1 ? __builtin_amdgcn_workitem_id_y()
                  : __builtin_amdgcn_workitem_id_z();
}
__device__ __attribute__((always_inline)) size_t __ockl_get_group_id(unsigned dim) {
  return dim == 0 ? __builtin_amdgcn_workgroup_id_x()
       : dim == 1 ? __builtin_amdgcn_workgroup_id_y()
                  : __builtin_amdgcn_workgroup_id_z();
}
__device__ __attribute__((always_inline)) size_t __ockl_get_local_size(unsigned dim) {
  const unsigned short* sizes = (const unsigned short*)(
      (const char*)__builtin_amdgcn_implicitarg_ptr() + 12);
  return dim < 3 ? sizes[dim] : 1;
}
__device__ __attribute__((always_inline)) size_t __ockl_get_num_groups(unsigned dim) {
  const unsigned* counts = (const unsigned*)__builtin_amdgcn_implicitarg_ptr();
  return dim < 3 ? counts[dim] : 1;
}
__device__ __attribute__((always_inline)) void __atomic_work_item_fence(unsigned flags,
                                                              int order,
                                                              int scope) {
  (void)flags, (void)order, (void)scope;
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}
// Buffered printf (sim/hip_sim/hip_sim.h "Device printf"). clang
// calls it as returning a global (address space 1) pointer; a definition
// of another type would not be inlined, and the call would stay.
typedef __attribute__((address_space(1))) char rl_global_char;
__device__ __attribute__((always_inline)) rl_global_char* __printf_alloc(
    unsigned bytes) {
  char* buffer =
      *(char* const*)((const char*)__builtin_amdgcn_implicitarg_ptr() + 72);
  if (!buffer) return nullptr;
  unsigned* header = (unsigned*)buffer;
  unsigned offset = __hip_atomic_fetch_add(header, bytes, __ATOMIC_RELAXED,
                                           __HIP_MEMORY_SCOPE_AGENT);
  if (offset + bytes > header[1]) return nullptr;
  return (rl_global_char*)(buffer + 8 + offset);
}
}
