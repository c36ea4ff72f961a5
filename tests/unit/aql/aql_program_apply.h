// tests/unit/aql/aql_program_apply.h — re-binding a lowered AQL program
// outside a replay, for the tests and the publish benchmark (the engine
// applies through its route table: redline/replay_route.c). Moved out of
// aql/ by issue 29: nothing in the product called it.
#ifndef REDLINE_TESTS_UNIT_AQL_PROGRAM_APPLY_H_
#define REDLINE_TESTS_UNIT_AQL_PROGRAM_APPLY_H_

#include <stdint.h>

#include "aql/aql_lower.h"
#include "redline/capture.h"
#include "redline/status.h"

// Re-binds |program| through its compiled patch table (the contract of
// aql/aql_patch.h): |values| holds |param_count| values, which must equal
// capture->param_count (RL_STATUS_INVALID_ARGUMENT otherwise);
// |buffer_addresses| one per capture buffer, or NULL (pointers stay as
// bound); |capture| is the one the program was lowered from.
// |kernarg_host| may be NULL (only the image is updated) or equal to
// program->kernarg. *|out_changed_count| is the number of patches written
// (cleared on entry).
rl_status_t rl_aql_program_apply(rl_aql_program_t* program,
                                 const rl_capture_t* capture,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint8_t* kernarg_host,
                                 uint32_t* out_changed_count);

#endif  // REDLINE_TESTS_UNIT_AQL_PROGRAM_APPLY_H_
