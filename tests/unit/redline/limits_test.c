// Tests of the budgets for untrusted captures (redline/limits.h,
// capture/model/capture_limits.c) at every layer that enforces them: the capture
// reader's decompression budget (a small file declaring a large zstd
// buffer is refused before anything is decompressed), the replay
// contract's work, dispatch and device-memory budgets (a grid raised past
// 2^24 work-items is refused before anything runs), the simulator's own
// work cap (a queue fault before the executor begins) and the shadow run's
// budget over all its arms. Each refusal has a negative control that the
// same capture passes inside the limit.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "redline/capture_file.h"
#include "redline/limits.h"
#include "shadow/shadow.h"
#include "tests/unit/redline/replay_test_helpers.h"
#include "base/clock.h"

#define RL_TEST_POS 300
// Launch 0 is vc_fill over 16 groups of 64; launch 4 vc_partial_sum, its
// grid bound to ceil((pos + 1) / 64) groups of 64.
#define RL_TEST_FILL_LAUNCH 0u
#define RL_TEST_SUM_LAUNCH 4u

static rl_capture_t* rl_record(void) {
  rl_capture_t* capture = NULL;
  rl_test_record(NULL, RL_TEST_POS, &capture, NULL);
  return capture;
}

//===----------------------------------------------------------------------===//
// Defaults
//===----------------------------------------------------------------------===//

static void rl_defaults_fill_zero_fields(void** state) {
  (void)state;
  rl_limits_t limits = rl_limits_resolve(NULL);
  assert_int_equal(limits.max_decompressed_bytes,
                   RL_LIMIT_DEFAULT_DECOMPRESSED_BYTES);
  assert_int_equal(limits.max_device_bytes, RL_LIMIT_DEFAULT_DEVICE_BYTES);
  assert_int_equal(limits.max_work_items, 1ull << 24);
  assert_int_equal(limits.max_dispatches, RL_LIMIT_DEFAULT_DISPATCHES);
  assert_int_equal(limits.wait_timeout_ns, RL_LIMIT_DEFAULT_WAIT_TIMEOUT_NS);
  assert_int_equal(limits.max_windows, RL_LIMIT_DEFAULT_WINDOWS);
  assert_int_equal(limits.max_regions, RL_LIMIT_DEFAULT_REGIONS);
  assert_int_equal(limits.max_bindings, RL_LIMIT_DEFAULT_BINDINGS);
  const rl_limits_t custom = {.max_work_items = 7};
  limits = rl_limits_resolve(&custom);
  assert_int_equal(limits.max_work_items, 7);
  assert_int_equal(limits.max_dispatches, RL_LIMIT_DEFAULT_DISPATCHES);
}

//===----------------------------------------------------------------------===//
// The reader's decompression budget
//===----------------------------------------------------------------------===//

// Grows buffer 'io' (the last one in capture address order, so nothing
// overlaps it) to |size| bytes of a 4 KiB-periodic pattern: zstd stores it
// in a few KiB, well inside the per-buffer ratio limit.
static void rl_grow_io(rl_capture_t* capture, uint64_t size) {
  uint32_t x = 0;
  assert_true(rl_capture_find_buffer(capture, "io", &x));
  uint8_t* contents = malloc((size_t)size);
  assert_non_null(contents);
  uint64_t seed = 1;
  for (uint64_t i = 0; i < size; ++i) {
    if (i < 4096) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      contents[i] = (uint8_t)(seed >> 56);
    } else {
      contents[i] = contents[i - 4096];
    }
  }
  free(capture->buffers[x].initial);
  capture->buffers[x].initial = contents;
  capture->buffers[x].size = size;
}

static void rl_small_file_large_buffer_refused(void** state) {
  (void)state;
  rl_capture_t* capture = rl_record();
  rl_grow_io(capture, 64ull << 20);
  uint8_t* bytes = NULL;
  size_t size = 0;
  rl_status_t encoded = rl_capture_file_encode(capture, NULL, &bytes, &size);
  if (encoded) fail_msg("encode: %s", rl_status_message(encoded));
  assert_true(size < 256 * 1024);  // a small file declaring 64 MiB
  const rl_limits_t limits = {.max_decompressed_bytes = 16ull << 20};
  rl_capture_t* read = NULL;
  uint64_t start = rl_now_ns();
  rl_test_expect(
      rl_capture_file_read_memory_limited(bytes, size, &limits, &read, NULL),
      RL_STATUS_INVALID_INPUT,
      "capture buffer 7 'io': 67108864 bytes decompressed bring the total to "
      "67138052, over the limit of 16777216 (max_decompressed_bytes, "
      "--max-decompressed)");
  // Refused from the record headers: nothing was decompressed.
  assert_true(rl_now_ns() - start < 500000000ull);
  assert_null(read);
  // The negative control: inside the limit the same file reads back.
  const rl_limits_t roomy = {.max_decompressed_bytes = 128ull << 20};
  assert_null(
      rl_capture_file_read_memory_limited(bytes, size, &roomy, &read, NULL));
  assert_non_null(read);
  rl_capture_destroy(read);
  free(bytes);
  rl_capture_destroy(capture);
}

// A small file declaring 20,000,000 windows of stride 0 (shadow used to walk
// them for hours) is refused by the reader, naming the budget; the same
// walk asked of shadow in memory is refused before any arm exists. The
// negative controls: the file reads back with the budget raised, and a
// walk at the budget is not refused for its size.
static void rl_windows_over_budget_refused(void** state) {
  (void)state;
  rl_capture_t* capture = rl_record();
  assert_true(capture->window_count > 0);
  capture->windows[0].count = 20000000u;
  capture->windows[0].stride = 0;
  uint8_t* bytes = NULL;
  size_t size = 0;
  assert_null(rl_capture_file_encode(capture, NULL, &bytes, &size));
  rl_capture_t* read = NULL;
  rl_test_expect(rl_capture_file_read_memory(bytes, size, &read, NULL),
                 RL_STATUS_INVALID_INPUT,
                 "20000000 windows exceed the limit of 4096 (max_windows, "
                 "--max-windows)");
  assert_null(read);
  const rl_limits_t roomy = {.max_windows = UINT32_MAX};
  assert_null(
      rl_capture_file_read_memory_limited(bytes, size, &roomy, &read, NULL));
  rl_capture_destroy(read);
  free(bytes);
  rl_shadow_options_t options;
  memset(&options, 0, sizeof(options));
  assert_null(rl_shadow_arms_parse("eager,aql", options.arms,
                                   &options.arm_count));
  rl_shadow_result_t* result = NULL;
  uint64_t start = rl_now_ns();
  rl_test_expect(rl_shadow_run(capture, &options, &result),
                 RL_STATUS_INVALID_INPUT,
                 "20000000 windows exceed the limit of 4096");
  assert_true(rl_now_ns() - start < 1000000000ull);
  capture->windows[0].count = RL_LIMIT_DEFAULT_WINDOWS + 1;
  rl_test_expect(rl_shadow_run(capture, &options, &result),
                 RL_STATUS_INVALID_INPUT, "4097 windows exceed");
  // At the budget the size is not the refusal (the run proceeds to the
  // window's values: stride 0 keeps every value admitted).
  options.has_window = true;
  options.window = (rl_shadow_window_t){capture->windows[0].start, 2, 0};
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_true(result->pass);
  rl_shadow_result_destroy(result);
  rl_capture_destroy(capture);
}

// Regions and bindings per launch: the reader refuses a file over either
// budget naming it, and the replay contract refuses an in-memory capture
// the same way; the negative controls pass at the exact count.
static void rl_regions_and_bindings_over_budget_refused(void** state) {
  (void)state;
  rl_capture_t* capture = rl_record();
  uint8_t* bytes = NULL;
  size_t size = 0;
  assert_null(rl_capture_file_encode(capture, NULL, &bytes, &size));
  const uint32_t regions = capture->region_count;
  const uint32_t bindings = capture->launches[RL_TEST_SUM_LAUNCH].binding_count;
  assert_true(regions > 1 && bindings > 0);
  rl_capture_t* read = NULL;
  const rl_limits_t few_regions = {.max_regions = regions - 1};
  rl_test_expect(rl_capture_file_read_memory_limited(bytes, size, &few_regions,
                                                     &read, NULL),
                 RL_STATUS_INVALID_INPUT,
                 "regions exceed the limit of");
  const rl_limits_t few_bindings = {.max_bindings = bindings - 1};
  rl_test_expect(rl_capture_file_read_memory_limited(bytes, size, &few_bindings,
                                                     &read, NULL),
                 RL_STATUS_INVALID_INPUT,
                 "bindings exceed the limit of");
  const rl_limits_t exact = {.max_regions = regions, .max_bindings = 64};
  assert_null(
      rl_capture_file_read_memory_limited(bytes, size, &exact, &read, NULL));
  rl_capture_destroy(read);
  free(bytes);
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  rl_replay_options_t options = {.limits = few_regions};
  rl_replay_t* replay = NULL;
  assert_null(rl_replay_create(device, capture, &options, &replay));
  rl_test_expect(rl_replay_contract(replay), RL_STATUS_INVALID_INPUT,
                 "(max_regions, --max-regions)");
  rl_replay_destroy(replay);
  rl_capture_destroy(capture);
  rl_device_close(device);
}

//===----------------------------------------------------------------------===//
// The replay contract
//===----------------------------------------------------------------------===//

static rl_status_t rl_contract_with(rl_device_t* device,
                                    const rl_capture_t* capture,
                                    const rl_limits_t* limits) {
  rl_replay_options_t options = {.limits = *limits};
  rl_replay_t* replay = NULL;
  assert_null(rl_replay_create(device, capture, &options, &replay));
  rl_status_t status = rl_replay_contract(replay);
  rl_replay_destroy(replay);
  return status;
}

// The reproducer: a grid raised to 2^18 + 1 groups of 64 (2^24 + 64
// work-items) is refused under a budget of 2^24 by the contract before
// anything is allocated or executed.
static void rl_enlarged_grid_refused_before_running(void** state) {
  (void)state;
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  rl_capture_t* capture = rl_record();
  const rl_limits_t budget = {.max_work_items = RL_LIMIT_DEFAULT_WORK_ITEMS};
  assert_null(rl_contract_with(device, capture, &budget));
  capture->launches[RL_TEST_FILL_LAUNCH].grid[0] = (1u << 18) + 1;
  uint64_t start = rl_now_ns();
  rl_test_expect(rl_contract_with(device, capture, &budget),
                 RL_STATUS_CONTRACT,
                 "launch 0 (kernel vc_fill): 16777280 work-items exceed the "
                 "limit of 16777216 per dispatch (max_work_items, "
                 "--max-work-items)");
  assert_true(rl_now_ns() - start < 500000000ull);
  rl_capture_destroy(capture);
  rl_device_close(device);
}

// A grid bound to a parameter counts at its largest admitted value: pos
// < 4096 gives 64 groups of 64 although the capture ran 5.
static void rl_bound_grid_counts_at_largest_value(void** state) {
  (void)state;
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  rl_capture_t* capture = rl_record();
  assert_int_equal(capture->launches[RL_TEST_SUM_LAUNCH].grid[0], 5);
  const rl_limits_t tight = {.max_work_items = 4000};
  rl_test_expect(rl_contract_with(device, capture, &tight), RL_STATUS_CONTRACT,
                 "launch 4 (kernel vc_partial_sum): 4096 work-items exceed "
                 "the limit of 4000");
  const rl_limits_t enough = {.max_work_items = 4096};
  assert_null(rl_contract_with(device, capture, &enough));
  rl_capture_destroy(capture);
  rl_device_close(device);
}

static void rl_dispatches_and_memory_refused(void** state) {
  (void)state;
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  rl_capture_t* capture = rl_record();
  const rl_limits_t seven = {.max_dispatches = 7};
  rl_test_expect(rl_contract_with(device, capture, &seven), RL_STATUS_CONTRACT,
                 "8 launches per step exceed the limit of 7 "
                 "(max_dispatches, --max-dispatches)");
  const rl_limits_t eight = {.max_dispatches = 8};
  assert_null(rl_contract_with(device, capture, &eight));
  uint64_t needed = rl_limits_capture_device_bytes(capture, 0);
  const rl_limits_t small = {.max_device_bytes = needed - 1};
  rl_test_expect(rl_contract_with(device, capture, &small),
                 RL_STATUS_CONTRACT, "bytes of device memory, over the limit");
  const rl_limits_t exact = {.max_device_bytes = needed};
  assert_null(rl_contract_with(device, capture, &exact));
  rl_capture_destroy(capture);
  rl_device_close(device);
}

// Out of the device's address space at prepare (the budget turned off, a
// 32 TiB buffer on the simulator's 16 TiB range) is out of memory, exit 8
// as everywhere, not a prepare failure (5). The negative control: the same
// capture at its own size prepares.
static void rl_prepare_out_of_address_space_is_out_of_memory(void** state) {
  (void)state;
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  rl_capture_t* capture = rl_record();
  uint32_t io = 0;
  assert_true(rl_capture_find_buffer(capture, "io", &io));
  const rl_replay_options_t options = {
      .limits = {.max_device_bytes = UINT64_MAX}};
  rl_replay_t* replay = NULL;
  assert_null(rl_replay_create(device, capture, &options, &replay));
  assert_null(rl_replay_prepare(replay, RL_ROUTE_AQL));
  rl_replay_destroy(replay);
  free(capture->buffers[io].initial);
  capture->buffers[io].initial = NULL;
  capture->buffers[io].size = 1ull << 45;
  assert_null(rl_replay_create(device, capture, &options, &replay));
  rl_test_expect(rl_replay_prepare(replay, RL_ROUTE_AQL),
                 RL_STATUS_OUT_OF_MEMORY, "address space exhausted");
  rl_replay_destroy(replay);
  rl_capture_destroy(capture);
  rl_device_close(device);
}

//===----------------------------------------------------------------------===//
// The simulator's work cap
//===----------------------------------------------------------------------===//

static rl_status_t rl_run_on(const rl_device_options_t* device_options,
                             rl_route_t route) {
  rl_device_t* device = NULL;
  assert_null(rl_device_open(device_options, &device));
  rl_capture_t* capture = rl_record();
  rl_replay_t* replay = NULL;
  assert_null(rl_replay_create(device, capture, NULL, &replay));
  assert_null(rl_replay_prepare(replay, route));
  int64_t pos = RL_TEST_POS;
  rl_status_t status = rl_replay_run(replay, &pos, 1);
  rl_replay_destroy(replay);
  rl_capture_destroy(capture);
  rl_device_close(device);
  return status;
}

// The simulator refuses a dispatch over its cap before the executor begins
// (a queue fault the run reports), whatever the replay's contract allowed.
static void rl_sim_refuses_work_over_cap(void** state) {
  (void)state;
  const rl_device_options_t capped = {.max_work_items = 512};
  rl_test_expect(rl_run_on(&capped, RL_ROUTE_AQL), RL_STATUS_POISONED,
                 "kernel vc_fill: 1024 work-items exceed the work cap of 512");
  const rl_device_options_t enough = {.max_work_items = 1024};
  assert_null(rl_run_on(&enough, RL_ROUTE_AQL));
}

// On route pm4 the whole step is one PM4-IB packet: its eight dispatches
// against a cap of four.
static void rl_sim_refuses_dispatches_over_cap(void** state) {
  (void)state;
  const rl_device_options_t capped = {.max_dispatches = 4};
  rl_test_expect(rl_run_on(&capped, RL_ROUTE_PM4), RL_STATUS_POISONED,
                 "more than 4 dispatches in one PM4-IB packet");
  const rl_device_options_t enough = {.max_dispatches = 8};
  assert_null(rl_run_on(&enough, RL_ROUTE_PM4));
}

//===----------------------------------------------------------------------===//
// Shadow
//===----------------------------------------------------------------------===//

static rl_status_t rl_shadow_arms_with(const rl_capture_t* capture,
                                       const char* arms,
                                       const rl_limits_t* limits) {
  rl_shadow_options_t options;
  memset(&options, 0, sizeof(options));
  assert_null(rl_shadow_arms_parse(arms, options.arms, &options.arm_count));
  options.limits = *limits;
  rl_shadow_result_t* result = NULL;
  rl_status_t status = rl_shadow_run(capture, &options, &result);
  if (!status) {
    if (!result->pass) {
      char* summary = rl_shadow_report_summary(result);
      fail_msg("%s", summary ? summary : "(no summary)");
    }
    rl_shadow_result_destroy(result);
  }
  return status;
}

static rl_status_t rl_shadow_with(const rl_capture_t* capture,
                                  const rl_limits_t* limits) {
  return rl_shadow_arms_with(capture, "eager,aql", limits);
}

// The default launches-per-step budget of a capture is its own launch
// count when that is larger (redline/limits.h: a file holds no more
// launches than its bytes can, which the reader checks): a step of 65,544
// one-work-group launches passes a shadow with default limits (one window;
// the eager and aql arms: these launches wait for each other, and route
// pm4's one IB holds about 58,000 such, docs/failure-semantics.md
// "Budgets"); a budget the caller sets still refuses it.
static void rl_default_dispatch_budget_is_the_captures_own(void** state) {
  (void)state;
  rl_capture_t big = {.launch_count = 70000};
  assert_int_equal(rl_limits_for_capture(NULL, &big).max_dispatches, 70000);
  const rl_limits_t seven = {.max_dispatches = 7};
  assert_int_equal(rl_limits_for_capture(&seven, &big).max_dispatches, 7);
  assert_int_equal(rl_limits_for_capture(NULL, NULL).max_dispatches,
                   RL_LIMIT_DEFAULT_DISPATCHES);
  rl_capture_t* capture = rl_record();
  assert_int_equal(rl_limits_for_capture(NULL, capture).max_dispatches,
                   RL_LIMIT_DEFAULT_DISPATCHES);
  capture->launches[RL_TEST_FILL_LAUNCH].grid[0] = 1;
  const rl_capture_launch_t fill = capture->launches[RL_TEST_FILL_LAUNCH];
  uint32_t index = 0;
  while (capture->launch_count < RL_LIMIT_DEFAULT_DISPATCHES + 8) {
    assert_null(rl_capture_add_launch(capture, &fill, &index));
  }
  assert_true(capture->window_count >= 1);
  capture->windows[0].count = 1;
  const rl_limits_t defaults = {0};
  assert_null(rl_shadow_arms_with(capture, "eager,aql", &defaults));
  const rl_limits_t chosen = {.max_dispatches = RL_LIMIT_DEFAULT_DISPATCHES};
  rl_test_expect(rl_shadow_arms_with(capture, "eager,aql", &chosen),
                 RL_STATUS_CONTRACT,
                 "65544 launches per step exceed the limit of 65536");
  rl_capture_destroy(capture);
}

// Shadow's device budget covers every arm: two arms need twice the bytes.
static void rl_shadow_budget_counts_every_arm(void** state) {
  (void)state;
  rl_capture_t* capture = rl_record();
  uint64_t per_arm = rl_limits_capture_device_bytes(capture, 0);
  const rl_limits_t one_arm = {.max_device_bytes = per_arm};
  rl_test_expect(rl_shadow_with(capture, &one_arm), RL_STATUS_CONTRACT,
                 "shadow of 2 arms");
  const rl_limits_t two_arms = {.max_device_bytes = 2 * per_arm,
                                .wait_timeout_ns = 5000000000ull};
  assert_null(rl_shadow_with(capture, &two_arms));
  capture->launches[RL_TEST_FILL_LAUNCH].grid[0] = (1u << 18) + 1;
  const rl_limits_t budget = {.max_work_items = RL_LIMIT_DEFAULT_WORK_ITEMS};
  rl_test_expect(rl_shadow_with(capture, &budget), RL_STATUS_CONTRACT,
                 "16777280 work-items exceed the limit of 16777216");
  rl_capture_destroy(capture);
}

// The default work-item budget of a capture is its largest recorded
// launch when that is over 2^24 (redline/limits.h: a program the user ran
// replays at its own size), and the contract admits such a launch; a
// budget the caller sets still refuses it. A grid bound to a parameter
// whose admitted range goes past both is still refused by default: the
// budget covers what was recorded, not what a parameter could ask.
static void rl_default_work_budget_is_the_largest_launch(void** state) {
  (void)state;
  rl_capture_t* capture = rl_record();
  assert_int_equal(rl_limits_for_capture(NULL, capture).max_work_items,
                   RL_LIMIT_DEFAULT_WORK_ITEMS);
  capture->launches[RL_TEST_FILL_LAUNCH].grid[0] = (1u << 18) + 1;
  assert_int_equal(rl_limits_for_capture(NULL, capture).max_work_items,
                   16777280ull);
  const rl_limits_t budget = {.max_work_items = RL_LIMIT_DEFAULT_WORK_ITEMS};
  assert_int_equal(rl_limits_for_capture(&budget, capture).max_work_items,
                   RL_LIMIT_DEFAULT_WORK_ITEMS);
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  const rl_limits_t defaults = {0};
  assert_null(rl_contract_with(device, capture, &defaults));
  rl_test_expect(rl_contract_with(device, capture, &budget),
                 RL_STATUS_CONTRACT,
                 "16777280 work-items exceed the limit of 16777216");
  rl_device_close(device);
  // vc_partial_sum's grid is ceil((pos + 1) / 64) groups: 5 recorded, 64
  // at the largest admitted pos. Blocks of 2^19 make that 2,621,440
  // recorded work-items and 33,554,432 admitted.
  capture->launches[RL_TEST_FILL_LAUNCH].grid[0] = 16;
  capture->launches[RL_TEST_SUM_LAUNCH].block[0] = 1u << 19;
  assert_int_equal(rl_limits_for_capture(NULL, capture).max_work_items,
                   RL_LIMIT_DEFAULT_WORK_ITEMS);
  rl_test_expect(rl_limits_check_capture(capture, NULL, 0), RL_STATUS_CONTRACT,
                 "launch 4 (kernel vc_partial_sum): 33554432 work-items "
                 "exceed the limit of 16777216");
  rl_capture_destroy(capture);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_defaults_fill_zero_fields),
      cmocka_unit_test(rl_small_file_large_buffer_refused),
      cmocka_unit_test(rl_windows_over_budget_refused),
      cmocka_unit_test(rl_regions_and_bindings_over_budget_refused),
      cmocka_unit_test(rl_enlarged_grid_refused_before_running),
      cmocka_unit_test(rl_bound_grid_counts_at_largest_value),
      cmocka_unit_test(rl_dispatches_and_memory_refused),
      cmocka_unit_test(rl_prepare_out_of_address_space_is_out_of_memory),
      cmocka_unit_test(rl_sim_refuses_work_over_cap),
      cmocka_unit_test(rl_sim_refuses_dispatches_over_cap),
      cmocka_unit_test(rl_shadow_budget_counts_every_arm),
      cmocka_unit_test(rl_default_dispatch_budget_is_the_captures_own),
      cmocka_unit_test(rl_default_work_budget_is_the_largest_launch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
