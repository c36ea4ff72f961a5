// tests/hip_programs/transpose.hip — LDS-tiled matrix transpose (the CUDA
// SDK's "coalesced transpose" shape): 32x32 tiles, 32x8 work-groups, each
// work-item moving four elements; the tile row is padded to 33 words so the
// column reads of the transposed write do not hit one LDS bank.
//
// Launch: block 32x8x1, grid ceil(cols/32) x ceil(rows/32). out is cols x
// rows; elements outside the matrix are skipped (edge tiles).
#include "hip_device.h"

#define RL_TR_TILE 32u
#define RL_TR_ROWS 8u

RL_HP_KERNEL(256) void hp_transpose(const unsigned* __restrict__ in,
                                    unsigned* __restrict__ out,
                                    unsigned rows, unsigned cols) {
  RL_HP_SHARED unsigned tile[RL_TR_TILE][RL_TR_TILE + 1];
  unsigned tx = rl_hp_tid_x(), ty = rl_hp_tid_y();
  unsigned x = rl_hp_block_x() * RL_TR_TILE + tx;
  unsigned y = rl_hp_block_y() * RL_TR_TILE + ty;
  for (unsigned j = 0; j < RL_TR_TILE; j += RL_TR_ROWS) {
    if (x < cols && y + j < rows) tile[ty + j][tx] = in[(y + j) * cols + x];
  }
  rl_hp_sync();
  x = rl_hp_block_y() * RL_TR_TILE + tx;
  y = rl_hp_block_x() * RL_TR_TILE + ty;
  for (unsigned j = 0; j < RL_TR_TILE; j += RL_TR_ROWS) {
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[tx][ty + j];
  }
}
