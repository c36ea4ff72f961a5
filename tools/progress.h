// tools/progress.h — an in-place progress counter on stderr for long CLI
// runs (shadow, bench, demo). It prints only when stderr is a terminal and
// the run has lasted more than a second, and redraws at most ten times a
// second; rl_progress_finish() erases the line. Quiet otherwise, so logs
// and pipes see nothing.
#ifndef REDLINE_TOOLS_PROGRESS_H_
#define REDLINE_TOOLS_PROGRESS_H_

#include <stdbool.h>
#include <stdint.h>

typedef struct rl_progress_s {
  const char* label;    // "shadow"
  bool tty;
  bool drawn;
  uint64_t start_ns;
  uint64_t last_ns;
} rl_progress_t;

void rl_progress_init(rl_progress_t* progress, const char* label);

// Shows "label: done/total what".
void rl_progress_update(rl_progress_t* progress, uint32_t done, uint32_t total,
                        const char* what);

// Erases the line if one was drawn.
void rl_progress_finish(rl_progress_t* progress);

// rl_shadow_progress_fn_t-shaped adapter: |user| is an rl_progress_t.
void rl_progress_callback(void* user, uint32_t done, uint32_t total,
                          const char* what);

#endif  // REDLINE_TOOLS_PROGRESS_H_
