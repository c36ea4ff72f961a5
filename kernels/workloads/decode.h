// kernels/workloads/decode.h — the "decode" workload: one decode step of a
// tiny transformer, recorded through the funnel from the kernels of
// kernels/decode.hip.
//
// The model (hidden = heads x head_dim, no grouped K/V heads):
//   x = embedding[token]
//   per layer: xn = rmsnorm(x) * attn_norm; qkv = W_qkv xn; RoPE(q, k) at
//     pos; K/V cache row pos := k, v; attn = softmax(q k^T / sqrt(head_dim))
//     v over rows [0, pos] (split-KV: partials over chunks of |chunk| rows,
//     then a merge per head); x += W_o attn; xn = rmsnorm(x) * ffn_norm;
//     [g; u] = W_gate_up xn; x += W_down (silu(g) * u)
//   logits = lm_head (rmsnorm(x) * final_norm); token = argmax(logits).
// RMSNorm uses eps = RL_DECODE_EPS. RoPE rotates interleaved pairs (2i,
// 2i + 1) of every head by pos * RL_DECODE_ROPE_THETA^(-2i / head_dim),
// read from a host-computed table of cos/sin (no device transcendental).
//
// Launches: 13 per layer (rmsnorm, matvec qkv, rope, kv_append,
// attn_partial, attn_merge, matvec o, add, rmsnorm, matvec gate_up,
// silu_mul, matvec down, add) plus 4 (embed first; final rmsnorm, matvec
// lm_head, argmax last): rl_decode_launch_count().
//
// Buffers (name: role, floats unless noted; L layers, h hidden, f ffn,
// V vocab, C max_context, kv = h):
//   weights    embedding [V][h], attn_norm [L][h], w_qkv [L][3h][h],
//              w_o [L][h][h], ffn_norm [L][h], w_gate_up [L][2f][h]
//              (gate rows, then up rows), w_down [L][h][f], final_norm [h],
//              lm_head [V][h], rope [C][head_dim / 2][2] (cos, sin)
//   state      token (one u32), x [h] (the hidden state), kv_cache
//              [C][L][2][kv] (row-major by position: the rows of a position
//              for every layer, K then V, are contiguous), logits [V]
//   workspace  partials [S][heads][head_dim + 2] with S = workspace_chunks
//              (m, l, then the head_dim accumulators of one chunk and head)
//   scratch    xn [h], qkv [3h], attn [h], delta [h], gate_up [2f], act [f]
// Initial contents, from splitmix64(seed): weights uniform in (-a, a) with
// a = 1/sqrt(columns) for matrices, 1 for the embedding, 1 +- 0.25 for norm
// weights; the K/V rows of positions [0, pos) uniform in (-1, 1) (the
// context the earlier steps wrote), later rows zero; token = a value below
// vocab; everything else zero.
//
// Parameter pos, admitted on [1, max_context): bound into dc_rope and
// dc_kv_append (pos), dc_attn_partial (context = pos + 1, and its grid x =
// ceil((pos + 1) / chunk)) and dc_attn_merge (the chunk count, same
// expression).
//
// Workspace contract. The partials workspace must hold the chunks of the
// longest admitted context: S >= ceil(max_context / chunk), i.e. at least
// rl_decode_workspace_bytes() bytes. Three checks enforce it: recording
// refuses a smaller workspace_chunks (RL_STATUS_INVALID_ARGUMENT naming
// both sizes); the partials pointers of dc_attn_partial and dc_attn_merge
// are declared with an extent of exactly that size, so a capture whose
// workspace buffer is smaller fails rl_capture_validate(); and a replay
// binding a buffer smaller than the captured one fails the replay contract
// (RL_STATUS_CONTRACT "workspace capacity ...").
//
// Regions: token (u32), logits, hidden (x), kv_cache (the whole cache, see
// below), kv_guard (the first inactive row, pos + 1, at the capture value;
// absent when pos + 1 == max_context) and partials (the whole workspace).
// kv_cache covers every row rather than the capture-time active rows [0,
// pos + 1): a region is a fixed byte range, and a window walks pos, so a
// capture-time range would miss the rows later steps append. Rows past the
// active ones compare equal trivially (both runs leave them untouched).
//
// Window: pos from chunk - 2 (just before the first chunk boundary, so the
// chunk count changes inside the window) for 12 steps, stride 1. The
// default pos is the window's start.
//
// Thread-safety: pure functions and static data.
#ifndef REDLINE_KERNELS_WORKLOADS_DECODE_H_
#define REDLINE_KERNELS_WORKLOADS_DECODE_H_

#include <stdint.h>

#include "kernels/workloads/workload.h"
#include "redline/funnel.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_DECODE_EPS 1e-5f
#define RL_DECODE_ROPE_THETA 10000.0
#define RL_DECODE_LAUNCHES_PER_LAYER 13u
#define RL_DECODE_LAUNCHES_FIXED 4u
#define RL_DECODE_WINDOW_STEPS 12u

typedef struct rl_decode_dims_s {
  uint32_t layers;       // transformer layers, >= 1
  uint32_t heads;        // attention heads, >= 1
  uint32_t head_dim;     // even, 2..64
  uint32_t ffn;          // MLP inner width, >= 1
  uint32_t vocab;        // >= 1
  uint32_t max_context;  // K/V rows; pos is admitted on [1, max_context)
  uint32_t chunk;        // positions per attention partial, 3..64
  // Capacity of the partials workspace in chunks; 0 means the required
  // ceil(max_context / chunk).
  uint32_t workspace_chunks;
} rl_decode_dims_t;

// The defaults: 4 layers, 4 heads of 16 (hidden 64), ffn 128, vocab 256,
// max_context 512, chunk 32, the required workspace (16 chunks).
#define RL_DECODE_DIMS_DEFAULT {4, 4, 16, 128, 256, 512, 32, 0}

// Checks the constraints above and that every buffer stays below 2^30
// elements (32-bit kernel indices). RL_STATUS_INVALID_ARGUMENT otherwise.
rl_status_t rl_decode_dims_check(const rl_decode_dims_t* dims);

// heads * head_dim.
uint32_t rl_decode_hidden(const rl_decode_dims_t* dims);

// ceil(max_context / chunk): the chunks of the longest admitted context.
uint32_t rl_decode_max_chunks(const rl_decode_dims_t* dims);

// The workspace bytes the longest context needs:
// rl_decode_max_chunks() x heads x (head_dim + 2) x 4.
uint64_t rl_decode_workspace_bytes(const rl_decode_dims_t* dims);

// 13 x layers + 4.
uint32_t rl_decode_launch_count(const rl_decode_dims_t* dims);

// Records one decode step with |dims| through the fresh |funnel|. pos comes
// from |options->params| ("pos", admitted on [1, max_context), default
// chunk - 2); other parameter names are refused; |options->config| is
// ignored (the registry entry maps it onto |dims|).
rl_status_t rl_decode_record(rl_funnel_t* funnel,
                             const rl_workload_options_t* options,
                             const rl_decode_dims_t* dims);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_KERNELS_WORKLOADS_DECODE_H_
