// Decoders of the capture file's data sections (capture_file_internal.h).
// Each reads its records through the bounds-checked cursor and adds them
// with rl_capture_add_*(); errors from the builders are prefixed with the
// section and the absolute offset of the record that caused them.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "capture/format/capture_file_internal.h"

// Prefixes a builder error with the section and |offset|. Codes other than
// INVALID_INPUT, UNSUPPORTED and OUT_OF_MEMORY (a kernel NOT_FOUND in its
// code object, say) mean a malformed file here, so they become
// INVALID_INPUT with the same message.
static rl_status_t rl_capture_decode_wrap(const rl_codec_reader_t* reader,
                                          uint64_t offset, rl_status_t status) {
  if (!status) return RL_OK;
  rl_status_code_t code = rl_status_code(status);
  if (code == RL_STATUS_INVALID_INPUT || code == RL_STATUS_UNSUPPORTED ||
      code == RL_STATUS_OUT_OF_MEMORY) {
    return rl_status_annotate(status, "%s, byte %llu", reader->section,
                              (unsigned long long)offset);
  }
  rl_status_t wrapped = RL_STATUS(
      RL_STATUS_INVALID_INPUT, "%s, byte %llu: %s", reader->section,
      (unsigned long long)offset, rl_status_message(status));
  rl_status_free(status);
  return wrapped;
}

// Takes what a builder returned for the record at |offset|: its error,
// prefixed (rl_capture_decode_wrap), or a failure unless it gave the record
// *|index| == |expected|, the index the record has in the file.
static rl_status_t rl_capture_decode_added(const rl_codec_reader_t* reader,
                                           uint64_t offset, rl_status_t status,
                                           const uint32_t* index,
                                           uint32_t expected) {
  RL_RETURN_IF_ERROR(rl_capture_decode_wrap(reader, offset, status));
  if (*index == expected) return RL_OK;
  return rl_codec_reader_fail_at(reader, RL_STATUS_INVALID_INPUT, offset,
                                 "repeats record %u", *index);
}

// Decodes record |index| of a section.
typedef rl_status_t (*rl_capture_decode_record_t)(rl_capture_decoder_t* decoder,
                                                  rl_codec_reader_t* reader,
                                                  uint32_t index);

// Decodes the |count| records of a section in file order, each labelled
// "|what| <index>" in errors.
static rl_status_t rl_capture_decode_records(
    rl_capture_decoder_t* decoder, rl_codec_reader_t* reader, const char* what,
    uint32_t count, rl_capture_decode_record_t record) {
  for (uint32_t i = 0; i < count; ++i) {
    rl_codec_reader_set_label(reader, "%s %u", what, i);
    RL_RETURN_IF_ERROR(record(decoder, reader, i));
  }
  return RL_OK;
}

// Decodes a section that holds a record count, then that many records and
// nothing else. The count is labelled "|what| count" in errors.
static rl_status_t rl_capture_decode_section(
    rl_capture_decoder_t* decoder, rl_codec_reader_t* reader, const char* what,
    size_t min_record_size, rl_capture_decode_record_t record) {
  char label[32];
  snprintf(label, sizeof(label), "%s count", what);
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(
      rl_codec_read_count(reader, label, min_record_size, &count));
  RL_RETURN_IF_ERROR(
      rl_capture_decode_records(decoder, reader, what, count, record));
  return rl_codec_reader_expect_end(reader);
}

rl_status_t rl_capture_decode_meta(rl_capture_decoder_t* decoder,
                                   rl_codec_reader_t* reader) {
  char workload[RL_CAPTURE_NAME_MAX];
  uint64_t offset = rl_codec_reader_offset(reader);
  RL_RETURN_IF_ERROR(
      rl_codec_read_string(reader, "workload", workload, sizeof(workload)));
  RL_RETURN_IF_ERROR(rl_codec_read_string(reader, "target", decoder->target,
                                          sizeof(decoder->target)));
  RL_RETURN_IF_ERROR(rl_codec_read_string(reader, "writer",
                                          decoder->info->writer,
                                          sizeof(decoder->info->writer)));
  RL_RETURN_IF_ERROR(rl_codec_reader_expect_end(reader));
  return rl_capture_decode_wrap(
      reader, offset, rl_capture_create(workload, &decoder->capture));
}

static rl_status_t rl_capture_decode_code_object(rl_capture_decoder_t* decoder,
                                                 rl_codec_reader_t* reader,
                                                 uint32_t expected) {
  uint64_t offset = rl_codec_reader_offset(reader);
  uint64_t size = 0;
  rl_digest128_t digest;
  const uint8_t* bytes = NULL;
  RL_RETURN_IF_ERROR(rl_codec_read_u64(reader, "size", &size));
  RL_RETURN_IF_ERROR(rl_codec_read_digest(reader, "digest", &digest));
  RL_RETURN_IF_ERROR(rl_codec_read_bytes(reader, "bytes", size, &bytes));
  uint32_t index = 0;
  RL_RETURN_IF_ERROR(rl_capture_decode_added(
      reader, offset,
      rl_capture_add_code_object(decoder->capture, bytes, size, &index), &index,
      expected));
  rl_digest128_t actual = decoder->capture->code_objects[index].digest;
  if (decoder->check_integrity && !rl_digest128_equal(digest, actual)) {
    char stored_hex[RL_DIGEST128_HEX_LENGTH + 1];
    char actual_hex[RL_DIGEST128_HEX_LENGTH + 1];
    rl_digest128_format(digest, stored_hex);
    rl_digest128_format(actual, actual_hex);
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, offset + 8,
        "digest %s does not match the bytes' digest %s", stored_hex,
        actual_hex);
  }
  return RL_OK;
}

rl_status_t rl_capture_decode_code_objects(rl_capture_decoder_t* decoder,
                                           rl_codec_reader_t* reader) {
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_count(reader, "code object count",
                                         RL_CAPTURE_RECORD_CODE_OBJECT_MIN,
                                         &count));
  RL_RETURN_IF_ERROR(rl_capture_decode_records(
      decoder, reader, "code object", count, rl_capture_decode_code_object));
  RL_RETURN_IF_ERROR(rl_codec_reader_expect_end(reader));
  const char* target = decoder->capture->target ? decoder->capture->target : "";
  if (strcmp(decoder->target, target) != 0) {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, reader->base_offset,
        "META names target \"%s\", the code objects target \"%s\"",
        decoder->target, target);
  }
  return RL_OK;
}

static rl_status_t rl_capture_decode_kernel(rl_capture_decoder_t* decoder,
                                            rl_codec_reader_t* reader,
                                            uint32_t expected) {
  uint64_t offset = rl_codec_reader_offset(reader);
  uint32_t code_object = 0;
  char name[RL_CAPTURE_SYMBOL_MAX];
  RL_RETURN_IF_ERROR(
      rl_codec_read_u32(reader, "code object index", &code_object));
  RL_RETURN_IF_ERROR(rl_codec_read_string(reader, "name", name, sizeof(name)));
  uint32_t index = 0;
  return rl_capture_decode_added(
      reader, offset,
      rl_capture_add_kernel(decoder->capture, code_object, name, &index),
      &index, expected);
}

rl_status_t rl_capture_decode_kernels(rl_capture_decoder_t* decoder,
                                      rl_codec_reader_t* reader) {
  return rl_capture_decode_section(decoder, reader, "kernel",
                                   RL_CAPTURE_RECORD_KERNEL_MIN,
                                   rl_capture_decode_kernel);
}

static rl_status_t rl_capture_decode_buffer(rl_capture_decoder_t* decoder,
                                            rl_codec_reader_t* reader,
                                            uint32_t expected) {
  uint64_t offset = rl_codec_reader_offset(reader);
  char name[RL_CAPTURE_NAME_MAX];
  rl_capture_buffer_t buffer;
  memset(&buffer, 0, sizeof(buffer));
  uint32_t role = 0;
  uint32_t flags = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_string(reader, "name", name, sizeof(name)));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(reader, "size", &buffer.size));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(reader, "alignment", &buffer.alignment));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "role", &role));
  RL_RETURN_IF_ERROR(
      rl_codec_read_u64(reader, "capture address", &buffer.capture_address));
  uint64_t flags_offset = rl_codec_reader_offset(reader);
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "flags", &flags));
  uint32_t known = RL_CAPTURE_BUFFER_FLAG_KEEP_ADDRESS |
                   RL_CAPTURE_BUFFER_FLAG_HAS_CONTENTS |
                   RL_CAPTURE_BUFFER_FLAG_VARIABLE;
  if (flags & ~known) {
    return rl_codec_reader_fail_at(reader, RL_STATUS_INVALID_INPUT,
                                   flags_offset,
                                   "flags 0x%x set reserved bits", flags);
  }
  char symbol[RL_CAPTURE_SYMBOL_MAX];
  if (flags & RL_CAPTURE_BUFFER_FLAG_VARIABLE) {
    RL_RETURN_IF_ERROR(
        rl_codec_read_u32(reader, "code object", &buffer.code_object));
    RL_RETURN_IF_ERROR(
        rl_codec_read_string(reader, "symbol", symbol, sizeof(symbol)));
    RL_RETURN_IF_ERROR(
        rl_codec_read_u64(reader, "symbol offset", &buffer.symbol_offset));
    buffer.symbol = symbol;
  }
  buffer.name = name;
  buffer.role = (rl_buffer_role_t)role;
  buffer.keep_address = (flags & RL_CAPTURE_BUFFER_FLAG_KEEP_ADDRESS) != 0;
  uint32_t index = 0;
  RL_RETURN_IF_ERROR(rl_capture_decode_added(
      reader, offset, rl_capture_add_buffer(decoder->capture, &buffer, &index),
      &index, expected));
  decoder->has_contents[index] =
      (flags & RL_CAPTURE_BUFFER_FLAG_HAS_CONTENTS) != 0;
  return RL_OK;
}

rl_status_t rl_capture_decode_buffers(rl_capture_decoder_t* decoder,
                                      rl_codec_reader_t* reader) {
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_count(
      reader, "buffer count", RL_CAPTURE_RECORD_BUFFER_MIN, &count));
  decoder->has_contents = calloc(count ? count : 1, 1);
  if (!decoder->has_contents) return rl_status_out_of_memory();
  RL_RETURN_IF_ERROR(rl_capture_decode_records(decoder, reader, "buffer", count,
                                               rl_capture_decode_buffer));
  return rl_codec_reader_expect_end(reader);
}

// Decompresses one zstd frame of exactly |size| bytes into a new buffer.
static rl_status_t rl_capture_decode_zstd(const rl_codec_reader_t* reader,
                                          uint64_t offset,
                                          const uint8_t* stored,
                                          uint64_t stored_size, uint64_t size,
                                          uint8_t** out_contents) {
  *out_contents = NULL;
  unsigned long long content = ZSTD_getFrameContentSize(stored, stored_size);
  size_t frame = ZSTD_findFrameCompressedSize(stored, stored_size);
  if (content == ZSTD_CONTENTSIZE_ERROR ||
      content == ZSTD_CONTENTSIZE_UNKNOWN || content != size ||
      ZSTD_isError(frame) || frame != stored_size ||
      size / RL_CAPTURE_ZSTD_MAX_RATIO > stored_size) {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, offset,
        "%llu stored bytes are not one zstd frame of %llu bytes",
        (unsigned long long)stored_size, (unsigned long long)size);
  }
  uint8_t* contents = malloc((size_t)size);
  if (!contents) return rl_status_out_of_memory();
  size_t produced =
      ZSTD_decompress(contents, (size_t)size, stored, stored_size);
  if (ZSTD_isError(produced) || produced != size) {
    free(contents);
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, offset,
        "zstd frame decodes to %s instead of %llu bytes",
        ZSTD_isError(produced) ? ZSTD_getErrorName(produced) : "another size",
        (unsigned long long)size);
  }
  *out_contents = contents;
  return RL_OK;
}

// Checks the record header of buffer |index|'s contents.
static rl_status_t rl_capture_decode_contents_check(
    const rl_capture_decoder_t* decoder, const rl_codec_reader_t* reader,
    uint64_t offset, uint32_t index, int64_t previous, uint64_t size) {
  const rl_capture_t* capture = decoder->capture;
  if (index >= capture->buffer_count || !decoder->has_contents[index] ||
      (int64_t)index <= previous) {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, offset,
        "buffer %u of %u is out of order or declared without contents", index,
        capture->buffer_count);
  }
  if (size != capture->buffers[index].size) {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, offset + 8,
        "%llu bytes of contents for buffer %s of %llu bytes",
        (unsigned long long)size, capture->buffers[index].name,
        (unsigned long long)capture->buffers[index].size);
  }
  return RL_OK;
}

static rl_status_t rl_capture_decode_contents(rl_capture_decoder_t* decoder,
                                              rl_codec_reader_t* reader,
                                              int64_t* previous) {
  uint64_t offset = rl_codec_reader_offset(reader);
  uint32_t index = 0, encoding = 0;
  uint64_t size = 0, stored_size = 0;
  const uint8_t* stored = NULL;
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "buffer index", &index));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "encoding", &encoding));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(reader, "size", &size));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(reader, "stored size", &stored_size));
  RL_RETURN_IF_ERROR(rl_capture_decode_contents_check(decoder, reader, offset,
                                                      index, *previous, size));
  RL_RETURN_IF_ERROR(
      rl_codec_read_bytes(reader, "stored bytes", stored_size, &stored));
  uint8_t* contents = NULL;
  if (encoding == RL_CAPTURE_ENCODING_RAW && stored_size == size) {
    contents = malloc((size_t)size);
    if (!contents) return rl_status_out_of_memory();
    memcpy(contents, stored, (size_t)size);
  } else if (encoding == RL_CAPTURE_ENCODING_ZSTD) {
    RL_RETURN_IF_ERROR(rl_capture_decode_zstd(reader, offset + 24, stored,
                                              stored_size, size, &contents));
  } else {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, offset + 4,
        "encoding %u with %llu stored bytes for %llu bytes", encoding,
        (unsigned long long)stored_size, (unsigned long long)size);
  }
  decoder->capture->buffers[index].initial = contents;
  *previous = index;
  return RL_OK;
}

// The decompression budget (redline/limits.h): the contents BUFFERS
// declares, summed in buffer order, against max_decompressed_bytes, before
// any record is decompressed.
static rl_status_t rl_capture_decode_check_budget(
    const rl_capture_decoder_t* decoder, const rl_codec_reader_t* reader,
    uint64_t offset) {
  const rl_capture_t* capture = decoder->capture;
  const uint64_t limit = decoder->max_decompressed_bytes;
  uint64_t total = 0;
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    if (!decoder->has_contents[i]) continue;
    uint64_t size = capture->buffers[i].size;
    total = size > UINT64_MAX - total ? UINT64_MAX : total + size;
    if (total > limit) {
      return rl_codec_reader_fail_at(
          reader, RL_STATUS_INVALID_INPUT, offset,
          "capture buffer %u '%s': %llu bytes decompressed bring the total "
          "to %llu, over the limit of %llu (max_decompressed_bytes, "
          "--max-decompressed)",
          i, capture->buffers[i].name, (unsigned long long)size,
          (unsigned long long)total, (unsigned long long)limit);
    }
  }
  return RL_OK;
}

rl_status_t rl_capture_decode_buffer_data(rl_capture_decoder_t* decoder,
                                          rl_codec_reader_t* reader) {
  uint32_t expected = 0;
  for (uint32_t i = 0; i < decoder->capture->buffer_count; ++i) {
    expected += decoder->has_contents[i];
  }
  uint64_t offset = rl_codec_reader_offset(reader);
  RL_RETURN_IF_ERROR(rl_capture_decode_check_budget(decoder, reader, offset));
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_count(
      reader, "record count", RL_CAPTURE_RECORD_BUFFER_DATA_MIN, &count));
  if (count != expected) {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, offset,
        "%u contents records, but BUFFERS declares %u buffers with contents",
        count, expected);
  }
  int64_t previous = -1;
  for (uint32_t i = 0; i < count; ++i) {
    rl_codec_reader_set_label(reader, "record %u", i);
    RL_RETURN_IF_ERROR(rl_capture_decode_contents(decoder, reader, &previous));
  }
  return rl_codec_reader_expect_end(reader);
}

static rl_status_t rl_capture_decode_param(rl_capture_decoder_t* decoder,
                                           rl_codec_reader_t* reader,
                                           uint32_t expected) {
  uint64_t offset = rl_codec_reader_offset(reader);
  char name[RL_CAPTURE_NAME_MAX];
  rl_capture_param_t param = {name, 0, 0, 0};
  RL_RETURN_IF_ERROR(rl_codec_read_string(reader, "name", name, sizeof(name)));
  RL_RETURN_IF_ERROR(rl_codec_read_i64(reader, "min", &param.min));
  RL_RETURN_IF_ERROR(rl_codec_read_i64(reader, "max", &param.max));
  RL_RETURN_IF_ERROR(
      rl_codec_read_i64(reader, "capture value", &param.capture_value));
  uint32_t index = 0;
  return rl_capture_decode_added(
      reader, offset, rl_capture_add_param(decoder->capture, &param, &index),
      &index, expected);
}

rl_status_t rl_capture_decode_params(rl_capture_decoder_t* decoder,
                                     rl_codec_reader_t* reader) {
  return rl_capture_decode_section(decoder, reader, "parameter",
                                   RL_CAPTURE_RECORD_PARAM_MIN,
                                   rl_capture_decode_param);
}

static rl_status_t rl_capture_decode_slot(rl_codec_reader_t* reader,
                                          rl_pointer_slot_t* slot) {
  uint32_t effect = 0, source = 0;
  RL_RETURN_IF_ERROR(
      rl_codec_read_u32(reader, "slot kernarg offset", &slot->kernarg_offset));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "slot buffer", &slot->buffer));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(reader, "slot offset", &slot->offset));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "slot effect", &effect));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "slot effect source", &source));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(reader, "slot extent offset",
                                       &slot->extent_offset));
  RL_RETURN_IF_ERROR(
      rl_codec_read_u64(reader, "slot extent size", &slot->extent_size));
  slot->effect = (rl_effect_t)effect;
  slot->source = (rl_effect_source_t)source;
  return RL_OK;
}

static rl_status_t rl_capture_decode_binding(rl_codec_reader_t* reader,
                                             rl_scalar_binding_t* binding) {
  uint32_t target = 0, op = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "binding target", &target));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "binding offset",
                                       &binding->offset));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "binding size", &binding->size));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "binding parameter",
                                       &binding->expr.param));
  RL_RETURN_IF_ERROR(rl_codec_read_i64(reader, "binding add",
                                       &binding->expr.add));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "binding operator", &op));
  RL_RETURN_IF_ERROR(rl_codec_read_i64(reader, "binding operand",
                                       &binding->expr.operand));
  binding->target = (rl_binding_target_t)target;
  binding->expr.op = (rl_expr_op_t)op;
  return RL_OK;
}

// Reads the fixed fields and the kernarg bytes of a launch record.
static rl_status_t rl_capture_decode_launch_head(rl_codec_reader_t* reader,
                                                 rl_capture_launch_t* launch) {
  const uint8_t* kernarg = NULL;
  RL_RETURN_IF_ERROR(
      rl_codec_read_u32(reader, "kernel index", &launch->kernel));
  for (int axis = 0; axis < 3; ++axis) {
    RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "grid", &launch->grid[axis]));
  }
  for (int axis = 0; axis < 3; ++axis) {
    RL_RETURN_IF_ERROR(
        rl_codec_read_u32(reader, "block", &launch->block[axis]));
  }
  RL_RETURN_IF_ERROR(
      rl_codec_read_u32(reader, "dynamic LDS size", &launch->dynamic_lds));
  RL_RETURN_IF_ERROR(
      rl_codec_read_u32(reader, "kernarg size", &launch->kernarg_size));
  RL_RETURN_IF_ERROR(rl_codec_read_bytes(reader, "kernarg bytes",
                                         launch->kernarg_size, &kernarg));
  // The builder copies the bytes; the model's field is not const.
  launch->kernarg = (uint8_t*)(uintptr_t)kernarg;
  return RL_OK;
}

// Reads slots and bindings into arrays owned by |launch|.
static rl_status_t rl_capture_decode_launch_tail(rl_codec_reader_t* reader,
                                                 uint32_t max_bindings,
                                                 rl_capture_launch_t* launch) {
  RL_RETURN_IF_ERROR(rl_codec_read_count(
      reader, "slot count", RL_CAPTURE_RECORD_SLOT, &launch->slot_count));
  launch->slots = calloc(launch->slot_count + 1, sizeof(*launch->slots));
  if (!launch->slots) return rl_status_out_of_memory();
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    RL_RETURN_IF_ERROR(rl_capture_decode_slot(reader, &launch->slots[s]));
  }
  RL_RETURN_IF_ERROR(rl_codec_read_count(reader, "binding count",
                                         RL_CAPTURE_RECORD_BINDING,
                                         &launch->binding_count));
  if (launch->binding_count > max_bindings) {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, rl_codec_reader_offset(reader),
        "%u bindings exceed the limit of %u (max_bindings, --max-bindings)",
        launch->binding_count, max_bindings);
  }
  launch->bindings =
      calloc(launch->binding_count + 1, sizeof(*launch->bindings));
  if (!launch->bindings) return rl_status_out_of_memory();
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    RL_RETURN_IF_ERROR(rl_capture_decode_binding(reader, &launch->bindings[b]));
  }
  return RL_OK;
}

static rl_status_t rl_capture_decode_launch(rl_capture_decoder_t* decoder,
                                            rl_codec_reader_t* reader,
                                            uint32_t expected) {
  uint64_t offset = rl_codec_reader_offset(reader);
  rl_capture_launch_t launch;
  memset(&launch, 0, sizeof(launch));
  rl_status_t status = rl_capture_decode_launch_head(reader, &launch);
  if (!status) {
    status =
        rl_capture_decode_launch_tail(reader, decoder->max_bindings, &launch);
  }
  // BINDING_EXT's scales of this launch's bindings (records in increasing
  // launch, binding order).
  while (!status && decoder->ext_next < decoder->ext_count &&
         decoder->ext_where[decoder->ext_next][0] == expected) {
    uint32_t b = decoder->ext_where[decoder->ext_next][1];
    if (b >= launch.binding_count) {
      status = rl_codec_reader_fail_at(
          reader, RL_STATUS_INVALID_INPUT, offset,
          "BINDING_EXT record %u scales binding %u of %u", decoder->ext_next,
          b, launch.binding_count);
      break;
    }
    launch.bindings[b].expr.scale = decoder->ext_scale[decoder->ext_next++];
  }
  uint32_t index = 0;
  if (!status) {
    status = rl_capture_decode_added(
        reader, offset,
        rl_capture_add_launch(decoder->capture, &launch, &index), &index,
        expected);
  }
  free(launch.slots);
  free(launch.bindings);
  return status;
}

rl_status_t rl_capture_decode_binding_ext(rl_capture_decoder_t* decoder,
                                          rl_codec_reader_t* reader) {
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_count(
      reader, "binding ext count", RL_CAPTURE_RECORD_BINDING_EXT, &count));
  decoder->ext_where = calloc(count + 1u, sizeof(*decoder->ext_where));
  decoder->ext_scale = calloc(count + 1u, sizeof(*decoder->ext_scale));
  if (!decoder->ext_where || !decoder->ext_scale) {
    return rl_status_out_of_memory();
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t offset = rl_codec_reader_offset(reader);
    uint32_t* where = decoder->ext_where[i];
    RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "ext launch", &where[0]));
    RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "ext binding", &where[1]));
    RL_RETURN_IF_ERROR(
        rl_codec_read_i64(reader, "ext scale", &decoder->ext_scale[i]));
    bool ordered = i == 0 || where[0] > decoder->ext_where[i - 1][0] ||
                   (where[0] == decoder->ext_where[i - 1][0] &&
                    where[1] > decoder->ext_where[i - 1][1]);
    int64_t scale = decoder->ext_scale[i];
    if (!ordered || scale == 0 || scale == 1) {
      return rl_codec_reader_fail_at(
          reader, RL_STATUS_INVALID_INPUT, offset,
          "BINDING_EXT record %u (launch %u binding %u scale %lld): records "
          "must be in increasing launch, binding order with a scale other "
          "than 0 and 1",
          i, where[0], where[1], (long long)scale);
    }
  }
  decoder->ext_count = count;
  return rl_codec_reader_expect_end(reader);
}

rl_status_t rl_capture_decode_launches(rl_capture_decoder_t* decoder,
                                       rl_codec_reader_t* reader) {
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_count(
      reader, "launch count", RL_CAPTURE_RECORD_LAUNCH_MIN, &count));
  RL_RETURN_IF_ERROR(rl_capture_decode_records(decoder, reader, "launch", count,
                                               rl_capture_decode_launch));
  if (decoder->ext_next < decoder->ext_count) {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, reader->base_offset,
        "BINDING_EXT record %u names launch %u of %u", decoder->ext_next,
        decoder->ext_where[decoder->ext_next][0], count);
  }
  return rl_codec_reader_expect_end(reader);
}

static rl_status_t rl_capture_decode_region(rl_capture_decoder_t* decoder,
                                            rl_codec_reader_t* reader,
                                            uint32_t expected) {
  uint64_t offset = rl_codec_reader_offset(reader);
  char name[RL_CAPTURE_NAME_MAX];
  rl_capture_region_t region = {name, 0, 0, 0, RL_REGION_BYTES};
  uint32_t type = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_string(reader, "name", name, sizeof(name)));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "buffer", &region.buffer));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(reader, "offset", &region.offset));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(reader, "size", &region.size));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "type", &type));
  region.type = (rl_region_type_t)type;
  uint32_t index = 0;
  return rl_capture_decode_added(
      reader, offset, rl_capture_add_region(decoder->capture, &region, &index),
      &index, expected);
}

rl_status_t rl_capture_decode_regions(rl_capture_decoder_t* decoder,
                                      rl_codec_reader_t* reader) {
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_count(
      reader, "region count", RL_CAPTURE_RECORD_REGION_MIN, &count));
  if (count > decoder->max_regions) {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, rl_codec_reader_offset(reader),
        "%u regions exceed the limit of %u (max_regions, --max-regions)", count,
        decoder->max_regions);
  }
  RL_RETURN_IF_ERROR(rl_capture_decode_records(decoder, reader, "region", count,
                                               rl_capture_decode_region));
  return rl_codec_reader_expect_end(reader);
}

static rl_status_t rl_capture_decode_window(rl_capture_decoder_t* decoder,
                                            rl_codec_reader_t* reader,
                                            uint32_t expected) {
  uint64_t offset = rl_codec_reader_offset(reader);
  rl_capture_window_t window;
  memset(&window, 0, sizeof(window));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "parameter", &window.param));
  RL_RETURN_IF_ERROR(rl_codec_read_i64(reader, "start", &window.start));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "count", &window.count));
  RL_RETURN_IF_ERROR(rl_codec_read_i64(reader, "stride", &window.stride));
  if (window.count > decoder->max_windows) {
    return rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, offset,
        "%u windows exceed the limit of %u (max_windows, --max-windows)",
        window.count, decoder->max_windows);
  }
  uint32_t index = 0;
  return rl_capture_decode_added(
      reader, offset, rl_capture_add_window(decoder->capture, &window, &index),
      &index, expected);
}

rl_status_t rl_capture_decode_windows(rl_capture_decoder_t* decoder,
                                      rl_codec_reader_t* reader) {
  return rl_capture_decode_section(decoder, reader, "window",
                                   RL_CAPTURE_RECORD_WINDOW,
                                   rl_capture_decode_window);
}
