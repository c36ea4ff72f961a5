// long_names.hip — kernels and a __device__ variable whose ELF symbols are
// longer than 255 bytes, as templated C++ libraries produce (hipCUB's
// device-select and sort kernels ran past that limit of the capture format,
// docs/hip-corpus.md): a kernel template instantiated over nested policy
// types, and a table in nested namespaces. Exact check (integers).
#include "corpus.h"

#include <vector>

namespace corpus_long_names_outer_namespace_whose_name_alone_is_long_enough_to_push_symbols_past_the_old_limit {
namespace second_level_namespace_with_a_rather_descriptive_name_as_generated_code_and_libraries_often_have {
// Read through its mangled symbol: a variable of the code object, so the
// capture records it as a buffer under that symbol.
__device__ int lookup_table_with_a_long_qualified_name[64];
}  // namespace second_level_namespace_with_a_rather_descriptive_name_as_generated_code_and_libraries_often_have
}  // namespace corpus_long_names_outer_namespace_whose_name_alone_is_long_enough_to_push_symbols_past_the_old_limit

namespace lt = corpus_long_names_outer_namespace_whose_name_alone_is_long_enough_to_push_symbols_past_the_old_limit::
    second_level_namespace_with_a_rather_descriptive_name_as_generated_code_and_libraries_often_have;

template <int Scale>
struct multiply_policy_with_a_deliberately_long_template_name_like_those_of_rocprim_and_hipcub {
  static __device__ int apply(int v) { return v * Scale; }
};

template <int Offset>
struct offset_policy_with_another_deliberately_long_template_name_like_those_of_rocprim_and_hipcub {
  static __device__ int apply(int v) { return v + Offset; }
};

template <typename First, typename Second, typename Third>
__global__ void transform_with_three_policies_and_a_table_lookup(
    const int* __restrict__ in, int* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = Third::apply(Second::apply(First::apply(in[i])));
    out[i] = v + lt::lookup_table_with_a_long_qualified_name[i & 63];
  }
}

using first_t = multiply_policy_with_a_deliberately_long_template_name_like_those_of_rocprim_and_hipcub<3>;
using second_t = offset_policy_with_another_deliberately_long_template_name_like_those_of_rocprim_and_hipcub<7>;
using third_t = multiply_policy_with_a_deliberately_long_template_name_like_those_of_rocprim_and_hipcub<-2>;

int main() {
  const int n = 4096;
  std::vector<int> in(n), got(n), want(n), table(64);
  CorpusRng rng(31);
  for (int i = 0; i < 64; ++i) table[i] = (int)(rng.next() % 1000u) - 500;
  for (int i = 0; i < n; ++i) {
    in[i] = (int)(rng.next() % 20000u) - 10000;
    want[i] = ((in[i] * 3) + 7) * -2 + table[i & 63];
  }
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(lt::lookup_table_with_a_long_qualified_name),
                              table.data(), 64 * sizeof(int)));
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  transform_with_three_policies_and_a_table_lookup<first_t, second_t, third_t>
      <<<n / 256, 256>>>(din, dout, n);
  HIP_CHECK_LAUNCH();
  // A second instantiation: two long-named kernels in one code object.
  transform_with_three_policies_and_a_table_lookup<second_t, first_t, third_t>
      <<<n / 256, 256>>>(dout, din, n);
  HIP_CHECK_LAUNCH();
  for (int i = 0; i < n; ++i) {
    want[i] = ((want[i] + 7) * 3) * -2 + table[i & 63];
  }
  HIP_CHECK(hipMemcpy(got.data(), din, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  corpus_corrupt(got.data());
  corpus_check_exact("out", got.data(), want.data(), n);
  return corpus_finish("long_names");
}
