// tests/hip_programs/hip_device.h — the few HIP device helpers the corpus
// programs share, written with clang builtins only: Debian ships no HIP
// device headers or device libraries for gfx11, so each helper is spelled
// the way HIP's headers spell it (amd_warp_functions.h, amd_device_functions.h)
// on top of the builtin that lowers to one instruction.
//
// Every program runs wave32 (the gfx11 HIP default): warpSize is 32.
#ifndef REDLINE_TESTS_HIP_PROGRAMS_HIP_DEVICE_H_
#define REDLINE_TESTS_HIP_PROGRAMS_HIP_DEVICE_H_

#define RL_HP_WARP 32
#define RL_HP_KERNEL(block) \
  extern "C" __attribute__((global)) \
  __attribute__((amdgpu_flat_work_group_size(block, block)))
#define RL_HP_DEVICE static __attribute__((device)) inline \
  __attribute__((always_inline))
#define RL_HP_SHARED __attribute__((shared))

RL_HP_DEVICE unsigned rl_hp_tid_x(void) { return __builtin_amdgcn_workitem_id_x(); }
RL_HP_DEVICE unsigned rl_hp_tid_y(void) { return __builtin_amdgcn_workitem_id_y(); }
RL_HP_DEVICE unsigned rl_hp_block_x(void) { return __builtin_amdgcn_workgroup_id_x(); }
RL_HP_DEVICE unsigned rl_hp_block_y(void) { return __builtin_amdgcn_workgroup_id_y(); }

// __syncthreads(): LDS and global writes of the work-group ordered around
// the barrier (HIP's definition: fence release, s_barrier, fence acquire).
RL_HP_DEVICE void rl_hp_sync(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// __lane_id(): v_mbcnt_lo_u32_b32 (and _hi, which wave32 folds away).
RL_HP_DEVICE int rl_hp_lane(void) {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}

// __shfl(var, src): ds_bpermute_b32 reads lane |src| of the wave (byte
// address src * 4); HIP wraps src into the |width|-lane segment.
RL_HP_DEVICE int rl_hp_shfl(int var, int src, int width) {
  int self = rl_hp_lane();
  int index = src + (self & ~(width - 1));
  return __builtin_amdgcn_ds_bpermute(index << 2, var);
}

// __shfl_xor(var, mask, width): HIP's formula, out-of-segment lanes read
// themselves.
RL_HP_DEVICE int rl_hp_shfl_xor(int var, int mask, int width) {
  int self = rl_hp_lane();
  int index = self ^ mask;
  index = index >= ((self + width) & ~(width - 1)) ? self : index;
  return __builtin_amdgcn_ds_bpermute(index << 2, var);
}

// __shfl_down(var, delta, width): lanes past the segment end read
// themselves.
RL_HP_DEVICE int rl_hp_shfl_down(int var, unsigned delta, int width) {
  int self = rl_hp_lane();
  int index = self + (int)delta;
  index = (int)((unsigned)(self & (width - 1)) + delta) >= width ? self : index;
  return __builtin_amdgcn_ds_bpermute(index << 2, var);
}

// atomicAdd / atomicMax on global memory, device scope, relaxed: HIP's
// definition through the clang builtins.
RL_HP_DEVICE unsigned rl_hp_atomic_add(unsigned* p, unsigned v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}
RL_HP_DEVICE int rl_hp_atomic_max(int* p, int v) {
  return __hip_atomic_fetch_max(p, v, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}

#endif  // REDLINE_TESTS_HIP_PROGRAMS_HIP_DEVICE_H_
