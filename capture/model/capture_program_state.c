// The program's recorded state after each step and its free parameters'
// values (redline/capture.h rl_capture_add_program_state,
// rl_capture_add_program_param).
#include "base/array.h"
#include "redline/capture.h"

rl_status_t rl_capture_add_program_state(
    rl_capture_t* capture, const rl_capture_program_state_t* state) {
  if (!capture || !state) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "add program state: a capture and a state are required");
  }
  const uint32_t n = capture->program_state_count;
  if (state->region >= capture->region_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "program state %u (pos %lld): region %u, the capture "
                     "has %u regions",
                     n, (long long)state->pos, state->region,
                     capture->region_count);
  }
  if (n) {
    const rl_capture_program_state_t* last = &capture->program_states[n - 1];
    if (state->pos < last->pos ||
        (state->pos == last->pos && state->region <= last->region)) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "program state %u: (pos %lld, region %u) does not "
                       "follow (pos %lld, region %u)",
                       n, (long long)state->pos, state->region,
                       (long long)last->pos, last->region);
    }
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->program_states,
                                      &capture->program_state_capacity, n + 1));
  capture->program_states[capture->program_state_count++] = *state;
  return RL_OK;
}

rl_status_t rl_capture_add_program_param(
    rl_capture_t* capture, const rl_capture_program_param_t* value) {
  if (!capture || !value) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "add program param: a capture and a value are required");
  }
  const uint32_t n = capture->program_param_count;
  if (value->param >= capture->param_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "program param %u (pos %lld): parameter %u, the capture "
                     "has %u",
                     n, (long long)value->pos, value->param,
                     capture->param_count);
  }
  if (n) {
    const rl_capture_program_param_t* last = &capture->program_params[n - 1];
    if (value->pos < last->pos ||
        (value->pos == last->pos && value->param <= last->param)) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "program param %u: (pos %lld, parameter %u) does not "
                       "follow (pos %lld, parameter %u)",
                       n, (long long)value->pos, value->param,
                       (long long)last->pos, last->param);
    }
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&capture->program_params,
                                      &capture->program_param_capacity, n + 1));
  capture->program_params[capture->program_param_count++] = *value;
  return RL_OK;
}
