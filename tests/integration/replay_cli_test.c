// Integration tests of `redline replay` and `redline lower`: a capture made
// in this process (an eager run through the funnel on the simulated
// device) is written to a file and replayed by the CLI in a fresh process,
// so every pointer is rebased onto new allocations and buffer contents come
// from the file; the region hashes the CLI prints must equal the eager
// run's, at the captured position and at others. Exit codes follow the
// failure class.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "tests/support/test_support.h"

#include "redline/capture_file.h"
#include "tests/unit/redline/replay_test_helpers.h"

#define RL_CAPTURE_POS 37

static char rl_dir[256];
static char rl_file[512];

// Runs `[ENV] redline ARGS` with stdout/stderr in files; returns the exit
// code (-1 when the process did not exit normally).
static int rl_run(const char* env, const char* args) {
  return rl_test_run_cli(RL_REDLINE_BIN, rl_dir, env, args);
}

static char* rl_slurp(const char* name) {
  return rl_test_slurp(rl_dir, name, NULL);
}

static bool rl_output_has(const char* name, const char* needle) {
  return rl_test_file_has(rl_dir, name, needle);
}

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_dir, sizeof(rl_dir), "/tmp/rl_replay_cli.XXXXXX");
  assert_non_null(mkdtemp(rl_dir));
  snprintf(rl_file, sizeof(rl_file), "%s/vecchain.rlc", rl_dir);
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  rl_capture_t* capture = NULL;
  rl_test_record(device, RL_CAPTURE_POS, &capture, NULL);
  assert_null(rl_capture_file_write(capture, rl_file, NULL));
  rl_capture_destroy(capture);
  rl_device_close(device);
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[512];
  snprintf(command, sizeof(command), "rm -rf %s", rl_dir);
  assert_int_equal(system(command), 0);
  return 0;
}

// The eager digests at |pos| (a fresh recording on a fresh sim).
static void rl_eager(int64_t pos, rl_capture_t** out_capture,
                     rl_digest128_t* out_digests) {
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  rl_test_record(device, pos, out_capture, out_digests);
  rl_device_close(device);
}

// Checks every "region NAME HEX" line of the CLI against |digests|.
static void rl_expect_regions(const rl_capture_t* capture,
                              const rl_digest128_t* digests) {
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    char line[256], hex[RL_DIGEST128_HEX_LENGTH + 1];
    rl_digest128_format(digests[r], hex);
    snprintf(line, sizeof(line), "region %s %s\n", capture->regions[r].name,
             hex);
    assert_true(rl_output_has("out.txt", line));
  }
}

static void rl_replay_in_fresh_process_equals_eager(void** state) {
  (void)state;
  static const int64_t positions[] = {RL_CAPTURE_POS, 1, 64, 1500, 4095};
  for (size_t i = 0; i < sizeof(positions) / sizeof(positions[0]); ++i) {
    rl_capture_t* capture = NULL;
    rl_digest128_t eager[RL_TEST_MAX_REGIONS];
    rl_eager(positions[i], &capture, eager);
    char args[1024];
    snprintf(args, sizeof(args), "replay %s --route aql --param pos=%lld",
             rl_file, (long long)positions[i]);
    assert_int_equal(rl_run(NULL, args), 0);
    assert_true(rl_output_has("out.txt", "route=aql state=replaying"));
    assert_true(rl_output_has("out.txt", "dispatches=8 packets=8"));
    rl_expect_regions(capture, eager);
    rl_capture_destroy(capture);
  }
}

static void rl_replay_modes_equal_eager(void** state) {
  (void)state;
  rl_capture_t* capture = NULL;
  rl_digest128_t eager[RL_TEST_MAX_REGIONS];
  rl_eager(900, &capture, eager);
  static const char* const modes[] = {
      "--checked --repeat 3", "--hazards adversarial --seed 7 --repeat 2"};
  for (size_t i = 0; i < 2; ++i) {
    char args[1024];
    snprintf(args, sizeof(args), "replay %s --device sim --param pos=900 %s",
             rl_file, modes[i]);
    assert_int_equal(rl_run(NULL, args), 0);
    rl_expect_regions(capture, eager);
  }
  assert_true(rl_output_has("out.txt", "replays=2"));
  rl_capture_destroy(capture);
}

static void rl_replay_json(void** state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof(args), "replay %s --json --repeat 2", rl_file);
  assert_int_equal(rl_run(NULL, args), 0);
  char* text = rl_slurp("out.txt");
  cJSON* root = cJSON_Parse(text);
  free(text);
  assert_non_null(root);
  cJSON* proof = cJSON_GetObjectItem(root, "proof");
  assert_string_equal(cJSON_GetObjectItem(proof, "route")->valuestring, "aql");
  assert_int_equal(cJSON_GetObjectItem(proof, "replay_count")->valueint, 2);
  assert_int_equal(cJSON_GetObjectItem(proof, "packets")->valueint, 8);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "regions")),
                   4);
  assert_string_equal(cJSON_GetObjectItem(root, "status")->valuestring, "OK");
  cJSON_Delete(root);
}

static void rl_replay_exit_codes(void** state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof(args), "replay %s --param pos=4096", rl_file);
  assert_int_equal(rl_run(NULL, args), 4);
  assert_true(rl_output_has("err.txt", "pos=4096 outside the admitted range"));
  snprintf(args, sizeof(args), "replay %s --processor gfx1201", rl_file);
  assert_int_equal(rl_run(NULL, args), 4);
  assert_true(rl_output_has("err.txt", "target"));
  assert_true(rl_output_has("out.txt", "state=poisoned"));
  snprintf(args, sizeof(args), "replay %s", rl_file);
  assert_int_equal(rl_run("REDLINE_ROUTE=off", args), 4);
  assert_true(rl_output_has("err.txt", "REDLINE_ROUTE=off"));
  assert_int_equal(rl_run("REDLINE_ROUTE=aql", args), 0);
  snprintf(args, sizeof(args), "replay %s --route pm4", rl_file);
  assert_int_equal(rl_run(NULL, args), 0);
  assert_true(rl_output_has("out.txt", "route=pm4 state=replaying"));
  snprintf(args, sizeof(args), "replay %s --device rocr", rl_file);
  assert_int_equal(rl_run(NULL, args), 8);
  snprintf(args, sizeof(args), "replay %s --param nope=1", rl_file);
  assert_int_equal(rl_run(NULL, args), 2);
  assert_int_equal(rl_run(NULL, "replay"), 2);
  assert_int_equal(rl_run(NULL, "replay /nonexistent.rlc"), 3);
}

static void rl_lower_prints_packets_and_patches(void** state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof(args), "lower %s --route aql", rl_file);
  assert_int_equal(rl_run(NULL, args), 0);
  assert_true(rl_output_has("out.txt", "stream route=aql"));
  assert_true(rl_output_has("out.txt", "packet 0 vc_fill: dispatch barrier=1"));
  assert_true(rl_output_has("out.txt", "packet 7 vc_fill: dispatch"));
  assert_true(rl_output_has("out.txt", "grid launch=4 packet=4"));
  assert_true(rl_output_has("out.txt", "value=ceil((pos+1)/64)"));
  assert_true(rl_output_has("out.txt", "pointer launch=0 packet=0 dword=0"));
  assert_int_equal(rl_run(NULL, "help lower"), 0);
  assert_int_equal(rl_run(NULL, "help replay"), 0);
  assert_true(rl_output_has("out.txt", "--hazards"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_replay_in_fresh_process_equals_eager),
      cmocka_unit_test(rl_replay_modes_equal_eager),
      cmocka_unit_test(rl_replay_json),
      cmocka_unit_test(rl_replay_exit_codes),
      cmocka_unit_test(rl_lower_prints_packets_and_patches),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
