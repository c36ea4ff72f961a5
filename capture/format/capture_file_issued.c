// The ISSUED section of the capture file: the as-issued argument records
// (redline/capture_issued.h, capture/model/capture_issued.c) encoded and
// decoded (capture_file_internal.h, docs/capture-format.md).
#include "redline/capture_issued.h"

#include "capture/format/capture_file_internal.h"

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
