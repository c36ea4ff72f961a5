// As-issued argument records (redline/capture_issued.h); their ISSUED
// section is capture/format/capture_file_issued.c.
#include "redline/capture_issued.h"

#include <stdlib.h>
#include <string.h>

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
