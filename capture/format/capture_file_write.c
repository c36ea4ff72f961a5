// The capture file writer and the capture identity (redline/capture_file.h).
// Each section has one encoder; the file writer and the identity share
// them, the identity asking for the canonical form (no writer string, raw
// contents), so the two can never disagree about what a section holds.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <zstd.h>

#include "capture/format/capture_codec.h"
#include "redline/capture_file.h"
#include "capture/format/capture_file_internal.h"
#include "base/output_file.h"

// How the section encoders should write.
typedef struct rl_capture_encode_plan_s {
  bool canonical;         // identity form: META without writer, raw contents
  bool include_contents;  // false: every buffer is written without contents
  int zstd_level;         // 0: store contents raw
} rl_capture_encode_plan_t;

typedef rl_status_t (*rl_capture_section_encoder_t)(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer);

static bool rl_capture_buffer_written_with_contents(
    const rl_capture_buffer_t* buffer, const rl_capture_encode_plan_t* plan) {
  return plan->include_contents && buffer->initial != NULL;
}

//===----------------------------------------------------------------------===//
// Section encoders
//===----------------------------------------------------------------------===//

static rl_status_t rl_capture_encode_meta(const rl_capture_t* capture,
                                          const rl_capture_encode_plan_t* plan,
                                          rl_codec_writer_t* writer) {
  rl_codec_write_string(writer, capture->workload);
  rl_codec_write_string(writer, capture->target);
  if (!plan->canonical) rl_codec_write_string(writer, RL_CAPTURE_FILE_WRITER);
  return RL_OK;
}

static rl_status_t rl_capture_encode_code_objects(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_codec_write_u32(writer, capture->code_object_count);
  for (uint32_t i = 0; i < capture->code_object_count; ++i) {
    const rl_capture_code_object_t* code_object = &capture->code_objects[i];
    rl_codec_write_u64(writer, code_object->size);
    rl_codec_write_digest(writer, code_object->digest);
    rl_codec_write_bytes(writer, code_object->bytes, code_object->size);
  }
  return RL_OK;
}

static rl_status_t rl_capture_encode_kernels(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_codec_write_u32(writer, capture->kernel_count);
  for (uint32_t i = 0; i < capture->kernel_count; ++i) {
    rl_codec_write_u32(writer, capture->kernels[i].code_object);
    rl_codec_write_string(writer, capture->kernels[i].name);
  }
  return RL_OK;
}

static rl_status_t rl_capture_encode_buffers(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  rl_codec_write_u32(writer, capture->buffer_count);
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    const rl_capture_buffer_t* buffer = &capture->buffers[i];
    uint32_t flags = 0;
    if (buffer->keep_address) flags |= RL_CAPTURE_BUFFER_FLAG_KEEP_ADDRESS;
    if (rl_capture_buffer_is_variable(buffer)) {
      flags |= RL_CAPTURE_BUFFER_FLAG_VARIABLE;
    }
    if (rl_capture_buffer_written_with_contents(buffer, plan)) {
      flags |= RL_CAPTURE_BUFFER_FLAG_HAS_CONTENTS;
    }
    rl_codec_write_string(writer, buffer->name);
    rl_codec_write_u64(writer, buffer->size);
    rl_codec_write_u64(writer, buffer->alignment);
    rl_codec_write_u32(writer, (uint32_t)buffer->role);
    rl_codec_write_u64(writer, buffer->capture_address);
    rl_codec_write_u32(writer, flags);
    if (rl_capture_buffer_is_variable(buffer)) {
      rl_codec_write_u32(writer, buffer->code_object);
      rl_codec_write_string(writer, buffer->symbol);
      rl_codec_write_u64(writer, buffer->symbol_offset);
    }
  }
  return RL_OK;
}

// Writes the contents record of buffer |index| as one zstd frame, or raw
// when |zstd_level| is 0 or compression does not make it smaller.
static rl_status_t rl_capture_encode_contents(const rl_capture_buffer_t* buffer,
                                              uint32_t index, int zstd_level,
                                              rl_codec_writer_t* writer) {
  size_t size = (size_t)buffer->size;
  size_t record = writer->size;
  rl_codec_write_u32(writer, index);
  rl_codec_write_u32(writer, RL_CAPTURE_ENCODING_ZSTD);
  rl_codec_write_u64(writer, buffer->size);
  rl_codec_write_u64(writer, 0);  // stored size, patched below
  size_t stored = 0;
  if (zstd_level != 0) {
    size_t bound = ZSTD_compressBound(size);
    size_t start = writer->size;
    uint8_t* at = rl_codec_writer_append(writer, bound);
    if (!at) return rl_codec_writer_status(writer);
    stored = ZSTD_compress(at, bound, buffer->initial, size, zstd_level);
    if (ZSTD_isError(stored)) {
      return RL_STATUS(RL_STATUS_INTERNAL, "zstd failed on buffer %s: %s",
                       buffer->name, ZSTD_getErrorName(stored));
    }
    rl_codec_writer_truncate(writer, start + stored);
  }
  if (zstd_level == 0 || stored >= size) {
    rl_codec_writer_truncate(writer, record + 24);
    rl_codec_store_u32(writer->data + record + 4, RL_CAPTURE_ENCODING_RAW);
    rl_codec_write_bytes(writer, buffer->initial, size);
    stored = size;
  }
  if (!writer->failed) rl_codec_store_u64(writer->data + record + 16, stored);
  return rl_codec_writer_status(writer);
}

static rl_status_t rl_capture_encode_buffer_data(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    count += rl_capture_buffer_written_with_contents(&capture->buffers[i], plan);
  }
  rl_codec_write_u32(writer, count);
  int level = plan->canonical ? 0 : plan->zstd_level;
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    if (!rl_capture_buffer_written_with_contents(&capture->buffers[i], plan)) {
      continue;
    }
    RL_RETURN_IF_ERROR(
        rl_capture_encode_contents(&capture->buffers[i], i, level, writer));
  }
  return rl_codec_writer_status(writer);
}

static rl_status_t rl_capture_encode_params(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_codec_write_u32(writer, capture->param_count);
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    const rl_capture_param_t* param = &capture->params[i];
    rl_codec_write_string(writer, param->name);
    rl_codec_write_i64(writer, param->min);
    rl_codec_write_i64(writer, param->max);
    rl_codec_write_i64(writer, param->capture_value);
  }
  return RL_OK;
}

static void rl_capture_encode_slot(const rl_pointer_slot_t* slot,
                                   rl_codec_writer_t* writer) {
  rl_codec_write_u32(writer, slot->kernarg_offset);
  rl_codec_write_u32(writer, slot->buffer);
  rl_codec_write_u64(writer, slot->offset);
  rl_codec_write_u32(writer, (uint32_t)slot->effect);
  rl_codec_write_u32(writer, (uint32_t)slot->source);
  rl_codec_write_u64(writer, slot->extent_offset);
  rl_codec_write_u64(writer, slot->extent_size);
}

static void rl_capture_encode_binding(const rl_scalar_binding_t* binding,
                                      rl_codec_writer_t* writer) {
  rl_codec_write_u32(writer, (uint32_t)binding->target);
  rl_codec_write_u32(writer, binding->offset);
  rl_codec_write_u32(writer, binding->size);
  rl_codec_write_u32(writer, binding->expr.param);
  rl_codec_write_i64(writer, binding->expr.add);
  rl_codec_write_u32(writer, (uint32_t)binding->expr.op);
  rl_codec_write_i64(writer, binding->expr.operand);
}

static rl_status_t rl_capture_encode_launches(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_codec_write_u32(writer, capture->launch_count);
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    const rl_capture_launch_t* launch = &capture->launches[i];
    rl_codec_write_u32(writer, launch->kernel);
    for (int axis = 0; axis < 3; ++axis) {
      rl_codec_write_u32(writer, launch->grid[axis]);
    }
    for (int axis = 0; axis < 3; ++axis) {
      rl_codec_write_u32(writer, launch->block[axis]);
    }
    rl_codec_write_u32(writer, launch->dynamic_lds);
    rl_codec_write_u32(writer, launch->kernarg_size);
    rl_codec_write_bytes(writer, launch->kernarg, launch->kernarg_size);
    rl_codec_write_u32(writer, launch->slot_count);
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      rl_capture_encode_slot(&launch->slots[s], writer);
    }
    rl_codec_write_u32(writer, launch->binding_count);
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      rl_capture_encode_binding(&launch->bindings[b], writer);
    }
  }
  return RL_OK;
}

static rl_status_t rl_capture_encode_regions(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_codec_write_u32(writer, capture->region_count);
  for (uint32_t i = 0; i < capture->region_count; ++i) {
    const rl_capture_region_t* region = &capture->regions[i];
    rl_codec_write_string(writer, region->name);
    rl_codec_write_u32(writer, region->buffer);
    rl_codec_write_u64(writer, region->offset);
    rl_codec_write_u64(writer, region->size);
    rl_codec_write_u32(writer, (uint32_t)region->type);
  }
  return RL_OK;
}

static rl_status_t rl_capture_encode_windows(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_codec_write_u32(writer, capture->window_count);
  for (uint32_t i = 0; i < capture->window_count; ++i) {
    const rl_capture_window_t* window = &capture->windows[i];
    rl_codec_write_u32(writer, window->param);
    rl_codec_write_i64(writer, window->start);
    rl_codec_write_u32(writer, window->count);
    rl_codec_write_i64(writer, window->stride);
  }
  return RL_OK;
}

static rl_status_t rl_capture_encode_incomplete(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_codec_write_u32(writer, capture->bypassed_launches);
  rl_codec_write_string(writer, capture->incomplete_reason
                                    ? capture->incomplete_reason
                                    : "unrecorded work");
  return RL_OK;
}

static rl_status_t rl_capture_encode_program_state(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_codec_write_u32(writer, capture->program_state_count);
  for (uint32_t i = 0; i < capture->program_state_count; ++i) {
    const rl_capture_program_state_t* state = &capture->program_states[i];
    rl_codec_write_i64(writer, state->pos);
    rl_codec_write_u32(writer, state->region);
    rl_codec_write_u32(writer, 0);
    rl_codec_write_digest(writer, state->digest);
  }
  rl_codec_write_u32(writer, capture->program_param_count);
  for (uint32_t i = 0; i < capture->program_param_count; ++i) {
    const rl_capture_program_param_t* value = &capture->program_params[i];
    rl_codec_write_i64(writer, value->pos);
    rl_codec_write_u32(writer, value->param);
    rl_codec_write_u32(writer, 0);
    rl_codec_write_i64(writer, value->value);
  }
  return RL_OK;
}

// Whether |capture| needs BINDING_EXT: a scaled expression or a
// pointer-offset binding (a reader without the section must refuse it).
static bool rl_capture_needs_binding_ext(const rl_capture_t* capture) {
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      if (rl_expr_scale(&launch->bindings[b].expr) != 1 ||
          launch->bindings[b].target == RL_BINDING_POINTER_OFFSET) {
        return true;
      }
    }
  }
  return false;
}

// BINDING_EXT: one record per binding whose scale is not 1.
static rl_status_t rl_capture_encode_binding_ext(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  uint32_t count = 0;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) rl_codec_write_u32(writer, count);
    for (uint32_t l = 0; l < capture->launch_count; ++l) {
      const rl_capture_launch_t* launch = &capture->launches[l];
      for (uint32_t b = 0; b < launch->binding_count; ++b) {
        int64_t scale = rl_expr_scale(&launch->bindings[b].expr);
        if (scale == 1) continue;
        if (pass == 0) {
          ++count;
          continue;
        }
        rl_codec_write_u32(writer, l);
        rl_codec_write_u32(writer, b);
        rl_codec_write_i64(writer, scale);
      }
    }
  }
  return RL_OK;
}

// COOPERATIVE: the indices of the cooperative launches, increasing.
static rl_status_t rl_capture_encode_cooperative(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  uint32_t count = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    count += capture->launches[l].cooperative ? 1u : 0u;
  }
  rl_codec_write_u32(writer, count);
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    if (capture->launches[l].cooperative) rl_codec_write_u32(writer, l);
  }
  return RL_OK;
}

// DESCRIPTORS: the descriptor bindings in (buffer, offset) order.
static rl_status_t rl_capture_encode_descriptors(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_codec_write_u32(writer, capture->descriptor_count);
  for (uint32_t i = 0; i < capture->descriptor_count; ++i) {
    const rl_capture_descriptor_t* d = &capture->descriptors[i];
    rl_codec_write_u32(writer, d->buffer);
    rl_codec_write_u32(writer, (uint32_t)d->layout);
    rl_codec_write_u64(writer, d->offset);
    rl_codec_write_u32(writer, d->image);
    rl_codec_write_u32(writer, 0);  // reserved
    rl_codec_write_u64(writer, d->image_offset);
  }
  return RL_OK;
}

// The data sections of format 1.0 in file order.
static const struct {
  uint32_t kind;
  rl_capture_section_encoder_t encode;
} rl_capture_sections[] = {
    {RL_CAPTURE_SECTION_META, rl_capture_encode_meta},
    {RL_CAPTURE_SECTION_CODE_OBJECTS, rl_capture_encode_code_objects},
    {RL_CAPTURE_SECTION_KERNELS, rl_capture_encode_kernels},
    {RL_CAPTURE_SECTION_BUFFERS, rl_capture_encode_buffers},
    {RL_CAPTURE_SECTION_BUFFER_DATA, rl_capture_encode_buffer_data},
    {RL_CAPTURE_SECTION_PARAMS, rl_capture_encode_params},
    {RL_CAPTURE_SECTION_LAUNCHES, rl_capture_encode_launches},
    {RL_CAPTURE_SECTION_REGIONS, rl_capture_encode_regions},
    {RL_CAPTURE_SECTION_WINDOWS, rl_capture_encode_windows},
};
#define RL_CAPTURE_DATA_SECTION_COUNT \
  (sizeof(rl_capture_sections) / sizeof(rl_capture_sections[0]))

//===----------------------------------------------------------------------===//
// Identity
//===----------------------------------------------------------------------===//

static void rl_capture_identity_update_u32(XXH3_state_t* state,
                                           uint32_t value) {
  uint8_t bytes[4];
  rl_codec_store_u32(bytes, value);
  XXH3_128bits_update(state, bytes, sizeof(bytes));
}

static void rl_capture_identity_update_u64(XXH3_state_t* state,
                                           uint64_t value) {
  uint8_t bytes[8];
  rl_codec_store_u64(bytes, value);
  XXH3_128bits_update(state, bytes, sizeof(bytes));
}

// Hashes the canonical BUFFER_DATA section without copying the contents:
// its length is known up front and each buffer is hashed in place.
static void rl_capture_identity_buffer_data(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    XXH3_state_t* state) {
  uint64_t length = 4;
  uint32_t count = 0;
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    if (!rl_capture_buffer_written_with_contents(&capture->buffers[i], plan)) {
      continue;
    }
    length += 24 + capture->buffers[i].size;
    ++count;
  }
  rl_capture_identity_update_u32(state, RL_CAPTURE_SECTION_BUFFER_DATA);
  rl_capture_identity_update_u64(state, length);
  rl_capture_identity_update_u32(state, count);
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    const rl_capture_buffer_t* buffer = &capture->buffers[i];
    if (!rl_capture_buffer_written_with_contents(buffer, plan)) continue;
    rl_capture_identity_update_u32(state, i);
    rl_capture_identity_update_u32(state, RL_CAPTURE_ENCODING_RAW);
    rl_capture_identity_update_u64(state, buffer->size);
    rl_capture_identity_update_u64(state, buffer->size);
    XXH3_128bits_update(state, buffer->initial, (size_t)buffer->size);
  }
}

static rl_status_t rl_capture_identity_update(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    XXH3_state_t* state, rl_codec_writer_t* scratch) {
  for (size_t i = 0; i < RL_CAPTURE_DATA_SECTION_COUNT; ++i) {
    uint32_t kind = rl_capture_sections[i].kind;
    if (kind == RL_CAPTURE_SECTION_BUFFER_DATA) {
      rl_capture_identity_buffer_data(capture, plan, state);
      continue;
    }
    rl_codec_writer_truncate(scratch, 0);
    RL_RETURN_IF_ERROR(rl_capture_sections[i].encode(capture, plan, scratch));
    RL_RETURN_IF_ERROR(rl_codec_writer_status(scratch));
    rl_capture_identity_update_u32(state, kind);
    rl_capture_identity_update_u64(state, scratch->size);
    XXH3_128bits_update(state, scratch->data, scratch->size);
  }
  if (rl_capture_needs_binding_ext(capture)) {
    rl_codec_writer_truncate(scratch, 0);
    RL_RETURN_IF_ERROR(rl_capture_encode_binding_ext(capture, plan, scratch));
    RL_RETURN_IF_ERROR(rl_codec_writer_status(scratch));
    rl_capture_identity_update_u32(state, RL_CAPTURE_SECTION_BINDING_EXT);
    rl_capture_identity_update_u64(state, scratch->size);
    XXH3_128bits_update(state, scratch->data, scratch->size);
  }
  // A cooperative launch runs differently (all work-groups resident): the
  // section is part of what the capture is.
  if (rl_capture_first_cooperative(capture) != UINT32_MAX) {
    rl_codec_writer_truncate(scratch, 0);
    RL_RETURN_IF_ERROR(rl_capture_encode_cooperative(capture, plan, scratch));
    RL_RETURN_IF_ERROR(rl_codec_writer_status(scratch));
    rl_capture_identity_update_u32(state, RL_CAPTURE_SECTION_COOPERATIVE);
    rl_capture_identity_update_u64(state, scratch->size);
    XXH3_128bits_update(state, scratch->data, scratch->size);
  }
  // Descriptor bindings change what a replay writes into its buffers.
  if (capture->descriptor_count) {
    rl_codec_writer_truncate(scratch, 0);
    RL_RETURN_IF_ERROR(rl_capture_encode_descriptors(capture, plan, scratch));
    RL_RETURN_IF_ERROR(rl_codec_writer_status(scratch));
    rl_capture_identity_update_u32(state, RL_CAPTURE_SECTION_DESCRIPTORS);
    rl_capture_identity_update_u64(state, scratch->size);
    XXH3_128bits_update(state, scratch->data, scratch->size);
  }
  return RL_OK;
}

// The identity of |capture| as written with or without contents.
static rl_status_t rl_capture_identity_compute(const rl_capture_t* capture,
                                               bool include_contents,
                                               rl_digest128_t* out_identity) {
  *out_identity = (rl_digest128_t){0, 0};
  rl_capture_encode_plan_t plan = {true, include_contents, 0};
  XXH3_state_t* state = XXH3_createState();
  if (!state) return rl_status_out_of_memory();
  XXH3_128bits_reset(state);
  rl_codec_writer_t scratch;
  rl_codec_writer_init(&scratch);
  rl_status_t status =
      rl_capture_identity_update(capture, &plan, state, &scratch);
  if (!status) {
    XXH128_hash_t hash = XXH3_128bits_digest(state);
    *out_identity = (rl_digest128_t){hash.high64, hash.low64};
  }
  rl_codec_writer_deinit(&scratch);
  XXH3_freeState(state);
  return status;
}

rl_status_t rl_capture_identity(const rl_capture_t* capture,
                                rl_digest128_t* out_identity) {
  if (!capture || !out_identity) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "capture identity: a capture and an output are required");
  }
  return rl_capture_identity_compute(capture, true, out_identity);
}

//===----------------------------------------------------------------------===//
// File assembly
//===----------------------------------------------------------------------===//

// Appends one section: header, payload from |encode| (or none), checksum
// over the header's first 16 bytes and the payload, zero padding.
static rl_status_t rl_capture_file_emit_flagged(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    uint32_t kind, uint32_t flags, rl_capture_section_encoder_t encode,
    rl_codec_writer_t* writer) {
  size_t start = writer->size;
  rl_codec_write_zeros(writer, RL_CAPTURE_FILE_SECTION_HEADER_SIZE);
  if (encode) RL_RETURN_IF_ERROR(encode(capture, plan, writer));
  RL_RETURN_IF_ERROR(rl_codec_writer_status(writer));
  uint8_t* header = writer->data + start;
  size_t length = writer->size - start - RL_CAPTURE_FILE_SECTION_HEADER_SIZE;
  rl_codec_store_u32(header, kind);
  rl_codec_store_u32(header + 4, flags);
  rl_codec_store_u64(header + 8, length);
  uint64_t seed = XXH3_64bits(header, 16);
  rl_codec_store_u64(header + 16,
                     XXH3_64bits_withSeed(header + 24, length, seed));
  rl_codec_write_pad(writer, RL_CAPTURE_FILE_ALIGNMENT);
  return rl_codec_writer_status(writer);
}

// ISSUED (optional, not in the identity: an older reader skips it).
static rl_status_t rl_capture_encode_issued_section(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  (void)plan;
  rl_capture_encode_issued(capture, writer);
  return RL_OK;
}

static void rl_capture_file_store_header(uint8_t* header, uint32_t sections,
                                         uint64_t file_size,
                                         rl_digest128_t identity) {
  memset(header, 0, RL_CAPTURE_FILE_HEADER_SIZE);
  memcpy(header, RL_CAPTURE_FILE_MAGIC, RL_CAPTURE_FILE_MAGIC_SIZE);
  header[8] = RL_CAPTURE_FILE_VERSION_MAJOR;
  header[10] = RL_CAPTURE_FILE_VERSION_MINOR;
  rl_codec_store_u32(header + 12, RL_CAPTURE_FILE_HEADER_SIZE);
  rl_codec_store_u32(header + 20, sections);
  rl_codec_store_u64(header + 24, file_size);
  rl_codec_store_digest(header + 32, identity);
  rl_codec_store_u64(header + 56,
                     XXH3_64bits(header, RL_CAPTURE_FILE_HEADER_SIZE - 8));
}

static rl_status_t rl_capture_encode_plan_init(
    const rl_capture_write_options_t* options,
    rl_capture_encode_plan_t* out_plan) {
  rl_capture_write_options_t defaults = {RL_CAPTURE_COMPRESSION_ZSTD, 0, false};
  if (!options) options = &defaults;
  int level = options->zstd_level ? options->zstd_level : 3;
  if ((unsigned)options->compression > RL_CAPTURE_COMPRESSION_NONE ||
      level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "capture write options: compression %u, zstd level %d "
                     "(expected %d..%d)",
                     (unsigned)options->compression, options->zstd_level,
                     ZSTD_minCLevel(), ZSTD_maxCLevel());
  }
  out_plan->canonical = false;
  out_plan->include_contents = !options->omit_contents;
  out_plan->zstd_level =
      options->compression == RL_CAPTURE_COMPRESSION_NONE ? 0 : level;
  return RL_OK;
}

static rl_status_t rl_capture_file_emit_section(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    uint32_t kind, rl_capture_section_encoder_t encode,
    rl_codec_writer_t* writer) {
  return rl_capture_file_emit_flagged(capture, plan, kind,
                                      RL_CAPTURE_SECTION_FLAG_REQUIRED, encode,
                                      writer);
}

static rl_status_t rl_capture_file_encode_into(
    const rl_capture_t* capture, const rl_capture_encode_plan_t* plan,
    rl_codec_writer_t* writer) {
  rl_digest128_t identity;
  RL_RETURN_IF_ERROR(
      rl_capture_identity_compute(capture, plan->include_contents, &identity));
  rl_codec_write_zeros(writer, RL_CAPTURE_FILE_HEADER_SIZE);
  bool ext = rl_capture_needs_binding_ext(capture);
  for (size_t i = 0; i < RL_CAPTURE_DATA_SECTION_COUNT; ++i) {
    if (ext && rl_capture_sections[i].kind == RL_CAPTURE_SECTION_LAUNCHES) {
      RL_RETURN_IF_ERROR(rl_capture_file_emit_section(
          capture, plan, RL_CAPTURE_SECTION_BINDING_EXT,
          rl_capture_encode_binding_ext, writer));
    }
    RL_RETURN_IF_ERROR(rl_capture_file_emit_section(
        capture, plan, rl_capture_sections[i].kind,
        rl_capture_sections[i].encode, writer));
  }
  bool cooperative = rl_capture_first_cooperative(capture) != UINT32_MAX;
  if (cooperative) {  // required: an older reader must refuse the file
    RL_RETURN_IF_ERROR(rl_capture_file_emit_section(
        capture, plan, RL_CAPTURE_SECTION_COOPERATIVE,
        rl_capture_encode_cooperative, writer));
  }
  bool descriptors = capture->descriptor_count > 0;
  if (descriptors) {  // required: an older reader must refuse the file
    RL_RETURN_IF_ERROR(rl_capture_file_emit_section(
        capture, plan, RL_CAPTURE_SECTION_DESCRIPTORS,
        rl_capture_encode_descriptors, writer));
  }
  bool incomplete = rl_capture_incomplete(capture);
  if (incomplete) {
    RL_RETURN_IF_ERROR(rl_capture_file_emit_section(
        capture, plan, RL_CAPTURE_SECTION_INCOMPLETE,
        rl_capture_encode_incomplete, writer));
  }
  bool states =
      capture->program_state_count > 0 || capture->program_param_count > 0;
  if (states) {  // optional: the replay does not depend on it
    RL_RETURN_IF_ERROR(rl_capture_file_emit_flagged(
        capture, plan, RL_CAPTURE_SECTION_PROGRAM_STATE, 0,
        rl_capture_encode_program_state, writer));
  }
  bool issued = capture->issued_count > 0;
  if (issued) {  // optional, like PROGRAM_STATE
    RL_RETURN_IF_ERROR(rl_capture_file_emit_flagged(
        capture, plan, RL_CAPTURE_SECTION_ISSUED, 0,
        rl_capture_encode_issued_section, writer));
  }
  RL_RETURN_IF_ERROR(rl_capture_file_emit_section(
      capture, plan, RL_CAPTURE_SECTION_END, NULL, writer));
  rl_capture_file_store_header(
      writer->data,
      (uint32_t)RL_CAPTURE_DATA_SECTION_COUNT + 1 + (incomplete ? 1 : 0) +
          (ext ? 1 : 0) + (states ? 1 : 0) + (issued ? 1 : 0) +
          (cooperative ? 1 : 0) + (descriptors ? 1 : 0),
      writer->size, identity);
  return RL_OK;
}

rl_status_t rl_capture_file_encode(const rl_capture_t* capture,
                                   const rl_capture_write_options_t* options,
                                   uint8_t** out_bytes, size_t* out_size) {
  if (out_bytes) *out_bytes = NULL;
  if (out_size) *out_size = 0;
  if (!out_bytes || !out_size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "capture encode: no output");
  }
  rl_capture_encode_plan_t plan;
  RL_RETURN_IF_ERROR(rl_capture_encode_plan_init(options, &plan));
  RL_RETURN_IF_ERROR(rl_status_annotate(rl_capture_validate(capture),
                                        "cannot write an invalid capture"));
  rl_codec_writer_t writer;
  rl_codec_writer_init(&writer);
  rl_status_t status = rl_capture_file_encode_into(capture, &plan, &writer);
  if (status) {
    rl_codec_writer_deinit(&writer);
    return status;
  }
  *out_bytes = writer.data;
  *out_size = writer.size;
  return RL_OK;
}

rl_status_t rl_capture_file_write(const rl_capture_t* capture, const char* path,
                                  const rl_capture_write_options_t* options) {
  if (!capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "capture file write: no "
                     "capture");
  }
  if (!path || !path[0]) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "capture file path is empty");
  }
  uint8_t* bytes = NULL;
  size_t size = 0;
  RL_RETURN_IF_ERROR(rl_capture_file_encode(capture, options, &bytes, &size));
  rl_status_t status = rl_output_file_write(path, bytes, size);
  free(bytes);
  return status;
}
