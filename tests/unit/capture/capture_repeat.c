// A synthetic capture cycling the launches of a recorded one
// (tests/unit/capture/capture_repeat.h).
#include "tests/unit/capture/capture_repeat.h"

#include <stdlib.h>

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

// Appends |count| fillers made of |launch| to |copy|.
static rl_status_t rl_capture_repeat_add_fillers(rl_capture_t* copy,
                                                 const rl_capture_launch_t* launch,
                                                 uint32_t count) {
  uint8_t* zeros = calloc(launch->kernarg_size + 1u, 1);
  if (!zeros) return rl_status_out_of_memory();
  rl_capture_launch_t filler = *launch;
  filler.kernarg = zeros;
  filler.slot_count = 0;
  filler.slots = NULL;
  filler.binding_count = 0;
  filler.bindings = NULL;
  rl_status_t status = RL_OK;
  for (uint32_t i = 0; i < count && !status; ++i) {
    uint32_t index = 0;
    status = rl_capture_add_launch(copy, &filler, &index);
  }
  free(zeros);
  return status;
}

rl_status_t rl_capture_repeat_fillers(const rl_capture_t* source,
                                      uint32_t launch_count, uint32_t filler,
                                      rl_capture_t** out_capture) {
  *out_capture = NULL;
  if (filler >= source->launch_count || launch_count < source->launch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "fillers: launch %u of %u, %u launches", filler,
                     source->launch_count, launch_count);
  }
  rl_capture_t* copy = NULL;
  RL_RETURN_IF_ERROR(rl_capture_repeat(source, source->launch_count, 0, 1,
                                       &copy));
  rl_status_t status = rl_capture_repeat_add_fillers(
      copy, &source->launches[filler], launch_count - source->launch_count);
  if (!status) status = rl_capture_validate(copy);
  if (status) {
    rl_capture_destroy(copy);
    return status;
  }
  *out_capture = copy;
  return RL_OK;
}
