// Descriptor bindings (redline/capture.h, rl_capture_descriptor_t): an
// image descriptor inside a buffer whose base address must follow where a
// route places the image (docs/capture-format.md, DESCRIPTORS).
//
// The gfx11/gfx12 image descriptor (T#) holds the image's address >> 8:
// bits 39:8 in dword 0 (BASE_ADDRESS), bits 47:40 in bits 7:0 of dword 1
// (BASE_ADDRESS_HI); the rest of dword 1 is the data format and the
// sampling fields, kept as recorded. Sources: AMD's "RDNA3 Instruction Set
// Architecture" reference guide, "Image Resource" table; Mesa
// src/amd/common/ac_descriptors.c (ac_build_texture_descriptor: word0 =
// va >> 8, word1 = S_00A004_BASE_ADDRESS_HI(va >> 40) on gfx10+).
#include <stdint.h>
#include <string.h>

#include "base/array.h"
#include "base/byte_order.h"
#include "base/test_fault.h"
#include "capture/model/capture_internal.h"
#include "redline/capture.h"

// The image address a T#'s dwords 0 and 1 hold.
static uint64_t rl_descriptor_image_address(const uint8_t bytes[8]) {
  return (uint64_t)rl_load_le32(bytes) << 8 |
         (uint64_t)(rl_load_le32(bytes + 4) & 0xffu) << 40;
}

rl_status_t rl_capture_check_descriptor(
    const rl_capture_t* capture, const rl_capture_descriptor_t* descriptor,
    const rl_capture_descriptor_t* previous) {
  const rl_capture_descriptor_t* d = descriptor;
  if (d->layout >= RL_DESCRIPTOR_LAYOUT_COUNT_) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "unknown descriptor layout %u (0 = gfx11 image)",
                     (unsigned)d->layout);
  }
  if (d->buffer >= capture->buffer_count || d->image >= capture->buffer_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor in buffer %u for image buffer %u, but the "
                     "capture has %u buffers",
                     d->buffer, d->image, capture->buffer_count);
  }
  const rl_capture_buffer_t* holder = &capture->buffers[d->buffer];
  const rl_capture_buffer_t* image = &capture->buffers[d->image];
  if (rl_capture_buffer_is_variable(holder) ||
      rl_capture_buffer_is_variable(image)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor in buffer %s for image %s: a code object "
                     "variable is neither a descriptor's holder nor its image",
                     holder->name, image->name);
  }
  if (d->offset > holder->size ||
      holder->size - d->offset < RL_DESCRIPTOR_IMAGE_SIZE) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor at byte %llu of buffer %s (%llu bytes): its "
                     "%u bytes are out of range",
                     (unsigned long long)d->offset, holder->name,
                     (unsigned long long)holder->size,
                     RL_DESCRIPTOR_IMAGE_SIZE);
  }
  if (previous && (previous->buffer > d->buffer ||
                   (previous->buffer == d->buffer &&
                    previous->offset + RL_DESCRIPTOR_IMAGE_SIZE > d->offset))) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor at byte %llu of buffer %u does not follow "
                     "the one at byte %llu of buffer %u (ordered by buffer "
                     "and offset, not overlapping)",
                     (unsigned long long)d->offset, d->buffer,
                     (unsigned long long)previous->offset, previous->buffer);
  }
  if (d->image_offset >= image->size ||
      d->image_offset % RL_DESCRIPTOR_IMAGE_ALIGN != 0 ||
      image->alignment < RL_DESCRIPTOR_IMAGE_ALIGN) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor in buffer %s: image offset %llu in buffer %s "
                     "(%llu bytes, alignment %llu) is out of range or not "
                     "kept %u-byte aligned",
                     holder->name, (unsigned long long)d->image_offset,
                     image->name, (unsigned long long)image->size,
                     (unsigned long long)image->alignment,
                     RL_DESCRIPTOR_IMAGE_ALIGN);
  }
  if (!holder->initial) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor in buffer %s, which has no initial contents",
                     holder->name);
  }
  uint64_t recorded = rl_descriptor_image_address(holder->initial + d->offset);
  if (recorded != image->capture_address + d->image_offset) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor at byte %llu of buffer %s holds image "
                     "address 0x%llx, not buffer %s's 0x%llx + %llu",
                     (unsigned long long)d->offset, holder->name,
                     (unsigned long long)recorded, image->name,
                     (unsigned long long)image->capture_address,
                     (unsigned long long)d->image_offset);
  }
  return RL_OK;
}

rl_status_t rl_capture_add_descriptor(
    rl_capture_t* capture, const rl_capture_descriptor_t* descriptor) {
  if (!capture || !descriptor) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "add descriptor: a capture and a descriptor are required");
  }
  uint32_t count = capture->descriptor_count;
  RL_RETURN_IF_ERROR(rl_status_annotate(
      rl_capture_check_descriptor(
          capture, descriptor,
          count ? &capture->descriptors[count - 1] : NULL),
      "descriptor %u", count));
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->descriptors,
                                      &capture->descriptor_capacity,
                                      count + 1));
  capture->descriptors[capture->descriptor_count++] = *descriptor;
  return RL_OK;
}

bool rl_capture_launch_reads_image(const rl_capture_t* capture,
                                   const rl_capture_launch_t* launch,
                                   uint32_t image) {
  if (!capture || !launch) return false;
  for (uint32_t i = 0; i < capture->descriptor_count; ++i) {
    const rl_capture_descriptor_t* d = &capture->descriptors[i];
    if (d->image != image) continue;
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      if (launch->slots[s].buffer == d->buffer &&
          (launch->slots[s].effect & RL_EFFECT_READ)) {
        return true;
      }
    }
  }
  return false;
}

rl_status_t rl_descriptor_patch(const rl_capture_t* capture, uint32_t index,
                                uint64_t image_address, uint8_t out_bytes[8]) {
  if (!capture || !out_bytes || index >= capture->descriptor_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "descriptor patch: a capture with descriptor %u and an "
                     "output are required",
                     index);
  }
  const rl_capture_descriptor_t* d = &capture->descriptors[index];
  const rl_capture_buffer_t* holder = &capture->buffers[d->buffer];
  memcpy(out_bytes, holder->initial + d->offset, 8);
  // Test-only (base/test_fault.h, descriptor-unpatched): the descriptor
  // keeps the capture's image address, as a route without this binding
  // would (the texture capture test's negative control).
  if (rl_test_fault("descriptor-unpatched", index)) return RL_OK;
  uint64_t address = image_address + d->image_offset;
  if (address % RL_DESCRIPTOR_IMAGE_ALIGN != 0 || address >> 48 != 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "image buffer %s placed at 0x%llx: a descriptor's base "
                     "address must be %u-byte aligned and below 2^48",
                     capture->buffers[d->image].name,
                     (unsigned long long)address, RL_DESCRIPTOR_IMAGE_ALIGN);
  }
  uint32_t word1 = rl_load_le32(out_bytes + 4);
  rl_store_le(out_bytes, 4, (uint32_t)(address >> 8));
  rl_store_le(out_bytes + 4, 4,
              (word1 & ~0xffu) | (uint32_t)((address >> 40) & 0xffu));
  return RL_OK;
}
