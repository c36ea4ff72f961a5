// kernels/workloads/decode_internal.h — shared state of the decode workload's
// two files: decode.c (the launches, regions, window and registry entry)
// and decode_buffers.c (dimension checks, buffers and initial contents).
// Private to kernels/workloads/.
#ifndef REDLINE_KERNELS_WORKLOADS_DECODE_INTERNAL_H_
#define REDLINE_KERNELS_WORKLOADS_DECODE_INTERNAL_H_

#include <stdint.h>

#include "kernels/workloads/decode.h"

// The buffers, in registration order (decode.h lists names and shapes).
typedef enum rl_dc_buffer_e {
  RL_DC_EMBEDDING, RL_DC_ATTN_NORM, RL_DC_W_QKV, RL_DC_W_O, RL_DC_FFN_NORM,
  RL_DC_W_GATE_UP, RL_DC_W_DOWN, RL_DC_FINAL_NORM, RL_DC_LM_HEAD, RL_DC_ROPE,
  RL_DC_TOKEN, RL_DC_X, RL_DC_KV, RL_DC_LOGITS,
  RL_DC_PARTIALS,
  RL_DC_XN, RL_DC_QKV, RL_DC_ATTN, RL_DC_DELTA, RL_DC_GATE_UP, RL_DC_ACT,
  RL_DC_BUFFER_COUNT_,
} rl_dc_buffer_t;

// The kernels of decode.hip, in rl_dc_kernel_names order.
typedef enum rl_dc_kernel_e {
  RL_DC_K_EMBED, RL_DC_K_RMSNORM, RL_DC_K_MATVEC, RL_DC_K_ROPE,
  RL_DC_K_KV_APPEND, RL_DC_K_ATTN_PARTIAL, RL_DC_K_ATTN_MERGE, RL_DC_K_ADD,
  RL_DC_K_SILU_MUL, RL_DC_K_ARGMAX, RL_DC_KERNEL_COUNT_,
} rl_dc_kernel_t;

// One recording in progress.
typedef struct rl_dc_s {
  rl_funnel_t* funnel;
  rl_decode_dims_t dims;  // workspace_chunks resolved (never 0)
  uint32_t hidden;        // heads * head_dim (= the K/V row width)
  uint32_t row_stride;    // floats per K/V cache position: layers * 2 * hidden
  uint32_t pos;
  uint32_t pos_param;
  uint32_t kernels[RL_DC_KERNEL_COUNT_];
  uint32_t buffers[RL_DC_BUFFER_COUNT_];
  uint64_t addresses[RL_DC_BUFFER_COUNT_];
} rl_dc_t;

// Elements (4 bytes each) of |buffer| under |dc|'s dimensions.
uint64_t rl_dc_buffer_elements(const rl_dc_t* dc, rl_dc_buffer_t buffer);

// Registers every buffer with its name and role.
rl_status_t rl_dc_register_buffers(rl_dc_t* dc);

// Uploads the seeded initial contents (decode.h, "Initial contents").
rl_status_t rl_dc_upload_initial(rl_dc_t* dc, uint64_t seed);

#endif  // REDLINE_KERNELS_WORKLOADS_DECODE_INTERNAL_H_
