// The program as a reference (shadow/shadow_program.h).
#include "shadow/shadow_program.h"

#include "base/test_fault.h"

uint32_t rl_shadow_program_feed(const rl_capture_t* capture, int64_t pos,
                                int64_t* values) {
  uint32_t set = 0;
  for (uint32_t i = 0; i < capture->program_param_count; ++i) {
    const rl_capture_program_param_t* value = &capture->program_params[i];
    if (value->pos != pos) continue;
    values[value->param] = value->value;
    ++set;
  }
  return set;
}

bool rl_shadow_program_digest(const rl_capture_t* capture, int64_t pos,
                              uint32_t region, rl_digest128_t* out_digest) {
  for (uint32_t i = 0; i < capture->program_state_count; ++i) {
    const rl_capture_program_state_t* state = &capture->program_states[i];
    if (state->pos != pos || state->region != region) continue;
    *out_digest = state->digest;
    if (rl_test_fault("program-flip", i)) out_digest->low ^= 1u;
    return true;
  }
  return false;
}
