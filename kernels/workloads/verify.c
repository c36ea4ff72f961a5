// The "verify" workload: the launches of one verify step, its regions and
// window, and its registry entry (kernels/workloads/verify.h).
#include "kernels/workloads/verify.h"

#include <math.h>
#include <string.h>

#include "kernels/workloads/verify_internal.h"

#define RL_VF_BLOCK 64u

static const char* const rl_vf_kernel_names[RL_VF_KERNEL_COUNT_] = {
    "vf_embed",  "vf_rmsnorm",  "vf_matmul",   "vf_rope",
    "vf_kv_append", "vf_attn_partial", "vf_attn_merge", "vf_add",
    "vf_recur",  "vf_silu_mul", "vf_argmax",   "vf_accept",
    "vf_kv_save", "vf_kv_restore", "vf_recur_restore"};

static uint32_t rl_vf_blocks(uint32_t n) {
  return (n + RL_VF_BLOCK - 1) / RL_VF_BLOCK;
}

static rl_funnel_arg_t rl_vf_ptr(const rl_vf_t* vf, rl_vf_buffer_t buffer,
                                 uint64_t byte_offset) {
  return rl_funnel_arg_pointer(vf->addresses[buffer] + byte_offset);
}

// The partials workspace with its declared extent (verify.h).
static rl_funnel_arg_t rl_vf_partials(const rl_vf_t* vf, rl_effect_t effect) {
  return rl_funnel_arg_pointer_declared(vf->addresses[RL_VF_PARTIALS], effect,
                                        0,
                                        rl_verify_workspace_bytes(&vf->dims));
}

static rl_funnel_arg_t rl_vf_pos(const rl_vf_t* vf) {
  const rl_expr_t pos = {.param = vf->pos_param, .add = 0, .op = RL_EXPR_ADD};
  return rl_funnel_arg_u32_bound(vf->pos, pos);
}

// The chunk length ceil((pos + B) / S).
static rl_funnel_arg_t rl_vf_chunk_len(const rl_vf_t* vf) {
  const rl_verify_dims_t* d = &vf->dims;
  const rl_expr_t chunk = {.param = vf->pos_param, .add = d->batch,
                           .op = RL_EXPR_CEIL_DIV, .operand = d->chunks};
  return rl_funnel_arg_u32_bound((vf->pos + d->batch + d->chunks - 1) /
                                     d->chunks, chunk);
}

static rl_status_t rl_vf_launch3(rl_vf_t* vf, rl_vf_kernel_t kernel,
                                 uint32_t gx, uint32_t gy, uint32_t gz,
                                 const rl_funnel_arg_t* args, uint32_t count) {
  const uint32_t grid[3] = {gx, gy, gz};
  const uint32_t block[3] = {RL_VF_BLOCK, 1, 1};
  return rl_funnel_launch(vf->funnel, vf->kernels[kernel], grid, block, 0,
                          args, count, NULL, NULL);
}

static rl_status_t rl_vf_launch(rl_vf_t* vf, rl_vf_kernel_t kernel,
                                uint32_t gx, uint32_t gy,
                                const rl_funnel_arg_t* args, uint32_t count) {
  return rl_vf_launch3(vf, kernel, gx, gy, 1, args, count);
}

// xn := rmsnorm(x) * norm (at byte offset), one group per row.
static rl_status_t rl_vf_rmsnorm(rl_vf_t* vf, rl_vf_buffer_t norm,
                                 uint64_t offset) {
  const rl_funnel_arg_t args[] = {
      rl_vf_ptr(vf, RL_VF_X, 0), rl_vf_ptr(vf, norm, offset),
      rl_vf_ptr(vf, RL_VF_XN, 0), rl_funnel_arg_u32(vf->hidden),
      rl_funnel_arg_f32((float)(1.0 / vf->hidden)),
      rl_funnel_arg_f32(RL_VERIFY_EPS)};
  return rl_vf_launch(vf, RL_VF_K_RMSNORM, vf->dims.batch, 1, args, 6);
}

// out[b] := W in[b] for every row b; W at byte offset, rows x cols.
static rl_status_t rl_vf_matmul(rl_vf_t* vf, rl_vf_buffer_t w, uint64_t offset,
                                rl_vf_buffer_t in, rl_vf_buffer_t out,
                                uint32_t rows, uint32_t cols) {
  const rl_funnel_arg_t args[] = {
      rl_vf_ptr(vf, w, offset), rl_vf_ptr(vf, in, 0), rl_vf_ptr(vf, out, 0),
      rl_funnel_arg_u32(rows), rl_funnel_arg_u32(cols)};
  return rl_vf_launch(vf, RL_VF_K_MATMUL, rows, vf->dims.batch, args, 5);
}

static rl_status_t rl_vf_residual(rl_vf_t* vf) {
  const uint32_t n = vf->dims.batch * vf->hidden;
  const rl_funnel_arg_t args[] = {rl_vf_ptr(vf, RL_VF_X, 0),
                                  rl_vf_ptr(vf, RL_VF_DELTA, 0),
                                  rl_funnel_arg_u32(n)};
  return rl_vf_launch(vf, RL_VF_K_ADD, rl_vf_blocks(n), 1, args, 3);
}

// RoPE of every row, then the quantised K/V append of layer |layer|.
static rl_status_t rl_vf_rope_append(rl_vf_t* vf, uint32_t layer) {
  const uint32_t h = vf->hidden, B = vf->dims.batch;
  const rl_funnel_arg_t rope[] = {
      rl_vf_ptr(vf, RL_VF_QKV, 0), rl_vf_ptr(vf, RL_VF_ROPE, 0),
      rl_vf_pos(vf), rl_funnel_arg_u32(vf->dims.head_dim / 2),
      rl_funnel_arg_u32(h), rl_funnel_arg_u32(3 * h)};
  RL_RETURN_IF_ERROR(
      rl_vf_launch(vf, RL_VF_K_ROPE, rl_vf_blocks(h), B, rope, 6));
  const rl_funnel_arg_t append[] = {
      rl_vf_ptr(vf, RL_VF_QKV, 0),
      rl_vf_ptr(vf, RL_VF_KV, (uint64_t)layer * 2 * h),
      rl_vf_ptr(vf, RL_VF_KV_SCALES, (uint64_t)layer * 2 * 4),
      rl_funnel_arg_u32(3 * h), rl_funnel_arg_u32(vf->row_bytes),
      rl_funnel_arg_u32(vf->row_scales), rl_vf_pos(vf), rl_funnel_arg_u32(h)};
  return rl_vf_launch(vf, RL_VF_K_KV_APPEND, 2, B, append, 8);
}

// Split-KV attention of layer |layer|: partials on a chunks x heads x rows
// grid, then the merge per (head, row) into attn.
static rl_status_t rl_vf_attention(rl_vf_t* vf, uint32_t layer) {
  const rl_verify_dims_t* d = &vf->dims;
  const float score_scale =
      (float)(1.4426950408889634 / sqrt((double)d->head_dim));
  const rl_funnel_arg_t partial[] = {
      rl_vf_ptr(vf, RL_VF_QKV, 0),
      rl_vf_ptr(vf, RL_VF_KV, (uint64_t)layer * 2 * vf->hidden),
      rl_vf_ptr(vf, RL_VF_KV_SCALES, (uint64_t)layer * 2 * 4),
      rl_vf_partials(vf, RL_EFFECT_WRITE), rl_funnel_arg_u32(vf->row_bytes),
      rl_funnel_arg_u32(vf->row_scales), rl_funnel_arg_u32(d->head_dim),
      rl_funnel_arg_u32(d->heads), rl_vf_chunk_len(vf),
      rl_funnel_arg_u32(d->chunks), rl_vf_pos(vf),
      rl_funnel_arg_f32(score_scale)};
  RL_RETURN_IF_ERROR(rl_vf_launch3(vf, RL_VF_K_ATTN_PARTIAL, d->chunks,
                                   d->heads, d->batch, partial, 12));
  const rl_funnel_arg_t merge[] = {
      rl_vf_partials(vf, RL_EFFECT_READ), rl_vf_ptr(vf, RL_VF_ATTN, 0),
      rl_funnel_arg_u32(d->head_dim), rl_funnel_arg_u32(d->heads),
      rl_funnel_arg_u32(d->chunks)};
  return rl_vf_launch(vf, RL_VF_K_ATTN_MERGE, d->heads, d->batch, merge, 5);
}

// The recurrence of layer |layer| over the rows, added to x.
static rl_status_t rl_vf_recurrence(rl_vf_t* vf, uint32_t layer) {
  const uint64_t h = vf->hidden, B = vf->dims.batch;
  const rl_funnel_arg_t args[] = {
      rl_vf_ptr(vf, RL_VF_X, 0), rl_vf_ptr(vf, RL_VF_XN, 0),
      rl_vf_ptr(vf, RL_VF_DECAY, layer * h * 4),
      rl_vf_ptr(vf, RL_VF_GAIN, layer * h * 4),
      rl_vf_ptr(vf, RL_VF_RECUR, layer * h * 4),
      rl_vf_ptr(vf, RL_VF_RECUR_HISTORY, layer * (B + 1) * h * 4),
      rl_funnel_arg_u32((uint32_t)h), rl_funnel_arg_u32((uint32_t)B)};
  return rl_vf_launch(vf, RL_VF_K_RECUR, 1, 1, args, 8);
}

static rl_status_t rl_vf_mlp(rl_vf_t* vf, uint32_t layer) {
  const uint32_t h = vf->hidden, f = vf->dims.ffn;
  RL_RETURN_IF_ERROR(rl_vf_matmul(vf, RL_VF_W_GATE_UP,
                                  (uint64_t)layer * 2 * f * h * 4, RL_VF_XN,
                                  RL_VF_GATE_UP, 2 * f, h));
  const rl_funnel_arg_t silu[] = {rl_vf_ptr(vf, RL_VF_GATE_UP, 0),
                                  rl_vf_ptr(vf, RL_VF_ACT, 0),
                                  rl_funnel_arg_u32(f)};
  RL_RETURN_IF_ERROR(rl_vf_launch(vf, RL_VF_K_SILU_MUL, rl_vf_blocks(f),
                                  vf->dims.batch, silu, 3));
  RL_RETURN_IF_ERROR(rl_vf_matmul(vf, RL_VF_W_DOWN,
                                  (uint64_t)layer * h * f * 4, RL_VF_ACT,
                                  RL_VF_DELTA, h, f));
  return rl_vf_residual(vf);
}

// The 14 launches of layer |layer|.
static rl_status_t rl_vf_layer(rl_vf_t* vf, uint32_t layer) {
  const uint64_t h = vf->hidden;
  RL_RETURN_IF_ERROR(rl_vf_rmsnorm(vf, RL_VF_ATTN_NORM, layer * h * 4));
  RL_RETURN_IF_ERROR(rl_vf_matmul(vf, RL_VF_W_QKV, layer * 3 * h * h * 4,
                                  RL_VF_XN, RL_VF_QKV, 3 * (uint32_t)h,
                                  (uint32_t)h));
  RL_RETURN_IF_ERROR(rl_vf_rope_append(vf, layer));
  RL_RETURN_IF_ERROR(rl_vf_attention(vf, layer));
  RL_RETURN_IF_ERROR(rl_vf_matmul(vf, RL_VF_W_O, layer * h * h * 4,
                                  RL_VF_ATTN, RL_VF_DELTA, (uint32_t)h,
                                  (uint32_t)h));
  RL_RETURN_IF_ERROR(rl_vf_residual(vf));
  RL_RETURN_IF_ERROR(rl_vf_recurrence(vf, layer));
  RL_RETURN_IF_ERROR(rl_vf_rmsnorm(vf, RL_VF_FFN_NORM, layer * h * 4));
  return rl_vf_mlp(vf, layer);
}

// vf_kv_save of the B rows at pos into |dst| / |dst_scales|.
static rl_status_t rl_vf_kv_save(rl_vf_t* vf, rl_vf_buffer_t dst,
                                 rl_vf_buffer_t dst_scales) {
  const uint32_t words = vf->row_bytes / 4;
  const rl_funnel_arg_t args[] = {
      rl_vf_ptr(vf, RL_VF_KV, 0), rl_vf_ptr(vf, RL_VF_KV_SCALES, 0),
      rl_vf_ptr(vf, dst, 0), rl_vf_ptr(vf, dst_scales, 0), rl_vf_pos(vf),
      rl_funnel_arg_u32(words), rl_funnel_arg_u32(vf->row_scales)};
  return rl_vf_launch(vf, RL_VF_K_KV_SAVE,
                      rl_vf_blocks(words + vf->row_scales), vf->dims.batch,
                      args, 7);
}

// LM head, argmax per row, acceptance, the snapshot after forward and the
// rollback.
static rl_status_t rl_vf_tail(rl_vf_t* vf) {
  const rl_verify_dims_t* d = &vf->dims;
  RL_RETURN_IF_ERROR(rl_vf_rmsnorm(vf, RL_VF_FINAL_NORM, 0));
  RL_RETURN_IF_ERROR(rl_vf_matmul(vf, RL_VF_LM_HEAD, 0, RL_VF_XN,
                                  RL_VF_LOGITS, d->vocab, vf->hidden));
  const rl_funnel_arg_t argmax[] = {rl_vf_ptr(vf, RL_VF_LOGITS, 0),
                                    rl_vf_ptr(vf, RL_VF_ARGMAX, 0),
                                    rl_funnel_arg_u32(d->vocab)};
  RL_RETURN_IF_ERROR(
      rl_vf_launch(vf, RL_VF_K_ARGMAX, d->batch, 1, argmax, 3));
  // slot = pos / B: the window index plus first_slot (windows advance by
  // B), so the kernel picks the next window's row of the drafts table.
  const rl_expr_t slot = {.param = vf->pos_param, .add = 0,
                          .op = RL_EXPR_DIV, .operand = d->batch};
  const rl_funnel_arg_t accept[] = {
      rl_vf_ptr(vf, RL_VF_TOKENS, 0), rl_vf_ptr(vf, RL_VF_ARGMAX, 0),
      rl_vf_ptr(vf, RL_VF_ACCEPT, 0), rl_vf_ptr(vf, RL_VF_DRAFTS, 0),
      rl_funnel_arg_u32(d->batch), rl_vf_pos(vf),
      rl_funnel_arg_u32_bound(vf->pos / d->batch, slot),
      rl_funnel_arg_u32((uint32_t)(vf->window_start / d->batch)),
      rl_funnel_arg_u32(RL_VERIFY_WINDOW_STEPS)};
  RL_RETURN_IF_ERROR(rl_vf_launch(vf, RL_VF_K_ACCEPT, 1, 1, accept, 9));
  RL_RETURN_IF_ERROR(
      rl_vf_kv_save(vf, RL_VF_KV_FORWARD, RL_VF_KV_FORWARD_SCALES));
  const uint32_t words = vf->row_bytes / 4;
  const rl_funnel_arg_t restore[] = {
      rl_vf_ptr(vf, RL_VF_KV, 0), rl_vf_ptr(vf, RL_VF_KV_SCALES, 0),
      rl_vf_ptr(vf, RL_VF_KV_BACKUP, 0),
      rl_vf_ptr(vf, RL_VF_KV_BACKUP_SCALES, 0),
      rl_vf_ptr(vf, RL_VF_ACCEPT, 0), rl_vf_pos(vf), rl_funnel_arg_u32(words),
      rl_funnel_arg_u32(vf->row_scales)};
  RL_RETURN_IF_ERROR(rl_vf_launch(vf, RL_VF_K_KV_RESTORE,
                                  rl_vf_blocks(words + vf->row_scales),
                                  d->batch, restore, 8));
  const rl_funnel_arg_t recur[] = {
      rl_vf_ptr(vf, RL_VF_RECUR, 0), rl_vf_ptr(vf, RL_VF_RECUR_HISTORY, 0),
      rl_vf_ptr(vf, RL_VF_ACCEPT, 0), rl_funnel_arg_u32(vf->hidden),
      rl_funnel_arg_u32(d->batch)};
  return rl_vf_launch(vf, RL_VF_K_RECUR_RESTORE, d->layers, 1, recur, 5);
}

static rl_status_t rl_vf_launches(rl_vf_t* vf) {
  RL_RETURN_IF_ERROR(rl_vf_kv_save(vf, RL_VF_KV_BACKUP,
                                   RL_VF_KV_BACKUP_SCALES));
  const rl_funnel_arg_t embed[] = {
      rl_vf_ptr(vf, RL_VF_EMBEDDING, 0), rl_vf_ptr(vf, RL_VF_TOKENS, 0),
      rl_vf_ptr(vf, RL_VF_X, 0), rl_funnel_arg_u32(vf->hidden),
      rl_funnel_arg_u32(vf->dims.vocab)};
  RL_RETURN_IF_ERROR(rl_vf_launch(vf, RL_VF_K_EMBED, rl_vf_blocks(vf->hidden),
                                  vf->dims.batch, embed, 5));
  for (uint32_t layer = 0; layer < vf->dims.layers; ++layer) {
    RL_RETURN_IF_ERROR(rl_vf_layer(vf, layer));
  }
  return rl_vf_tail(vf);
}

static rl_status_t rl_vf_region(rl_vf_t* vf, const char* name,
                                rl_vf_buffer_t buffer, uint64_t offset,
                                uint64_t size, rl_region_type_t type) {
  uint32_t index = 0;
  return rl_funnel_region(vf->funnel, name, vf->buffers[buffer], offset, size,
                          type, &index);
}

// A region covering all of |buffer|.
static rl_status_t rl_vf_region_all(rl_vf_t* vf, const char* name,
                                    rl_vf_buffer_t buffer,
                                    rl_region_type_t type) {
  return rl_vf_region(vf, name, buffer, 0, rl_vf_buffer_bytes(vf, buffer),
                      type);
}

static int64_t rl_vf_default_pos(const rl_verify_dims_t* d);

// The regions and the window (verify.h). The window and the guard rows
// depend on the dimensions only (the window starts at the default pos), so
// a recording at another pos declares the same ones.
static rl_status_t rl_vf_declare(rl_vf_t* vf) {
  static const struct {
    const char* name;
    rl_vf_buffer_t buffer;
    rl_region_type_t type;
  } whole[] = {
      {"tokens", RL_VF_TOKENS, RL_REGION_U32},
      {"argmax", RL_VF_ARGMAX, RL_REGION_U32},
      {"accept", RL_VF_ACCEPT, RL_REGION_U32},
      {"hidden", RL_VF_X, RL_REGION_F32},
      {"logits", RL_VF_LOGITS, RL_REGION_F32},
      {"kv_cache", RL_VF_KV, RL_REGION_BYTES},
      {"kv_scales", RL_VF_KV_SCALES, RL_REGION_F32},
      {"partials", RL_VF_PARTIALS, RL_REGION_F32},
      {"kv_forward", RL_VF_KV_FORWARD, RL_REGION_BYTES},
      {"kv_forward_scales", RL_VF_KV_FORWARD_SCALES, RL_REGION_F32},
      {"recur_history", RL_VF_RECUR_HISTORY, RL_REGION_F32},
      {"kv_backup", RL_VF_KV_BACKUP, RL_REGION_BYTES},
      {"kv_backup_scales", RL_VF_KV_BACKUP_SCALES, RL_REGION_F32},
      {"recur", RL_VF_RECUR, RL_REGION_F32},
  };
  for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); ++i) {
    RL_RETURN_IF_ERROR(
        rl_vf_region_all(vf, whole[i].name, whole[i].buffer, whole[i].type));
  }
  const uint32_t B = vf->dims.batch;
  const int64_t start = rl_vf_default_pos(&vf->dims);
  const uint64_t guard = (uint64_t)start + RL_VERIFY_WINDOW_STEPS * B;
  if (guard + B <= vf->dims.max_context) {
    RL_RETURN_IF_ERROR(rl_vf_region(vf, "kv_guard", RL_VF_KV,
                                    guard * vf->row_bytes,
                                    (uint64_t)B * vf->row_bytes,
                                    RL_REGION_BYTES));
    RL_RETURN_IF_ERROR(rl_vf_region(vf, "kv_guard_scales", RL_VF_KV_SCALES,
                                    guard * vf->row_scales * 4,
                                    (uint64_t)B * vf->row_scales * 4,
                                    RL_REGION_F32));
  }
  uint32_t window = 0;
  return rl_funnel_window(vf->funnel, vf->pos_param, start,
                          RL_VERIFY_WINDOW_STEPS, B, &window);
}

// The default pos: RL_VERIFY_DEFAULT_POS when the window and its guard
// rows fit, else as late as they fit; never below the admitted minimum.
static int64_t rl_vf_default_pos(const rl_verify_dims_t* d) {
  int64_t min = 0, max = 0;
  rl_verify_pos_range(d, &min, &max);
  int64_t latest =
      (int64_t)d->max_context - (RL_VERIFY_WINDOW_STEPS + 1) * d->batch;
  int64_t pos = RL_VERIFY_DEFAULT_POS < latest ? RL_VERIFY_DEFAULT_POS
                                               : latest;
  return pos < min ? min : pos;
}

static rl_status_t rl_vf_pos_value(const rl_verify_dims_t* dims,
                                   const rl_workload_options_t* options,
                                   int64_t* out_pos) {
  int64_t min = 0, max = 0;
  rl_verify_pos_range(dims, &min, &max);
  const rl_workload_param_t pos = {"pos", "first draft position", min, max,
                                   rl_vf_default_pos(dims)};
  rl_workload_t shape = rl_workload_verify;
  shape.param_count = 1;
  shape.params = &pos;
  return rl_workload_param_value(&shape, options, "pos", out_pos);
}

static rl_status_t rl_vf_check_workspace(const rl_vf_t* vf) {
  const uint64_t need = rl_verify_workspace_bytes(&vf->dims);
  const uint64_t have = rl_vf_buffer_bytes(vf, RL_VF_PARTIALS);
  if (vf->dims.workspace_chunks >= vf->dims.chunks) return RL_OK;
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "verify: partials workspace of %llu bytes (%u chunks); "
                   "S = %u at B %u needs %llu bytes (%u rows x %u heads x %u "
                   "chunks x %u floats)",
                   (unsigned long long)have, vf->dims.workspace_chunks,
                   vf->dims.chunks, vf->dims.batch, (unsigned long long)need,
                   vf->dims.batch, vf->dims.heads, vf->dims.chunks,
                   vf->dims.head_dim + 2);
}

static rl_status_t rl_vf_load(rl_vf_t* vf,
                              const rl_workload_options_t* options) {
  if (!options->code_object || options->code_object_size == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify needs the bytes of verify-<target>.co");
  }
  uint32_t code_object = 0;
  RL_RETURN_IF_ERROR(rl_funnel_load_code_object(
      vf->funnel, options->code_object, options->code_object_size,
      &code_object));
  for (uint32_t k = 0; k < RL_VF_KERNEL_COUNT_; ++k) {
    RL_RETURN_IF_ERROR(rl_funnel_kernel(vf->funnel, code_object,
                                        rl_vf_kernel_names[k],
                                        &vf->kernels[k]));
  }
  return RL_OK;
}

rl_status_t rl_verify_record(rl_funnel_t* funnel,
                             const rl_workload_options_t* options,
                             const rl_verify_dims_t* dims) {
  RL_RETURN_IF_ERROR(rl_verify_dims_check(dims));
  rl_vf_t vf = {.funnel = funnel, .dims = *dims};
  rl_vf_derive(&vf);
  int64_t pos = 0;
  RL_RETURN_IF_ERROR(rl_vf_pos_value(dims, options, &pos));
  vf.pos = (uint32_t)pos;
  vf.window_start = rl_vf_default_pos(dims);
  RL_RETURN_IF_ERROR(rl_vf_check_workspace(&vf));
  RL_RETURN_IF_ERROR(rl_vf_load(&vf, options));
  int64_t min = 0, max = 0;
  rl_verify_pos_range(dims, &min, &max);
  RL_RETURN_IF_ERROR(rl_funnel_param(funnel, "pos", min, max, pos,
                                     &vf.pos_param));
  RL_RETURN_IF_ERROR(rl_vf_register_buffers(&vf));
  RL_RETURN_IF_ERROR(rl_vf_upload_initial(&vf, options->seed));
  RL_RETURN_IF_ERROR(rl_vf_launches(&vf));
  return rl_vf_declare(&vf);
}

static const rl_verify_dims_t rl_vf_default_dims = RL_VERIFY_DIMS_DEFAULT;

static const rl_workload_param_t rl_vf_params[] = {
    {"pos", "first draft position (rows pos..pos+B-1); admitted range from "
            "crossover, batch and max_context", 0, 1 << 20,
     RL_VERIFY_DEFAULT_POS},
};

static const rl_workload_param_t rl_vf_config[] = {
    {"layers", "transformer layers (14 launches each, plus 9)", 1, 4097, 49},
    {"batch", "draft tokens per step B", RL_VERIFY_MIN_BATCH,
     RL_VERIFY_MAX_BATCH + 1, 16},
    {"max_context", "K/V cache rows", 13 * RL_VERIFY_MIN_BATCH, (1 << 20) + 1,
     8704},
    {"crossover", "the live context pos + B must exceed it", 0, 1 << 20,
     4096},
    {"workspace_chunks", "partials capacity in chunks per (row, head); 0: "
                         "the required 8", 0, 4097, 0},
    {"wrong_drafts", "windows of the 12 whose drafts carry one wrong token "
                     "(tau < B); the others are the reference run's tokens "
                     "(tau = B)", 0, RL_VERIFY_WINDOW_STEPS + 1, 8},
};

// The registry entry: the default dimensions with the config overrides.
static rl_status_t rl_vf_record_default(rl_funnel_t* funnel,
                                        const rl_workload_options_t* options) {
  rl_verify_dims_t dims = rl_vf_default_dims;
  enum { kCount = sizeof(rl_vf_config) / sizeof(rl_vf_config[0]) };
  int64_t values[kCount] = {0};
  for (uint32_t i = 0; i < kCount; ++i) {
    RL_RETURN_IF_ERROR(rl_workload_config_value(
        &rl_workload_verify, options, rl_vf_config[i].name, &values[i]));
  }
  dims.layers = (uint32_t)values[0];
  dims.batch = (uint32_t)values[1];
  dims.max_context = (uint32_t)values[2];
  dims.crossover = (uint32_t)values[3];
  dims.workspace_chunks = (uint32_t)values[4];
  dims.wrong_drafts = (uint32_t)values[5];
  return rl_verify_record(funnel, options, &dims);
}

// The configuration from the capture's shape: layers from the launch
// count, batch from the tokens buffer, max_context from the RoPE table,
// crossover from pos's admitted minimum, workspace_chunks from the
// partials buffer; other dimensions are the defaults.
static rl_status_t rl_vf_config_of(const rl_capture_t* capture,
                                   rl_workload_param_value_t* out_config,
                                   uint32_t capacity, uint32_t* out_count) {
  *out_count = 0;
  const rl_verify_dims_t d = rl_vf_default_dims;
  const uint32_t launches = capture->launch_count;
  uint32_t tokens = 0, rope = 0, partials = 0;
  if (capacity < 5 || capture->param_count != 1 ||
      launches < RL_VERIFY_LAUNCHES_FIXED + RL_VERIFY_LAUNCHES_PER_LAYER ||
      (launches - RL_VERIFY_LAUNCHES_FIXED) % RL_VERIFY_LAUNCHES_PER_LAYER ||
      !rl_capture_find_buffer(capture, "tokens", &tokens) ||
      !rl_capture_find_buffer(capture, "rope", &rope) ||
      !rl_capture_find_buffer(capture, "partials", &partials)) {
    return RL_STATUS(RL_STATUS_NOT_FOUND,
                     "verify: a capture of %u launches without the verify "
                     "buffers fits no configuration", launches);
  }
  const uint64_t batch = capture->buffers[tokens].size / 4;
  const uint64_t chunk_bytes = batch * d.heads * (d.head_dim + 2u) * 4u;
  const uint64_t size = capture->buffers[partials].size;
  if (batch < RL_VERIFY_MIN_BATCH || batch > RL_VERIFY_MAX_BATCH ||
      size % chunk_bytes != 0) {
    return RL_STATUS(RL_STATUS_NOT_FOUND,
                     "verify: batch %llu and a partials buffer of %llu bytes "
                     "fit no configuration", (unsigned long long)batch,
                     (unsigned long long)size);
  }
  out_config[0] = (rl_workload_param_value_t){
      "layers", (launches - RL_VERIFY_LAUNCHES_FIXED) /
                    RL_VERIFY_LAUNCHES_PER_LAYER};
  out_config[1] = (rl_workload_param_value_t){"batch", (int64_t)batch};
  out_config[2] = (rl_workload_param_value_t){
      "max_context", (int64_t)(capture->buffers[rope].size / (d.head_dim * 4))};
  out_config[3] = (rl_workload_param_value_t){
      "crossover", capture->params[0].min + (int64_t)batch - 1};
  out_config[4] = (rl_workload_param_value_t){
      "workspace_chunks", (int64_t)(size / chunk_bytes)};
  *out_count = 5;
  return RL_OK;
}

const rl_workload_t rl_workload_verify = {
    .name = "verify",
    .description = "the verify step of speculative decoding: B draft tokens "
                   "(default 16) at long context (8704 rows), int8 K/V, "
                   "split-KV FA2 attention (S 8), acceptance and rollback: "
                   "14 launches per layer + 9",
    .code_object = "verify",
    .param_count = sizeof(rl_vf_params) / sizeof(rl_vf_params[0]),
    .params = rl_vf_params,
    .config_count = sizeof(rl_vf_config) / sizeof(rl_vf_config[0]),
    .config = rl_vf_config,
    .record = rl_vf_record_default,
    .config_of = rl_vf_config_of,
};
