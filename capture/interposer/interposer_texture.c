// capture/interposer/interposer_texture.c — arrays and texture objects:
// device memory the HIP runtime allocates itself (capture/interposer/
// interposer_internal.h; docs/capture-interposer.md "Textures").
//
// hipMallocArray's texels and hipCreateTextureObject's 20-dword object
// (the image and sampler descriptors a kernel reads through the
// hipTextureObject_t pointer) are allocated inside the runtime, where the
// interposer's hipMalloc does not see them. They are recorded here as
// buffers named "arrayN" and "textureN" (their kind), sized by the
// runtime's own hipMemGetAddressRange, with their bytes read at the next
// recorded launch like any buffer's. Like hipFree'd buffers they stay
// allocated until the capture is written (no address reuse).
//
// The image descriptor embeds the image's address >> 8, which a replay
// placing the image elsewhere must relocate: when the capture is written,
// each texture object with recorded contents gets a descriptor binding
// (redline/capture.h rl_capture_descriptor_t) naming the buffer its T#'s
// address lies in, which every route patches (rl_ip_texture_descriptors).
#include <stdio.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"

// Records the runtime allocation holding |ptr| as buffer "KINDN" with
// release handle |handle|.
static void rl_ip_texture_record(rl_interposer_t* ip, void* ptr, void* handle,
                                 rl_ip_memory_t memory, uint64_t image,
                                 const char* call) {
  if (!ptr || ip->buffer_count == RL_IP_MAX || ip->window_closed) return;
  RL_IP_REAL(hipMemGetAddressRange);
  hipDeviceptr_t base = NULL;
  size_t size = 0;
  if (!real_hipMemGetAddressRange ||
      real_hipMemGetAddressRange(&base, &size, ptr) || base != ptr ||
      size == 0) {
    if (ip->window_open) {
      rl_ip_note(ip, 0, "%s: the runtime did not report its allocation's "
                 "size (hipMemGetAddressRange), so it was not recorded",
                 call);
    }
    return;
  }
  rl_ip_buffer_t* b = &ip->buffers[ip->buffer_count];
  char name[32];
  snprintf(name, sizeof(name), "%s%u",
           memory == RL_IP_MEMORY_ARRAY ? "array" : "texture",
           ip->buffer_count);
  ip->pending_address = (uint64_t)(uintptr_t)ptr;
  uint64_t address = 0;
  uint32_t index = 0;
  // The runtime has written the allocation (a texture object's
  // descriptors): the funnel must not clear it (interposer_forward.c).
  ip->adopting = true;
  rl_status_t status =
      rl_funnel_buffer(ip->funnel, name, size, 256, RL_BUFFER_ROLE_STATE,
                       false, &index, &address);
  ip->adopting = false;
  if (status) {
    rl_ip_fail(status, call);
    if (ip->window_open) rl_ip_note(ip, 0, "an allocation was not recorded");
    return;
  }
  *b = (rl_ip_buffer_t){.base = ptr, .size = size, .index = index,
                        .memory = memory, .handle = handle,
                        .image_address = image};
  ++ip->buffer_count;
}

void rl_ip_texture_release(rl_interposer_t* ip, rl_ip_buffer_t* b) {
  RL_IP_REAL(hipFreeArray);
  RL_IP_REAL(hipDestroyTextureObject);
  if (b->memory == RL_IP_MEMORY_ARRAY && real_hipFreeArray) {
    (void)real_hipFreeArray(b->handle);
  } else if (b->memory == RL_IP_MEMORY_TEXTURE &&
             real_hipDestroyTextureObject) {
    (void)real_hipDestroyTextureObject((hipTextureObject_t)b->handle);
  }
}

void rl_ip_texture_descriptors(rl_interposer_t* ip, rl_capture_t* capture) {
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    const rl_ip_buffer_t* t = &ip->buffers[i];
    if (t->memory != RL_IP_MEMORY_TEXTURE || t->index >= capture->buffer_count) {
      continue;
    }
    // No contents: no recorded launch came after it was created, so none
    // reads it.
    const uint8_t* bytes = capture->buffers[t->index].initial;
    if (!bytes || capture->buffers[t->index].size < RL_DESCRIPTOR_IMAGE_SIZE) {
      continue;
    }
    // The T# base address (docs/capture-format.md, DESCRIPTORS).
    uint32_t word0 = 0, word1 = 0;
    memcpy(&word0, bytes, 4);
    memcpy(&word1, bytes + 4, 4);
    uint64_t address = (uint64_t)word0 << 8 | (uint64_t)(word1 & 0xffu) << 40;
    const rl_ip_buffer_t* image = NULL;
    for (uint32_t j = 0; j < ip->buffer_count; ++j) {
      uint64_t base = (uint64_t)(uintptr_t)ip->buffers[j].base;
      if (address >= base && address - base < ip->buffers[j].size) {
        image = &ip->buffers[j];
      }
    }
    if (!image) {
      rl_ip_note(ip, 0,
                 "texture object texture%u's image at 0x%llx is in no "
                 "recorded buffer",
                 t->index, (unsigned long long)address);
      continue;
    }
    const rl_capture_descriptor_t descriptor = {
        .buffer = t->index,
        .offset = 0,
        .layout = RL_DESCRIPTOR_IMAGE_GFX11,
        .image = image->index,
        .image_offset = address - (uint64_t)(uintptr_t)image->base};
    rl_status_t status = rl_capture_add_descriptor(capture, &descriptor);
    if (status) {
      rl_ip_note(ip, 0, "texture object texture%u: %s", t->index,
                 rl_status_message(status));
      rl_status_free(status);
    }
  }
}

bool rl_ip_array_rows(rl_interposer_t* ip, const hipArray* array,
                      size_t* out_pitch, size_t* out_rows) {
  if (!array) return false;
  const rl_ip_buffer_t* b =
      rl_ip_buffer_at(ip, (uint64_t)(uintptr_t)array->data);
  if (!b || b->memory != RL_IP_MEMORY_ARRAY || b->base != array->data) {
    return false;
  }
  *out_rows = array->height ? array->height : 1;
  *out_pitch = b->size / *out_rows;
  return true;
}

RL_IP_EXPORT hipError_t hipMallocArray(hipArray** array,
                                       const hipChannelFormatDesc* desc,
                                       size_t width, size_t height,
                                       unsigned int flags) {
  RL_IP_ENTER();
  RL_IP_REAL(hipMallocArray);
  if (!real_hipMallocArray) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipMallocArray(array, desc, width, height, flags);
  if (!error && rl_ip_on && array && *array) {
    rl_ip_texture_record(ip, (*array)->data, *array, RL_IP_MEMORY_ARRAY, 0,
                         "hipMallocArray");
  }
  return rl_ip_leave(error);
}

// Marks the recorded buffer at |ptr| of kind |memory| freed (released when
// the capture is written); false when there is none.
static bool rl_ip_texture_free(rl_interposer_t* ip, void* ptr,
                               rl_ip_memory_t memory) {
  rl_ip_buffer_t* b = rl_ip_buffer_at(ip, (uint64_t)(uintptr_t)ptr);
  if (!b || b->base != ptr || b->memory != memory) return false;
  b->freed = true;
  return true;
}

RL_IP_EXPORT hipError_t hipFreeArray(hipArray* array) {
  RL_IP_ENTER();
  RL_IP_REAL(hipFreeArray);
  if (!real_hipFreeArray) return rl_ip_leave(hipErrorNotSupported);
  if (rl_ip_on && array &&
      rl_ip_texture_free(ip, array->data, RL_IP_MEMORY_ARRAY)) {
    return rl_ip_leave(hipSuccess);
  }
  return rl_ip_leave(real_hipFreeArray(array));
}

RL_IP_EXPORT hipError_t hipCreateTextureObject(
    hipTextureObject_t* texture, const hipResourceDesc* resource,
    const hipTextureDesc* desc, const struct hipResourceViewDesc* view) {
  RL_IP_ENTER();
  RL_IP_REAL(hipCreateTextureObject);
  if (!real_hipCreateTextureObject) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipCreateTextureObject(texture, resource, desc, view);
  if (!error && rl_ip_on && texture && *texture) {
    const void* image = NULL;
    if (resource && resource->resType == hipResourceTypeArray &&
        resource->res.array.array) {
      image = resource->res.array.array->data;
    } else if (resource && resource->resType == hipResourceTypePitch2D) {
      image = resource->res.pitch2D.devPtr;
    }
    rl_ip_texture_record(ip, (void*)*texture, (void*)*texture,
                         RL_IP_MEMORY_TEXTURE, (uint64_t)(uintptr_t)image,
                         "hipCreateTextureObject");
  }
  return rl_ip_leave(error);
}

RL_IP_EXPORT hipError_t hipDestroyTextureObject(hipTextureObject_t texture) {
  RL_IP_ENTER();
  RL_IP_REAL(hipDestroyTextureObject);
  if (!real_hipDestroyTextureObject) return rl_ip_leave(hipErrorNotSupported);
  if (rl_ip_on && texture &&
      rl_ip_texture_free(ip, (void*)texture, RL_IP_MEMORY_TEXTURE)) {
    return rl_ip_leave(hipSuccess);
  }
  return rl_ip_leave(real_hipDestroyTextureObject(texture));
}
