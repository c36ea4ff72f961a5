// The shadow's arms on several host threads (rl_shadow_options_t.arm_jobs,
// docs/cli.md "Arms in parallel"): the same shadow with 1 and 4 arm jobs
// gives the same report, timings aside, through the JSON entry point
// (redline/shadow_json.h, its "arm_jobs" key) on captures the CLI records:
//   - decode and vecchain on the C reference kernels, every arm kind the
//     simulator offers, hip and hipgraph included (they share the HIP
//     runtime's device and stay on the run's thread);
//   - decode on the ISA executor under the oracle executor (one oracle per
//     arm);
//   - negative controls: a damaged arm fails with the same verdict in
//     parallel as in order, whether its memory is corrupted after the
//     first window (the flip) or its route loses a kernarg patch during
//     every step (REDLINE_TEST_FAULT=patch-skip, in fresh processes).
// In the TSan set (label threaded): the threads' sharing is checked there.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "redline/capture_file.h"
#include "redline/shadow_json.h"
#include "shadow/shadow.h"
#include "tests/support/test_support.h"

static char rl_dir[64];

// Records `redline capture ARGS -o DIR/NAME` and reads it back.
static rl_capture_t* rl_capture(const char* name, const char* args) {
  char command[512];
  snprintf(command, sizeof(command), "capture %s -o %s/%s", args, rl_dir,
           name);
  char env[512];
  snprintf(env, sizeof(env), "REDLINE_KERNELS_DIR=%s", RL_KERNELS_DIR);
  assert_int_equal(rl_test_run_cli(RL_REDLINE_BIN, rl_dir, env, command), 0);
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", rl_dir, name);
  rl_capture_t* capture = NULL;
  assert_null(rl_capture_file_read(path, &capture, NULL));
  return capture;
}

// Removes every timing ("..._ns") from |item|, recursively.
static void rl_strip_timings(cJSON* item) {
  cJSON* child = item ? item->child : NULL;
  while (child) {
    cJSON* next = child->next;
    size_t length = child->string ? strlen(child->string) : 0;
    if (length > 3 && strcmp(child->string + length - 3, "_ns") == 0) {
      cJSON_DetachItemViaPointer(item, child);
      cJSON_Delete(child);
    } else {
      rl_strip_timings(child);
    }
    child = next;
  }
}

// The JSON report of a shadow of |capture| with |options| (a JSON object's
// members, without braces) and |jobs| arm jobs, timings removed.
static char* rl_report(const rl_capture_t* capture, const char* options,
                       uint32_t jobs) {
  char text[512];
  snprintf(text, sizeof(text), "{%s, \"arm_jobs\": %u}", options, jobs);
  char* report = NULL;
  rl_status_t status = rl_shadow_run_json(capture, text, &report);
  if (status) fprintf(stderr, "%s\n", rl_status_message(status));
  assert_null(status);
  cJSON* root = cJSON_Parse(report);
  assert_non_null(root);
  rl_json_free(report);
  rl_strip_timings(root);
  char* stripped = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  assert_non_null(stripped);
  return stripped;
}

// 1 and 4 arm jobs give one report; returns its verdict ("PASS"/"FAIL").
static bool rl_same_report(const rl_capture_t* capture, const char* options,
                           const char* verdict) {
  char* sequential = rl_report(capture, options, 1);
  char* parallel = rl_report(capture, options, 4);
  if (strcmp(sequential, parallel) != 0) {
    fprintf(stderr, "1 job:  %s\n4 jobs: %s\n", sequential, parallel);
  }
  bool same = strcmp(sequential, parallel) == 0;
  char needle[64];
  snprintf(needle, sizeof(needle), "\"verdict\":\"%s\"", verdict);
  bool expected = strstr(sequential, needle) != NULL;
  if (!expected) fprintf(stderr, "expected %s: %s\n", verdict, sequential);
  cJSON_free(sequential);
  cJSON_free(parallel);
  return same && expected;
}

// Under the sanitizers (RL_ARM_JOBS_SANITIZED, tests/shadow.cmake) the
// decode cases are skipped: vecchain with every arm and the damaged route
// exercise the same parallel step and merge, in a tenth of the time (the
// whole test took 698 s under TSan on the 2-core machine).
#ifdef RL_ARM_JOBS_SANITIZED
#define RL_SKIP_UNDER_SANITIZERS() skip()
#else
#define RL_SKIP_UNDER_SANITIZERS() ((void)0)
#endif

static void rl_test_decode_every_arm(void** state) {
  (void)state;
  RL_SKIP_UNDER_SANITIZERS();
  rl_capture_t* capture = rl_capture("decode.rlc", "--workload decode");
  assert_true(rl_same_report(
      capture, "\"arms\": \"eager,recorded,aql,pm4,pm4-relay,hip,hipgraph\"",
      "PASS"));
  rl_capture_destroy(capture);
}

static void rl_test_vecchain_every_arm(void** state) {
  (void)state;
  rl_capture_t* capture = rl_capture("vecchain.rlc", "--workload vecchain");
  assert_true(rl_same_report(
      capture, "\"arms\": \"eager,recorded,aql,pm4,hip,hipgraph\"", "PASS"));
  rl_capture_destroy(capture);
}

static void rl_test_decode_isa_oracle(void** state) {
  (void)state;
  RL_SKIP_UNDER_SANITIZERS();
  rl_capture_t* capture =
      rl_capture("decode_isa.rlc", "--workload decode --executor isa");
  assert_true(rl_same_report(capture,
                             "\"arms\": \"eager,recorded,aql,pm4\", "
                             "\"executor\": \"isa\", \"oracle\": \"full\", "
                             "\"windows\": \"30:2\"",
                             "PASS"));
  rl_capture_destroy(capture);
}

// The flip (the C API: the JSON options have none) corrupts the pm4 arm
// after window 0: the same verdict, naming the region and offset, in
// parallel.
static void rl_test_flip_same_verdict(void** state) {
  (void)state;
  RL_SKIP_UNDER_SANITIZERS();
  rl_capture_t* capture = rl_capture("flip.rlc", "--workload decode");
  char reasons[2][1024];
  for (uint32_t jobs = 1, i = 0; i < 2; jobs = 4, ++i) {
    rl_shadow_options_t options;
    memset(&options, 0, sizeof(options));
    assert_null(rl_shadow_arms_parse("eager,recorded,aql,pm4", options.arms,
                                     &options.arm_count));
    options.flip = true;
    options.flip_region = 0;
    options.flip_offset = 3;
    options.arm_jobs = jobs;
    rl_shadow_result_t* result = NULL;
    assert_null(rl_shadow_run(capture, &options, &result));
    assert_false(result->pass);
    assert_int_equal(rl_shadow_result_code(result), RL_STATUS_MISMATCH);
    assert_int_equal(result->first_window, 0);
    assert_int_equal(result->first_offset, 3);
    snprintf(reasons[i], sizeof(reasons[i]), "%s", result->reason);
    rl_shadow_result_destroy(result);
  }
  assert_string_equal(reasons[0], reasons[1]);
  rl_capture_destroy(capture);
}

// A route damaged during every step (a kernarg patch not written): the
// retained arms diverge; the verdict line and exit code are the same with
// 1 and 3 arm jobs.
static void rl_test_damaged_route_same_verdict(void** state) {
  (void)state;
  rl_capture_destroy(rl_capture("damaged.rlc", "--workload decode"));
  char* verdicts[2];
  for (int i = 0; i < 2; ++i) {
    char env[512], command[512];
    snprintf(env, sizeof(env),
             "REDLINE_KERNELS_DIR=%s REDLINE_TEST_FAULT=patch-skip",
             RL_KERNELS_DIR);
    snprintf(command, sizeof(command),
             "shadow %s/damaged.rlc --arms eager,recorded,aql,pm4 "
             "--adversarial-seeds 0 --arm-jobs %d",
             rl_dir, i == 0 ? 1 : 3);
    assert_int_equal(rl_test_run_cli(RL_REDLINE_BIN, rl_dir, env, command),
                     1);
    verdicts[i] = rl_test_lines_with_prefix(rl_dir, "out.txt", "shadow: ");
    assert_non_null(strstr(verdicts[i], "shadow: FAIL"));
  }
  assert_string_equal(verdicts[0], verdicts[1]);
  free(verdicts[0]);
  free(verdicts[1]);
}

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_dir, sizeof(rl_dir), "/tmp/rl_arm_jobs.XXXXXX");
  assert_non_null(mkdtemp(rl_dir));
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[128];
  snprintf(command, sizeof(command), "rm -rf %s", rl_dir);
  return system(command) == 0 ? 0 : -1;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_test_decode_every_arm),
      cmocka_unit_test(rl_test_vecchain_every_arm),
      cmocka_unit_test(rl_test_decode_isa_oracle),
      cmocka_unit_test(rl_test_flip_same_verdict),
      cmocka_unit_test(rl_test_damaged_route_same_verdict),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
