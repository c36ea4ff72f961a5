// A synthetic capture cycling the launches of a recorded one
// (tests/unit/capture_repeat.h).
#include "capture_repeat.h"

static rl_status_t rl_capture_repeat_objects(const rl_capture_t* source,
                                             rl_capture_t* copy) {
  uint32_t index = 0;
  for (uint32_t i = 0; i < source->code_object_count; ++i) {
    const rl_capture_code_object_t* code = &source->code_objects[i];
    RL_RETURN_IF_ERROR(
        rl_capture_add_code_object(copy, code->bytes, code->size, &index));
  }
  for (uint32_t k = 0; k < source->kernel_count; ++k) {
    RL_RETURN_IF_ERROR(rl_capture_add_kernel(
        copy, source->kernels[k].code_object, source->kernels[k].name,
        &index));
  }
  for (uint32_t b = 0; b < source->buffer_count; ++b) {
    RL_RETURN_IF_ERROR(rl_capture_add_buffer(copy, &source->buffers[b], &index));
  }
  for (uint32_t p = 0; p < source->param_count; ++p) {
    RL_RETURN_IF_ERROR(rl_capture_add_param(copy, &source->params[p], &index));
  }
  for (uint32_t r = 0; r < source->region_count; ++r) {
    RL_RETURN_IF_ERROR(rl_capture_add_region(copy, &source->regions[r], &index));
  }
  return RL_OK;
}

rl_status_t rl_capture_repeat(const rl_capture_t* source,
                              uint32_t launch_count, uint32_t first,
                              uint32_t stride, rl_capture_t** out_capture) {
  *out_capture = NULL;
  if (source->launch_count == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "no launches to repeat");
  }
  rl_capture_t* copy = NULL;
  RL_RETURN_IF_ERROR(rl_capture_create(source->workload, &copy));
  rl_status_t status = rl_capture_repeat_objects(source, copy);
  for (uint32_t i = 0; i < launch_count && !status; ++i) {
    uint32_t index = 0;
    uint64_t pick = (first + (uint64_t)i * stride) % source->launch_count;
    status = rl_capture_add_launch(copy, &source->launches[pick], &index);
  }
  if (!status) status = rl_capture_validate(copy);
  if (status) {
    rl_capture_destroy(copy);
    return status;
  }
  *out_capture = copy;
  return RL_OK;
}
