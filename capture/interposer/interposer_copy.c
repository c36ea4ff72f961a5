// capture/interposer/interposer_copy.c — copies and fills
// (capture/interposer/interposer_internal.h).
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "base/array.h"
#include "base/number.h"
#include "base/test_fault.h"
#include "redline/capture_file.h"
#include "redline/offload_bundle.h"

//===----------------------------------------------------------------------===//
// Copies and fills: device writes without a kernel, recorded as launches of
// the embedded copy kernels (interposer_copy.hip) that the program's own
// call performs (the funnel's launch only records them).
//===----------------------------------------------------------------------===//

// Layout of the table cmake/EmbedFiles.cmake generates.
typedef struct {
  const char* name;
  const uint8_t* bytes;
  size_t size;
} rl_embedded_file_t;

extern const rl_embedded_file_t rl_ip_copy_objects[];

// Loads the copy code object of the device's processor into the funnel
// once; false (said once on stderr) when there is none.
static bool rl_ip_copy_load(rl_interposer_t* ip) {
  if (ip->copy_loaded || ip->copy_failed) return ip->copy_loaded;
  char processor[64] = "";
  const rl_embedded_file_t* file = NULL;
  if (rl_ip_processor(ip, processor, sizeof(processor))) {
    for (const rl_embedded_file_t* e = rl_ip_copy_objects; e->name; ++e) {
      if (strcmp(e->name, processor) == 0) file = e;
    }
  }
  rl_status_t status =
      file ? rl_code_object_parse(file->bytes, file->size, &ip->copy_parsed)
           : RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "no copy kernels for processor '%s'", processor);
  uint32_t code_object = 0;
  if (!status) {
    ip->pending_handle = UINT64_MAX;  // never loaded in the runtime
    status = rl_funnel_load_code_object(ip->funnel, file->bytes, file->size,
                                        &code_object);
  }
  if (!status) {
    status = rl_funnel_kernel(ip->funnel, code_object, "rl_capture_copy",
                              &ip->copy_kernel);
  }
  if (!status) {
    status = rl_funnel_kernel(ip->funnel, code_object, "rl_capture_fill",
                              &ip->fill_kernel);
  }
  if (status) {
    rl_ip_fail(status, "loading the copy kernels");
    ip->copy_failed = true;
    return false;
  }
  ip->copy_info =
      rl_code_object_find_kernel(ip->copy_parsed, "rl_capture_copy");
  ip->fill_info =
      rl_code_object_find_kernel(ip->copy_parsed, "rl_capture_fill");
  ip->copy_loaded = ip->copy_info && ip->fill_info;
  ip->copy_failed = !ip->copy_loaded;
  return ip->copy_loaded;
}

// Records one launch of copy-kernel |kernel| over |size| bytes with
// |args|; the program's call (forwarded by the caller) does the write.
static void rl_ip_record_builtin(rl_interposer_t* ip, uint32_t kernel,
                                 const rl_code_object_kernel_t* info,
                                 uint64_t size, const rl_funnel_arg_t* args,
                                 uint32_t arg_count, const char* call) {
  const uint64_t groups = (size + 255u) / 256u;
  if (size > UINT32_MAX) {  // the kernels count bytes in 32 bits
    rl_ip_note(ip, 1, "%s of %llu bytes is too large to record", call,
               (unsigned long long)size);
    return;
  }
  const uint32_t grid[3] = {(uint32_t)groups, 1, 1}, block[3] = {256, 1, 1};
  ip->record_only = true;
  ip->pending_host = NULL;
  ip->pending_info = info;
  rl_ip_record_variables(ip);
  rl_status_t status = rl_funnel_launch(ip->funnel, kernel, grid, block, 0,
                                        args, arg_count, NULL, NULL);
  ip->record_only = false;
  if (status) {
    char what[96];
    snprintf(what, sizeof(what), "%s refused by the funnel", call);
    rl_ip_fail(status, what);
    rl_ip_note(ip, 1, "%s", what);
    return;
  }
  ++ip->copies;
}

// A recorded device write into host buffer |b| (not an upload of the
// host's own bytes): the hook settles the host buffers when it returns
// (rl_interposer_t.settle_pending).
static void rl_ip_settle_after(rl_interposer_t* ip, const rl_ip_buffer_t* b) {
  if (rl_ip_memory_host(b->memory) && !ip->uploading &&
      !rl_test_fault("copy-settle-off", 0)) {
    ip->settle_pending = true;
  }
}

// The recorded buffer a built-in write of |size| bytes at |dst| lands in,
// with the copy kernels loaded and the earlier host uploads recorded; NULL
// (and noted when it matters) when the write is not recorded: outside
// every buffer, empty, past the buffer's end, or without copy kernels.
static rl_ip_buffer_t* rl_ip_write_target(rl_interposer_t* ip,
                                          const char* call, uint64_t dst,
                                          uint64_t size) {
  rl_ip_buffer_t* b = rl_ip_buffer_at(ip, dst);
  if (!b || size == 0) return NULL;
  if (!rl_ip_buffer_range(ip, dst, size)) {
    rl_ip_note(ip, 1, "%s of %llu bytes into buf%u runs past its end", call,
               (unsigned long long)size, b->index);
    return NULL;
  }
  if (!rl_ip_copy_load(ip)) {
    rl_ip_note(ip, 1, "%s into buf%u inside the window (no copy kernels)", call,
               b->index);
    return NULL;
  }
  rl_ip_host_uploads(ip);
  return b;
}

// Records a device write of |size| bytes at |dst| from device address
// |src| (|host| NULL) or from the host bytes |host|; lock held, window
// open. A write outside every recorded buffer does not touch the capture.
void rl_ip_record_copy(rl_interposer_t* ip, const char* call, uint64_t dst,
                       uint64_t src, const void* host, uint64_t size) {
  rl_ip_buffer_t* b = rl_ip_write_target(ip, call, dst, size);
  if (!b) return;
  uint64_t source = src;
  if (host) {  // staged: a read-only buffer holding the program's bytes
    RL_IP_REAL(hipMalloc);
    void* staging = NULL;
    rl_status_t status = RL_ARRAY_RESERVE(&ip->staging, &ip->staging_capacity,
                                          ip->staging_count + 1);
    if (!status &&
        (!real_hipMalloc || real_hipMalloc(&staging, size) || !staging)) {
      status = RL_STATUS(RL_STATUS_UNAVAILABLE,
                         "hipMalloc of a %llu-byte staging buffer failed",
                         (unsigned long long)size);
    }
    uint32_t index = 0;
    char name[32];
    snprintf(name, sizeof(name), "upload%u", ip->staging_count);
    if (!status) {
      ip->staging[ip->staging_count++].base = staging;
      ip->pending_address = (uint64_t)(uintptr_t)staging;
      status = rl_funnel_buffer(ip->funnel, name, size, 256,
                                RL_BUFFER_ROLE_WEIGHTS, false, &index, &source);
    }
    if (!status) status = rl_funnel_upload(ip->funnel, index, 0, host, size);
    if (status) {
      rl_ip_fail(status, call);
      rl_ip_note(ip, 1, "%s into buf%u: the host bytes were not staged", call,
                 b->index);
      return;
    }
  } else {
    rl_ip_buffer_t* s = rl_ip_buffer_range(ip, src, size);
    if (!s) {
      rl_ip_note(ip, 1,
                 "%s into buf%u from device memory outside every "
                 "recorded buffer",
                 call, b->index);
      return;
    }
    rl_ip_mark_used(ip, s);
  }
  rl_ip_mark_used(ip, b);
  rl_ip_settle_after(ip, b);
  const rl_funnel_arg_t args[3] = {
      rl_funnel_arg_pointer_declared(dst, RL_EFFECT_WRITE, 0, size),
      rl_funnel_arg_pointer_declared(source, RL_EFFECT_READ, 0, size),
      rl_funnel_arg_u32((uint32_t)size)};
  rl_ip_record_builtin(ip, ip->copy_kernel, ip->copy_info, size, args, 3, call);
}

// Records a fill of |size| bytes at |dst| with the |width|-byte |pattern|.
void rl_ip_record_fill(rl_interposer_t* ip, const char* call, uint64_t dst,
                       uint32_t pattern, uint32_t width, uint64_t size) {
  rl_ip_buffer_t* b = rl_ip_write_target(ip, call, dst, size);
  if (!b) return;
  rl_ip_mark_used(ip, b);
  rl_ip_settle_after(ip, b);
  const rl_funnel_arg_t args[4] = {
      rl_funnel_arg_pointer_declared(dst, RL_EFFECT_WRITE, 0, size),
      rl_funnel_arg_u32(pattern), rl_funnel_arg_u32(width),
      rl_funnel_arg_u32((uint32_t)size)};
  rl_ip_record_builtin(ip, ip->fill_kernel, ip->fill_info, size, args, 4, call);
}

// A copy the program makes, classified by address whatever |kind| says
// (docs/capture-interposer.md, "Copies by address"): a destination inside
// a recorded buffer is a device write the capture records; a source inside
// a recorded buffer is device memory, recorded as a device-to-device copy
// from that buffer and offset (an engine that copies a row of its
// device-resident table with hipMemcpyHostToDevice gets a copy that can be
// bound, not a frozen upload). Any other source is host bytes, except for a
// device-to-device kind (device memory outside every buffer) and
// hipMemcpyDefault (an address only the runtime can classify): refused.
static void rl_ip_copy(rl_interposer_t* ip, const char* call, void* dst,
                       const void* src, size_t size, hipMemcpyKind kind) {
  const uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
  if (size == 0 || !rl_ip_buffer_at(ip, d)) return;  // no device write seen
  if (!rl_ip_window_write(ip, false)) return;
  bool device = rl_ip_buffer_at(ip, s) != NULL;
  // Negative control of the classification: the kind decides again.
  if (rl_test_fault("copy-by-kind", 0) && kind == hipMemcpyHostToDevice) {
    device = false;
  }
  if (device || kind == hipMemcpyDeviceToDevice) {
    rl_ip_record_copy(ip, call, d, s, NULL, size);
  } else if (kind == hipMemcpyDefault) {
    rl_ip_note(ip, 1,
               "%s (hipMemcpyDefault) into a recorded buffer from an "
               "address the capture cannot classify",
               call);
  } else {
    rl_ip_record_copy(ip, call, d, 0, src, size);
  }
}

// A fill of |size| bytes at |dst|: recorded when it writes a recorded
// buffer inside the window.
static void rl_ip_fill(rl_interposer_t* ip, const char* call, void* dst,
                       uint32_t pattern, uint32_t width, uint64_t size) {
  const uint64_t d = (uint64_t)(uintptr_t)dst;
  if (size == 0 || !rl_ip_buffer_at(ip, d)) return;
  if (rl_ip_window_write(ip, true)) {
    rl_ip_record_fill(ip, call, d, pattern, width, size);
  }
}

//===----------------------------------------------------------------------===//
// The device writes a program makes without a kernel
//===----------------------------------------------------------------------===//

RL_IP_EXPORT hipError_t hipMemcpy(void* dst, const void* src, size_t size,
                                  hipMemcpyKind kind) {
  RL_IP_ENTER();
  RL_IP_REAL(hipMemcpy);
  if (!real_hipMemcpy) return rl_ip_leave(hipErrorNotSupported);
  if (rl_ip_on) rl_ip_copy(ip, "hipMemcpy", dst, src, size, kind);
  return rl_ip_leave(real_hipMemcpy(dst, src, size, kind));
}

// An asynchronous copy on |stream|: a graph node while the stream captures.
static void rl_ip_copy_on(rl_interposer_t* ip, const char* call, void* dst,
                          const void* src, size_t size, hipMemcpyKind kind,
                          hipStream_t stream) {
  rl_ip_graph_t* g = rl_ip_graph_capturing(ip, stream);
  if (g) {
    rl_ip_graph_copy(ip, g, dst, src, size, kind);
  } else {
    rl_ip_copy(ip, call, dst, src, size, kind);
  }
}

static void rl_ip_fill_on(rl_interposer_t* ip, const char* call, void* dst,
                          uint32_t pattern, uint32_t width, uint64_t size,
                          hipStream_t stream) {
  rl_ip_graph_t* g = rl_ip_graph_capturing(ip, stream);
  if (g) {
    rl_ip_graph_fill(g, dst, pattern, width, size);
  } else {
    rl_ip_fill(ip, call, dst, pattern, width, size);
  }
}

// Forwards |name| after |observe| (a statement using the parameters) ran
// with the lock held and recording on.
#define RL_IP_WRITE_FORWARD(name, observe, params, ...)         \
  RL_IP_EXPORT hipError_t name params {                         \
    RL_IP_ENTER();                                              \
    RL_IP_REAL(name);                                           \
    if (!real_##name) return rl_ip_leave(hipErrorNotSupported); \
    if (rl_ip_on) observe;                                      \
    return rl_ip_leave(real_##name(__VA_ARGS__));               \
  }

RL_IP_WRITE_FORWARD(hipMemcpyAsync,
                    rl_ip_copy_on(ip, "hipMemcpyAsync", dst, src, size, kind,
                                  stream),
                    (void* dst, const void* src, size_t size,
                     hipMemcpyKind kind, hipStream_t stream),
                    dst, src, size, kind, stream)
RL_IP_WRITE_FORWARD(hipMemcpyWithStream,
                    rl_ip_copy_on(ip, "hipMemcpyWithStream", dst, src, size,
                                  kind, stream),
                    (void* dst, const void* src, size_t size,
                     hipMemcpyKind kind, hipStream_t stream),
                    dst, src, size, kind, stream)
RL_IP_WRITE_FORWARD(hipMemcpyHtoD,
                    rl_ip_copy(ip, "hipMemcpyHtoD", dst, src, size,
                               hipMemcpyHostToDevice),
                    (hipDeviceptr_t dst, void* src, size_t size), dst, src,
                    size)
RL_IP_WRITE_FORWARD(hipMemcpyHtoDAsync,
                    rl_ip_copy_on(ip, "hipMemcpyHtoDAsync", dst, src, size,
                                  hipMemcpyHostToDevice, stream),
                    (hipDeviceptr_t dst, void* src, size_t size,
                     hipStream_t stream),
                    dst, src, size, stream)
RL_IP_WRITE_FORWARD(hipMemcpyDtoD,
                    rl_ip_copy(ip, "hipMemcpyDtoD", dst, src, size,
                               hipMemcpyDeviceToDevice),
                    (hipDeviceptr_t dst, hipDeviceptr_t src, size_t size), dst,
                    src, size)
RL_IP_WRITE_FORWARD(hipMemcpyDtoDAsync,
                    rl_ip_copy_on(ip, "hipMemcpyDtoDAsync", dst, src, size,
                                  hipMemcpyDeviceToDevice, stream),
                    (hipDeviceptr_t dst, hipDeviceptr_t src, size_t size,
                     hipStream_t stream),
                    dst, src, size, stream)
RL_IP_WRITE_FORWARD(hipMemset,
                    rl_ip_fill(ip, "hipMemset", dst, (uint8_t)value, 1, size),
                    (void* dst, int value, size_t size), dst, value, size)
RL_IP_WRITE_FORWARD(hipMemsetAsync,
                    rl_ip_fill_on(ip, "hipMemsetAsync", dst, (uint8_t)value, 1,
                                  size, stream),
                    (void* dst, int value, size_t size, hipStream_t stream),
                    dst, value, size, stream)
RL_IP_WRITE_FORWARD(hipMemsetD8,
                    rl_ip_fill(ip, "hipMemsetD8", dst, value, 1, count),
                    (hipDeviceptr_t dst, unsigned char value, size_t count),
                    dst, value, count)
RL_IP_WRITE_FORWARD(hipMemsetD16,
                    rl_ip_fill(ip, "hipMemsetD16", dst, value, 2,
                               (uint64_t)count * 2u),
                    (hipDeviceptr_t dst, unsigned short value, size_t count),
                    dst, value, count)
RL_IP_WRITE_FORWARD(hipMemsetD32,
                    rl_ip_fill(ip, "hipMemsetD32", dst, (uint32_t)value, 4,
                               (uint64_t)count * 4u),
                    (hipDeviceptr_t dst, int value, size_t count), dst, value,
                    count)

// Strided copies (hipMemcpy2D/3D): recorded row by row, each row an
// ordinary copy of |width| bytes (a graph node per row while capturing).
static void rl_ip_copy_rows(rl_interposer_t* ip, const char* call,
                            uint8_t* dst, size_t dpitch, size_t dslice,
                            const uint8_t* src, size_t spitch, size_t sslice,
                            size_t width, size_t height, size_t depth,
                            hipMemcpyKind kind, hipStream_t stream) {
  if (width > dpitch || width > spitch) return;  // refused by the runtime
  for (size_t z = 0; z < depth; ++z) {
    for (size_t y = 0; y < height; ++y) {
      rl_ip_copy_on(ip, call, dst + z * dslice + y * dpitch,
                    src + z * sslice + y * spitch, width, kind, stream);
    }
  }
}

static void rl_ip_copy_3d(rl_interposer_t* ip, const char* call,
                          const hipMemcpy3DParms* p, hipStream_t stream) {
  if (!p || p->srcArray || p->dstArray || !p->dstPtr.ptr || !p->srcPtr.ptr) {
    return;  // refused by the runtime
  }
  const hipPitchedPtr* d = &p->dstPtr;
  const hipPitchedPtr* s = &p->srcPtr;
  const size_t dslice = d->pitch * d->ysize, sslice = s->pitch * s->ysize;
  rl_ip_copy_rows(ip, call,
                  (uint8_t*)d->ptr + p->dstPos.z * dslice +
                      p->dstPos.y * d->pitch + p->dstPos.x,
                  d->pitch, dslice,
                  (const uint8_t*)s->ptr + p->srcPos.z * sslice +
                      p->srcPos.y * s->pitch + p->srcPos.x,
                  s->pitch, sslice, p->extent.width, p->extent.height,
                  p->extent.depth, p->kind, stream);
}

RL_IP_WRITE_FORWARD(hipMemcpy2D,
                    rl_ip_copy_rows(ip, "hipMemcpy2D", dst, dpitch, 0, src,
                                    spitch, 0, width, height, 1, kind, NULL),
                    (void* dst, size_t dpitch, const void* src, size_t spitch,
                     size_t width, size_t height, hipMemcpyKind kind),
                    dst, dpitch, src, spitch, width, height, kind)
RL_IP_WRITE_FORWARD(hipMemcpy2DAsync,
                    rl_ip_copy_rows(ip, "hipMemcpy2DAsync", dst, dpitch, 0,
                                    src, spitch, 0, width, height, 1, kind,
                                    stream),
                    (void* dst, size_t dpitch, const void* src, size_t spitch,
                     size_t width, size_t height, hipMemcpyKind kind,
                     hipStream_t stream),
                    dst, dpitch, src, spitch, width, height, kind, stream)
RL_IP_WRITE_FORWARD(hipMemcpy3D, rl_ip_copy_3d(ip, "hipMemcpy3D", p, NULL),
                    (const struct hipMemcpy3DParms* p), p)
RL_IP_WRITE_FORWARD(hipMemcpy3DAsync,
                    rl_ip_copy_3d(ip, "hipMemcpy3DAsync", p, stream),
                    (const struct hipMemcpy3DParms* p, hipStream_t stream), p,
                    stream)
// Copies into an array (interposer_texture.c): its rows lie the
// recorded buffer's pitch apart. hipMemcpyToArray fills |count| bytes row
// after row from (wOffset, hOffset); only copies inside the array are
// recorded (the runtime refuses the others).
static void rl_ip_copy_to_array(rl_interposer_t* ip, const char* call,
                                hipArray* array, size_t x, size_t y,
                                const uint8_t* src, size_t spitch,
                                size_t width, size_t height, size_t count,
                                hipMemcpyKind kind) {
  size_t pitch = 0, rows = 0;
  if (!rl_ip_array_rows(ip, array, &pitch, &rows) || !src) return;
  uint8_t* data = array->data;
  if (height > 0) {  // hipMemcpy2DToArray
    if (x + width > pitch || y + height > rows) return;
    rl_ip_copy_rows(ip, call, data + y * pitch + x, pitch, 0, src, spitch, 0,
                    width, height, 1, kind, NULL);
    return;
  }
  while (count > 0 && y < rows && x < pitch) {  // hipMemcpyToArray
    size_t n = pitch - x < count ? pitch - x : count;
    rl_ip_copy_on(ip, call, data + y * pitch + x, src, n, kind, NULL);
    src += n;
    count -= n;
    x = 0;
    ++y;
  }
}

RL_IP_WRITE_FORWARD(hipMemcpy2DToArray,
                    rl_ip_copy_to_array(ip, "hipMemcpy2DToArray", dst,
                                        wOffset, hOffset, src, spitch, width,
                                        height, 0, kind),
                    (hipArray* dst, size_t wOffset, size_t hOffset,
                     const void* src, size_t spitch, size_t width,
                     size_t height, hipMemcpyKind kind),
                    dst, wOffset, hOffset, src, spitch, width, height, kind)
// hipMemcpyToArray is deprecated in HIP's header; programs still call it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
RL_IP_WRITE_FORWARD(hipMemcpyToArray,
                    rl_ip_copy_to_array(ip, "hipMemcpyToArray", dst, wOffset,
                                        hOffset, src, 0, 0, 0, count, kind),
                    (hipArray* dst, size_t wOffset, size_t hOffset,
                     const void* src, size_t count, hipMemcpyKind kind),
                    dst, wOffset, hOffset, src, count, kind)
#pragma GCC diagnostic pop
RL_IP_WRITE_FORWARD(hipMemcpyPeer,
                    rl_ip_copy(ip, "hipMemcpyPeer", dst, src, size,
                               hipMemcpyDeviceToDevice),
                    (void* dst, int dst_device, const void* src,
                     int src_device, size_t size),
                    dst, dst_device, src, src_device, size)
RL_IP_WRITE_FORWARD(hipMemcpyPeerAsync,
                    rl_ip_copy_on(ip, "hipMemcpyPeerAsync", dst, src, size,
                                  hipMemcpyDeviceToDevice, stream),
                    (void* dst, int dst_device, const void* src,
                     int src_device, size_t size, hipStream_t stream),
                    dst, dst_device, src, src_device, size, stream)
