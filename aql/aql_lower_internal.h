// aql/aql_lower_internal.h — the kernarg segment layout shared by the AQL
// lowering and its census (private to rl_aql).
#ifndef REDLINE_AQL_AQL_LOWER_INTERNAL_H_
#define REDLINE_AQL_AQL_LOWER_INTERNAL_H_

#include <stdint.h>

#include "redline/capture.h"

// Places the slice of launch |index| after the previous slices, which end
// at *|end|: returns its start (*|end| rounded up to max(kernarg alignment,
// 16)) and advances *|end| past its kernarg. Returns UINT64_MAX, leaving
// *|end| alone, when the kernel's kernarg alignment is not a power of two.
uint64_t rl_aql_kernarg_slice_next(const rl_capture_t* capture, uint32_t index,
                                   uint64_t* end);

#endif  // REDLINE_AQL_AQL_LOWER_INTERNAL_H_
