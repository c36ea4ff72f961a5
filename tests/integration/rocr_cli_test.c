// `redline doctor` and `redline replay --device rocr` in fresh processes,
// against the ROCr stand-in (REDLINE_HSA_LIBRARY) and without it: exit
// codes and messages, and replays whose region digests equal the sim
// device's byte for byte on both routes, for vecchain and the decode step.
// Every stand-in run writes its misuse record (REDLINE_STANDIN_REPORT),
// which must be empty.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "redline/capture_file.h"
#include "tests/support/test_support.h"

static char rl_dir[256];

// Runs `env -u REDLINE_HSA_LIBRARY [ENV] redline ARGS` with stdout and
// stderr in files; returns the exit code (-1 if it did not exit).
static int rl_run(const char* env, const char* args) {
  char full[2048];
  snprintf(full, sizeof(full),
           "env -u REDLINE_HSA_LIBRARY -u REDLINE_STANDIN_ISA %s",
           env ? env : "");
  return rl_test_run_cli(RL_REDLINE_BIN, rl_dir, full, args);
}

// Runs with the stand-in selected and its report in report.txt.
static int rl_run_standin(const char* env, const char* args) {
  char full[1024];
  snprintf(full, sizeof(full),
           "REDLINE_HSA_LIBRARY=%s REDLINE_STANDIN_REPORT=%s/report.txt %s",
           RL_STANDIN_HSA_LIBRARY, rl_dir, env ? env : "");
  return rl_run(full, args);
}

static bool rl_has(const char* name, const char* needle) {
  return rl_test_file_has(rl_dir, name, needle);
}

// The "region NAME HEX" lines of out.txt, concatenated.
static char* rl_regions(void) {
  return rl_test_lines_with_prefix(rl_dir, "out.txt", "region ");
}

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_dir, sizeof(rl_dir), "/tmp/rl_rocr_cli.XXXXXX");
  assert_non_null(mkdtemp(rl_dir));
  char args[512];
  snprintf(args, sizeof(args), "capture --workload vecchain -o %s/vc.rlc",
           rl_dir);
  assert_int_equal(rl_run(NULL, args), 0);
  snprintf(args, sizeof(args), "capture --workload decode -o %s/dec.rlc",
           rl_dir);
  assert_int_equal(rl_run(NULL, args), 0);
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[512];
  snprintf(command, sizeof(command), "rm -rf %s", rl_dir);
  assert_int_equal(system(command), 0);
  return 0;
}

static void rl_doctor_without_hardware(void** state) {
  (void)state;
  assert_int_equal(rl_run(NULL, "doctor"), 8);
  assert_true(rl_has("out.txt", "sim   gfx1100, gfx1151, gfx1201    "
                                "available, routes aql pm4 (simulated)"));
  assert_true(rl_has("out.txt", "rocr  -"));
  assert_true(rl_has("out.txt", "hardware: no usable hardware device"));
  assert_int_equal(rl_run(NULL, "doctor --json"), 8);
  assert_true(rl_has("out.txt", "\"hardware\":\tfalse"));
  // A library that is not there: every path tried, with the reason.
  assert_int_equal(
      rl_run("REDLINE_HSA_LIBRARY=/nonexistent/libhsa-runtime64.so.1",
             "doctor"), 8);
  assert_true(rl_has("out.txt", "tried: /nonexistent/libhsa-runtime64.so.1: "
                                "/nonexistent/libhsa-runtime64.so.1: cannot "
                                "open shared object file"));
}

static void rl_doctor_with_standin(void** state) {
  (void)state;
  assert_int_equal(rl_run_standin(NULL, "doctor"), 0);
  assert_true(rl_has("out.txt", "gpu gfx1100 (redline-standin) isa "
                                "amdgcn-amd-amdhsa--gfx1100"));
  assert_true(rl_has("out.txt", "rocr  amdgcn-amd-amdhsa--gfx1100   "
                                "available, routes aql pm4"));
  assert_true(rl_has("out.txt", "libhsa-runtime64  loaded " RL_STANDIN_HSA_LIBRARY
                                " (HSA 1.1)"));
  assert_true(rl_has("report.txt", "errors 0\n"));
  assert_int_equal(
      rl_run_standin("REDLINE_STANDIN_ISA=amdgcn-amd-amdhsa--gfx90a", "doctor"),
      8);
  assert_true(rl_has("out.txt", "ISA gfx90a not supported: redline targets "
                                "gfx1100, gfx1151, gfx1201"));
}

// |capture| on sim and on rocr through |route|: identical regions.
static void rl_expect_same_regions(const char* capture, const char* route,
                                   const char* extra) {
  char args[1024];
  snprintf(args, sizeof(args), "replay %s/%s --route %s %s", rl_dir, capture,
           route, extra);
  assert_int_equal(rl_run(NULL, args), 0);
  char* on_sim = rl_regions();
  snprintf(args, sizeof(args), "replay %s/%s --route %s --device rocr %s",
           rl_dir, capture, route, extra);
  assert_int_equal(rl_run_standin(NULL, args), 0);
  char line[128];
  snprintf(line, sizeof(line), "proof device=rocr target=amdgcn-amd-amdhsa--"
           "gfx1100 route=%s state=replaying", route);
  assert_true(rl_has("out.txt", line));
  char* on_rocr = rl_regions();
  assert_true(on_sim[0] != '\0');
  assert_string_equal(on_sim, on_rocr);
  assert_true(rl_has("report.txt", "errors 0\nfrees_while_busy 0\n"));
  free(on_sim);
  free(on_rocr);
}

static void rl_replays_equal_sim(void** state) {
  (void)state;
  rl_expect_same_regions("vc.rlc", "aql", "--repeat 3 --param pos=1500");
  rl_expect_same_regions("vc.rlc", "pm4", "--repeat 3 --param pos=77");
  rl_expect_same_regions("dec.rlc", "aql", "");
  rl_expect_same_regions("dec.rlc", "pm4", "--checked");
}

// An eager capture on the rocr device replays to the same regions as the
// sim capture.
static void rl_capture_on_rocr(void** state) {
  (void)state;
  char args[512];
  snprintf(args, sizeof(args),
           "capture --workload vecchain --device rocr -o %s/vc-rocr.rlc",
           rl_dir);
  assert_int_equal(rl_run_standin(NULL, args), 0);
  assert_true(rl_has("err.txt", "executed on rocr"));
  assert_true(rl_has("report.txt", "errors 0\nfrees_while_busy 0\n"));
  snprintf(args, sizeof(args), "replay %s/vc.rlc", rl_dir);
  assert_int_equal(rl_run(NULL, args), 0);
  char* from_sim = rl_regions();
  snprintf(args, sizeof(args), "replay %s/vc-rocr.rlc", rl_dir);
  assert_int_equal(rl_run(NULL, args), 0);
  char* from_rocr = rl_regions();
  assert_string_equal(from_sim, from_rocr);
  free(from_sim);
  free(from_rocr);
}

static void rl_replay_failures(void** state) {
  (void)state;
  char args[512];
  snprintf(args, sizeof(args), "replay %s/vc.rlc --device rocr", rl_dir);
  // The system ROCr without /dev/kfd.
  assert_int_equal(rl_run(NULL, args), 8);
  assert_true(rl_has("err.txt", "hsa_init: HSA_STATUS_ERROR_OUT_OF_RESOURCES"));
  assert_true(rl_has("err.txt", "no usable /dev/kfd"));
  assert_int_equal(
      rl_run("REDLINE_HSA_LIBRARY=/nonexistent/libhsa-runtime64.so.1", args),
      8);
  assert_true(rl_has("err.txt", "libhsa-runtime64 not loaded (path from "
                                "REDLINE_HSA_LIBRARY): /nonexistent/"));
  assert_int_equal(
      rl_run_standin("REDLINE_STANDIN_ISA=amdgcn-amd-amdhsa--gfx90a", args), 8);
  assert_true(rl_has("err.txt", "ISA gfx90a not supported: redline targets "
                                "gfx1100, gfx1151, gfx1201"));
  assert_int_equal(rl_run_standin("REDLINE_STANDIN_QUEUE_CREATE_FAIL=1", args),
                   5);
  assert_true(rl_has("err.txt", "hsa_queue_create: "
                                "HSA_STATUS_ERROR_OUT_OF_RESOURCES"));
  assert_true(rl_has("report.txt", "errors 0\nfrees_while_busy 0\n"));
  // A completion signal that never completes: quarantined, and nothing the
  // queue references was freed.
  snprintf(args, sizeof(args), "replay %s/vc.rlc --device rocr --timeout-ms 200",
           rl_dir);
  assert_int_equal(rl_run_standin("REDLINE_STANDIN_HANG_PACKET=3", args), 7);
  assert_true(rl_has("out.txt", "state=quarantined"));
  assert_true(rl_has("report.txt", "errors 0\nfrees_while_busy 0\n"));
}

// The work budgets protect the simulator only: a grid past 2^24
// work-items is refused by the contract on device sim under
// --max-work-items 16M (exit 4; the default is the capture's largest
// launch, redline/limits.h), while on
// device rocr the contract admits it (a GPU runs it) unless the caller sets
// --max-work-items. Here the stand-in's own simulator then refuses the
// dispatch with its work cap, a queue fault (exit 6), not a contract.
static void rl_work_budget_is_the_simulators(void** state) {
  (void)state;
  char path[512];
  snprintf(path, sizeof(path), "%s/vc.rlc", rl_dir);
  rl_capture_t* capture = NULL;
  assert_null(rl_capture_file_read(path, &capture, NULL));
  capture->launches[0].grid[0] = (1u << 18) + 1;  // 2^24 + 64 work-items
  snprintf(path, sizeof(path), "%s/grid.rlc", rl_dir);
  assert_null(rl_capture_file_write(capture, path, NULL));
  rl_capture_destroy(capture);
  static const char* const budget = "work-items exceed the limit";
  char args[1024];
  snprintf(args, sizeof(args), "replay %s --route aql --max-work-items 16M",
           path);
  assert_int_equal(rl_run(NULL, args), 4);
  assert_true(rl_has("err.txt", budget));
  snprintf(args, sizeof(args), "replay %s --route aql --device rocr", path);
  assert_int_equal(rl_run_standin(NULL, args), 6);
  assert_false(rl_has("err.txt", budget));
  snprintf(args, sizeof(args),
           "replay %s --route aql --device rocr --max-work-items 16M", path);
  assert_int_equal(rl_run_standin(NULL, args), 4);
  assert_true(rl_has("err.txt", budget));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_doctor_without_hardware),
      cmocka_unit_test(rl_doctor_with_standin),
      cmocka_unit_test(rl_replays_equal_sim),
      cmocka_unit_test(rl_capture_on_rocr),
      cmocka_unit_test(rl_replay_failures),
      cmocka_unit_test(rl_work_budget_is_the_simulators),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
