// redline/capture_issued.h — as-issued arguments of a capture's launches:
// the explicit kernel arguments as the program passed them to the HIP API,
// kept apart from the kernarg the capture writer assembled.
//
// Why: every replay route (and the shadow's recorded arm, which re-issues
// the capture through the same funnel) works from the capture's kernarg
// bytes. A mistake in how the capture side assembled them would replay
// identically in every arm. The LD_PRELOAD interposer therefore also keeps,
// per recorded launch, the bytes it read from hipLaunchKernel's argument
// array, hipModuleLaunchKernel's kernelParams or its extra buffer (or a
// graph node's kernarg), laid at the code object's metadata offsets by its
// own small decoder (capture/interposer/interposer_issued.c), not by the
// funnel. The shadow compares what each dispatch received with them
// (shadow/issued_check.h).
//
// Layout of one record: |size| bytes, the end of the kernel's last explicit
// argument; explicit argument a (metadata order) occupies [offset, offset +
// size) of its metadata; bytes between arguments and hidden arguments are
// not part of the record (stored as zeros, never compared). Records are
// ascending by launch; a launch without one (a copy or fill the interposer
// issued itself, an older capture) is not checked.
//
// Storage: the optional ISSUED section (docs/capture-format.md); a reader
// that does not know it skips it, and it is not part of the identity.
#ifndef REDLINE_CAPTURE_ISSUED_H_
#define REDLINE_CAPTURE_ISSUED_H_

#include <stddef.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_capture_issued_s {
  uint32_t launch;  // capture launch index
  uint32_t size;    // bytes (end of the last explicit argument)
  uint8_t* bytes;   // |size| bytes, owned by the capture
} rl_capture_issued_t;

// Copies |size| bytes as the as-issued record of launch |launch|, which
// must exist and be later than every launch already recorded, and whose
// kernel's kernarg must hold |size| bytes (RL_STATUS_INVALID_ARGUMENT, as
// for a NULL |capture| or |bytes|).
rl_status_t rl_capture_add_issued(rl_capture_t* capture, uint32_t launch,
                                  const void* bytes, uint32_t size);

// The record of launch |launch|, or NULL (also for a NULL |capture|).
const rl_capture_issued_t* rl_capture_issued_find(const rl_capture_t* capture,
                                                  uint32_t launch);

// Frees every record (rl_capture_destroy calls it); NULL is a no-op.
void rl_capture_issued_clear(rl_capture_t* capture);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_CAPTURE_ISSUED_H_
