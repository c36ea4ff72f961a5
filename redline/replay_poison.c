// Failure transitions (poison, quarantine) and checked mode: red-zone
// guards after every buffer the replay allocates and poison-filled scratch
// before every run. Also the test hooks that break a prepared replay on
// purpose (redline/replay_internal.h).
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/replay_internal.h"

//===----------------------------------------------------------------------===//
// Failure transitions
//===----------------------------------------------------------------------===//

static void rl_replay_set_reason(rl_replay_t* replay, rl_status_t status) {
  snprintf(replay->reason, sizeof(replay->reason), "%s",
           rl_status_message(status));
}

rl_status_t rl_replay_poison(rl_replay_t* replay, rl_status_t status) {
  // A quarantine is stronger than a poison and stays.
  if (replay->state == RL_REPLAY_QUARANTINED) return status;
  replay->state = RL_REPLAY_POISONED;
  rl_replay_set_reason(replay, status);
  return status;
}

rl_status_t rl_replay_quarantine(rl_replay_t* replay, rl_status_t status) {
  replay->state = RL_REPLAY_QUARANTINED;
  rl_replay_set_reason(replay, status);
  return rl_replay_recode(status, RL_STATUS_QUARANTINED);
}

rl_status_t rl_replay_recode(rl_status_t status, rl_status_code_t code) {
  if (!status || rl_status_code(status) == code) return status;
  rl_status_t recoded =
      rl_status_make(code, rl_status_file(status), rl_status_line(status),
                     "%s (%s)", rl_status_message(status),
                     rl_status_code_name(rl_status_code(status)));
  rl_status_free(status);
  return recoded;
}

//===----------------------------------------------------------------------===//
// Guards
//===----------------------------------------------------------------------===//

static void rl_replay_guard_pattern(uint8_t* pattern) {
  for (uint32_t i = 0; i < RL_REPLAY_GUARD_SIZE; ++i) {
    pattern[i] = rl_replay_guard_byte(i);
  }
}

rl_status_t rl_replay_guards_write(rl_replay_t* replay) {
  uint8_t pattern[RL_REPLAY_GUARD_SIZE];
  rl_replay_guard_pattern(pattern);
  rl_device_t* device = replay->device;
  for (uint32_t b = 0; b < replay->capture->buffer_count; ++b) {
    const rl_replay_buffer_t* buffer = &replay->buffers[b];
    if (!buffer->guard_size || buffer->guard_reserved) continue;
    RL_RETURN_IF_ERROR(device->vtable->write(
        device, buffer->address + buffer->size, pattern, buffer->guard_size));
  }
  return RL_OK;
}

// The first byte of |guard| that differs from the pattern, or -1.
static int64_t rl_replay_guard_mismatch(const uint8_t* guard, uint64_t size) {
  for (uint64_t i = 0; i < size; ++i) {
    if (guard[i] != rl_replay_guard_byte(i)) return (int64_t)i;
  }
  return -1;
}

rl_status_t rl_replay_guards_check(rl_replay_t* replay) {
  uint8_t guard[RL_REPLAY_GUARD_SIZE];
  rl_device_t* device = replay->device;
  for (uint32_t b = 0; b < replay->capture->buffer_count; ++b) {
    const rl_replay_buffer_t* buffer = &replay->buffers[b];
    if (!buffer->guard_size || buffer->guard_reserved) continue;
    RL_RETURN_IF_ERROR(device->vtable->read(
        device, buffer->address + buffer->size, guard, buffer->guard_size));
    int64_t bad = rl_replay_guard_mismatch(guard, buffer->guard_size);
    if (bad >= 0) {
      return RL_STATUS(RL_STATUS_POISONED,
                       "guard after buffer %u '%s' corrupted: byte %" PRId64
                       " past its end (0x%" PRIx64 ") holds 0x%02x, the "
                       "guard pattern 0x%02x",
                       b, replay->capture->buffers[b].name, bad,
                       buffer->address + buffer->size + (uint64_t)bad,
                       guard[bad], rl_replay_guard_byte((uint64_t)bad));
    }
  }
  return RL_OK;
}

rl_status_t rl_replay_guards_fault(const rl_replay_t* replay,
                                   const rl_device_fault_t* fault) {
  if (!fault->faulted || !strstr(fault->message, "VM fault")) return RL_OK;
  const char* kind = strstr(fault->message, "VM fault: write") ? "write"
                     : strstr(fault->message, "VM fault: read") ? "read"
                                                                : "access";
  int64_t nearest = -1;  // the buffer ending closest below the address
  for (uint32_t b = 0; b < replay->capture->buffer_count; ++b) {
    const rl_replay_buffer_t* buffer = &replay->buffers[b];
    if (fault->address < buffer->address) continue;
    const uint64_t offset = fault->address - buffer->address;
    if (buffer->guard_reserved &&
        offset < buffer->size + buffer->guard_size) {
      return RL_STATUS(RL_STATUS_POISONED,
                       "checked mode: a kernel %s at offset %" PRIu64
                       " of buffer %u '%s' (%" PRIu64 " bytes) runs past its "
                       "end into the no-access guard: %s",
                       kind, offset, b, replay->capture->buffers[b].name,
                       buffer->size, fault->message);
    }
    if (offset < buffer->size + RL_REPLAY_FAULT_REACH &&
        (nearest < 0 || buffer->address > replay->buffers[nearest].address)) {
      nearest = b;
    }
  }
  if (nearest < 0) return RL_OK;
  const rl_replay_buffer_t* buffer = &replay->buffers[nearest];
  return RL_STATUS(RL_STATUS_POISONED,
                   "queue %u faulted at packet %" PRIu64 ": a %s at offset %"
                   PRIu64 " of buffer %u '%s' (%" PRIu64 " bytes): %s",
                   rl_replay_queue_id(replay), fault->packet_id, kind,
                   fault->address - buffer->address, (uint32_t)nearest,
                   replay->capture->buffers[nearest].name, buffer->size,
                   fault->message);
}

//===----------------------------------------------------------------------===//
// Scratch
//===----------------------------------------------------------------------===//

// Fills |size| bytes at |address| through the device (no host view).
static rl_status_t rl_replay_fill_device(rl_device_t* device, uint64_t address,
                                         uint64_t size) {
  uint8_t block[4096];
  memset(block, RL_REPLAY_SCRATCH_POISON, sizeof(block));
  for (uint64_t done = 0; done < size;) {
    uint64_t chunk = size - done < sizeof(block) ? size - done : sizeof(block);
    RL_RETURN_IF_ERROR(
        device->vtable->write(device, address + done, block, chunk));
    done += chunk;
  }
  return RL_OK;
}

rl_status_t rl_replay_scratch_fill(rl_replay_t* replay) {
  for (uint32_t b = 0; b < replay->capture->buffer_count; ++b) {
    if (replay->capture->buffers[b].role != RL_BUFFER_ROLE_SCRATCH) continue;
    const rl_replay_buffer_t* buffer = &replay->buffers[b];
    if (buffer->host) {
      memset(buffer->host, RL_REPLAY_SCRATCH_POISON, (size_t)buffer->size);
      continue;
    }
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_replay_fill_device(replay->device, buffer->address, buffer->size),
        "poison-filling scratch buffer '%s'",
        replay->capture->buffers[b].name));
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Test hooks
//===----------------------------------------------------------------------===//

// rl_replay_test_clear_barrier and rl_replay_test_set_kernel_object live
// with route aql (replay_route_aql.c), rl_replay_test_queue with the
// queue (replay_route.c), rl_replay_test_pm4_drop_wait with route pm4.
