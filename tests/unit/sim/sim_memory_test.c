// Tests of the simulated device's address space (sim/sim_memory.c):
// placement, translation at and across allocation edges and guard gaps,
// fixed-address allocations, no-access guard ranges, faults after free, the
// device's memory budget and reserved (not committed) host backing, and
// reads of the allocation table while another thread grows and shrinks it
// (under TSan too: label threaded).
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/mem/sim_mem.h"
#include "sim/sim.h"

// Built with -fsanitize=thread (GCC's macro, clang's feature test): this
// test runs in the TSan stage (label threaded).
#if defined(__SANITIZE_THREAD__)
#define RL_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RL_TEST_TSAN 1
#endif
#endif
#ifndef RL_TEST_TSAN
#define RL_TEST_TSAN 0
#endif

static rl_device_t* rl_test_device(void) {
  rl_device_t* device = NULL;
  rl_status_t status = rl_sim_device_create(NULL, &device);
  assert_null(status);
  return device;
}

static rl_device_allocation_t rl_test_alloc(rl_device_t* device,
                                            uint64_t size) {
  rl_device_allocation_t allocation;
  assert_null(device->vtable->allocate(device, size, 64, RL_MEMORY_KIND_DEVICE,
                                       &allocation));
  return allocation;
}

static void test_device_identity(void** state) {
  (void)state;
  rl_sim_options_t options = {.processor = "gfx1201"};
  rl_device_t* device = NULL;
  assert_null(rl_sim_device_create(&options, &device));
  assert_true(rl_sim_device_is(device));
  assert_string_equal(device->name, "sim");
  assert_string_equal(device->target, "amdgcn-amd-amdhsa--gfx1201");
  assert_int_equal(device->timestamp_frequency, RL_SIM_TIMESTAMP_HZ);
  assert_int_equal(device->lds_limit, RL_SIM_LDS_LIMIT);
  device->vtable->destroy(device);
  options.processor = "gfx906";
  rl_status_t status = rl_sim_device_create(&options, &device);
  assert_int_equal(rl_status_code(status), RL_STATUS_UNSUPPORTED);
  assert_null(device);
  rl_status_free(status);
}

static void test_addresses_are_never_host_pointers(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device();
  uint64_t previous_end = 0;
  for (int i = 0; i < 8; ++i) {
    rl_device_allocation_t a = rl_test_alloc(device, 100 + (uint64_t)i * 4096);
    assert_true(a.address >= RL_SIM_VA_BASE);
    assert_true(a.address + a.size <= RL_SIM_VA_END);
    // Canonical for every target: sign-extending from bit 47 (gfx12 code
    // does, after S_GETPC_B64) leaves the address as it is.
    assert_true((uint64_t)((int64_t)(a.address << 16) >> 16) == a.address);
    // Host pointers (the mapping, the stack, the heap) lie outside the range.
    uint64_t host = (uint64_t)(uintptr_t)a.host;
    uint64_t stack = (uint64_t)(uintptr_t)&a;
    uint64_t heap = (uint64_t)(uintptr_t)device;
    assert_true(host < RL_SIM_VA_BASE || host >= RL_SIM_VA_END);
    assert_true(stack < RL_SIM_VA_BASE || stack >= RL_SIM_VA_END);
    assert_true(heap < RL_SIM_VA_BASE || heap >= RL_SIM_VA_END);
    // A guard gap separates consecutive allocations.
    assert_true(a.address > previous_end);
    previous_end = a.address + a.size;
    // Fresh memory reads as zero.
    assert_int_equal(((uint8_t*)a.host)[0], 0);
  }
  device->vtable->destroy(device);
}

static void test_translation_edges(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device();
  rl_device_allocation_t a = rl_test_alloc(device, 1000);
  rl_device_allocation_t b = rl_test_alloc(device, 1000);
  uint8_t* host = a.host;
  assert_ptr_equal(rl_sim_translate(device, a.address, 1000), host);
  assert_ptr_equal(rl_sim_translate(device, a.address + 996, 4), host + 996);
  // Straddling the end, just past it, in the guard gap, before the start.
  assert_null(rl_sim_translate(device, a.address + 997, 4));
  assert_null(rl_sim_translate(device, a.address + 1000, 1));
  assert_null(rl_sim_translate(device, a.address + 4096, 4));
  assert_null(rl_sim_translate(device, a.address - 4, 4));
  assert_null(rl_sim_translate(device, RL_SIM_VA_BASE - 4096, 4));
  // Straddling from a into b (through the gap) is refused too.
  assert_null(rl_sim_translate(device, a.address, b.address - a.address + 4));
  assert_null(rl_sim_translate(device, UINT64_MAX - 2, 4));
  // read/write go through the same check.
  uint32_t word = 0xdeadbeef;
  assert_null(device->vtable->write(device, b.address + 8, &word, 4));
  uint32_t back = 0;
  assert_null(device->vtable->read(device, b.address + 8, &back, 4));
  assert_int_equal(back, 0xdeadbeef);
  rl_status_t status = device->vtable->write(device, b.address + 998, &word, 4);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  device->vtable->destroy(device);
}

static void test_fixed_allocations(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device();
  const rl_device_vtable_t* vt = device->vtable;
  uint64_t where = RL_SIM_VA_BASE + 0x100000000ull;
  rl_device_allocation_t fixed;
  assert_null(
      vt->allocate_fixed(device, where, 8192, RL_MEMORY_KIND_DEVICE, &fixed));
  assert_int_equal(fixed.address, where);
  assert_non_null(rl_sim_translate(device, where + 8188, 4));
  // Overlaps at the start, inside and at the end conflict.
  uint64_t conflicts[3] = {where - 4096, where + 100, where + 8191};
  for (int i = 0; i < 3; ++i) {
    rl_status_t status = vt->allocate_fixed(device, conflicts[i], 8192,
                                            RL_MEMORY_KIND_DEVICE, &fixed);
    assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
    assert_int_equal(fixed.address, 0);
    rl_status_free(status);
  }
  // Outside the simulated range is not addressable.
  rl_status_t status = vt->allocate_fixed(device, 0x7f0000000000ull, 4096,
                                          RL_MEMORY_KIND_DEVICE, &fixed);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  rl_status_free(status);
  // Adjacent is fine, and later ordinary allocations avoid the fixed range.
  assert_null(vt->allocate_fixed(device, where + 8192, 4096,
                                 RL_MEMORY_KIND_DEVICE, &fixed));
  rl_device_allocation_t after = rl_test_alloc(device, 64);
  assert_true(after.address > where + 8192 + 4096);
  device->vtable->destroy(device);
}

// A no-access range right after a buffer: nothing translates into it, the
// host cannot read or write it, an access straddling the buffer's end is
// refused too, and it frees like an allocation. The buffer itself stays
// fully usable (the negative control).
static void test_guard_ranges_are_no_access(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device();
  const rl_device_vtable_t* vt = device->vtable;
  rl_device_allocation_t buffer = rl_test_alloc(device, 100);
  const uint64_t guard = buffer.address + 100;
  assert_non_null(vt->reserve_guard);
  assert_null(vt->reserve_guard(device, guard, 256));
  assert_non_null(rl_sim_translate(device, buffer.address + 96, 4));
  assert_null(rl_sim_translate(device, buffer.address + 98, 4));
  assert_null(rl_sim_translate(device, guard, 1));
  assert_null(rl_sim_translate(device, guard + 255, 1));
  uint32_t word = 7;
  rl_status_t status = vt->write(device, guard + 8, &word, 4);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  status = vt->read(device, guard, &word, 4);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  assert_null(vt->write(device, buffer.address + 96, &word, 4));
  // A second guard over the first one overlaps.
  status = vt->reserve_guard(device, guard + 128, 256);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  rl_status_free(status);
  assert_null(vt->free(device, guard));
  assert_null(vt->free(device, buffer.address));
  device->vtable->destroy(device);
}

static void test_free_then_access_faults(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device();
  rl_device_allocation_t a = rl_test_alloc(device, 256);
  assert_non_null(rl_sim_translate(device, a.address, 4));
  assert_null(device->vtable->free(device, a.address));
  assert_null(rl_sim_translate(device, a.address, 4));
  // The range is never handed out again.
  rl_device_allocation_t b = rl_test_alloc(device, 256);
  assert_true(b.address != a.address);
  assert_null(rl_sim_translate(device, a.address, 4));
  // Double free and freeing an interior address are refused.
  rl_status_t status = device->vtable->free(device, a.address);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  status = device->vtable->free(device, b.address + 4);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  device->vtable->destroy(device);
}

static void test_many_allocations_binary_search(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device();
  enum { COUNT = 2000 };
  static uint64_t addresses[COUNT];
  for (int i = 0; i < COUNT; ++i)
    addresses[i] = rl_test_alloc(device, 64).address;
  // Free every third, then check each address resolves (or not) correctly.
  for (int i = 0; i < COUNT; i += 3) {
    assert_null(device->vtable->free(device, addresses[i]));
  }
  for (int i = 0; i < COUNT; ++i) {
    void* host = rl_sim_translate(device, addresses[i] + 60, 4);
    if (i % 3 == 0) {
      assert_null(host);
    } else {
      assert_non_null(host);
    }
  }
  device->vtable->destroy(device);
}

static void test_bad_allocation_arguments(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device();
  rl_device_allocation_t a;
  rl_status_t status =
      device->vtable->allocate(device, 0, 64, RL_MEMORY_KIND_DEVICE, &a);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  status = device->vtable->allocate(device, 64, 48, RL_MEMORY_KIND_DEVICE, &a);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  // Large alignments are honoured.
  assert_null(device->vtable->allocate(device, 64, 1u << 20,
                                       RL_MEMORY_KIND_DEVICE, &a));
  assert_int_equal(a.address % (1u << 20), 0);
  device->vtable->destroy(device);
}

// Resident set size of this process in bytes (/proc/self/statm, field 2).
static uint64_t rl_test_rss_bytes(void) {
  FILE* file = fopen("/proc/self/statm", "r");
  assert_non_null(file);
  unsigned long long size = 0, resident = 0;
  assert_int_equal(fscanf(file, "%llu %llu", &size, &resident), 2);
  fclose(file);
  return resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

static rl_device_t* rl_test_device_of(uint64_t memory_bytes) {
  const rl_sim_options_t options = {.memory_bytes = memory_bytes};
  rl_device_t* device = NULL;
  assert_null(rl_sim_device_create(&options, &device));
  return device;
}

static void rl_test_expect_out_of_memory(rl_device_t* device, uint64_t size) {
  rl_device_allocation_t a = {1, 1, NULL};
  rl_status_t status =
      device->vtable->allocate(device, size, 64, RL_MEMORY_KIND_DEVICE, &a);
  assert_int_equal(rl_status_code(status), RL_STATUS_OUT_OF_MEMORY);
  assert_non_null(
      strstr(rl_status_message(status), "simulated device memory exhausted"));
  assert_int_equal(a.address, 0);
  assert_null(a.host);
  rl_status_free(status);
}

// The device's memory is a budget: 20 GiB on a 16 GiB device fails, what
// fits succeeds up to the last page (every kind and fixed allocations
// count, guards do not), and a free gives the bytes back. The info the HIP
// runtime reports (total, used) follows every step.
static void test_memory_budget(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device_of(0);  // the default: 16 GiB
  const rl_device_vtable_t* vt = device->vtable;
  uint64_t total = 0, used = 0;
  rl_sim_memory_info(device, &total, &used);
  assert_int_equal(total, RL_SIM_DEFAULT_MEMORY_BYTES);
  assert_int_equal(total, 16ull << 30);
  assert_int_equal(used, 0);
  rl_test_expect_out_of_memory(device, 20ull << 30);
  rl_test_expect_out_of_memory(device, total + 1);
  rl_device_allocation_t big = {0}, small = {0}, system = {0};
  assert_null(vt->allocate(device, total - 8192, 64, RL_MEMORY_KIND_DEVICE,
                           &big));
  assert_null(vt->allocate(device, 100, 64, RL_MEMORY_KIND_SYSTEM, &system));
  rl_sim_memory_info(device, &total, &used);
  assert_int_equal(used, total - 4096);  // 100 bytes take a page
  rl_test_expect_out_of_memory(device, 4097);
  assert_null(vt->reserve_guard(device, big.address + big.size, 256));
  assert_null(vt->allocate(device, 4096, 64, RL_MEMORY_KIND_DEVICE, &small));
  rl_sim_memory_info(device, &total, &used);
  assert_int_equal(used, total);
  rl_test_expect_out_of_memory(device, 1);
  rl_device_allocation_t fixed = {0};
  rl_status_t status = vt->allocate_fixed(device, RL_SIM_VA_BASE + (1ull << 40),
                                          1, RL_MEMORY_KIND_DEVICE, &fixed);
  assert_int_equal(rl_status_code(status), RL_STATUS_OUT_OF_MEMORY);
  rl_status_free(status);
  assert_null(vt->free(device, big.address));
  rl_sim_memory_info(device, &total, &used);
  assert_int_equal(used, 8192);
  assert_null(vt->allocate_fixed(device, RL_SIM_VA_BASE + (1ull << 40),
                                 total - 8192, RL_MEMORY_KIND_DEVICE, &fixed));
  rl_test_expect_out_of_memory(device, 1);
  device->vtable->destroy(device);
  // An option sets the total (rounded down to pages); 0 is not "none".
  device = rl_test_device_of((1ull << 20) + 100);
  rl_sim_memory_info(device, &total, &used);
  assert_int_equal(total, 1ull << 20);
  rl_test_expect_out_of_memory(device, (1ull << 20) + 1);
  device->vtable->destroy(device);
}

// A huge allocation is reserved, not committed: 8 GiB cost no resident
// memory until touched, read as zero, and the pages written are what the
// process pays for (the negative control: touching 64 MiB shows up).
static void test_huge_allocation_costs_nothing_until_touched(void** state) {
  (void)state;
#if RL_TEST_TSAN
  skip();  // TSan backs every touched page with shadow pages: RSS says nothing
#endif
  rl_device_t* device = rl_test_device_of(0);
  const uint64_t before = rl_test_rss_bytes();
  rl_device_allocation_t a = {0};
  assert_null(device->vtable->allocate(device, 8ull << 30, 64,
                                       RL_MEMORY_KIND_DEVICE, &a));
  const uint64_t reserved = rl_test_rss_bytes();
  assert_true(reserved < before + (16ull << 20));
  uint8_t* host = a.host;
  const uint64_t touched = 64ull << 20;
  for (uint64_t i = 0; i < touched; i += 4096) {
    assert_int_equal(host[(4ull << 30) + i], 0);  // zero, like calloc
    host[(4ull << 30) + i] = 1;
  }
  assert_int_equal(host[(8ull << 30) - 1], 0);
  const uint64_t written = rl_test_rss_bytes();
  assert_true(written >= reserved + touched - (4ull << 20));
  assert_true(written < reserved + touched + (16ull << 20));
  // Freed, the pages go back to the system.
  assert_null(device->vtable->free(device, a.address));
  assert_true(rl_test_rss_bytes() < written - touched / 2);
  device->vtable->destroy(device);
}

// What a VM fault's message says about where an access went: the buffer
// it ran off and the offset, from either side of the guard gap, and
// nothing when no allocation is within a gap of it.
static void test_fault_description_names_the_nearest_allocation(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device();
  rl_sim_memory_t* memory = &rl_sim_device_cast(device)->memory;
  rl_device_allocation_t a = rl_test_alloc(device, 1000);
  rl_device_allocation_t b = rl_test_alloc(device, 4096);
  char text[160], expected[160];
  rl_sim_memory_describe(memory, a.address + 1000, 4, text, sizeof(text));
  snprintf(expected, sizeof(expected),
           "offset 1000 of allocation 0x%llx (1000 bytes), 4 bytes past its "
           "end", (unsigned long long)a.address);
  assert_string_equal(text, expected);
  rl_sim_memory_describe(memory, a.address + 998, 4, text, sizeof(text));
  snprintf(expected, sizeof(expected),
           "offset 998 of allocation 0x%llx (1000 bytes), 2 bytes past its "
           "end", (unsigned long long)a.address);
  assert_string_equal(text, expected);
  rl_sim_memory_describe(memory, a.address + 2, 4, text, sizeof(text));
  snprintf(expected, sizeof(expected),
           "offset 2 of allocation 0x%llx (1000 bytes)",
           (unsigned long long)a.address);
  assert_string_equal(text, expected);
  rl_sim_memory_describe(memory, b.address - 8, 4, text, sizeof(text));
  snprintf(expected, sizeof(expected),
           "8 bytes before the start of allocation 0x%llx (4096 bytes)",
           (unsigned long long)b.address);
  assert_string_equal(text, expected);
  // A guard right after b is skipped: the access ran off b.
  assert_null(device->vtable->reserve_guard(device, b.address + 4096, 256));
  rl_sim_memory_describe(memory, b.address + 4100, 4, text, sizeof(text));
  snprintf(expected, sizeof(expected),
           "offset 4100 of allocation 0x%llx (4096 bytes), 8 bytes past its "
           "end", (unsigned long long)b.address);
  assert_string_equal(text, expected);
  // Beyond a gap's reach of every allocation: nothing to name.
  rl_sim_memory_describe(memory, b.address + (1ull << 30), 4, text,
                         sizeof(text));
  assert_string_equal(text, "");
  rl_sim_memory_describe(memory, RL_SIM_VA_BASE - (1ull << 20), 4, text,
                         sizeof(text));
  assert_string_equal(text, "");
  device->vtable->destroy(device);
}

// A thread reading one allocation through the table, as work-groups do,
// while the main thread allocates and frees around it.
typedef struct rl_test_reader_s {
  pthread_t thread;
  rl_sim_memory_t* memory;
  uint64_t address;  // RL_TEST_WORDS words, word i holding i * 7 + 1
  atomic_bool* stop;
  uint64_t reads;
  uint64_t wrong;  // reads that failed or saw other bytes
} rl_test_reader_t;

enum { RL_TEST_WORDS = 64, RL_TEST_READERS = 3 };

static void* rl_test_reader_main(void* arg) {
  rl_test_reader_t* r = arg;
  uint64_t lanes[32];
  uint8_t data[32 * 16];
  for (uint32_t l = 0; l < 32; ++l) lanes[l] = r->address + l * 8u;
  while (!atomic_load(r->stop) || r->reads < 1000) {
    uint32_t word = (uint32_t)(r->reads % RL_TEST_WORDS);
    uint32_t value = 0;
    if (!rl_sim_memory_copy_out(r->memory, r->address + word * 4u, &value, 4) ||
        value != word * 7u + 1u) {
      r->wrong++;
    }
    // One instruction's lanes: the even words.
    if (!rl_sim_memory_gather(r->memory, lanes[0], lanes[31] + 4, lanes,
                              0xFFFFFFFFu, 4, data)) {
      r->wrong++;
    } else {
      for (uint32_t l = 0; l < 32; ++l) {
        memcpy(&value, data + l * 16u, 4);
        if (value != l * 2u * 7u + 1u) r->wrong++;
      }
    }
    r->reads++;
  }
  return NULL;
}

static void test_table_changes_while_read(void** state) {
  (void)state;
  rl_device_t* device = rl_test_device();
  rl_sim_memory_t* memory = &rl_sim_device_cast(device)->memory;
  atomic_bool stop = false;
  rl_test_reader_t readers[RL_TEST_READERS];
  for (int k = 0; k < RL_TEST_READERS; ++k) {
    uint32_t words[RL_TEST_WORDS];
    for (uint32_t i = 0; i < RL_TEST_WORDS; ++i) words[i] = i * 7u + 1u;
    rl_device_allocation_t a = rl_test_alloc(device, sizeof(words));
    assert_true(rl_sim_memory_copy_in(memory, a.address, words, sizeof(words)));
    readers[k] = (rl_test_reader_t){.memory = memory, .address = a.address,
                                    .stop = &stop};
  }
  for (int k = 0; k < RL_TEST_READERS; ++k) {
    assert_int_equal(pthread_create(&readers[k].thread, NULL,
                                    rl_test_reader_main, &readers[k]),
                     0);
  }
  // The table grows past several reallocations, and every free moves the
  // entries after it, while the readers search it.
  enum { COUNT = 3000 };
  static uint64_t churn[COUNT];
  for (int i = 0; i < COUNT; ++i) churn[i] = rl_test_alloc(device, 64).address;
  for (int i = 0; i < COUNT; i += 2) {
    assert_null(device->vtable->free(device, churn[i]));
  }
  atomic_store(&stop, true);
  for (int k = 0; k < RL_TEST_READERS; ++k) {
    pthread_join(readers[k].thread, NULL);
    assert_true(readers[k].reads >= 1000);
    assert_int_equal(readers[k].wrong, 0);
  }
  for (int i = 0; i < COUNT; ++i) {
    void* host = rl_sim_translate(device, churn[i], 64);
    if (i % 2 == 0) {
      assert_null(host);
    } else {
      assert_non_null(host);
    }
  }
  uint64_t total = 0, used = 0;
  rl_sim_memory_info(device, &total, &used);
  assert_int_equal(used, (COUNT / 2 + RL_TEST_READERS) * RL_SIM_PAGE_SIZE);
  device->vtable->destroy(device);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_device_identity),
      cmocka_unit_test(test_addresses_are_never_host_pointers),
      cmocka_unit_test(test_translation_edges),
      cmocka_unit_test(test_fixed_allocations),
      cmocka_unit_test(test_guard_ranges_are_no_access),
      cmocka_unit_test(test_free_then_access_faults),
      cmocka_unit_test(test_many_allocations_binary_search),
      cmocka_unit_test(test_bad_allocation_arguments),
      cmocka_unit_test(test_memory_budget),
      cmocka_unit_test(test_huge_allocation_costs_nothing_until_touched),
      cmocka_unit_test(test_fault_description_names_the_nearest_allocation),
      cmocka_unit_test(test_table_changes_while_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
