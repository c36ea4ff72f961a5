// The seeded initial contents the sample workloads share
// (kernels/workloads/workload_seed.h).
#include "kernels/workloads/workload_seed.h"

#include <math.h>

uint64_t rl_workload_next(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void rl_workload_uniform(uint64_t* state, float center, double amplitude,
                         float* out, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    double u = (double)(rl_workload_next(state) >> 40) * 0x1p-23 - 1.0;
    out[i] = center + (float)(u * amplitude);
  }
}

void rl_workload_rope_table(uint32_t positions, uint32_t head_dim,
                            double theta, float* out) {
  const uint32_t half = head_dim / 2;
  for (uint32_t p = 0; p < positions; ++p) {
    for (uint32_t i = 0; i < half; ++i) {
      double angle = p * pow(theta, -2.0 * i / (double)head_dim);
      out[(p * half + i) * 2] = (float)cos(angle);
      out[(p * half + i) * 2 + 1] = (float)sin(angle);
    }
  }
}
