// capture/interposer/interposer_annotate.c — the entry points of
// redline/annotate.h and what inference does with the declarations
// (interposer_internal.h; docs/capture-interposer.md, "Annotations").
//
// redline_annotate_step_begin() counts steps from 0 (the program's step
// ordinal, as --skip-steps counts); redline_annotate_step_param() keeps
// (step, name, value), the last value of a name in a step winning. Values
// given before the first step begin belong to step 0.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "capture/recording/step_infer.h"

#define RL_IP_ANNOTATE_NAMES 64
#define RL_IP_ANNOTATE_STEPS 4096
#define RL_IP_ANNOTATE_NAME_MAX 64

static pthread_mutex_t rl_ip_annotate_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t rl_ip_annotate_begins;
static uint32_t rl_ip_annotate_name_count;
static char rl_ip_annotate_names[RL_IP_ANNOTATE_NAMES][RL_IP_ANNOTATE_NAME_MAX];
// Per name, per step: the value and whether it was declared.
static int64_t* rl_ip_annotate_values[RL_IP_ANNOTATE_NAMES];
static uint8_t* rl_ip_annotate_set[RL_IP_ANNOTATE_NAMES];
static bool rl_ip_annotate_dropped;

__attribute__((visibility("default"))) void redline_annotate_step_begin(void) {
  pthread_mutex_lock(&rl_ip_annotate_lock);
  ++rl_ip_annotate_begins;
  pthread_mutex_unlock(&rl_ip_annotate_lock);
  rl_interposer_t* ip = rl_ip_get();
  pthread_mutex_lock(&ip->lock);
  rl_ip_survey_begin(ip);  // where the survey cuts the steps
  pthread_mutex_unlock(&ip->lock);
}

// The slot of |name|, added when new; UINT32_MAX when full.
static uint32_t rl_ip_annotate_slot(const char* name) {
  for (uint32_t i = 0; i < rl_ip_annotate_name_count; ++i) {
    if (strncmp(rl_ip_annotate_names[i], name, RL_IP_ANNOTATE_NAME_MAX - 1) ==
        0) {
      return i;
    }
  }
  if (rl_ip_annotate_name_count == RL_IP_ANNOTATE_NAMES) return UINT32_MAX;
  uint32_t i = rl_ip_annotate_name_count;
  rl_ip_annotate_values[i] =
      calloc(RL_IP_ANNOTATE_STEPS, sizeof(*rl_ip_annotate_values[i]));
  rl_ip_annotate_set[i] = calloc(RL_IP_ANNOTATE_STEPS, 1);
  if (!rl_ip_annotate_values[i] || !rl_ip_annotate_set[i]) {
    free(rl_ip_annotate_values[i]);
    free(rl_ip_annotate_set[i]);
    rl_ip_annotate_values[i] = NULL;
    rl_ip_annotate_set[i] = NULL;
    return UINT32_MAX;
  }
  snprintf(rl_ip_annotate_names[i], RL_IP_ANNOTATE_NAME_MAX, "%s", name);
  ++rl_ip_annotate_name_count;
  return i;
}

__attribute__((visibility("default"))) void redline_annotate_step_param(
    const char* name, int64_t value) {
  if (!name || !name[0]) return;
  pthread_mutex_lock(&rl_ip_annotate_lock);
  uint64_t step = rl_ip_annotate_begins ? rl_ip_annotate_begins - 1 : 0;
  uint32_t slot = step < RL_IP_ANNOTATE_STEPS ? rl_ip_annotate_slot(name)
                                              : UINT32_MAX;
  if (slot == UINT32_MAX) {
    if (!rl_ip_annotate_dropped) {
      fprintf(stderr, "redline_capture: annotation %s of step %llu dropped "
              "(at most %d names and %d steps are kept)\n", name,
              (unsigned long long)step, RL_IP_ANNOTATE_NAMES,
              RL_IP_ANNOTATE_STEPS);
    }
    rl_ip_annotate_dropped = true;
  } else {
    rl_ip_annotate_values[slot][step] = value;
    rl_ip_annotate_set[slot][step] = 1;
  }
  pthread_mutex_unlock(&rl_ip_annotate_lock);
}

// True when declared slot |d| has a value at every step of |result|
// (steps first, first + 1, ...).
static bool rl_ip_annotate_covers(uint32_t d, uint64_t first,
                                  uint32_t steps) {
  for (uint32_t k = 0; k < steps; ++k) {
    if (first + k >= RL_IP_ANNOTATE_STEPS || !rl_ip_annotate_set[d][first + k]) {
      return false;
    }
  }
  return true;
}

bool rl_ip_annotate_apply(uint64_t first, rl_step_infer_result_t* result,
                          bool quiet, char* why, size_t why_size) {
  pthread_mutex_lock(&rl_ip_annotate_lock);
  bool ok = true;
  const uint32_t pc = result->param_count;
  rl_capture_t* capture = result->capture;
  for (uint32_t d = 0; ok && d < rl_ip_annotate_name_count; ++d) {
    const char* name = rl_ip_annotate_names[d];
    if (!rl_ip_annotate_covers(d, first, result->step_count)) {
      if (!quiet) {
        fprintf(stderr, "redline_capture: declared %s not given at every "
                "captured step (ignored)\n", name);
      }
      continue;
    }
    const int64_t* declared = &rl_ip_annotate_values[d][first];
    uint32_t match = UINT32_MAX;
    for (uint32_t p = 0; p < pc && match == UINT32_MAX; ++p) {
      bool same = true;
      for (uint32_t k = 0; same && k < result->step_count; ++k) {
        same = result->values[(size_t)k * pc + p] == declared[k];
      }
      if (p == result->position_param) {
        if (strcmp(capture->params[p].name, name) != 0) continue;
        for (uint32_t k = 0; !same && k < result->step_count; ++k) {
          int64_t inferred = result->values[(size_t)k * pc + p];
          if (inferred == declared[k]) continue;
          snprintf(why, why_size, "declared parameter %s disagrees with the "
                   "inferred one: step %llu declares %s=%lld, its position "
                   "is %lld", name, (unsigned long long)(first + k), name,
                   (long long)declared[k], (long long)inferred);
          ok = false;
          break;
        }
        match = p;
        continue;
      }
      if (!same || strncmp(capture->params[p].name, "free", 4) != 0) continue;
      match = p;
      char* renamed = strdup(name);
      if (!renamed) {
        snprintf(why, why_size, "out of memory naming %s", name);
        ok = false;
        break;
      }
      if (!quiet) {
        fprintf(stderr, "redline_capture: %s is the declared parameter %s\n",
                capture->params[p].name, name);
      }
      free(capture->params[p].name);
      capture->params[p].name = renamed;
    }
    if (ok && match == UINT32_MAX && !quiet) {
      fprintf(stderr, "redline_capture: declared %s explains no inferred "
              "parameter (no binding varies with it)\n", name);
    }
  }
  pthread_mutex_unlock(&rl_ip_annotate_lock);
  return ok;
}
