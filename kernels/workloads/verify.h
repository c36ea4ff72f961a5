// kernels/workloads/verify.h — the "verify" workload: the verify step of
// speculative decoding at long context, recorded through the funnel from
// the kernels of kernels/verify.hip.
//
// The step checks B draft tokens (row r < B is the token at position pos +
// r) in one forward pass of a small transformer (hidden = heads x
// head_dim, no grouped K/V heads):
//   x[r] = embedding[tokens[r]]
//   per layer: xn = rmsnorm(x) * attn_norm; qkv = W_qkv xn; RoPE(q, k) per
//     row at pos + r; the K and V rows of every r are quantised to int8
//     with one f32 scale per row (scale = max |v| / 127, q = rint(v /
//     scale)) and appended at position pos + r; causal attention of row r
//     over positions [0, pos + r] with the cache dequantised (q x scale),
//     split over the context [0, pos + B) into S = chunks pieces of
//     ceil((pos + B) / S) positions (vf_attn_partial, an FA2-style online
//     softmax per (chunk, head, row) writing m, l and the unnormalised
//     output into the partials workspace; vf_attn_merge per (head, row));
//     x += W_o attn; the gated linear recurrence s = decay * s + gain * xn
//     per row in order, x += s (per layer state, history of every row);
//     xn = rmsnorm(x) * ffn_norm; x += W_down (silu(gate) * up)
//   logits[r] = lm_head (rmsnorm(x[r]) * final_norm); argmax[r].
//
// Acceptance (vf_accept), exact as in speculative decoding. Draft r (the
// token at pos + r) is accepted when it equals the target's prediction for
// its position: the argmax of the previous row, i.e. accept[3] (the last
// row's argmax of the previous step) for r = 0 and argmax[r - 1] after. tau
// = the length of the accepted prefix, 0..B. The kernel writes accept =
// {tau, pos + B (the ring head after the forward pass), pos + tau (the head
// after rollback), argmax[B - 1]} and the next window's drafts from the
// drafts table: tokens[i] = drafts[w + 1][i], w = pos / B - start / B
// (clamped to the table; start = the window's first pos).
//
// Drafts. The drafter is an eager run of the same model in double
// precision on the host at recording time (verify_internal.h,
// rl_vf_draft): it walks the window's RL_VERIFY_WINDOW_STEPS steps from
// the window start, row by row, proposing the model's own greedy token for
// every row, and rolls back after each step as the kernels do. In
// dims.wrong_drafts of the windows (spread evenly; default 8 of 12) the
// draft at row 1 + (37 w + 3) mod (B - 1) is replaced by another token, so
// tau is that row there and B in the other windows (the kernels' float
// argmax agrees with the double one except at a near tie, which would only
// end a prefix early). The windows advance by B whatever tau was (the
// capture's window is fixed-stride); rows pos + tau.. keep their restored
// stale bytes and are attended by the next window as context.
//
// Rollback. Before the forward pass vf_kv_save copies the previous bytes
// (and scales) of the B rows [pos, pos + B) of every layer into kv_backup;
// after acceptance it copies the forward rows into kv_forward (the state
// after forward, for comparison), vf_kv_restore puts the previous bytes
// back for rows r >= tau, and vf_recur_restore sets each layer's recurrent
// state to its history entry tau (entry 0 is the state before the step,
// entry r + 1 the state after row r). recur_history keeps the B + 1
// states per layer of the forward pass.
//
// Launches: 14 per layer (rmsnorm, matmul qkv, rope, kv_append,
// attn_partial, attn_merge, matmul o, add, recur, rmsnorm, matmul gate_up,
// silu_mul, matmul down, add) plus 9 (kv_save and embed first; final
// rmsnorm, matmul lm_head, argmax, accept, kv_save, kv_restore,
// recur_restore last): 49 layers give 695 launches.
//
// Buffers (L layers, h hidden, f ffn, V vocab, C max_context, B batch, S
// chunks; floats unless noted):
//   weights    embedding [V][h], attn_norm [L][h], w_qkv [L][3h][h], w_o
//              [L][h][h], ffn_norm [L][h], w_gate_up [L][2f][h], w_down
//              [L][h][f], final_norm [h], lm_head [V][h], rope [C][hd/2][2],
//              decay [L][h], gain [L][h], drafts [12][B] u32 (read only)
//   state      tokens [B] u32, argmax [B] u32, accept [4] u32, x [B][h],
//              logits [B][V], kv_cache [C][L][2][h] int8 (K then V of every
//              layer, row-major by position), kv_scales [C][L][2],
//              recur [L][h], recur_history [L][B + 1][h], kv_backup
//              [B][L][2][h] int8, kv_backup_scales [B][L][2], kv_forward
//              and kv_forward_scales (same shapes)
//   workspace  partials [B][heads][W][hd + 2], W = workspace_chunks >= S
//   scratch    xn [B][h], qkv [B][3h], attn [B][h], delta [B][h],
//              gate_up [B][2f], act [B][f]
// Initial contents from splitmix64(seed): weights as in the decode workload
// (decay in (0.5, 0.9), gain and recur in (-0.5, 0.5)); every K/V row
// random int8 with scales in (0.5, 1.5) / 127 — the rows past pos are the
// stale contents of a ring buffer, so a rollback that zeroes instead of
// restoring is visible; accept[3] a token below vocab, drafts from the
// drafter (seconds at 49 layers and 8K rows: it runs the whole window once),
// tokens = the first window's drafts; everything else zero.
//
// Parameter pos: admitted on [crossover - B + 1, max_context - B + 1), i.e.
// live context pos + B above the crossover and the B rows inside the
// cache. Bound into vf_rope, vf_kv_append, vf_attn_partial (pos and the
// chunk length ceil((pos + B) / S)), vf_accept, vf_kv_save and
// vf_kv_restore.
//
// Workspace contract: the partials pointers are declared with an extent of
// B x heads x S x (hd + 2) x 4 bytes (rl_verify_workspace_bytes); recording
// refuses a smaller workspace_chunks, a capture whose buffer is smaller
// fails validation, and a replay binding a smaller buffer fails the replay
// contract before anything runs.
//
// Regions: tokens, argmax, accept (tau and heads), hidden, logits,
// kv_cache and kv_scales (every row: the window walks pos, see decode.h),
// kv_guard and kv_guard_scales (the B rows past the last window's rows,
// when inside the cache), partials, kv_forward and kv_forward_scales and
// recur_history (state after forward), kv_backup and kv_backup_scales,
// recur (state after rollback).
//
// Window: 12 steps of stride B from the default pos (RL_VERIFY_DEFAULT_POS
// when pos + 13 B <= max_context, else max_context - 13 B, never below the
// admitted minimum); the guard rows follow the window's last rows.
//
// Thread-safety: pure functions and static data.
#ifndef REDLINE_KERNELS_WORKLOADS_VERIFY_H_
#define REDLINE_KERNELS_WORKLOADS_VERIFY_H_

#include <stdint.h>

#include "kernels/workloads/workload.h"
#include "redline/funnel.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_VERIFY_EPS 1e-5f
#define RL_VERIFY_ROPE_THETA 10000.0
#define RL_VERIFY_LAUNCHES_PER_LAYER 14u
#define RL_VERIFY_LAUNCHES_FIXED 9u
#define RL_VERIFY_WINDOW_STEPS 12u
#define RL_VERIFY_MIN_BATCH 4u
#define RL_VERIFY_MAX_BATCH 32u
#define RL_VERIFY_CHUNKS 8u

typedef struct rl_verify_dims_s {
  uint32_t layers;       // >= 1
  uint32_t heads;        // >= 1, heads x head_dim <= 64
  uint32_t head_dim;     // a power of two, 2..64
  uint32_t ffn;          // >= 1
  uint32_t vocab;        // >= 1
  uint32_t max_context;  // K/V rows
  uint32_t batch;        // B, RL_VERIFY_MIN_BATCH..RL_VERIFY_MAX_BATCH
  uint32_t chunks;       // S, the split of the context, >= 1
  uint32_t crossover;    // the live context pos + B must exceed it
  // Capacity of the partials workspace in chunks per (row, head); 0 means
  // the required |chunks|.
  uint32_t workspace_chunks;
  // Windows (of RL_VERIFY_WINDOW_STEPS) whose drafts carry one deliberately
  // wrong token; the others are the reference run's own tokens (tau = B).
  uint32_t wrong_drafts;
} rl_verify_dims_t;

// 49 layers, 2 heads of 16 (hidden 32), ffn 64, vocab 256, max_context
// 8704, B 16, S 8, crossover 4096, the required workspace, 8 of the 12
// windows with a wrong draft.
#define RL_VERIFY_DIMS_DEFAULT {49, 2, 16, 64, 256, 8704, 16, 8, 4096, 0, 8}
#define RL_VERIFY_DEFAULT_POS 8176

// Checks the constraints above (and that buffers stay below 2^30 elements
// and max_context x layers x 2 x hidden below 2^31 bytes).
// RL_STATUS_INVALID_ARGUMENT naming the dimension otherwise.
rl_status_t rl_verify_dims_check(const rl_verify_dims_t* dims);

uint32_t rl_verify_hidden(const rl_verify_dims_t* dims);

// B x heads x S x (head_dim + 2) x 4: the partials the step writes.
uint64_t rl_verify_workspace_bytes(const rl_verify_dims_t* dims);

// 14 x layers + 9.
uint32_t rl_verify_launch_count(const rl_verify_dims_t* dims);

// The admitted pos range [min, max): live context above the crossover,
// the batch's rows inside the cache.
void rl_verify_pos_range(const rl_verify_dims_t* dims, int64_t* out_min,
                         int64_t* out_max);

// Records one verify step with |dims| through the fresh |funnel|; pos from
// |options->params| ("pos", default: the window's start).
rl_status_t rl_verify_record(rl_funnel_t* funnel,
                             const rl_workload_options_t* options,
                             const rl_verify_dims_t* dims);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_KERNELS_WORKLOADS_VERIFY_H_
