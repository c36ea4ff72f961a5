// The rocr device (redline/backends/rocr_device.h) in-process, on the ROCr
// stand-in: the device.h contract (address model, signals and their
// bounded waits, queues and the idle probe, code objects), eager runs and
// replays on both routes equal to the simulator's, the queue error
// callback, failures to open, and quarantine (nothing freed while a queue
// may still execute). The quarantine test runs last: it leaves its queue
// and runtime reference behind on purpose.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>
#include <dlfcn.h>
#include <hsa/hsa.h>

#include "redline/code_object.h"
#include "redline/device/device.h"
#include "tests/standins/hsa/standin_hsa_hooks.h"
#include "tests/unit/redline/replay_test_helpers.h"

static rl_device_t* rl_open_rocr(const char* processor) {
  rl_device_options_t options = {.kind = "rocr",
                                 .processor = processor,
                                 .library = RL_STANDIN_HSA_LIBRARY};
  rl_device_t* device = NULL;
  rl_status_t status = rl_device_open(&options, &device);
  if (status) fprintf(stderr, "%s\n", rl_status_message(status));
  assert_null(status);
  return device;
}

// The stand-in stays loaded for the whole test (the device's own dlopen
// and dlclose only change its reference count), so its record of misuse
// spans device opens; rl_standin_errors() reads and clears it.
static void* rl_standin_library;

static void* rl_standin_hook(const char* name) {
  void* symbol = dlsym(rl_standin_library, name);
  assert_non_null(symbol);
  return symbol;
}

static uint32_t rl_standin_errors(void) {
  rl_standin_hsa_error_count_fn count =
      (rl_standin_hsa_error_count_fn)rl_standin_hook(
          "rl_standin_hsa_error_count");
  rl_standin_hsa_error_fn error =
      (rl_standin_hsa_error_fn)rl_standin_hook("rl_standin_hsa_error");
  uint32_t total = count();
  for (uint32_t i = 0; i < total; ++i) {
    fprintf(stderr, "stand-in: %s\n", error(i));
  }
  ((rl_standin_hsa_clear_errors_fn)rl_standin_hook(
      "rl_standin_hsa_clear_errors"))();
  return total;
}

static double rl_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void rl_open_reports_agent(void** state) {
  (void)state;
  rl_device_t* device = rl_open_rocr(NULL);
  assert_string_equal(rl_device_kind(device), "rocr");
  assert_string_equal(rl_device_target(device), "amdgcn-amd-amdhsa--gfx1100");
  assert_int_equal(device->timestamp_frequency, 100000000ull);
  assert_int_equal(device->lds_limit, 65536);
  uint64_t before = device->vtable->timestamp(device);
  assert_true(device->vtable->timestamp(device) >= before);
  rl_device_close(device);
}

// Coarse memory has no host view and goes through hsa_memory_copy; the
// kernarg pool's host view is not its device address on the stand-in.
static void rl_memory_address_model(void** state) {
  (void)state;
  rl_device_t* device = rl_open_rocr("gfx1100");
  const rl_device_vtable_t* vt = device->vtable;
  rl_device_allocation_t coarse, fine, fixed;
  assert_null(vt->allocate(device, 1000, 256, RL_MEMORY_KIND_DEVICE, &coarse));
  assert_null(coarse.host);
  uint8_t bytes[1000], back[1000];
  for (int i = 0; i < 1000; ++i) bytes[i] = (uint8_t)(i * 7);
  assert_null(vt->write(device, coarse.address, bytes, sizeof(bytes)));
  assert_null(vt->read(device, coarse.address + 10, back, 990));
  assert_memory_equal(back, bytes + 10, 990);
  rl_test_expect(vt->read(device, coarse.address + 10, back, 1000),
                 RL_STATUS_INVALID_ARGUMENT, "not inside one live allocation");
  assert_null(vt->allocate(device, 64, 64, RL_MEMORY_KIND_KERNARG, &fine));
  assert_non_null(fine.host);
  assert_true((uint64_t)(uintptr_t)fine.host != fine.address);
  memcpy(fine.host, bytes, 64);
  assert_null(vt->read(device, fine.address, back, 64));
  assert_memory_equal(back, bytes, 64);
  rl_test_expect(vt->allocate_fixed(device, 0x900000000000ull, 64,
                                    RL_MEMORY_KIND_DEVICE, &fixed),
                 RL_STATUS_CONTRACT, "keep-address");
  rl_test_expect(vt->free(device, coarse.address + 8),
                 RL_STATUS_INVALID_ARGUMENT, "not the start");
  assert_null(vt->free(device, coarse.address));
  assert_null(vt->free(device, fine.address));
  rl_device_close(device);
  assert_int_equal(rl_standin_errors(), 0);
}

static void rl_signals_and_bounded_waits(void** state) {
  (void)state;
  rl_device_t* device = rl_open_rocr(NULL);
  const rl_device_vtable_t* vt = device->vtable;
  rl_device_allocation_t signal;
  assert_null(vt->signal_create(device, 5, &signal));
  assert_int_equal(vt->signal_load(device, signal.address), 5);
  vt->signal_store(device, signal.address, 0);
  int64_t value = 9;
  assert_true(vt->signal_wait_lt(device, signal.address, 1, 1000000, &value));
  assert_int_equal(value, 0);
  vt->signal_store(device, signal.address, 1);
  double start = rl_now();
  assert_false(vt->signal_wait_lt(device, signal.address, 1, 30000000, &value));
  double waited = rl_now() - start;
  assert_int_equal(value, 1);
  assert_true(waited >= 0.025 && waited < 1.0);  // 30 ms, in the right unit
  // The spinning wait (HSA_WAIT_STATE_ACTIVE): the same contract.
  assert_non_null(vt->signal_spin_lt);
  start = rl_now();
  assert_false(vt->signal_spin_lt(device, signal.address, 1, 30000000, &value));
  waited = rl_now() - start;
  assert_int_equal(value, 1);
  assert_true(waited >= 0.025 && waited < 1.0);
  vt->signal_store(device, signal.address, 0);
  assert_true(vt->signal_spin_lt(device, signal.address, 1, 1000000, &value));
  assert_int_equal(value, 0);
  assert_null(vt->signal_destroy(device, signal.address));
  // Not live: nothing, 0, false, and no call reaches the runtime.
  vt->signal_store(device, signal.address, 3);
  assert_int_equal(vt->signal_load(device, signal.address), 0);
  assert_false(vt->signal_wait_lt(device, signal.address, 1, 1000, &value));
  assert_false(vt->signal_spin_lt(device, signal.address, 1, 1000, &value));
  rl_test_expect(vt->signal_destroy(device, signal.address),
                 RL_STATUS_INVALID_ARGUMENT, "not live");
  rl_device_close(device);
  assert_int_equal(rl_standin_errors(), 0);
}

static void rl_queue_idle_probe_and_sizes(void** state) {
  (void)state;
  rl_device_t* device = rl_open_rocr(NULL);
  const rl_device_vtable_t* vt = device->vtable;
  rl_device_queue_t queue;
  rl_test_expect(vt->queue_create(device, 48, &queue),
                 RL_STATUS_INVALID_ARGUMENT, "power of two");
  assert_null(vt->queue_create(device, 256, &queue));
  assert_int_equal(queue.packet_count, 256);
  assert_true(vt->queue_idle(device, &queue));  // publishes a marker
  assert_true(vt->queue_idle(device, &queue));
  assert_int_equal(*queue.write_index, 2);
  assert_int_equal(*queue.read_index, 2);
  rl_device_fault_t fault;
  vt->queue_fault(device, &queue, &fault);
  assert_false(fault.faulted);
  assert_null(vt->queue_destroy(device, &queue));
  rl_device_close(device);
  assert_int_equal(rl_standin_errors(), 0);
}

// A barrier-AND whose dependent signal is not memory: the simulated CP
// faults, the stand-in calls the queue's error callback, queue_fault says
// so and the queue is not idle.
static void rl_queue_error_callback(void** state) {
  (void)state;
  rl_device_t* device = rl_open_rocr(NULL);
  const rl_device_vtable_t* vt = device->vtable;
  rl_device_queue_t queue;
  assert_null(vt->queue_create(device, 64, &queue));
  uint8_t* slot = queue.ring;
  hsa_barrier_and_packet_t packet;
  memset(&packet, 0, sizeof(packet));
  packet.dep_signal[0].handle = 0x10;
  memcpy(slot + 4, (uint8_t*)&packet + 4, 60);
  __atomic_store_n(queue.write_index, 1, __ATOMIC_RELEASE);
  __atomic_store_n((uint32_t*)slot,
                   HSA_PACKET_TYPE_BARRIER_AND |
                       (1u << HSA_PACKET_HEADER_BARRIER),
                   __ATOMIC_RELEASE);
  vt->queue_doorbell(device, &queue, 0);
  rl_device_fault_t fault = {0};
  for (int i = 0; i < 2000 && !fault.faulted; ++i) {
    vt->queue_fault(device, &queue, &fault);
    struct timespec step = {0, 1000000};
    if (!fault.faulted) nanosleep(&step, NULL);
  }
  assert_true(fault.faulted);
  assert_non_null(strstr(fault.message, "ROCr queue error callback: HSA_"));
  assert_false(vt->queue_idle(device, &queue));
  assert_null(vt->queue_destroy(device, &queue));
  rl_device_close(device);
  assert_int_equal(rl_standin_errors(), 0);
}

static void rl_code_object_for_another_processor(void** state) {
  (void)state;
  size_t size = 0;
  void* bytes = rl_test_read_file(RL_TEST_CODE_OBJECT, &size);
  rl_code_object_t* parsed = NULL;
  assert_null(rl_code_object_parse(bytes, size, &parsed));
  setenv("REDLINE_STANDIN_ISA", "amdgcn-amd-amdhsa--gfx1201", 1);
  rl_device_t* device = rl_open_rocr("gfx1201");
  unsetenv("REDLINE_STANDIN_ISA");
  rl_device_code_object_t code;
  rl_test_expect(device->vtable->load_code_object(device, bytes, size, parsed,
                                                  &code),
                 RL_STATUS_CONTRACT, "code object for gfx1100 on a gfx1201");
  rl_device_close(device);
  device = rl_open_rocr("gfx1100");
  assert_null(device->vtable->load_code_object(device, bytes, size, parsed,
                                               &code));
  // load_base is the kernel object minus the descriptor address.
  assert_int_not_equal(code.load_base, 0);
  assert_null(device->vtable->unload_code_object(device, &code));
  rl_test_expect(device->vtable->unload_code_object(device, &code),
                 RL_STATUS_INVALID_ARGUMENT, "not loaded");
  rl_device_close(device);
  rl_code_object_destroy(parsed);
  free(bytes);
}

static void rl_open_failures(void** state) {
  (void)state;
  rl_device_options_t options = {.kind = "rocr",
                                 .library = "/nonexistent/libhsa-runtime64.so.1"};
  rl_device_t* device = NULL;
  rl_test_expect(rl_device_open(&options, &device), RL_STATUS_UNAVAILABLE,
                 "/nonexistent/libhsa-runtime64.so.1: ");
  assert_null(device);
  options.library = RL_STANDIN_HSA_LIBRARY;
  options.processor = "gfx1151";
  rl_test_expect(rl_device_open(&options, &device), RL_STATUS_UNAVAILABLE,
                 "no GPU agent with ISA amdgcn-amd-amdhsa--gfx1151; found: "
                 "amdgcn-amd-amdhsa--gfx1100 (supported)");
  setenv("REDLINE_STANDIN_ISA", "amdgcn-amd-amdhsa--gfx90a", 1);
  options.processor = NULL;
  rl_test_expect(rl_device_open(&options, &device), RL_STATUS_UNAVAILABLE,
                 "ISA gfx90a not supported: redline targets gfx1100, "
                 "gfx1151, gfx1201");
  unsetenv("REDLINE_STANDIN_ISA");
  setenv("REDLINE_STANDIN_INIT_FAIL", "1", 1);
  rl_test_expect(rl_device_open(&options, &device), RL_STATUS_UNAVAILABLE,
                 "hsa_init: HSA_STATUS_ERROR_OUT_OF_RESOURCES");
  unsetenv("REDLINE_STANDIN_INIT_FAIL");
}

// Eager (funnel) on rocr == eager on sim; replays on rocr, both routes,
// at other positions == eager on sim.
static void rl_runs_equal_sim(void** state) {
  (void)state;
  rl_device_t* sim = rl_test_open_sim("gfx1100", false, 0);
  rl_device_t* rocr = rl_open_rocr(NULL);
  rl_capture_t* capture = NULL;
  rl_digest128_t on_sim[RL_TEST_MAX_REGIONS], on_rocr[RL_TEST_MAX_REGIONS];
  rl_test_record(sim, 37, &capture, on_sim);
  rl_capture_destroy(capture);
  rl_test_record(rocr, 37, &capture, on_rocr);
  assert_int_equal(rl_test_count_differences(capture, on_sim, on_rocr), 0);
  static const rl_route_t routes[] = {RL_ROUTE_AQL, RL_ROUTE_PM4};
  for (size_t r = 0; r < 2; ++r) {
    rl_replay_t* replay = NULL;
    assert_null(rl_replay_create(rocr, capture, NULL, &replay));
    assert_null(rl_replay_prepare(replay, routes[r]));
    for (int64_t pos = 1; pos < 400; pos += 133) {
      rl_capture_t* eager = NULL;
      rl_test_record(sim, pos, &eager, on_sim);
      rl_capture_destroy(eager);
      assert_null(rl_replay_run(replay, &pos, 1));
      rl_test_replay_digests(replay, capture, on_rocr);
      assert_int_equal(rl_test_count_differences(capture, on_sim, on_rocr), 0);
    }
    rl_replay_destroy(replay);
  }
  rl_capture_destroy(capture);
  rl_device_close(rocr);
  rl_device_close(sim);
  assert_int_equal(rl_standin_errors(), 0);
}

// A queue that never completes: the run is quarantined and nothing the
// queue references is freed, by the replay or by closing the device.
static void rl_quarantine_frees_nothing(void** state) {
  (void)state;
  rl_capture_t* capture = NULL;
  rl_test_record(NULL, 5, &capture, NULL);
  setenv("REDLINE_STANDIN_HANG_PACKET", "2", 1);
  rl_device_t* rocr = rl_open_rocr(NULL);
  rl_replay_options_t options = {.wait_timeout_ns = 50000000};
  rl_replay_t* replay = NULL;
  assert_null(rl_replay_create(rocr, capture, &options, &replay));
  assert_null(rl_replay_prepare(replay, RL_ROUTE_AQL));
  int64_t pos = 5;
  rl_test_expect(rl_replay_run(replay, &pos, 1), RL_STATUS_QUARANTINED,
                 "bounded wait");
  rl_replay_destroy(replay);
  rl_device_close(rocr);
  unsetenv("REDLINE_STANDIN_HANG_PACKET");
  rl_standin_hsa_frees_while_busy_fn busy_frees =
      (rl_standin_hsa_frees_while_busy_fn)rl_standin_hook(
          "rl_standin_hsa_frees_while_busy");
  assert_int_equal(busy_frees(), 0);
  assert_int_equal(rl_standin_errors(), 0);
  rl_capture_destroy(capture);
}

int main(void) {
  rl_standin_library = dlopen(RL_STANDIN_HSA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!rl_standin_library) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_open_reports_agent),
      cmocka_unit_test(rl_memory_address_model),
      cmocka_unit_test(rl_signals_and_bounded_waits),
      cmocka_unit_test(rl_queue_idle_probe_and_sizes),
      cmocka_unit_test(rl_queue_error_callback),
      cmocka_unit_test(rl_code_object_for_another_processor),
      cmocka_unit_test(rl_open_failures),
      cmocka_unit_test(rl_runs_equal_sim),
      cmocka_unit_test(rl_quarantine_frees_nothing),
  };
  int failures = cmocka_run_group_tests(tests, NULL, NULL);
  // Not dlclose()d: the quarantined queue's threads still run in it.
  return failures;
}
