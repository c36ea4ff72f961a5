// redline/base/test_fault.h — test-only fault injection, read from the
// environment variable REDLINE_TEST_FAULT: a comma-separated list of
// NAME:N entries, e.g. "drop-acquire:2" or "weaken-gcr:1,drop-acquire:3".
// Each consumer asks for its own NAME; unknown names are ignored, so
// several injectors share the variable. Names in use:
//   drop-acquire:N  the pm4 route turns the N-th ACQUIRE_MEM (0-based, in
//                   IB order, entry acquire included) of the lowered IB
//                   into a NOP of the same length, after the census;
//   weaken-gcr:N    the pm4 route clears GLV_INV (vector L0 invalidate)
//                   in the N-th ACQUIRE_MEM's GCR_CNTL, after the census;
//   narrow-acquire:N  the aql route sets packet N's acquire fence scope to
//                   NONE, after the census;
//   narrow-release:N  the aql route lowers packet N's SYSTEM release fence
//                   scope to AGENT (no L2 write-back), after the census.
// N may be "all" (every one; *out_index is UINT32_MAX then).
// Never set in production: the point is to prove that a checker fails.
#ifndef REDLINE_BASE_TEST_FAULT_H_
#define REDLINE_BASE_TEST_FAULT_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// True when REDLINE_TEST_FAULT holds |name|:N; *|out_index| = N.
bool rl_test_fault(const char* name, uint32_t* out_index);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BASE_TEST_FAULT_H_
