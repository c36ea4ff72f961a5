// capture/recording/capture_window_spec.h — the one parser of the interposer's window
// specification (REDLINE_CAPTURE_WINDOW, `redline run --window`), shared by
// the interposer (capture/interposer/) and the CLI, which refuses a bad
// value before it starts anything (docs/cli.md "redline run").
//
// Grammar (the whole string):
//   launches:FIRST          module launches FIRST .. the last (0-based)
//   launches:FIRST:COUNT    module launches FIRST .. FIRST+COUNT-1
//   launches:FIRST:all      the same as launches:FIRST
//   items:FIRST[:COUNT|:all]  like launches:, counting every item the
//                           capture records as a launch: kernel launches,
//                           copies and fills into recorded buffers
//   marker:NAME:N           from the Nth (0-based) launch of kernel NAME up
//                           to (not including) its next launch
// launches: counts kernel launches only (hipModuleLaunchKernel,
// hipLaunchKernel, hipExtModuleLaunchKernel, the kernel nodes of a
// recorded graph launch, a graph launch it cannot record as one); copies
// and fills between them are recorded when they fall inside but do not
// move the window. items: counts copies and fills too (graph memcpy and
// memset nodes excepted), so a window can start or end at a copy.
// Every number goes through the one number parser (base/number.h);
// NAME is 1 .. RL_CAPTURE_WINDOW_SPEC_NAME_MAX-1 bytes (it may contain ':';
// N follows the last one).
//
// Thread-safety: a pure function.
#ifndef REDLINE_CAPTURE_CAPTURE_WINDOW_SPEC_H_
#define REDLINE_CAPTURE_CAPTURE_WINDOW_SPEC_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/status.h"

#define RL_CAPTURE_WINDOW_SPEC_NAME_MAX 128

typedef struct rl_capture_window_spec_s {
  bool marker;  // marker:NAME:N (else launches: or items:)
  bool items;   // items: (copies and fills count)
  char marker_name[RL_CAPTURE_WINDOW_SPEC_NAME_MAX];
  uint64_t first;  // launches: FIRST; marker: N
  uint64_t count;  // launches: COUNT, UINT64_MAX for all; marker: unused
} rl_capture_window_spec_t;

// Parses |text| (NULL or "" is the default, launches:0:all) into
// |out_spec|. RL_STATUS_INVALID_ARGUMENT quoting |text| and the grammar on
// anything else; |out_spec| is the default then.
rl_status_t rl_capture_window_spec_parse(const char* text,
                                         rl_capture_window_spec_t* out_spec);

#endif  // REDLINE_CAPTURE_CAPTURE_WINDOW_SPEC_H_
