// Tests of the simulated command processor (sim/sim_cp.c and
// friends): packets published by hand with the AQL producer protocol are
// consumed in order, barrier packets wait on their signals, a small ring
// applies backpressure, every fault class puts the queue in an error state
// with a message naming the packet, an injected hang is survivable, and the
// dispatch log has ordered timestamps, and closing a device stops a queue
// that is still executing. Every test ends by destroying its
// queue (which must succeed) under ASan/TSan.
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tests/unit/sim/sim_test_util.h"
#include "tests/support/test_support.h"
#include "base/clock.h"

static const rl_device_vtable_t* vt(rl_sim_fixture_t* f) {
  return f->device->vtable;
}

static uint32_t rl_test_header_word(rl_sim_fixture_t* f, uint64_t id) {
  uint8_t* slot = (uint8_t*)f->queue.ring +
                  (id & (f->queue.packet_count - 1)) * RL_AQL_PACKET_SIZE;
  return atomic_load_explicit((_Atomic uint32_t*)slot, memory_order_acquire);
}

static uint64_t rl_test_read_id(rl_sim_fixture_t* f) {
  return atomic_load_explicit((_Atomic uint64_t*)f->queue.read_index,
                              memory_order_acquire);
}

static void test_dispatch_completes_and_retires(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * 100);
  uint64_t signal = rl_sim_fixture_signal(&f, 1);
  rl_aql_dispatch_packet_t p = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_fill"),
      rl_sim_fixture_fill_args(&f, out.address, 2.5f, 100), 128, signal, true);
  uint64_t id = rl_test_submit(&f, &p);
  assert_int_equal(id, 0);
  assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
  assert_int_equal(vt(&f)->signal_load(f.device, signal), 0);
  assert_int_equal(rl_test_header_word(&f, 0) & 0xff,
                   RL_AQL_PACKET_TYPE_INVALID);
  assert_int_equal(rl_test_read_id(&f), 1);
  assert_true(vt(&f)->queue_idle(f.device, &f.queue));
  float values[100];
  assert_null(vt(&f)->read(f.device, out.address, values, sizeof(values)));
  for (int i = 0; i < 100; ++i) assert_true(values[i] == 2.5f);
  rl_device_fault_t fault;
  vt(&f)->queue_fault(f.device, &f.queue, &fault);
  assert_false(fault.faulted);
  rl_sim_fixture_teardown(&f);
}

// A doorbell reaches the command processor in each of its waits for the
// next one: still polling (at once), napping (1 ms later: past the 200 µs
// poll window, inside the 20 ms of naps) and asleep until woken (60 ms
// later). Each dispatch completes well inside the wait bound.
static void test_doorbell_reaches_polling_napping_and_sleeping_cp(
    void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * 100);
  static const long gaps_us[] = {0, 1000, 60000};
  for (int i = 0; i < 3; ++i) {
    struct timespec gap = {0, gaps_us[i] * 1000};
    nanosleep(&gap, NULL);
    uint64_t signal = rl_sim_fixture_signal(&f, 1);
    rl_aql_dispatch_packet_t p = rl_test_dispatch(
        rl_sim_fixture_kernel(&f, "vc_fill"),
        rl_sim_fixture_fill_args(&f, out.address, (float)i, 100), 128, signal,
        true);
    rl_test_submit(&f, &p);
    assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
    assert_int_equal(rl_test_read_id(&f), (uint64_t)i + 1);
  }
  rl_sim_fixture_teardown(&f);
}

// Publishes barrier |type| on s1/s2 plus a dispatch behind it; returns the
// completion signals (barrier, dispatch).
static void rl_test_barrier_case(rl_sim_fixture_t* f, uint32_t type,
                                 uint64_t s1, uint64_t s2, uint64_t* out_done,
                                 uint64_t* out_after) {
  *out_done = rl_sim_fixture_signal(f, 1);
  *out_after = rl_sim_fixture_signal(f, 1);
  rl_aql_barrier_packet_t b = {
      .header = rl_aql_header(type, 1, RL_AQL_FENCE_SCOPE_SYSTEM,
                              RL_AQL_FENCE_SCOPE_SYSTEM),
      .dep_signal = {s1, 0, s2, 0, 0},
      .completion_signal = *out_done,
  };
  rl_device_allocation_t out = rl_sim_fixture_alloc(f, 64);
  rl_aql_dispatch_packet_t p = rl_test_dispatch(
      rl_sim_fixture_kernel(f, "vc_fill"),
      rl_sim_fixture_fill_args(f, out.address, 1.0f, 16), 16, *out_after, true);
  rl_test_publish(f, &b);
  rl_test_submit(f, &p);
}

static void sim_queue_barrier_and_waits_for_every_dependency(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  uint64_t s1 = rl_sim_fixture_signal(&f, 1);
  uint64_t s2 = rl_sim_fixture_signal(&f, 1);
  uint64_t done, after;
  rl_test_barrier_case(&f, RL_AQL_PACKET_TYPE_BARRIER_AND, s1, s2, &done,
                       &after);
  assert_false(rl_test_wait(&f, done, RL_TEST_NEGATIVE_WAIT_NS));
  vt(&f)->signal_store(f.device, s1, 0);
  assert_false(rl_test_wait(&f, done, RL_TEST_NEGATIVE_WAIT_NS));
  assert_false(rl_test_wait(&f, after, 0));
  assert_false(vt(&f)->queue_idle(f.device, &f.queue));
  vt(&f)->signal_store(f.device, s2, 0);
  assert_true(rl_test_wait(&f, done, RL_TEST_WAIT_NS));
  assert_true(rl_test_wait(&f, after, RL_TEST_WAIT_NS));
  assert_true(vt(&f)->queue_idle(f.device, &f.queue));
  rl_sim_fixture_teardown(&f);
}

static void sim_queue_barrier_or_completes_on_first_dependency(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  uint64_t s1 = rl_sim_fixture_signal(&f, 1);
  uint64_t s2 = rl_sim_fixture_signal(&f, 5);
  uint64_t done, after;
  rl_test_barrier_case(&f, RL_AQL_PACKET_TYPE_BARRIER_OR, s1, s2, &done,
                       &after);
  assert_false(rl_test_wait(&f, done, RL_TEST_NEGATIVE_WAIT_NS));
  vt(&f)->signal_store(f.device, s2, 0);  // Either one suffices.
  assert_true(rl_test_wait(&f, done, RL_TEST_WAIT_NS));
  assert_true(rl_test_wait(&f, after, RL_TEST_WAIT_NS));
  rl_sim_fixture_teardown(&f);
}

static void test_blocked_barrier_destroy_returns(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  uint64_t never = rl_sim_fixture_signal(&f, 1);
  uint64_t done, after;
  rl_test_barrier_case(&f, RL_AQL_PACKET_TYPE_BARRIER_AND, never, 0, &done,
                       &after);
  assert_false(rl_test_wait(&f, done, RL_TEST_NEGATIVE_WAIT_NS));
  assert_false(vt(&f)->queue_idle(f.device, &f.queue));
  rl_sim_fixture_teardown(&f);  // Must stop the blocked CP.
}

// Producer of the backpressure test: publishes |count| single-item fills,
// each writing its index into slot k of |log|, one doorbell per packet.
typedef struct rl_test_producer_s {
  rl_sim_fixture_t* f;
  uint64_t kernel;
  uint64_t log;
  uint64_t signal;
  uint32_t count;
} rl_test_producer_t;

static void* rl_test_producer_main(void* arg) {
  rl_test_producer_t* producer = arg;
  for (uint32_t k = 0; k < producer->count; ++k) {
    uint64_t args = rl_sim_fixture_fill_args(
        producer->f, producer->log + 4ull * k, (float)k, 1);
    rl_aql_dispatch_packet_t p =
        rl_test_dispatch(producer->kernel, args, 1, producer->signal, false);
    rl_test_submit(producer->f, &p);
  }
  return NULL;
}

static void test_ring_full_backpressure(void** state) {
  (void)state;
  enum { RING = 4, COUNT = 10 * RING };
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, RING);
  rl_device_allocation_t log = rl_sim_fixture_alloc(&f, 4 * COUNT);
  rl_test_producer_t producer = {&f, rl_sim_fixture_kernel(&f, "vc_fill"),
                                 log.address, rl_sim_fixture_signal(&f, COUNT),
                                 COUNT};
  // Allocations happen on the producer thread: the fixture's device is used
  // by one thread at a time, so the main thread only waits.
  pthread_t thread;
  assert_int_equal(
      pthread_create(&thread, NULL, rl_test_producer_main, &producer), 0);
  pthread_join(thread, NULL);
  assert_true(rl_test_wait(&f, producer.signal, RL_TEST_WAIT_NS));
  assert_int_equal(rl_test_read_id(&f), COUNT);
  float values[COUNT];
  assert_null(vt(&f)->read(f.device, log.address, values, sizeof(values)));
  for (int k = 0; k < COUNT; ++k) assert_true(values[k] == (float)k);
  assert_true(vt(&f)->queue_idle(f.device, &f.queue));
  rl_sim_fixture_teardown(&f);
}

// Submits |bad| as packet 1 behind a good packet 0 and a good packet 2;
// checks packet 0 completes, the queue faults on 1 with a message holding
// |part| and that nothing after it completes.
static void rl_test_fault_case(rl_sim_fixture_t* f, void* bad, const char* part,
                               uint64_t address) {
  rl_device_allocation_t out = rl_sim_fixture_alloc(f, 256);
  uint64_t fill = rl_sim_fixture_kernel(f, "vc_fill");
  uint64_t args = rl_sim_fixture_fill_args(f, out.address, 1.0f, 64);
  uint64_t s0 = rl_sim_fixture_signal(f, 1);
  uint64_t s2 = rl_sim_fixture_signal(f, 1);
  rl_aql_dispatch_packet_t p0 = rl_test_dispatch(fill, args, 64, s0, true);
  rl_aql_dispatch_packet_t p2 = rl_test_dispatch(fill, args, 64, s2, true);
  uint64_t s1 = rl_sim_fixture_signal(f, 1);
  memcpy((uint8_t*)bad + 56, &s1, 8);  // completion_signal of every type
  rl_test_publish(f, &p0);
  rl_test_publish(f, bad);
  rl_test_submit(f, &p2);
  assert_true(rl_test_wait(f, s0, RL_TEST_WAIT_NS));
  assert_false(rl_test_wait(f, s1, RL_TEST_NEGATIVE_WAIT_NS));
  assert_false(rl_test_wait(f, s2, 0));
  rl_device_fault_t fault;
  // The fault lands right after packet 0 retires; allow a slow machine.
  for (int tries = 0; tries < 10000; ++tries) {
    vt(f)->queue_fault(f->device, &f->queue, &fault);
    if (fault.faulted) break;
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
  assert_true(fault.faulted);
  assert_int_equal(fault.packet_id, 1);
  assert_non_null(strstr(fault.message, "packet 1"));
  if (strstr(fault.message, part) == NULL) {
    fail_msg("fault message '%s' lacks '%s'", fault.message, part);
  }
  if (address != 0) assert_int_equal(fault.address, address);
  assert_false(vt(f)->queue_idle(f->device, &f->queue));
  assert_int_equal(rl_test_read_id(f), 1);
}

static void sim_queue_invalid_packet_type_faults_naming_type(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  uint8_t bad[64] = {0x07, 0x00};
  rl_test_fault_case(&f, bad, "TYPE", 0);
  rl_sim_fixture_teardown(&f);
}

static void test_fault_reserved_bits(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_aql_dispatch_packet_t p =
      rl_test_dispatch(rl_sim_fixture_kernel(&f, "vc_fill"), 0, 64, 0, true);
  p.header |= 0x4000;
  rl_test_fault_case(&f, &p, "reserved bits 15:13", 0);
  rl_sim_fixture_teardown(&f);
}

static void test_fault_unknown_kernel_object(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  // Inside the loaded image but not a descriptor (those are 64-aligned).
  uint64_t wrong = rl_sim_fixture_kernel(&f, "vc_fill") + 8;
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 256);
  rl_aql_dispatch_packet_t p = rl_test_dispatch(
      wrong, rl_sim_fixture_fill_args(&f, out.address, 1.0f, 64), 64, 0, false);
  rl_test_fault_case(&f, &p, "not the address of a loaded kernel descriptor",
                     wrong);
  rl_sim_fixture_teardown(&f);
}

static void test_fault_kernarg_outside_memory(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_device_allocation_t small = rl_sim_fixture_alloc(&f, 8);
  // vc_fill needs 16 kernarg bytes; only 8 are allocated.
  rl_aql_dispatch_packet_t p = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_fill"), small.address, 64, 0, false);
  rl_test_fault_case(&f, &p, "kernarg segment", small.address);
  rl_sim_fixture_teardown(&f);
}

static void test_fault_vm_fault_from_executor(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * 60);
  // 64 items into a 60-float buffer: item 60 writes into the guard gap.
  rl_aql_dispatch_packet_t p = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_fill"),
      rl_sim_fixture_fill_args(&f, out.address, 1.0f, 64), 64, 0, false);
  rl_test_fault_case(&f, &p, "VM fault: write of 4 bytes", out.address + 240);
  rl_device_fault_t fault;
  vt(&f)->queue_fault(f.device, &f.queue, &fault);
  assert_non_null(strstr(fault.message, "vc_fill"));
  rl_sim_fixture_teardown(&f);
}

// One element past a buffer with the next allocation right behind it (the
// next page after the guard gap): the write faults, and the message names
// the buffer it ran off and the offset in it. The negative control: the
// in-bounds fill of the same buffer completes and writes every element.
static void test_vm_fault_names_buffer_and_offset(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * 60);
  rl_device_allocation_t next = rl_sim_fixture_alloc(&f, 4096);
  assert_true(next.address > out.address + out.size);
  uint64_t fill = rl_sim_fixture_kernel(&f, "vc_fill");
  uint64_t done = rl_sim_fixture_signal(&f, 1);
  rl_aql_dispatch_packet_t in_bounds = rl_test_dispatch(
      fill, rl_sim_fixture_fill_args(&f, out.address, 2.0f, 60), 64, done,
      true);
  rl_test_submit(&f, &in_bounds);
  assert_true(rl_test_wait(&f, done, RL_TEST_WAIT_NS));
  rl_device_fault_t fault;
  vt(&f)->queue_fault(f.device, &f.queue, &fault);
  assert_false(fault.faulted);
  float values[60];
  assert_null(vt(&f)->read(f.device, out.address, values, sizeof(values)));
  for (int i = 0; i < 60; ++i) assert_true(values[i] == 2.0f);
  // 61 items: item 60 writes the 4 bytes right after the buffer's end.
  uint64_t faulted = rl_sim_fixture_signal(&f, 1);
  rl_aql_dispatch_packet_t past = rl_test_dispatch(
      fill, rl_sim_fixture_fill_args(&f, out.address, 3.0f, 61), 64,
      faulted, true);
  rl_test_submit(&f, &past);
  assert_false(rl_test_wait(&f, faulted, RL_TEST_NEGATIVE_WAIT_NS));
  for (int tries = 0; tries < 10000 && !fault.faulted; ++tries) {
    vt(&f)->queue_fault(f.device, &f.queue, &fault);
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
  assert_true(fault.faulted);
  assert_int_equal(fault.address, out.address + 240);
  char expected[160];
  snprintf(expected, sizeof(expected),
           "is outside any live allocation: offset 240 of allocation 0x%llx "
           "(240 bytes), 4 bytes past its end",
           (unsigned long long)out.address);
  if (strstr(fault.message, expected) == NULL) {
    fail_msg("fault message '%s' lacks '%s'", fault.message, expected);
  }
  uint32_t untouched = 0;
  assert_null(vt(&f)->read(f.device, next.address, &untouched, 4));
  assert_int_equal(untouched, 0);
  rl_sim_fixture_teardown(&f);
}

static void test_fault_executor_refusal(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_device_allocation_t args = rl_sim_fixture_alloc(&f, 32);
  rl_aql_dispatch_packet_t p = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_scale"), args.address, 64, 0, false);
  rl_test_fault_case(&f, &p, "does not implement kernel vc_scale", 0);
  rl_sim_fixture_teardown(&f);
}

// A PM4-IB packet whose IB is not mapped: a VM fault on the IB fetch.
static void test_fault_pm4_ib_unmapped(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_aql_pm4_ib_packet_t p = {
      .header =
          rl_aql_header(RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC, 1,
                        RL_AQL_FENCE_SCOPE_SYSTEM, RL_AQL_FENCE_SCOPE_SYSTEM),
      .vendor_format = RL_AQL_VENDOR_FORMAT_PM4_IB,
      .ib_jump_cmd = {0xC0023F00u, 0x1000u, 0x9000u, 16u | (1u << 23)},
      .dw_cnt_remain = 0xA,
  };
  rl_test_fault_case(&f, &p,
                     "PM4 IB 0x900000001000 dword 0: VM fault: IB fetch of 64 "
                     "bytes at 0x900000001000",
                     0x900000001000ull);
  rl_sim_fixture_teardown(&f);
}

static void sim_queue_injected_hang_stalls_without_fault(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 256);
  uint64_t fill = rl_sim_fixture_kernel(&f, "vc_fill");
  uint64_t args = rl_sim_fixture_fill_args(&f, out.address, 1.0f, 64);
  uint64_t s0 = rl_sim_fixture_signal(&f, 1);
  uint64_t s1 = rl_sim_fixture_signal(&f, 1);
  rl_sim_inject_hang(f.device, &f.queue, 1);
  rl_aql_dispatch_packet_t p0 = rl_test_dispatch(fill, args, 64, s0, false);
  rl_aql_dispatch_packet_t p1 = rl_test_dispatch(fill, args, 64, s1, false);
  rl_test_publish(&f, &p0);
  rl_test_submit(&f, &p1);
  assert_true(rl_test_wait(&f, s0, RL_TEST_WAIT_NS));
  assert_false(rl_test_wait(&f, s1, RL_TEST_NEGATIVE_WAIT_NS));
  assert_false(vt(&f)->queue_idle(f.device, &f.queue));
  rl_device_fault_t fault;
  vt(&f)->queue_fault(f.device, &f.queue, &fault);
  assert_false(fault.faulted);  // A hang reports nothing.
  rl_sim_fixture_teardown(&f);  // Destroy still returns OK.
}

static void test_timestamps_ordered(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * 4096);
  uint64_t fill = rl_sim_fixture_kernel(&f, "vc_fill");
  uint64_t signal = rl_sim_fixture_signal(&f, 3);
  uint64_t before = vt(&f)->timestamp(f.device);
  for (int i = 0; i < 3; ++i) {
    uint64_t args = rl_sim_fixture_fill_args(&f, out.address, (float)i, 4096);
    rl_aql_dispatch_packet_t p =
        rl_test_dispatch(fill, args, 4096, signal, true);
    rl_test_submit(&f, &p);
  }
  assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
  uint64_t after = vt(&f)->timestamp(f.device);
  rl_sim_dispatch_record_t log[8];
  assert_int_equal(rl_sim_dispatch_log(f.device, log, 8), 3);
  for (int i = 0; i < 3; ++i) {
    assert_int_equal(log[i].packet_id, (uint64_t)i);
    assert_int_equal(log[i].queue_id, f.queue.id);
    assert_true(log[i].start_timestamp >= before);
    assert_true(log[i].end_timestamp >= log[i].start_timestamp);
    assert_true(log[i].end_timestamp <= after);
    if (i > 0) {
      assert_true(log[i].start_timestamp >= log[i - 1].end_timestamp);
      assert_int_equal(log[i].dispatch_index, log[i - 1].dispatch_index + 1);
    }
  }
  rl_sim_fixture_teardown(&f);
}

// Counts work-groups run through the test executor, so a test can see
// whether a command processor is still executing.
static atomic_uint_fast64_t rl_counting_workgroups;

static rl_status_t rl_counting_begin(void* self,
                                     const rl_sim_dispatch_t* dispatch,
                                     void** out_state) {
  return rl_test_executor.begin(self, dispatch, out_state);
}

static rl_status_t rl_counting_run(void* self, void* state, rl_sim_wg_t* wg) {
  atomic_fetch_add(&rl_counting_workgroups, 1);
  return rl_test_executor.run_workgroup(self, state, wg);
}

static void rl_counting_end(void* self, void* state) {
  rl_test_executor.end(self, state);
}

static const rl_sim_executor_t rl_counting_executor = {
    .name = "counting",
    .begin = rl_counting_begin,
    .run_workgroup = rl_counting_run,
    .end = rl_counting_end,
};

// Closing a device whose queue is still executing (nobody destroyed it, as
// after a quarantine) stops that queue's command processor at a work-group
// boundary and joins it before device memory is freed: the close returns
// promptly in the middle of a 2^24-item dispatch and no work-group runs
// afterwards. Without the stop, the CP keeps running kernels into freed
// memory (ASan: heap-use-after-free), its thread outlives the device (the
// thread count says so in any build) and LeakSanitizer reports the queue.
static void test_close_device_with_busy_queue(void** state) {
  (void)state;
  int threads_before = rl_test_thread_count();
  rl_sim_options_t options = {.executor = &rl_counting_executor};
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, &options, 16);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 256);
  uint64_t signal = rl_sim_fixture_signal(&f, 1);
  // 2^24 work-items in 2^18 work-groups; the kernel writes only 16 floats.
  rl_aql_dispatch_packet_t p = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_fill"),
      rl_sim_fixture_fill_args(&f, out.address, 1.0f, 16), 1u << 24, signal,
      true);
  atomic_store(&rl_counting_workgroups, 0);
  rl_test_submit(&f, &p);
  uint64_t deadline = rl_now_ns() + RL_TEST_WAIT_NS;
  while (atomic_load(&rl_counting_workgroups) == 0 &&
         rl_now_ns() < deadline) {
    sched_yield();
  }
  assert_true(atomic_load(&rl_counting_workgroups) > 0);
  assert_false(vt(&f)->queue_idle(f.device, &f.queue));
  uint64_t before = rl_now_ns();
  vt(&f)->destroy(f.device);  // the queue was never destroyed
  uint64_t close_ns = rl_now_ns() - before;
  uint64_t ran = atomic_load(&rl_counting_workgroups);
  assert_true(ran < (1u << 18));  // abandoned mid-dispatch
  assert_true(close_ns < 2000000000ull);
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  assert_int_equal(atomic_load(&rl_counting_workgroups), ran);
  assert_int_equal(rl_test_thread_count(), threads_before);
  rl_code_object_destroy(f.code);
  free(f.code_bytes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dispatch_completes_and_retires),
      cmocka_unit_test(test_doorbell_reaches_polling_napping_and_sleeping_cp),
      cmocka_unit_test(sim_queue_barrier_and_waits_for_every_dependency),
      cmocka_unit_test(sim_queue_barrier_or_completes_on_first_dependency),
      cmocka_unit_test(test_blocked_barrier_destroy_returns),
      cmocka_unit_test(test_ring_full_backpressure),
      cmocka_unit_test(sim_queue_invalid_packet_type_faults_naming_type),
      cmocka_unit_test(test_fault_reserved_bits),
      cmocka_unit_test(test_fault_unknown_kernel_object),
      cmocka_unit_test(test_fault_kernarg_outside_memory),
      cmocka_unit_test(test_fault_vm_fault_from_executor),
      cmocka_unit_test(test_vm_fault_names_buffer_and_offset),
      cmocka_unit_test(test_fault_executor_refusal),
      cmocka_unit_test(test_fault_pm4_ib_unmapped),
      cmocka_unit_test(sim_queue_injected_hang_stalls_without_fault),
      cmocka_unit_test(test_close_device_with_busy_queue),
      cmocka_unit_test(test_timestamps_ordered),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
