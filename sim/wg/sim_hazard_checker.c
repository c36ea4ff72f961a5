// sim/wg/sim_hazard_checker.c — coalesced byte-range sets and the
// per-batch RAW/WAR/WAW report (contract in sim_wg.h).
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "redline/hazard.h"
#include "sim/wg/sim_wg.h"

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
      set->hint = set->count - 1;
      return RL_OK;
    }
  }
  // Inside the interval the last add landed in: nothing changes.
  if (set->hint < set->count && set->items[set->hint].begin <= begin &&
      end <= set->items[set->hint].end) {
    return RL_OK;
  }
  uint32_t first = rl_sim_range_set_lower_bound(set, begin);
  uint32_t stop = first;
  while (stop < set->count && set->items[stop].begin <= end) ++stop;
  if (stop > first) {  // Merge items [first, stop) with the new range.
    rl_sim_range_t* merged = &set->items[first];
    if (merged->begin < begin) begin = merged->begin;
    if (set->items[stop - 1].end > end) end = set->items[stop - 1].end;
    *merged = (rl_sim_range_t){begin, end};
    set->hint = first;
    if (stop == first + 1) return RL_OK;  // nothing to close up
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
  set->hint = first;
  return RL_OK;
}

rl_status_t rl_sim_range_set_add_sorted(rl_sim_range_set_t* set,
                                        const rl_sim_range_t* ranges,
                                        uint32_t count) {
  if (count == 0) return RL_OK;
  if (count == 1) {
    return rl_sim_range_set_add(set, ranges[0].begin,
                                ranges[0].end - ranges[0].begin);
  }
  // The intervals [lo, hi) are the only ones the ranges can overlap or
  // touch: those before lo end before the first range, those from hi on
  // start after the last one ends.
  const uint64_t span_end = ranges[count - 1].end;
  uint32_t lo = rl_sim_range_set_lower_bound(set, ranges[0].begin);
  uint32_t hi = lo;
  while (hi < set->count && set->items[hi].begin <= span_end) ++hi;
  // Their union with the ranges, in order, coalesced.
  rl_sim_range_t local[96];
  const uint32_t most = (hi - lo) + count;
  rl_sim_range_t* merged = local;
  if (most > sizeof(local) / sizeof(local[0])) {
    merged = malloc((size_t)most * sizeof(*merged));
    if (merged == NULL) return rl_status_out_of_memory();
  }
  uint32_t i = lo, j = 0, m = 0;
  while (i < hi || j < count) {
    rl_sim_range_t next;
    if (j == count || (i < hi && set->items[i].begin <= ranges[j].begin)) {
      next = set->items[i++];
    } else {
      next = ranges[j++];
    }
    if (m > 0 && next.begin <= merged[m - 1].end) {
      if (next.end > merged[m - 1].end) merged[m - 1].end = next.end;
      continue;
    }
    merged[m++] = next;
  }
  rl_status_t status = RL_OK;
  if (m > hi - lo) {
    status = RL_ARRAY_RESERVE(&set->items, &set->capacity,
                              set->count - (hi - lo) + m);
  }
  if (status == RL_OK) {
    memmove(&set->items[lo + m], &set->items[hi],
            (set->count - hi) * sizeof(set->items[0]));
    memcpy(&set->items[lo], merged, m * sizeof(merged[0]));
    set->count = set->count - (hi - lo) + m;
    set->hint = lo;
  }
  if (merged != local) free(merged);
  return status;
}

// The log's bound: when it holds this many ranges they are sorted into
// the set (then a range read again is found there and not logged again).
#define RL_SIM_RANGE_LOG_MAX 1024u

static int rl_sim_range_order(const void* a, const void* b) {
  const rl_sim_range_t* x = a;
  const rl_sim_range_t* y = b;
  return (x->begin > y->begin) - (x->begin < y->begin);
}

rl_status_t rl_sim_range_set_settle(rl_sim_range_set_t* set) {
  rl_sim_range_t* r = set->pending;
  const uint32_t n = set->pending_count;
  if (n == 0) return RL_OK;
  set->pending_count = 0;
  for (uint32_t k = 1; k < n; ++k) {
    if (r[k].begin < r[k - 1].begin) {
      qsort(r, n, sizeof(r[0]), rl_sim_range_order);
      break;
    }
  }
  uint32_t kept = 0;  // coalesced in place
  for (uint32_t k = 0; k < n; ++k) {
    if (kept > 0 && r[k].begin <= r[kept - 1].end) {
      if (r[k].end > r[kept - 1].end) r[kept - 1].end = r[k].end;
      continue;
    }
    r[kept++] = r[k];
  }
  return rl_sim_range_set_add_sorted(set, r, kept);
}

// True when [begin, end) lies inside one interval of the set's items: the
// hint's, the one after it (lanes ascending with a stride walk the
// intervals in order), one of the last RL_SIM_RANGE_RECENT found by search
// (a wave's loads taking turns among a few arrays), else found by binary
// search.
static bool rl_sim_range_set_covers(rl_sim_range_set_t* set, uint64_t begin,
                                    uint64_t end) {
  const uint32_t h = set->hint;
  if (h < set->count && begin >= set->items[h].begin) {
    if (end <= set->items[h].end) return true;
    if (h + 1 < set->count && set->items[h + 1].begin <= begin &&
        end <= set->items[h + 1].end) {
      set->hint = h + 1;
      return true;
    }
  }
  for (uint32_t k = 0; k < RL_SIM_RANGE_RECENT; ++k) {
    const uint32_t r = set->recent[k];
    if (r < set->count && set->items[r].begin <= begin &&
        end <= set->items[r].end) {
      set->hint = r;
      return true;
    }
  }
  uint32_t i = rl_sim_range_set_lower_bound(set, begin);
  if (i < set->count && set->items[i].begin <= begin &&
      end <= set->items[i].end) {
    set->hint = i;
    set->recent[set->recent_next++ % RL_SIM_RANGE_RECENT] = i;
    return true;
  }
  return false;
}

rl_status_t rl_sim_range_set_log(rl_sim_range_set_t* set, uint64_t begin,
                                 uint64_t size) {
  if (size == 0) return RL_OK;
  const uint64_t end = begin + size;
  uint32_t n = set->pending_count;
  if (n > 0) {
    rl_sim_range_t* last = &set->pending[n - 1];
    if (begin >= last->begin && begin <= last->end) {
      if (end > last->end) last->end = end;
      return RL_OK;
    }
  }
  if (rl_sim_range_set_covers(set, begin, end)) return RL_OK;
  if (n == RL_SIM_RANGE_LOG_MAX) {
    RL_RETURN_IF_ERROR(rl_sim_range_set_settle(set));
    n = 0;
  }
  if (n == set->pending_capacity) {
    RL_RETURN_IF_ERROR(
        RL_ARRAY_RESERVE(&set->pending, &set->pending_capacity, n + 1));
  }
  set->pending[n] = (rl_sim_range_t){begin, end};
  set->pending_count = n + 1;
  return RL_OK;
}

rl_status_t rl_sim_range_set_log_lanes(rl_sim_range_set_t* set,
                                       const uint64_t* address, uint32_t lanes,
                                       uint32_t size) {
  if (size == 0) return RL_OK;
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    const uint32_t l = (uint32_t)__builtin_ctz(rest);
    const uint64_t begin = address[l];
    const uint64_t end = begin + size;
    const uint32_t at = set->lane_pending[l];
    if (at != 0 && at <= set->pending_count) {
      rl_sim_range_t* range = &set->pending[at - 1];
      if (begin >= range->begin && begin <= range->end) {
        if (end > range->end) range->end = end;
        continue;
      }
    }
    const uint32_t item = set->lane_item[l];
    if (item < set->count && set->items[item].begin <= begin &&
        end <= set->items[item].end) {
      continue;  // the set holds it already: what the log would find
    }
    RL_RETURN_IF_ERROR(rl_sim_range_set_log(set, begin, size));
    // The log's last range holds the access unless the set covered it
    // (then in its interval |hint|).
    const uint32_t n = set->pending_count;
    set->lane_pending[l] =
        n != 0 && set->pending[n - 1].begin <= begin &&
                end <= set->pending[n - 1].end
            ? n
            : 0;
    set->lane_item[l] = set->hint;
  }
  return RL_OK;
}

void rl_sim_range_set_clear(rl_sim_range_set_t* set) {
  set->count = 0;
  set->hint = 0;
  set->pending_count = 0;
}

void rl_sim_range_set_deinit(rl_sim_range_set_t* set) {
  free(set->items);
  free(set->pending);
  memset(set, 0, sizeof(*set));
}

uint64_t rl_sim_range_set_overlap_span(const rl_sim_range_set_t* a,
                                       const rl_sim_range_set_t* b,
                                       uint64_t* out_first, uint64_t* out_end) {
  uint64_t total = 0;
  *out_first = 0;
  *out_end = 0;
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
      *out_end = end;
    }
    if (x->end < y->end) {
      ++i;
    } else {
      ++j;
    }
  }
  return total;
}

uint64_t rl_sim_range_set_overlap(const rl_sim_range_set_t* a,
                                  const rl_sim_range_set_t* b,
                                  uint64_t* out_first) {
  uint64_t end = 0;
  return rl_sim_range_set_overlap_span(a, b, out_first, &end);
}

rl_status_t rl_sim_hazard_open_add(rl_sim_hazard_open_t* open,
                                   uint64_t dispatch_index,
                                   rl_sim_range_set_t* reads,
                                   rl_sim_range_set_t* writes) {
  // A dispatch that touched no memory cannot conflict with anything: it is
  // not kept (the sets stay with the caller).
  if (reads->count == 0 && writes->count == 0) return RL_OK;
  if (open->count == RL_SIM_HAZARD_OPEN_MAX) {
    rl_sim_range_set_deinit(&open->items[0].reads);
    rl_sim_range_set_deinit(&open->items[0].writes);
    memmove(&open->items[0], &open->items[1],
            (open->count - 1) * sizeof(open->items[0]));
    open->count--;
  }
  rl_status_t status =
      RL_ARRAY_RESERVE(&open->items, &open->capacity, open->count + 1);
  if (status) {
    rl_sim_range_set_clear(reads);
    rl_sim_range_set_clear(writes);
    return status;
  }
  rl_sim_hazard_open_entry_t* entry = &open->items[open->count++];
  entry->dispatch_index = dispatch_index;
  entry->reads = *reads;
  entry->writes = *writes;
  memset(reads, 0, sizeof(*reads));
  memset(writes, 0, sizeof(*writes));
  return RL_OK;
}

void rl_sim_hazard_open_move(rl_sim_hazard_open_t* to,
                             rl_sim_hazard_open_t* from) {
  for (uint32_t i = 0; i < from->count; ++i) {
    rl_sim_hazard_open_entry_t* entry = &from->items[i];
    // Only the writes can make a later RAW (no acquire).
    rl_sim_range_set_deinit(&entry->reads);
    rl_status_free(rl_sim_hazard_open_add(to, entry->dispatch_index,
                                          &entry->reads, &entry->writes));
    rl_sim_range_set_deinit(&entry->writes);
  }
  from->count = 0;
}

void rl_sim_hazard_open_clear(rl_sim_hazard_open_t* open) {
  for (uint32_t i = 0; i < open->count; ++i) {
    rl_sim_range_set_deinit(&open->items[i].reads);
    rl_sim_range_set_deinit(&open->items[i].writes);
  }
  open->count = 0;
}

void rl_sim_hazard_open_deinit(rl_sim_hazard_open_t* open) {
  rl_sim_hazard_open_clear(open);
  free(open->items);
  memset(open, 0, sizeof(*open));
}

// Reports one kind of overlap between an earlier and a later dispatch.
void rl_sim_hazard_report_overlap(rl_sim_device_t* device, uint32_t kind,
                                  uint32_t ordering, uint64_t earlier,
                                  const rl_sim_range_set_t* earlier_set,
                                  uint64_t later,
                                  const rl_sim_range_set_t* later_set) {
  uint64_t first = 0;
  uint64_t end = 0;
  uint64_t size =
      rl_sim_range_set_overlap_span(earlier_set, later_set, &first, &end);
  if (size == 0) return;
  rl_sim_hazard_t hazard = {
      .kind = kind,
      .earlier_dispatch = earlier,
      .later_dispatch = later,
      .address = first,
      .size = size,
      .end = end,
      .ordering = ordering,
  };
  rl_sim_report_hazard(device, &hazard);
}

void rl_sim_hazard_check_unordered(rl_sim_device_t* device, uint32_t ordering,
                                   uint64_t earlier,
                                   const rl_sim_range_set_t* earlier_reads,
                                   const rl_sim_range_set_t* earlier_writes,
                                   const rl_sim_run_t* later) {
  uint64_t b = later->dispatch.dispatch_index;
  rl_sim_hazard_report_overlap(device, RL_HAZARD_RAW, ordering, earlier,
                               earlier_writes, b, &later->reads);
  rl_sim_hazard_report_overlap(device, RL_HAZARD_WAR, ordering, earlier,
                               earlier_reads, b, &later->writes);
  rl_sim_hazard_report_overlap(device, RL_HAZARD_WAW, ordering, earlier,
                               earlier_writes, b, &later->writes);
}

void rl_sim_hazard_check_batch(rl_sim_queue_t* queue) {
  rl_sim_device_t* device = queue->device;
  const rl_sim_run_t* runs = queue->runs;
  rl_sim_hazard_open_t* open = &queue->open;
  // Runs that touched no memory conflict with nothing: only the others are
  // compared (a no-op executor's batch costs no pairwise work).
  uint32_t touching[RL_SIM_BATCH_MAX];
  uint32_t touching_count = 0;
  for (uint32_t j = 0; j < queue->run_count; ++j) {
    if (runs[j].reads.count != 0 || runs[j].writes.count != 0) {
      touching[touching_count++] = j;
    }
  }
  for (uint32_t e = 0; e < open->count && touching_count; ++e) {
    const rl_sim_hazard_open_entry_t* entry = &open->items[e];
    for (uint32_t t = 0; t < touching_count; ++t) {
      const uint32_t j = touching[t];
      rl_sim_hazard_check_unordered(device, RL_SIM_HAZARD_ORDERING_AQL,
                                    entry->dispatch_index, &entry->reads,
                                    &entry->writes, &runs[j]);
    }
  }
  // Ordered but not acquired: reads of what a dispatch before a barrier
  // without acquire wrote, by a dispatch that does not acquire either.
  const rl_sim_hazard_open_t* unacquired = &queue->unacquired;
  for (uint32_t e = 0; e < unacquired->count && touching_count; ++e) {
    const rl_sim_hazard_open_entry_t* entry = &unacquired->items[e];
    for (uint32_t t = 0; t < touching_count; ++t) {
      const rl_sim_run_t* run = &runs[touching[t]];
      if (run->acquire_scope != RL_AQL_FENCE_SCOPE_NONE) continue;
      rl_sim_hazard_report_overlap(device, RL_SIM_HAZARD_RAW_NO_ACQUIRE,
                                   RL_SIM_HAZARD_ORDERING_AQL,
                                   entry->dispatch_index, &entry->writes,
                                   run->dispatch.dispatch_index, &run->reads);
    }
  }
  for (uint32_t a = 0; a < touching_count; ++a) {
    for (uint32_t b = a + 1; b < touching_count; ++b) {
      const uint32_t i = touching[a], j = touching[b];
      rl_sim_hazard_check_unordered(
          device, RL_SIM_HAZARD_ORDERING_AQL, runs[i].dispatch.dispatch_index,
          &runs[i].reads, &runs[i].writes, &runs[j]);
    }
  }
  // The batch stays unordered with what follows until a barrier bit.
  for (uint32_t k = 0; k < queue->run_count; ++k) {
    rl_sim_run_t* run = &queue->runs[k];
    rl_status_free(rl_sim_hazard_open_add(open, run->dispatch.dispatch_index,
                                          &run->reads, &run->writes));
  }
}
