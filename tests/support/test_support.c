#include "tests/support/test_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

void* rl_test_read_file(const char* path, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (!file) fprintf(stderr, "cannot open test fixture %s\n", path);
  assert_non_null(file);
  assert_int_equal(fseek(file, 0, SEEK_END), 0);
  long size = ftell(file);
  assert_true(size > 0);
  rewind(file);
  void* bytes = malloc((size_t)size);
  assert_non_null(bytes);
  assert_int_equal(fread(bytes, 1, (size_t)size, file), (size_t)size);
  fclose(file);
  *out_size = (size_t)size;
  return bytes;
}
