#include "tests/support/test_support.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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

int rl_test_run_cli(const char* redline, const char* dir, const char* env,
                    const char* args) {
  size_t length = strlen(redline) + strlen(args) + 2 * strlen(dir) +
                  (env ? strlen(env) : 0) + 64;
  char* command = malloc(length);
  assert_non_null(command);
  snprintf(command, length, "%s %s %s >%s/out.txt 2>%s/err.txt",
           env ? env : "", redline, args, dir, dir);
  int status = system(command);
  free(command);
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

char* rl_test_slurp(const char* dir, const char* name, size_t* out_size) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE* file = fopen(path, "rb");
  if (!file) fprintf(stderr, "cannot open %s\n", path);
  assert_non_null(file);
  assert_int_equal(fseek(file, 0, SEEK_END), 0);
  long size = ftell(file);
  assert_true(size >= 0);
  rewind(file);
  char* text = malloc((size_t)size + 1);
  assert_non_null(text);
  assert_int_equal(fread(text, 1, (size_t)size, file), (size_t)size);
  text[size] = '\0';
  fclose(file);
  if (out_size) *out_size = (size_t)size;
  return text;
}

bool rl_test_file_has(const char* dir, const char* name, const char* needle) {
  char* text = rl_test_slurp(dir, name, NULL);
  bool found = strstr(text, needle) != NULL;
  if (!found) fprintf(stderr, "%s/%s lacks '%s'; it was:\n%s\n", dir, name,
                      needle, text);
  free(text);
  return found;
}

char* rl_test_lines_with_prefix(const char* dir, const char* name,
                                const char* prefix) {
  char* text = rl_test_slurp(dir, name, NULL);
  char* lines = calloc(1, strlen(text) + 1);
  assert_non_null(lines);
  size_t prefix_length = strlen(prefix);
  for (char* line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (strncmp(line, prefix, prefix_length) == 0) {
      strcat(lines, line);
      strcat(lines, "\n");
    }
  }
  free(text);
  return lines;
}

int rl_test_thread_count(void) {
  DIR* dir = opendir("/proc/self/task");
  if (dir == NULL) fail_msg("cannot list /proc/self/task");
  int count = 0;
  for (struct dirent* entry; (entry = readdir(dir)) != NULL;) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(dir);
  return count;
}
