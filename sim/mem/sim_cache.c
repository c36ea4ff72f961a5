// sim/mem/sim_cache.c — the cache model (contract and sources in
// sim/mem/sim_mem.h; rules in docs/cache-model.md).
//
// Each cache instance is an open-addressing table from line address to a
// slot holding the 128 bytes the instance filled the line with. Lookups are
// by line; an invalidation empties a table without freeing its storage.
#include "sim/mem/sim_mem.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "aql/aql_packet.h"
#include "base/array.h"
#include "redline/code_object.h"

// The model's locks are spin locks, because every executor access takes
// one and holds it only for table lookups and 128-byte copies (an
// uncontended pthread mutex cost a fifth of a strict decode shadow run).
// Contention yields the CPU.
static void rl_sim_cache_lock(rl_sim_cache_lock_t* lock) {
  while (atomic_flag_test_and_set_explicit(&lock->flag, memory_order_acquire)) {
    sched_yield();
  }
}

static void rl_sim_cache_unlock(rl_sim_cache_lock_t* lock) {
  atomic_flag_clear_explicit(&lock->flag, memory_order_release);
}

typedef struct rl_sim_cache_line_s {
  uint64_t tag;     // line address
  uint64_t writer;  // dirty table: the dispatch that first dirtied it
  bool reported;    // a stale hit on this fill was reported already
  uint8_t bytes[RL_SIM_CACHE_LINE];
} rl_sim_cache_line_t;

// One host cache line per table header: two threads filling the L0s of
// WGPs in different shards never write one line (tables are arrays).
struct rl_sim_cache_table_s {
  _Alignas(RL_SIM_HOST_LINE) uint32_t* slots;  // line index + 1; 0 is empty
  uint32_t slot_count;  // power of two, 0 before the first fill
  rl_sim_cache_line_t* lines;
  uint32_t line_count;
  uint32_t line_capacity;
};

// WGPs per processor and shader arrays (one GL1 each) per generation, from
// the typed target. gfx1100: 6 SEs x 2 SAs, 96 CUs = 48 WGPs (ROCm GPU
// specs; rocminfo "Shader Arrs. per Eng. 2"). gfx1151: 40 CUs = 20 WGPs; 4
// arrays is an assumption (not published). gfx1201: 64 CUs = 32 WGPs. gfx12
// has no GL1 (ROCm GPU specs "L1 cache: N/A"; AMDGPUUsage GFX12 memory
// model), so no arrays.
static rl_status_t rl_sim_cache_topology(const char* processor,
                                         uint32_t* out_wgps,
                                         uint32_t* out_arrays) {
  rl_target_t target;
  RL_RETURN_IF_ERROR(rl_target_parse(processor, &target));
  *out_wgps = 48;
  *out_arrays = 12;
  if (strcmp(target.processor, "gfx1151") == 0) {
    *out_wgps = 20;
    *out_arrays = 4;
  } else if (strcmp(target.processor, "gfx1201") == 0) {
    *out_wgps = 32;
  }
  if (target.gfx_major >= 12) *out_arrays = 0;
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

static uint32_t rl_sim_cache_hash(uint64_t tag, uint32_t mask) {
  uint64_t h = (tag / RL_SIM_CACHE_LINE) * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(h >> 32) & mask;
}

static rl_sim_cache_line_t* rl_sim_cache_find(rl_sim_cache_table_t* table,
                                              uint64_t tag) {
  if (table->line_count == 0) return NULL;
  uint32_t mask = table->slot_count - 1;
  for (uint32_t i = rl_sim_cache_hash(tag, mask);; i = (i + 1) & mask) {
    uint32_t slot = table->slots[i];
    if (slot == 0) return NULL;
    if (table->lines[slot - 1].tag == tag) return &table->lines[slot - 1];
  }
}

static void rl_sim_cache_index(rl_sim_cache_table_t* table, uint32_t line) {
  uint32_t mask = table->slot_count - 1;
  uint32_t i = rl_sim_cache_hash(table->lines[line].tag, mask);
  while (table->slots[i] != 0) i = (i + 1) & mask;
  table->slots[i] = line + 1;
}

// Keeps the table at most half full.
static bool rl_sim_cache_grow(rl_sim_cache_table_t* table) {
  if ((uint64_t)(table->line_count + 1) * 2 <= table->slot_count) return true;
  uint32_t count = table->slot_count ? table->slot_count * 2 : 256;
  uint32_t* slots = calloc(count, sizeof(*slots));
  if (slots == NULL) return false;
  free(table->slots);
  table->slots = slots;
  table->slot_count = count;
  for (uint32_t l = 0; l < table->line_count; ++l) rl_sim_cache_index(table, l);
  return true;
}

// A new line |tag| (not present); NULL when out of memory (the access then
// goes uncached, which only makes the model less strict).
static rl_sim_cache_line_t* rl_sim_cache_insert(rl_sim_cache_table_t* table,
                                                uint64_t tag) {
  if (!rl_sim_cache_grow(table)) return NULL;
  if (RL_ARRAY_RESERVE(&table->lines, &table->line_capacity,
                       table->line_count + 1) != RL_OK) {
    return NULL;
  }
  rl_sim_cache_line_t* line = &table->lines[table->line_count];
  line->tag = tag;
  line->writer = UINT64_MAX;
  line->reported = false;
  rl_sim_cache_index(table, table->line_count++);
  return line;
}

static void rl_sim_cache_clear(rl_sim_cache_table_t* table) {
  if (table->line_count == 0) return;
  memset(table->slots, 0, table->slot_count * sizeof(*table->slots));
  table->line_count = 0;
}

static void rl_sim_cache_table_free(rl_sim_cache_table_t* table) {
  free(table->slots);
  free(table->lines);
}

// The L2 slice of line |tag|: consecutive lines in consecutive slices.
static uint32_t rl_sim_cache_slice(uint64_t tag) {
  return (uint32_t)((tag / RL_SIM_CACHE_LINE) % RL_SIM_CACHE_SLICES);
}

// The dirty line |tag|, under its slice's lock (taken and released here).
static rl_sim_cache_line_t* rl_sim_cache_find_dirty(rl_sim_cache_t* cache,
                                                    uint64_t tag,
                                                    uint64_t* out_writer) {
  uint32_t s = rl_sim_cache_slice(tag);
  rl_sim_cache_lock(&cache->slice_locks[s]);
  rl_sim_cache_line_t* line = rl_sim_cache_find(&cache->dirty[s], tag);
  *out_writer = line ? line->writer : UINT64_MAX;
  rl_sim_cache_unlock(&cache->slice_locks[s]);
  return line;
}

// Every group lock, then every slice lock, in increasing index (device-wide
// actions and host accesses).
static void rl_sim_cache_lock_all(rl_sim_cache_t* cache, bool groups) {
  for (uint32_t g = 0; groups && g < cache->group_count; ++g) {
    rl_sim_cache_lock(&cache->group_locks[g]);
  }
  for (uint32_t s = 0; s < RL_SIM_CACHE_SLICES; ++s) {
    rl_sim_cache_lock(&cache->slice_locks[s]);
  }
}

static void rl_sim_cache_unlock_all(rl_sim_cache_t* cache, bool groups) {
  for (uint32_t s = RL_SIM_CACHE_SLICES; s-- > 0;) {
    rl_sim_cache_unlock(&cache->slice_locks[s]);
  }
  for (uint32_t g = groups ? cache->group_count : 0; g-- > 0;) {
    rl_sim_cache_unlock(&cache->group_locks[g]);
  }
}

//===----------------------------------------------------------------------===//
// Lifetime and placement
//===----------------------------------------------------------------------===//

// |count| zeroed elements of |size| (a multiple of RL_SIM_HOST_LINE) on
// whole host cache lines of their own, so that padded elements (locks,
// table headers) really are one line each; NULL when out of memory.
static void* rl_sim_cache_lines_alloc(uint32_t count, size_t size) {
  size_t bytes = (size_t)count * size;
  bytes = (bytes + RL_SIM_HOST_LINE - 1) & ~(size_t)(RL_SIM_HOST_LINE - 1);
  void* block = aligned_alloc(RL_SIM_HOST_LINE, bytes ? bytes : RL_SIM_HOST_LINE);
  if (block != NULL) memset(block, 0, bytes);
  return block;
}

rl_status_t rl_sim_cache_init(rl_sim_cache_t* cache, const char* processor,
                              rl_sim_cache_mode_t mode, uint64_t seed) {
  memset(cache, 0, sizeof(*cache));
  for (uint32_t s = 0; s < RL_SIM_CACHE_SLICES; ++s) {
    atomic_flag_clear(&cache->slice_locks[s].flag);
  }
  if (mode != RL_SIM_CACHE_OFF && mode != RL_SIM_CACHE_REPORT &&
      mode != RL_SIM_CACHE_STRICT) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "cache model %d: expected off, report or strict",
                     (int)mode);
  }
  if (mode == RL_SIM_CACHE_OFF) return RL_OK;
  RL_RETURN_IF_ERROR(
      rl_sim_cache_topology(processor, &cache->wgp_count, &cache->array_count));
  cache->mode = mode;
  cache->seed = seed;
  cache->vl0 = rl_sim_cache_lines_alloc(cache->wgp_count, sizeof(*cache->vl0));
  cache->kl0 = rl_sim_cache_lines_alloc(cache->wgp_count, sizeof(*cache->kl0));
  cache->gl1 =
      rl_sim_cache_lines_alloc(cache->array_count + 1, sizeof(*cache->gl1));
  cache->dirty =
      rl_sim_cache_lines_alloc(RL_SIM_CACHE_SLICES, sizeof(*cache->dirty));
  cache->group_count =
      cache->array_count ? cache->array_count : cache->wgp_count;
  cache->group_locks = rl_sim_cache_lines_alloc(cache->group_count,
                                                sizeof(*cache->group_locks));
  if (!cache->vl0 || !cache->kl0 || !cache->gl1 || !cache->dirty ||
      !cache->group_locks) {
    rl_sim_cache_deinit(cache);
    return rl_status_out_of_memory();
  }
  for (uint32_t g = 0; g < cache->group_count; ++g) {
    atomic_flag_clear(&cache->group_locks[g].flag);
  }
  return RL_OK;
}

void rl_sim_cache_deinit(rl_sim_cache_t* cache) {
  for (uint32_t w = 0; cache->vl0 && w < cache->wgp_count; ++w) {
    rl_sim_cache_table_free(&cache->vl0[w]);
  }
  for (uint32_t w = 0; cache->kl0 && w < cache->wgp_count; ++w) {
    rl_sim_cache_table_free(&cache->kl0[w]);
  }
  for (uint32_t a = 0; cache->gl1 && a < cache->array_count; ++a) {
    rl_sim_cache_table_free(&cache->gl1[a]);
  }
  for (uint32_t s = 0; cache->dirty && s < RL_SIM_CACHE_SLICES; ++s) {
    rl_sim_cache_table_free(&cache->dirty[s]);
  }
  free(cache->group_locks);
  free(cache->vl0);
  free(cache->kl0);
  free(cache->gl1);
  free(cache->dirty);
  memset(cache, 0, sizeof(*cache));
}

// Alternating halves (sim_mem.h "Placement"): consecutive dispatches run
// on disjoint halves of the WGPs (and so of the shader arrays), dispatches
// two apart on the same WGPs. A producer therefore never refreshes, by its
// own write, the L0 line a later consumer reads through, while a reader two
// dispatches earlier did fill it: the read / write / read pattern that a
// missing acquire turns stale is always exercised. Any placement is legal on
// hardware (the order is not documented).
uint32_t rl_sim_cache_place(const rl_sim_cache_t* cache,
                            uint64_t dispatch_index, uint64_t wg_index) {
  if (cache->wgp_count == 0) return 0;
  uint64_t half =
      ((dispatch_index + cache->seed) & 1u) * (cache->wgp_count / 2);
  return (uint32_t)((wg_index + half) % cache->wgp_count);
}

void rl_sim_cache_shards(const rl_sim_cache_t* cache, uint64_t dispatch_index,
                         uint32_t fallback, uint32_t* out_slots,
                         uint32_t* out_group, uint32_t* out_half) {
  if (!rl_sim_cache_enabled(cache) || cache->wgp_count == 0) {
    *out_slots = fallback;
    *out_group = 1;
    *out_half = 0;
    return;
  }
  *out_slots = cache->wgp_count;
  *out_group = cache->array_count ? cache->wgp_count / cache->array_count : 1;
  *out_half = (uint32_t)(((dispatch_index + cache->seed) & 1u) *
                         (cache->wgp_count / 2));
}

static uint32_t rl_sim_cache_array(const rl_sim_cache_t* cache, uint32_t wgp) {
  return wgp / (cache->wgp_count / cache->array_count);
}

// The lock of the caches WGP |wgp| reads through (its sharing group's).
static rl_sim_cache_lock_t* rl_sim_cache_group_lock(rl_sim_cache_t* cache,
                                                    uint32_t wgp) {
  uint32_t group = cache->array_count ? rl_sim_cache_array(cache, wgp) : wgp;
  return &cache->group_locks[group];
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

// Fills |out| (a line's 128 bytes) from memory; bytes of the line outside
// the allocation holding |address| are zero (no access can reach them).
static void rl_sim_cache_fetch(rl_sim_device_t* device, uint64_t tag,
                               uint64_t address, uint8_t* out) {
  memset(out, 0, RL_SIM_CACHE_LINE);
  uint64_t start = 0, end = 0;
  uint8_t* host =
      rl_sim_memory_span(&device->memory, address, &start, &end, NULL);
  if (host == NULL) return;
  uint64_t first = tag > start ? tag : start;
  uint64_t last = tag + RL_SIM_CACHE_LINE < end ? tag + RL_SIM_CACHE_LINE : end;
  if (first < last) {
    memcpy(out + (first - tag), host + (first - start), last - first);
  }
}

static void rl_sim_cache_report(rl_sim_device_t* device, uint32_t kind,
                                uint64_t earlier, uint64_t later,
                                uint64_t address, uint64_t size) {
  rl_sim_hazard_t hazard = {.kind = kind,
                            .earlier_dispatch = earlier,
                            .later_dispatch = later,
                            .address = address,
                            .size = size,
                            .end = address + size};
  device->upcalls.report_hazard(device, &hazard);
}

// The line a load of |tag| hits or fills in |l0| (and the GL1 of |array|).
static rl_sim_cache_line_t* rl_sim_cache_lookup(rl_sim_device_t* device,
                                                rl_sim_cache_table_t* l0,
                                                rl_sim_cache_table_t* gl1,
                                                uint64_t tag,
                                                uint64_t address) {
  rl_sim_cache_line_t* line = rl_sim_cache_find(l0, tag);
  if (line != NULL) return line;
  rl_sim_cache_line_t* upper = gl1 ? rl_sim_cache_find(gl1, tag) : NULL;
  if (gl1 != NULL && upper == NULL) {
    upper = rl_sim_cache_insert(gl1, tag);
    if (upper != NULL) rl_sim_cache_fetch(device, tag, address, upper->bytes);
  }
  line = rl_sim_cache_insert(l0, tag);
  if (line == NULL) return NULL;
  if (upper != NULL) {
    memcpy(line->bytes, upper->bytes, RL_SIM_CACHE_LINE);
  } else {
    rl_sim_cache_fetch(device, tag, address, line->bytes);
  }
  return line;
}

// True when the access bypasses the per-WGP L0 and the GL1: an atomic
// read-modify-write (performed at L2, RL_SIM_ACCESS_ATOMIC), gfx11 GLC=1
// (MISS_EVICT at L0 and L1, SIGfx11CacheControl::enableLoadCacheBypass), or
// a gfx12 scope of SCOPE_SE or wider (AMDGPUUsage GFX12: caches of a smaller
// scope are bypassed; gfx12 has no GL1).
static bool rl_sim_cache_bypass(uint32_t flags) {
  return (flags & (RL_SIM_ACCESS_GLC | RL_SIM_ACCESS_ATOMIC)) != 0 ||
         RL_SIM_ACCESS_SCOPE_OF(flags) >= RL_SIM_ACCESS_SCOPE_SE;
}

// The list this thread's stale reads go to (rl_sim_cache_defer), or NULL.
// A work-group runs on one thread from start to end, so the executor's
// begin and end bracket exactly its own loads.
static _Thread_local rl_sim_deferred_t* rl_sim_cache_deferring;

void rl_sim_cache_defer(rl_sim_deferred_t* into) {
  rl_sim_cache_deferring = into;
}

static void rl_sim_deferred_remove(rl_sim_deferred_t* deferred,
                                   uint32_t index) {
  if (index + 1 < deferred->count) {
    deferred->reads[index] = deferred->reads[deferred->count - 1];
  }
  deferred->count--;
}

void rl_sim_deferred_report_owner(rl_sim_deferred_t* deferred, uint32_t owner) {
  uint32_t i = 0;
  while (i < deferred->count) {
    if (deferred->reads[i].owner != owner) {
      ++i;
      continue;
    }
    rl_sim_deferred_read_t read = deferred->reads[i];
    rl_sim_deferred_remove(deferred, i);
    uint64_t tag = read.address & ~(uint64_t)(RL_SIM_CACHE_LINE - 1);
    uint64_t first = read.address, last = read.address + read.size;
    uint32_t j = i;
    while (j < deferred->count) {
      const rl_sim_deferred_read_t* other = &deferred->reads[j];
      if (other->owner == owner &&
          (other->address & ~(uint64_t)(RL_SIM_CACHE_LINE - 1)) == tag &&
          other->earlier_dispatch == read.earlier_dispatch &&
          other->later_dispatch == read.later_dispatch) {
        if (other->address < first) first = other->address;
        if (other->address + other->size > last) {
          last = other->address + other->size;
        }
        rl_sim_deferred_remove(deferred, j);  // the last one moves to j
      } else {
        ++j;
      }
    }
    rl_sim_cache_report(deferred->device, RL_SIM_HAZARD_STALE_READ,
                        read.earlier_dispatch, read.later_dispatch, first,
                        last - first);
  }
}

void rl_sim_deferred_retract(rl_sim_deferred_t* deferred, uint32_t index) {
  rl_sim_device_t* device = deferred->device;
  atomic_fetch_add_explicit(&device->cache.retracted_reads, 1,
                            memory_order_relaxed);
  rl_sim_deferred_remove(deferred, index);
}

// The line the previous access of a lane loop looked up, reused by the next
// lane when it falls in the same line: nothing between two lookups of one
// tag inserts into the table, so the pointer stays valid and the lookup
// would return it again.
typedef struct rl_sim_cache_memo_s {
  uint64_t tag;
  rl_sim_cache_line_t* line;  // NULL: nothing remembered
} rl_sim_cache_memo_t;

// The tables a load through WGP |access->wgp| reads: its vector L0 or K$
// and its array's GL1 (NULL on gfx12).
static void rl_sim_cache_tables(rl_sim_cache_t* cache,
                                const rl_sim_cache_access_t* access,
                                rl_sim_cache_table_t** out_l0,
                                rl_sim_cache_table_t** out_gl1) {
  bool scalar = (access->flags & RL_SIM_ACCESS_SCALAR) != 0;
  *out_l0 = scalar ? &cache->kl0[access->wgp] : &cache->vl0[access->wgp];
  *out_gl1 = cache->array_count
                 ? &cache->gl1[rl_sim_cache_array(cache, access->wgp)]
                 : NULL;
}

// True when a load with |flags| goes through no modelled cache.
static bool rl_sim_cache_load_skips(uint32_t flags) {
  return (flags & RL_SIM_ACCESS_INSTRUCTION) || rl_sim_cache_bypass(flags);
}

// True when the |size| bytes at |a| and |b| are equal: the element sizes
// of the lane loops (4 and 8 bytes) as one integer compare, the rest
// through memcmp.
static inline bool rl_sim_cache_same(const uint8_t* a, const uint8_t* b,
                                     uint64_t size) {
  if (size == 4) {
    uint32_t x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    return x == y;
  }
  if (size == 8) {
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return x == y;
  }
  return memcmp(a, b, size) == 0;
}

// rl_sim_cache_load's work for one access, under the lock.
static void rl_sim_cache_load_locked(rl_sim_device_t* device,
                                     const rl_sim_cache_access_t* access,
                                     rl_sim_cache_table_t* l0,
                                     rl_sim_cache_table_t* gl1,
                                     uint64_t address, void* data,
                                     uint32_t size, rl_sim_cache_memo_t* memo) {
  rl_sim_cache_t* cache = &device->cache;
  uint64_t end = address + size;
  for (uint64_t tag = address & ~(uint64_t)(RL_SIM_CACHE_LINE - 1); tag < end;
       tag += RL_SIM_CACHE_LINE) {
    rl_sim_cache_line_t* line = NULL;
    if (memo->line != NULL && memo->tag == tag) {
      line = memo->line;
    } else {
      line = rl_sim_cache_lookup(device, l0, gl1, tag, address);
      *memo = (rl_sim_cache_memo_t){tag, line};
    }
    if (line == NULL) continue;
    uint64_t first = tag > address ? tag : address;
    uint64_t last =
        tag + RL_SIM_CACHE_LINE < end ? tag + RL_SIM_CACHE_LINE : end;
    uint8_t* out = (uint8_t*)data + (first - address);
    const uint8_t* cached = line->bytes + (first - tag);
    if (rl_sim_cache_same(out, cached, last - first)) continue;
    atomic_fetch_add_explicit(&cache->stale_reads, 1, memory_order_relaxed);
    rl_sim_deferred_t* deferred = rl_sim_cache_deferring;
    uint64_t writer = UINT64_MAX;
    if (deferred != NULL && deferred->count < RL_SIM_DEFERRED_MAX) {
      // Held back for the executor (sim_executor.h); the line is not marked
      // reported, so a later read of it is judged on its own.
      rl_sim_cache_find_dirty(cache, tag, &writer);
      rl_sim_deferred_read_t* read = &deferred->reads[deferred->count++];
      deferred->device = device;
      read->address = first;
      read->size = (uint32_t)(last - first);
      read->earlier_dispatch = writer;
      read->later_dispatch = access->dispatch_index;
      read->owner = deferred->owner;
      // What the load returns: the cached bytes (strict) or memory's.
      memcpy(read->bytes, cache->mode == RL_SIM_CACHE_STRICT ? cached : out,
             last - first);
    } else if (!line->reported) {
      line->reported = true;
      rl_sim_cache_find_dirty(cache, tag, &writer);
      rl_sim_cache_report(device, RL_SIM_HAZARD_STALE_READ, writer,
                          access->dispatch_index, first, last - first);
    }
    if (cache->mode == RL_SIM_CACHE_STRICT) memcpy(out, cached, last - first);
  }
}

void rl_sim_cache_load(rl_sim_device_t* device,
                       const rl_sim_cache_access_t* access, uint64_t address,
                       void* data, uint32_t size) {
  rl_sim_cache_t* cache = &device->cache;
  if (size == 0 || rl_sim_cache_load_skips(access->flags)) return;
  rl_sim_cache_lock_t* lock = rl_sim_cache_group_lock(cache, access->wgp);
  rl_sim_cache_lock(lock);
  rl_sim_cache_table_t *l0 = NULL, *gl1 = NULL;
  rl_sim_cache_tables(cache, access, &l0, &gl1);
  rl_sim_cache_memo_t memo = {0, NULL};
  rl_sim_cache_load_locked(device, access, l0, gl1, address, data, size, &memo);
  rl_sim_cache_unlock(lock);
}

void rl_sim_cache_load_lanes(rl_sim_device_t* device,
                             const rl_sim_cache_access_t* access,
                             const uint64_t* address, uint32_t lanes,
                             uint8_t* data, uint32_t size) {
  rl_sim_cache_t* cache = &device->cache;
  if (size == 0 || lanes == 0 || rl_sim_cache_load_skips(access->flags)) {
    return;
  }
  rl_sim_cache_lock_t* lock = rl_sim_cache_group_lock(cache, access->wgp);
  rl_sim_cache_lock(lock);
  rl_sim_cache_table_t *l0 = NULL, *gl1 = NULL;
  rl_sim_cache_tables(cache, access, &l0, &gl1);
  rl_sim_cache_memo_t memo = {0, NULL};
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(rest);
    rl_sim_cache_load_locked(device, access, l0, gl1, address[l],
                             data + l * 16u, size, &memo);
  }
  rl_sim_cache_unlock(lock);
}

// Marks the L2 lines of a store dirty, keeping memory's bytes, each under
// its slice's lock (the caller checked the memory is DEVICE). |last_tag|
// carries the line the previous lane marked (UINT64_MAX: none), which is
// dirty already: no slice is locked for it again.
static void rl_sim_cache_dirty(rl_sim_device_t* device,
                               const rl_sim_cache_access_t* access,
                               uint64_t address, uint32_t size,
                               uint64_t* last_tag) {
  rl_sim_cache_t* cache = &device->cache;
  uint64_t end = address + size;
  for (uint64_t tag = address & ~(uint64_t)(RL_SIM_CACHE_LINE - 1); tag < end;
       tag += RL_SIM_CACHE_LINE) {
    if (tag == *last_tag) continue;
    *last_tag = tag;
    uint32_t s = rl_sim_cache_slice(tag);
    rl_sim_cache_table_t* dirty = &cache->dirty[s];
    rl_sim_cache_lock(&cache->slice_locks[s]);
    if (rl_sim_cache_find(dirty, tag) == NULL) {
      rl_sim_cache_line_t* line = rl_sim_cache_insert(dirty, tag);
      if (line != NULL) {
        line->writer = access->dispatch_index;
        rl_sim_cache_fetch(device, tag, address, line->bytes);
      }
    }
    rl_sim_cache_unlock(&cache->slice_locks[s]);
  }
}

void rl_sim_cache_store_before(rl_sim_device_t* device,
                               const rl_sim_cache_access_t* access,
                               uint64_t address, uint32_t size) {
  rl_memory_kind_t kind = RL_MEMORY_KIND_DEVICE;
  uint64_t start = 0, alloc_end = 0;
  if (size == 0 ||
      !rl_sim_memory_span(&device->memory, address, &start, &alloc_end,
                          &kind) ||
      kind != RL_MEMORY_KIND_DEVICE) {
    return;  // fine-grained memory is host-coherent: nothing goes dirty
  }
  uint64_t last_tag = UINT64_MAX;
  rl_sim_cache_dirty(device, access, address, size, &last_tag);
}

void rl_sim_cache_store_lanes_before(rl_sim_device_t* device,
                                     const rl_sim_cache_access_t* access,
                                     const uint64_t* address, uint32_t lanes,
                                     uint32_t size) {
  rl_memory_kind_t kind = RL_MEMORY_KIND_DEVICE;
  uint64_t start = 0, alloc_end = 0;
  if (size == 0 || lanes == 0) return;
  // Every lane is in one allocation (the caller's contract): one kind.
  uint64_t first = address[__builtin_ctz(lanes)];
  if (!rl_sim_memory_span(&device->memory, first, &start, &alloc_end, &kind) ||
      kind != RL_MEMORY_KIND_DEVICE) {
    return;
  }
  uint64_t last_tag = UINT64_MAX;
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(rest);
    rl_sim_cache_dirty(device, access, address[l], size, &last_tag);
  }
}

// Copies the stored bytes into |line| where they overlap it.
static void rl_sim_cache_update(rl_sim_cache_line_t* line, uint64_t address,
                                const void* data, uint64_t size) {
  if (line == NULL) return;
  uint64_t end = address + size;
  uint64_t first = line->tag > address ? line->tag : address;
  uint64_t last =
      line->tag + RL_SIM_CACHE_LINE < end ? line->tag + RL_SIM_CACHE_LINE : end;
  memcpy(line->bytes + (first - line->tag),
         (const uint8_t*)data + (first - address), last - first);
}

// Updates the writer's L0 and GL1 lines a store overlaps (under the lock).
static void rl_sim_cache_written_locked(rl_sim_cache_table_t* l0,
                                        rl_sim_cache_table_t* gl1,
                                        uint64_t address, const void* data,
                                        uint32_t size) {
  uint64_t end = address + size;
  for (uint64_t tag = address & ~(uint64_t)(RL_SIM_CACHE_LINE - 1); tag < end;
       tag += RL_SIM_CACHE_LINE) {
    rl_sim_cache_update(rl_sim_cache_find(l0, tag), address, data, size);
    if (gl1)
      rl_sim_cache_update(rl_sim_cache_find(gl1, tag), address, data, size);
  }
}

void rl_sim_cache_store_after(rl_sim_device_t* device,
                              const rl_sim_cache_access_t* access,
                              uint64_t address, const void* data,
                              uint32_t size) {
  // One lane: lane 0's data at |data|, whatever |size| is.
  rl_sim_cache_store_lanes_after(device, access, &address, 1u,
                                 (const uint8_t*)data, size);
}

void rl_sim_cache_store_lanes_after(rl_sim_device_t* device,
                                    const rl_sim_cache_access_t* access,
                                    const uint64_t* address, uint32_t lanes,
                                    const uint8_t* data, uint32_t size) {
  rl_sim_cache_t* cache = &device->cache;
  if (size == 0 || lanes == 0) return;
  rl_sim_cache_lock_t* lock = rl_sim_cache_group_lock(cache, access->wgp);
  rl_sim_cache_lock(lock);
  rl_sim_cache_table_t* l0 = &cache->vl0[access->wgp];
  rl_sim_cache_table_t* gl1 =
      cache->array_count ? &cache->gl1[rl_sim_cache_array(cache, access->wgp)]
                         : NULL;
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(rest);
    rl_sim_cache_written_locked(l0, gl1, address[l], data + l * 16u, size);
  }
  rl_sim_cache_unlock(lock);
}

//===----------------------------------------------------------------------===//
// Invalidation, write-back, host accesses
//===----------------------------------------------------------------------===//

static void rl_sim_cache_apply_locked(rl_sim_cache_t* cache, uint32_t actions) {
  for (uint32_t w = 0; w < cache->wgp_count; ++w) {
    if (actions & RL_SIM_CACHE_INV_GLV) rl_sim_cache_clear(&cache->vl0[w]);
    if (actions & RL_SIM_CACHE_INV_GLK) rl_sim_cache_clear(&cache->kl0[w]);
  }
  for (uint32_t a = 0; a < cache->array_count; ++a) {
    if (actions & RL_SIM_CACHE_INV_GL1) rl_sim_cache_clear(&cache->gl1[a]);
  }
  for (uint32_t s = 0; s < RL_SIM_CACHE_SLICES; ++s) {
    if (actions & RL_SIM_CACHE_WB_GL2) rl_sim_cache_clear(&cache->dirty[s]);
  }
}

void rl_sim_cache_apply(rl_sim_cache_t* cache, uint32_t actions) {
  if (!rl_sim_cache_enabled(cache) || actions == 0) return;
  rl_sim_cache_lock_all(cache, true);
  rl_sim_cache_apply_locked(cache, actions);
  rl_sim_cache_unlock_all(cache, true);
}

void rl_sim_cache_apply_local(rl_sim_cache_t* cache, uint32_t wgp,
                              uint32_t actions) {
  if (!rl_sim_cache_enabled(cache) || wgp >= cache->wgp_count) return;
  rl_sim_cache_lock_t* lock = rl_sim_cache_group_lock(cache, wgp);
  rl_sim_cache_lock(lock);
  if (actions & RL_SIM_CACHE_INV_GLV) rl_sim_cache_clear(&cache->vl0[wgp]);
  if (actions & RL_SIM_CACHE_INV_GLK) rl_sim_cache_clear(&cache->kl0[wgp]);
  if ((actions & RL_SIM_CACHE_INV_GL1) && cache->array_count) {
    rl_sim_cache_clear(&cache->gl1[rl_sim_cache_array(cache, wgp)]);
  }
  rl_sim_cache_unlock(lock);
}

// The next dirty line overlapping [address, end) in |slice|: walks the
// read's lines of that slice through the hash when they are fewer than the
// slice's lines, else the slice's table. |cursor| carries the position;
// NULL at the end.
static rl_sim_cache_line_t* rl_sim_cache_next_dirty(rl_sim_cache_t* cache,
                                                    uint32_t slice,
                                                    uint64_t address,
                                                    uint64_t end,
                                                    uint64_t* cursor) {
  rl_sim_cache_table_t* dirty = &cache->dirty[slice];
  uint64_t first_tag = address & ~(uint64_t)(RL_SIM_CACHE_LINE - 1);
  uint64_t lines =
      (end - first_tag + RL_SIM_CACHE_LINE - 1) / RL_SIM_CACHE_LINE;
  if (lines < dirty->line_count) {
    for (; *cursor < lines; ++*cursor) {
      uint64_t tag = first_tag + *cursor * RL_SIM_CACHE_LINE;
      if (rl_sim_cache_slice(tag) != slice) continue;
      rl_sim_cache_line_t* line = rl_sim_cache_find(dirty, tag);
      if (line != NULL) {
        ++*cursor;
        return line;
      }
    }
    return NULL;
  }
  for (; *cursor < dirty->line_count; ++*cursor) {
    rl_sim_cache_line_t* line = &dirty->lines[*cursor];
    if (line->tag < end && line->tag + RL_SIM_CACHE_LINE > address) {
      ++*cursor;
      return line;
    }
  }
  return NULL;
}

void rl_sim_cache_host_read(rl_sim_device_t* device, uint64_t address,
                            void* data, uint64_t size) {
  rl_sim_cache_t* cache = &device->cache;
  if (!rl_sim_cache_enabled(cache) || size == 0) return;
  rl_sim_cache_lock_all(cache, false);
  uint64_t end = address + size;
  // One finding per host read: the lowest-addressed stale line's, which
  // does not depend on the order the lines went dirty in (work-groups on
  // several threads dirty them in any order).
  const rl_sim_cache_line_t* lowest = NULL;
  uint64_t lowest_first = 0, lowest_last = 0;
  for (uint32_t s = 0; s < RL_SIM_CACHE_SLICES; ++s) {
    uint64_t cursor = 0;
    rl_sim_cache_line_t* line = NULL;
    while ((line = rl_sim_cache_next_dirty(cache, s, address, end, &cursor))) {
      uint64_t first = line->tag > address ? line->tag : address;
      uint64_t last = line->tag + RL_SIM_CACHE_LINE < end
                          ? line->tag + RL_SIM_CACHE_LINE
                          : end;
      uint8_t* out = (uint8_t*)data + (first - address);
      const uint8_t* memory = line->bytes + (first - line->tag);
      if (rl_sim_cache_same(out, memory, last - first)) continue;
      atomic_fetch_add_explicit(&cache->stale_host_reads, 1,
                                memory_order_relaxed);
      if (lowest == NULL || first < lowest_first) {
        lowest = line;
        lowest_first = first;
        lowest_last = last;
      }
      if (cache->mode == RL_SIM_CACHE_STRICT) memcpy(out, memory, last - first);
    }
  }
  if (lowest != NULL) {
    rl_sim_cache_report(device, RL_SIM_HAZARD_STALE_HOST_READ, lowest->writer,
                        UINT64_MAX, lowest_first, lowest_last - lowest_first);
  }
  rl_sim_cache_unlock_all(cache, false);
}

void rl_sim_cache_host_write(rl_sim_cache_t* cache, uint64_t address,
                             const void* data, uint64_t size) {
  if (!rl_sim_cache_enabled(cache) || size == 0) return;
  rl_sim_cache_lock_all(cache, false);
  uint64_t end = address + size;
  for (uint32_t s = 0; s < RL_SIM_CACHE_SLICES; ++s) {
    uint64_t cursor = 0;
    rl_sim_cache_line_t* line = NULL;
    while ((line = rl_sim_cache_next_dirty(cache, s, address, end, &cursor))) {
      rl_sim_cache_update(line, address, data, size);
    }
  }
  rl_sim_cache_unlock_all(cache, false);
}

// HSA fence scopes (AQL header): AMDGPUUsage "the CP invalidates the L0 and
// L1 caches at the start of each kernel dispatch" for an agent/system
// acquire; system adds the L2 invalidate of non-coherent lines. A release of
// system scope writes the L2 back so the host sees the results; agent scope
// needs nothing (every store already reached L2).
uint32_t rl_sim_cache_acquire_actions(uint32_t scope) {
  uint32_t actions = 0;
  if (scope >= RL_AQL_FENCE_SCOPE_AGENT) {
    actions |=
        RL_SIM_CACHE_INV_GLV | RL_SIM_CACHE_INV_GLK | RL_SIM_CACHE_INV_GL1;
  }
  if (scope >= RL_AQL_FENCE_SCOPE_SYSTEM) actions |= RL_SIM_CACHE_INV_GL2;
  return actions;
}

uint32_t rl_sim_cache_release_actions(uint32_t scope) {
  return scope >= RL_AQL_FENCE_SCOPE_SYSTEM ? RL_SIM_CACHE_WB_GL2 : 0;
}
