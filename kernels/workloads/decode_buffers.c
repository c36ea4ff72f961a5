// The decode workload's dimensions, buffers and seeded initial contents
// (kernels/workloads/decode.h).
#include <math.h>
#include <stdlib.h>

#include "kernels/workloads/decode_internal.h"
#include "kernels/workloads/workload_seed.h"

#define RL_DC_ALIGNMENT 256u
// Every buffer stays below 2^30 elements, so 32-bit kernel indices (and
// their byte offsets, << 2) never wrap.
#define RL_DC_MAX_ELEMENTS (1ull << 30)

static const struct {
  const char* name;
  rl_buffer_role_t role;
} rl_dc_buffer_info[RL_DC_BUFFER_COUNT_] = {
#define RL_DC_W RL_BUFFER_ROLE_WEIGHTS
#define RL_DC_S RL_BUFFER_ROLE_STATE
#define RL_DC_T RL_BUFFER_ROLE_SCRATCH
    {"embedding", RL_DC_W}, {"attn_norm", RL_DC_W}, {"w_qkv", RL_DC_W},
    {"w_o", RL_DC_W},       {"ffn_norm", RL_DC_W},  {"w_gate_up", RL_DC_W},
    {"w_down", RL_DC_W},    {"final_norm", RL_DC_W}, {"lm_head", RL_DC_W},
    {"rope", RL_DC_W},
    {"token", RL_DC_S},     {"x", RL_DC_S},         {"kv_cache", RL_DC_S},
    {"logits", RL_DC_S},
    {"partials", RL_BUFFER_ROLE_WORKSPACE},
    {"xn", RL_DC_T},        {"qkv", RL_DC_T},       {"attn", RL_DC_T},
    {"delta", RL_DC_T},     {"gate_up", RL_DC_T},   {"act", RL_DC_T},
#undef RL_DC_W
#undef RL_DC_S
#undef RL_DC_T
};

uint32_t rl_decode_hidden(const rl_decode_dims_t* dims) {
  return dims->heads * dims->head_dim;
}

uint32_t rl_decode_max_chunks(const rl_decode_dims_t* dims) {
  return (dims->max_context + dims->chunk - 1) / dims->chunk;
}

uint64_t rl_decode_workspace_bytes(const rl_decode_dims_t* dims) {
  return (uint64_t)rl_decode_max_chunks(dims) * dims->heads *
         (dims->head_dim + 2) * 4;
}

uint32_t rl_decode_launch_count(const rl_decode_dims_t* dims) {
  return RL_DECODE_LAUNCHES_PER_LAYER * dims->layers +
         RL_DECODE_LAUNCHES_FIXED;
}

uint64_t rl_dc_buffer_elements(const rl_dc_t* dc, rl_dc_buffer_t buffer) {
  const rl_decode_dims_t* d = &dc->dims;
  const uint64_t h = dc->hidden, L = d->layers, f = d->ffn, V = d->vocab;
  switch (buffer) {
    case RL_DC_EMBEDDING: case RL_DC_LM_HEAD: return V * h;
    case RL_DC_ATTN_NORM: case RL_DC_FFN_NORM: return L * h;
    case RL_DC_W_QKV: return L * 3 * h * h;
    case RL_DC_W_O: return L * h * h;
    case RL_DC_W_GATE_UP: return L * 2 * f * h;
    case RL_DC_W_DOWN: return L * h * f;
    case RL_DC_FINAL_NORM: case RL_DC_X: case RL_DC_XN: case RL_DC_ATTN:
    case RL_DC_DELTA: return h;
    case RL_DC_ROPE: return (uint64_t)d->max_context * d->head_dim;
    case RL_DC_TOKEN: return 1;
    case RL_DC_KV: return (uint64_t)d->max_context * dc->row_stride;
    case RL_DC_LOGITS: return V;
    case RL_DC_PARTIALS:
      return (uint64_t)d->workspace_chunks * d->heads * (d->head_dim + 2);
    case RL_DC_QKV: return 3 * h;
    case RL_DC_GATE_UP: return 2 * f;
    case RL_DC_ACT: return f;
    case RL_DC_BUFFER_COUNT_: break;
  }
  return 0;
}

// The range checks that do not depend on buffer sizes.
static rl_status_t rl_decode_dims_check_ranges(const rl_decode_dims_t* d) {
  if (d->layers < 1 || d->heads < 1 || d->ffn < 1 || d->vocab < 1) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "decode: layers %u, heads %u, ffn %u, vocab %u must all "
                     "be at least 1", d->layers, d->heads, d->ffn, d->vocab);
  }
  if (d->head_dim < 2 || d->head_dim > 64 || d->head_dim % 2 != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "decode: head_dim %u, expected an even value in [2, 64] "
                     "(one lane per dimension, RoPE pairs)", d->head_dim);
  }
  if (d->chunk < 3 || d->chunk > 64) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "decode: chunk %u, expected [3, 64] (one lane per "
                     "position; the window starts at chunk - 2 >= 1)",
                     d->chunk);
  }
  if (d->max_context < d->chunk + RL_DECODE_WINDOW_STEPS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "decode: max_context %u, the window needs at least "
                     "chunk + %u = %u", d->max_context, RL_DECODE_WINDOW_STEPS,
                     d->chunk + RL_DECODE_WINDOW_STEPS);
  }
  return RL_OK;
}

rl_status_t rl_decode_dims_check(const rl_decode_dims_t* dims) {
  RL_RETURN_IF_ERROR(rl_decode_dims_check_ranges(dims));
  if ((uint64_t)dims->heads * dims->head_dim > 65536 ||
      dims->ffn > 65536 || dims->vocab > (1u << 24) ||
      dims->layers > 4096 || dims->max_context > (1u << 20)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "decode: dimensions too large (hidden %llu, ffn %u, "
                     "vocab %u, layers %u, max_context %u)",
                     (unsigned long long)dims->heads * dims->head_dim,
                     dims->ffn, dims->vocab, dims->layers, dims->max_context);
  }
  rl_dc_t dc = {.dims = *dims, .hidden = rl_decode_hidden(dims)};
  dc.row_stride = dims->layers * 2 * dc.hidden;
  if (!dc.dims.workspace_chunks) {
    dc.dims.workspace_chunks = rl_decode_max_chunks(dims);
  }
  for (uint32_t b = 0; b < RL_DC_BUFFER_COUNT_; ++b) {
    uint64_t elements = rl_dc_buffer_elements(&dc, (rl_dc_buffer_t)b);
    if (elements >= RL_DC_MAX_ELEMENTS) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "decode: buffer %s needs %llu elements, the kernels' "
                       "32-bit indices allow fewer than 2^30",
                       rl_dc_buffer_info[b].name,
                       (unsigned long long)elements);
    }
  }
  return RL_OK;
}

rl_status_t rl_dc_register_buffers(rl_dc_t* dc) {
  for (uint32_t b = 0; b < RL_DC_BUFFER_COUNT_; ++b) {
    RL_RETURN_IF_ERROR(rl_funnel_buffer(
        dc->funnel, rl_dc_buffer_info[b].name,
        rl_dc_buffer_elements(dc, (rl_dc_buffer_t)b) * 4, RL_DC_ALIGNMENT,
        rl_dc_buffer_info[b].role, false, &dc->buffers[b],
        &dc->addresses[b]));
  }
  return RL_OK;
}

// Seeds one weight buffer (amplitude 1/sqrt(columns), 1 for the
// embedding, 1 +- 0.25 for norm weights; the RoPE table is computed).
static void rl_dc_seed_weights(const rl_dc_t* dc, rl_dc_buffer_t b,
                               uint64_t* state, float* out) {
  const uint64_t count = rl_dc_buffer_elements(dc, b);
  const double matrix = 1.0 / sqrt((double)dc->hidden);
  switch (b) {
    case RL_DC_EMBEDDING: rl_workload_uniform(state, 0.0f, 1.0, out, count); break;
    case RL_DC_ATTN_NORM: case RL_DC_FFN_NORM: case RL_DC_FINAL_NORM:
      rl_workload_uniform(state, 1.0f, 0.25, out, count);
      break;
    case RL_DC_W_DOWN:
      rl_workload_uniform(state, 0.0f, 1.0 / sqrt((double)dc->dims.ffn), out, count);
      break;
    case RL_DC_ROPE:
      rl_workload_rope_table(dc->dims.max_context, dc->dims.head_dim, RL_DECODE_ROPE_THETA,
                             out);
      break;
    default: rl_workload_uniform(state, 0.0f, matrix, out, count); break;
  }
}

rl_status_t rl_dc_upload_initial(rl_dc_t* dc, uint64_t seed) {
  uint64_t largest = 0;
  for (uint32_t b = 0; b < RL_DC_BUFFER_COUNT_; ++b) {
    uint64_t elements = rl_dc_buffer_elements(dc, (rl_dc_buffer_t)b);
    if (elements > largest) largest = elements;
  }
  float* values = malloc(largest * sizeof(float));
  if (!values) return rl_status_out_of_memory();
  uint64_t state = seed;
  rl_status_t status = RL_OK;
  for (uint32_t b = RL_DC_EMBEDDING; !status && b <= RL_DC_ROPE; ++b) {
    rl_dc_seed_weights(dc, (rl_dc_buffer_t)b, &state, values);
    status = rl_funnel_upload(dc->funnel, dc->buffers[b], 0, values,
                              rl_dc_buffer_elements(dc, (rl_dc_buffer_t)b) * 4);
  }
  // The K/V rows the steps before pos wrote: positions [0, pos).
  const uint64_t active = (uint64_t)dc->pos * dc->row_stride;
  if (!status && active) {
    rl_workload_uniform(&state, 0.0f, 1.0, values, active);
    status = rl_funnel_upload(dc->funnel, dc->buffers[RL_DC_KV], 0, values,
                              active * 4);
  }
  const uint32_t token = (uint32_t)(rl_workload_next(&state) % dc->dims.vocab);
  if (!status) {
    status = rl_funnel_upload(dc->funnel, dc->buffers[RL_DC_TOKEN], 0, &token,
                              sizeof(token));
  }
  free(values);
  return status;
}
