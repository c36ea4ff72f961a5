// The "decode" workload: the launches of one decode step, its regions and
// window, and its registry entry (kernels/workloads/decode.h).
#include "kernels/workloads/decode.h"

#include <math.h>
#include <string.h>

#include "kernels/workloads/decode_internal.h"

#define RL_DC_BLOCK 64u  // the kernels' fixed work-group size

static const char* const rl_dc_kernel_names[RL_DC_KERNEL_COUNT_] = {
    "dc_embed",   "dc_rmsnorm",      "dc_matvec",     "dc_rope",
    "dc_kv_append", "dc_attn_partial", "dc_attn_merge", "dc_add",
    "dc_silu_mul", "dc_argmax"};

static uint32_t rl_dc_blocks(uint32_t n) {
  return (n + RL_DC_BLOCK - 1) / RL_DC_BLOCK;
}

static rl_funnel_arg_t rl_dc_ptr(const rl_dc_t* dc, rl_dc_buffer_t buffer,
                                 uint64_t element) {
  return rl_funnel_arg_pointer(dc->addresses[buffer] + element * 4);
}

// The partials workspace with its declared extent: the bytes the longest
// admitted context needs (decode.h, "Workspace contract").
static rl_funnel_arg_t rl_dc_partials(const rl_dc_t* dc, rl_effect_t effect) {
  return rl_funnel_arg_pointer_declared(
      dc->addresses[RL_DC_PARTIALS], effect, 0,
      rl_decode_workspace_bytes(&dc->dims));
}

static rl_expr_t rl_dc_pos_expr(const rl_dc_t* dc, int64_t add,
                                rl_expr_op_t op, int64_t operand) {
  return (rl_expr_t){.param = dc->pos_param, .add = add, .op = op,
                     .operand = operand};
}

// The chunk count ceil((pos + 1) / chunk) and its binding.
static rl_expr_t rl_dc_chunks_expr(const rl_dc_t* dc) {
  return rl_dc_pos_expr(dc, 1, RL_EXPR_CEIL_DIV, dc->dims.chunk);
}

static uint32_t rl_dc_chunks(const rl_dc_t* dc) {
  return (dc->pos + 1 + dc->dims.chunk - 1) / dc->dims.chunk;
}

// Launches |kernel| on a grid of |gx| x |gy| work-groups of 64.
static rl_status_t rl_dc_launch(rl_dc_t* dc, rl_dc_kernel_t kernel,
                                uint32_t gx, uint32_t gy,
                                const rl_funnel_arg_t* args, uint32_t count,
                                const rl_funnel_launch_options_t* options) {
  const uint32_t grid[3] = {gx, gy, 1};
  const uint32_t block[3] = {RL_DC_BLOCK, 1, 1};
  return rl_funnel_launch(dc->funnel, dc->kernels[kernel], grid, block, 0,
                          args, count, options, NULL);
}

// xn := rmsnorm(x) * norm[element ...].
static rl_status_t rl_dc_rmsnorm(rl_dc_t* dc, rl_dc_buffer_t norm,
                                 uint64_t element) {
  const rl_funnel_arg_t args[] = {
      rl_dc_ptr(dc, RL_DC_X, 0), rl_dc_ptr(dc, norm, element),
      rl_dc_ptr(dc, RL_DC_XN, 0), rl_funnel_arg_u32(dc->hidden),
      rl_funnel_arg_f32((float)(1.0 / dc->hidden)),
      rl_funnel_arg_f32(RL_DECODE_EPS)};
  return rl_dc_launch(dc, RL_DC_K_RMSNORM, 1, 1, args, 6, NULL);
}

// out := W[rows x cols at element ...] in, one work-group per row.
static rl_status_t rl_dc_matvec(rl_dc_t* dc, rl_dc_buffer_t w,
                                uint64_t element, rl_dc_buffer_t in,
                                rl_dc_buffer_t out, uint32_t rows,
                                uint32_t cols) {
  const rl_funnel_arg_t args[] = {
      rl_dc_ptr(dc, w, element), rl_dc_ptr(dc, in, 0), rl_dc_ptr(dc, out, 0),
      rl_funnel_arg_u32(cols)};
  return rl_dc_launch(dc, RL_DC_K_MATVEC, rows, 1, args, 4, NULL);
}

// x += delta.
static rl_status_t rl_dc_residual(rl_dc_t* dc) {
  const rl_funnel_arg_t args[] = {rl_dc_ptr(dc, RL_DC_X, 0),
                                  rl_dc_ptr(dc, RL_DC_DELTA, 0),
                                  rl_funnel_arg_u32(dc->hidden)};
  return rl_dc_launch(dc, RL_DC_K_ADD, rl_dc_blocks(dc->hidden), 1, args, 3,
                      NULL);
}

// RoPE of q and k at pos, then the K/V rows of layer |layer| at pos.
static rl_status_t rl_dc_rope_append(rl_dc_t* dc, uint32_t layer) {
  const uint32_t h = dc->hidden;
  const rl_expr_t pos = rl_dc_pos_expr(dc, 0, RL_EXPR_ADD, 0);
  const rl_funnel_arg_t rope[] = {
      rl_dc_ptr(dc, RL_DC_QKV, 0), rl_dc_ptr(dc, RL_DC_ROPE, 0),
      rl_funnel_arg_u32_bound(dc->pos, pos),
      rl_funnel_arg_u32(dc->dims.head_dim / 2), rl_funnel_arg_u32(h)};
  RL_RETURN_IF_ERROR(
      rl_dc_launch(dc, RL_DC_K_ROPE, rl_dc_blocks(h), 1, rope, 5, NULL));
  const rl_funnel_arg_t append[] = {
      rl_dc_ptr(dc, RL_DC_QKV, h),
      rl_dc_ptr(dc, RL_DC_KV, (uint64_t)layer * 2 * h),
      rl_funnel_arg_u32(dc->row_stride), rl_funnel_arg_u32_bound(dc->pos, pos),
      rl_funnel_arg_u32(h)};
  return rl_dc_launch(dc, RL_DC_K_KV_APPEND, rl_dc_blocks(h), 1, append, 5,
                      NULL);
}

// Split-KV attention of layer |layer| over the context [0, pos]: partials
// on a chunks x heads grid, then the merge per head into attn.
static rl_status_t rl_dc_attention(rl_dc_t* dc, uint32_t layer) {
  const rl_decode_dims_t* d = &dc->dims;
  const uint32_t chunks = rl_dc_chunks(dc);
  const rl_expr_t chunk_count = rl_dc_chunks_expr(dc);
  const float score_scale =
      (float)(1.4426950408889634 / sqrt((double)d->head_dim));
  const rl_funnel_launch_options_t grid = {.grid_bound = {true, false, false},
                                           .grid_binding = {chunk_count}};
  const rl_funnel_arg_t partial[] = {
      rl_dc_ptr(dc, RL_DC_QKV, 0),
      rl_dc_ptr(dc, RL_DC_KV, (uint64_t)layer * 2 * dc->hidden),
      rl_dc_partials(dc, RL_EFFECT_WRITE), rl_funnel_arg_u32(dc->row_stride),
      rl_funnel_arg_u32(d->head_dim), rl_funnel_arg_u32(d->heads),
      rl_funnel_arg_u32(d->chunk),
      rl_funnel_arg_u32_bound(dc->pos + 1,
                              rl_dc_pos_expr(dc, 1, RL_EXPR_ADD, 0)),
      rl_funnel_arg_f32(score_scale)};
  RL_RETURN_IF_ERROR(rl_dc_launch(dc, RL_DC_K_ATTN_PARTIAL, chunks, d->heads,
                                  partial, 9, &grid));
  const rl_funnel_arg_t merge[] = {
      rl_dc_partials(dc, RL_EFFECT_READ), rl_dc_ptr(dc, RL_DC_ATTN, 0),
      rl_funnel_arg_u32(d->head_dim), rl_funnel_arg_u32(d->heads),
      rl_funnel_arg_u32_bound(chunks, chunk_count)};
  return rl_dc_launch(dc, RL_DC_K_ATTN_MERGE, d->heads, 1, merge, 5, NULL);
}

// x += W_down (silu(gate) * up) of layer |layer|, from xn.
static rl_status_t rl_dc_mlp(rl_dc_t* dc, uint32_t layer) {
  const uint32_t h = dc->hidden, f = dc->dims.ffn;
  RL_RETURN_IF_ERROR(rl_dc_matvec(dc, RL_DC_W_GATE_UP,
                                  (uint64_t)layer * 2 * f * h, RL_DC_XN,
                                  RL_DC_GATE_UP, 2 * f, h));
  const rl_funnel_arg_t silu[] = {rl_dc_ptr(dc, RL_DC_GATE_UP, 0),
                                  rl_dc_ptr(dc, RL_DC_ACT, 0),
                                  rl_funnel_arg_u32(f)};
  RL_RETURN_IF_ERROR(
      rl_dc_launch(dc, RL_DC_K_SILU_MUL, rl_dc_blocks(f), 1, silu, 3, NULL));
  RL_RETURN_IF_ERROR(rl_dc_matvec(dc, RL_DC_W_DOWN, (uint64_t)layer * h * f,
                                  RL_DC_ACT, RL_DC_DELTA, h, f));
  return rl_dc_residual(dc);
}

// The 13 launches of layer |layer|.
static rl_status_t rl_dc_layer(rl_dc_t* dc, uint32_t layer) {
  const uint32_t h = dc->hidden;
  RL_RETURN_IF_ERROR(rl_dc_rmsnorm(dc, RL_DC_ATTN_NORM, (uint64_t)layer * h));
  RL_RETURN_IF_ERROR(rl_dc_matvec(dc, RL_DC_W_QKV, (uint64_t)layer * 3 * h * h,
                                  RL_DC_XN, RL_DC_QKV, 3 * h, h));
  RL_RETURN_IF_ERROR(rl_dc_rope_append(dc, layer));
  RL_RETURN_IF_ERROR(rl_dc_attention(dc, layer));
  RL_RETURN_IF_ERROR(rl_dc_matvec(dc, RL_DC_W_O, (uint64_t)layer * h * h,
                                  RL_DC_ATTN, RL_DC_DELTA, h, h));
  RL_RETURN_IF_ERROR(rl_dc_residual(dc));
  RL_RETURN_IF_ERROR(rl_dc_rmsnorm(dc, RL_DC_FFN_NORM, (uint64_t)layer * h));
  return rl_dc_mlp(dc, layer);
}

// embed, the layers, then final norm, LM head and argmax.
static rl_status_t rl_dc_launches(rl_dc_t* dc) {
  const rl_funnel_arg_t embed[] = {
      rl_dc_ptr(dc, RL_DC_EMBEDDING, 0), rl_dc_ptr(dc, RL_DC_TOKEN, 0),
      rl_dc_ptr(dc, RL_DC_X, 0), rl_funnel_arg_u32(dc->hidden),
      rl_funnel_arg_u32(dc->dims.vocab)};
  RL_RETURN_IF_ERROR(rl_dc_launch(dc, RL_DC_K_EMBED, rl_dc_blocks(dc->hidden),
                                  1, embed, 5, NULL));
  for (uint32_t layer = 0; layer < dc->dims.layers; ++layer) {
    RL_RETURN_IF_ERROR(rl_dc_layer(dc, layer));
  }
  RL_RETURN_IF_ERROR(rl_dc_rmsnorm(dc, RL_DC_FINAL_NORM, 0));
  RL_RETURN_IF_ERROR(rl_dc_matvec(dc, RL_DC_LM_HEAD, 0, RL_DC_XN,
                                  RL_DC_LOGITS, dc->dims.vocab, dc->hidden));
  const rl_funnel_arg_t argmax[] = {rl_dc_ptr(dc, RL_DC_LOGITS, 0),
                                    rl_dc_ptr(dc, RL_DC_TOKEN, 0),
                                    rl_funnel_arg_u32(dc->dims.vocab)};
  return rl_dc_launch(dc, RL_DC_K_ARGMAX, 1, 1, argmax, 3, NULL);
}

static rl_status_t rl_dc_region(rl_dc_t* dc, const char* name,
                                rl_dc_buffer_t buffer, uint64_t offset,
                                uint64_t size, rl_region_type_t type) {
  uint32_t index = 0;
  return rl_funnel_region(dc->funnel, name, dc->buffers[buffer], offset, size,
                          type, &index);
}

// The regions and the default window (decode.h).
static rl_status_t rl_dc_declare(rl_dc_t* dc) {
  RL_RETURN_IF_ERROR(rl_dc_region(dc, "token", RL_DC_TOKEN, 0, 4,
                                  RL_REGION_U32));
  RL_RETURN_IF_ERROR(rl_dc_region(dc, "logits", RL_DC_LOGITS, 0,
                                  dc->dims.vocab * 4ull, RL_REGION_F32));
  RL_RETURN_IF_ERROR(rl_dc_region(dc, "hidden", RL_DC_X, 0, dc->hidden * 4ull,
                                  RL_REGION_F32));
  const uint64_t row_bytes = dc->row_stride * 4ull;
  RL_RETURN_IF_ERROR(rl_dc_region(dc, "kv_cache", RL_DC_KV, 0,
                                  row_bytes * dc->dims.max_context,
                                  RL_REGION_F32));
  if (dc->pos + 1 < dc->dims.max_context) {
    RL_RETURN_IF_ERROR(rl_dc_region(dc, "kv_guard", RL_DC_KV,
                                    row_bytes * (dc->pos + 1), row_bytes,
                                    RL_REGION_F32));
  }
  RL_RETURN_IF_ERROR(rl_dc_region(
      dc, "partials", RL_DC_PARTIALS, 0,
      rl_dc_buffer_elements(dc, RL_DC_PARTIALS) * 4, RL_REGION_F32));
  uint32_t window = 0;
  return rl_funnel_window(dc->funnel, dc->pos_param, dc->dims.chunk - 2,
                          RL_DECODE_WINDOW_STEPS, 1, &window);
}

// pos from |options->params|, admitted on [1, max_context), default chunk - 2.
static rl_status_t rl_dc_pos_value(const rl_decode_dims_t* dims,
                                   const rl_workload_options_t* options,
                                   int64_t* out_pos) {
  const rl_workload_param_t pos = {"pos", "decode position", 1,
                                   dims->max_context, dims->chunk - 2};
  rl_workload_t shape = rl_workload_decode;
  shape.param_count = 1;
  shape.params = &pos;
  return rl_workload_param_value(&shape, options, "pos", out_pos);
}

// Refuses a workspace smaller than the longest admitted context needs.
static rl_status_t rl_dc_check_workspace(const rl_dc_t* dc) {
  const uint64_t need = rl_decode_workspace_bytes(&dc->dims);
  const uint64_t have = rl_dc_buffer_elements(dc, RL_DC_PARTIALS) * 4;
  if (have >= need) return RL_OK;
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "decode: partials workspace of %llu bytes (%u chunks); "
                   "contexts up to max_context %u need %llu bytes (%u chunks "
                   "of %u positions x %u heads x %u floats)",
                   (unsigned long long)have, dc->dims.workspace_chunks,
                   dc->dims.max_context, (unsigned long long)need,
                   rl_decode_max_chunks(&dc->dims), dc->dims.chunk,
                   dc->dims.heads, dc->dims.head_dim + 2);
}

static rl_status_t rl_dc_load(rl_dc_t* dc,
                              const rl_workload_options_t* options) {
  if (!options->code_object || options->code_object_size == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "decode needs the bytes of decode-<target>.co");
  }
  uint32_t code_object = 0;
  RL_RETURN_IF_ERROR(rl_funnel_load_code_object(
      dc->funnel, options->code_object, options->code_object_size,
      &code_object));
  for (uint32_t k = 0; k < RL_DC_KERNEL_COUNT_; ++k) {
    RL_RETURN_IF_ERROR(rl_funnel_kernel(dc->funnel, code_object,
                                        rl_dc_kernel_names[k],
                                        &dc->kernels[k]));
  }
  return RL_OK;
}

rl_status_t rl_decode_record(rl_funnel_t* funnel,
                             const rl_workload_options_t* options,
                             const rl_decode_dims_t* dims) {
  RL_RETURN_IF_ERROR(rl_decode_dims_check(dims));
  rl_dc_t dc = {.funnel = funnel, .dims = *dims,
                .hidden = rl_decode_hidden(dims)};
  dc.row_stride = dims->layers * 2 * dc.hidden;
  if (!dc.dims.workspace_chunks) {
    dc.dims.workspace_chunks = rl_decode_max_chunks(dims);
  }
  int64_t pos = 0;
  RL_RETURN_IF_ERROR(rl_dc_pos_value(dims, options, &pos));
  dc.pos = (uint32_t)pos;
  RL_RETURN_IF_ERROR(rl_dc_check_workspace(&dc));
  RL_RETURN_IF_ERROR(rl_dc_load(&dc, options));
  RL_RETURN_IF_ERROR(rl_funnel_param(funnel, "pos", 1, dims->max_context, pos,
                                     &dc.pos_param));
  RL_RETURN_IF_ERROR(rl_dc_register_buffers(&dc));
  RL_RETURN_IF_ERROR(rl_dc_upload_initial(&dc, options->seed));
  RL_RETURN_IF_ERROR(rl_dc_launches(&dc));
  return rl_dc_declare(&dc);
}

static const rl_decode_dims_t rl_dc_default_dims = RL_DECODE_DIMS_DEFAULT;

static const rl_workload_param_t rl_dc_params[] = {
    {"pos", "decode position: RoPE angle, K/V row, context length pos+1", 1,
     512, 30},
};

static const rl_workload_param_t rl_dc_config[] = {
    {"layers", "transformer layers (13 launches each, plus 4)", 1, 4097, 4},
    {"workspace_chunks",
     "partials workspace capacity in chunks; 0: the required 16", 0, 4097, 0},
};

// The registry entry: the default dimensions with the config overrides.
static rl_status_t rl_dc_record_default(rl_funnel_t* funnel,
                                        const rl_workload_options_t* options) {
  rl_decode_dims_t dims = rl_dc_default_dims;
  int64_t layers = 0, workspace_chunks = 0;
  RL_RETURN_IF_ERROR(rl_workload_config_value(&rl_workload_decode, options,
                                              "layers", &layers));
  RL_RETURN_IF_ERROR(rl_workload_config_value(
      &rl_workload_decode, options, "workspace_chunks", &workspace_chunks));
  dims.layers = (uint32_t)layers;
  dims.workspace_chunks = (uint32_t)workspace_chunks;
  return rl_decode_record(funnel, options, &dims);
}

// layers from the launch count (13 per layer + 4), workspace_chunks from
// the partials buffer (decode.h, "Buffers"), the other dimensions being the
// defaults the registry entry records with.
static rl_status_t rl_dc_config_of(const rl_capture_t* capture,
                                   rl_workload_param_value_t* out_config,
                                   uint32_t capacity, uint32_t* out_count) {
  *out_count = 0;
  rl_decode_dims_t dims = rl_dc_default_dims;
  uint32_t launches = capture->launch_count;
  uint32_t partials = 0;
  if (capacity < 2 || launches < RL_DECODE_LAUNCHES_FIXED +
                                     RL_DECODE_LAUNCHES_PER_LAYER ||
      (launches - RL_DECODE_LAUNCHES_FIXED) % RL_DECODE_LAUNCHES_PER_LAYER ||
      !rl_capture_find_buffer(capture, "partials", &partials)) {
    return RL_STATUS(RL_STATUS_NOT_FOUND,
                     "decode: %u launches and no partials buffer fit no "
                     "configuration", launches);
  }
  uint64_t chunk_bytes = (uint64_t)dims.heads * (dims.head_dim + 2u) * 4u;
  uint64_t size = capture->buffers[partials].size;
  uint64_t chunks = size / chunk_bytes;
  if (size % chunk_bytes != 0 || chunks > 4096) {
    return RL_STATUS(RL_STATUS_NOT_FOUND,
                     "decode: a partials buffer of %llu bytes is not whole "
                     "chunks of %llu bytes", (unsigned long long)size,
                     (unsigned long long)chunk_bytes);
  }
  out_config[0] = (rl_workload_param_value_t){
      "layers", (launches - RL_DECODE_LAUNCHES_FIXED) /
                    RL_DECODE_LAUNCHES_PER_LAYER};
  out_config[1] = (rl_workload_param_value_t){"workspace_chunks",
                                              (int64_t)chunks};
  *out_count = 2;
  return RL_OK;
}

const rl_workload_t rl_workload_decode = {
    .name = "decode",
    .description = "one decode step of a tiny transformer (hidden 64, 4 "
                   "heads, ffn 128, vocab 256, context 512): 13 launches per "
                   "layer + 4",
    .code_object = "decode",
    .param_count = sizeof(rl_dc_params) / sizeof(rl_dc_params[0]),
    .params = rl_dc_params,
    .config_count = sizeof(rl_dc_config) / sizeof(rl_dc_config[0]),
    .config = rl_dc_config,
    .record = rl_dc_record_default,
    .config_of = rl_dc_config_of,
};
