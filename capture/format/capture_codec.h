// capture/format/capture_codec.h — the little-endian byte codec under the capture
// file format (capture_file.h). Private to rl_capture.
//
// Writer: a growing byte buffer. Appends never fail visibly: an allocation
// failure sets a sticky |failed| flag, later appends are dropped, and
// rl_codec_writer_status() reports the out-of-memory status once at the end.
// This keeps section encoders a flat list of field writes.
//
// Reader: a bounds-checked cursor over one span of the file (the header, or
// one section's payload). Every getter checks the bytes left before reading
// and fails with RL_STATUS_INVALID_INPUT and a message that names the
// section, the absolute file offset of the field and the record being read:
//   "section LAUNCHES, byte 12384: launch 0: slot count 700 needs at least
//    28000 bytes, 484 are left"
// A failed getter leaves the cursor where it was and clears its output.
// Strings are copied into caller storage of a fixed size, so a corrupt
// length can never cause an allocation; counts of records are checked
// against the bytes left (rl_codec_read_count) before anything is sized
// from them.
//
// Thread-safety: none; one writer or reader per thread.
#ifndef REDLINE_CAPTURE_CAPTURE_CODEC_H_
#define REDLINE_CAPTURE_CAPTURE_CODEC_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/digest.h"
#include "redline/status.h"

// The size of an encoded digest: the canonical (big-endian) XXH128 form, so
// a hex dump of the file shows the same digits rl_digest128_format prints.
#define RL_CODEC_DIGEST_SIZE 16

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

typedef struct rl_codec_writer_s {
  uint8_t* data;
  size_t size;      // bytes written
  size_t capacity;  // bytes allocated
  bool failed;      // sticky: an allocation failed, later writes dropped
} rl_codec_writer_t;

void rl_codec_writer_init(rl_codec_writer_t* writer);
void rl_codec_writer_deinit(rl_codec_writer_t* writer);

// Appends |size| uninitialised bytes and returns a pointer to them, or NULL
// after an allocation failure. The pointer is valid until the next append.
uint8_t* rl_codec_writer_append(rl_codec_writer_t* writer, size_t size);

// Drops bytes past |size| (size <= writer->size); used to undo a reserve.
void rl_codec_writer_truncate(rl_codec_writer_t* writer, size_t size);

void rl_codec_write_u32(rl_codec_writer_t* writer, uint32_t value);
void rl_codec_write_u64(rl_codec_writer_t* writer, uint64_t value);
void rl_codec_write_i64(rl_codec_writer_t* writer, int64_t value);
void rl_codec_write_bytes(rl_codec_writer_t* writer, const void* data,
                          size_t size);
void rl_codec_write_zeros(rl_codec_writer_t* writer, size_t size);
// A u32 byte length followed by the bytes of |text| (no terminator). NULL
// writes the empty string.
void rl_codec_write_string(rl_codec_writer_t* writer, const char* text);
void rl_codec_write_digest(rl_codec_writer_t* writer, rl_digest128_t digest);
// Appends zero bytes until the size is a multiple of |alignment|.
void rl_codec_write_pad(rl_codec_writer_t* writer, size_t alignment);

// OK, or the out-of-memory status if any append failed.
rl_status_t rl_codec_writer_status(const rl_codec_writer_t* writer);

// Little-endian stores into already written bytes (patching lengths and
// checksums after the fact).
void rl_codec_store_u32(uint8_t* at, uint32_t value);
void rl_codec_store_u64(uint8_t* at, uint64_t value);
uint64_t rl_codec_load_u64(const uint8_t* at);
void rl_codec_store_digest(uint8_t* at, rl_digest128_t digest);
rl_digest128_t rl_codec_load_digest(const uint8_t* at);

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

#define RL_CODEC_LABEL_MAX 64

typedef struct rl_codec_reader_s {
  const uint8_t* data;   // the span being read
  size_t size;           // its length
  size_t position;       // next byte, relative to |data|
  uint64_t base_offset;  // absolute file offset of data[0]
  const char* section;   // "section LAUNCHES", "header": message prefix
  char label[RL_CODEC_LABEL_MAX];  // current record ("launch 3") or ""
} rl_codec_reader_t;

void rl_codec_reader_init(rl_codec_reader_t* reader, const void* data,
                          size_t size, uint64_t base_offset,
                          const char* section);

// Names the record being read; it prefixes every later failure message.
void rl_codec_reader_set_label(rl_codec_reader_t* reader, const char* format,
                               ...) __attribute__((format(printf, 2, 3)));

size_t rl_codec_reader_left(const rl_codec_reader_t* reader);
// The absolute file offset of the next byte.
uint64_t rl_codec_reader_offset(const rl_codec_reader_t* reader);

// Makes a status "<section>, byte <offset>: <label>: <message>" with |code|,
// where |offset| is an absolute file offset.
rl_status_t rl_codec_reader_fail_at(const rl_codec_reader_t* reader,
                                    rl_status_code_t code, uint64_t offset,
                                    const char* format, ...)
    __attribute__((format(printf, 4, 5)));

// Getters. |what| names the field in failure messages ("slot count").
rl_status_t rl_codec_read_u16(rl_codec_reader_t* reader, const char* what,
                              uint16_t* out_value);
rl_status_t rl_codec_read_u32(rl_codec_reader_t* reader, const char* what,
                              uint32_t* out_value);
rl_status_t rl_codec_read_u64(rl_codec_reader_t* reader, const char* what,
                              uint64_t* out_value);
rl_status_t rl_codec_read_i64(rl_codec_reader_t* reader, const char* what,
                              int64_t* out_value);
rl_status_t rl_codec_read_digest(rl_codec_reader_t* reader, const char* what,
                                 rl_digest128_t* out_digest);

// Returns a pointer to the next |size| bytes (inside the span; no copy).
rl_status_t rl_codec_read_bytes(rl_codec_reader_t* reader, const char* what,
                                uint64_t size, const uint8_t** out_bytes);

// Reads a u32-length string into |out| (|out_size| bytes including the
// terminator). Fails when the string does not fit or contains a NUL byte.
rl_status_t rl_codec_read_string(rl_codec_reader_t* reader, const char* what,
                                 char* out, size_t out_size);

// Reads a u32 record count and checks that |count| records of at least
// |min_record_size| bytes each fit in the bytes left.
rl_status_t rl_codec_read_count(rl_codec_reader_t* reader, const char* what,
                                size_t min_record_size, uint32_t* out_count);

// Fails unless every byte of the span has been read.
rl_status_t rl_codec_reader_expect_end(const rl_codec_reader_t* reader);

#endif  // REDLINE_CAPTURE_CAPTURE_CODEC_H_
