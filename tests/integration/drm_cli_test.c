// `redline doctor` and `redline replay --device drm --route drm` in fresh
// processes, against the libdrm_amdgpu stand-in (REDLINE_DRM_LIBRARY, with
// REDLINE_DRM_RENDER_NODE pointing at an empty regular file) and without
// it: exit codes and messages, replays whose region digests equal the sim
// device's route pm4 byte for byte (vecchain and the decode step), one
// submission per step, fence-timeout quarantine, unknown families and the
// route refusals. Every stand-in run writes its misuse record
// (REDLINE_STANDIN_REPORT), which must be empty.
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

#include "tests/support/test_support.h"

static char rl_dir[256];

// Runs `env -u ... [ENV] redline ARGS` with stdout and stderr in files;
// returns the exit code (-1 if it did not exit).
static int rl_run(const char* env, const char* args) {
  char full[2048];
  snprintf(full, sizeof(full),
           "env -u REDLINE_DRM_LIBRARY -u REDLINE_DRM_RENDER_NODE "
           "-u REDLINE_STANDIN_DRM_TARGET -u REDLINE_STANDIN_DRM_HANG "
           "-u REDLINE_ROUTE %s", env ? env : "");
  return rl_test_run_cli(RL_REDLINE_BIN, rl_dir, full, args);
}

// Runs with the stand-in and the fake render node selected.
static int rl_run_standin(const char* env, const char* args) {
  char full[1024];
  snprintf(full, sizeof(full),
           "REDLINE_DRM_LIBRARY=%s REDLINE_DRM_RENDER_NODE=%s/renderD128 "
           "REDLINE_STANDIN_REPORT=%s/report.txt %s",
           RL_STANDIN_DRM_LIBRARY, rl_dir, rl_dir, env ? env : "");
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
  snprintf(rl_dir, sizeof(rl_dir), "/tmp/rl_drm_cli.XXXXXX");
  assert_non_null(mkdtemp(rl_dir));
  char args[512];
  snprintf(args, sizeof(args), "%s/renderD128", rl_dir);
  FILE* node = fopen(args, "w");
  assert_non_null(node);
  fclose(node);
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

static void rl_doctor(void** state) {
  (void)state;
  assert_int_equal(rl_run_standin(NULL, "doctor"), 0);
  assert_true(rl_has("out.txt", "drm   amdgcn-amd-amdhsa--gfx1100   "
                                "available, routes drm"));
  assert_true(rl_has("report.txt", "errors 0\n"));
  assert_int_equal(rl_run_standin(NULL, "doctor --json"), 0);
  assert_true(rl_has("out.txt", "\"drm\""));
  assert_int_equal(rl_run_standin("REDLINE_STANDIN_DRM_TARGET=gfx1151",
                                  "doctor"), 0);
  assert_true(rl_has("out.txt", "drm   amdgcn-amd-amdhsa--gfx1151"));
  // Without the stand-in: no render node here, so not available.
  assert_int_equal(
      rl_run("REDLINE_DRM_LIBRARY=/nonexistent/libdrm_amdgpu.so.1", "doctor"),
      8);
  assert_true(rl_has("out.txt", "drm   -"));
  assert_true(rl_has("out.txt", "/nonexistent/libdrm_amdgpu.so.1: cannot "
                                "open shared object file"));
}

// |capture| on sim through route pm4 and on drm through route drm:
// identical regions, one submission per step.
static void rl_expect_same_regions(const char* capture, const char* extra,
                                   const char* submissions) {
  char args[1024];
  snprintf(args, sizeof(args), "replay %s/%s --route pm4 %s", rl_dir, capture,
           extra);
  assert_int_equal(rl_run(NULL, args), 0);
  char* on_sim = rl_regions();
  snprintf(args, sizeof(args), "replay %s/%s --route drm --device drm %s",
           rl_dir, capture, extra);
  assert_int_equal(rl_run_standin(NULL, args), 0);
  assert_true(rl_has("out.txt", "proof device=drm target=amdgcn-amd-amdhsa--"
                                "gfx1100 route=drm state=replaying"));
  char* on_drm = rl_regions();
  assert_true(on_sim[0] != '\0');
  assert_string_equal(on_sim, on_drm);
  assert_true(rl_has("report.txt", "errors 0\n"));
  assert_true(rl_has("report.txt", submissions));
  free(on_sim);
  free(on_drm);
}

static void rl_replays_equal_sim(void** state) {
  (void)state;
  rl_expect_same_regions("vc.rlc", "--repeat 3 --param pos=77",
                         "submissions 3\n");
  rl_expect_same_regions("vc.rlc", "--repeat 2 --param pos=1500 --no-retain",
                         "submissions 2\n");
  rl_expect_same_regions("dec.rlc", "--checked", "submissions 1\n");
}

// The trace of a route drm replay names its route "drm" (it said "aql"
// for every route but pm4 before issue 29).
static void rl_replay_trace_names_route(void** state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof(args),
           "replay %s/vc.rlc --route drm --device drm --trace %s/drm.json",
           rl_dir, rl_dir);
  assert_int_equal(rl_run_standin(NULL, args), 0);
  assert_true(rl_has("drm.json", "\"replay: drm\""));
  assert_false(rl_has("drm.json", "\"replay: aql\""));
  // Control: the same replay on the sim device's route aql says "aql".
  snprintf(args, sizeof(args), "replay %s/vc.rlc --route aql --trace %s/aql.json",
           rl_dir, rl_dir);
  assert_int_equal(rl_run(NULL, args), 0);
  assert_true(rl_has("aql.json", "\"replay: aql\""));
}

static void rl_replay_failures(void** state) {
  (void)state;
  char args[512];
  snprintf(args, sizeof(args), "replay %s/vc.rlc --device drm --route drm",
           rl_dir);
  // No stand-in: the path tried is named; no render node on this machine.
  assert_int_equal(
      rl_run("REDLINE_DRM_LIBRARY=/nonexistent/libdrm_amdgpu.so.1", args), 8);
  assert_true(rl_has("err.txt", "libdrm_amdgpu not loaded (path from "
                                "REDLINE_DRM_LIBRARY): /nonexistent/"
                                "libdrm_amdgpu.so.1: /nonexistent/"));
  assert_int_equal(rl_run(NULL, args), 8);
  assert_true(rl_has("err.txt", "device drm"));
  // A family redline does not target.
  assert_int_equal(rl_run_standin("REDLINE_STANDIN_DRM_TARGET=gfx1030", args),
                   8);
  assert_true(rl_has("err.txt", "amdgpu family 143, chip external rev 0x28 "
                                "is not a redline target: redline targets "
                                "gfx1100 (family 145"));
  // gfx1101 is family 145 too, but another chip.
  assert_int_equal(rl_run_standin("REDLINE_STANDIN_DRM_TARGET=gfx1101", args),
                   8);
  assert_true(rl_has("err.txt", "chip external rev 0x20 is not a redline "
                                "target"));
  // Routes a device cannot run are refused at prepare, with the reason.
  snprintf(args, sizeof(args), "replay %s/vc.rlc --device drm --route pm4",
           rl_dir);
  assert_int_equal(rl_run_standin(NULL, args), 4);
  assert_true(rl_has("err.txt", "device drm cannot run route pm4: it runs "
                                "drm only"));
  snprintf(args, sizeof(args), "replay %s/vc.rlc --route drm", rl_dir);
  assert_int_equal(rl_run(NULL, args), 4);
  assert_true(rl_has("err.txt", "device sim cannot run route drm: it runs "
                                "aql and pm4"));
  // A fence that never signals: quarantined, nothing misused.
  snprintf(args, sizeof(args),
           "replay %s/vc.rlc --device drm --route drm --timeout-ms 200",
           rl_dir);
  assert_int_equal(rl_run_standin("REDLINE_STANDIN_DRM_HANG=1", args), 7);
  assert_true(rl_has("out.txt", "state=quarantined"));
  assert_true(rl_has("err.txt", "on the fence of the IB"));
  assert_true(rl_has("report.txt", "errors 0\n"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_doctor),
      cmocka_unit_test(rl_replays_equal_sim),
      cmocka_unit_test(rl_replay_trace_names_route),
      cmocka_unit_test(rl_replay_failures),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
