// The step of a program's launch sequence (tools/run_steps.h).
#include "tools/run_steps.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/recording/step_split.h"
#include "tools/exit_code.h"

// Annotated step begins kept from a survey (more are ignored).
#define RL_RUN_STEPS_BEGIN_MAX 16384

// The survey's signatures (one hex number a line) into *|out_items|; the
// item indices of its "step" lines (annotated step begins) into
// *|out_begins| (at most |begin_max|, *|out_begin_count| of them).
static int rl_run_steps_read(const char* path, uint64_t** out_items,
                             uint32_t* out_count, uint32_t* out_begins,
                             uint32_t begin_max, uint32_t* out_begin_count) {
  *out_items = NULL;
  *out_count = 0;
  *out_begin_count = 0;
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
    if (strcmp(line, "step\n") == 0) {
      if (*out_begin_count < begin_max) {
        out_begins[(*out_begin_count)++] = *out_count;
      }
      continue;
    }
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

// The step cut at the annotated step begins (redline/annotate.h): steps
// |skip| .. |skip| + |steps| - 1 must exist and be equally long.
static int rl_run_steps_annotated(const uint32_t* begins, uint32_t count,
                                  uint32_t items, uint64_t skip,
                                  uint64_t steps, char* window,
                                  size_t window_size, char* period,
                                  size_t period_size) {
  if (skip + steps > count) {
    fprintf(stderr, "redline: run: --skip-steps %" PRIu64 " --steps %"
            PRIu64 " needs %" PRIu64 " annotated steps, the program began "
            "%u (redline_step_begin)\n", skip, steps, skip + steps, count);
    return RL_EXIT_CONTRACT;
  }
  uint32_t length = 0;
  for (uint64_t k = skip; k < skip + steps; ++k) {
    uint32_t end = k + 1 < count ? begins[k + 1] : items;
    uint32_t size = end - begins[k];
    if (k == skip) length = size;
    if (size != length || !size) {
      fprintf(stderr, "redline: run: --steps: annotated step %" PRIu64
              " is %u launches, copies and fills long, step %" PRIu64
              " %u (steps of unequal length)\n", k, size, skip, length);
      return RL_EXIT_CONTRACT;
    }
  }
  fprintf(stderr, "redline run: the step is %u launches, copies and fills "
          "long, from the annotated step begins (step %" PRIu64
          " at item %u of %u)\n", length, skip, begins[skip], items);
  snprintf(window, window_size, "items:%u:%" PRIu64, begins[skip],
           steps * length);
  snprintf(period, period_size, "%u", length);
  return RL_EXIT_OK;
}

int rl_run_steps_plan(const char* path, uint64_t skip, uint64_t steps,
                      char* window, size_t window_size, char* period,
                      size_t period_size) {
  uint64_t* items = NULL;
  uint32_t count = 0, begin_count = 0;
  uint32_t begins[RL_RUN_STEPS_BEGIN_MAX];
  int code = rl_run_steps_read(path, &items, &count, begins,
                               RL_RUN_STEPS_BEGIN_MAX, &begin_count);
  if (code) return code;
  if (begin_count) {
    free(items);
    return rl_run_steps_annotated(begins, begin_count, count, skip, steps,
                                  window, window_size, period, period_size);
  }
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
