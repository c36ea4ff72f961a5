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
  RL_VF_DECAY, RL_VF_GAIN, RL_VF_DRAFTS,
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
  int64_t window_start;  // the default pos, where the window and drafts begin
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

// The initial contents the drafter reads (host copies, by buffer).
typedef struct rl_vf_host_s {
  const float* weights[RL_VF_GAIN + 1];  // RL_VF_EMBEDDING..RL_VF_GAIN
  const int8_t* cache;                   // kv_cache [C][L][2][h]
  const float* scales;                   // kv_scales [C][L][2]
  const float* recur;                    // recur [L][h]
} rl_vf_host_t;

// The drafter (verify_draft.c): a double-precision eager run of the model
// over the RL_VERIFY_WINDOW_STEPS windows from vf->window_start (stride B),
// row by row, each window followed by the rollback the step performs.
// Window w's drafts (drafts[w][0..B)) are the model's own greedy tokens —
// row 0 the prediction of the previous window's last row (|first| for
// window 0), row r the prediction of row r - 1 — except in the windows
// rl_vf_wrong_row() picks, where the draft at that row is replaced by
// another token (and the rows after it continue greedily from it). So the
// step's exact acceptance sees tau = B in the other windows and tau = the
// wrong row (1..B-1) in those (up to rounding: the kernels' float argmax
// may differ from the host's double one at a near tie, which only shortens
// a prefix). |out_tau| (may be NULL) receives the planned tau per window.
rl_status_t rl_vf_draft(const rl_vf_t* vf, const rl_vf_host_t* host,
                        uint32_t first, uint32_t* drafts, uint32_t* out_tau);

// The row of window |w|'s deliberately wrong draft, or B when the window
// has none: vf->dims.wrong_drafts of the windows, spread evenly, at rows
// 1 + (37 w + 3) mod (B - 1) (37 is prime to every B - 1 of 3..31, so
// the rows cycle through all of 1..B-1).
uint32_t rl_vf_wrong_row(const rl_vf_t* vf, uint32_t w);

#endif  // REDLINE_KERNELS_WORKLOADS_VERIFY_INTERNAL_H_
