// redline/sim/sim_hazard_checker.c — coalesced byte-range sets and the
// per-batch RAW/WAR/WAW report (contract on sim_hazard_checker.h).
#include <stdlib.h>
#include <string.h>

#include "redline/base/array.h"
#include "redline/hazard.h"
#include "redline/sim/sim_internal.h"

// Index of the first interval whose end is >= |begin| (it may touch or
// overlap [begin, ...)); count when there is none.
static uint32_t rl_sim_range_set_lower_bound(const rl_sim_range_set_t* set,
                                             uint64_t begin) {
  uint32_t low = 0;
  uint32_t high = set->count;
  while (low < high) {
    uint32_t mid = low + (high - low) / 2;
    if (set->items[mid].end < begin) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

rl_status_t rl_sim_range_set_add(rl_sim_range_set_t* set, uint64_t begin,
                                 uint64_t size) {
  if (size == 0) return RL_OK;
  uint64_t end = begin + size;
  // Fast path: at or after the last interval (sequential access).
  if (set->count > 0) {
    rl_sim_range_t* last = &set->items[set->count - 1];
    if (begin >= last->begin && begin <= last->end) {
      if (end > last->end) last->end = end;
      return RL_OK;
    }
  }
  uint32_t first = rl_sim_range_set_lower_bound(set, begin);
  uint32_t stop = first;
  while (stop < set->count && set->items[stop].begin <= end) ++stop;
  if (stop > first) {  // Merge items [first, stop) with the new range.
    rl_sim_range_t* merged = &set->items[first];
    if (merged->begin < begin) begin = merged->begin;
    if (set->items[stop - 1].end > end) end = set->items[stop - 1].end;
    *merged = (rl_sim_range_t){begin, end};
    memmove(&set->items[first + 1], &set->items[stop],
            (set->count - stop) * sizeof(set->items[0]));
    set->count -= stop - first - 1;
    return RL_OK;
  }
  RL_RETURN_IF_ERROR(
      RL_ARRAY_RESERVE(&set->items, &set->capacity, set->count + 1));
  memmove(&set->items[first + 1], &set->items[first],
          (set->count - first) * sizeof(set->items[0]));
  set->items[first] = (rl_sim_range_t){begin, end};
  set->count++;
  return RL_OK;
}

void rl_sim_range_set_clear(rl_sim_range_set_t* set) { set->count = 0; }

void rl_sim_range_set_deinit(rl_sim_range_set_t* set) {
  free(set->items);
  memset(set, 0, sizeof(*set));
}

uint64_t rl_sim_range_set_overlap(const rl_sim_range_set_t* a,
                                  const rl_sim_range_set_t* b,
                                  uint64_t* out_first) {
  uint64_t total = 0;
  *out_first = 0;
  uint32_t i = 0;
  uint32_t j = 0;
  while (i < a->count && j < b->count) {
    const rl_sim_range_t* x = &a->items[i];
    const rl_sim_range_t* y = &b->items[j];
    uint64_t begin = x->begin > y->begin ? x->begin : y->begin;
    uint64_t end = x->end < y->end ? x->end : y->end;
    if (begin < end) {
      if (total == 0) *out_first = begin;
      total += end - begin;
    }
    if (x->end < y->end) {
      ++i;
    } else {
      ++j;
    }
  }
  return total;
}

// Reports one kind of overlap between an earlier and a later run.
static void rl_sim_hazard_check_pair(rl_sim_device_t* device, uint32_t kind,
                                     const rl_sim_run_t* earlier,
                                     const rl_sim_range_set_t* earlier_set,
                                     const rl_sim_run_t* later,
                                     const rl_sim_range_set_t* later_set) {
  uint64_t first = 0;
  uint64_t size = rl_sim_range_set_overlap(earlier_set, later_set, &first);
  if (size == 0) return;
  rl_sim_hazard_t hazard = {
      .kind = kind,
      .earlier_dispatch = earlier->dispatch.dispatch_index,
      .later_dispatch = later->dispatch.dispatch_index,
      .address = first,
      .size = size,
  };
  rl_sim_report_hazard(device, &hazard);
}

void rl_sim_hazard_check_batch(rl_sim_device_t* device,
                               const rl_sim_run_t* runs, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t j = i + 1; j < count; ++j) {
      const rl_sim_run_t* a = &runs[i];
      const rl_sim_run_t* b = &runs[j];
      rl_sim_hazard_check_pair(device, RL_HAZARD_RAW, a, &a->writes, b,
                               &b->reads);
      rl_sim_hazard_check_pair(device, RL_HAZARD_WAR, a, &a->reads, b,
                               &b->writes);
      rl_sim_hazard_check_pair(device, RL_HAZARD_WAW, a, &a->writes, b,
                               &b->writes);
    }
  }
}
