// Tests of the output-file writer (base/output_file.h): what each
// kind of path becomes after a write, the kept mode, the same-file check,
// and the cleanup of temporaries on signals and by the sweep. Each checker
// has a negative control showing it can fail.
// mknod() is an XSI interface, outside the project-wide POSIX level.
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/output_file.h"

static char rl_dir[64];

static int rl_setup(void** state) {
  (void)state;
  snprintf(rl_dir, sizeof(rl_dir), "/tmp/rl_output_file_test.XXXXXX");
  return mkdtemp(rl_dir) ? 0 : -1;
}

static int rl_teardown(void** state) {
  (void)state;
  char command[128];
  snprintf(command, sizeof(command), "rm -rf %s", rl_dir);
  return system(command) == 0 ? 0 : -1;
}

// rl_dir/|name| in a static buffer, one of sixteen used in turn: valid
// until the sixteenth next call, which is enough within one test step.
static const char* rl_path(const char* name) {
  static char paths[16][512];
  static int next;
  char* path = paths[next++ % 16];
  snprintf(path, sizeof(paths[0]), "%s/%s", rl_dir, name);
  return path;
}

static void rl_put(const char* path, const char* text, mode_t mode) {
  unlink(path);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  assert_int_equal(fchmod(fd, mode), 0);
  close(fd);
}

// True when |path| holds exactly |text|.
static bool rl_holds(const char* path, const char* text) {
  char buffer[256] = {0};
  int fd = open(path, O_RDONLY);
  if (fd < 0) return false;
  ssize_t got = read(fd, buffer, sizeof(buffer) - 1);
  close(fd);
  return got == (ssize_t)strlen(text) && memcmp(buffer, text, (size_t)got) == 0;
}

static bool rl_mode_is(const char* path, mode_t mode) {
  struct stat st;
  return lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
         (st.st_mode & 07777) == mode;
}

// Entries of rl_dir other than "." and "..".
static int rl_entry_count(void) {
  DIR* stream = opendir(rl_dir);
  assert_non_null(stream);
  int count = 0;
  for (struct dirent* entry; (entry = readdir(stream));) {
    count += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
  }
  closedir(stream);
  return count;
}

// Entries of rl_dir whose name carries the temporary marker.
static int rl_temp_count(void) {
  DIR* stream = opendir(rl_dir);
  assert_non_null(stream);
  int count = 0;
  for (struct dirent* entry; (entry = readdir(stream));) {
    count += strstr(entry->d_name, RL_OUTPUT_FILE_TEMP_MARKER) != NULL;
  }
  closedir(stream);
  return count;
}

static void rl_expect_ok(const char* path, const char* text) {
  rl_status_t status = rl_output_file_write(path, text, strlen(text));
  if (status) fail_msg("write %s: %s", path, rl_status_message(status));
}

// Expects |code| with a message containing |needle|.
static void rl_expect_error(const char* path, rl_status_code_t code,
                            const char* needle) {
  rl_status_t status = rl_output_file_write(path, "new", 3);
  if (rl_status_code(status) != code ||
      !strstr(rl_status_message(status), needle)) {
    fail_msg("write %s: expected code %d with '%s', got %s", path, (int)code,
             needle, status ? rl_status_message(status) : "OK");
  }
  rl_status_free(status);
}

static void test_new_file_mode_follows_umask(void** state) {
  (void)state;
  mode_t saved = umask(022);
  rl_expect_ok(rl_path("a.json"), "new");
  assert_true(rl_mode_is(rl_path("a.json"), 0644));
  umask(027);
  rl_expect_ok(rl_path("b.json"), "new");
  assert_true(rl_mode_is(rl_path("b.json"), 0640));
  umask(saved);
  // Negative control: mkstemp's 0600, the old writer's mode, is caught.
  char control[512];
  snprintf(control, sizeof(control), "%s/control.XXXXXX", rl_dir);
  int fd = mkstemp(control);
  assert_true(fd >= 0);
  close(fd);
  assert_false(rl_mode_is(control, 0644));
  assert_int_equal(rl_temp_count(), 0);
}

static void test_replace_keeps_mode_and_is_atomic(void** state) {
  (void)state;
  const mode_t modes[] = {0644, 0640, 0600, 0755};
  for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); ++i) {
    const char* path = rl_path("keep.rlc");
    rl_put(path, "old", modes[i]);
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);
    rl_expect_ok(path, "new contents");
    assert_int_equal(stat(path, &after), 0);
    assert_true(rl_holds(path, "new contents"));
    assert_true(rl_mode_is(path, modes[i]));
    // A rename, not a rewrite in place: a reader of the old file kept it.
    assert_true(before.st_ino != after.st_ino);
  }
  // Negative controls: the content and mode checkers can fail.
  rl_put(rl_path("control"), "old", 0600);
  assert_false(rl_mode_is(rl_path("control"), 0640));
  assert_false(rl_holds(rl_path("control"), "new contents"));
  assert_int_equal(rl_temp_count(), 0);
}

static bool rl_is_link_to(const char* link, const char* text) {
  struct stat st;
  char target[512] = {0};
  return lstat(link, &st) == 0 && S_ISLNK(st.st_mode) &&
         readlink(link, target, sizeof(target) - 1) == (ssize_t)strlen(text) &&
         strcmp(target, text) == 0;
}

static void test_symlink_target_replaced_link_kept(void** state) {
  (void)state;
  rl_put(rl_path("run-42.json"), "old", 0640);
  assert_int_equal(symlink("run-42.json", rl_path("latest.json")), 0);
  rl_expect_ok(rl_path("latest.json"), "new");
  assert_true(rl_is_link_to(rl_path("latest.json"), "run-42.json"));
  assert_true(rl_holds(rl_path("run-42.json"), "new"));
  assert_true(rl_mode_is(rl_path("run-42.json"), 0640));
  // A chain through an absolute link, and a dangling link creating its target.
  assert_int_equal(symlink(rl_path("latest.json"), rl_path("chain.json")), 0);
  rl_expect_ok(rl_path("chain.json"), "chained");
  assert_true(rl_holds(rl_path("run-42.json"), "chained"));
  assert_true(rl_is_link_to(rl_path("latest.json"), "run-42.json"));
  assert_int_equal(symlink("fresh.json", rl_path("dangling.json")), 0);
  rl_expect_ok(rl_path("dangling.json"), "fresh");
  assert_true(rl_is_link_to(rl_path("dangling.json"), "fresh.json"));
  assert_true(rl_holds(rl_path("fresh.json"), "fresh"));
  // A loop is an error and creates nothing.
  assert_int_equal(symlink("loop-b", rl_path("loop-a")), 0);
  assert_int_equal(symlink("loop-a", rl_path("loop-b")), 0);
  int entries = rl_entry_count();
  rl_expect_error(rl_path("loop-a"), RL_STATUS_IO, "symbolic links");
  assert_int_equal(rl_entry_count(), entries);
  // Negative control: a regular file is not a link.
  assert_false(rl_is_link_to(rl_path("run-42.json"), "run-42.json"));
  assert_int_equal(rl_temp_count(), 0);
}

static void rl_on_alarm(int signal_number) {
  (void)signal_number;
  static const char message[] = "output_file_test: a FIFO write hung\n";
  (void)!write(2, message, sizeof(message) - 1);
  _exit(1);
}

static void test_fifo_written_in_place_never_hangs(void** state) {
  (void)state;
  const char* fifo = rl_path("fifo");
  assert_int_equal(mkfifo(fifo, 0600), 0);
  signal(SIGALRM, rl_on_alarm);
  alarm(10);
  rl_expect_error(fifo, RL_STATUS_IO, "has no reader");
  struct stat st;
  assert_int_equal(lstat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  assert_int_equal(rl_entry_count(), 1);
  // With a reader the bytes go through the FIFO.
  int reader = open(fifo, O_RDONLY | O_NONBLOCK);
  assert_true(reader >= 0);
  rl_expect_ok(fifo, "through");
  char buffer[16] = {0};
  assert_int_equal(read(reader, buffer, sizeof(buffer)), 7);
  assert_string_equal(buffer, "through");
  close(reader);
  alarm(0);
  assert_int_equal(lstat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  assert_int_equal(rl_entry_count(), 1);
  // Negative control: the entry count sees a stray file.
  rl_put(rl_path("stray"), "x", 0644);
  assert_int_equal(rl_entry_count(), 2);
}

static void rl_expect_char_device(const char* path, const struct stat* before) {
  struct stat after;
  assert_int_equal(lstat(path, &after), 0);
  assert_true(S_ISCHR(after.st_mode));
  assert_int_equal(after.st_rdev, before->st_rdev);
  assert_int_equal(after.st_ino, before->st_ino);
}

// A private twin of the device |system_path| in rl_dir (mknod with the same
// device number), so a broken writer running as root damages the twin and
// never the system's /dev/null. Without the privilege to mknod the system
// path is used: then no broken writer could rename over it either.
static const char* rl_device_twin(const char* system_path, const char* name) {
  struct stat st;
  if (lstat(system_path, &st) != 0 || !S_ISCHR(st.st_mode)) return NULL;
  const char* twin = rl_path(name);
  return mknod(twin, S_IFCHR | 0666, st.st_rdev) == 0 ? twin : system_path;
}

static void test_char_devices_written_in_place(void** state) {
  (void)state;
  const char* null_path = rl_device_twin("/dev/null", "null");
  const char* full_path = rl_device_twin("/dev/full", "full");
  assert_non_null(null_path);
  struct stat null_device, full_device;
  assert_int_equal(lstat(null_path, &null_device), 0);
  rl_expect_ok(null_path, "discarded");
  rl_expect_char_device(null_path, &null_device);
  if (full_path) {
    assert_int_equal(lstat(full_path, &full_device), 0);
    rl_expect_error(full_path, RL_STATUS_IO, "No space left on device");
    rl_expect_char_device(full_path, &full_device);
  }
  // A link to a device writes the device.
  assert_int_equal(symlink(null_path, rl_path("null-link")), 0);
  rl_expect_ok(rl_path("null-link"), "discarded");
  assert_true(rl_is_link_to(rl_path("null-link"), null_path));
  rl_expect_char_device(null_path, &null_device);
  // Negative control: a regular file fails the device check's first test.
  struct stat st;
  rl_put(rl_path("plain"), "x", 0644);
  assert_int_equal(lstat(rl_path("plain"), &st), 0);
  assert_false(S_ISCHR(st.st_mode));
  assert_int_equal(rl_temp_count(), 0);
}

static void test_fd_aliases_write_the_descriptor(void** state) {
  (void)state;
  const char* path = rl_path("redirected.txt");
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "head ", 5), 5);
  struct stat before, after;
  assert_int_equal(fstat(fd, &before), 0);
  char alias[64];
  snprintf(alias, sizeof(alias), "/dev/fd/%d", fd);
  rl_expect_ok(alias, "tail");
  snprintf(alias, sizeof(alias), "/proc/self/fd/%d", fd);
  rl_expect_ok(alias, "!");
  close(fd);
  assert_true(rl_holds(path, "head tail!"));
  assert_int_equal(stat(path, &after), 0);
  assert_int_equal(after.st_ino, before.st_ino);
  rl_expect_error("/dev/fd/987", RL_STATUS_IO, "Bad file descriptor");
}

static void test_directory_socket_and_empty_refused(void** state) {
  (void)state;
  assert_int_equal(mkdir(rl_path("sub"), 0755), 0);
  rl_expect_error(rl_path("sub"), RL_STATUS_IO, "is a directory");
  rl_expect_error(rl_dir, RL_STATUS_IO, "is a directory");
  int server = socket(AF_UNIX, SOCK_STREAM, 0);
  assert_true(server >= 0);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  snprintf(address.sun_path, sizeof(address.sun_path), "%s", rl_path("sock"));
  assert_int_equal(bind(server, (struct sockaddr*)&address, sizeof(address)), 0);
  rl_expect_error(rl_path("sock"), RL_STATUS_IO, "is a socket");
  struct stat st;
  assert_int_equal(lstat(rl_path("sock"), &st), 0);
  assert_true(S_ISSOCK(st.st_mode));
  close(server);
  rl_expect_error("", RL_STATUS_INVALID_ARGUMENT, "empty");
  char missing[600];
  snprintf(missing, sizeof(missing), "%s/nope/x.json", rl_dir);
  rl_expect_error(missing, RL_STATUS_IO, "No such file or directory");
  assert_int_equal(rl_temp_count(), 0);
}

static void rl_expect_refused(const char* output, const char* input) {
  rl_status_t status = rl_output_file_check_not_input(output, input);
  if (rl_status_code(status) != RL_STATUS_INVALID_ARGUMENT ||
      !strstr(rl_status_message(status), "is the input")) {
    fail_msg("%s as output of %s: expected a refusal, got %s", output, input,
             status ? rl_status_message(status) : "OK");
  }
  rl_status_free(status);
}

static void test_output_equal_to_input_refused(void** state) {
  (void)state;
  char input[512];
  snprintf(input, sizeof(input), "%s", rl_path("in.rlc"));
  rl_put(input, "capture", 0644);
  assert_int_equal(link(input, rl_path("hard.rlc")), 0);
  assert_int_equal(symlink("in.rlc", rl_path("soft.rlc")), 0);
  rl_expect_refused(input, input);
  rl_expect_refused(rl_path("hard.rlc"), input);
  rl_expect_refused(rl_path("soft.rlc"), input);
  rl_expect_refused(input, rl_path("soft.rlc"));
  char dotted[600];
  snprintf(dotted, sizeof(dotted), "%s/./sub/../in.rlc", rl_dir);
  mkdir(rl_path("sub"), 0755);
  rl_expect_refused(dotted, input);
  int fd = open(input, O_RDONLY);
  char alias[64];
  snprintf(alias, sizeof(alias), "/dev/fd/%d", fd);
  rl_expect_refused(alias, input);
  close(fd);
  // Negative controls: other files, new files and /dev/null pass.
  rl_put(rl_path("other.rlc"), "capture", 0644);
  assert_null(rl_output_file_check_not_input(rl_path("other.rlc"), input));
  assert_null(rl_output_file_check_not_input(rl_path("new.json"), input));
  assert_null(rl_output_file_check_not_input("/dev/null", input));
  assert_null(rl_output_file_check_not_input(input, rl_path("missing.rlc")));
  assert_true(rl_holds(input, "capture"));
}

// A PID that is certainly not alive: a child that has exited and was reaped.
static pid_t rl_dead_pid(void) {
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) _exit(0);
  assert_int_equal(waitpid(pid, NULL, 0), pid);
  return pid;
}

// Creates the temporary-like file |name| in rl_dir, |age| seconds old.
static void rl_plant(const char* name, int age) {
  const char* path = rl_path(name);
  rl_put(path, "partial", 0600);
  struct timespec times[2];
  clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= age;
  times[1] = times[0];
  assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

static bool rl_exists(const char* name) {
  struct stat st;
  return lstat(rl_path(name), &st) == 0;
}

static void test_stale_temporaries_swept(void** state) {
  (void)state;
  long dead = rl_dead_pid(), live = getppid(), self = getpid();
  char stale[96], fresh[96], alive[96], mine[96], odd[96];
  snprintf(stale, sizeof(stale), ".out.json.redline-tmp.%ld.Ab3xY9", dead);
  snprintf(fresh, sizeof(fresh), ".out.json.redline-tmp.%ld.Cd4zW8", dead);
  snprintf(alive, sizeof(alive), ".out.json.redline-tmp.%ld.Ef5vU7", live);
  snprintf(mine, sizeof(mine), ".out.json.redline-tmp.%ld.Gh6tS6", self);
  snprintf(odd, sizeof(odd), "out.json.redline-tmp.%ld.Ij7rQ5", dead);
  rl_plant(stale, 120);
  rl_plant(fresh, 5);
  rl_plant(alive, 120);
  rl_plant(mine, 120);
  rl_plant(odd, 120);
  // Negative control: before the write every planted file is there.
  assert_true(rl_exists(stale));
  assert_int_equal(rl_temp_count(), 5);
  rl_expect_ok(rl_path("out.json"), "new");
  assert_false(rl_exists(stale));
  assert_true(rl_exists(fresh));
  assert_true(rl_exists(alive));
  assert_true(rl_exists(mine));
  assert_true(rl_exists(odd));
}

// The child's hook: reports the temporary's path on |rl_hook_pipe| and
// waits to be killed.
static int rl_hook_pipe = -1;
static void rl_stop_in_write(const char* temp_path) {
  (void)!write(rl_hook_pipe, temp_path, strlen(temp_path) + 1);
  for (;;) pause();
}

// Forks a writer of rl_dir/victim.json stopped mid-write, kills it with
// |signal_number|, and returns the temporary's path in |out_temp|.
static void rl_kill_mid_write(int signal_number, char out_temp[512]) {
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    rl_hook_pipe = fds[1];
    // A test runner may start tests with SIGINT ignored; the writer must see
    // the defaults a command-line tool normally has.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    rl_output_file_set_test_hook(rl_stop_in_write);
    rl_output_file_write(rl_path("victim.json"), "partial", 7);
    _exit(3);  // Not reached: the hook never returns.
  }
  close(fds[1]);
  memset(out_temp, 0, 512);
  ssize_t got = read(fds[0], out_temp, 511);
  close(fds[0]);
  assert_true(got > 0);
  struct stat st;
  // The temporary exists while the writer is stopped: the check below sees it.
  assert_int_equal(lstat(out_temp, &st), 0);
  assert_int_equal(kill(pid, signal_number), 0);
  int wait_status = 0;
  assert_int_equal(waitpid(pid, &wait_status, 0), pid);
  assert_true(WIFSIGNALED(wait_status));
  assert_int_equal(WTERMSIG(wait_status), signal_number);
}

static void test_signal_mid_write_leaves_no_temporary(void** state) {
  (void)state;
  rl_put(rl_path("victim.json"), "old", 0644);
  char temp[512];
  const int signals[] = {SIGTERM, SIGINT, SIGHUP};
  for (size_t i = 0; i < 3; ++i) {
    rl_kill_mid_write(signals[i], temp);
    assert_int_equal(rl_temp_count(), 0);
    assert_true(rl_holds(rl_path("victim.json"), "old"));
  }
  // Negative control: SIGKILL cannot be caught; the temporary stays ...
  rl_kill_mid_write(SIGKILL, temp);
  assert_int_equal(rl_temp_count(), 1);
  assert_true(rl_holds(rl_path("victim.json"), "old"));
  // ... until a later write in the directory sweeps it once it is stale.
  rl_expect_ok(rl_path("other.json"), "x");
  assert_int_equal(rl_temp_count(), 1);
  struct timespec times[2] = {{.tv_sec = time(NULL) - 3600}, {.tv_sec = time(NULL) - 3600}};
  assert_int_equal(utimensat(AT_FDCWD, temp, times, 0), 0);
  rl_expect_ok(rl_path("other.json"), "y");
  assert_int_equal(rl_temp_count(), 0);
}

// The hook run in-process: records the dispositions during the write.
static struct sigaction rl_seen_term, rl_seen_hup;
static void rl_record_dispositions(const char* temp_path) {
  (void)temp_path;
  sigaction(SIGTERM, NULL, &rl_seen_term);
  sigaction(SIGHUP, NULL, &rl_seen_hup);
}

static void test_handlers_only_during_the_write(void** state) {
  (void)state;
  void (*saved_hup)(int) = signal(SIGHUP, SIG_IGN);
  void (*saved_term)(int) = signal(SIGTERM, SIG_DFL);
  rl_output_file_set_test_hook(rl_record_dispositions);
  rl_expect_ok(rl_path("h.json"), "x");
  rl_output_file_set_test_hook(NULL);
  // During the write: SIGTERM handled, the ignored SIGHUP left ignored.
  assert_true(rl_seen_term.sa_handler != SIG_DFL);
  assert_true(rl_seen_hup.sa_handler == SIG_IGN);
  // After it: the previous dispositions are back.
  struct sigaction now;
  sigaction(SIGTERM, NULL, &now);
  assert_true(now.sa_handler == SIG_DFL);
  sigaction(SIGHUP, NULL, &now);
  assert_true(now.sa_handler == SIG_IGN);
  signal(SIGHUP, saved_hup);
  signal(SIGTERM, saved_term);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_new_file_mode_follows_umask, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_replace_keeps_mode_and_is_atomic, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_symlink_target_replaced_link_kept, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_fifo_written_in_place_never_hangs, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_char_devices_written_in_place, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_fd_aliases_write_the_descriptor, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_directory_socket_and_empty_refused, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_output_equal_to_input_refused, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_stale_temporaries_swept, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_signal_mid_write_leaves_no_temporary, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(test_handlers_only_during_the_write, rl_setup, rl_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
