// tests/hip_programs/scan.hip — an exclusive prefix sum over values that
// work-items compute with divergent loops, in three launches (the classic
// scan-then-propagate shape):
//
// hp_scan_blocks: each work-item turns its input into a Collatz step count
// (a data-dependent trip count, so the lanes of a wave leave the loop at
// different iterations and run with a shrinking EXEC mask), then the
// work-group scans the counts in LDS (Hillis-Steele: at stride s only the
// lanes with tid >= s add, double-buffered) and writes the exclusive
// prefix and the group's total.
// hp_scan_totals: one work-group scans the totals sequentially per lane
// chunk (a loop whose trip count varies by lane) and then across chunks.
// hp_scan_add: adds each group's offset to its elements.
//
// Launch: block 256x1x1; hp_scan_blocks and hp_scan_add on ceil(n/256)
// groups, hp_scan_totals on one group with |groups| <= 256 * 16.
#include "hip_device.h"

#define RL_SC_BLOCK 256u
// The step bound keeps every count finite whatever the input.
#define RL_SC_MAX_STEPS 1000u

RL_HP_DEVICE unsigned rl_sc_collatz(unsigned x) {
  unsigned steps = 0;
  while (x > 1u && steps < RL_SC_MAX_STEPS) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    ++steps;
  }
  return steps;
}

RL_HP_KERNEL(RL_SC_BLOCK) void hp_scan_blocks(const unsigned* __restrict__ in,
                                              unsigned* __restrict__ out,
                                              unsigned* __restrict__ totals,
                                              unsigned n) {
  RL_HP_SHARED unsigned buf[2][RL_SC_BLOCK];
  unsigned tid = rl_hp_tid_x();
  unsigned i = rl_hp_block_x() * RL_SC_BLOCK + tid;
  unsigned v = i < n ? rl_sc_collatz(in[i]) : 0u;
  unsigned src = 0;
  buf[0][tid] = v;
  rl_hp_sync();
  for (unsigned s = 1; s < RL_SC_BLOCK; s <<= 1) {
    unsigned x = buf[src][tid];
    if (tid >= s) x += buf[src][tid - s];
    buf[src ^ 1u][tid] = x;
    src ^= 1u;
    rl_hp_sync();
  }
  unsigned inclusive = buf[src][tid];
  if (i < n) out[i] = inclusive - v;
  if (tid == RL_SC_BLOCK - 1) totals[rl_hp_block_x()] = inclusive;
}

RL_HP_KERNEL(RL_SC_BLOCK) void hp_scan_totals(unsigned* totals,
                                              unsigned groups) {
  RL_HP_SHARED unsigned chunk_sum[RL_SC_BLOCK];
  unsigned tid = rl_hp_tid_x();
  unsigned per = (groups + RL_SC_BLOCK - 1) / RL_SC_BLOCK;
  unsigned begin = tid * per;
  unsigned end = begin + per < groups ? begin + per : groups;
  unsigned acc = 0;
  for (unsigned g = begin; g < end; ++g) acc += totals[g];
  chunk_sum[tid] = acc;
  rl_hp_sync();
  unsigned offset = 0;
  for (unsigned t = 0; t < tid; ++t) offset += chunk_sum[t];
  for (unsigned g = begin; g < end; ++g) {
    unsigned x = totals[g];
    totals[g] = offset;
    offset += x;
  }
}

RL_HP_KERNEL(RL_SC_BLOCK) void hp_scan_add(unsigned* __restrict__ out,
                                           const unsigned* __restrict__ totals,
                                           unsigned n) {
  unsigned i = rl_hp_block_x() * RL_SC_BLOCK + rl_hp_tid_x();
  if (i < n) out[i] += totals[rl_hp_block_x()];
}
