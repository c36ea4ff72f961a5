// The verify workload's dimensions, buffers and seeded initial contents
// (kernels/workloads/verify.h).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/workloads/verify_internal.h"
#include "kernels/workloads/workload_seed.h"

#define RL_VF_ALIGNMENT 256u
#define RL_VF_MAX_ELEMENTS (1ull << 30)

static const struct {
  const char* name;
  rl_buffer_role_t role;
} rl_vf_buffer_info[RL_VF_BUFFER_COUNT_] = {
#define RL_VF_W RL_BUFFER_ROLE_WEIGHTS
#define RL_VF_S RL_BUFFER_ROLE_STATE
#define RL_VF_T RL_BUFFER_ROLE_SCRATCH
    {"embedding", RL_VF_W}, {"attn_norm", RL_VF_W}, {"w_qkv", RL_VF_W},
    {"w_o", RL_VF_W},       {"ffn_norm", RL_VF_W},  {"w_gate_up", RL_VF_W},
    {"w_down", RL_VF_W},    {"final_norm", RL_VF_W}, {"lm_head", RL_VF_W},
    {"rope", RL_VF_W},      {"decay", RL_VF_W},     {"gain", RL_VF_W},
    {"drafts", RL_VF_W},
    {"tokens", RL_VF_S},    {"argmax", RL_VF_S},    {"accept", RL_VF_S},
    {"x", RL_VF_S},         {"logits", RL_VF_S},    {"kv_cache", RL_VF_S},
    {"kv_scales", RL_VF_S}, {"recur", RL_VF_S},     {"recur_history", RL_VF_S},
    {"kv_backup", RL_VF_S}, {"kv_backup_scales", RL_VF_S},
    {"kv_forward", RL_VF_S}, {"kv_forward_scales", RL_VF_S},
    {"partials", RL_BUFFER_ROLE_WORKSPACE},
    {"xn", RL_VF_T},        {"qkv", RL_VF_T},       {"attn", RL_VF_T},
    {"delta", RL_VF_T},     {"gate_up", RL_VF_T},   {"act", RL_VF_T},
#undef RL_VF_W
#undef RL_VF_S
#undef RL_VF_T
};

const char* rl_vf_buffer_name(rl_vf_buffer_t buffer) {
  return rl_vf_buffer_info[buffer].name;
}

uint32_t rl_verify_hidden(const rl_verify_dims_t* dims) {
  return dims->heads * dims->head_dim;
}

uint64_t rl_verify_workspace_bytes(const rl_verify_dims_t* dims) {
  return (uint64_t)dims->batch * dims->heads * dims->chunks *
         (dims->head_dim + 2) * 4;
}

uint32_t rl_verify_launch_count(const rl_verify_dims_t* dims) {
  return RL_VERIFY_LAUNCHES_PER_LAYER * dims->layers +
         RL_VERIFY_LAUNCHES_FIXED;
}

void rl_verify_pos_range(const rl_verify_dims_t* dims, int64_t* out_min,
                         int64_t* out_max) {
  *out_min = (int64_t)dims->crossover - dims->batch + 1;
  if (*out_min < 0) *out_min = 0;
  *out_max = (int64_t)dims->max_context - dims->batch + 1;
}

void rl_vf_derive(rl_vf_t* vf) {
  vf->hidden = rl_verify_hidden(&vf->dims);
  vf->row_bytes = vf->dims.layers * 2 * vf->hidden;
  vf->row_scales = vf->dims.layers * 2;
  if (!vf->dims.workspace_chunks) vf->dims.workspace_chunks = vf->dims.chunks;
}

uint64_t rl_vf_buffer_bytes(const rl_vf_t* vf, rl_vf_buffer_t buffer) {
  const rl_verify_dims_t* d = &vf->dims;
  const uint64_t h = vf->hidden, L = d->layers, f = d->ffn, V = d->vocab;
  const uint64_t B = d->batch, C = d->max_context;
  switch (buffer) {
    case RL_VF_EMBEDDING: case RL_VF_LM_HEAD: return V * h * 4;
    case RL_VF_ATTN_NORM: case RL_VF_FFN_NORM: case RL_VF_DECAY:
    case RL_VF_GAIN: case RL_VF_RECUR: return L * h * 4;
    case RL_VF_W_QKV: return L * 3 * h * h * 4;
    case RL_VF_W_O: return L * h * h * 4;
    case RL_VF_W_GATE_UP: return L * 2 * f * h * 4;
    case RL_VF_W_DOWN: return L * h * f * 4;
    case RL_VF_FINAL_NORM: return h * 4;
    case RL_VF_ROPE: return C * d->head_dim * 4;
    case RL_VF_TOKENS: case RL_VF_ARGMAX: return B * 4;
    case RL_VF_DRAFTS: return RL_VERIFY_WINDOW_STEPS * B * 4;
    case RL_VF_ACCEPT: return 16;
    case RL_VF_X: case RL_VF_XN: case RL_VF_ATTN: case RL_VF_DELTA:
      return B * h * 4;
    case RL_VF_LOGITS: return B * V * 4;
    case RL_VF_KV: return C * vf->row_bytes;
    case RL_VF_KV_SCALES: return C * vf->row_scales * 4;
    case RL_VF_RECUR_HISTORY: return L * (B + 1) * h * 4;
    case RL_VF_KV_BACKUP: case RL_VF_KV_FORWARD: return B * vf->row_bytes;
    case RL_VF_KV_BACKUP_SCALES: case RL_VF_KV_FORWARD_SCALES:
      return B * vf->row_scales * 4;
    case RL_VF_PARTIALS:
      return B * d->heads * d->workspace_chunks * (d->head_dim + 2) * 4;
    case RL_VF_QKV: return B * 3 * h * 4;
    case RL_VF_GATE_UP: return B * 2 * f * 4;
    case RL_VF_ACT: return B * f * 4;
    case RL_VF_BUFFER_COUNT_: break;
  }
  return 0;
}

static rl_status_t rl_verify_dims_check_ranges(const rl_verify_dims_t* d) {
  if (d->layers < 1 || d->heads < 1 || d->ffn < 1 || d->vocab < 1 ||
      d->chunks < 1) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify: layers %u, heads %u, ffn %u, vocab %u, chunks "
                     "%u must all be at least 1", d->layers, d->heads, d->ffn,
                     d->vocab, d->chunks);
  }
  if (d->head_dim < 2 || d->head_dim > 64 ||
      (d->head_dim & (d->head_dim - 1)) != 0 ||
      d->heads * d->head_dim > 64) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify: head_dim %u x heads %u, expected a power of two "
                     "in [2, 64] and hidden <= 64 (one lane per value)",
                     d->head_dim, d->heads);
  }
  if (d->batch < RL_VERIFY_MIN_BATCH || d->batch > RL_VERIFY_MAX_BATCH) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify: batch %u outside the admitted %u..%u",
                     d->batch, RL_VERIFY_MIN_BATCH, RL_VERIFY_MAX_BATCH);
  }
  if (d->max_context < (RL_VERIFY_WINDOW_STEPS + 1) * d->batch ||
      d->max_context > (1u << 20)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify: max_context %u, expected [%u, 2^20] (the "
                     "window's %u steps of B %u)", d->max_context,
                     (RL_VERIFY_WINDOW_STEPS + 1) * d->batch,
                     RL_VERIFY_WINDOW_STEPS, d->batch);
  }
  if (d->wrong_drafts > RL_VERIFY_WINDOW_STEPS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify: wrong_drafts %u above the window's %u steps",
                     d->wrong_drafts, RL_VERIFY_WINDOW_STEPS);
  }
  if (d->crossover >= d->max_context) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify: crossover %u leaves no admitted context below "
                     "max_context %u", d->crossover, d->max_context);
  }
  return RL_OK;
}

rl_status_t rl_verify_dims_check(const rl_verify_dims_t* dims) {
  RL_RETURN_IF_ERROR(rl_verify_dims_check_ranges(dims));
  if (dims->ffn > 65536 || dims->vocab > (1u << 24) || dims->layers > 4096) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify: dimensions too large (ffn %u, vocab %u, layers "
                     "%u)", dims->ffn, dims->vocab, dims->layers);
  }
  rl_vf_t vf = {.dims = *dims};
  rl_vf_derive(&vf);
  for (uint32_t b = 0; b < RL_VF_BUFFER_COUNT_; ++b) {
    uint64_t bytes = rl_vf_buffer_bytes(&vf, (rl_vf_buffer_t)b);
    if (bytes >= RL_VF_MAX_ELEMENTS) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "verify: buffer %s needs %llu bytes, the kernels' "
                       "32-bit indices allow fewer than 2^30",
                       rl_vf_buffer_info[b].name, (unsigned long long)bytes);
    }
  }
  return RL_OK;
}

rl_status_t rl_vf_register_buffers(rl_vf_t* vf) {
  for (uint32_t b = 0; b < RL_VF_BUFFER_COUNT_; ++b) {
    RL_RETURN_IF_ERROR(rl_funnel_buffer(
        vf->funnel, rl_vf_buffer_info[b].name,
        rl_vf_buffer_bytes(vf, (rl_vf_buffer_t)b), RL_VF_ALIGNMENT,
        rl_vf_buffer_info[b].role, false, &vf->buffers[b],
        &vf->addresses[b]));
  }
  return RL_OK;
}

static void rl_vf_seed_weights(const rl_vf_t* vf, rl_vf_buffer_t b,
                               uint64_t* state, float* out) {
  const uint64_t count = rl_vf_buffer_bytes(vf, b) / 4;
  const double matrix = 1.0 / sqrt((double)vf->hidden);
  switch (b) {
    case RL_VF_EMBEDDING: rl_workload_uniform(state, 0.0f, 1.0, out, count); break;
    case RL_VF_ATTN_NORM: case RL_VF_FFN_NORM: case RL_VF_FINAL_NORM:
      rl_workload_uniform(state, 1.0f, 0.25, out, count);
      break;
    case RL_VF_W_DOWN:
      rl_workload_uniform(state, 0.0f, 1.0 / sqrt((double)vf->dims.ffn), out, count);
      break;
    case RL_VF_ROPE:
      rl_workload_rope_table(vf->dims.max_context, vf->dims.head_dim, RL_VERIFY_ROPE_THETA,
                             out);
      break;
    case RL_VF_DECAY: rl_workload_uniform(state, 0.7f, 0.2, out, count); break;
    case RL_VF_GAIN: rl_workload_uniform(state, 0.0f, 0.5, out, count); break;
    default: rl_workload_uniform(state, 0.0f, matrix, out, count); break;
  }
}

// The cache: random int8 in [-127, 127] for every row, scales in (0.5,
// 1.5) / 127.
static void rl_vf_seed_cache(const rl_vf_t* vf, uint64_t* state, int8_t* q,
                             float* scales) {
  const uint64_t bytes = rl_vf_buffer_bytes(vf, RL_VF_KV);
  for (uint64_t i = 0; i < bytes; ++i) {
    q[i] = (int8_t)((int)(rl_workload_next(state) % 255u) - 127);
  }
  rl_workload_uniform(state, 1.0f / 127.0f, 0.5 / 127.0, scales,
               rl_vf_buffer_bytes(vf, RL_VF_KV_SCALES) / 4);
}

// Host copies of the seeded contents (one allocation per buffer).
typedef struct rl_vf_init_s {
  void* bytes[RL_VF_BUFFER_COUNT_];
} rl_vf_init_t;

static void rl_vf_init_free(rl_vf_init_t* init) {
  for (uint32_t b = 0; b < RL_VF_BUFFER_COUNT_; ++b) free(init->bytes[b]);
}

static const rl_vf_buffer_t rl_vf_seeded[] = {RL_VF_KV, RL_VF_KV_SCALES,
                                              RL_VF_RECUR, RL_VF_DRAFTS,
                                              RL_VF_TOKENS, RL_VF_ACCEPT};

// Weights, cache, recurrent state and the first expected token from the
// seed (in that order, so the weights and cache of a seed do not depend on
// the drafts), then the drafts of the window.
static rl_status_t rl_vf_seed_all(const rl_vf_t* vf, uint64_t seed,
                                  rl_vf_init_t* init) {
  for (uint32_t b = RL_VF_EMBEDDING; b <= RL_VF_GAIN; ++b) {
    init->bytes[b] = malloc(rl_vf_buffer_bytes(vf, (rl_vf_buffer_t)b));
    if (!init->bytes[b]) return rl_status_out_of_memory();
  }
  for (size_t i = 0; i < sizeof(rl_vf_seeded) / sizeof(rl_vf_seeded[0]);
       ++i) {
    init->bytes[rl_vf_seeded[i]] = calloc(1, rl_vf_buffer_bytes(vf, rl_vf_seeded[i]));
    if (!init->bytes[rl_vf_seeded[i]]) return rl_status_out_of_memory();
  }
  uint64_t state = seed;
  rl_vf_host_t host = {.cache = init->bytes[RL_VF_KV],
                       .scales = init->bytes[RL_VF_KV_SCALES],
                       .recur = init->bytes[RL_VF_RECUR]};
  for (uint32_t b = RL_VF_EMBEDDING; b <= RL_VF_GAIN; ++b) {
    rl_vf_seed_weights(vf, (rl_vf_buffer_t)b, &state, init->bytes[b]);
    host.weights[b] = init->bytes[b];
  }
  rl_vf_seed_cache(vf, &state, init->bytes[RL_VF_KV],
                   init->bytes[RL_VF_KV_SCALES]);
  rl_workload_uniform(&state, 0.0f, 0.5, init->bytes[RL_VF_RECUR],
               rl_vf_buffer_bytes(vf, RL_VF_RECUR) / 4);
  // accept[3]: the prediction for the first draft's position (what the
  // step before the window would have left there).
  uint32_t* accept = init->bytes[RL_VF_ACCEPT];
  accept[3] = (uint32_t)(rl_workload_next(&state) % vf->dims.vocab);
  uint32_t* drafts = init->bytes[RL_VF_DRAFTS];
  RL_RETURN_IF_ERROR(rl_vf_draft(vf, &host, accept[3], drafts, NULL));
  memcpy(init->bytes[RL_VF_TOKENS], drafts, vf->dims.batch * 4ull);
  return RL_OK;
}

rl_status_t rl_vf_upload_initial(rl_vf_t* vf, uint64_t seed) {
  rl_vf_init_t init = {{0}};
  rl_status_t status = rl_vf_seed_all(vf, seed, &init);
  for (uint32_t b = 0; !status && b < RL_VF_BUFFER_COUNT_; ++b) {
    if (!init.bytes[b]) continue;
    status = rl_funnel_upload(vf->funnel, vf->buffers[b], 0, init.bytes[b],
                              rl_vf_buffer_bytes(vf, (rl_vf_buffer_t)b));
  }
  rl_vf_init_free(&init);
  return status;
}
