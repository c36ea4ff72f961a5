// tests/support/test_support.h — helpers shared by the cmocka tests. Every
// helper asserts (cmocka) instead of returning errors: a test that cannot
// read its fixture fails right there.
#ifndef REDLINE_TESTS_SUPPORT_TEST_SUPPORT_H_
#define REDLINE_TESTS_SUPPORT_TEST_SUPPORT_H_

#include <stddef.h>

// Reads the whole (non-empty) file at |path| into a malloc'd buffer;
// *|out_size| is its length. The caller frees the buffer.
void* rl_test_read_file(const char* path, size_t* out_size);

// The number of threads of this process (Linux: entries of
// /proc/self/task), for tests that prove a thread was joined.
int rl_test_thread_count(void);

#include <stdbool.h>

// Runs `[ENV] REDLINE ARGS` through the shell with stdout and stderr
// redirected to DIR/out.txt and DIR/err.txt. Returns the exit code, or -1
// when the process did not exit normally. |env| may be NULL.
int rl_test_run_cli(const char* redline, const char* dir, const char* env,
                    const char* args);

// DIR/NAME as a NUL-terminated malloc'd string (may be empty);
// *|out_size| (optional) is its length without the NUL.
char* rl_test_slurp(const char* dir, const char* name, size_t* out_size);

// True when DIR/NAME contains |needle|; prints the file on stderr otherwise.
bool rl_test_file_has(const char* dir, const char* name, const char* needle);

// The lines of DIR/NAME that start with |prefix|, each with its newline,
// concatenated into a malloc'd string (empty when none match). Used to
// compare the "region NAME HEX" lines of two replays.
char* rl_test_lines_with_prefix(const char* dir, const char* name,
                                const char* prefix);

#endif  // REDLINE_TESTS_SUPPORT_TEST_SUPPORT_H_
