// Integration tests of checked mode and the budgets (redline/limits.h)
// through the CLI in fresh processes, on capture files crafted here from
// an eager vecchain recording:
//   - a kernel reading (or writing) one u32 past a buffer: plain replay
//     exits 6 with a VM fault, and --checked exits 6 naming the buffer and
//     the offset (before no-access guards --checked read the red zone and
//     exited 0); the unmodified file passes --checked (the control);
//   - a small file declaring a large zstd buffer: inspect, replay and
//     shadow exit 3 with --max-decompressed below it, and read it above;
//   - a grid raised past 2^24 work-items: replay and shadow exit 4 before
//     anything runs, naming the launch and the limit;
//   - the budget options' usage errors (exit 2) and shadow --timeout-ms.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/support/test_support.h"

#include "redline/capture_file.h"
#include "tests/unit/redline/replay_test_helpers.h"
#include "base/clock.h"

#define RL_CAPTURE_POS 37
// vc_copy_u32(ids, io, 64): slot 0 reads ids, slot 1 writes io.
#define RL_TEST_COPY_LAUNCH 6u

static char rl_dir[256];

static int rl_run(const char* args) {
  return rl_test_run_cli(RL_REDLINE_BIN, rl_dir, NULL, args);
}

static bool rl_err_has(const char* needle) {
  return rl_test_file_has(rl_dir, "err.txt", needle);
}

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_dir, sizeof(rl_dir), "/tmp/rl_limits_cli.XXXXXX");
  assert_non_null(mkdtemp(rl_dir));
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[512];
  snprintf(command, sizeof(command), "rm -rf %s", rl_dir);
  assert_int_equal(system(command), 0);
  return 0;
}

static rl_capture_t* rl_record(void) {
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  rl_capture_t* capture = NULL;
  rl_test_record(device, RL_CAPTURE_POS, &capture, NULL);
  rl_device_close(device);
  return capture;
}

// Writes |capture| to DIR/|name| and returns the path in |out_path|.
static void rl_write(const rl_capture_t* capture, const char* name,
                     char* out_path, size_t path_size) {
  snprintf(out_path, path_size, "%s/%s", rl_dir, name);
  rl_status_t status = rl_capture_file_write(capture, out_path, NULL);
  if (status) fail_msg("write %s: %s", name, rl_status_message(status));
}

// Moves pointer slot |slot| of the copy launch 4 bytes into its buffer,
// in the model and in the kernarg bytes the file stores.
static void rl_shift_copy_slot(rl_capture_t* capture, uint32_t slot) {
  rl_capture_launch_t* launch = &capture->launches[RL_TEST_COPY_LAUNCH];
  rl_pointer_slot_t* target = &launch->slots[slot];
  target->offset += 4;
  uint64_t pointer = 0;
  memcpy(&pointer, launch->kernarg + target->kernarg_offset, 8);
  pointer += 4;
  memcpy(launch->kernarg + target->kernarg_offset, &pointer, 8);
}

//===----------------------------------------------------------------------===//
// Checked mode
//===----------------------------------------------------------------------===//

static void rl_checked_catches_both_directions(void** state) {
  (void)state;
  char clean[512], read_past[512], write_past[512], args[1200];
  rl_capture_t* capture = rl_record();
  rl_write(capture, "clean.rlc", clean, sizeof(clean));
  rl_shift_copy_slot(capture, 0);
  rl_write(capture, "read_past.rlc", read_past, sizeof(read_past));
  rl_capture_destroy(capture);
  capture = rl_record();
  rl_shift_copy_slot(capture, 1);
  rl_write(capture, "write_past.rlc", write_past, sizeof(write_past));
  rl_capture_destroy(capture);

  snprintf(args, sizeof(args), "replay %s --checked --repeat 2", clean);
  assert_int_equal(rl_run(args), 0);  // the control
  snprintf(args, sizeof(args), "replay %s", read_past);
  assert_int_equal(rl_run(args), 6);
  assert_true(rl_err_has("VM fault: read of 4 bytes"));
  snprintf(args, sizeof(args), "replay %s --checked", read_past);
  assert_int_equal(rl_run(args), 6);
  assert_true(rl_err_has("checked mode: a kernel read at offset 256 of "
                         "buffer 1 'ids' (256 bytes) runs past its end"));
  snprintf(args, sizeof(args), "replay %s --checked --route pm4", write_past);
  assert_int_equal(rl_run(args), 6);
  assert_true(rl_err_has("checked mode: a kernel write at offset 256 of "
                         "buffer 7 'io' (256 bytes) runs past its end"));
}

//===----------------------------------------------------------------------===//
// Budgets
//===----------------------------------------------------------------------===//

// Grows 'io' (last in capture address order) to 64 MiB of a 4 KiB-periodic
// pattern: a file of a few dozen KiB.
static void rl_write_large(char* out_path, size_t path_size) {
  rl_capture_t* capture = rl_record();
  uint32_t io = 0;
  assert_true(rl_capture_find_buffer(capture, "io", &io));
  const uint64_t size = 64ull << 20;
  uint8_t* contents = malloc(size);
  assert_non_null(contents);
  for (uint64_t i = 0; i < size; ++i) {
    contents[i] = i < 4096 ? (uint8_t)((i * 2654435761u) >> 13)
                           : contents[i - 4096];
  }
  free(capture->buffers[io].initial);
  capture->buffers[io].initial = contents;
  capture->buffers[io].size = size;
  rl_write(capture, "large.rlc", out_path, path_size);
  rl_capture_destroy(capture);
}

static void rl_decompression_budget_exits_3(void** state) {
  (void)state;
  char large[512], args[1200];
  rl_write_large(large, sizeof(large));
  static const char* const commands[] = {"inspect", "replay", "shadow"};
  for (size_t i = 0; i < 3; ++i) {
    snprintf(args, sizeof(args), "%s %s --max-decompressed 16M", commands[i],
             large);
    uint64_t start = rl_now_ns();
    assert_int_equal(rl_run(args), 3);
    assert_true(rl_now_ns() - start < 5000000000ull);
    assert_true(rl_err_has("capture buffer 7 'io': 67108864 bytes "
                           "decompressed bring the total to"));
    assert_true(rl_err_has("over the limit of 16777216 "
                           "(max_decompressed_bytes, --max-decompressed)"));
  }
  snprintf(args, sizeof(args), "inspect %s --max-decompressed 128M", large);
  assert_int_equal(rl_run(args), 0);
}

// Under --max-work-items 16M (a budget for a capture from elsewhere; the
// default is the capture's largest launch, redline/limits.h) a grid
// enlarged past it is refused before anything runs.
static void rl_enlarged_grid_exits_4_before_running(void** state) {
  (void)state;
  char grid[512], args[1200];
  rl_capture_t* capture = rl_record();
  capture->launches[0].grid[0] = (1u << 18) + 1;  // 2^24 + 64 work-items
  rl_write(capture, "grid.rlc", grid, sizeof(grid));
  rl_capture_destroy(capture);
  static const char* const commands[] = {"replay", "shadow"};
  for (size_t i = 0; i < 2; ++i) {
    snprintf(args, sizeof(args), "%s %s --max-work-items 16M", commands[i],
             grid);
    uint64_t start = rl_now_ns();
    assert_int_equal(rl_run(args), 4);
    assert_true(rl_now_ns() - start < 5000000000ull);
    assert_true(rl_err_has("launch 0 (kernel vc_fill): 16777280 work-items "
                           "exceed the limit of 16777216 per dispatch"));
  }
}

static void rl_budget_options(void** state) {
  (void)state;
  char clean[512], args[1200];
  rl_capture_t* capture = rl_record();
  rl_write(capture, "options.rlc", clean, sizeof(clean));
  rl_capture_destroy(capture);
  snprintf(args, sizeof(args), "replay %s --max-work-items 0", clean);
  assert_int_equal(rl_run(args), 2);
  snprintf(args, sizeof(args), "shadow %s --max-dispatches x", clean);
  assert_int_equal(rl_run(args), 2);
  snprintf(args, sizeof(args), "replay %s --max-dispatches 7", clean);
  assert_int_equal(rl_run(args), 4);
  assert_true(rl_err_has("8 launches per step exceed the limit of 7"));
  snprintf(args, sizeof(args),
           "shadow %s --arms eager,aql --timeout-ms 5000 --max-device-memory "
           "1G --max-work-items 65536",
           clean);
  assert_int_equal(rl_run(args), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_checked_catches_both_directions),
      cmocka_unit_test(rl_decompression_budget_exits_3),
      cmocka_unit_test(rl_enlarged_grid_exits_4_before_running),
      cmocka_unit_test(rl_budget_options),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
