// tests/support/test_support.h — helpers shared by the cmocka tests. Every
// helper asserts (cmocka) instead of returning errors: a test that cannot
// read its fixture fails right there.
#ifndef REDLINE_TESTS_SUPPORT_TEST_SUPPORT_H_
#define REDLINE_TESTS_SUPPORT_TEST_SUPPORT_H_

#include <stddef.h>

// Reads the whole (non-empty) file at |path| into a malloc'd buffer;
// *|out_size| is its length. The caller frees the buffer.
void* rl_test_read_file(const char* path, size_t* out_size);

#endif  // REDLINE_TESTS_SUPPORT_TEST_SUPPORT_H_
