// Integration tests of `redline lower --route pm4` and `redline replay
// --route pm4` in a fresh process: captures of vecchain for gfx1100,
// gfx1151 and gfx1201 are written to files; lower prints the vendor packet,
// the IB with register names, the patch table and the statistics (text and
// JSON, with and without retention); replay's region hashes equal route
// aql's at several positions, in adversarial mode.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "tests/support/test_support.h"

static char rl_dir[256];
static const char* const rl_targets[] = {"gfx1100", "gfx1151", "gfx1201"};

// Runs `redline ARGS` with stdout in out.txt; returns the exit code.
static int rl_run(const char* args) {
  return rl_test_run_cli(RL_REDLINE_BIN, rl_dir, NULL, args);
}

static char* rl_slurp(const char* name) {
  return rl_test_slurp(rl_dir, name, NULL);
}

static bool rl_output_has(const char* needle) {
  return rl_test_file_has(rl_dir, "out.txt", needle);
}

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_dir, sizeof(rl_dir), "/tmp/rl_pm4_cli.XXXXXX");
  assert_non_null(mkdtemp(rl_dir));
  for (size_t t = 0; t < 3; ++t) {
    char args[1024];
    snprintf(args, sizeof(args),
             "capture --workload vecchain --target %s -o %s/vc-%s.rlc",
             rl_targets[t], rl_dir, rl_targets[t]);
    assert_int_equal(rl_run(args), 0);
  }
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[512];
  snprintf(command, sizeof(command), "rm -rf %s", rl_dir);
  assert_int_equal(system(command), 0);
  return 0;
}

// `lower --route pm4 --json [--no-retain]` statistics of |target|.
static cJSON* rl_lower_json(const char* target, const char* extra) {
  char args[1024];
  snprintf(args, sizeof(args), "lower %s/vc-%s.rlc --route pm4 --json %s",
           rl_dir, target, extra);
  assert_int_equal(rl_run(args), 0);
  char* text = rl_slurp("out.txt");
  cJSON* root = cJSON_Parse(text);
  free(text);
  assert_non_null(root);
  return root;
}

static double rl_number(const cJSON* object, const char* name) {
  const cJSON* item = cJSON_GetObjectItem(object, name);
  assert_non_null(item);
  return item->valuedouble;
}

static void test_lower_prints_the_ib(void** state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof(args), "lower %s/vc-gfx1100.rlc --route pm4", rl_dir);
  assert_int_equal(rl_run(args), 0);
  assert_true(rl_output_has("stream route=pm4"));
  assert_true(rl_output_has("packet 0 pm4_ib barrier=1 acq=system"));
  assert_true(rl_output_has("ib 0x0000 ACQUIRE_MEM"));
  assert_true(rl_output_has("COMPUTE_PGM_RSRC1="));
  assert_true(rl_output_has("PRIV=1"));
  assert_true(rl_output_has("DISPATCH_DIRECT DIM_X=0x10"));
  assert_true(rl_output_has("CS_W32_EN=1"));
  assert_true(rl_output_has("EVENT_WRITE EVENT_TYPE=7(CS_PARTIAL_FLUSH)"));
  assert_true(rl_output_has("RELEASE_MEM"));
  assert_true(rl_output_has(" grid launch=4 dword="));
  assert_true(rl_output_has("stats route=pm4"));
  snprintf(args, sizeof(args), "lower %s/vc-gfx1201.rlc --route pm4 --stats",
           rl_dir);
  assert_int_equal(rl_run(args), 0);
  assert_true(rl_output_has("dwords_per_dispatch="));
  assert_true(
      rl_output_has("waits=5 acquires=6 copies=0 patch_sites=19 ibs=1\n"));
  // --device-patch: vecchain's three kernarg bindings copied by the CP.
  snprintf(args, sizeof(args), "lower %s/vc-gfx1100.rlc --route pm4 "
           "--device-patch", rl_dir);
  assert_int_equal(rl_run(args), 0);
  assert_true(rl_output_has("COPY_DATA"));
  assert_true(rl_output_has("waits=5 acquires=6 copies=3 patch_sites=19"));
  assert_int_equal(rl_run("help lower"), 0);
  assert_true(rl_output_has("--no-retain"));
  assert_true(rl_output_has("--device-patch"));
}

static void test_lower_json_and_retention(void** state) {
  (void)state;
  for (size_t t = 0; t < 3; ++t) {
    cJSON* on = rl_lower_json(rl_targets[t], "");
    cJSON* off = rl_lower_json(rl_targets[t], "--no-retain");
    const cJSON* a = cJSON_GetObjectItem(on, "stats");
    const cJSON* b = cJSON_GetObjectItem(off, "stats");
    assert_true(rl_number(a, "dwords") < rl_number(b, "dwords"));
    assert_int_equal((int)rl_number(a, "waits"), 5);
    assert_int_equal((int)rl_number(a, "acquires"), 6);
    assert_int_equal((int)rl_number(a, "dispatches"), 8);
    const cJSON* ib = cJSON_GetObjectItem(on, "ib");
    assert_true(cJSON_GetArraySize(ib) > 8);
    assert_string_equal(
        cJSON_GetObjectItem(cJSON_GetArrayItem(ib, 0), "packet")->valuestring,
        "ACQUIRE_MEM");
    printf("# %s lower: %.0f dwords (%.2f/dispatch) with retention, %.0f "
           "(%.2f) without\n",
           rl_targets[t], rl_number(a, "dwords"),
           rl_number(a, "dwords_per_dispatch"), rl_number(b, "dwords"),
           rl_number(b, "dwords_per_dispatch"));
    cJSON_Delete(on);
    cJSON_Delete(off);
  }
}

// The "region" lines of the last run.
static char* rl_regions(void) {
  char* regions = rl_test_lines_with_prefix(rl_dir, "out.txt", "region ");
  assert_true(regions[0] != '\0');
  return regions;
}

static void test_replay_equals_route_aql(void** state) {
  (void)state;
  static const int positions[] = {1, 64, 1000};
  for (size_t t = 0; t < 3; ++t) {
    for (size_t p = 0; p < 3; ++p) {
      char args[1024];
      snprintf(args, sizeof(args),
               "replay %s/vc-%s.rlc --route aql --param pos=%d", rl_dir,
               rl_targets[t], positions[p]);
      assert_int_equal(rl_run(args), 0);
      char* aql = rl_regions();
      snprintf(args, sizeof(args),
               "replay %s/vc-%s.rlc --route pm4 --hazards adversarial "
               "--seed %zu --checked --repeat 2 --param pos=%d",
               rl_dir, rl_targets[t], p + 1, positions[p]);
      assert_int_equal(rl_run(args), 0);
      assert_true(rl_output_has("route=pm4 state=replaying"));
      assert_true(rl_output_has("packets=1 waits=5"));
      char* pm4 = rl_regions();
      assert_string_equal(pm4, aql);
      free(aql);
      free(pm4);
    }
  }
  char args[1024];
  snprintf(args, sizeof(args),
           "replay %s/vc-gfx1151.rlc --route pm4 --no-retain --json", rl_dir);
  assert_int_equal(rl_run(args), 0);
  assert_true(rl_output_has("\"ib_dwords\":\t280"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lower_prints_the_ib),
      cmocka_unit_test(test_lower_json_and_retention),
      cmocka_unit_test(test_replay_equals_route_aql),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
