// capture/interposer/interposer_args.c — argument typing and buffer lookup
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
#include "redline/capture_file.h"
#include "redline/offload_bundle.h"

rl_ip_buffer_t* rl_ip_buffer_at(rl_interposer_t* ip, uint64_t address) {
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    rl_ip_buffer_t* b = &ip->buffers[i];
    uint64_t base = (uint64_t)(uintptr_t)b->base;
    if (!b->freed && address >= base && address - base < b->size) return b;
  }
  return NULL;
}

void rl_ip_mark_used(rl_interposer_t* ip, rl_ip_buffer_t* b) {
  b->used = true;
  if (b->memory == RL_IP_MEMORY_TEXTURE && b->image_address) {
    (void)rl_ip_note_freed_use(ip, b->image_address);
  }
}

bool rl_ip_note_freed_use(rl_interposer_t* ip, uint64_t address) {
  if (!ip->window_open || ip->window_closed) return false;
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    const rl_ip_buffer_t* b = &ip->buffers[i];
    uint64_t base = (uint64_t)(uintptr_t)b->base;
    if (b->freed && address >= base && address - base < b->size) {
      // Named as the capture names it (interposer_texture.c: arrayN).
      rl_ip_note(ip, 0, "buffer %s%u used after it was freed",
                 b->memory == RL_IP_MEMORY_ARRAY     ? "array"
                 : b->memory == RL_IP_MEMORY_TEXTURE ? "texture"
                                                     : "buf",
                 b->index);
      return true;
    }
  }
  return false;
}

// The recorded buffer holding [address, address + size), or NULL.
rl_ip_buffer_t* rl_ip_buffer_range(rl_interposer_t* ip, uint64_t address,
                                   uint64_t size) {
  rl_ip_buffer_t* b = rl_ip_buffer_at(ip, address);
  uint64_t base = b ? (uint64_t)(uintptr_t)b->base : 0;
  return b && size <= b->size - (address - base) ? b : NULL;
}

// The function launched as |function| (module) or |host| (host stub).
rl_ip_function_t* rl_ip_function_find(rl_interposer_t* ip,
                                      hipFunction_t function,
                                      const void* host) {
  rl_ip_function_t* f = NULL;
  for (uint32_t i = 0; i < ip->function_count; ++i) {
    const rl_ip_function_t* candidate = &ip->functions[i];
    if (host ? candidate->host == host
             : candidate->function == function && !candidate->host) {
      f = &ip->functions[i];
    }
  }
  return f;
}

// Marks every live buffer an 8-byte-aligned word of the by-value argument
// |meta| (its bytes at |bytes|) points into as used by the launch: a pointer
// member of a struct argument (an iterator holding a pointer, as rocPRIM's
// zip_iterator does). The funnel records such a word as a pointer slot
// inside the argument and pins its buffer (redline/capture.h); the buffer
// must then be in the capture like any a launch touches.
static void rl_ip_mark_embedded(rl_interposer_t* ip,
                                const rl_kernel_arg_t* meta,
                                const uint8_t* bytes) {
  for (uint32_t at = (8 - meta->offset % 8) % 8; at + 8 <= meta->size;
       at += 8) {
    uint64_t word = 0;
    memcpy(&word, bytes + at, 8);
    rl_ip_buffer_t* b = word ? rl_ip_buffer_at(ip, word) : NULL;
    if (b) b->used = true;
  }
}

// Types the explicit arguments of a launch of |info| (argument typing):
// from |params| (one pointer per explicit argument) or from the kernarg
// image |buffer| of |buffer_size| bytes, sliced at the metadata offsets.
// global_buffer -> pointer (the funnel's effect rules), 4/8-byte by_value
// -> u32/u64, others -> bytes (pointing into |params| or |buffer|); the
// buffers a by-value argument holds an address of are marked used
// (rl_ip_mark_embedded). False, with |why| saying so, when an argument is
// not readable.
bool rl_ip_type_args(rl_interposer_t* ip, const rl_code_object_kernel_t* info,
                     void** params, const uint8_t* buffer, size_t buffer_size,
                     rl_funnel_arg_t args[64], uint32_t* out_count,
                     char* why, size_t why_size) {
  uint32_t count = 0;
  snprintf(why, why_size, "launch of %s: arguments not readable", info->name);
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    const uint8_t* bytes = NULL;
    if (params) {
      bytes = params[count];
    } else if (buffer && meta->offset + meta->size <= buffer_size) {
      bytes = buffer + meta->offset;
    }
    if (!bytes || count == 64) return false;
    uint64_t value = 0;
    memcpy(&value, bytes, meta->size < 8 ? meta->size : 8);
    if (meta->kind == RL_ARG_KIND_GLOBAL_BUFFER && meta->size == 8) {
      args[count] = rl_funnel_arg_pointer(value);
      rl_ip_buffer_t* b = rl_ip_buffer_at(ip, value);
      if (b) {
        rl_ip_mark_used(ip, b);
      } else if (value) {
        (void)rl_ip_note_freed_use(ip, value);
      }
    } else if (meta->size == 4) {
      args[count] = rl_funnel_arg_u32((uint32_t)value);
    } else if (meta->size == 8) {
      args[count] = rl_funnel_arg_u64(value);
    } else {
      args[count] = rl_funnel_arg_bytes(bytes, meta->size);
    }
    ++count;
  }
  uint32_t index = 0;
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    const uint8_t* bytes = params ? params[index] : buffer + meta->offset;
    ++index;
    if (meta->kind == RL_ARG_KIND_BY_VALUE) rl_ip_mark_embedded(ip, meta, bytes);
  }
  *out_count = count;
  return true;
}

// The explicit-argument buffer of an |extra| launch, or NULL.
const uint8_t* rl_ip_extra_buffer(void** extra, size_t* out_size) {
  const uint8_t* buffer = NULL;
  *out_size = 0;
  for (uint32_t i = 0; extra && extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) buffer = extra[i + 1];
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) {
      *out_size = *(const size_t*)extra[i + 1];
    }
  }
  return buffer;
}
