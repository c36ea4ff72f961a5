// Reference implementations of the interposer's copy and fill kernels
// (capture/interposer/interposer_copy.hip), so a capture holding recorded
// copies also replays on the `ref` executor.
//
// One byte per work-item: work-item i = group * 256 + lane (32 bits, as the
// compiled `v_lshl_add_u32`-style index) copies or fills byte i when i < n.
#include <stdint.h>

#include "kernels/ref/ref_kernel.h"

#define RL_CC_BLOCK 256u

// rl_capture_copy(dst, src, n): dst[i] = src[i].
static rl_status_t rl_cc_copy(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t dst = args[0].pointer, src = args[1].pointer;
  const uint32_t n = args[2].u32;
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    uint32_t i = wg->group_id[0] * RL_CC_BLOCK + lane;
    if (i >= n) continue;
    uint8_t byte = 0;
    RL_RETURN_IF_ERROR(rl_sim_wg_load(wg, src + i, &byte, 1));
    RL_RETURN_IF_ERROR(rl_sim_wg_store(wg, dst + i, &byte, 1));
  }
  return RL_OK;
}

// rl_capture_fill(dst, pattern, width, n): dst[i] = byte (i % width) of
// the little-endian pattern.
static rl_status_t rl_cc_fill(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t dst = args[0].pointer;
  const uint32_t pattern = args[1].u32, width = args[2].u32, n = args[3].u32;
  if (width == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "rl_capture_fill: pattern width 0");
  }
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    uint32_t i = wg->group_id[0] * RL_CC_BLOCK + lane;
    if (i >= n) continue;
    uint8_t byte = (uint8_t)(pattern >> (8u * (i % width)));
    RL_RETURN_IF_ERROR(rl_sim_wg_store(wg, dst + i, &byte, 1));
  }
  return RL_OK;
}

const rl_ref_kernel_t rl_ref_capture_kernels[] = {
    {"rl_capture_copy", {RL_CC_BLOCK, 1, 1}, 3,
     {RL_REF_ARG_POINTER, RL_REF_ARG_POINTER, RL_REF_ARG_U32}, 0, false,
     rl_cc_copy},
    {"rl_capture_fill", {RL_CC_BLOCK, 1, 1}, 4,
     {RL_REF_ARG_POINTER, RL_REF_ARG_U32, RL_REF_ARG_U32, RL_REF_ARG_U32}, 0,
     false, rl_cc_fill},
};

const uint32_t rl_ref_capture_kernel_count =
    sizeof(rl_ref_capture_kernels) / sizeof(rl_ref_capture_kernels[0]);
