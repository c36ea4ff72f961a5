// decode.hip — a decode loop shaped like a single-file LLM engine's, for
// step capture (`redline run --steps`, docs/real-engines.md): per step an
// embedding row copied from device memory with a "host to device" copy (as
// engines ported from CUDA do), per layer two projections, a rotation by
// the position, the key copied into a KV cache at pos * stride, scores over
// the context (grid pos + 1, a block reduction per head, grouped-query: two
// query heads share a key head) and the weighted sum; then the logits,
// read back for a host-side greedy argmax that picks the next token.
// Integer arithmetic (wrapping 32-bit) so the host reference is exact.
//
//   decode [uneven|fault]  "uneven": the rotation of position 2 runs with
//                     a different work-group size (same result), so steps
//                     differ in structure (refused by --steps); "fault":
//                     the attend launch of layer 1 at position 3 reads
//                     through a null pointer, so that launch fails
//
// Built with -DDECODE_ANNOTATE it is decode_annotated, the variant that
// declares its steps with redline/annotate.h (docs/real-engines.md,
// "Annotations"): `decode_annotated disagree` declares pos 103 at
// position 3 (a negative control: the capture is incomplete);
// `decode_annotated split` begins a second step after the embedding copy
// of position 2 (steps of unequal length: refused).
#include "corpus.h"
#ifdef DECODE_ANNOTATE
#include "redline/annotate.h"
#endif

#include <cstring>
#include <vector>

constexpr int kVocab = 64, kDim = 64, kHeads = 4, kKvHeads = 2;
constexpr int kHeadDim = kDim / kHeads, kKvDim = kKvHeads * kHeadDim;
constexpr int kLayers = 2, kSeq = 16, kSteps = 10;

extern "C" __global__ void matvec(uint32_t* out, const uint32_t* w,
                                  const uint32_t* in, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  uint32_t sum = 0;
  for (int c = 0; c < cols; ++c) sum += w[r * cols + c] * in[c];
  out[r] = sum;
}

// The rotation both sides share: pair (a, b) of dimension pair i turns by
// an amount that depends on the position.
__host__ __device__ inline void rotate(uint32_t* a, uint32_t* b, int pos,
                                       int i) {
  uint32_t c = (uint32_t)((pos * 7 + i) & 15) + 1u;
  uint32_t s = (uint32_t)((pos * 3 + i) & 7);
  uint32_t x = *a, y = *b;
  *a = x * c - y * s;
  *b = x * s + y * c;
}

extern "C" __global__ void rope(uint32_t* q, uint32_t* k, int pos) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;  // a pair of q (and of k)
  if (i < kDim / 2) rotate(&q[2 * i], &q[2 * i + 1], pos, i % (kHeadDim / 2));
  if (i < kKvDim / 2) rotate(&k[2 * i], &k[2 * i + 1], pos, i % (kHeadDim / 2));
}

// One work-group per context position t <= pos; lanes h * kHeadDim + j.
extern "C" __global__ void scores(uint32_t* att, const uint32_t* q,
                                  const uint32_t* kcache, int pos) {
  __shared__ uint32_t part[kDim];
  int t = blockIdx.x, lane = threadIdx.x;
  int h = lane / kHeadDim, j = lane % kHeadDim;
  int kvh = h / (kHeads / kKvHeads);
  part[lane] = q[lane] * kcache[t * kKvDim + kvh * kHeadDim + j];
  __syncthreads();
  for (int stride = kHeadDim / 2; stride > 0; stride /= 2) {
    if (j < stride) part[lane] += part[lane + stride];
    __syncthreads();
  }
  if (j == 0 && t <= pos) att[h * kSeq + t] = (part[lane] >> 8) & 0xffu;
}

extern "C" __global__ void attend(uint32_t* x, const uint32_t* att,
                                  const uint32_t* kcache, int pos) {
  int i = threadIdx.x, h = i / kHeadDim, j = i % kHeadDim;
  int kvh = h / (kHeads / kKvHeads);
  uint32_t sum = 0;
  for (int t = 0; t <= pos; ++t)
    sum += att[h * kSeq + t] * kcache[t * kKvDim + kvh * kHeadDim + j];
  x[i] += sum;
}

extern "C" __global__ void logits(uint32_t* out, const uint32_t* emb,
                                  const uint32_t* x) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t sum = 0;
  for (int c = 0; c < kDim; ++c) sum += emb[v * kDim + c] * x[c];
  out[v] = sum;
}

static int argmax(const uint32_t* values, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (values[i] > values[best]) best = i;
  return best;
}

// The host reference of one step: the next token.
struct Model {
  std::vector<uint32_t> emb, wq, wk, kcache, att;
  int step(int token, int pos) {
    uint32_t x[kDim], q[kDim], k[kKvDim], out[kVocab];
    std::memcpy(x, &emb[token * kDim], sizeof(x));
    for (int l = 0; l < kLayers; ++l) {
      for (int r = 0; r < kDim; ++r) {
        q[r] = 0;
        for (int c = 0; c < kDim; ++c) q[r] += wq[(l * kDim + r) * kDim + c] * x[c];
      }
      for (int r = 0; r < kKvDim; ++r) {
        k[r] = 0;
        for (int c = 0; c < kDim; ++c) k[r] += wk[(l * kKvDim + r) * kDim + c] * x[c];
      }
      for (int i = 0; i < kDim / 2; ++i) {
        rotate(&q[2 * i], &q[2 * i + 1], pos, i % (kHeadDim / 2));
        if (i < kKvDim / 2) rotate(&k[2 * i], &k[2 * i + 1], pos, i % (kHeadDim / 2));
      }
      uint32_t* cache = &kcache[l * kSeq * kKvDim];
      std::memcpy(&cache[pos * kKvDim], k, sizeof(k));
      for (int h = 0; h < kHeads; ++h) {
        int kvh = h / (kHeads / kKvHeads);
        for (int t = 0; t <= pos; ++t) {
          uint32_t dot = 0;
          for (int j = 0; j < kHeadDim; ++j)
            dot += q[h * kHeadDim + j] * cache[t * kKvDim + kvh * kHeadDim + j];
          att[h * kSeq + t] = (dot >> 8) & 0xffu;
        }
        for (int j = 0; j < kHeadDim; ++j) {
          uint32_t sum = 0;
          for (int t = 0; t <= pos; ++t)
            sum += att[h * kSeq + t] * cache[t * kKvDim + kvh * kHeadDim + j];
          x[h * kHeadDim + j] += sum;
        }
      }
    }
    for (int v = 0; v < kVocab; ++v) {
      out[v] = 0;
      for (int c = 0; c < kDim; ++c) out[v] += emb[v * kDim + c] * x[c];
    }
    return argmax(out, kVocab);
  }
};

int main(int argc, char** argv) {
  const bool disagree = argc > 1 && std::strcmp(argv[1], "disagree") == 0;
  const bool split = argc > 1 && std::strcmp(argv[1], "split") == 0;
  const bool uneven = argc > 1 && std::strcmp(argv[1], "uneven") == 0;
  const bool fault = argc > 1 && std::strcmp(argv[1], "fault") == 0;
  Model m;
  m.emb.resize(kVocab * kDim);
  m.wq.resize(kLayers * kDim * kDim);
  m.wk.resize(kLayers * kKvDim * kDim);
  m.kcache.assign(kLayers * kSeq * kKvDim, 0);
  m.att.assign(kHeads * kSeq, 0);
  CorpusRng rng(26);
  for (auto& v : m.emb) v = rng.next() & 0xffu;
  for (auto& v : m.wq) v = rng.next() & 0xfu;
  for (auto& v : m.wk) v = rng.next() & 0xfu;
  uint32_t *emb, *wq, *wk, *kcache, *att, *x, *q, *k, *out;
  HIP_CHECK(hipMalloc(&emb, m.emb.size() * 4));
  HIP_CHECK(hipMalloc(&wq, m.wq.size() * 4));
  HIP_CHECK(hipMalloc(&wk, m.wk.size() * 4));
  HIP_CHECK(hipMalloc(&kcache, m.kcache.size() * 4));
  HIP_CHECK(hipMalloc(&att, m.att.size() * 4));
  HIP_CHECK(hipMalloc(&x, kDim * 4));
  HIP_CHECK(hipMalloc(&q, kDim * 4));
  HIP_CHECK(hipMalloc(&k, kKvDim * 4));
  HIP_CHECK(hipMalloc(&out, kVocab * 4));
  HIP_CHECK(hipMemcpy(emb, m.emb.data(), m.emb.size() * 4, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(wq, m.wq.data(), m.wq.size() * 4, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(wk, m.wk.data(), m.wk.size() * 4, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(kcache, 0, m.kcache.size() * 4));
  std::vector<int> got, want;
  int token = 1, host_token = 1;
  for (int pos = 0; pos < kSteps; ++pos) {
#ifdef DECODE_ANNOTATE
    // The annotated variant (decode_annotated): the step starts here, with
    // these parameters; "disagree" declares a wrong position at step 3.
    redline_step_begin();
    redline_step_param("token", token);
    redline_step_param("pos", disagree && pos == 3 ? pos + 100 : pos);
#else
    (void)disagree;
#endif
    // The engine's embedding lookup: a device row, copied with the kind a
    // mechanical port kept.
    HIP_CHECK(hipMemcpy(x, emb + token * kDim, kDim * 4, hipMemcpyHostToDevice));
#ifdef DECODE_ANNOTATE
    if (split && pos == 2) redline_step_begin();  // a step of one copy
#else
    (void)split;
#endif
    for (int l = 0; l < kLayers; ++l) {
      matvec<<<1, kDim>>>(q, wq + l * kDim * kDim, x, kDim, kDim);
      matvec<<<1, kDim>>>(k, wk + l * kKvDim * kDim, x, kKvDim, kDim);
      if (uneven && pos == 2) {
        rope<<<2, kDim / 4>>>(q, k, pos);
      } else {
        rope<<<1, kDim / 2>>>(q, k, pos);
      }
      HIP_CHECK(hipMemcpy(kcache + (l * kSeq + pos) * kKvDim, k, kKvDim * 4,
                          hipMemcpyDeviceToDevice));
      scores<<<pos + 1, kDim>>>(att, q, kcache + l * kSeq * kKvDim, pos);
      const bool null = fault && pos == 3 && l == 1;
      attend<<<1, kDim>>>(x, att, null ? nullptr : kcache + l * kSeq * kKvDim,
                          pos);
    }
    logits<<<kVocab / 32, 32>>>(out, emb, x);
    HIP_CHECK_LAUNCH();
    uint32_t values[kVocab];
    HIP_CHECK(hipMemcpy(values, out, sizeof(values), hipMemcpyDeviceToHost));
    token = argmax(values, kVocab);
    host_token = m.step(host_token, pos);
    got.push_back(token);
    want.push_back(host_token);
  }
  for (uint32_t* p : {emb, wq, wk, kcache, att, x, q, k, out}) HIP_CHECK(hipFree(p));
  corpus_corrupt(got.data());
  corpus_check_exact("token", got.data(), want.data(), got.size());
  std::printf("decode: tokens");
  for (int t : got) std::printf(" %d", t);
  std::printf("\n");
  return corpus_finish("decode");
}
