// aql/aql_kernarg.h — the kernarg segment layout: where each launch's
// kernarg slice sits in the one segment a prepared replay owns. Both routes
// use it (the AQL lowering and its census here, the PM4 lowering in
// pm4/pm4_layout.c), so the two routes place kernargs identically.
#ifndef REDLINE_AQL_AQL_KERNARG_H_
#define REDLINE_AQL_AQL_KERNARG_H_

#include <stdint.h>

#include "redline/capture.h"

// Places the slice of launch |index| after the previous slices, which end
// at *|end|: returns its start (*|end| rounded up to max(kernarg alignment,
// 16)) and advances *|end| past its kernarg. Returns UINT64_MAX, leaving
// *|end| alone, when the kernel's kernarg alignment is not a power of two.
uint64_t rl_aql_kernarg_slice_next(const rl_capture_t* capture, uint32_t index,
                                   uint64_t* end);

#endif  // REDLINE_AQL_AQL_KERNARG_H_
