// engine_pageable_uploads.hip — a small fp16 llama2.c-style decoder (token
// embedding, per layer RMS norm, a matmul and a residual add, then the
// logits and a greedy argmax) whose weights stream in the way public ports
// upload them: every tensor goes through ONE pageable host buffer,
// refilled right after each hipMemcpyAsync, and the kernels run on three
// streams (the norm on one, the two halves of each matmul on two others,
// ordered by events). Its 16 tokens must equal its CPU reference's.
// Rules it rests on: CUDA Runtime API, "API synchronization behavior"
// (an async copy from pageable memory reads it before returning,
// https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html),
// and hipStreamWaitEvent ordering (HIP API reference). Issue 32: a public
// fp16 llama2.c port gave every token wrong on the previous runtime.
#include "conformance.h"

#pragma clang fp contract(off)  // the same arithmetic on host and device

#define DIM 64
#define VOCAB 96
#define LAYERS 4
#define STEPS 16

__global__ void embed(const _Float16* table, int token, float* x) {
  int i = threadIdx.x;
  x[i] = (float)table[token * DIM + i];
}

__global__ void rmsnorm(const float* x, const _Float16* weight, float* out) {
  __shared__ float total;
  if (threadIdx.x == 0) {
    float ss = 0.0f;
    for (int i = 0; i < DIM; ++i) ss += x[i] * x[i];
    total = 1.0f / sqrtf(ss / DIM + 1e-5f);
  }
  __syncthreads();
  out[threadIdx.x] = x[threadIdx.x] * total * (float)weight[threadIdx.x];
}

// out[row] = W[row] . in for rows [first, first + blockDim.x).
__global__ void matvec(const _Float16* w, const float* in, float* out,
                       int first, int cols) {
  int row = first + threadIdx.x;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += (float)w[row * cols + c] * in[c];
  out[row] = sum;
}

__global__ void residual(float* x, const float* delta) {
  x[threadIdx.x] += delta[threadIdx.x];
}

static float host_rng(unsigned* s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return ((*s >> 8) * (1.0f / 16777216.0f)) - 0.5f;
}

// The weights, generated tensor by tensor (each a fresh fill of the one
// pageable buffer), in the order the engine uploads them.
static void fill_tensor(_Float16* buffer, int count, unsigned seed) {
  unsigned s = seed;
  for (int i = 0; i < count; ++i) buffer[i] = (_Float16)host_rng(&s);
}

static int reference_argmax(const float* v, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i) if (v[i] > v[best]) best = i;
  return best;
}

// The CPU reference: the same operations in the same order.
static void reference(int* tokens) {
  static _Float16 table[VOCAB * DIM], norm[LAYERS][DIM], w[LAYERS][DIM * DIM],
      out_w[VOCAB * DIM];
  fill_tensor(table, VOCAB * DIM, 1);
  for (int l = 0; l < LAYERS; ++l) {
    fill_tensor(norm[l], DIM, 100 + l);
    fill_tensor(w[l], DIM * DIM, 200 + l);
  }
  fill_tensor(out_w, VOCAB * DIM, 3);
  int token = 1;
  for (int step = 0; step < STEPS; ++step) {
    float x[DIM], h[DIM], d[DIM], logits[VOCAB];
    int row = (token + step * 37) % VOCAB;  // a position term
    for (int i = 0; i < DIM; ++i) x[i] = (float)table[row * DIM + i];
    for (int l = 0; l < LAYERS; ++l) {
      float ss = 0.0f;
      for (int i = 0; i < DIM; ++i) ss += x[i] * x[i];
      float total = 1.0f / sqrtf(ss / DIM + 1e-5f);
      for (int i = 0; i < DIM; ++i) h[i] = x[i] * total * (float)norm[l][i];
      for (int r = 0; r < DIM; ++r) {
        float sum = 0.0f;
        for (int c = 0; c < DIM; ++c) sum += (float)w[l][r * DIM + c] * h[c];
        d[r] = sum;
      }
      for (int i = 0; i < DIM; ++i) x[i] += d[i];
    }
    for (int r = 0; r < VOCAB; ++r) {
      float sum = 0.0f;
      for (int c = 0; c < DIM; ++c) sum += (float)out_w[r * DIM + c] * x[c];
      logits[r] = sum;
    }
    token = reference_argmax(logits, VOCAB);
    tokens[step] = token;
  }
}

int main() {
  int want[STEPS], got[STEPS];
  reference(want);
  // The check has power only when the tokens vary.
  int distinct = 0;
  for (int i = 0; i < STEPS; ++i) {
    bool seen = false;
    for (int j = 0; j < i; ++j) seen |= want[j] == want[i];
    distinct += !seen;
  }
  if (distinct < STEPS / 2) {
    std::fprintf(stderr, "the reference repeats itself: %d distinct tokens\n",
                 distinct);
    return 2;
  }
  // One pageable staging buffer for every tensor, refilled after each
  // upload is issued.
  _Float16* staging = (_Float16*)std::malloc(VOCAB * DIM * sizeof(_Float16));
  _Float16 *table, *norm[LAYERS], *w[LAYERS], *out_w;
  float *x, *h, *d, *logits;
  HIP_CHECK(hipMalloc(&table, VOCAB * DIM * sizeof(_Float16)));
  HIP_CHECK(hipMalloc(&out_w, VOCAB * DIM * sizeof(_Float16)));
  for (int l = 0; l < LAYERS; ++l) {
    HIP_CHECK(hipMalloc(&norm[l], DIM * sizeof(_Float16)));
    HIP_CHECK(hipMalloc(&w[l], DIM * DIM * sizeof(_Float16)));
  }
  HIP_CHECK(hipMalloc(&x, DIM * sizeof(float)));
  HIP_CHECK(hipMalloc(&h, DIM * sizeof(float)));
  HIP_CHECK(hipMalloc(&d, DIM * sizeof(float)));
  HIP_CHECK(hipMalloc(&logits, VOCAB * sizeof(float)));
  hipStream_t main_stream, left, right;
  HIP_CHECK(hipStreamCreate(&main_stream));
  HIP_CHECK(hipStreamCreateWithFlags(&left, hipStreamNonBlocking));
  HIP_CHECK(hipStreamCreateWithFlags(&right, hipStreamNonBlocking));
  auto upload = [&](_Float16* dst, int count, unsigned seed) {
    fill_tensor(staging, count, seed);
    HIP_CHECK(hipMemcpyAsync(dst, staging, count * sizeof(_Float16),
                             hipMemcpyHostToDevice, main_stream));
  };
  upload(table, VOCAB * DIM, 1);
  for (int l = 0; l < LAYERS; ++l) {
    upload(norm[l], DIM, 100 + l);
    upload(w[l], DIM * DIM, 200 + l);
  }
  upload(out_w, VOCAB * DIM, 3);
  std::memset(staging, 0, VOCAB * DIM * sizeof(_Float16));
  hipEvent_t normed, left_done, right_done;
  HIP_CHECK(hipEventCreateWithFlags(&normed, hipEventDisableTiming));
  HIP_CHECK(hipEventCreateWithFlags(&left_done, hipEventDisableTiming));
  HIP_CHECK(hipEventCreateWithFlags(&right_done, hipEventDisableTiming));
  int token = 1;
  for (int step = 0; step < STEPS; ++step) {
    embed<<<1, DIM, 0, main_stream>>>(table, (token + step * 37) % VOCAB, x);
    for (int l = 0; l < LAYERS; ++l) {
      rmsnorm<<<1, DIM, 0, main_stream>>>(x, norm[l], h);
      HIP_CHECK(hipEventRecord(normed, main_stream));
      HIP_CHECK(hipStreamWaitEvent(left, normed, 0));
      HIP_CHECK(hipStreamWaitEvent(right, normed, 0));
      matvec<<<1, DIM / 2, 0, left>>>(w[l], h, d, 0, DIM);
      matvec<<<1, DIM / 2, 0, right>>>(w[l], h, d, DIM / 2, DIM);
      HIP_CHECK(hipEventRecord(left_done, left));
      HIP_CHECK(hipEventRecord(right_done, right));
      HIP_CHECK(hipStreamWaitEvent(main_stream, left_done, 0));
      HIP_CHECK(hipStreamWaitEvent(main_stream, right_done, 0));
      residual<<<1, DIM, 0, main_stream>>>(x, d);
    }
    matvec<<<1, VOCAB, 0, main_stream>>>(out_w, x, logits, 0, DIM);
    float host_logits[VOCAB];
    for (int i = 0; i < VOCAB; ++i) host_logits[i] = -1.0f / 0.0f;
    // Into pageable memory: complete when the call returns.
    HIP_CHECK(hipMemcpyAsync(host_logits, logits, sizeof(host_logits),
                             hipMemcpyDeviceToHost, main_stream));
    token = reference_argmax(host_logits, VOCAB);
    got[step] = token;
  }
  int first_bad = -1;
  for (int i = 0; i < STEPS && first_bad < 0; ++i) {
    if (got[i] != want[i]) first_bad = i;
  }
  EXPECT(first_bad < 0, "token %d is %d, the CPU reference says %d", first_bad,
         got[first_bad < 0 ? 0 : first_bad], want[first_bad < 0 ? 0 : first_bad]);
  conformance_ok("engine_pageable_uploads");
  return 0;
}
