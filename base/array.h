// base/array.h — growth helper for the plain (pointer, count) arrays
// used across redline's models. Private to redline targets.
#ifndef REDLINE_BASE_ARRAY_H_
#define REDLINE_BASE_ARRAY_H_

#include <stddef.h>
#include <stdint.h>

#include "redline/status.h"

// Ensures |*items| (element size |item_size|) can hold |needed| elements,
// growing |*capacity| geometrically. Elements past the old capacity are
// zeroed. Returns the out-of-memory status on failure and leaves |*items|
// and |*capacity| unchanged.
rl_status_t rl_array_reserve(void** items, size_t item_size, uint32_t* capacity,
                             uint32_t needed);

// Typed convenience: RL_ARRAY_RESERVE(&cap->launches, &cap->launch_capacity, n)
#define RL_ARRAY_RESERVE(items_ptr, capacity_ptr, needed)            \
  rl_array_reserve((void**)(items_ptr), sizeof(**(items_ptr)),       \
                   (capacity_ptr), (needed))

// Duplicates a NUL-terminated string; NULL in gives NULL out.
char* rl_strdup(const char* text);

#endif  // REDLINE_BASE_ARRAY_H_
