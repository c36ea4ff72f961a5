// The ROCr stand-in's own checks (tests/standins/hsa/standin_hsa_hooks.h):
// each misuse it must detect is committed on purpose and must be recorded,
// and a correct publication (the negative control) records nothing. The
// stand-in is loaded through redline's own hsa_loader.h, exactly as the
// rocr device loads it.
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <dlfcn.h>

#include "redline/backends/hsa_loader.h"
#include "tests/standins/hsa/standin_hsa_hooks.h"

typedef struct rl_standin_test_s {
  rl_hsa_api_t api;
  rl_standin_hsa_error_count_fn error_count;
  rl_standin_hsa_error_fn error;
  rl_standin_hsa_clear_errors_fn clear_errors;
  rl_standin_hsa_frees_while_busy_fn frees_while_busy;
  hsa_agent_t gpu;
  hsa_agent_t cpu;
  hsa_queue_t* queue;
  atomic_int callbacks;
} rl_standin_test_t;

static rl_standin_test_t rl_t;

static hsa_status_t rl_pick_agent(hsa_agent_t agent, void* data) {
  (void)data;
  hsa_device_type_t type;
  assert_int_equal(rl_t.api.fn.hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE,
                                                  &type),
                   HSA_STATUS_SUCCESS);
  if (type == HSA_DEVICE_TYPE_GPU) rl_t.gpu = agent;
  if (type == HSA_DEVICE_TYPE_CPU) rl_t.cpu = agent;
  return HSA_STATUS_SUCCESS;
}

static void rl_queue_error(hsa_status_t status, hsa_queue_t* queue,
                           void* data) {
  (void)status;
  (void)queue;
  (void)data;
  atomic_fetch_add(&rl_t.callbacks, 1);
}

static void* rl_hook(const char* name) {
  void* symbol = dlsym(rl_t.api.library.handle, name);
  assert_non_null(symbol);
  return symbol;
}

static int rl_setup(void** state) {
  (void)state;
  memset(&rl_t, 0, sizeof(rl_t));
  rl_status_t status = rl_hsa_api_open(&rl_t.api, RL_STANDIN_HSA_LIBRARY);
  if (status) fprintf(stderr, "%s\n", rl_status_message(status));
  assert_null(status);
  rl_t.error_count = (rl_standin_hsa_error_count_fn)rl_hook(
      "rl_standin_hsa_error_count");
  rl_t.error = (rl_standin_hsa_error_fn)rl_hook("rl_standin_hsa_error");
  rl_t.clear_errors = (rl_standin_hsa_clear_errors_fn)rl_hook(
      "rl_standin_hsa_clear_errors");
  rl_t.frees_while_busy = (rl_standin_hsa_frees_while_busy_fn)rl_hook(
      "rl_standin_hsa_frees_while_busy");
  assert_int_equal(rl_t.api.fn.hsa_init(), HSA_STATUS_SUCCESS);
  assert_int_equal(rl_t.api.fn.hsa_iterate_agents(rl_pick_agent, NULL),
                   HSA_STATUS_SUCCESS);
  assert_int_not_equal(rl_t.gpu.handle, 0);
  assert_int_equal(rl_t.api.fn.hsa_queue_create(
                       rl_t.gpu, 64, HSA_QUEUE_TYPE_SINGLE, rl_queue_error,
                       NULL, UINT32_MAX, UINT32_MAX, &rl_t.queue),
                   HSA_STATUS_SUCCESS);
  rl_t.clear_errors();
  return 0;
}

// Ends each test with the queue destroyed and the runtime shut down (the
// stand-in frees everything; LeakSanitizer checks that).
static int rl_teardown(void** state) {
  (void)state;
  if (rl_t.queue) {
    assert_int_equal(rl_t.api.fn.hsa_queue_destroy(rl_t.queue),
                     HSA_STATUS_SUCCESS);
  }
  assert_int_equal(rl_t.api.fn.hsa_shut_down(), HSA_STATUS_SUCCESS);
  rl_hsa_api_close(&rl_t.api);
  return 0;
}

static uint8_t* rl_slot(uint64_t id) {
  return (uint8_t*)rl_t.queue->base_address +
         (id & (rl_t.queue->size - 1)) * 64;
}

static const uint32_t rl_barrier_header =
    HSA_PACKET_TYPE_BARRIER_AND | (1u << HSA_PACKET_HEADER_BARRIER) |
    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);

// Writes bytes 4..63 of a barrier-AND completing |signal| into slot |id|.
static void rl_write_barrier_body(uint64_t id, hsa_signal_t signal) {
  hsa_barrier_and_packet_t packet;
  memset(&packet, 0, sizeof(packet));
  packet.completion_signal = signal;
  memcpy(rl_slot(id) + 4, (uint8_t*)&packet + 4, 60);
}

static void rl_publish_header(uint64_t id, uint32_t header) {
  __atomic_store_n((uint32_t*)rl_slot(id), header, __ATOMIC_RELEASE);
}

static hsa_signal_t rl_signal(int64_t value) {
  hsa_signal_t signal = {0};
  assert_int_equal(rl_t.api.fn.hsa_signal_create(value, 0, NULL, &signal),
                   HSA_STATUS_SUCCESS);
  return signal;
}

// 1 s in ticks of the system timestamp.
static uint64_t rl_one_second(void) {
  uint64_t hz = 0;
  rl_t.api.fn.hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &hz);
  return hz;
}

static bool rl_error_contains(const char* needle) {
  for (uint32_t i = 0; i < rl_t.error_count(); ++i) {
    if (strstr(rl_t.error(i), needle)) return true;
  }
  for (uint32_t i = 0; i < rl_t.error_count(); ++i) {
    fprintf(stderr, "recorded: %s\n", rl_t.error(i));
  }
  return false;
}

// Publishes |rounds| correct barrier packets one at a time, waiting for
// each (the real protocol).
static void rl_run_barriers(int rounds) {
  hsa_signal_t signal = rl_signal(1);
  for (int round = 0; round < rounds; ++round) {
    rl_t.api.fn.hsa_signal_store_screlease(signal, 1);
    uint64_t id = rl_t.api.fn.hsa_queue_add_write_index_screlease(rl_t.queue, 1);
    rl_write_barrier_body(id, signal);
    rl_publish_header(id, rl_barrier_header);
    rl_t.api.fn.hsa_signal_store_screlease(rl_t.queue->doorbell_signal,
                                           (hsa_signal_value_t)id);
    assert_int_equal(rl_t.api.fn.hsa_signal_wait_scacquire(
                         signal, HSA_SIGNAL_CONDITION_LT, 1, rl_one_second(),
                         HSA_WAIT_STATE_BLOCKED),
                     0);
  }
  assert_int_equal(rl_t.api.fn.hsa_signal_destroy(signal), HSA_STATUS_SUCCESS);
}

// Negative control: the real protocol records nothing and completes, also
// after the ring wraps (slots are re-poisoned and reused).
static void rl_correct_publication_is_clean(void** state) {
  (void)state;
  rl_run_barriers(130);
  assert_int_equal(rl_t.error_count(), 0);
  assert_int_equal(atomic_load(&rl_t.callbacks), 0);
}

static void rl_doorbell_not_last_id(void** state) {
  (void)state;
  hsa_signal_t signal = rl_signal(2);
  uint64_t id = rl_t.api.fn.hsa_queue_add_write_index_screlease(rl_t.queue, 2);
  for (uint64_t i = id; i < id + 2; ++i) {
    rl_write_barrier_body(i, signal);
    rl_publish_header(i, rl_barrier_header);
  }
  rl_t.api.fn.hsa_signal_store_screlease(rl_t.queue->doorbell_signal,
                                         (hsa_signal_value_t)id);
  assert_true(rl_error_contains("doorbell rung with 0, but the last reserved "
                                "packet id is 1"));
  rl_t.api.fn.hsa_signal_store_screlease(rl_t.queue->doorbell_signal,
                                         (hsa_signal_value_t)id + 1);
  rl_t.api.fn.hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_LT, 1,
                                        rl_one_second(),
                                        HSA_WAIT_STATE_BLOCKED);
  rl_t.api.fn.hsa_signal_destroy(signal);
}

// The header published with no body: the poison is still in the slot, and
// the simulated CP faults on it, which the error callback reports.
static void rl_header_before_body(void** state) {
  (void)state;
  rl_run_barriers(70);  // the slot used next held a consumed packet
  assert_int_equal(rl_t.error_count(), 0);
  uint64_t id = rl_t.api.fn.hsa_queue_add_write_index_screlease(rl_t.queue, 1);
  rl_publish_header(id, rl_barrier_header);
  rl_t.api.fn.hsa_signal_store_screlease(rl_t.queue->doorbell_signal,
                                         (hsa_signal_value_t)id);
  assert_true(rl_error_contains("published with unwritten bytes at offset 4"));
  const struct timespec step = {0, 1000000};
  for (int i = 0; i < 1000 && atomic_load(&rl_t.callbacks) == 0; ++i) {
    nanosleep(&step, NULL);
  }
  assert_int_equal(atomic_load(&rl_t.callbacks), 1);
}

static void rl_doorbell_over_invalid_header(void** state) {
  (void)state;
  hsa_signal_t signal = rl_signal(1);
  uint64_t id = rl_t.api.fn.hsa_queue_add_write_index_screlease(rl_t.queue, 1);
  rl_write_barrier_body(id, signal);
  rl_t.api.fn.hsa_signal_store_screlease(rl_t.queue->doorbell_signal,
                                         (hsa_signal_value_t)id);
  assert_true(rl_error_contains("whose header is still INVALID"));
  rl_t.api.fn.hsa_signal_destroy(signal);
}

static void rl_signal_misuse(void** state) {
  (void)state;
  hsa_signal_t signal = rl_signal(1);
  assert_int_equal(rl_t.api.fn.hsa_signal_destroy(signal), HSA_STATUS_SUCCESS);
  assert_int_equal(rl_t.api.fn.hsa_signal_wait_scacquire(
                       signal, HSA_SIGNAL_CONDITION_LT, 1, 1,
                       HSA_WAIT_STATE_BLOCKED), 0);
  assert_true(rl_error_contains("wait_scacquire on signal"));
  rl_t.api.fn.hsa_signal_store_screlease(signal, 3);
  assert_int_equal(rl_t.api.fn.hsa_signal_destroy(signal),
                   HSA_STATUS_ERROR_INVALID_SIGNAL);
  assert_int_equal(rl_t.error_count(), 3);
}

// A bounded wait lasts what the timeout says, in timestamp ticks.
static void rl_wait_timeout_is_in_ticks(void** state) {
  (void)state;
  hsa_signal_t signal = rl_signal(1);
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  assert_int_equal(rl_t.api.fn.hsa_signal_wait_scacquire(
                       signal, HSA_SIGNAL_CONDITION_LT, 1,
                       rl_one_second() / 50, HSA_WAIT_STATE_BLOCKED), 1);
  clock_gettime(CLOCK_MONOTONIC, &end);
  double seconds = (double)(end.tv_sec - start.tv_sec) +
                   (double)(end.tv_nsec - start.tv_nsec) * 1e-9;
  assert_true(seconds >= 0.015 && seconds < 0.5);
  rl_t.api.fn.hsa_signal_destroy(signal);
}

static hsa_status_t rl_kernarg_pool(hsa_amd_memory_pool_t pool, void* data) {
  uint32_t flags = 0;
  rl_t.api.fn.hsa_amd_memory_pool_get_info(
      pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) {
    *(hsa_amd_memory_pool_t*)data = pool;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static void* rl_kernarg_allocation(void) {
  hsa_amd_memory_pool_t pool = {0};
  rl_t.api.fn.hsa_amd_agent_iterate_memory_pools(rl_t.cpu, rl_kernarg_pool,
                                                 &pool);
  assert_int_not_equal(pool.handle, 0);
  void* pointer = NULL;
  assert_int_equal(rl_t.api.fn.hsa_amd_memory_pool_allocate(pool, 256, 0,
                                                            &pointer),
                   HSA_STATUS_SUCCESS);
  return pointer;
}

static void rl_kernarg_without_access(void** state) {
  (void)state;
  void* kernarg = rl_kernarg_allocation();
  hsa_kernel_dispatch_packet_t packet;
  memset(&packet, 0, sizeof(packet));
  packet.setup = 1;
  packet.workgroup_size_x = packet.workgroup_size_y = 1;
  packet.workgroup_size_z = packet.grid_size_y = packet.grid_size_z = 1;
  packet.grid_size_x = 1;
  packet.kernel_object = 0x1234;  // not a kernel: the CP faults after
  packet.kernarg_address = kernarg;
  uint64_t id = rl_t.api.fn.hsa_queue_add_write_index_screlease(rl_t.queue, 1);
  memcpy(rl_slot(id) + 4, (uint8_t*)&packet + 4, 60);
  rl_publish_header(id, HSA_PACKET_TYPE_KERNEL_DISPATCH | (1u << 16));
  rl_t.api.fn.hsa_signal_store_screlease(rl_t.queue->doorbell_signal,
                                         (hsa_signal_value_t)id);
  assert_true(rl_error_contains("was not given access"));
  rl_t.api.fn.hsa_amd_memory_pool_free(kernarg);
}

// Negative control for "nothing freed while quarantined": freeing memory
// while a hung queue holds packets is counted.
static void rl_free_while_busy_is_counted(void** state) {
  (void)state;
  assert_int_equal(rl_t.api.fn.hsa_queue_destroy(rl_t.queue),
                   HSA_STATUS_SUCCESS);
  setenv("REDLINE_STANDIN_HANG_PACKET", "0", 1);
  assert_int_equal(rl_t.api.fn.hsa_queue_create(
                       rl_t.gpu, 64, HSA_QUEUE_TYPE_SINGLE, rl_queue_error,
                       NULL, UINT32_MAX, UINT32_MAX, &rl_t.queue),
                   HSA_STATUS_SUCCESS);
  unsetenv("REDLINE_STANDIN_HANG_PACKET");
  void* memory = rl_kernarg_allocation();
  hsa_signal_t signal = rl_signal(1);
  uint64_t id = rl_t.api.fn.hsa_queue_add_write_index_screlease(rl_t.queue, 1);
  rl_write_barrier_body(id, signal);
  rl_publish_header(id, rl_barrier_header);
  rl_t.api.fn.hsa_signal_store_screlease(rl_t.queue->doorbell_signal,
                                         (hsa_signal_value_t)id);
  assert_int_equal(rl_t.api.fn.hsa_signal_wait_scacquire(
                       signal, HSA_SIGNAL_CONDITION_LT, 1,
                       rl_one_second() / 100, HSA_WAIT_STATE_BLOCKED), 1);
  assert_int_equal(rl_t.api.fn.hsa_amd_memory_pool_free(memory),
                   HSA_STATUS_SUCCESS);
  assert_int_equal(rl_t.frees_while_busy(), 1);
  assert_true(rl_error_contains("freed while a queue has packets in flight"));
}

// Negative control for the teardown checks of the shadow on rocr
// (tests/integration/shadow_device_test.sh): memory still allocated at the
// last hsa_shut_down is counted, and nothing when all was freed.
static void rl_live_at_shutdown_is_counted(void** state) {
  (void)state;
  rl_standin_hsa_live_at_shutdown_fn live =
      (rl_standin_hsa_live_at_shutdown_fn)rl_hook(
          "rl_standin_hsa_live_at_shutdown");
  assert_int_equal(rl_t.api.fn.hsa_queue_destroy(rl_t.queue),
                   HSA_STATUS_SUCCESS);
  rl_t.queue = NULL;
  (void)rl_kernarg_allocation();  // never freed: hsa_shut_down frees it
  assert_int_equal(rl_t.api.fn.hsa_shut_down(), HSA_STATUS_SUCCESS);
  assert_int_equal(live(), 1);
  assert_int_equal(rl_t.api.fn.hsa_init(), HSA_STATUS_SUCCESS);
  rl_t.api.fn.hsa_amd_memory_pool_free(rl_kernarg_allocation());
  assert_int_equal(rl_t.api.fn.hsa_shut_down(), HSA_STATUS_SUCCESS);
  assert_int_equal(live(), 0);
  assert_int_equal(rl_t.api.fn.hsa_init(), HSA_STATUS_SUCCESS);  // teardown
}

static void rl_fault_injection(void** state) {
  (void)state;
  hsa_queue_t* queue = NULL;
  setenv("REDLINE_STANDIN_QUEUE_CREATE_FAIL", "1", 1);
  assert_int_equal(rl_t.api.fn.hsa_queue_create(
                       rl_t.gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL,
                       UINT32_MAX, UINT32_MAX, &queue),
                   HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  unsetenv("REDLINE_STANDIN_QUEUE_CREATE_FAIL");
  setenv("REDLINE_STANDIN_INIT_FAIL", "1", 1);
  assert_int_equal(rl_t.api.fn.hsa_init(), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  unsetenv("REDLINE_STANDIN_INIT_FAIL");
  assert_int_equal(rl_t.error_count(), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(rl_correct_publication_is_clean,
                                      rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_doorbell_not_last_id, rl_setup,
                                      rl_teardown),
      cmocka_unit_test_setup_teardown(rl_header_before_body, rl_setup,
                                      rl_teardown),
      cmocka_unit_test_setup_teardown(rl_doorbell_over_invalid_header,
                                      rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_signal_misuse, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_wait_timeout_is_in_ticks, rl_setup,
                                      rl_teardown),
      cmocka_unit_test_setup_teardown(rl_kernarg_without_access, rl_setup,
                                      rl_teardown),
      cmocka_unit_test_setup_teardown(rl_free_while_busy_is_counted, rl_setup,
                                      rl_teardown),
      cmocka_unit_test_setup_teardown(rl_live_at_shutdown_is_counted,
                                      rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_fault_injection, rl_setup,
                                      rl_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
