// tests/unit/sim/sim_test_util.c — see sim_test_util.h.
#include "tests/unit/sim/sim_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tests/support/test_support.h"

// The two kernels the test executor runs; the begin() state names one.
typedef enum rl_test_kernel_e {
  RL_TEST_FILL = 1,
  RL_TEST_COPY = 2
} rl_test_kernel_t;
static const int rl_test_kernel_ids[3] = {0, RL_TEST_FILL, RL_TEST_COPY};

static rl_status_t rl_test_begin(void* self, const rl_sim_dispatch_t* dispatch,
                                 void** out_state) {
  (void)self;
  const char* name = dispatch->kernel->name;
  if (strcmp(name, "vc_fill") == 0) {
    *out_state = (void*)&rl_test_kernel_ids[RL_TEST_FILL];
  } else if (strcmp(name, "vc_copy_u32") == 0) {
    *out_state = (void*)&rl_test_kernel_ids[RL_TEST_COPY];
  } else {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "test executor does not implement kernel %s", name);
  }
  return RL_OK;
}

// One work-item of vc_fill or vc_copy_u32 at global index |i|.
static rl_status_t rl_test_item(rl_sim_wg_t* wg, int kernel, uint32_t i) {
  uint64_t out = 0;
  uint32_t n = 0;
  if (kernel == RL_TEST_FILL) {
    float value = 0;
    RL_RETURN_IF_ERROR(rl_sim_wg_kernarg_u64(wg, 0, &out));
    RL_RETURN_IF_ERROR(rl_sim_wg_kernarg_f32(wg, 8, &value));
    RL_RETURN_IF_ERROR(rl_sim_wg_kernarg_u32(wg, 12, &n));
    if (i >= n) return RL_OK;
    return rl_sim_wg_store(wg, out + 4ull * i, &value, 4);
  }
  uint64_t in = 0;
  uint32_t word = 0;
  RL_RETURN_IF_ERROR(rl_sim_wg_kernarg_u64(wg, 0, &in));
  RL_RETURN_IF_ERROR(rl_sim_wg_kernarg_u64(wg, 8, &out));
  RL_RETURN_IF_ERROR(rl_sim_wg_kernarg_u32(wg, 16, &n));
  if (i >= n) return RL_OK;
  RL_RETURN_IF_ERROR(rl_sim_wg_load(wg, in + 4ull * i, &word, 4));
  return rl_sim_wg_store(wg, out + 4ull * i, &word, 4);
}

static rl_status_t rl_test_run_workgroup(void* self, void* state,
                                         rl_sim_wg_t* wg) {
  (void)self;
  int kernel = *(const int*)state;
  uint32_t base = wg->group_id[0] * wg->dispatch->workgroup_size[0];
  for (uint32_t x = 0; x < wg->size[0]; ++x) {
    RL_RETURN_IF_ERROR(rl_test_item(wg, kernel, base + x));
  }
  return RL_OK;
}

static void rl_test_end(void* self, void* state) {
  (void)self;
  (void)state;
}

const rl_sim_executor_t rl_test_executor = {
    .name = "test",
    .self = NULL,
    .begin = rl_test_begin,
    .run_workgroup = rl_test_run_workgroup,
    .end = rl_test_end,
};


static void rl_test_ok(rl_status_t status) {
  if (status != RL_OK) fail_msg("%s", rl_status_message(status));
}

void rl_sim_fixture_setup(rl_sim_fixture_t* fixture,
                          const rl_sim_options_t* options,
                          uint32_t packet_count) {
  rl_sim_fixture_setup_code(fixture, options, packet_count,
                            RL_KERNELS_DIR "/vecchain-gfx1100.co");
}

void rl_sim_fixture_setup_code(rl_sim_fixture_t* fixture,
                               const rl_sim_options_t* options,
                               uint32_t packet_count, const char* path) {
  memset(fixture, 0, sizeof(*fixture));
  rl_sim_options_t copy = options ? *options : (rl_sim_options_t){0};
  if (copy.executor == NULL) copy.executor = &rl_test_executor;
  rl_test_ok(rl_sim_device_create(&copy, &fixture->device));
  rl_test_ok(fixture->device->vtable->queue_create(
      fixture->device, packet_count, &fixture->queue));
  fixture->code_bytes = rl_test_read_file(path, &fixture->code_size);
  rl_test_ok(rl_code_object_parse(fixture->code_bytes, fixture->code_size,
                                  &fixture->code));
  rl_test_ok(fixture->device->vtable->load_code_object(
      fixture->device, fixture->code_bytes, fixture->code_size, fixture->code,
      &fixture->loaded));
}

void rl_sim_fixture_teardown(rl_sim_fixture_t* fixture) {
  const rl_device_vtable_t* vt = fixture->device->vtable;
  rl_test_ok(vt->queue_destroy(fixture->device, &fixture->queue));
  rl_test_ok(vt->unload_code_object(fixture->device, &fixture->loaded));
  vt->destroy(fixture->device);
  rl_code_object_destroy(fixture->code);
  free(fixture->code_bytes);
  memset(fixture, 0, sizeof(*fixture));
}

uint64_t rl_sim_fixture_kernel(rl_sim_fixture_t* fixture, const char* name) {
  const rl_code_object_kernel_t* kernel =
      rl_code_object_find_kernel(fixture->code, name);
  assert_non_null(kernel);
  return fixture->loaded.load_base + kernel->descriptor_address;
}

rl_device_allocation_t rl_sim_fixture_alloc(rl_sim_fixture_t* fixture,
                                            uint64_t size) {
  rl_device_allocation_t allocation;
  rl_test_ok(fixture->device->vtable->allocate(
      fixture->device, size, 256, RL_MEMORY_KIND_DEVICE, &allocation));
  return allocation;
}

uint64_t rl_sim_fixture_signal(rl_sim_fixture_t* fixture, int64_t value) {
  rl_device_allocation_t signal;
  rl_test_ok(
      fixture->device->vtable->signal_create(fixture->device, value, &signal));
  return signal.address;
}

uint64_t rl_sim_fixture_fill_args(rl_sim_fixture_t* fixture, uint64_t out,
                                  float value, uint32_t n) {
  rl_device_allocation_t args = rl_sim_fixture_alloc(fixture, 16);
  memcpy((uint8_t*)args.host + 0, &out, 8);
  memcpy((uint8_t*)args.host + 8, &value, 4);
  memcpy((uint8_t*)args.host + 12, &n, 4);
  return args.address;
}

uint64_t rl_sim_fixture_copy_args(rl_sim_fixture_t* fixture, uint64_t in,
                                  uint64_t out, uint32_t n) {
  rl_device_allocation_t args = rl_sim_fixture_alloc(fixture, 20);
  memcpy((uint8_t*)args.host + 0, &in, 8);
  memcpy((uint8_t*)args.host + 8, &out, 8);
  memcpy((uint8_t*)args.host + 16, &n, 4);
  return args.address;
}

rl_aql_dispatch_packet_t rl_test_dispatch(uint64_t kernel_object,
                                          uint64_t kernarg, uint32_t items,
                                          uint64_t signal, bool barrier) {
  rl_aql_dispatch_packet_t packet = {
      .header =
          rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, barrier,
                        RL_AQL_FENCE_SCOPE_SYSTEM, RL_AQL_FENCE_SCOPE_SYSTEM),
      .setup = 1,
      .workgroup_size_x = 64,
      .workgroup_size_y = 1,
      .workgroup_size_z = 1,
      .grid_size_x = items,
      .grid_size_y = 1,
      .grid_size_z = 1,
      .kernel_object = kernel_object,
      .kernarg_address = kernarg,
      .completion_signal = signal,
  };
  return packet;
}

uint64_t rl_test_publish(rl_sim_fixture_t* fixture, const void* packet) {
  rl_device_queue_t* queue = &fixture->queue;
  _Atomic uint64_t* write = (_Atomic uint64_t*)queue->write_index;
  _Atomic uint64_t* read = (_Atomic uint64_t*)queue->read_index;
  uint64_t id = atomic_load_explicit(write, memory_order_relaxed);
  atomic_store_explicit(write, id + 1, memory_order_release);
  time_t start = time(NULL);
  while (id - atomic_load_explicit(read, memory_order_acquire) >=
         queue->packet_count) {
    assert_true(time(NULL) - start < 10);  // backpressure must resolve
    struct timespec pause = {0, 10000};
    nanosleep(&pause, NULL);
  }
  uint8_t* slot = (uint8_t*)queue->ring +
                  (id & (queue->packet_count - 1)) * RL_AQL_PACKET_SIZE;
  memcpy(slot + 4, (const uint8_t*)packet + 4, RL_AQL_PACKET_SIZE - 4);
  uint32_t word;
  memcpy(&word, packet, sizeof(word));
  atomic_store_explicit((_Atomic uint32_t*)slot, word, memory_order_release);
  return id;
}

uint64_t rl_test_submit(rl_sim_fixture_t* fixture, const void* packet) {
  uint64_t id = rl_test_publish(fixture, packet);
  fixture->device->vtable->queue_doorbell(fixture->device, &fixture->queue, id);
  return id;
}

bool rl_test_wait(rl_sim_fixture_t* fixture, uint64_t signal,
                  uint64_t timeout_ns) {
  int64_t value = 0;
  return fixture->device->vtable->signal_wait_lt(fixture->device, signal, 1,
                                                 timeout_ns, &value);
}
