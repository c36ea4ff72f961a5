// The CLI's status -> exit code mapping (tools/exit_code.h), against the
// table users read (docs/cli.md "Exit codes"): every status code has an exit
// code the table lists, the classes the table keeps apart stay apart, and
// the table lists no code the CLI cannot produce. The checker is also run on
// broken mappings (a merged class, a forgotten status, an undocumented code)
// and must reject each: the negative controls.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redline/status.h"
#include "tools/exit_code.h"

typedef rl_exit_code_t (*rl_mapping_fn)(rl_status_code_t code);

// The status codes of redline/status.h: a name other than "UNKNOWN".
enum { RL_TEST_MAX_STATUS = 64 };

// The exit codes docs/cli.md lists (the first column of the "Exit codes"
// table), into |codes|; returns how many.
static int rl_documented_exit_codes(int* codes, int capacity) {
  FILE* file = fopen(RL_SOURCE_DIR "/docs/cli.md", "r");
  if (!file) fail_msg("cannot open docs/cli.md");
  char line[1024];
  bool in_section = false;
  int count = 0;
  while (fgets(line, sizeof(line), file)) {
    if (strncmp(line, "## ", 3) == 0) in_section = strcmp(line, "## Exit codes\n") == 0;
    int code;
    char rest[8];
    if (in_section && sscanf(line, "| %d |%7s", &code, rest) == 2 &&
        count < capacity) {
      codes[count++] = code;
    }
  }
  fclose(file);
  return count;
}

static bool rl_contains(const int* codes, int count, int code) {
  for (int i = 0; i < count; ++i) {
    if (codes[i] == code) return true;
  }
  return false;
}

// What the documentation promises about |mapping|, or NULL when it holds:
// every named status maps to a documented code, OK alone maps to 0, the
// documented classes are distinct (each documented code is produced by some
// status), and the classes the table names apart are apart.
static const char* rl_mapping_problem(rl_mapping_fn mapping, char* why,
                                      size_t size) {
  int documented[32];
  int count = rl_documented_exit_codes(documented, 32);
  if (count < 10) return "docs/cli.md lists fewer than 10 exit codes";
  bool produced[256] = {false};
  for (int c = 0; c < RL_TEST_MAX_STATUS; ++c) {
    rl_status_code_t code = (rl_status_code_t)c;
    if (strcmp(rl_status_code_name(code), "UNKNOWN") == 0) continue;
    int exit_code = (int)mapping(code);
    if (!rl_contains(documented, count, exit_code)) {
      snprintf(why, size, "status %s maps to exit %d, which docs/cli.md "
               "does not list", rl_status_code_name(code), exit_code);
      return why;
    }
    if ((exit_code == 0) != (code == RL_STATUS_OK)) {
      snprintf(why, size, "status %s maps to exit %d",
               rl_status_code_name(code), exit_code);
      return why;
    }
    if (code != RL_STATUS_INTERNAL && exit_code == RL_EXIT_INTERNAL) {
      snprintf(why, size, "status %s has no exit code of its own (internal)",
               rl_status_code_name(code));
      return why;
    }
    if (exit_code >= 0 && exit_code < 256) produced[exit_code] = true;
  }
  for (int i = 0; i < count; ++i) {
    if (!produced[documented[i]]) {
      snprintf(why, size, "docs/cli.md lists exit %d but no status maps "
               "to it", documented[i]);
      return why;
    }
  }
  return NULL;
}

static void exit_codes_cover_every_status_with_a_documented_code(void** state) {
  (void)state;
  char why[256];
  const char* problem = rl_mapping_problem(rl_exit_code_of, why, sizeof(why));
  if (problem) fail_msg("%s", problem);
}

// The table of docs/cli.md, row by row: the numbers users script against.
static void exit_codes_are_the_documented_numbers(void** state) {
  (void)state;
  static const struct {
    rl_status_code_t code;
    int exit_code;
  } table[] = {
      {RL_STATUS_OK, 0},          {RL_STATUS_MISMATCH, 1},
      {RL_STATUS_INVALID_ARGUMENT, 2}, {RL_STATUS_INVALID_INPUT, 3},
      {RL_STATUS_UNSUPPORTED, 3}, {RL_STATUS_IO, 3},
      {RL_STATUS_NOT_FOUND, 3},   {RL_STATUS_CONTRACT, 4},
      {RL_STATUS_PREPARE, 5},     {RL_STATUS_POISONED, 6},
      {RL_STATUS_QUARANTINED, 7}, {RL_STATUS_UNAVAILABLE, 8},
      {RL_STATUS_OUT_OF_MEMORY, 8}, {RL_STATUS_INTERNAL, 70},
  };
  int named = 0;
  for (int c = 0; c < RL_TEST_MAX_STATUS; ++c) {
    named += strcmp(rl_status_code_name((rl_status_code_t)c), "UNKNOWN") != 0;
  }
  assert_int_equal(named, (int)(sizeof(table) / sizeof(table[0])));
  for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i) {
    assert_int_equal(rl_exit_code_of(table[i].code), table[i].exit_code);
  }
}

static void exit_code_of_an_unknown_status_is_internal(void** state) {
  (void)state;
  assert_int_equal(rl_exit_code_of((rl_status_code_t)RL_TEST_MAX_STATUS),
                   RL_EXIT_INTERNAL);
}

// Broken mappings the checker must reject.
static rl_exit_code_t rl_merges_contract_into_prepare(rl_status_code_t code) {
  return code == RL_STATUS_CONTRACT ? RL_EXIT_PREPARE : rl_exit_code_of(code);
}
static rl_exit_code_t rl_forgets_not_found(rl_status_code_t code) {
  return code == RL_STATUS_NOT_FOUND ? RL_EXIT_INTERNAL : rl_exit_code_of(code);
}
static rl_exit_code_t rl_invents_exit_9(rl_status_code_t code) {
  return code == RL_STATUS_UNSUPPORTED ? (rl_exit_code_t)9
                                       : rl_exit_code_of(code);
}
static rl_exit_code_t rl_fails_with_zero(rl_status_code_t code) {
  return code == RL_STATUS_IO ? RL_EXIT_OK : rl_exit_code_of(code);
}

static void exit_code_checker_rejects_broken_mappings(void** state) {
  (void)state;
  char why[256];
  const rl_mapping_fn broken[] = {rl_merges_contract_into_prepare,
                                  rl_forgets_not_found, rl_invents_exit_9,
                                  rl_fails_with_zero};
  for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); ++i) {
    assert_non_null(rl_mapping_problem(broken[i], why, sizeof(why)));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(exit_codes_cover_every_status_with_a_documented_code),
      cmocka_unit_test(exit_codes_are_the_documented_numbers),
      cmocka_unit_test(exit_code_of_an_unknown_status_is_internal),
      cmocka_unit_test(exit_code_checker_rejects_broken_mappings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
