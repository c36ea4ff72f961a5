// sim/hip_sim/hip_sim_copy2d.c — pitched memory and strided copies:
// hipMallocPitch, hipMemcpy2D[Async], hipMemcpy3D[Async] (linear memory;
// hipArray operands answer hipErrorNotSupported) and hipMemcpyPeer[Async]
// on the one device. A strided copy is queued as one copy per row, each
// under the copy rules of hip_sim_copy.c (a pageable row staged at the
// call, a copy into pageable memory complete at return), in one critical
// section, so no other work of the stream falls between its rows.
#include "sim/hip_sim/hip_sim_internal.h"

// The row pitch hipMallocPitch gives: the width rounded up to the
// device's texturePitchAlignment (hipDeviceProp_t, 256 bytes here).
#define RL_HIP_PITCH_ALIGNMENT 256u

RL_HIP_EXPORT hipError_t hipMallocPitch(void** ptr, size_t* pitch,
                                        size_t width, size_t height) {
  if (!ptr || !pitch) return hipErrorInvalidValue;
  *pitch = 0;
  size_t padded = (width + RL_HIP_PITCH_ALIGNMENT - 1) /
                  RL_HIP_PITCH_ALIGNMENT * RL_HIP_PITCH_ALIGNMENT;
  if (width && padded < width) return hipErrorInvalidValue;
  if (height && padded > SIZE_MAX / height) return hipErrorOutOfMemory;
  hipError_t error = hipMalloc(ptr, padded * height);
  if (!error) *pitch = padded;
  return error;
}

// One strided copy: |depth| slices of |height| rows of |width| bytes.
typedef struct rl_hip_strided_s {
  uint8_t* dst;
  const uint8_t* src;
  size_t dpitch, spitch;    // bytes between rows
  size_t dslice, sslice;    // bytes between slices
  size_t width, height, depth;
  hipMemcpyKind kind;
} rl_hip_strided_t;

static rl_hip_op_t rl_hip_strided_row(const rl_hip_strided_t* c, size_t z,
                                      size_t y) {
  return (rl_hip_op_t){.kind = RL_HIP_OP_COPY,
                       .dst = c->dst + z * c->dslice + y * c->dpitch,
                       .src = c->src + z * c->sslice + y * c->spitch,
                       .size = c->width,
                       .value = (uint32_t)c->kind};
}

// Checks every row, then queues them on |stream|; synchronous when |sync|
// (the last row's completion covers the rest: one stream, in order).
static hipError_t rl_hip_strided_copy(const rl_hip_strided_t* c,
                                      hipStream_t stream, bool sync,
                                      const char* call) {
  if (c->width == 0 || c->height == 0 || c->depth == 0) return hipSuccess;
  if (!c->dst || !c->src) return hipErrorInvalidValue;
  if (c->width > c->dpitch || c->width > c->spitch) {
    return hipErrorInvalidPitchValue;
  }
  RL_HIP_ENTER();
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, call)) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  for (size_t z = 0; z < c->depth; ++z) {
    for (size_t y = 0; y < c->height; ++y) {
      const rl_hip_op_t row = rl_hip_strided_row(c, z, y);
      hipError_t error = rl_hip_copy_check(&row);
      if (error) return rl_hip_leave(error);
    }
  }
  hipError_t error = hipSuccess;
  for (size_t z = 0; !error && z < c->depth; ++z) {
    for (size_t y = 0; !error && y < c->height; ++y) {
      const rl_hip_op_t row = rl_hip_strided_row(c, z, y);
      bool last = z + 1 == c->depth && y + 1 == c->height;
      error = rl_hip_enqueue(s, &row, sync && last);
    }
  }
  return rl_hip_leave(error);
}

RL_HIP_EXPORT hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src,
                                     size_t spitch, size_t width,
                                     size_t height, hipMemcpyKind kind) {
  const rl_hip_strided_t c = {dst, src, dpitch, spitch, 0, 0,
                              width, height, 1, kind};
  return rl_hip_strided_copy(&c, NULL, true, "hipMemcpy2D");
}

RL_HIP_EXPORT hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch,
                                          const void* src, size_t spitch,
                                          size_t width, size_t height,
                                          hipMemcpyKind kind,
                                          hipStream_t stream) {
  const rl_hip_strided_t c = {dst, src, dpitch, spitch, 0, 0,
                              width, height, 1, kind};
  return rl_hip_strided_copy(&c, stream, false, "hipMemcpy2DAsync");
}

// hipMemcpy3DParms between pitched linear memory: the offsets |srcPos| and
// |dstPos| are in bytes (x), rows (y) and slices (z); a slice is
// pitch * ysize bytes.
static hipError_t rl_hip_memcpy3d(const hipMemcpy3DParms* p,
                                  hipStream_t stream, bool sync) {
  if (!p) return hipErrorInvalidValue;
  if (p->srcArray || p->dstArray) {
    rl_hip_unsupported("hipMemcpy3D with a hipArray");
    return hipErrorNotSupported;
  }
  const hipPitchedPtr* d = &p->dstPtr;
  const hipPitchedPtr* s = &p->srcPtr;
  const size_t dslice = d->pitch * d->ysize, sslice = s->pitch * s->ysize;
  const rl_hip_strided_t c = {
      (uint8_t*)d->ptr + p->dstPos.z * dslice + p->dstPos.y * d->pitch +
          p->dstPos.x,
      (const uint8_t*)s->ptr + p->srcPos.z * sslice + p->srcPos.y * s->pitch +
          p->srcPos.x,
      d->pitch, s->pitch, dslice, sslice,
      p->extent.width, p->extent.height, p->extent.depth, p->kind};
  if (!d->ptr || !s->ptr) return hipErrorInvalidValue;
  return rl_hip_strided_copy(&c, stream, sync,
                             sync ? "hipMemcpy3D" : "hipMemcpy3DAsync");
}

RL_HIP_EXPORT hipError_t hipMemcpy3D(const struct hipMemcpy3DParms* p) {
  return rl_hip_memcpy3d(p, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms* p,
                                          hipStream_t stream) {
  return rl_hip_memcpy3d(p, stream, false);
}

// One device: a peer copy is a device-to-device copy on device 0.
RL_HIP_EXPORT hipError_t hipMemcpyPeer(void* dst, int dst_device,
                                       const void* src, int src_device,
                                       size_t size) {
  if (dst_device != 0 || src_device != 0) return hipErrorInvalidDevice;
  return hipMemcpy(dst, src, size, hipMemcpyDeviceToDevice);
}

RL_HIP_EXPORT hipError_t hipMemcpyPeerAsync(void* dst, int dst_device,
                                            const void* src, int src_device,
                                            size_t size, hipStream_t stream) {
  if (dst_device != 0 || src_device != 0) return hipErrorInvalidDevice;
  return hipMemcpyAsync(dst, src, size, hipMemcpyDeviceToDevice, stream);
}
