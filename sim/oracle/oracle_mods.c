// sim/oracle/oracle_mods.c — see oracle_mods.h.
#include "sim/oracle/oracle_mods.h"

#include <string.h>

static float rl_hmm_f(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}
static uint32_t rl_hmm_bits(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof(bits));
  return bits;
}

void rl_hm_eval_omod(const rl_hm_op_t* op, uint32_t mode, uint32_t abs,
                     uint32_t neg, bool clamp, uint32_t omod,
                     bool flush_first, rl_hm_lane_t* x) {
  bool f32_result = (op->fp >> RL_HM_DST_BIT) & 1;
  if (omod == 0 || !f32_result) {  // CLAMP as rl_hm_eval() has it
    rl_hm_eval(op, mode, abs, neg, clamp, x);
    return;
  }
  rl_hm_eval(op, mode, abs, neg, false, x);
  uint32_t d = (uint32_t)x->d;
  if (flush_first && (d & 0x7f800000u) == 0) d &= 0x80000000u;
  if (omod != 0 && !(mode & RL_HM_MODE_IEEE)) {
    static const float factor[4] = {1.0f, 2.0f, 4.0f, 0.5f};
    d = rl_hmm_bits(rl_hmm_f(d) * factor[omod & 3]);
    // FLOAT_DENORM_MODE_32 = 0: a denormal product becomes a signed zero.
    if ((mode & RL_HM_MODE_FTZ32) && (d & 0x7f800000u) == 0) d &= 0x80000000u;
  }
  if (clamp) d = rl_hm_clamp_f32(mode, d);
  x->d = (x->d & ~0xffffffffull) | d;
}

// DPP16: the lane of the same row of 16 that |lane| reads, or -1.
static int rl_hmm_dpp16_source(uint32_t ctrl, uint32_t lane) {
  int pos = (int)(lane % 16), row_start = (int)(lane - lane % 16);
  int amount = (int)(ctrl % 16), from = -1;
  if (ctrl < 0x100) {  // quad_perm: 2 bits per lane of the quad
    int quad = pos / 4 * 4;
    from = quad + (int)((ctrl >> (2 * (pos % 4))) % 4);
  } else if (ctrl > 0x100 && ctrl < 0x110) {  // row_shl: from the right
    from = pos + amount < 16 ? pos + amount : -1;
  } else if (ctrl > 0x110 && ctrl < 0x120) {  // row_shr: from the left
    from = pos >= amount ? pos - amount : -1;
  } else if (ctrl > 0x120 && ctrl < 0x130) {  // row_ror
    from = (pos + 16 - amount) % 16;
  } else if (ctrl == 0x140) {  // row_mirror
    from = 15 - pos;
  } else if (ctrl == 0x141) {  // row_half_mirror: mirrors each 8 lanes
    from = pos < 8 ? 7 - pos : 23 - pos;
  } else if (ctrl >= 0x150 && ctrl < 0x160) {  // row_share
    from = amount;
  } else if (ctrl >= 0x160 && ctrl < 0x170) {  // row_xmask
    from = pos ^ amount;
  }
  return from < 0 ? -1 : row_start + from;
}

void rl_hm_dpp_lane(const rl_hm_dpp_t* dpp, uint32_t exec, uint32_t lane,
                    bool* writes, bool* read, uint32_t* src_lane) {
  if (dpp->kind == 8) {
    uint32_t from = lane / 8 * 8 + ((dpp->sel >> (3 * (lane % 8))) & 7);
    *src_lane = from;
    *read = dpp->fi || ((exec >> from) & 1);
    *writes = true;
    return;
  }
  bool row_on = (dpp->row_mask >> (lane / 16)) & 1;
  bool bank_on = (dpp->bank_mask >> ((lane % 16) / 4)) & 1;
  int from = rl_hmm_dpp16_source(dpp->ctrl, lane);
  bool valid = from >= 0 && (dpp->fi || ((exec >> from) & 1));
  *src_lane = from >= 0 ? (uint32_t)from : lane;
  *read = valid;
  *writes = row_on && bank_on && (valid || dpp->bound_ctrl);
}

uint32_t rl_hm_dpp16_ctrl_pick(uint64_t r) {
  uint32_t amount = 1 + (uint32_t)((r >> 8) % 15);  // 1..15
  switch (r % 8) {
    case 0: return (uint32_t)(r >> 16) & 0xff;  // quad_perm
    case 1: return 0x100 + amount;              // row_shl
    case 2: return 0x110 + amount;              // row_shr
    case 3: return 0x120 + amount;              // row_ror
    case 4: return 0x140;                       // row_mirror
    case 5: return 0x141;                       // row_half_mirror
    case 6: return 0x150 + (amount & 15);       // row_share
    default: return 0x160 + (amount & 15);      // row_xmask
  }
}
