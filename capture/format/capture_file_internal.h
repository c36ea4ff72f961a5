// capture/format/capture_file_internal.h — the state the capture file reader
// (capture_file_read.c) shares with its section decoders
// (capture_file_decode.c). Private to rl_capture.
//
// The reader checks the header and each section's frame (bounds, checksum,
// padding, order), then hands the payload to the decoder of its kind. The
// decoders read records through the bounds-checked cursor of
// capture_codec.h and build the model only through rl_capture_add_*(), so
// every semantic check is the one the capture builders apply.
#ifndef REDLINE_CAPTURE_CAPTURE_FILE_INTERNAL_H_
#define REDLINE_CAPTURE_CAPTURE_FILE_INTERNAL_H_

#include "capture/format/capture_codec.h"
#include "redline/capture_file.h"
#include "redline/limits.h"

// Section flag bits of BUFFERS records.
#define RL_CAPTURE_BUFFER_FLAG_KEEP_ADDRESS 0x1u
#define RL_CAPTURE_BUFFER_FLAG_HAS_CONTENTS 0x2u
// The buffer aliases a code object variable: the record goes on with the
// code object index (u32), the symbol (string) and the offset in the
// variable (u64).
#define RL_CAPTURE_BUFFER_FLAG_VARIABLE 0x4u

// The smallest encoded record of each section (used to bound counts).
#define RL_CAPTURE_RECORD_CODE_OBJECT_MIN 24
#define RL_CAPTURE_RECORD_KERNEL_MIN 8
#define RL_CAPTURE_RECORD_BUFFER_MIN 36
#define RL_CAPTURE_RECORD_BUFFER_DATA_MIN 24
#define RL_CAPTURE_RECORD_PARAM_MIN 28
#define RL_CAPTURE_RECORD_LAUNCH_MIN 44
#define RL_CAPTURE_RECORD_SLOT 40
#define RL_CAPTURE_RECORD_BINDING 36
#define RL_CAPTURE_RECORD_REGION_MIN 28
#define RL_CAPTURE_RECORD_WINDOW 24
#define RL_CAPTURE_RECORD_ISSUED_MIN 8
#define RL_CAPTURE_RECORD_COOPERATIVE 4  // a launch index, u32
#define RL_CAPTURE_RECORD_DESCRIPTOR 32   // rl_capture_descriptor_t

// A zstd block of at least 4 encoded bytes yields at most 128 KiB, so no
// frame expands by more than this factor; larger claims are corrupt.
#define RL_CAPTURE_ZSTD_MAX_RATIO 32768u

typedef struct rl_capture_decoder_s {
  bool check_integrity;   // false only under fuzzing (see below)
  uint64_t max_decompressed_bytes;  // redline/limits.h, resolved
  uint32_t max_windows;             // redline/limits.h, resolved
  uint32_t max_regions;
  uint32_t max_bindings;
  rl_capture_t* capture;  // created by the META decoder
  rl_capture_file_info_t* info;
  char target[RL_CAPTURE_NAME_MAX];  // META's target, checked after code
  uint8_t* has_contents;  // per buffer: BUFFER_DATA must hold a record
  // BINDING_EXT's records (launch, binding, scale), applied by LAUNCHES in
  // order; |ext_next| is the first not yet applied.
  uint32_t ext_count, ext_next;
  uint32_t (*ext_where)[2];
  int64_t* ext_scale;
} rl_capture_decoder_t;

// A BINDING_EXT record: launch u32, binding u32, scale i64.
#define RL_CAPTURE_RECORD_BINDING_EXT 16

// Decodes BINDING_EXT into |decoder| (applied while LAUNCHES decodes).
rl_status_t rl_capture_decode_binding_ext(rl_capture_decoder_t* decoder,
                                          rl_codec_reader_t* reader);

// Decodes the payload under |reader| (one known data section) into
// |decoder|'s capture. Each checks that the whole payload was consumed.
rl_status_t rl_capture_decode_meta(rl_capture_decoder_t* decoder,
                                   rl_codec_reader_t* reader);
rl_status_t rl_capture_decode_code_objects(rl_capture_decoder_t* decoder,
                                           rl_codec_reader_t* reader);
rl_status_t rl_capture_decode_kernels(rl_capture_decoder_t* decoder,
                                      rl_codec_reader_t* reader);
rl_status_t rl_capture_decode_buffers(rl_capture_decoder_t* decoder,
                                      rl_codec_reader_t* reader);
rl_status_t rl_capture_decode_buffer_data(rl_capture_decoder_t* decoder,
                                          rl_codec_reader_t* reader);
rl_status_t rl_capture_decode_params(rl_capture_decoder_t* decoder,
                                     rl_codec_reader_t* reader);
rl_status_t rl_capture_decode_launches(rl_capture_decoder_t* decoder,
                                       rl_codec_reader_t* reader);
rl_status_t rl_capture_decode_regions(rl_capture_decoder_t* decoder,
                                      rl_codec_reader_t* reader);
rl_status_t rl_capture_decode_windows(rl_capture_decoder_t* decoder,
                                      rl_codec_reader_t* reader);

// The optional ISSUED section (redline/capture_issued.h,
// capture_file_issued.c): written after the data sections when the capture has
// records, decoded after WINDOWS (every launch known).
void rl_capture_encode_issued(const rl_capture_t* capture,
                              rl_codec_writer_t* writer);
rl_status_t rl_capture_decode_issued(rl_capture_t* capture,
                                     rl_codec_reader_t* reader);

// rl_capture_file_read_memory() with a switch for the integrity checks
// (header and section checksums, code-object digests, the identity). With
// |check_integrity| false a fuzzer reaches the decoders behind the
// checksums; every structural and semantic check still runs. Products
// always check; only tests/fuzz passes false. |limits| may be NULL (the
// defaults of redline/limits.h).
rl_status_t rl_capture_file_decode_memory(const void* data, size_t size,
                                          bool check_integrity,
                                          const rl_limits_t* limits,
                                          rl_capture_t** out_capture,
                                          rl_capture_file_info_t* out_info);

#endif  // REDLINE_CAPTURE_CAPTURE_FILE_INTERNAL_H_
