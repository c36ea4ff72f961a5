// lanes.hip — the cross-lane intrinsics warp-level code is written with:
// __builtin_amdgcn_mov_dpp / update_dpp under each DPP16 control clang
// emits on gfx11 and gfx12 (quad_perm, row_shl/shr/ror, row_mirror,
// row_half_mirror, row_share, row_xmask, row and bank masks, bound_ctrl),
// DPP8, v_permlane16/x16, ds_swizzle in both its modes, a DPP source
// folded into a float add, a wave sum built the way LLVM reduces a wave32
// (row_xmask steps, then permlanex16 across the two rows), a DPP source
// clang folds into a compare (v_cmp_lt_i32_e64_dpp), and two of them
// under divergent control flow (inactive source lanes). The host recomputes
// each from the ISA's lane rules (RDNA3 ISA guide, "DPP16", "DPP8",
// V_PERMLANE16_B32, DS_SWIZZLE_B32). Integers and one exact float add:
// compared bit for bit.
#include "corpus.h"

#include <cstring>
#include <vector>

#define RESULTS 17
#define WAVE 32
#define BLOCK 64

// Lane selects of permlane16/x16: nibble i is the source of row index i.
#define SEL_LO 0x3f1e2d0cu
#define SEL_HI 0x9b8a7c65u

__global__ void lane_ops(const int* __restrict__ in, int* __restrict__ out,
                         unsigned sel_lo, unsigned sel_hi) {
  int gid = blockIdx.x * BLOCK + threadIdx.x;
  int lane = threadIdx.x % WAVE;
  int v = in[gid];
  int* o = out + gid * RESULTS;
  o[0] = __builtin_amdgcn_mov_dpp(v, 0x1b, 0xf, 0xf, false);  // quad_perm:[3,2,1,0]
  o[1] = __builtin_amdgcn_update_dpp(-1, v, 0x101, 0xf, 0xf, false);  // row_shl:1
  o[2] = __builtin_amdgcn_update_dpp(-1, v, 0x113, 0xf, 0xf, true);   // row_shr:3
  o[3] = __builtin_amdgcn_update_dpp(-1, v, 0x125, 0x1, 0x5, false);  // row_ror:5
  o[4] = __builtin_amdgcn_mov_dpp(v, 0x140, 0xf, 0xf, false);  // row_mirror
  o[5] = __builtin_amdgcn_mov_dpp(v, 0x141, 0xf, 0xf, false);  // row_half_mirror
  o[6] = __builtin_amdgcn_mov_dpp(v, 0x153, 0xf, 0xf, false);  // row_share:3
  o[7] = __builtin_amdgcn_mov_dpp(v, 0x165, 0xf, 0xf, false);  // row_xmask:5
  o[8] = __builtin_amdgcn_mov_dpp8(v, 4 | 5 << 3 | 6 << 6 | 7 << 9 | 0 << 12 |
                                          1 << 15 | 2 << 18 | 3 << 21);
  o[9] = __builtin_amdgcn_permlane16(-1, v, sel_lo, sel_hi, false, false);
  o[10] = __builtin_amdgcn_permlanex16(-1, v, sel_lo, sel_hi, false, false);
  o[11] = __builtin_amdgcn_ds_swizzle(v, 0x401f);  // swizzle(SWAP,16)
  o[12] = __builtin_amdgcn_ds_swizzle(v, 0x801b);  // swizzle(QUAD_PERM,3,2,1,0)
  // A wave sum the way LLVM reduces a wave32 on gfx11/gfx12.
  int s = v;
  s += __builtin_amdgcn_mov_dpp(s, 0x161, 0xf, 0xf, false);
  s += __builtin_amdgcn_mov_dpp(s, 0x162, 0xf, 0xf, false);
  s += __builtin_amdgcn_mov_dpp(s, 0x164, 0xf, 0xf, false);
  s += __builtin_amdgcn_mov_dpp(s, 0x168, 0xf, 0xf, false);
  s += __builtin_amdgcn_permlanex16(0, s, 0x76543210u, 0xfedcba98u, false,
                                    false);
  o[13] = s;
  // A DPP source clang may fold into v_add_f32_dpp: exact halves.
  float f = (float)(v & 0xffff) * 0.5f;
  float g = __int_as_float(__builtin_amdgcn_update_dpp(
      0, __float_as_int(f), 0x111, 0xf, 0xf, true));  // row_shr:1
  o[14] = __float_as_int(f + g);
  // Divergent: a third of the lanes inactive; their values are not read.
  int d = 5;
  if (lane % 3 != 0) d = __builtin_amdgcn_ds_swizzle(v, 0x1c1f);  // xor 7
  o[15] = d;
  // A DPP move clang folds into the compare (VOP3 DPP on a VOPC opcode).
  int w = in[gid ^ 1];
  o[16] = __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, true) < w;
}

// The host side: the lane rules, wave by wave.
static int row_src16(unsigned ctrl, int i) {  // -1 when out of the row
  int n = (int)(ctrl & 15);
  if (ctrl < 0x100) return (i & ~3) | (int)((ctrl >> (2 * (i & 3))) & 3);
  if ((ctrl & ~15u) == 0x100) return i + n < 16 ? i + n : -1;
  if ((ctrl & ~15u) == 0x110) return i - n >= 0 ? i - n : -1;
  if ((ctrl & ~15u) == 0x120) return (i - n + 16) % 16;
  if (ctrl == 0x140) return 15 - i;
  if (ctrl == 0x141) return (i / 8) * 8 + 7 - i % 8;
  if ((ctrl & ~15u) == 0x150) return n;
  return i ^ n;  // 0x160 row_xmask
}

// DPP16 of a full wave: |old| where the source is out of the row and
// bound_ctrl is clear or the lane is masked off, 0 where bound_ctrl is set.
static void host_dpp(const int* w, int* r, unsigned ctrl, unsigned row_mask,
                     unsigned bank_mask, bool bc, int old) {
  for (int l = 0; l < WAVE; ++l) {
    int j = row_src16(ctrl, l % 16);
    bool write = ((row_mask >> (l / 16)) & 1) && ((bank_mask >> (l % 16 / 4)) & 1);
    if (!write) r[l] = old;
    else if (j < 0) r[l] = bc ? 0 : old;
    else r[l] = w[(l / 16) * 16 + j];
  }
}

static void host_wave(const int* w, int* want /* [WAVE][RESULTS] */) {
  int r[WAVE];
  const unsigned ctrls[] = {0x1b, 0x101, 0x113, 0x125, 0x140, 0x141, 0x153, 0x165};
  for (int k = 0; k < 8; ++k) {
    bool bc = ctrls[k] == 0x113;
    unsigned rm = ctrls[k] == 0x125 ? 0x1 : 0xf, bm = ctrls[k] == 0x125 ? 0x5 : 0xf;
    host_dpp(w, r, ctrls[k], rm, bm, bc, -1);
    for (int l = 0; l < WAVE; ++l) want[l * RESULTS + k] = r[l];
  }
  const int dpp8[8] = {4, 5, 6, 7, 0, 1, 2, 3};
  uint64_t sel = (uint64_t)SEL_HI << 32 | SEL_LO;
  int sum = 0;
  for (int l = 0; l < WAVE; ++l) sum += w[l];
  for (int l = 0; l < WAVE; ++l) {
    int* x = want + l * RESULTS;
    int row = l / 16, nib = (int)((sel >> (4 * (l % 16))) & 15);
    x[8] = w[(l & ~7) + dpp8[l % 8]];
    x[9] = w[row * 16 + nib];
    x[10] = w[(1 - row) * 16 + nib];
    x[11] = w[l ^ 16];
    x[12] = w[(l & ~3) + 3 - (l & 3)];
    x[13] = sum;
    float f = (float)(w[l] & 0xffff) * 0.5f;
    float g = l % 16 == 0 ? 0.0f : (float)(w[l - 1] & 0xffff) * 0.5f;
    float fg = f + g;
    std::memcpy(&x[14], &fg, 4);
    int from = l ^ 7;
    x[15] = l % 3 == 0 ? 5 : from % 3 != 0 ? w[from] : 0;
    x[16] = (l % 16 == 0 ? 0 : w[l - 1]) < w[l ^ 1];
  }
}

int main() {
  const int blocks = 128, n = blocks * BLOCK;
  std::vector<int> in(n), out((size_t)n * RESULTS), want((size_t)n * RESULTS);
  CorpusRng rng(31);
  for (int i = 0; i < n; ++i) in[i] = (int)(rng.next() % 2000001u) - 1000000;
  int *d_in, *d_out;
  HIP_CHECK(hipMalloc(&d_in, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_out, out.size() * sizeof(int)));
  HIP_CHECK(hipMemcpy(d_in, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  lane_ops<<<blocks, BLOCK>>>(d_in, d_out, SEL_LO, SEL_HI);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(out.data(), d_out, out.size() * sizeof(int),
                      hipMemcpyDeviceToHost));
  for (int w = 0; w < n / WAVE; ++w) {
    host_wave(&in[(size_t)w * WAVE], &want[(size_t)w * WAVE * RESULTS]);
  }
  corpus_corrupt(&out[0]);
  corpus_check_exact("lane_ops", out.data(), want.data(), out.size());
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
  return corpus_finish("lanes");
}
