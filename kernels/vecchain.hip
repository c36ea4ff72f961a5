// kernels/vecchain.hip — the kernels of the "vecchain" sample workload.
//
// The workload chains small vector operations (fill, scale, add, axpy with a
// dynamic scalar, a two-level sum and a raw copy) so that a capture exercises
// buffer hazards, scalar parameters that change between launches and a grid
// that depends on a parameter. A later issue runs these kernels on a
// simulator next to C reference implementations, so every kernel is simple,
// deterministic and exact: each output element is produced by exactly one
// work-item with a fixed operation order (the reduction tree included).
//
// Launch contract (all kernels): 1-D grids, block size RL_VC_BLOCK_SIZE = 64
// work-items, the grid covers n work-items rounded up to a whole block, and
// work-items past n do nothing. vc_partial_sum is the exception: one
// work-group per chunk of |chunk| elements, i.e. ceil(n / chunk) groups.
//
// The file is self-contained device code: no hip_runtime.h and no device
// libraries (Debian's rocm-device-libs 5.2 has no gfx11/gfx12 ISA bitcode,
// see research/debian_probe.md, gotcha 1). Kernels are extern "C" so their
// symbols are the plain names (`vc_fill`, descriptor `vc_fill.kd`).

#define RL_VC_BLOCK_SIZE 64u

#define RL_VC_KERNEL extern "C" __attribute__((global)) \
  __attribute__((amdgpu_flat_work_group_size(RL_VC_BLOCK_SIZE, RL_VC_BLOCK_SIZE)))

// The global index of the calling work-item in a 1-D launch of 64-wide blocks.
static __attribute__((device)) inline unsigned rl_vc_global_id(void) {
  return __builtin_amdgcn_workgroup_id_x() * RL_VC_BLOCK_SIZE +
         __builtin_amdgcn_workitem_id_x();
}

// out[i] = value.
RL_VC_KERNEL void vc_fill(float* out, float value, unsigned n) {
  unsigned i = rl_vc_global_id();
  if (i < n) out[i] = value;
}

// out[i] = in[i] * s.
RL_VC_KERNEL void vc_scale(const float* __restrict__ in,
                           float* __restrict__ out, float s, unsigned n) {
  unsigned i = rl_vc_global_id();
  if (i < n) out[i] = in[i] * s;
}

// out[i] = a[i] + b[i].
RL_VC_KERNEL void vc_add(const float* __restrict__ a,
                         const float* __restrict__ b,
                         float* __restrict__ out, unsigned n) {
  unsigned i = rl_vc_global_id();
  if (i < n) out[i] = a[i] + b[i];
}

// y[i] += x[i] * (float)pos. |pos| is the dynamic scalar: the workload
// passes a different value on every launch.
RL_VC_KERNEL void vc_axpy_pos(const float* __restrict__ x,
                              float* __restrict__ y, unsigned pos,
                              unsigned n) {
  unsigned i = rl_vc_global_id();
  if (i < n) y[i] += x[i] * (float)pos;
}

// partials[g] = sum of in[g * chunk .. min((g + 1) * chunk, n)) for
// work-group g. Each of the 64 work-items first sums its strided share of
// the chunk in ascending order, then the group adds the 64 values with a
// fixed LDS tree (stride 32, 16, ..., 1), so the result is deterministic.
RL_VC_KERNEL void vc_partial_sum(const float* __restrict__ in,
                                 float* __restrict__ partials,
                                 unsigned chunk, unsigned n) {
  __attribute__((shared)) static float rl_vc_lds[RL_VC_BLOCK_SIZE];
  unsigned group = __builtin_amdgcn_workgroup_id_x();
  unsigned lane = __builtin_amdgcn_workitem_id_x();
  unsigned begin = group * chunk;
  unsigned end = begin + chunk < n ? begin + chunk : n;
  float sum = 0.0f;
  for (unsigned i = begin + lane; i < end; i += RL_VC_BLOCK_SIZE) sum += in[i];
  rl_vc_lds[lane] = sum;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  for (unsigned stride = RL_VC_BLOCK_SIZE / 2; stride > 0; stride /= 2) {
    if (lane < stride) rl_vc_lds[lane] += rl_vc_lds[lane + stride];
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  }
  if (lane == 0) partials[group] = rl_vc_lds[0];
}

// out[0] = partials[0] + partials[1] + ... + partials[count - 1], summed in
// ascending order by work-item 0 of work-group 0 (a launch of one block).
RL_VC_KERNEL void vc_merge(const float* __restrict__ partials,
                           float* __restrict__ out, unsigned count) {
  if (rl_vc_global_id() != 0) return;
  float sum = 0.0f;
  for (unsigned i = 0; i < count; ++i) sum += partials[i];
  out[0] = sum;
}

// out[i] = in[i], bit for bit.
RL_VC_KERNEL void vc_copy_u32(const unsigned* __restrict__ in,
                              unsigned* __restrict__ out, unsigned n) {
  unsigned i = rl_vc_global_id();
  if (i < n) out[i] = in[i];
}
