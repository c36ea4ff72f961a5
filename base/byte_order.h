// base/byte_order.h — little-endian loads and stores of byte
// buffers: kernarg slots, ELF fields, offload-bundle headers, the capture
// codec. AMD GPUs and the formats redline reads are little-endian; these
// helpers give the same answer on any host and need no alignment.
//
// |size| is the number of bytes (1..8). Thread-safety: pure functions.
#ifndef REDLINE_BASE_BYTE_ORDER_H_
#define REDLINE_BASE_BYTE_ORDER_H_

#include <stdint.h>

// The low |size| bytes of |value| stored little-endian at |bytes|.
static inline void rl_store_le(uint8_t* bytes, uint32_t size, uint64_t value) {
  for (uint32_t i = 0; i < size; ++i) bytes[i] = (uint8_t)(value >> (8 * i));
}

// The |size| bytes at |bytes| read little-endian.
static inline uint64_t rl_load_le(const uint8_t* bytes, uint32_t size) {
  uint64_t value = 0;
  for (uint32_t i = 0; i < size; ++i) value |= (uint64_t)bytes[i] << (8 * i);
  return value;
}

static inline uint16_t rl_load_le16(const uint8_t* bytes) {
  return (uint16_t)rl_load_le(bytes, 2);
}
static inline uint32_t rl_load_le32(const uint8_t* bytes) {
  return (uint32_t)rl_load_le(bytes, 4);
}
static inline uint64_t rl_load_le64(const uint8_t* bytes) {
  return rl_load_le(bytes, 8);
}

#endif  // REDLINE_BASE_BYTE_ORDER_H_
