// shadow/bench_internal.h — the parts of the bench (shadow/bench.h) that
// bench.c, bench_pm4.c and bench_report.c share. Private to rl_shadow.
#ifndef REDLINE_SHADOW_BENCH_INTERNAL_H_
#define REDLINE_SHADOW_BENCH_INTERNAL_H_

#include "shadow/bench.h"
#include "shadow/shadow_arm.h"

// Reads back and decodes the IB of a retained pm4 |arm| into *|out_pm4|
// (left not present for arms without a retained stream).
rl_status_t rl_bench_pm4_census(rl_shadow_arm_t* arm, rl_bench_pm4_t* out_pm4);

#endif  // REDLINE_SHADOW_BENCH_INTERNAL_H_
