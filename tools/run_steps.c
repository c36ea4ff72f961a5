// The step of a program's launch sequence (tools/run_steps.h).
#include "tools/run_steps.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/step_split.h"
#include "tools/exit_code.h"

// The survey's signatures (one hex number a line) into *|out_items|.
static int rl_run_steps_read(const char* path, uint64_t** out_items,
                             uint32_t* out_count) {
  *out_items = NULL;
  *out_count = 0;
  FILE* file = fopen(path, "r");
  if (!file) {
    fprintf(stderr, "redline: run: the survey run left no launch list "
            "(%s: %s): did the program make HIP calls?\n", path,
            strerror(errno));
    return RL_EXIT_INVALID_INPUT;
  }
  uint32_t capacity = 0;
  char line[64];
  int code = RL_EXIT_OK;
  while (!code && fgets(line, sizeof(line), file)) {
    if (*out_count == capacity) {
      capacity = capacity ? capacity * 2 : 1024;
      uint64_t* grown = realloc(*out_items, capacity * sizeof(uint64_t));
      if (!grown || capacity > (1u << 24)) {
        free(grown);
        *out_items = NULL;
        fprintf(stderr, "redline: run: survey too long (%u items)\n",
                *out_count);
        code = RL_EXIT_UNAVAILABLE;
        break;
      }
      *out_items = grown;
    }
    (*out_items)[(*out_count)++] = strtoull(line, NULL, 16);
  }
  fclose(file);
  return code;
}

int rl_run_steps_plan(const char* path, uint64_t skip, uint64_t steps,
                      char* window, size_t window_size, char* period,
                      size_t period_size) {
  uint64_t* items = NULL;
  uint32_t count = 0;
  int code = rl_run_steps_read(path, &items, &count);
  if (code) return code;
  uint32_t offset = 0, length = 0, repeats = 0;
  rl_status_t status =
      rl_step_period(items, count, &offset, &length, &repeats);
  free(items);
  if (status) {
    fprintf(stderr, "redline: run: --steps: %s\n", rl_status_message(status));
    rl_status_free(status);
    return RL_EXIT_CONTRACT;
  }
  fprintf(stderr, "redline run: the step is %u launches, copies and fills "
          "long, from item %u of %u, and repeats %u times\n", length,
          offset, count, repeats);
  if (skip + steps > repeats) {
    fprintf(stderr, "redline: run: --skip-steps %" PRIu64 " --steps %"
            PRIu64 " needs %" PRIu64 " steps, the program ran %u (name the "
            "step's first kernel with --step-start to cut it there)\n", skip,
            steps, skip + steps, repeats);
    return RL_EXIT_CONTRACT;
  }
  snprintf(window, window_size, "items:%" PRIu64 ":%" PRIu64,
           (uint64_t)offset + skip * length, steps * length);
  snprintf(period, period_size, "%u", length);
  return RL_EXIT_OK;
}
