// struct_ptrs.hip — pointers passed inside a struct argument, the way
// rocPRIM's run-length encoding hands reduce_by_key a zip_iterator of two
// output pointers into its temporary storage. The kernel argument is a
// by-value struct, not a global_buffer: a capture records each of its words
// inside a buffer as a pointer slot inside the argument and pins that
// buffer to its address on replay (docs/capture-interposer.md, "Pointers
// inside struct arguments").
//
// One temporary buffer holds three regions: stage writes region 0 through
// a plain pointer; split reads region 0 through a plain pointer and writes
// regions 1 and 2 through the struct's two pointers; combine reads them
// back through another struct (and region 0 through a plain pointer, as
// rocPRIM's kernels get their temporary storage) and writes the result.
// Exact check.
//
// With REDLINE_STRUCT_PTRS_HIDDEN=1 the last launch is combine_hidden,
// which reaches the temporary buffer only through its struct: only the
// slots inside the struct say what it reads there (their effects observed).
#include "corpus.h"

#include <vector>

struct Halves {  // like rocprim::zip_iterator<tuple<unsigned*, unsigned*>>
  unsigned* lo;
  unsigned* hi;
};

struct ConstHalves {
  const unsigned* lo;
  const unsigned* hi;
  unsigned scale;
};

__global__ void stage(const unsigned* in, unsigned* temp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) temp[i] = in[i] * 2654435761u;
}

__global__ void split(const unsigned* temp, Halves out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out.lo[i] = temp[i] & 0xffffu;
    out.hi[i] = temp[i] >> 16;
  }
}

__global__ void combine(const unsigned* staged, ConstHalves in,
                        unsigned* result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) result[i] = in.lo[i] * in.scale + in.hi[i] + (staged[i] & 1u);
}

__global__ void combine_hidden(ConstHalves in, unsigned* result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) result[i] = in.lo[i] * in.scale + in.hi[i] + (in.lo[i] & 1u);
}

int main() {
  const int n = 1000;
  const unsigned scale = 3;
  std::vector<unsigned> in(n), want(n), got(n);
  CorpusRng rng(31);
  for (int i = 0; i < n; ++i) {
    in[i] = rng.next();
    unsigned t = in[i] * 2654435761u;
    want[i] = (t & 0xffffu) * scale + (t >> 16) + (t & 1u);
  }
  unsigned *din, *temp, *dresult;
  HIP_CHECK(hipMalloc(&din, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&temp, 3 * n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dresult, n * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(unsigned),
                      hipMemcpyHostToDevice));
  const int blocks = (n + 255) / 256;
  stage<<<blocks, 256>>>(din, temp, n);
  HIP_CHECK_LAUNCH();
  split<<<blocks, 256>>>(temp, Halves{temp + n, temp + 2 * n}, n);
  HIP_CHECK_LAUNCH();
  const ConstHalves halves{temp + n, temp + 2 * n, scale};
  const char* hidden = std::getenv("REDLINE_STRUCT_PTRS_HIDDEN");
  if (hidden && hidden[0] == '1') {
    combine_hidden<<<blocks, 256>>>(halves, dresult, n);
  } else {
    combine<<<blocks, 256>>>(temp, halves, dresult, n);
  }
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dresult, n * sizeof(unsigned),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(temp));
  HIP_CHECK(hipFree(dresult));
  corpus_corrupt(got.data());
  corpus_check_exact("result", got.data(), want.data(), n);
  return corpus_finish("struct_ptrs");
}
