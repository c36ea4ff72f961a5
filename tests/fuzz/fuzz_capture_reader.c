// libFuzzer target for the capture file reader (redline/capture_file.h).
//
// Each input is decoded twice: as a product reads it (every checksum, digest
// and the identity checked) and with the integrity checks off, so mutations
// reach the section decoders behind the checksums. Properties:
//   - no crash, leak or sanitizer report on any input;
//   - a failure is INVALID_INPUT or UNSUPPORTED (OUT_OF_MEMORY tolerated)
//     with a non-empty message;
//   - whatever the checked read accepts, the unchecked read accepts too;
//   - whatever the unchecked read accepts re-encodes, and the re-encoded
//     file passes the checked read with the same identity.
//
// Seeds: the sample file the capture_file_test unit test writes (see
// tests/capture_file.cmake; set RL_CAPTURE_FILE_SAMPLE=<path> to choose).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "redline/capture_file.h"
#include "capture/format/capture_file_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void rl_fuzz_check_failure(rl_status_t status) {
  rl_status_code_t code = rl_status_code(status);
  if (code != RL_STATUS_INVALID_INPUT && code != RL_STATUS_UNSUPPORTED &&
      code != RL_STATUS_OUT_OF_MEMORY) {
    __builtin_trap();
  }
  if (!rl_status_message(status)[0]) __builtin_trap();
  rl_status_free(status);
}

// Re-encodes |capture| and requires a checked read of the result to give
// the same identity.
static void rl_fuzz_round_trip(const rl_capture_t* capture) {
  uint8_t* bytes = NULL;
  size_t size = 0;
  rl_status_t status = rl_capture_file_encode(capture, NULL, &bytes, &size);
  if (status) __builtin_trap();
  rl_capture_t* again = NULL;
  rl_capture_file_info_t info;
  status = rl_capture_file_read_memory(bytes, size, &again, &info);
  if (status) __builtin_trap();
  rl_digest128_t identity;
  if (rl_capture_identity(capture, &identity) ||
      !rl_digest128_equal(identity, info.identity)) {
    __builtin_trap();
  }
  rl_capture_destroy(again);
  free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rl_capture_t* checked = NULL;
  rl_status_t status = rl_capture_file_read_memory(data, size, &checked, NULL);
  bool checked_ok = status == RL_OK;
  if (status) rl_fuzz_check_failure(status);
  rl_capture_destroy(checked);

  // The same limits as the checked read (the defaults), so a file the
  // checked reader accepts is never refused here for its size.
  rl_capture_t* capture = NULL;
  status =
      rl_capture_file_decode_memory(data, size, false, NULL, &capture, NULL);
  if (status) {
    if (checked_ok) __builtin_trap();
    rl_fuzz_check_failure(status);
    return 0;
  }
  rl_fuzz_round_trip(capture);
  rl_capture_destroy(capture);
  return 0;
}
