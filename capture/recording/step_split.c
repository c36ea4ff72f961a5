// Cutting one recorded run into steps (capture/recording/step_split.h).
#include "capture/recording/step_split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/digest.h"

uint64_t rl_step_signature(const char* name, const uint32_t block[3],
                           uint32_t dynamic_lds) {
  char text[RL_CAPTURE_NAME_MAX + 64];
  int length = snprintf(text, sizeof(text), "%s %u %u %u %u", name, block[0],
                        block[1], block[2], dynamic_lds);
  if (length < 0) length = 0;
  if ((size_t)length >= sizeof(text)) length = (int)sizeof(text) - 1;
  return rl_digest128_of(text, (size_t)length).low;
}

rl_status_t rl_step_period(const uint64_t* items, uint32_t count,
                           uint32_t* out_offset, uint32_t* out_period,
                           uint32_t* out_repeats) {
  *out_offset = *out_period = *out_repeats = 0;
  uint64_t best = 0;  // the stretch's length
  for (uint32_t p = 1; p <= count / 2; ++p) {
    // Runs of i with items[i] == items[i + p]: a run of r matches starting
    // at o is a periodic stretch [o, o + r + p).
    uint32_t run = 0;
    for (uint32_t i = 0; i + p <= count; ++i) {
      bool match = i + p < count && items[i] == items[i + p];
      if (match) {
        ++run;
        continue;
      }
      uint64_t length = (uint64_t)run + p;
      if (run >= p && length > best) {
        best = length;
        *out_offset = i - run;
        *out_period = p;
      }
      run = 0;
    }
  }
  if (!*out_period) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "the %u launches, copies and fills repeat nowhere: no "
                     "step period (name the step's first kernel with "
                     "--step-start)",
                     count);
  }
  *out_repeats = (uint32_t)(best / *out_period);
  return RL_OK;
}

void rl_step_destroy(rl_capture_t** steps, uint32_t count) {
  for (uint32_t s = 0; s < count; ++s) {
    rl_capture_destroy(steps[s]);
    steps[s] = NULL;
  }
}

// Everything of |whole| but its launches, parameters and windows; buffer
// contents only when |contents| (step 0: the state at its start).
static rl_status_t rl_step_frame(const rl_capture_t* whole, bool contents,
                                 rl_capture_t** out_step) {
  rl_capture_t* step = NULL;
  RL_RETURN_IF_ERROR(rl_capture_create(whole->workload, &step));
  rl_status_t status = RL_OK;
  uint32_t index = 0;
  for (uint32_t i = 0; !status && i < whole->code_object_count; ++i) {
    status = rl_capture_add_code_object(step, whole->code_objects[i].bytes,
                                        whole->code_objects[i].size, &index);
  }
  for (uint32_t i = 0; !status && i < whole->kernel_count; ++i) {
    status = rl_capture_add_kernel(step, whole->kernels[i].code_object,
                                   whole->kernels[i].name, &index);
  }
  for (uint32_t i = 0; !status && i < whole->buffer_count; ++i) {
    rl_capture_buffer_t buffer = whole->buffers[i];
    if (!contents) buffer.initial = NULL;
    status = rl_capture_add_buffer(step, &buffer, &index);
  }
  for (uint32_t i = 0; !status && i < whole->region_count; ++i) {
    status = rl_capture_add_region(step, &whole->regions[i], &index);
  }
  // A descriptor binding is checked against its buffer's recorded bytes,
  // which only a step with contents holds.
  if (!status && whole->descriptor_count && !contents) {
    status = RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "a step without initial contents cannot hold the "
                       "capture's %u descriptor bindings",
                       whole->descriptor_count);
  }
  for (uint32_t i = 0; !status && i < whole->descriptor_count; ++i) {
    status = rl_capture_add_descriptor(step, &whole->descriptors[i]);
  }
  if (status) {
    rl_capture_destroy(step);
    return status;
  }
  *out_step = step;
  return RL_OK;
}

rl_status_t rl_step_split(const rl_capture_t* whole, const uint32_t* starts,
                          uint32_t step_count, rl_capture_t** out_steps) {
  for (uint32_t s = 0; s < step_count; ++s) out_steps[s] = NULL;
  rl_status_t status = RL_OK;
  for (uint32_t s = 0; !status && s < step_count; ++s) {
    uint32_t end = s + 1 < step_count ? starts[s + 1] : whole->launch_count;
    if (starts[s] >= end || end > whole->launch_count) {
      status = RL_STATUS(RL_STATUS_CONTRACT,
                         "step %u holds no launch (launches %u .. %u of %u)",
                         s, starts[s], end, whole->launch_count);
      break;
    }
    status = rl_step_frame(whole, s == 0, &out_steps[s]);
    uint32_t index = 0;
    for (uint32_t l = starts[s]; !status && l < end; ++l) {
      rl_capture_launch_t launch = whole->launches[l];
      launch.binding_count = 0;  // the steps carry no parameter
      launch.bindings = NULL;
      status = rl_capture_add_launch(out_steps[s], &launch, &index);
    }
  }
  if (status) rl_step_destroy(out_steps, step_count);
  return status;
}

// The first difference between launch |a| of step 0 and |b| of another
// step, written into |what| ("" when none).
static void rl_step_launch_diff(const rl_capture_t* c0,
                                const rl_capture_launch_t* a,
                                const rl_capture_t* cs,
                                const rl_capture_launch_t* b, char* what,
                                size_t size) {
  const char* ka = c0->kernels[a->kernel].name;
  const char* kb = cs->kernels[b->kernel].name;
  what[0] = '\0';
  if (strcmp(ka, kb) != 0) {
    snprintf(what, size, "kernel %s, step 0 has %s", kb, ka);
  } else if (memcmp(a->block, b->block, sizeof(a->block)) != 0) {
    snprintf(what, size, "%s work-group %ux%ux%u, step 0 has %ux%ux%u", kb,
             b->block[0], b->block[1], b->block[2], a->block[0], a->block[1],
             a->block[2]);
  } else if (a->dynamic_lds != b->dynamic_lds) {
    snprintf(what, size, "%s dynamic LDS %u bytes, step 0 has %u", kb,
             b->dynamic_lds, a->dynamic_lds);
  } else if (a->kernarg_size != b->kernarg_size) {
    snprintf(what, size, "%s kernarg %u bytes, step 0 has %u", kb,
             b->kernarg_size, a->kernarg_size);
  } else if (a->slot_count != b->slot_count) {
    snprintf(what, size, "%s %u pointer arguments, step 0 has %u", kb,
             b->slot_count, a->slot_count);
  } else {
    for (uint32_t i = 0; i < a->slot_count; ++i) {
      if (a->slots[i].kernarg_offset != b->slots[i].kernarg_offset) {
        snprintf(what, size, "%s pointer %u at kernarg offset %u, step 0 "
                 "has it at %u", kb, i, b->slots[i].kernarg_offset,
                 a->slots[i].kernarg_offset);
        return;
      }
    }
  }
}

rl_status_t rl_step_compare(rl_capture_t* const* steps, uint32_t step_count) {
  const rl_capture_t* c0 = steps[0];
  for (uint32_t s = 1; s < step_count; ++s) {
    const rl_capture_t* cs = steps[s];
    uint32_t common = cs->launch_count < c0->launch_count ? cs->launch_count
                                                          : c0->launch_count;
    for (uint32_t l = 0; l < common; ++l) {
      char what[RL_CAPTURE_NAME_MAX * 2 + 128];
      rl_step_launch_diff(c0, &c0->launches[l], cs, &cs->launches[l], what,
                          sizeof(what));
      if (what[0]) {
        return RL_STATUS(RL_STATUS_CONTRACT,
                         "steps differ: step %u launch %u is %s", s, l,
                         what);
      }
    }
    if (cs->launch_count != c0->launch_count) {
      const rl_capture_t* longer = cs->launch_count > common ? cs : c0;
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "steps differ: step %u has %u launches, step 0 has "
                       "%u (first extra: launch %u, kernel %s)",
                       s, cs->launch_count, c0->launch_count, common,
                       longer->kernels[longer->launches[common].kernel].name);
    }
  }
  return RL_OK;
}
