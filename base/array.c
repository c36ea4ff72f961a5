#include "base/array.h"

#include <stdlib.h>
#include <string.h>

rl_status_t rl_array_reserve(void** items, size_t item_size, uint32_t* capacity,
                             uint32_t needed) {
  if (needed <= *capacity) return RL_OK;
  uint64_t grown = *capacity ? (uint64_t)*capacity * 2 : 8;
  if (grown < needed) grown = needed;
  if (grown > UINT32_MAX || grown > SIZE_MAX / item_size) {
    return rl_status_out_of_memory();
  }
  void* resized = realloc(*items, (size_t)grown * item_size);
  if (!resized) return rl_status_out_of_memory();
  memset((char*)resized + (size_t)*capacity * item_size, 0,
         (size_t)(grown - *capacity) * item_size);
  *items = resized;
  *capacity = (uint32_t)grown;
  return RL_OK;
}

char* rl_strdup(const char* text) {
  if (!text) return NULL;
  size_t length = strlen(text) + 1;
  char* copy = malloc(length);
  if (copy) memcpy(copy, text, length);
  return copy;
}
