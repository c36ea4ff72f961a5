// kernels/workloads/workload_seed.h — the seeded initial contents the
// sample workloads share (private to kernels/workloads/): one portable
// random stream, uniform floats from it, and the RoPE table of the decode
// and verify workloads. Written once so the workloads that are compared
// with each other (decode, verify) seed identically by construction.
//
// Thread-safety: pure functions over the caller's state.
#ifndef REDLINE_KERNELS_WORKLOADS_WORKLOAD_SEED_H_
#define REDLINE_KERNELS_WORKLOADS_WORKLOAD_SEED_H_

#include <stdint.h>

// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014): the next value of the stream at *|state|.
uint64_t rl_workload_next(uint64_t* state);

// Fills |count| floats with center + u * amplitude, u uniform in (-1, 1)
// from the top 24 bits of the stream.
void rl_workload_uniform(uint64_t* state, float center, double amplitude,
                         float* out, uint64_t count);

// The RoPE table [positions][head_dim / 2][2]: cos and sin of
// p * theta^(-2i / head_dim), computed in double.
void rl_workload_rope_table(uint32_t positions, uint32_t head_dim,
                            double theta, float* out);

#endif  // REDLINE_KERNELS_WORKLOADS_WORKLOAD_SEED_H_
