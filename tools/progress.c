// In-place progress on stderr (tools/progress.h).
#include "tools/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"

#define RL_PROGRESS_DELAY_NS 1000000000ull   // quiet for the first second
#define RL_PROGRESS_PERIOD_NS 100000000ull   // at most ten redraws a second

void rl_progress_init(rl_progress_t* progress, const char* label) {
  progress->label = label;
  progress->tty = isatty(STDERR_FILENO) == 1;
  progress->drawn = false;
  progress->start_ns = rl_now_ns();
  progress->last_ns = 0;
}

void rl_progress_update(rl_progress_t* progress, uint32_t done, uint32_t total,
                        const char* what) {
  if (!progress->tty) return;
  uint64_t now = rl_now_ns();
  if (now - progress->start_ns < RL_PROGRESS_DELAY_NS) return;
  if (progress->drawn && now - progress->last_ns < RL_PROGRESS_PERIOD_NS &&
      done != total) {
    return;
  }
  progress->last_ns = now;
  progress->drawn = true;
  fprintf(stderr, "\r\033[K%s: %u/%u %s", progress->label, done, total,
          what ? what : "");
  fflush(stderr);
}

void rl_progress_finish(rl_progress_t* progress) {
  if (!progress->drawn) return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  progress->drawn = false;
}

void rl_progress_callback(void* user, uint32_t done, uint32_t total,
                          const char* what) {
  rl_progress_update((rl_progress_t*)user, done, total, what);
}
