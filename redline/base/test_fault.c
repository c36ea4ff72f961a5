// redline/base/test_fault.c — REDLINE_TEST_FAULT parsing (test_fault.h).
#include "redline/base/test_fault.h"

#include <stdlib.h>
#include <string.h>

bool rl_test_fault(const char* name, uint32_t* out_index) {
  *out_index = 0;
  const char* text = getenv("REDLINE_TEST_FAULT");
  size_t length = strlen(name);
  while (text && *text) {
    const char* end = strchr(text, ',');
    if (!end) end = text + strlen(text);
    if ((size_t)(end - text) > length + 1 && strncmp(text, name, length) == 0 &&
        text[length] == ':') {
      char* stop = NULL;
      unsigned long value = strtoul(text + length + 1, &stop, 10);
      if (strncmp(text + length + 1, "all", 3) == 0) {
        stop = (char*)text + length + 4;
        value = UINT32_MAX;
      }
      if (stop == end && value <= UINT32_MAX) {
        *out_index = (uint32_t)value;
        return true;
      }
    }
    text = *end ? end + 1 : end;
  }
  return false;
}
