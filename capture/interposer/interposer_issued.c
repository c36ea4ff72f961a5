// capture/interposer/interposer_issued.c — as-issued arguments
// (redline/capture_issued.h, capture/interposer/interposer_internal.h).
//
// Deliberately apart from the funnel's kernarg assembly (capture/
// funnel_launch.c) and from argument typing (interposer_args.c): the bytes
// here are copied as the program passed them, explicit argument a of the
// metadata to [offset, offset + size), nothing typed, rebased or bound, so
// a mistake in how the capture writer lays out or records a kernarg does
// not reach this record.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "base/array.h"
#include "redline/capture_issued.h"

void rl_ip_issued_take(rl_interposer_t* ip, const rl_code_object_kernel_t* info,
                       void** params, const uint8_t* buffer,
                       size_t buffer_size) {
  rl_ip_issued_t* pending = &ip->issued_pending;
  free(pending->bytes);
  *pending = (rl_ip_issued_t){0};
  uint32_t end = 0;
  for (uint32_t a = 0; info && a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    if (meta->offset + meta->size > end) end = meta->offset + meta->size;
  }
  if (end == 0 || end > info->kernarg_size) return;
  uint8_t* bytes = calloc(end, 1);
  if (!bytes) return;
  uint32_t explicit_index = 0;
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    const void* source = NULL;
    if (params) {
      source = params[explicit_index];
    } else if (buffer && meta->offset + meta->size <= buffer_size) {
      source = buffer + meta->offset;
    }
    ++explicit_index;
    if (!source) {  // not readable: no record rather than a partial one
      free(bytes);
      return;
    }
    memcpy(bytes + meta->offset, source, meta->size);
  }
  pending->bytes = bytes;
  pending->size = end;
}

void rl_ip_issued_keep(rl_interposer_t* ip, uint32_t launch) {
  rl_ip_issued_t pending = ip->issued_pending;
  ip->issued_pending = (rl_ip_issued_t){0};
  if (!pending.bytes) return;
  if (RL_ARRAY_RESERVE(&ip->issued, &ip->issued_capacity,
                       ip->issued_count + 1)) {
    free(pending.bytes);  // out of memory: this launch goes unchecked
    return;
  }
  pending.launch = launch;
  ip->issued[ip->issued_count++] = pending;
}

void rl_ip_issued_attach(rl_interposer_t* ip, rl_capture_t* capture) {
  for (uint32_t i = 0; i < ip->issued_count; ++i) {
    const rl_ip_issued_t* record = &ip->issued[i];
    if (capture) {
      rl_status_t status = rl_capture_add_issued(capture, record->launch,
                                                 record->bytes, record->size);
      if (status) {
        fprintf(stderr,
                "redline_capture: as-issued record of launch %u dropped "
                "(%s)\n", record->launch, rl_status_message(status));
        rl_status_free(status);
      }
    }
    free(record->bytes);
  }
  free(ip->issued);
  free(ip->issued_pending.bytes);
  ip->issued = NULL;
  ip->issued_pending = (rl_ip_issued_t){0};
  ip->issued_count = ip->issued_capacity = 0;
}
