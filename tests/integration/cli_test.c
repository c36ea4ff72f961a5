// CLI integration tests: the `redline` binary's exit codes, capture →
// inspect round trip, JSON/DOT output, and corrupted captures rejected with
// exit 3 (a sample of byte flips and truncations; the exhaustive version
// runs in-process in capture_file_test).
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

static char rl_test_dir[256];

// Runs `redline ARGS` with stdout/stderr captured into files; returns the
// exit code (or -1 when the process did not exit normally).
static int rl_run(const char* args) {
  return rl_test_run_cli(RL_REDLINE_BIN, rl_test_dir, NULL, args);
}

static char* rl_slurp(const char* name, size_t* out_size) {
  return rl_test_slurp(rl_test_dir, name, out_size);
}

static void rl_spit(const char* name, const void* data, size_t size) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", rl_test_dir, name);
  FILE* file = fopen(path, "wb");
  assert_non_null(file);
  assert_int_equal(fwrite(data, 1, size, file), size);
  fclose(file);
}

static bool rl_stderr_has(const char* needle) {
  return rl_test_file_has(rl_test_dir, "err.txt", needle);
}

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_test_dir, sizeof(rl_test_dir), "/tmp/rl_cli_test.XXXXXX");
  assert_non_null(mkdtemp(rl_test_dir));
  char args[512];
  snprintf(args, sizeof(args), "capture --workload vecchain --param pos=5 -o %s/v.rlc",
           rl_test_dir);
  assert_int_equal(rl_run(args), 0);
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[512];
  snprintf(command, sizeof(command), "rm -rf %s", rl_test_dir);
  return system(command) == 0 ? 0 : -1;
}

static void test_usage_errors_exit_2(void** state) {
  (void)state;
  assert_int_equal(rl_run(""), 2);
  assert_int_equal(rl_run("frobnicate"), 2);
  assert_true(rl_stderr_has("unknown command 'frobnicate'"));
  assert_int_equal(rl_run("inspect"), 2);
  assert_int_equal(rl_run("inspect --bogus x.rlc"), 2);
  assert_int_equal(rl_run("kernels"), 2);
  assert_int_equal(rl_run("capture --workload vecchain"), 2);
  assert_int_equal(rl_run("capture --workload no_such_workload -o /tmp/x.rlc"), 2);
}

static void test_help_lists_exit_codes(void** state) {
  (void)state;
  assert_int_equal(rl_run("help"), 0);
  char* out = rl_slurp("out.txt", NULL);
  assert_non_null(strstr(out, "8  device or runtime unavailable"));
  assert_non_null(strstr(out, "inspect CAPTURE"));
  free(out);
  assert_int_equal(rl_run("help inspect"), 0);
  assert_int_equal(rl_run("inspect --help"), 0);
}

static void test_missing_and_invalid_files_exit_3(void** state) {
  (void)state;
  assert_int_equal(rl_run("inspect /nonexistent/capture.rlc"), 3);
  assert_true(rl_stderr_has("/nonexistent/capture.rlc"));
  rl_spit("junk.bin", "not a capture at all", 20);
  char args[512];
  snprintf(args, sizeof(args), "inspect %s/junk.bin", rl_test_dir);
  assert_int_equal(rl_run(args), 3);
  snprintf(args, sizeof(args), "kernels %s/junk.bin", rl_test_dir);
  assert_int_equal(rl_run(args), 3);
  assert_true(rl_stderr_has("junk.bin"));
}

static void test_inspect_text_json_and_dot(void** state) {
  (void)state;
  char args[512];
  snprintf(args, sizeof(args), "inspect %s/v.rlc --launches", rl_test_dir);
  assert_int_equal(rl_run(args), 0);
  char* out = rl_slurp("out.txt", NULL);
  assert_non_null(strstr(out, "target     amdgcn-amd-amdhsa--gfx1100"));
  assert_non_null(strstr(out, "vc_axpy_pos"));
  assert_non_null(strstr(out, "pos"));
  free(out);

  snprintf(args, sizeof(args), "inspect %s/v.rlc --launches --json", rl_test_dir);
  assert_int_equal(rl_run(args), 0);
  out = rl_slurp("out.txt", NULL);
  cJSON* root = cJSON_Parse(out);
  free(out);
  assert_non_null(root);
  cJSON* launches = cJSON_GetObjectItem(root, "launches");
  int launch_count = cJSON_GetArraySize(launches);
  assert_true(launch_count >= 6);
  assert_int_equal(cJSON_GetObjectItem(root, "launch_count")->valueint,
                   launch_count);
  const char* identity = cJSON_GetObjectItem(root, "identity")->valuestring;
  assert_int_equal(strlen(identity), 32);
  cJSON* plan = cJSON_GetObjectItem(root, "hazard_plan");
  int waits = cJSON_GetObjectItem(plan, "waits")->valueint;
  assert_true(waits >= 1 && waits < launch_count);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(plan, "wait_before")),
                   waits);
  // Every binding names the parameter pos.
  cJSON* binding = NULL;
  int bindings = 0;
  cJSON_ArrayForEach(binding, cJSON_GetObjectItem(root, "bindings")) {
    cJSON* expr = cJSON_GetObjectItem(binding, "expr");
    assert_string_equal(cJSON_GetObjectItem(expr, "param")->valuestring, "pos");
    ++bindings;
  }
  assert_true(bindings >= 2);
  cJSON_Delete(root);

  snprintf(args, sizeof(args), "inspect %s/v.rlc --dot", rl_test_dir);
  assert_int_equal(rl_run(args), 0);
  out = rl_slurp("out.txt", NULL);
  assert_non_null(strstr(out, "digraph capture {"));
  assert_non_null(strstr(out, "->"));
  free(out);
}

static void test_corrupted_captures_exit_3(void** state) {
  (void)state;
  size_t size = 0;
  char path[512];
  snprintf(path, sizeof(path), "%s/v.rlc", rl_test_dir);
  FILE* file = fopen(path, "rb");
  assert_non_null(file);
  fseek(file, 0, SEEK_END);
  size = (size_t)ftell(file);
  fseek(file, 0, SEEK_SET);
  uint8_t* bytes = malloc(size);
  assert_int_equal(fread(bytes, 1, size, file), size);
  fclose(file);
  char args[512];
  snprintf(args, sizeof(args), "inspect %s/bad.rlc", rl_test_dir);
  // A spread of single-byte flips (header, section headers, payloads, tail).
  size_t step = size / 97 + 1;
  int runs = 0;
  for (size_t offset = 0; offset < size; offset += (offset < 128 ? 7 : step)) {
    bytes[offset] ^= 0x5a;
    rl_spit("bad.rlc", bytes, size);
    bytes[offset] ^= 0x5a;
    int code = rl_run(args);
    if (code != 3) fprintf(stderr, "flip at byte %zu gave exit %d\n", offset, code);
    assert_int_equal(code, 3);
    ++runs;
  }
  // Truncations, including the empty file.
  for (size_t length = 0; length < size; length += size / 23 + 1) {
    rl_spit("bad.rlc", bytes, length);
    assert_int_equal(rl_run(args), 3);
    ++runs;
  }
  assert_true(rl_stderr_has("bad.rlc"));
  assert_true(runs > 100);
  // Negative control: the unmodified bytes are accepted.
  rl_spit("bad.rlc", bytes, size);
  assert_int_equal(rl_run(args), 0);
  free(bytes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_usage_errors_exit_2),
      cmocka_unit_test(test_help_lists_exit_codes),
      cmocka_unit_test(test_missing_and_invalid_files_exit_3),
      cmocka_unit_test(test_inspect_text_json_and_dot),
      cmocka_unit_test(test_corrupted_captures_exit_3),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
