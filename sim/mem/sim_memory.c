// sim/mem/sim_memory.c — the simulated device's virtual address space.
//
// Addresses are handed out upward from RL_SIM_VA_BASE by a bump pointer, at
// page granularity, with an unmapped RL_SIM_GUARD_SIZE gap after every
// allocation. Freed ranges are never reused, so a stale pointer faults
// instead of reaching a newer buffer. Each allocation is backed by its own
// zeroed host block, except no-access guard ranges (checked mode's red
// zones), which have no host block and never translate: any access that
// touches one is refused like an access to unmapped memory. The table is a
// sorted array searched by binary search: every kernel access translates
// through it, under its thread's read lock (sim_mem.h, "The allocation
// table's lock").
//
// Budget: every allocation takes its page-rounded size from the device's
// memory (|total_bytes|); one that does not fit fails before anything is
// reserved. A host block of RL_SIM_MAP_MIN bytes or more is an anonymous
// MAP_NORESERVE mapping (zero-filled by the kernel, committed page by page
// when touched); a smaller one a heap block of whole cache lines, zeroed.
// Either is at most the page-rounded size, so the host memory behind the
// device never exceeds |total_bytes|.
#define _GNU_SOURCE  // MAP_NORESERVE, MAP_ANONYMOUS
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/array.h"
#include "sim/mem/sim_mem.h"

static uint64_t rl_sim_align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

// The reader slot of the calling thread plus one (0: none yet), handed out
// in turn from |rl_sim_memory_next_slot|.
static _Thread_local uint32_t rl_sim_memory_slot;
static atomic_uint rl_sim_memory_next_slot;

// Takes the calling thread's read lock of |memory|; returns it for
// rl_sim_memory_read_end.
static pthread_rwlock_t* rl_sim_memory_read_begin(rl_sim_memory_t* memory) {
  if (rl_sim_memory_slot == 0) {
    rl_sim_memory_slot =
        atomic_fetch_add_explicit(&rl_sim_memory_next_slot, 1,
                                  memory_order_relaxed) %
            RL_SIM_MEMORY_READERS +
        1;
  }
  pthread_rwlock_t* lock = &memory->readers[rl_sim_memory_slot - 1].lock;
  pthread_rwlock_rdlock(lock);
  return lock;
}

static void rl_sim_memory_read_end(pthread_rwlock_t* lock) {
  pthread_rwlock_unlock(lock);
}

// Every slot's write lock, in increasing order: no reader is inside.
static void rl_sim_memory_write_begin(rl_sim_memory_t* memory) {
  for (uint32_t k = 0; k < RL_SIM_MEMORY_READERS; ++k) {
    pthread_rwlock_wrlock(&memory->readers[k].lock);
  }
}

static void rl_sim_memory_write_end(rl_sim_memory_t* memory) {
  for (uint32_t k = RL_SIM_MEMORY_READERS; k-- > 0;) {
    pthread_rwlock_unlock(&memory->readers[k].lock);
  }
}

rl_status_t rl_sim_memory_init(rl_sim_memory_t* memory, uint64_t total_bytes) {
  memset(memory, 0, sizeof(*memory));
  for (uint32_t k = 0; k < RL_SIM_MEMORY_READERS; ++k) {
    if (pthread_rwlock_init(&memory->readers[k].lock, NULL) != 0) {
      while (k-- > 0) pthread_rwlock_destroy(&memory->readers[k].lock);
      return RL_STATUS(RL_STATUS_INTERNAL, "pthread_rwlock_init failed");
    }
  }
  memory->next_address = RL_SIM_VA_BASE;
  if (total_bytes == 0) total_bytes = RL_SIM_DEFAULT_MEMORY_BYTES;
  memory->total_bytes = total_bytes & ~(RL_SIM_PAGE_SIZE - 1);
  return RL_OK;
}

// A zeroed host block for |size| device bytes, NULL when the host has none;
// *|out_mapped| says how to release it (rl_sim_host_block_free).
static uint8_t* rl_sim_host_block_alloc(uint64_t size, bool* out_mapped) {
  *out_mapped = false;
  if (size > SIZE_MAX - RL_SIM_PAGE_SIZE) return NULL;
  if (size >= RL_SIM_MAP_MIN) {
    void* block = mmap(NULL, (size_t)rl_sim_align_up(size, RL_SIM_PAGE_SIZE),
                       PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (block == MAP_FAILED) return NULL;
    *out_mapped = true;
    return block;
  }
  // Whole host cache lines of its own, as a device allocation's pages are
  // its own: a small allocation (a signal, relay slots) must not share a
  // line with heap objects the CP thread writes.
  const size_t bytes = (size_t)rl_sim_align_up(size, RL_SIM_HOST_LINE);
  uint8_t* block = aligned_alloc(RL_SIM_HOST_LINE, bytes);
  if (block != NULL) memset(block, 0, bytes);
  return block;
}

static void rl_sim_host_block_free(const rl_sim_allocation_t* item) {
  if (item->mapped) {
    munmap(item->host, (size_t)rl_sim_align_up(item->size, RL_SIM_PAGE_SIZE));
  } else {
    free(item->host);
  }
}

void rl_sim_memory_deinit(rl_sim_memory_t* memory) {
  for (uint32_t i = 0; i < memory->count; ++i) {
    rl_sim_host_block_free(&memory->items[i]);
  }
  free(memory->items);
  for (uint32_t k = 0; k < RL_SIM_MEMORY_READERS; ++k) {
    pthread_rwlock_destroy(&memory->readers[k].lock);
  }
  memset(memory, 0, sizeof(*memory));
}

// Index of the last allocation whose address is <= |address|, or -1.
static int64_t rl_sim_memory_find_locked(const rl_sim_memory_t* memory,
                                         uint64_t address) {
  int64_t low = 0;
  int64_t high = (int64_t)memory->count - 1;
  int64_t found = -1;
  while (low <= high) {
    int64_t mid = low + (high - low) / 2;
    if (memory->items[mid].address <= address) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

// True when [address, address + size) overlaps a live allocation.
static bool rl_sim_memory_overlaps_locked(const rl_sim_memory_t* memory,
                                          uint64_t address, uint64_t size) {
  int64_t index = rl_sim_memory_find_locked(memory, address + size - 1);
  if (index < 0) return false;
  const rl_sim_allocation_t* item = &memory->items[index];
  return item->address + item->size > address;
}

// The device bytes an allocation of |size| takes from the budget.
static uint64_t rl_sim_memory_charge(uint64_t size, bool no_access) {
  return no_access ? 0 : rl_sim_align_up(size, RL_SIM_PAGE_SIZE);
}

// Inserts a zeroed allocation at |address| into the sorted table; a
// no-access range gets no host block. Fails, changing nothing, when the
// device's memory left is less than the allocation's page-rounded size.
static rl_status_t rl_sim_memory_insert_locked(
    rl_sim_memory_t* memory, uint64_t address, uint64_t size,
    rl_memory_kind_t kind, bool no_access,
    rl_device_allocation_t* out_allocation) {
  const uint64_t charge = rl_sim_memory_charge(size, no_access);
  const uint64_t left = memory->total_bytes - memory->used_bytes;
  if (charge > left) {
    return RL_STATUS(RL_STATUS_OUT_OF_MEMORY,
                     "simulated device memory exhausted: %llu bytes asked "
                     "for, %llu of the device's %llu bytes free",
                     (unsigned long long)size, (unsigned long long)left,
                     (unsigned long long)memory->total_bytes);
  }
  RL_RETURN_IF_ERROR(
      RL_ARRAY_RESERVE(&memory->items, &memory->capacity, memory->count + 1));
  uint8_t* host = NULL;
  bool mapped = false;
  if (!no_access) {
    host = rl_sim_host_block_alloc(size, &mapped);
    if (host == NULL) return rl_status_out_of_memory();
  }
  uint32_t index = (uint32_t)(rl_sim_memory_find_locked(memory, address) + 1);
  memmove(&memory->items[index + 1], &memory->items[index],
          (memory->count - index) * sizeof(memory->items[0]));
  memory->items[index] =
      (rl_sim_allocation_t){address, size, host, kind, no_access, mapped};
  memory->count++;
  memory->used_bytes += charge;
  *out_allocation = (rl_device_allocation_t){address, size, host};
  return RL_OK;
}

rl_status_t rl_sim_memory_allocate(rl_sim_memory_t* memory, uint64_t size,
                                   uint64_t alignment, rl_memory_kind_t kind,
                                   rl_device_allocation_t* out_allocation) {
  memset(out_allocation, 0, sizeof(*out_allocation));
  if (size == 0 || (alignment & (alignment - 1)) != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "allocation of %llu bytes aligned to %llu: expected a "
                     "nonzero size and a power-of-two alignment",
                     (unsigned long long)size, (unsigned long long)alignment);
  }
  if (alignment < RL_SIM_PAGE_SIZE) alignment = RL_SIM_PAGE_SIZE;
  rl_sim_memory_write_begin(memory);
  uint64_t address = rl_sim_align_up(memory->next_address, alignment);
  rl_status_t status = RL_OK;
  if (address < memory->next_address || address >= RL_SIM_VA_END ||
      RL_SIM_VA_END - address < size) {
    status =
        RL_STATUS(RL_STATUS_OUT_OF_MEMORY,
                  "simulated address space exhausted allocating %llu bytes",
                  (unsigned long long)size);
  } else {
    status = rl_sim_memory_insert_locked(memory, address, size, kind, false,
                                         out_allocation);
  }
  if (status == RL_OK) {
    memory->next_address =
        rl_sim_align_up(address + size, RL_SIM_PAGE_SIZE) + RL_SIM_GUARD_SIZE;
  }
  rl_sim_memory_write_end(memory);
  return status;
}

// allocate_fixed and reserve_guard: a range at exactly |address|.
static rl_status_t rl_sim_memory_place(rl_sim_memory_t* memory,
                                       uint64_t address, uint64_t size,
                                       rl_memory_kind_t kind, bool no_access,
                                       rl_device_allocation_t* out_allocation) {
  memset(out_allocation, 0, sizeof(*out_allocation));
  if (size == 0 || address < RL_SIM_VA_BASE || address >= RL_SIM_VA_END ||
      RL_SIM_VA_END - address < size) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "fixed allocation of %llu bytes at 0x%llx: expected a "
                     "nonzero range inside the simulated address space "
                     "[0x%llx, 0x%llx)",
                     (unsigned long long)size, (unsigned long long)address,
                     (unsigned long long)RL_SIM_VA_BASE,
                     (unsigned long long)RL_SIM_VA_END);
  }
  rl_sim_memory_write_begin(memory);
  rl_status_t status = RL_OK;
  if (rl_sim_memory_overlaps_locked(memory, address, size)) {
    status = RL_STATUS(RL_STATUS_CONTRACT,
                       "fixed allocation of %llu bytes at 0x%llx overlaps a "
                       "live allocation",
                       (unsigned long long)size, (unsigned long long)address);
  } else {
    status = rl_sim_memory_insert_locked(memory, address, size, kind,
                                         no_access, out_allocation);
  }
  // Later bump allocations must not land on (or right after) this range.
  uint64_t after =
      rl_sim_align_up(address + size, RL_SIM_PAGE_SIZE) + RL_SIM_GUARD_SIZE;
  if (status == RL_OK && after > memory->next_address) {
    memory->next_address = after;
  }
  rl_sim_memory_write_end(memory);
  return status;
}

rl_status_t rl_sim_memory_allocate_fixed(
    rl_sim_memory_t* memory, uint64_t address, uint64_t size,
    rl_memory_kind_t kind, rl_device_allocation_t* out_allocation) {
  return rl_sim_memory_place(memory, address, size, kind, false,
                             out_allocation);
}

rl_status_t rl_sim_memory_reserve_guard(rl_sim_memory_t* memory,
                                        uint64_t address, uint64_t size) {
  rl_device_allocation_t unused;
  return rl_sim_memory_place(memory, address, size, RL_MEMORY_KIND_DEVICE,
                             true, &unused);
}

bool rl_sim_memory_touches_guard(rl_sim_memory_t* memory, uint64_t address,
                                 uint64_t size) {
  if (size == 0 || address > UINT64_MAX - size) return false;
  pthread_rwlock_t* lock = rl_sim_memory_read_begin(memory);
  // The last range starting at or before the access's last byte; ranges
  // are disjoint, so it is the only guard the access can reach unless an
  // earlier one also overlaps, which the loop below walks back to.
  bool touches = false;
  for (int64_t i = rl_sim_memory_find_locked(memory, address + size - 1);
       i >= 0; --i) {
    const rl_sim_allocation_t* item = &memory->items[i];
    if (item->address + item->size <= address) break;
    if (item->no_access) {
      touches = true;
      break;
    }
  }
  rl_sim_memory_read_end(lock);
  return touches;
}

// The live allocation (not a guard) an access at |address| ran off: the
// one it starts in, else the last one ending at most RL_SIM_GUARD_SIZE
// bytes before it, else the first one starting at most RL_SIM_GUARD_SIZE
// bytes after it; -1 when none is that close.
static int64_t rl_sim_memory_nearest_locked(const rl_sim_memory_t* memory,
                                            uint64_t address) {
  int64_t before = rl_sim_memory_find_locked(memory, address);
  while (before >= 0 && memory->items[before].no_access) --before;
  if (before >= 0) {
    const rl_sim_allocation_t* item = &memory->items[before];
    if (address - item->address < item->size + RL_SIM_GUARD_SIZE) {
      return before;
    }
  }
  // Every item after |before| starts above |address|.
  for (uint32_t i = (uint32_t)(before + 1); i < memory->count; ++i) {
    const rl_sim_allocation_t* item = &memory->items[i];
    if (item->address - address > RL_SIM_GUARD_SIZE) break;
    if (!item->no_access) return i;
  }
  return -1;
}

void rl_sim_memory_describe(rl_sim_memory_t* memory, uint64_t address,
                            uint64_t size, char* out_text, size_t capacity) {
  if (capacity == 0) return;
  out_text[0] = '\0';
  if (size == 0 || address > UINT64_MAX - size) return;
  pthread_rwlock_t* lock = rl_sim_memory_read_begin(memory);
  int64_t index = rl_sim_memory_nearest_locked(memory, address);
  if (index >= 0) {
    const rl_sim_allocation_t* item = &memory->items[index];
    const uint64_t end = item->address + item->size;
    if (address < item->address) {
      snprintf(out_text, capacity,
               "%llu bytes before the start of allocation 0x%llx "
               "(%llu bytes)",
               (unsigned long long)(item->address - address),
               (unsigned long long)item->address,
               (unsigned long long)item->size);
    } else {
      int length = snprintf(out_text, capacity,
                            "offset %llu of allocation 0x%llx (%llu bytes)",
                            (unsigned long long)(address - item->address),
                            (unsigned long long)item->address,
                            (unsigned long long)item->size);
      if (address + size > end && length > 0 && (size_t)length < capacity) {
        snprintf(out_text + length, capacity - (size_t)length,
                 ", %llu bytes past its end",
                 (unsigned long long)(address + size - end));
      }
    }
  }
  rl_sim_memory_read_end(lock);
}

rl_status_t rl_sim_memory_free(rl_sim_memory_t* memory, uint64_t address) {
  rl_sim_memory_write_begin(memory);
  int64_t index = rl_sim_memory_find_locked(memory, address);
  if (index < 0 || memory->items[index].address != address) {
    rl_sim_memory_write_end(memory);
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "free of 0x%llx: not the start of a live allocation",
                     (unsigned long long)address);
  }
  memory->used_bytes -= rl_sim_memory_charge(memory->items[index].size,
                                             memory->items[index].no_access);
  rl_sim_host_block_free(&memory->items[index]);
  memmove(&memory->items[index], &memory->items[index + 1],
          (memory->count - (uint32_t)index - 1) * sizeof(memory->items[0]));
  memory->count--;
  rl_sim_memory_write_end(memory);
  return RL_OK;
}

// Host view of the range or NULL; the caller holds a read lock.
static uint8_t* rl_sim_memory_translate_locked(const rl_sim_memory_t* memory,
                                               uint64_t address,
                                               uint64_t size) {
  int64_t index = rl_sim_memory_find_locked(memory, address);
  if (index < 0) return NULL;
  const rl_sim_allocation_t* item = &memory->items[index];
  if (item->no_access) return NULL;
  uint64_t offset = address - item->address;
  if (offset >= item->size || item->size - offset < size) return NULL;
  return item->host + offset;
}

void* rl_sim_memory_translate(rl_sim_memory_t* memory, uint64_t address,
                              uint64_t size) {
  pthread_rwlock_t* lock = rl_sim_memory_read_begin(memory);
  void* host = rl_sim_memory_translate_locked(memory, address, size);
  rl_sim_memory_read_end(lock);
  return host;
}

bool rl_sim_memory_copy_in(rl_sim_memory_t* memory, uint64_t address,
                           const void* data, uint64_t size) {
  pthread_rwlock_t* lock = rl_sim_memory_read_begin(memory);
  uint8_t* host = rl_sim_memory_translate_locked(memory, address, size);
  if (host != NULL) memcpy(host, data, (size_t)size);
  rl_sim_memory_read_end(lock);
  return host != NULL;
}

bool rl_sim_memory_copy_out(rl_sim_memory_t* memory, uint64_t address,
                            void* data, uint64_t size) {
  pthread_rwlock_t* lock = rl_sim_memory_read_begin(memory);
  uint8_t* host = rl_sim_memory_translate_locked(memory, address, size);
  if (host != NULL) memcpy(data, host, (size_t)size);
  rl_sim_memory_read_end(lock);
  return host != NULL;
}

bool rl_sim_memory_gather(rl_sim_memory_t* memory, uint64_t lo, uint64_t hi,
                          const uint64_t* address, uint32_t lanes,
                          uint32_t size, uint8_t* data) {
  pthread_rwlock_t* lock = rl_sim_memory_read_begin(memory);
  uint8_t* host = rl_sim_memory_translate_locked(memory, lo, hi - lo);
  if (host != NULL) {
    for (uint32_t rest = lanes; rest; rest &= rest - 1) {
      uint32_t l = (uint32_t)__builtin_ctz(rest);
      rl_sim_move_element(data + l * 16u, host + (address[l] - lo), size);
    }
  }
  rl_sim_memory_read_end(lock);
  return host != NULL;
}

bool rl_sim_memory_scatter(rl_sim_memory_t* memory, uint64_t lo, uint64_t hi,
                           const uint64_t* address, uint32_t lanes,
                           uint32_t size, const uint8_t* data) {
  pthread_rwlock_t* lock = rl_sim_memory_read_begin(memory);
  uint8_t* host = rl_sim_memory_translate_locked(memory, lo, hi - lo);
  if (host != NULL) {
    for (uint32_t rest = lanes; rest; rest &= rest - 1) {
      uint32_t l = (uint32_t)__builtin_ctz(rest);
      rl_sim_move_element(host + (address[l] - lo), data + l * 16u, size);
    }
  }
  rl_sim_memory_read_end(lock);
  return host != NULL;
}

uint8_t* rl_sim_memory_span(rl_sim_memory_t* memory, uint64_t address,
                            uint64_t* out_start, uint64_t* out_end,
                            rl_memory_kind_t* out_kind) {
  uint8_t* host = NULL;
  pthread_rwlock_t* lock = rl_sim_memory_read_begin(memory);
  int64_t index = rl_sim_memory_find_locked(memory, address);
  if (index >= 0) {
    const rl_sim_allocation_t* item = &memory->items[index];
    if (!item->no_access && address - item->address < item->size) {
      host = item->host;
      *out_start = item->address;
      *out_end = item->address + item->size;
      if (out_kind) *out_kind = item->kind;
    }
  }
  rl_sim_memory_read_end(lock);
  return host;
}

void rl_sim_memory_usage(rl_sim_memory_t* memory, uint64_t* out_total,
                         uint64_t* out_used) {
  pthread_rwlock_t* lock = rl_sim_memory_read_begin(memory);
  *out_total = memory->total_bytes;
  *out_used = memory->used_bytes;
  rl_sim_memory_read_end(lock);
}
