// Little-endian byte codec of the capture file (capture/format/capture_codec.h).
#include "capture/format/capture_codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/byte_order.h"

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

void rl_codec_writer_init(rl_codec_writer_t* writer) {
  memset(writer, 0, sizeof(*writer));
}

void rl_codec_writer_deinit(rl_codec_writer_t* writer) {
  free(writer->data);
  memset(writer, 0, sizeof(*writer));
}

static bool rl_codec_writer_grow(rl_codec_writer_t* writer, size_t needed) {
  size_t capacity = writer->capacity ? writer->capacity : 256;
  while (capacity < needed) {
    if (capacity > SIZE_MAX / 2) return false;
    capacity *= 2;
  }
  uint8_t* data = realloc(writer->data, capacity);
  if (!data) return false;
  writer->data = data;
  writer->capacity = capacity;
  return true;
}

uint8_t* rl_codec_writer_append(rl_codec_writer_t* writer, size_t size) {
  if (writer->failed) return NULL;
  if (size > SIZE_MAX - writer->size ||
      (writer->size + size > writer->capacity &&
       !rl_codec_writer_grow(writer, writer->size + size))) {
    writer->failed = true;
    return NULL;
  }
  uint8_t* at = writer->data + writer->size;
  writer->size += size;
  return at;
}

void rl_codec_writer_truncate(rl_codec_writer_t* writer, size_t size) {
  if (size < writer->size) writer->size = size;
}

static void rl_codec_write_le(rl_codec_writer_t* writer, uint64_t value,
                              size_t size) {
  uint8_t* at = rl_codec_writer_append(writer, size);
  if (at) rl_store_le(at, (uint32_t)size, value);
}

void rl_codec_write_u32(rl_codec_writer_t* writer, uint32_t value) {
  rl_codec_write_le(writer, value, 4);
}

void rl_codec_write_u64(rl_codec_writer_t* writer, uint64_t value) {
  rl_codec_write_le(writer, value, 8);
}

void rl_codec_write_i64(rl_codec_writer_t* writer, int64_t value) {
  rl_codec_write_le(writer, (uint64_t)value, 8);
}

void rl_codec_write_bytes(rl_codec_writer_t* writer, const void* data,
                          size_t size) {
  uint8_t* at = rl_codec_writer_append(writer, size);
  if (at && size) memcpy(at, data, size);
}

void rl_codec_write_zeros(rl_codec_writer_t* writer, size_t size) {
  uint8_t* at = rl_codec_writer_append(writer, size);
  if (at && size) memset(at, 0, size);
}

void rl_codec_write_string(rl_codec_writer_t* writer, const char* text) {
  size_t length = text ? strlen(text) : 0;
  if (length > UINT32_MAX) {
    writer->failed = true;
    return;
  }
  rl_codec_write_u32(writer, (uint32_t)length);
  rl_codec_write_bytes(writer, text, length);
}

void rl_codec_write_digest(rl_codec_writer_t* writer, rl_digest128_t digest) {
  uint8_t* at = rl_codec_writer_append(writer, RL_CODEC_DIGEST_SIZE);
  if (at) rl_codec_store_digest(at, digest);
}

void rl_codec_write_pad(rl_codec_writer_t* writer, size_t alignment) {
  size_t remainder = writer->size % alignment;
  if (remainder) rl_codec_write_zeros(writer, alignment - remainder);
}

rl_status_t rl_codec_writer_status(const rl_codec_writer_t* writer) {
  return writer->failed ? rl_status_out_of_memory() : RL_OK;
}

void rl_codec_store_u32(uint8_t* at, uint32_t value) {
  for (int i = 0; i < 4; ++i) at[i] = (uint8_t)(value >> (8 * i));
}

void rl_codec_store_u64(uint8_t* at, uint64_t value) {
  for (int i = 0; i < 8; ++i) at[i] = (uint8_t)(value >> (8 * i));
}

uint64_t rl_codec_load_u64(const uint8_t* at) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | at[i];
  return value;
}

// The canonical XXH128 form is big-endian: high half first.
void rl_codec_store_digest(uint8_t* at, rl_digest128_t digest) {
  for (int i = 0; i < 8; ++i) {
    at[i] = (uint8_t)(digest.high >> (56 - 8 * i));
    at[8 + i] = (uint8_t)(digest.low >> (56 - 8 * i));
  }
}

rl_digest128_t rl_codec_load_digest(const uint8_t* at) {
  rl_digest128_t digest = {0, 0};
  for (int i = 0; i < 8; ++i) {
    digest.high = (digest.high << 8) | at[i];
    digest.low = (digest.low << 8) | at[8 + i];
  }
  return digest;
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

void rl_codec_reader_init(rl_codec_reader_t* reader, const void* data,
                          size_t size, uint64_t base_offset,
                          const char* section) {
  memset(reader, 0, sizeof(*reader));
  reader->data = data;
  reader->size = size;
  reader->base_offset = base_offset;
  reader->section = section;
}

void rl_codec_reader_set_label(rl_codec_reader_t* reader, const char* format,
                               ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(reader->label, sizeof(reader->label), format, args);
  va_end(args);
}

size_t rl_codec_reader_left(const rl_codec_reader_t* reader) {
  return reader->size - reader->position;
}

uint64_t rl_codec_reader_offset(const rl_codec_reader_t* reader) {
  return reader->base_offset + reader->position;
}

rl_status_t rl_codec_reader_fail_at(const rl_codec_reader_t* reader,
                                    rl_status_code_t code, uint64_t offset,
                                    const char* format, ...) {
  char message[256];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  const char* separator = reader->label[0] ? ": " : "";
  return RL_STATUS(code, "%s, byte %llu: %s%s%s", reader->section,
                   (unsigned long long)offset, reader->label, separator,
                   message);
}

// Checks that |size| more bytes can be read for the field |what|.
static rl_status_t rl_codec_reader_need(const rl_codec_reader_t* reader,
                                        const char* what, uint64_t size) {
  if (size <= rl_codec_reader_left(reader)) return RL_OK;
  return rl_codec_reader_fail_at(
      reader, RL_STATUS_INVALID_INPUT, rl_codec_reader_offset(reader),
      "%s needs %llu bytes, %zu are left", what, (unsigned long long)size,
      rl_codec_reader_left(reader));
}

static rl_status_t rl_codec_read_le(rl_codec_reader_t* reader,
                                    const char* what, size_t size,
                                    uint64_t* out_value) {
  *out_value = 0;
  RL_RETURN_IF_ERROR(rl_codec_reader_need(reader, what, size));
  const uint8_t* at = reader->data + reader->position;
  for (size_t i = size; i > 0; --i) *out_value = (*out_value << 8) | at[i - 1];
  reader->position += size;
  return RL_OK;
}

// The fixed-width readers: rl_codec_read_le, narrowed to |type|.
#define RL_CODEC_DEFINE_READ(name, type, size)                             \
  rl_status_t name(rl_codec_reader_t* reader, const char* what,            \
                   type* out_value) {                                      \
    uint64_t value = 0;                                                    \
    rl_status_t status = rl_codec_read_le(reader, what, size, &value);     \
    *out_value = (type)value;                                              \
    return status;                                                         \
  }

RL_CODEC_DEFINE_READ(rl_codec_read_u16, uint16_t, 2)
RL_CODEC_DEFINE_READ(rl_codec_read_u32, uint32_t, 4)
RL_CODEC_DEFINE_READ(rl_codec_read_i64, int64_t, 8)

rl_status_t rl_codec_read_u64(rl_codec_reader_t* reader, const char* what,
                              uint64_t* out_value) {
  return rl_codec_read_le(reader, what, 8, out_value);
}

rl_status_t rl_codec_read_digest(rl_codec_reader_t* reader, const char* what,
                                 rl_digest128_t* out_digest) {
  *out_digest = (rl_digest128_t){0, 0};
  RL_RETURN_IF_ERROR(rl_codec_reader_need(reader, what, RL_CODEC_DIGEST_SIZE));
  *out_digest = rl_codec_load_digest(reader->data + reader->position);
  reader->position += RL_CODEC_DIGEST_SIZE;
  return RL_OK;
}

rl_status_t rl_codec_read_bytes(rl_codec_reader_t* reader, const char* what,
                                uint64_t size, const uint8_t** out_bytes) {
  *out_bytes = NULL;
  RL_RETURN_IF_ERROR(rl_codec_reader_need(reader, what, size));
  *out_bytes = reader->data + reader->position;
  reader->position += (size_t)size;
  return RL_OK;
}

rl_status_t rl_codec_read_string(rl_codec_reader_t* reader, const char* what,
                                 char* out, size_t out_size) {
  out[0] = '\0';
  size_t start = reader->position;
  uint32_t length = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, what, &length));
  const uint8_t* bytes = NULL;
  rl_status_t status = RL_OK;
  if (length >= out_size) {
    status = rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, reader->base_offset + start,
        "%s is %u bytes long, the limit is %zu", what, length, out_size - 1);
  }
  if (!status) status = rl_codec_read_bytes(reader, what, length, &bytes);
  if (!status && memchr(bytes, 0, length)) {
    status = rl_codec_reader_fail_at(reader, RL_STATUS_INVALID_INPUT,
                                     reader->base_offset + start,
                                     "%s contains a NUL byte", what);
  }
  if (status) {
    reader->position = start;
    return status;
  }
  memcpy(out, bytes, length);
  out[length] = '\0';
  return RL_OK;
}

rl_status_t rl_codec_read_count(rl_codec_reader_t* reader, const char* what,
                                size_t min_record_size, uint32_t* out_count) {
  size_t start = reader->position;
  RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, what, out_count));
  size_t left = rl_codec_reader_left(reader);
  if (min_record_size && *out_count > left / min_record_size) {
    rl_status_t status = rl_codec_reader_fail_at(
        reader, RL_STATUS_INVALID_INPUT, reader->base_offset + start,
        "%s %u needs at least %llu bytes, %zu are left", what, *out_count,
        (unsigned long long)*out_count * min_record_size, left);
    reader->position = start;
    *out_count = 0;
    return status;
  }
  return RL_OK;
}

rl_status_t rl_codec_reader_expect_end(const rl_codec_reader_t* reader) {
  if (reader->position == reader->size) return RL_OK;
  rl_codec_reader_t unlabelled = *reader;
  unlabelled.label[0] = '\0';
  return rl_codec_reader_fail_at(&unlabelled, RL_STATUS_INVALID_INPUT,
                                 rl_codec_reader_offset(reader),
                                 "%zu unread bytes after the last record",
                                 rl_codec_reader_left(reader));
}
