// kernels/workloads/verify_internal.h — shared state of the verify
// workload's files: verify.c (launches, regions, window, registry entry)
// and verify_buffers.c (dimension checks, buffers, initial contents).
// Private to kernels/workloads/.
#ifndef REDLINE_KERNELS_WORKLOADS_VERIFY_INTERNAL_H_
#define REDLINE_KERNELS_WORKLOADS_VERIFY_INTERNAL_H_

#include <stdint.h>

#include "kernels/workloads/verify.h"

// The buffers, in registration order (verify.h lists names and shapes).
typedef enum rl_vf_buffer_e {
  RL_VF_EMBEDDING, RL_VF_ATTN_NORM, RL_VF_W_QKV, RL_VF_W_O, RL_VF_FFN_NORM,
  RL_VF_W_GATE_UP, RL_VF_W_DOWN, RL_VF_FINAL_NORM, RL_VF_LM_HEAD, RL_VF_ROPE,
  RL_VF_DECAY, RL_VF_GAIN,
  RL_VF_TOKENS, RL_VF_ARGMAX, RL_VF_ACCEPT, RL_VF_X, RL_VF_LOGITS, RL_VF_KV,
  RL_VF_KV_SCALES, RL_VF_RECUR, RL_VF_RECUR_HISTORY, RL_VF_KV_BACKUP,
  RL_VF_KV_BACKUP_SCALES, RL_VF_KV_FORWARD, RL_VF_KV_FORWARD_SCALES,
  RL_VF_PARTIALS,
  RL_VF_XN, RL_VF_QKV, RL_VF_ATTN, RL_VF_DELTA, RL_VF_GATE_UP, RL_VF_ACT,
  RL_VF_BUFFER_COUNT_,
} rl_vf_buffer_t;

// The kernels of verify.hip, in rl_vf_kernel_names order.
typedef enum rl_vf_kernel_e {
  RL_VF_K_EMBED, RL_VF_K_RMSNORM, RL_VF_K_MATMUL, RL_VF_K_ROPE,
  RL_VF_K_KV_APPEND, RL_VF_K_ATTN_PARTIAL, RL_VF_K_ATTN_MERGE, RL_VF_K_ADD,
  RL_VF_K_RECUR, RL_VF_K_SILU_MUL, RL_VF_K_ARGMAX, RL_VF_K_ACCEPT,
  RL_VF_K_KV_SAVE, RL_VF_K_KV_RESTORE, RL_VF_K_RECUR_RESTORE,
  RL_VF_KERNEL_COUNT_,
} rl_vf_kernel_t;

// One recording in progress.
typedef struct rl_vf_s {
  rl_funnel_t* funnel;
  rl_verify_dims_t dims;  // workspace_chunks resolved (never 0)
  uint32_t hidden;        // heads * head_dim
  uint32_t row_bytes;     // int8 bytes per cache position: layers * 2 * hidden
  uint32_t row_scales;    // scales per cache position: layers * 2
  uint32_t pos;
  uint32_t pos_param;
  uint32_t kernels[RL_VF_KERNEL_COUNT_];
  uint32_t buffers[RL_VF_BUFFER_COUNT_];
  uint64_t addresses[RL_VF_BUFFER_COUNT_];
} rl_vf_t;

// Bytes of |buffer| under |vf|'s dimensions.
uint64_t rl_vf_buffer_bytes(const rl_vf_t* vf, rl_vf_buffer_t buffer);

// The buffer's name (verify.h).
const char* rl_vf_buffer_name(rl_vf_buffer_t buffer);

// Fills the derived fields of |vf| from vf->dims.
void rl_vf_derive(rl_vf_t* vf);

rl_status_t rl_vf_register_buffers(rl_vf_t* vf);
rl_status_t rl_vf_upload_initial(rl_vf_t* vf, uint64_t seed);

#endif  // REDLINE_KERNELS_WORKLOADS_VERIFY_INTERNAL_H_
