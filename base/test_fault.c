// Test-only fault injection (base/test_fault.h).
#include "base/test_fault.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"

#define RL_TEST_FAULT_MAX 4u
#define RL_TEST_FAULT_TEXT 128u

typedef struct rl_test_fault_entry_s {
  const char* name;
  bool indexed;
  uint32_t index;
} rl_test_fault_entry_t;

static pthread_once_t rl_test_fault_once = PTHREAD_ONCE_INIT;
static char rl_test_fault_text[RL_TEST_FAULT_TEXT];
static char rl_test_fault_names[RL_TEST_FAULT_TEXT];
static rl_test_fault_entry_t rl_test_fault_entries[RL_TEST_FAULT_MAX];
static uint32_t rl_test_fault_count;

// Parses one NAME[:INDEX] in place; false when malformed.
static bool rl_test_fault_parse(char* item, rl_test_fault_entry_t* out) {
  char* colon = strchr(item, ':');
  *out = (rl_test_fault_entry_t){.name = item};
  if (!colon) return item[0] != '\0';
  *colon = '\0';
  uint64_t index = 0;
  rl_status_t status = rl_number_parse_u64(colon + 1, &index);
  if (status || index > UINT32_MAX || item[0] == '\0') {
    rl_status_free(status);
    return false;
  }
  out->indexed = true;
  out->index = (uint32_t)index;
  return true;
}

// Parses NAME[:INDEX][,NAME[:INDEX]]...; anything malformed leaves every
// fault off.
static void rl_test_fault_load(void) {
  const char* text = getenv("REDLINE_TEST_FAULT");
  if (!text || strlen(text) >= sizeof(rl_test_fault_names)) return;
  strcpy(rl_test_fault_names, text);
  uint32_t count = 0;
  char* save = NULL;
  for (char* item = strtok_r(rl_test_fault_names, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    if (count == RL_TEST_FAULT_MAX ||
        !rl_test_fault_parse(item, &rl_test_fault_entries[count])) {
      return;
    }
    ++count;
  }
  rl_test_fault_count = count;
  if (count) strcpy(rl_test_fault_text, text);
}

const char* rl_test_fault_name(void) {
  pthread_once(&rl_test_fault_once, rl_test_fault_load);
  return rl_test_fault_text;
}

bool rl_test_fault(const char* name, uint32_t index) {
  pthread_once(&rl_test_fault_once, rl_test_fault_load);
  for (uint32_t i = 0; i < rl_test_fault_count; ++i) {
    const rl_test_fault_entry_t* e = &rl_test_fault_entries[i];
    if (strcmp(e->name, name) == 0 && (!e->indexed || e->index == index)) {
      return true;
    }
  }
  return false;
}
