// CLI tests of number parsing and exit codes (docs/cli.md "Exit codes"):
// every reproducer of the numbers and exit-code issue, run through the
// `redline` binary in a fresh process, must exit with its documented code
// and say so on stderr, naming the option or the path exactly once. Captures
// that no workload records (a grid that does not fit AQL, a parameter range
// that drives a binding negative, a buffer no host can hold) are made here
// by editing a real capture and writing it back with fresh checksums.
// Every case runs under `timeout`, so a regression that blocks (a FIFO
// opened for reading) fails instead of hanging CI.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cmocka.h>

#include "redline/capture_file.h"
#include "tests/support/test_support.h"

static char rl_dir[256];
static char rl_redline[512];

// Runs `redline ARGS` (at most 60 s) with stdout/stderr in files.
static int rl_run(const char* format, ...) {
  char args[2048];
  va_list list;
  va_start(list, format);
  vsnprintf(args, sizeof(args), format, list);
  va_end(list);
  return rl_test_run_cli(rl_redline, rl_dir, NULL, args);
}

// Asserts the exit code of the last run and that stderr contains |needle|.
static void rl_expect(int code, int expected, const char* needle) {
  if (code != expected) {
    char* err = rl_test_slurp(rl_dir, "err.txt", NULL);
    fprintf(stderr, "exit %d, expected %d; stderr:\n%s\n", code, expected, err);
    free(err);
  }
  assert_int_equal(code, expected);
  if (!rl_test_file_has(rl_dir, "err.txt", needle)) {
    char* err = rl_test_slurp(rl_dir, "err.txt", NULL);
    fprintf(stderr, "stderr lacks '%s':\n%s\n", needle, err);
    free(err);
    fail();
  }
}

// The number of times |needle| occurs in the last run's stderr.
static int rl_stderr_count(const char* needle) {
  char* err = rl_test_slurp(rl_dir, "err.txt", NULL);
  int count = 0;
  for (const char* at = strstr(err, needle); at; at = strstr(at + 1, needle)) {
    ++count;
  }
  free(err);
  return count;
}

static void rl_path(const char* name, char* out, size_t size) {
  snprintf(out, size, "%s/%s", rl_dir, name);
}

// Reads v.rlc, lets |edit| change it and writes it as |name|.
static void rl_craft(const char* name, void (*edit)(rl_capture_t*)) {
  char path[512];
  rl_path("v.rlc", path, sizeof(path));
  rl_capture_t* capture = NULL;
  assert_null(rl_capture_file_read(path, &capture, NULL));
  edit(capture);
  rl_path(name, path, sizeof(path));
  rl_capture_write_options_t options = {.omit_contents = true};
  rl_status_t status = rl_capture_file_write(capture, path, &options);
  if (status) fprintf(stderr, "%s\n", rl_status_message(status));
  assert_null(status);
  rl_capture_destroy(capture);
}

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_dir, sizeof(rl_dir), "/tmp/rl_cli_exit.XXXXXX");
  assert_non_null(mkdtemp(rl_dir));
  snprintf(rl_redline, sizeof(rl_redline),
           "REDLINE_KERNELS_DIR=%s timeout -s KILL 60 %s", RL_KERNELS_DIR,
           RL_REDLINE_BIN);
  assert_int_equal(
      rl_run("capture --workload vecchain --param pos=5 -o %s/v.rlc", rl_dir),
      0);
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[512];
  snprintf(command, sizeof(command), "rm -rf %s", rl_dir);
  return system(command) == 0 ? 0 : -1;
}

//===----------------------------------------------------------------------===//
// Numbers
//===----------------------------------------------------------------------===//

// `--layers 010` is ten layers (13 launches each, plus 4), not octal eight.
static void test_leading_zero_is_decimal(void** state) {
  (void)state;
  rl_expect(rl_run("capture --workload decode --device none --layers 010 "
                   "-o %s/l.rlc", rl_dir),
            0, "(134 launches)");
  // pos=08 was an octal error; it is eight.
  rl_expect(rl_run("capture --workload vecchain --param pos=08 -o %s/p.rlc",
                   rl_dir),
            0, "captured vecchain");
  rl_expect(rl_run("inspect %s/p.rlc --json", rl_dir), 0, "");
  assert_true(rl_test_file_has(rl_dir, "out.txt", "\"capture_value\":\t8"));
}

static void test_whitespace_and_signs_refused(void** state) {
  (void)state;
  // " -1" used to skip the negative check and run 2^64-1 times.
  rl_expect(rl_run("replay %s/v.rlc --repeat ' -1'", rl_dir), 2,
            "replay: --repeat: ' -1' is not a non-negative decimal");
  rl_expect(rl_run("replay %s/v.rlc --repeat +1", rl_dir), 2,
            "--repeat: '+1'");
  rl_expect(rl_run("replay %s/v.rlc --repeat '1 '", rl_dir), 2,
            "--repeat: '1 '");
  rl_expect(rl_run("replay %s/v.rlc --repeat ''", rl_dir), 2, "--repeat: ''");
  rl_expect(rl_run("replay %s/v.rlc --repeat 0", rl_dir), 2,
            "--repeat: '0' is outside [1, 4294967295]");
  rl_expect(rl_run("replay %s/v.rlc --seed 18446744073709551616", rl_dir), 2,
            "--seed: '18446744073709551616' does not fit 64 bits");
  rl_expect(rl_run("capture --workload vecchain --param 'pos= 5' -o %s/x.rlc",
                   rl_dir),
            2, "--param pos: ' 5'");
  rl_expect(rl_run("replay %s/v.rlc --param 'pos=5 '", rl_dir), 2,
            "--param pos: '5 '");
  rl_expect(rl_run("bench %s/v.rlc --rounds 0x", rl_dir), 2,
            "bench: --rounds: '0x'");
  rl_expect(rl_run("demo --layers -1", rl_dir), 2, "demo: --layers: '-1'");
  // Sizes: run's --device-memory, before the program starts; the accepted
  // size runs it (true: exit 0, it never loads the runtime).
  rl_expect(rl_run("run --device-memory 0 -- true"), 2,
            "run: --device-memory: '0' is not a positive size");
  rl_expect(rl_run("run --device-memory 16T -- true"), 2,
            "run: --device-memory: '16T' is not a positive size");
  rl_expect(rl_run("run --device-memory 16G -- true"), 0, "");
  rl_expect(rl_run("shadow %s/v.rlc --bind y=-4", rl_dir), 2,
            "shadow: --bind: '-4'");
  // Negative control: the same options with valid values are accepted.
  rl_expect(rl_run("replay %s/v.rlc --repeat 0x2 --seed 010 --param pos=0x10",
                   rl_dir),
            0, "");
}

// 18446744073709552 ms is 2^64 ns + 384 us: it wrapped to a 384 us wait.
static void test_timeout_overflow_refused(void** state) {
  (void)state;
  rl_expect(rl_run("replay %s/v.rlc --timeout-ms 18446744073709552", rl_dir), 2,
            "--timeout-ms: '18446744073709552' is outside [1, "
            "18446744073709]");
  rl_expect(rl_run("replay %s/v.rlc --timeout-ms 18446744073709", rl_dir), 0,
            "");
}

// 1 + 1 x (2^63 - 1) overflows int64 (UBSan in rl_shadow_window_value).
static void test_window_overflow_refused(void** state) {
  (void)state;
  rl_expect(rl_run("shadow %s/v.rlc --windows 1:2:9223372036854775807", rl_dir),
            2, "--windows '1:2:9223372036854775807': START + (COUNT - 1) x "
               "STRIDE does not fit 64 bits");
  rl_expect(rl_run("bench %s/v.rlc --windows 1:0", rl_dir), 2,
            "COUNT: '0' is outside [1, 4294967295]");
  rl_expect(rl_run("shadow %s/v.rlc --windows 1:2:0x10 --arms eager,aql",
                   rl_dir),
            0, "");
}

//===----------------------------------------------------------------------===//
// Exit codes
//===----------------------------------------------------------------------===//

static void test_unknown_processor_is_usage(void** state) {
  (void)state;
  const char* expected = "expects gfx1100, gfx1151 or gfx1201, got 'gfx9999'";
  rl_expect(rl_run("replay %s/v.rlc --processor gfx9999", rl_dir), 2, expected);
  rl_expect(rl_run("shadow %s/v.rlc --processor gfx9999", rl_dir), 2, expected);
  rl_expect(rl_run("bench %s/v.rlc --processor gfx9999", rl_dir), 2, expected);
  rl_expect(rl_run("demo --processor gfx9999"), 2, expected);
  rl_expect(rl_run("lower %s/v.rlc --target gfx9999", rl_dir), 2, expected);
  rl_expect(rl_run("capture --workload vecchain --target gfx9999 -o %s/x.rlc",
                   rl_dir),
            2, expected);
  rl_expect(rl_run("disasm --pm4 %s/v.rlc --target gfx9999", rl_dir), 2,
            "disasm: --target: processor 'gfx9999'");
  // Every command takes --processor, and --target as its alias (docs/cli.md,
  // "Options shared by commands"); an error names the spelling given.
  rl_expect(rl_run("lower %s/v.rlc --processor gfx9999", rl_dir), 2, expected);
  rl_expect(rl_run("capture --workload vecchain --processor gfx9999 -o "
                   "%s/x.rlc", rl_dir),
            2, "capture: --processor expects gfx1100");
  rl_expect(rl_run("disasm --pm4 %s/v.rlc --processor gfx9999", rl_dir), 2,
            "disasm: --processor: processor 'gfx9999'");
  rl_expect(rl_run("replay %s/v.rlc --target gfx9999", rl_dir), 2,
            "replay: --target expects");
  rl_expect(rl_run("shadow %s/v.rlc --target gfx9999", rl_dir), 2, expected);
  rl_expect(rl_run("bench %s/v.rlc --target gfx9999", rl_dir), 2, expected);
  rl_expect(rl_run("demo --target gfx9999"), 2, expected);
  rl_expect(rl_run("run --target gfx9999 -- /bin/true"), 2, expected);
  // Negative control: a known processor passes parsing, in both spellings.
  rl_expect(rl_run("lower %s/v.rlc --target gfx1100 --stats", rl_dir), 0, "");
  rl_expect(rl_run("lower %s/v.rlc --processor gfx1100 --stats", rl_dir), 0,
            "");
  rl_expect(rl_run("capture --workload vecchain --processor gfx1151 -o "
                   "%s/p.rlc", rl_dir),
            0, "");
}

static void rl_edit_grid(rl_capture_t* capture) {
  // 2^26 work-groups of 64 work-items: 2^32 work-items do not fit AQL's
  // 32-bit grid size.
  capture->launches[0].grid[0] = 1u << 26;
}

static void test_grid_that_does_not_fit_aql_is_contract(void** state) {
  (void)state;
  rl_craft("grid.rlc", rl_edit_grid);
  // A work budget of 16M refuses it first (the contract, before anything
  // runs); by default (the capture's largest launch, redline/limits.h) or
  // raised out of the way, the AQL limit does: exit 4 either way, in
  // replay and in shadow alike.
  rl_expect(rl_run("replay %s/grid.rlc --max-work-items 16M", rl_dir), 4,
            "work-items exceed the limit of 16777216 per dispatch");
  rl_expect(rl_run("shadow %s/grid.rlc --arms eager,aql --max-work-items 16M",
                   rl_dir),
            4, "work-items exceed the limit");
  rl_expect(rl_run("replay %s/grid.rlc", rl_dir), 4,
            "67108864 work-groups of 64");
  rl_expect(rl_run("replay %s/grid.rlc --max-work-items 0x4000000000", rl_dir),
            4, "67108864 work-groups of 64");
  rl_expect(rl_run("shadow %s/grid.rlc --arms eager,aql "
                   "--max-work-items 0x4000000000",
                   rl_dir),
            4, "shadow: FAIL (arm eager: window 0 (pos=1): launch 0 (vc_fill)");
  rl_expect(rl_run("shadow %s/grid.rlc --arms aql --max-work-items "
                   "0x4000000000",
                   rl_dir),
            4, "67108864 work-groups of 64");
}

static void rl_edit_range(rl_capture_t* capture) {
  // pos + 1 (the partial sums' context length) is negative at pos = -100.
  capture->params[0].min = -100;
  capture->windows[0].start = 1;
}

static void test_binding_driven_negative_is_contract(void** state) {
  (void)state;
  rl_craft("range.rlc", rl_edit_range);
  rl_expect(rl_run("replay %s/range.rlc", rl_dir), 4, "pos=-100");
  assert_int_equal(rl_stderr_count("INVALID_INPUT"), 0);
  rl_expect(rl_run("shadow %s/range.rlc --arms eager,aql", rl_dir), 4,
            "pos=-100");
}

static void rl_edit_huge(rl_capture_t* capture) {
  // A buffer no host can allocate (2^60 bytes, no contents in the file):
  // the one at the highest capture address, so it overlaps no other.
  uint32_t last = 0;
  for (uint32_t b = 1; b < capture->buffer_count; ++b) {
    if (capture->buffers[b].capture_address >
        capture->buffers[last].capture_address) {
      last = b;
    }
  }
  capture->buffers[last].size = 1ull << 60;
}

static void test_out_of_memory_has_a_message(void** state) {
  (void)state;
  rl_craft("huge.rlc", rl_edit_huge);
  // Exit 8 (out of memory) used to come with nothing on stderr.
  // The device-memory budget refuses it first (exit 4); raised out of the
  // way, the allocation itself fails.
  rl_expect(rl_run("shadow %s/huge.rlc --arms eager", rl_dir), 4,
            "device memory");
  rl_expect(rl_run("shadow %s/huge.rlc --arms eager --no-second-executor "
                   "--max-device-memory "
                   "0x2000000000000000",
                   rl_dir),
            8, "shadow: FAIL (arm eager: not available: allocating buffer");
  assert_int_equal(rl_stderr_count("huge.rlc"), 1);
}

static void test_fifo_refused_without_blocking(void** state) {
  (void)state;
  char fifo[512];
  rl_path("input.fifo", fifo, sizeof(fifo));
  assert_int_equal(mkfifo(fifo, 0600), 0);
  static const char* const commands[] = {"inspect", "replay", "shadow",
                                         "bench",   "lower",  "kernels"};
  for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); ++i) {
    rl_expect(rl_run("%s %s", commands[i], fifo), 3,
              "input.fifo is not a regular file (a FIFO)");
    assert_int_equal(rl_stderr_count("input.fifo"), 1);
  }
  rl_expect(rl_run("disasm --pm4 %s", fifo), 3, "not a regular file");
  rl_expect(rl_run("inspect %s", rl_dir), 3, "is not a regular file (a directory)");
}

static void test_errors_name_the_path_once(void** state) {
  (void)state;
  static const char* const commands[] = {"inspect", "replay", "shadow",
                                         "bench",   "lower",  "kernels"};
  char junk[512];
  rl_path("junk.rlc", junk, sizeof(junk));
  FILE* file = fopen(junk, "wb");
  assert_non_null(file);
  fputs("not a capture", file);
  fclose(file);
  for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); ++i) {
    rl_expect(rl_run("%s %s/missing.rlc", commands[i], rl_dir), 3,
              "missing.rlc: No such file or directory");
    assert_int_equal(rl_stderr_count("missing.rlc"), 1);
    rl_expect(rl_run("%s %s", commands[i], junk), 3, "junk.rlc");
    assert_int_equal(rl_stderr_count("junk.rlc"), 1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_leading_zero_is_decimal),
      cmocka_unit_test(test_whitespace_and_signs_refused),
      cmocka_unit_test(test_timeout_overflow_refused),
      cmocka_unit_test(test_window_overflow_refused),
      cmocka_unit_test(test_unknown_processor_is_usage),
      cmocka_unit_test(test_grid_that_does_not_fit_aql_is_contract),
      cmocka_unit_test(test_binding_driven_negative_is_contract),
      cmocka_unit_test(test_out_of_memory_has_a_message),
      cmocka_unit_test(test_fifo_refused_without_blocking),
      cmocka_unit_test(test_errors_name_the_path_once),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
