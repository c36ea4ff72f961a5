// capture_mutate IN OUT MODE SEED — writes a damaged copy of the capture
// file IN to OUT for the reliability sweep (tools/reliability_sweep.sh).
//
// Modes:
//   flip      1..4 random bytes flipped anywhere; nothing re-signed, so the
//             checksums must refuse the file.
//   truncate  the file cut at a random offset.
//   resign    1..4 random bytes flipped inside one section's payload, then
//             the file re-signed: when the damaged file still decodes with
//             the integrity checks off, it is re-encoded by the writer
//             (every checksum, digest and the identity recomputed: a file a
//             careless or hostile tool could produce); otherwise the section
//             and header checksums are recomputed in place so the bytes
//             reach the section decoders.
//   field     one field of the decoded model changed at random (a grid or
//             block dimension, a kernarg byte, a buffer size, a pointer
//             slot's extent, a parameter range, a window) and the model
//             re-encoded; when the writer's validation refuses the change,
//             no file is written, the tool exits 3 and the sweep counts a
//             refusal by validation.
// Exit codes: 0 written, 3 the mutation produced nothing the writer accepts
// (counted as refused by validation), 2 usage or I/O error.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "capture/format/capture_file_internal.h"
#include "redline/capture_file.h"

#define RL_SECTION_HEADER 24u

static uint64_t rl_rng;

static uint64_t rl_next(void) {
  uint64_t z = (rl_rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint8_t* rl_read(const char* path, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  uint8_t* data = malloc(size > 0 ? (size_t)size : 1);
  if (data && fread(data, 1, (size_t)size, file) != (size_t)size) {
    free(data);
    data = NULL;
  }
  fclose(file);
  *out_size = (size_t)size;
  return data;
}

static int rl_write(const char* path, const uint8_t* data, size_t size) {
  FILE* file = fopen(path, "wb");
  if (!file) return 2;
  size_t written = fwrite(data, 1, size, file);
  return fclose(file) == 0 && written == size ? 0 : 2;
}

static uint64_t rl_u64(const uint8_t* at) {
  uint64_t value;
  memcpy(&value, at, 8);
  return value;
}

static uint32_t rl_u32(const uint8_t* at) {
  uint32_t value;
  memcpy(&value, at, 4);
  return value;
}

// Offsets of every section header; returns the count.
static uint32_t rl_sections(const uint8_t* data, size_t size,
                            size_t* out_offsets, uint32_t capacity) {
  if (size < 64) return 0;
  size_t at = rl_u32(data + 12);
  uint32_t count = 0;
  while (count < capacity && at + RL_SECTION_HEADER <= size) {
    out_offsets[count++] = at;
    uint64_t length = rl_u64(data + at + 8);
    if (length > size - at - RL_SECTION_HEADER) break;
    at += RL_SECTION_HEADER + ((length + 7) & ~7ull);
  }
  return count;
}

// Recomputes every section checksum and the header checksum in place.
static void rl_resign_bytes(uint8_t* data, size_t size) {
  size_t offsets[64];
  uint32_t count = rl_sections(data, size, offsets, 64);
  for (uint32_t s = 0; s < count; ++s) {
    uint8_t* header = data + offsets[s];
    uint64_t length = rl_u64(header + 8);
    if (length > size - offsets[s] - RL_SECTION_HEADER) continue;
    uint64_t seed = XXH3_64bits(header, 16);
    uint64_t sum = XXH3_64bits_withSeed(header + RL_SECTION_HEADER, length, seed);
    memcpy(header + 16, &sum, 8);
  }
  uint32_t header_size = rl_u32(data + 12);
  if (header_size >= 64 && header_size <= size) {
    uint64_t sum = XXH3_64bits(data, header_size - 8);
    memcpy(data + header_size - 8, &sum, 8);
  }
}

static void rl_flip(uint8_t* data, size_t from, size_t length) {
  if (length == 0) return;
  uint32_t flips = 1 + (uint32_t)(rl_next() % 4);
  for (uint32_t i = 0; i < flips; ++i) {
    data[from + rl_next() % length] ^= (uint8_t)(1u << (rl_next() % 8));
  }
}

static int rl_encode_to(const rl_capture_t* capture, const char* out) {
  uint8_t* bytes = NULL;
  size_t size = 0;
  rl_status_t status = rl_capture_file_encode(capture, NULL, &bytes, &size);
  if (status) {
    fprintf(stderr, "capture_mutate: refused by the writer: %s\n",
            rl_status_message(status));
    rl_status_free(status);
    return 3;
  }
  int code = rl_write(out, bytes, size);
  free(bytes);
  return code;
}

static int rl_mode_resign(uint8_t* data, size_t size, const char* out) {
  size_t offsets[64];
  uint32_t count = rl_sections(data, size, offsets, 64);
  if (count < 2) return 2;
  uint32_t s = (uint32_t)(rl_next() % (count - 1));  // never END
  size_t payload = offsets[s] + RL_SECTION_HEADER;
  uint64_t length = rl_u64(data + offsets[s] + 8);
  rl_flip(data, payload, (size_t)length);
  rl_capture_t* capture = NULL;
  rl_status_t status =
      rl_capture_file_decode_memory(data, size, false, NULL, &capture, NULL);
  if (status == RL_OK) {
    int code = rl_encode_to(capture, out);
    rl_capture_destroy(capture);
    return code;
  }
  rl_status_free(status);
  rl_resign_bytes(data, size);
  return rl_write(out, data, size);
}

// One random field of the model; the values favour edges (0, 1, huge).
static void rl_mutate_field(rl_capture_t* capture) {
  static const uint64_t edges[] = {0, 1, 2, 0x7fffffff, 0xffffffff,
                                   0x1000001, 0x100000000ull};
  uint64_t edge = edges[rl_next() % (sizeof(edges) / sizeof(edges[0]))];
  uint64_t pick = rl_next();
  if (capture->launch_count == 0) return;
  rl_capture_launch_t* launch =
      &capture->launches[pick % capture->launch_count];
  switch ((pick >> 32) % 8) {
    case 0: launch->grid[rl_next() % 3] = (uint32_t)edge; break;
    case 1: launch->block[rl_next() % 3] = (uint32_t)edge; break;
    case 2:
      if (launch->kernarg_size) {
        launch->kernarg[rl_next() % launch->kernarg_size] ^=
            (uint8_t)(1u << (rl_next() % 8));
      }
      break;
    case 3:
      if (capture->buffer_count) {
        capture->buffers[rl_next() % capture->buffer_count].size = edge;
      }
      break;
    case 4:
      if (launch->slot_count) {
        rl_pointer_slot_t* slot = &launch->slots[rl_next() % launch->slot_count];
        if (rl_next() & 1) slot->extent_size = edge; else slot->offset = edge;
      }
      break;
    case 5:
      if (capture->param_count) {
        rl_capture_param_t* param = &capture->params[0];
        if (rl_next() & 1) param->max = (int64_t)edge; else param->min = -(int64_t)edge;
      }
      break;
    case 6:
      if (capture->window_count) capture->windows[0].count = (uint32_t)edge;
      break;
    default:
      launch->dynamic_lds = (uint32_t)edge;
      break;
  }
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: capture_mutate IN OUT flip|truncate|resign|field SEED\n");
    return 2;
  }
  rl_rng = strtoull(argv[4], NULL, 10);
  size_t size = 0;
  uint8_t* data = rl_read(argv[1], &size);
  if (!data || size == 0) return 2;
  const char* mode = argv[3];
  int code = 2;
  if (strcmp(mode, "flip") == 0) {
    rl_flip(data, 0, size);
    code = rl_write(argv[2], data, size);
  } else if (strcmp(mode, "truncate") == 0) {
    code = rl_write(argv[2], data, (size_t)(rl_next() % size));
  } else if (strcmp(mode, "resign") == 0) {
    code = rl_mode_resign(data, size, argv[2]);
  } else if (strcmp(mode, "field") == 0) {
    rl_capture_t* capture = NULL;
    rl_status_t status =
        rl_capture_file_decode_memory(data, size, false, NULL, &capture, NULL);
    if (status) {
      rl_status_free(status);
    } else {
      rl_mutate_field(capture);
      code = rl_encode_to(capture, argv[2]);
      rl_capture_destroy(capture);
    }
  }
  free(data);
  return code;
}
