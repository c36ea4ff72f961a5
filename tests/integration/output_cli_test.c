// CLI integration tests of output paths (base/output_file.h through
// `redline capture -o`, `shadow --json` and `bench --json`): an output that
// is an input is refused with exit 2 and the input stays byte for byte;
// links stay links; devices stay devices; /dev/stdout goes to the
// redirected stdout; a FIFO without a reader is an error, not a hang.
// mknod() is an XSI interface, outside the project-wide POSIX level.
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "tests/support/test_support.h"

static char rl_test_dir[256];

static int rl_run_env(const char* env, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

// Runs `[ENV] redline ARGS` (ARGS printf-formatted) with stdout and stderr
// in rl_test_dir/out.txt and err.txt; returns the exit code.
static int rl_run_env(const char* env, const char* format, ...) {
  char args[2048];
  va_list list;
  va_start(list, format);
  vsnprintf(args, sizeof(args), format, list);
  va_end(list);
  return rl_test_run_cli(RL_REDLINE_BIN, rl_test_dir, env, args);
}

static const char* rl_path(const char* name) {
  static char paths[16][512];
  static int next;
  char* path = paths[next++ % 16];
  snprintf(path, sizeof(paths[0]), "%s/%s", rl_test_dir, name);
  return path;
}

static bool rl_stderr_has(const char* needle) {
  return rl_test_file_has(rl_test_dir, "err.txt", needle);
}

static void rl_copy(const char* from, const char* to) {
  size_t size = 0;
  void* bytes = rl_test_read_file(from, &size);
  FILE* file = fopen(to, "wb");
  assert_non_null(file);
  assert_int_equal(fwrite(bytes, 1, size, file), size);
  fclose(file);
  free(bytes);
}

// True when |a| and |b| hold the same bytes.
static bool rl_same_bytes(const char* a, const char* b) {
  size_t a_size = 0, b_size = 0;
  void* a_bytes = rl_test_read_file(a, &a_size);
  void* b_bytes = rl_test_read_file(b, &b_size);
  bool same = a_size == b_size && memcmp(a_bytes, b_bytes, a_size) == 0;
  free(a_bytes);
  free(b_bytes);
  return same;
}

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_test_dir, sizeof(rl_test_dir), "/tmp/rl_output_cli_test.XXXXXX");
  assert_non_null(mkdtemp(rl_test_dir));
  assert_int_equal(rl_run_env(NULL, "capture --workload vecchain --param pos=5 -o %s",
                              rl_path("v.rlc")),
                   0);
  rl_copy(rl_path("v.rlc"), rl_path("v.orig"));
  return 0;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[512];
  snprintf(command, sizeof(command), "rm -rf %s", rl_test_dir);
  return system(command) == 0 ? 0 : -1;
}

static void test_json_output_equal_to_input_refused(void** state) {
  (void)state;
  assert_int_equal(symlink("v.rlc", rl_path("alias.rlc")), 0);
  assert_int_equal(link(rl_path("v.rlc"), rl_path("hard.rlc")), 0);
  assert_int_equal(rl_run_env(NULL, "shadow %s --json %s", rl_path("v.rlc"),
                              rl_path("v.rlc")),
                   2);
  assert_true(rl_stderr_has("is the input"));
  assert_int_equal(rl_run_env(NULL, "shadow %s --json %s", rl_path("alias.rlc"),
                              rl_path("hard.rlc")),
                   2);
  assert_int_equal(rl_run_env(NULL, "bench %s --rounds 1 --json %s",
                              rl_path("v.rlc"), rl_path("alias.rlc")),
                   2);
  assert_true(rl_stderr_has("bench --json"));
  assert_true(rl_same_bytes(rl_path("v.rlc"), rl_path("v.orig")));
  struct stat st;
  assert_int_equal(lstat(rl_path("v.rlc"), &st), 0);
  assert_int_equal(st.st_mode & 07777, 0644);
  // Negative control: a distinct output is written and is JSON.
  assert_int_equal(rl_run_env(NULL, "shadow %s --json %s", rl_path("v.rlc"),
                              rl_path("r.json")),
                   0);
  char* text = rl_test_slurp(rl_test_dir, "r.json", NULL);
  cJSON* root = cJSON_Parse(text);
  assert_non_null(root);
  cJSON_Delete(root);
  free(text);
}

static void test_capture_output_equal_to_code_object_refused(void** state) {
  (void)state;
  rl_copy(RL_KERNELS_DIR "/vecchain-gfx1100.co", rl_path("vecchain-gfx1100.co"));
  rl_copy(rl_path("vecchain-gfx1100.co"), rl_path("co.orig"));
  char env[512];
  snprintf(env, sizeof(env), "REDLINE_KERNELS_DIR=%s", rl_test_dir);
  assert_int_equal(rl_run_env(env, "capture --workload vecchain -o %s",
                              rl_path("vecchain-gfx1100.co")),
                   2);
  assert_true(rl_stderr_has("is the input"));
  assert_true(rl_same_bytes(rl_path("vecchain-gfx1100.co"), rl_path("co.orig")));
  // Negative control: the same environment captures into another file.
  assert_int_equal(rl_run_env(env, "capture --workload vecchain -o %s",
                              rl_path("c.rlc")),
                   0);
  assert_false(rl_same_bytes(rl_path("c.rlc"), rl_path("co.orig")));
}

static void test_capture_through_link_keeps_link_and_mode(void** state) {
  (void)state;
  int fd = open(rl_path("target.rlc"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  assert_true(fd >= 0);
  assert_int_equal(fchmod(fd, 0640), 0);
  close(fd);
  assert_int_equal(symlink("target.rlc", rl_path("link.rlc")), 0);
  assert_int_equal(rl_run_env(NULL, "capture --workload vecchain --param pos=5 -o %s",
                              rl_path("link.rlc")),
                   0);
  struct stat st;
  assert_int_equal(lstat(rl_path("link.rlc"), &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_int_equal(lstat(rl_path("target.rlc"), &st), 0);
  assert_true(S_ISREG(st.st_mode));
  assert_int_equal(st.st_mode & 07777, 0640);
  assert_true(rl_same_bytes(rl_path("target.rlc"), rl_path("v.rlc")));
  assert_int_equal(rl_run_env(NULL, "inspect %s", rl_path("link.rlc")), 0);
}

static void test_devices_and_stdout(void** state) {
  (void)state;
  // A private twin of /dev/null where mknod is allowed (root), so a broken
  // writer damages the twin, never the system's device; without the
  // privilege a broken writer could not rename over /dev/null either.
  struct stat before, after;
  assert_int_equal(stat("/dev/null", &before), 0);
  const char* null_path = rl_path("null");
  if (mknod(null_path, S_IFCHR | 0666, before.st_rdev) != 0) null_path = "/dev/null";
  assert_int_equal(rl_run_env(NULL, "shadow %s --json %s", rl_path("v.rlc"), null_path),
                   0);
  assert_int_equal(lstat(null_path, &after), 0);
  assert_true(S_ISCHR(after.st_mode));
  assert_int_equal(after.st_rdev, before.st_rdev);
  // /dev/stdout is the shell's redirection: the text report, then the JSON.
  assert_int_equal(rl_run_env(NULL, "shadow %s --json /dev/stdout", rl_path("v.rlc")),
                   0);
  char* out = rl_test_slurp(rl_test_dir, "out.txt", NULL);
  char* pass = strstr(out, "shadow: PASS");
  assert_non_null(pass);
  char* json = strchr(pass, '{');
  assert_non_null(json);
  cJSON* root = cJSON_Parse(json);
  assert_non_null(root);
  cJSON_Delete(root);
  free(out);
  assert_int_equal(lstat(rl_path("out.txt"), &after), 0);
  assert_true(S_ISREG(after.st_mode));
}

static void test_fifo_without_reader_fails_fast(void** state) {
  (void)state;
  assert_int_equal(mkfifo(rl_path("fifo"), 0600), 0);
  // timeout(1) turns a hang into exit 124, which fails the comparison.
  assert_int_equal(rl_run_env("timeout 120", "shadow %s --json %s",
                              rl_path("v.rlc"), rl_path("fifo")),
                   3);
  assert_true(rl_stderr_has("has no reader"));
  struct stat st;
  assert_int_equal(lstat(rl_path("fifo"), &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_json_output_equal_to_input_refused, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_capture_output_equal_to_code_object_refused, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_capture_through_link_keeps_link_and_mode, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_devices_and_stdout, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_fifo_without_reader_fails_fast, rl_setup, rl_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
