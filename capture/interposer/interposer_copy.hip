// redline/backends/interposer_copy.hip — the device side of the copies the
// interposer records (interposer.c, "Copies and fills").
//
// A HIP program writes device memory without a kernel too: hipMemcpyAsync
// from the host, hipMemcpy device to device, hipMemset. Inside a capture
// window those writes are part of the run a replay must reproduce, and a
// capture holds only launches. So the interposer records each such write as
// a launch of one of these kernels: every replay route (eager, aql, pm4,
// drm, hip, hipgraph) then runs it in order like any other launch. Host
// bytes reach the device through a read-only staging buffer whose initial
// contents are the bytes the program copied.
//
// Launch contract: 1-D grid of 256-wide work-groups covering n bytes (n
// below 2^32, the interposer refuses larger writes); one byte per work-item (byte addresses carry no alignment requirement, so a
// copy at any offset and of any length is exact). Self-contained device
// code like kernels/*.hip: no HIP headers, no device libraries. The `ref`
// executor's versions are kernels/ref/capture_copy_ref.c.
#define RL_COPY_BLOCK 256u
#define RL_COPY_KERNEL extern "C" __attribute__((global)) \
  __attribute__((amdgpu_flat_work_group_size(RL_COPY_BLOCK, RL_COPY_BLOCK)))

static __attribute__((device)) inline unsigned rl_copy_index(void) {
  return __builtin_amdgcn_workgroup_id_x() * RL_COPY_BLOCK +
         __builtin_amdgcn_workitem_id_x();
}

// dst[i] = src[i] for i < n.
RL_COPY_KERNEL void rl_capture_copy(unsigned char* __restrict__ dst,
                                    const unsigned char* __restrict__ src,
                                    unsigned n) {
  unsigned i = rl_copy_index();
  if (i < n) dst[i] = src[i];
}

// dst[i] = byte (i % width) of the little-endian |pattern|, for i < n:
// hipMemset (width 1), hipMemsetD16 (2), hipMemsetD32 (4).
RL_COPY_KERNEL void rl_capture_fill(unsigned char* __restrict__ dst,
                                    unsigned pattern, unsigned width,
                                    unsigned n) {
  unsigned i = rl_copy_index();
  if (i < n) dst[i] = (unsigned char)(pattern >> (8u * (i % width)));
}
