// redline/annotate.h — opt-in step annotations for programs captured with
// `redline run --capture F --steps K` (docs/real-engines.md,
// "Annotations"; docs/capture-interposer.md, "Annotations").
//
// Header-only, C and C++ (HIP programs included), no redline library to
// link. A program that can change its source declares the named parameters
// of its current step:
//
//   redline_step_begin();                    // a step starts here
//   redline_step_param("token", token);      // this step's values
//   redline_step_param("pos", pos);
//
// The n-th call of redline_step_begin() (from 0) starts step n of the
// program's run (the numbering of --skip-steps). The values given after it
// belong to that step. When the capture interposer is loaded (`redline
// run`), binding inference names the free parameter whose per-step values
// equal a declared parameter's after that declaration (`token` instead of
// `free0`), and a declared parameter named like the position parameter
// (`pos`) must equal the step's position: a disagreement makes the capture
// incomplete, naming the parameter, the step and both values.
//
// Cost: each call looks its interposer entry point up once per translation
// unit with dlsym(RTLD_DEFAULT, ...) (the first call only; not thread-safe
// on that first call, a benign race that looks up the same address twice)
// and then is one load and a null check when the interposer is absent
// (nothing else runs; no device work, no allocation): about 1 ns for a
// redline_step_begin() and redline_step_param() pair, measured with gcc
// -O2 on this project's build machine (10^8 pairs in a loop). Link with
// -ldl on C libraries older than glibc 2.34.
//
// Contract: |name| is a NUL-terminated string of at most 63 bytes (longer
// names are cut by the interposer); at most 64 names and 4096 steps are
// kept (more are dropped and said once on stderr).
#ifndef REDLINE_ANNOTATE_H_
#define REDLINE_ANNOTATE_H_

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1  // RTLD_DEFAULT
#endif
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*redline_step_begin_fn)(void);
typedef void (*redline_step_param_fn)(const char* name, int64_t value);

// Marks the start of the next step.
static inline void redline_step_begin(void) {
  static int done;
  static redline_step_begin_fn entry;
  if (!done) {  // the first call looks the entry point up
    void* found = dlsym(RTLD_DEFAULT, "redline_annotate_step_begin");
    memcpy(&entry, &found, sizeof(entry));  // ISO C: no void* cast
    done = 1;
  }
  if (entry) entry();
}

// Declares parameter |name| = |value| for the current step.
static inline void redline_step_param(const char* name, int64_t value) {
  static int done;
  static redline_step_param_fn entry;
  if (!done) {
    void* found = dlsym(RTLD_DEFAULT, "redline_annotate_step_param");
    memcpy(&entry, &found, sizeof(entry));
    done = 1;
  }
  if (entry) entry(name, value);
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_ANNOTATE_H_
