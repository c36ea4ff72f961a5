// sim/oracle/oracle_memory.c — the oracle's memory view
// (oracle_internal.h): device memory read through rl_sim_wg_peek(), the
// oracle's own writes kept in 4 KiB pages that are never written back.
#include <stdlib.h>
#include <string.h>

#include "sim/oracle/oracle_internal.h"

void rl_oracle_mem_init(rl_oracle_mem_t* mem, rl_sim_wg_t* wg) {
  memset(mem, 0, sizeof(*mem));
  mem->wg = wg;
}

void rl_oracle_mem_free(rl_oracle_mem_t* mem) {
  for (uint32_t i = 0; i < mem->capacity; ++i) free(mem->slots[i]);
  free(mem->slots);
  memset(mem, 0, sizeof(*mem));
}

static uint32_t rl_oracle_page_hash(uint64_t base, uint32_t capacity) {
  uint64_t h = (base >> 12) * 0x9e3779b97f4a7c15ull;
  return (uint32_t)(h >> 32) & (capacity - 1);
}

static rl_oracle_page_t* rl_oracle_page_find(const rl_oracle_mem_t* mem,
                                             uint64_t base) {
  if (mem->capacity == 0) return NULL;
  for (uint32_t i = rl_oracle_page_hash(base, mem->capacity);;
       i = (i + 1) & (mem->capacity - 1)) {
    rl_oracle_page_t* page = mem->slots[i];
    if (!page) return NULL;
    if (page->base == base) return page;
  }
}

static bool rl_oracle_page_insert(rl_oracle_page_t** slots, uint32_t capacity,
                                  rl_oracle_page_t* page) {
  for (uint32_t i = rl_oracle_page_hash(page->base, capacity);;
       i = (i + 1) & (capacity - 1)) {
    if (!slots[i]) {
      slots[i] = page;
      return true;
    }
  }
}

static rl_oracle_page_t* rl_oracle_page_get(rl_oracle_mem_t* mem,
                                            uint64_t base) {
  rl_oracle_page_t* page = rl_oracle_page_find(mem, base);
  if (page) return page;
  if ((mem->count + 1) * 2 > mem->capacity) {
    uint32_t capacity = mem->capacity ? mem->capacity * 2 : 64;
    rl_oracle_page_t** slots = calloc(capacity, sizeof(*slots));
    if (!slots) return NULL;
    for (uint32_t i = 0; i < mem->capacity; ++i) {
      if (mem->slots[i]) rl_oracle_page_insert(slots, capacity, mem->slots[i]);
    }
    free(mem->slots);
    mem->slots = slots;
    mem->capacity = capacity;
  }
  page = calloc(1, sizeof(*page));
  if (!page) return NULL;
  page->base = base;
  rl_oracle_page_insert(mem->slots, mem->capacity, page);
  mem->count++;
  return page;
}

bool rl_oracle_mem_read(rl_oracle_mem_t* mem, uint64_t address, void* out,
                        uint32_t size) {
  if (size == 0) return true;
  if (address + size < address) return false;
  // Every byte must be mapped, whether or not the oracle wrote it.
  if (!rl_sim_wg_peek(mem->wg, address, out, size)) return false;
  uint8_t* bytes = out;
  for (uint32_t i = 0; i < size; ++i) {
    uint64_t a = address + i;
    const rl_oracle_page_t* page =
        rl_oracle_page_find(mem, a & ~(uint64_t)(RL_ORACLE_PAGE - 1));
    if (!page) {  // skip to the next page
      uint32_t rest = RL_ORACLE_PAGE - (uint32_t)(a & (RL_ORACLE_PAGE - 1));
      i += rest - 1;
      continue;
    }
    uint32_t at = (uint32_t)(a & (RL_ORACLE_PAGE - 1));
    if ((page->written[at / 8] >> (at % 8)) & 1) bytes[i] = page->data[at];
  }
  return true;
}

bool rl_oracle_mem_write(rl_oracle_mem_t* mem, uint64_t address,
                         const void* data, uint32_t size) {
  if (size == 0) return true;
  if (address + size < address) return false;
  uint8_t probe[64];
  for (uint32_t done = 0; done < size;) {  // mapped?
    uint32_t n = size - done < sizeof(probe) ? size - done : sizeof(probe);
    if (!rl_sim_wg_peek(mem->wg, address + done, probe, n)) return false;
    done += n;
  }
  const uint8_t* bytes = data;
  for (uint32_t i = 0; i < size; ++i) {
    uint64_t a = address + i;
    rl_oracle_page_t* page =
        rl_oracle_page_get(mem, a & ~(uint64_t)(RL_ORACLE_PAGE - 1));
    if (!page) return false;
    uint32_t at = (uint32_t)(a & (RL_ORACLE_PAGE - 1));
    page->data[at] = bytes[i];
    page->written[at / 8] |= (uint8_t)(1u << (at % 8));
  }
  return true;
}

bool rl_oracle_mem_written(const rl_oracle_mem_t* mem, uint64_t address) {
  const rl_oracle_page_t* page =
      rl_oracle_page_find(mem, address & ~(uint64_t)(RL_ORACLE_PAGE - 1));
  uint32_t at = (uint32_t)(address & (RL_ORACLE_PAGE - 1));
  return page && ((page->written[at / 8] >> (at % 8)) & 1);
}
