// As-issued argument records and their ISSUED section
// (redline/capture_issued.h, docs/capture-format.md).
#include "redline/capture_issued.h"

#include <stdlib.h>
#include <string.h>

#include "capture/format/capture_file_internal.h"
#include "base/array.h"

rl_status_t rl_capture_add_issued(rl_capture_t* capture, uint32_t launch,
                                  const void* bytes, uint32_t size) {
  if (!capture || !bytes) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "rl_capture_add_issued: %s is NULL",
                     !capture ? "capture" : "bytes");
  }
  if (launch >= capture->launch_count ||
      (capture->issued_count &&
       capture->issued[capture->issued_count - 1].launch >= launch) ||
      size > capture->launches[launch].kernarg_size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "as-issued record of launch %u (%u bytes): no such "
                     "launch, out of order or larger than its kernarg",
                     launch, size);
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->issued,
                                      &capture->issued_capacity,
                                      capture->issued_count + 1));
  uint8_t* copy = malloc(size ? size : 1);
  if (!copy) return rl_status_out_of_memory();
  if (size) memcpy(copy, bytes, size);
  capture->issued[capture->issued_count++] =
      (rl_capture_issued_t){.launch = launch, .size = size, .bytes = copy};
  return RL_OK;
}

const rl_capture_issued_t* rl_capture_issued_find(const rl_capture_t* capture,
                                                  uint32_t launch) {
  if (!capture) return NULL;
  uint32_t lo = 0, hi = capture->issued_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (capture->issued[mid].launch < launch) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < capture->issued_count && capture->issued[lo].launch == launch
             ? &capture->issued[lo]
             : NULL;
}

void rl_capture_issued_clear(rl_capture_t* capture) {
  if (!capture) return;
  for (uint32_t i = 0; i < capture->issued_count; ++i) {
    free(capture->issued[i].bytes);
  }
  free(capture->issued);
  capture->issued = NULL;
  capture->issued_count = capture->issued_capacity = 0;
}

void rl_capture_encode_issued(const rl_capture_t* capture,
                              rl_codec_writer_t* writer) {
  rl_codec_write_u32(writer, capture->issued_count);
  for (uint32_t i = 0; i < capture->issued_count; ++i) {
    rl_codec_write_u32(writer, capture->issued[i].launch);
    rl_codec_write_u32(writer, capture->issued[i].size);
    rl_codec_write_bytes(writer, capture->issued[i].bytes,
                         capture->issued[i].size);
  }
}

rl_status_t rl_capture_decode_issued(rl_capture_t* capture,
                                     rl_codec_reader_t* reader) {
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_count(reader, "record count",
                                         RL_CAPTURE_RECORD_ISSUED_MIN, &count));
  for (uint32_t i = 0; i < count; ++i) {
    rl_codec_reader_set_label(reader, "record %u", i);
    uint64_t at = rl_codec_reader_offset(reader);
    uint32_t launch = 0, size = 0;
    const uint8_t* bytes = NULL;
    RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "launch", &launch));
    RL_RETURN_IF_ERROR(rl_codec_read_u32(reader, "size", &size));
    RL_RETURN_IF_ERROR(rl_codec_read_bytes(reader, "bytes", size, &bytes));
    rl_status_t status = rl_capture_add_issued(capture, launch, bytes, size);
    if (status) {
      rl_status_free(status);
      return rl_codec_reader_fail_at(
          reader, RL_STATUS_INVALID_INPUT, at,
          "launch %u with %u bytes: no such launch (of %u), out of order or "
          "larger than its kernarg",
          launch, size, capture->launch_count);
    }
  }
  rl_codec_reader_set_label(reader, "%s", "");
  return rl_codec_reader_expect_end(reader);
}
