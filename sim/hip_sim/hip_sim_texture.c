// sim/hip_sim/hip_sim_texture.c — texture objects and arrays of the HIP
// runtime over the simulator (hip_sim.h; docs/hip-runtime.md "Textures").
//
// A hipTextureObject_t is the device address of HIP's texture object: 20
// dwords, the 8-dword image resource descriptor (T#) at dword 0, dword 10
// the width (HIP's device library reads it there to snap coordinates for
// point filtering: `s_load_b32 ... 0x28` in a tex2D<float> kernel built by
// redline-hipcc), and the 4-dword sampler descriptor (S#) at dword 12
// (<hip/texture_types.h>: HIP_SAMPLER_OBJECT_OFFSET_DWORD). The kernel reads
// both with scalar loads through the pointer, so the object is an ordinary
// device allocation: captures record it as a buffer. Field layout: gfx11
// SQ_IMG_RSRC_WORD0..4 and SQ_IMG_SAMP_WORD0..2 (ROCR-Runtime
// src/image/resource_gfx11.h); sim/isa/isa_image.c reads the same
// fields and refuses any it does not model.
//
// Modelled: hipResourceTypeArray (hipMallocArray) and
// hipResourceTypePitch2D over 1, 2 or 4 channels of 8/16/32-bit signed or
// unsigned integers or 32-bit floats, point filtering, wrap and clamp
// addressing, normalized or unnormalized coordinates, element-type reads.
// Anything else returns hipErrorNotSupported (linear resources, whose
// tex1Dfetch compiles to buffer_load_format, which is not modelled; linear
// filtering; mirror and border addressing; sRGB) or hipErrorInvalidValue
// (a bad descriptor), with a message naming the field.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/hip_sim/hip_sim_internal.h"

enum {
  RL_HIP_TEX_DWORDS = 20,    // HIP_TEXTURE_OBJECT_SIZE_DWORD
  RL_HIP_TEX_SAMPLER = 12,   // HIP_SAMPLER_OBJECT_OFFSET_DWORD
  RL_HIP_TEX_WIDTH = 10,     // the width HIP's device library reads
  RL_HIP_TEX_MAX = 16384,    // WIDTH and HEIGHT are 14-bit fields
  RL_HIP_ARRAY_ALIGN = 256,  // base address >> 8 in the T#; row pitch
};

// A refusal or bad argument: recorded (rl_hip_sim_error) and printed on
// stderr, since the program sees only the error code.
static void rl_hip_tex_say(const char* format, ...)
    __attribute__((format(printf, 1, 2)));
static void rl_hip_tex_say(const char* format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  rl_hip_error("%s", message);
  fprintf(stderr, "redline hip: %s\n", message);
}

// The gfx11 image format code (resource_gfx11.h, enum FORMAT) of a
// channel descriptor, and its bytes per texel; 0 when not modelled: 1, 2
// or 4 channels of equal width, 8/16/32-bit signed or unsigned, 32-bit
// float.
static uint32_t rl_hip_tex_format(const hipChannelFormatDesc* d,
                                  uint32_t* out_bytes, uint32_t* out_channels) {
  int channels = 0;
  const int bits[4] = {d->x, d->y, d->z, d->w};
  for (int c = 0; c < 4; ++c) {
    if (bits[c] == bits[0] && bits[c] != 0 && c == channels) ++channels;
    else if (bits[c] != 0) return 0;
  }
  if (channels == 0 || channels == 3) return 0;
  int row = channels == 1 ? 0 : channels == 2 ? 1 : 2;
  static const uint32_t codes[3][3][2] = {
      // [channels][8, 16, 32 bits][unsigned, signed]
      {{5, 6}, {11, 12}, {20, 21}},
      {{18, 19}, {27, 28}, {48, 49}},
      {{46, 47}, {55, 56}, {61, 62}}};
  static const uint32_t floats[3] = {22, 50, 63};
  int width = bits[0] == 8 ? 0 : bits[0] == 16 ? 1 : bits[0] == 32 ? 2 : -1;
  if (width < 0) return 0;
  *out_bytes = (uint32_t)(bits[0] / 8 * channels);
  *out_channels = (uint32_t)channels;
  if (d->f == hipChannelFormatKindUnsigned) return codes[row][width][0];
  if (d->f == hipChannelFormatKindSigned) return codes[row][width][1];
  if (d->f == hipChannelFormatKindFloat && width == 2) return floats[row];
  return 0;
}

static size_t rl_hip_array_pitch(const hipArray* a, uint32_t bytes) {
  size_t row = (size_t)a->width * bytes;
  return (row + RL_HIP_ARRAY_ALIGN - 1) / RL_HIP_ARRAY_ALIGN *
         RL_HIP_ARRAY_ALIGN;
}

RL_HIP_EXPORT hipError_t hipMallocArray(hipArray** array,
                                        const hipChannelFormatDesc* desc,
                                        size_t width, size_t height,
                                        unsigned int flags) {
  uint32_t bytes = 0, channels = 0;
  if (!array || !desc || width == 0) return hipErrorInvalidValue;
  if (flags != hipArrayDefault) {
    rl_hip_tex_say("hipMallocArray: flags 0x%x are not supported (only "
                 "hipArrayDefault)", flags);
    return hipErrorNotSupported;
  }
  if (rl_hip_tex_format(desc, &bytes, &channels) == 0) {
    rl_hip_tex_say("hipMallocArray: channel format {%d,%d,%d,%d} kind %d is "
                 "not supported (1, 2 or 4 equal channels: 8/16/32-bit "
                 "integers, 32-bit floats)", desc->x,
                 desc->y, desc->z, desc->w, (int)desc->f);
    return hipErrorNotSupported;
  }
  if (width > RL_HIP_TEX_MAX || height > RL_HIP_TEX_MAX) {
    rl_hip_tex_say("hipMallocArray: %zu x %zu exceeds %d texels per side",
                 width, height, RL_HIP_TEX_MAX);
    return hipErrorInvalidValue;
  }
  hipArray* a = calloc(1, sizeof(*a));
  if (!a) return hipErrorOutOfMemory;
  a->desc = *desc;
  a->width = (unsigned int)width;
  a->height = (unsigned int)height;
  a->NumChannels = channels;
  a->textureType = height ? hipTextureType2D : hipTextureType1D;
  size_t rows = height ? height : 1;
  hipError_t error = hipMalloc(&a->data, rl_hip_array_pitch(a, bytes) * rows);
  if (error != hipSuccess) {
    free(a);
    return error;
  }
  *array = a;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipFreeArray(hipArray* array) {
  if (!array) return hipErrorInvalidValue;
  hipError_t error = hipFree(array->data);
  if (error == hipSuccess) free(array);
  return error;
}

// The row pitch of |array| in bytes, 0 for a bad array.
static size_t rl_hip_array_row_pitch(const hipArray* array) {
  uint32_t bytes = 0, channels = 0;
  if (!array || !array->data) return 0;
  if (rl_hip_tex_format(&array->desc, &bytes, &channels) == 0) return 0;
  return rl_hip_array_pitch(array, bytes);
}

RL_HIP_EXPORT hipError_t hipMemcpy2DToArray(hipArray* dst, size_t wOffset,
                                            size_t hOffset, const void* src,
                                            size_t spitch, size_t width,
                                            size_t height,
                                            hipMemcpyKind kind) {
  size_t pitch = rl_hip_array_row_pitch(dst);
  if (pitch == 0) return hipErrorInvalidValue;
  size_t rows = dst->height ? dst->height : 1;
  if (wOffset + width > pitch || hOffset + height > rows) {
    rl_hip_tex_say("hipMemcpy2DToArray: %zu x %zu bytes at (%zu, %zu) do not "
                 "fit the array's rows of %zu bytes x %zu", width, height,
                 wOffset, hOffset, pitch, rows);
    return hipErrorInvalidValue;
  }
  char* base = (char*)dst->data + hOffset * pitch + wOffset;
  return hipMemcpy2D(base, pitch, src, spitch, width, height, kind);
}

RL_HIP_EXPORT hipError_t hipMemcpyToArray(hipArray* dst, size_t wOffset,
                                          size_t hOffset, const void* src,
                                          size_t count, hipMemcpyKind kind) {
  uint32_t bytes = 0, channels = 0;
  size_t pitch = rl_hip_array_row_pitch(dst);
  if (pitch == 0 || !src) return hipErrorInvalidValue;
  rl_hip_tex_format(&dst->desc, &bytes, &channels);
  const size_t row = (size_t)dst->width * bytes;
  const size_t rows = dst->height ? dst->height : 1;
  const char* from = src;
  // Row-major over the array's rows: each row's |row| bytes, pitch apart.
  while (count > 0) {
    if (hOffset >= rows || wOffset >= row) {
      rl_hip_tex_say("hipMemcpyToArray: the copy runs past the array's %zu "
                   "rows of %zu bytes", rows, row);
      return hipErrorInvalidValue;
    }
    size_t n = row - wOffset < count ? row - wOffset : count;
    hipError_t error = hipMemcpy((char*)dst->data + hOffset * pitch + wOffset,
                                 from, n, kind);
    if (error != hipSuccess) return error;
    from += n;
    count -= n;
    wOffset = 0;
    ++hOffset;
  }
  return hipSuccess;
}

// The sampler CLAMP code of a HIP address mode, or -1.
static int rl_hip_tex_clamp(enum hipTextureAddressMode mode) {
  if (mode == hipAddressModeWrap) return 0;   // SQ_TEX_WRAP
  if (mode == hipAddressModeClamp) return 2;  // SQ_TEX_CLAMP_LAST_TEXEL
  return -1;
}

// Refuses a texture description (hipErrorNotSupported).
static hipError_t rl_hip_tex_refuse(const char* what, int value) {
  rl_hip_tex_say("hipCreateTextureObject: %s %d is not supported by the "
                 "simulator runtime (hipErrorNotSupported)", what, value);
  return hipErrorNotSupported;
}

RL_HIP_EXPORT hipError_t hipCreateTextureObject(
    hipTextureObject_t* texture, const hipResourceDesc* resource,
    const hipTextureDesc* desc, const struct hipResourceViewDesc* view) {
  if (!texture || !resource || !desc) return hipErrorInvalidValue;
  if (view) return rl_hip_tex_refuse("a resource view, pointer", 1);
  uint64_t base = 0;
  size_t width = 0, height = 0, pitch_bytes = 0;
  hipChannelFormatDesc format_desc;
  if (resource->resType == hipResourceTypeArray) {
    const hipArray* a = resource->res.array.array;
    pitch_bytes = rl_hip_array_row_pitch(a);
    if (pitch_bytes == 0) return hipErrorInvalidValue;
    base = rl_hip_device_address(a->data);
    width = a->width;
    height = a->height ? a->height : 1;
    format_desc = a->desc;
  } else if (resource->resType == hipResourceTypePitch2D) {
    base = rl_hip_device_address(resource->res.pitch2D.devPtr);
    width = resource->res.pitch2D.width;
    height = resource->res.pitch2D.height;
    pitch_bytes = resource->res.pitch2D.pitchInBytes;
    format_desc = resource->res.pitch2D.desc;
  } else {
    return rl_hip_tex_refuse("resType (only hipResourceTypeArray 0 and "
                             "hipResourceTypePitch2D 3)",
                             (int)resource->resType);
  }
  uint32_t bytes = 0, channels = 0;
  uint32_t format = rl_hip_tex_format(&format_desc, &bytes, &channels);
  if (format == 0) {
    return rl_hip_tex_refuse("channel format (1, 2 or 4 equal channels: "
                             "8/16/32-bit integers, 32-bit floats) kind",
                             (int)format_desc.f);
  }
  bool one_d = resource->resType == hipResourceTypeArray &&
               resource->res.array.array->height == 0;
  if (width == 0 || height == 0 || width > RL_HIP_TEX_MAX ||
      height > RL_HIP_TEX_MAX || pitch_bytes % bytes != 0 ||
      pitch_bytes / bytes < width || pitch_bytes / bytes > RL_HIP_TEX_MAX ||
      base % RL_HIP_ARRAY_ALIGN != 0) {
    rl_hip_tex_say("hipCreateTextureObject: %zu x %zu texels, pitch %zu bytes "
                 "at 0x%llx: sizes must be 1-%d, the pitch a multiple of the "
                 "texel size and the base %d-byte aligned", width, height,
                 pitch_bytes, (unsigned long long)base, RL_HIP_TEX_MAX,
                 RL_HIP_ARRAY_ALIGN);
    return hipErrorInvalidValue;
  }
  if (desc->filterMode != hipFilterModePoint) {
    return rl_hip_tex_refuse("filterMode (only hipFilterModePoint 0)",
                             (int)desc->filterMode);
  }
  if (desc->readMode != hipReadModeElementType &&
      format_desc.f != hipChannelFormatKindFloat) {
    return rl_hip_tex_refuse("readMode on integer channels",
                             (int)desc->readMode);
  }
  if (desc->sRGB) return rl_hip_tex_refuse("sRGB", desc->sRGB);
  int clamp[2];
  for (int a = 0; a < 2; ++a) {
    clamp[a] = rl_hip_tex_clamp(desc->addressMode[a]);
    if (clamp[a] < 0 && (a == 0 || !one_d)) {
      return rl_hip_tex_refuse("addressMode (only hipAddressModeWrap 0 and "
                               "hipAddressModeClamp 1)",
                               (int)desc->addressMode[a]);
    }
    if (clamp[a] < 0) clamp[a] = 2;
  }
  uint32_t words[RL_HIP_TEX_DWORDS] = {0};
  const uint32_t w1 = (uint32_t)(width - 1), h1 = (uint32_t)(height - 1);
  words[0] = (uint32_t)(base >> 8);
  words[1] = (uint32_t)((base >> 40) & 0xff) | format << 20 | (w1 & 3) << 30;
  words[2] = (w1 >> 2) & 0xfff;
  words[2] |= (h1 & 0x3fff) << 14;
  // DST_SEL: the channels the format has, then 0 (1 for W).
  uint32_t sel = 0;
  for (uint32_t c = 0; c < 4; ++c) {
    uint32_t s = c < channels ? 4 + c : (c == 3 ? 1 : 0);
    sel |= s << (3 * c);
  }
  words[3] = sel | (one_d ? 8u : 9u) << 28;  // TYPE: SQ_RSRC_IMG_1D / 2D
  words[4] = (uint32_t)(pitch_bytes / bytes - 1) & 0x3fff;
  words[RL_HIP_TEX_WIDTH] = (uint32_t)width;
  uint32_t* s = &words[RL_HIP_TEX_SAMPLER];
  s[0] = (uint32_t)clamp[0] | (uint32_t)clamp[1] << 3 |
         (uint32_t)clamp[1] << 6 | (desc->normalizedCoords ? 0u : 1u) << 15;
  void* object = NULL;
  hipError_t error = hipMalloc(&object, sizeof(words));
  if (error != hipSuccess) return error;
  error = hipMemcpy(object, words, sizeof(words), hipMemcpyHostToDevice);
  if (error != hipSuccess) {
    hipFree(object);
    return error;
  }
  *texture = (hipTextureObject_t)object;
  return hipSuccess;
}

RL_HIP_EXPORT hipError_t hipDestroyTextureObject(hipTextureObject_t texture) {
  if (!texture) return hipSuccess;
  return hipFree((void*)texture);
}
