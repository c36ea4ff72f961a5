// sim/oracle/oracle_wave.c — the oracle's work-group interpreter
// (oracle_internal.h): the initial wave state of AMDGPUUsage "Initial
// Kernel Execution State", operands, the ALU through the host model
// (oracle_model.h) one lane at a time, SOPP control flow and barriers: one
// instruction of one wave (the work-group's setup and the round-robin of its
// waves: oracle_workgroup.c).
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/oracle/oracle.h"
#include "sim/oracle/oracle_internal.h"
#include "sim/oracle/oracle_mods.h"

void rl_oracle_skip(rl_oracle_ctx_t* ctx, const char* format, ...) {
  if (ctx->stop) return;
  ctx->stop = true;
  ctx->run->outcome = RL_ORACLE_SKIP;
  va_list args;
  va_start(args, format);
  vsnprintf(ctx->run->why, sizeof(ctx->run->why), format, args);
  va_end(args);
}

void rl_oracle_fault(rl_oracle_ctx_t* ctx, const char* format, ...) {
  if (ctx->stop) return;
  ctx->stop = true;
  ctx->run->outcome = RL_ORACLE_FAULT;
  va_list args;
  va_start(args, format);
  vsnprintf(ctx->run->why, sizeof(ctx->run->why), format, args);
  va_end(args);
}

static void rl_oracle_not_modelled(rl_oracle_ctx_t* ctx,
                                   const rl_oracle_inst_t* inst,
                                   const char* what) {
  if (inst->name) {
    rl_oracle_skip(ctx, "instruction %s%s%s not modelled", inst->name,
                   what ? " with " : "", what ? what : "");
  } else {
    rl_oracle_skip(ctx, "unknown instruction 0x%08x not modelled",
                   inst->words[0]);
  }
}

//===----------------------------------------------------------------------===//
// Operands (RDNA3 ISA guide, "Scalar/Vector source operands")
//===----------------------------------------------------------------------===//

uint64_t rl_oracle_sgpr64(const rl_oracle_wave_t* w, uint32_t r) {
  if (r == RL_ORACLE_NULL) return 0;
  return w->s[r & 127] | (uint64_t)w->s[(r + 1) & 127] << 32;
}

static void rl_oracle_set_sgpr(rl_oracle_wave_t* w, uint32_t r, uint64_t v,
                               bool wide) {
  if (r != RL_ORACLE_NULL && r < RL_ORACLE_SGPRS) w->s[r] = (uint32_t)v;
  if (wide && r + 1 != RL_ORACLE_NULL && r + 1 < RL_ORACLE_SGPRS) {
    w->s[r + 1] = (uint32_t)(v >> 32);
  }
}

// The inline float constants 240..248 as binary32, binary64 and binary16.
static uint64_t rl_oracle_float_constant(uint32_t code, uint32_t fkind) {
  static const uint32_t f32[] = {0x3f000000u, 0xbf000000u, 0x3f800000u,
                                 0xbf800000u, 0x40000000u, 0xc0000000u,
                                 0x40800000u, 0xc0800000u, 0x3e22f983u};
  static const uint64_t f64[] = {
      0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
      0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
      0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull};
  static const uint16_t f16[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                 0xc000, 0x4400, 0xc400, 0x3118};
  uint32_t k = code - 240;
  return fkind == 1 || fkind == 3 ? f64[k] : fkind == 2 ? f16[k] : f32[k];
}

uint64_t rl_oracle_read_scalar(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                               const rl_oracle_inst_t* inst, uint32_t code,
                               bool wide, uint32_t fkind) {
  if (code < RL_ORACLE_SGPRS) {
    if (code == RL_ORACLE_NULL) return 0;
    return wide ? rl_oracle_sgpr64(w, code) : w->s[code];
  }
  if (code >= 128 && code <= 192) return code - 128;
  if (code >= 193 && code <= 208) {
    int64_t v = -(int64_t)(code - 192);
    return wide ? (uint64_t)v : (uint32_t)v;
  }
  if (code >= 240 && code <= 248) return rl_oracle_float_constant(code, fkind);
  if (code == 255) {
    // A 32-bit literal: a binary64 operand takes it as its high half, a
    // 64-bit integer operand zero-extends it.
    return wide && fkind == 1 ? (uint64_t)inst->literal << 32 : inst->literal;
  }
  if (code == 251) return w->s[RL_ORACLE_VCC] == 0;  // VCCZ (wave32)
  if (code == 252) return w->s[RL_ORACLE_EXEC] == 0;  // EXECZ
  if (code == 253) return w->scc;
  if (code == 235) {  // src_shared_base
    uint64_t base = RL_SIM_APERTURE_SHARED_BASE;
    return wide ? base : base >> 32;
  }
  rl_oracle_skip(ctx, "instruction %s with source operand %u not modelled",
                 inst->name ? inst->name : "?", code);
  return 0;
}

static uint64_t rl_oracle_read_lane(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                    const rl_oracle_inst_t* inst,
                                    uint32_t code, uint32_t lane, bool wide,
                                    uint32_t fkind) {
  if (code >= 256) {
    uint32_t r = code - 256;
    uint64_t v = w->v[r * 32 + lane];
    if (wide) v |= (uint64_t)w->v[((r + 1) & 255) * 32 + lane] << 32;
    return v;
  }
  return rl_oracle_read_scalar(ctx, w, inst, code, wide, fkind);
}

static void rl_oracle_set_vgpr(rl_oracle_wave_t* w, uint32_t r, uint32_t lane,
                               uint64_t v, bool wide) {
  w->v[(r & 255) * 32 + lane] = (uint32_t)v;
  if (wide) w->v[((r + 1) & 255) * 32 + lane] = (uint32_t)(v >> 32);
}

// How an inline float constant or a literal reads for source |n| of |op|:
// 1 binary64 (a literal is the high half), 3 a 64-bit integer (a literal
// is zero-extended; inline float constants are binary64), 2 binary16,
// 0 binary32 / 32-bit.
static uint32_t rl_oracle_fkind(const rl_hm_op_t* op, uint32_t n) {
  if ((op->wide >> n) & 1) return ((op->fp >> n) & 1) ? 1 : 3;
  if (op->wide & RL_HM_H16_SRC(n)) return 2;
  return 0;
}

//===----------------------------------------------------------------------===//
// The ALU through the host model
//===----------------------------------------------------------------------===//

// Where a VALU op's sources, destination and masks are, per format.
typedef struct rl_oracle_valu_s {
  uint32_t src[3];
  uint32_t nsrc;
  uint32_t vdst;
  bool sgpr_dst;      // the result goes to an SGPR (VOP3 compare)
  uint32_t mask_in;   // SGPR of the carry-in / select mask
  uint32_t mask_out;  // SGPR of the carry-out / compare mask
  bool exec_out;      // v_cmpx: the mask goes to EXEC
  uint32_t abs, neg, omod;
  bool clamp;
} rl_oracle_valu_t;

// One VALU op of the host model over every lane: sources are read for all
// lanes before anything is written (VOPD's two halves go through
// rl_oracle_valu_read and rl_oracle_valu_write separately).
typedef struct rl_oracle_lanes_s {
  rl_hm_lane_t x[32];
  uint32_t exec;
} rl_oracle_lanes_t;

static void rl_oracle_valu_read(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                const rl_oracle_inst_t* inst,
                                const rl_hm_op_t* op,
                                const rl_oracle_valu_t* f,
                                rl_oracle_lanes_t* out) {
  out->exec = w->s[RL_ORACLE_EXEC];
  bool wide_dst = (op->wide >> RL_HM_DST_BIT) & 1;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    rl_hm_lane_t* x = &out->x[lane];
    memset(x, 0, sizeof(*x));
    x->lane = lane;
    if (!((out->exec >> lane) & 1)) continue;
    for (uint32_t n = 0; n < f->nsrc && n < 3; ++n) {
      x->s[n] = rl_oracle_read_lane(ctx, w, inst, f->src[n], lane,
                                    (op->wide >> n) & 1,
                                    rl_oracle_fkind(op, n));
    }
    if (op->flags & RL_HM_CIN) {
      x->cin = (w->s[f->mask_in] >> lane) & 1;
    }
    if (!f->sgpr_dst && !(op->flags & RL_HM_CMP)) {
      x->d = rl_oracle_read_lane(ctx, w, inst, 256 + f->vdst, lane, wide_dst,
                                 0);
    }
    if (op->flags & RL_HM_ACC) x->s[2] = x->d;
    if (op->flags & RL_HM_K) x->s[2] = inst->literal;
  }
}

// Whether |d| (the destination of |op|) is a NaN.
static bool rl_oracle_result_nan(const rl_hm_op_t* op, uint64_t d) {
  if ((op->wide >> RL_HM_DST_BIT) & 1) {
    return (d & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
           (d & 0x000fffffffffffffull) != 0;
  }
  if (op->wide & RL_HM_H16_DST) {
    return (d & 0x7c00u) == 0x7c00u && (d & 0x3ffu) != 0;
  }
  return (d & 0x7f800000u) == 0x7f800000u && (d & 0x7fffffu) != 0;
}

static void rl_oracle_valu_eval(rl_oracle_ctx_t* ctx, const rl_hm_op_t* op,
                                const rl_oracle_valu_t* f,
                                rl_oracle_lanes_t* lanes) {
  // Results the ISA does not fix to the bit: a binary64 transcendental
  // (1 ulp), and a NaN of arithmetic (its payload is unspecified; min and
  // max, which select an operand, are exact). The work-group's bytes then
  // depend on the implementation: skipped, not compared.
  if ((op->flags & RL_HM_TRANS) && (op->wide >> RL_HM_DST_BIT) & 1) {
    rl_oracle_skip(ctx, "instruction %s: its result is specified to 1 ulp",
                   op->name);
    return;
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (!((lanes->exec >> lane) & 1)) continue;
    rl_hm_lane_t* x = &lanes->x[lane];
    if (f->omod) {
      rl_hm_eval_omod(op, ctx->mode, f->abs, f->neg, f->clamp, f->omod, false,
                      x);
    } else {
      rl_hm_eval(op, ctx->mode, f->abs, f->neg, f->clamp, x);
    }
    if ((op->flags & RL_HM_NAN_ANY) && !(op->flags & RL_HM_CMP) &&
        rl_oracle_result_nan(op, x->d)) {
      rl_oracle_skip(ctx, "instruction %s made a NaN, whose payload the ISA "
                     "leaves unspecified", op->name);
      return;
    }
  }
}

static void rl_oracle_valu_write(rl_oracle_wave_t* w, const rl_hm_op_t* op,
                                 const rl_oracle_valu_t* f,
                                 const rl_oracle_lanes_t* lanes) {
  bool wide_dst = (op->wide >> RL_HM_DST_BIT) & 1;
  uint32_t mask = 0;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (!((lanes->exec >> lane) & 1)) continue;
    const rl_hm_lane_t* x = &lanes->x[lane];
    if (op->flags & (RL_HM_COUT | RL_HM_CMP)) mask |= (x->cout & 1u) << lane;
    if (op->flags & RL_HM_CMP) continue;
    rl_oracle_set_vgpr(w, f->vdst, lane, x->d, wide_dst);
  }
  if (op->flags & RL_HM_CMPX) {
    w->s[RL_ORACLE_EXEC] = mask;
  } else if (op->flags & (RL_HM_COUT | RL_HM_CMP)) {
    rl_oracle_set_sgpr(w, f->mask_out, mask, false);
  }
}

static void rl_oracle_valu(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                           const rl_oracle_inst_t* inst, const rl_hm_op_t* op,
                           const rl_oracle_valu_t* f) {
  rl_oracle_lanes_t lanes;
  rl_oracle_valu_read(ctx, w, inst, op, f, &lanes);
  if (ctx->stop) return;
  rl_oracle_valu_eval(ctx, op, f, &lanes);
  if (ctx->stop) return;
  rl_oracle_valu_write(w, op, f, &lanes);
}

// A host-model entry the oracle can run in this form, else a skip.
static bool rl_oracle_model_ok(rl_oracle_ctx_t* ctx,
                               const rl_oracle_inst_t* inst,
                               const rl_hm_op_t* op) {
  // The SALU float opcodes exist from gfx1150 (RDNA3.5) and on gfx12.
  bool salu_float = ctx->gfx12 ||
                    strncmp(ctx->dispatch->processor, "gfx115", 6) == 0;
  if ((op->flags & RL_HM_PACKED) ||
      ((op->flags & RL_HM_SALU_FLOAT) && !salu_float)) {
    rl_oracle_not_modelled(ctx, inst, NULL);
    return false;
  }
  return true;
}

// rl_hm_lookup() by mnemonic, remembered per thread: the mnemonics are the
// static strings of the name tables, so the pointer is the key (a linear
// search by name per executed instruction was most of the oracle's time).
// VOPD halves ("v_dual_add_f32") resolve to the plain op ("v_add_f32").
typedef struct rl_oracle_op_slot_s {
  const char* name;
  bool found;
  rl_hm_op_t op;
} rl_oracle_op_slot_t;

static bool rl_oracle_lookup(const char* name, rl_hm_op_t* out) {
  static _Thread_local rl_oracle_op_slot_t slots[512];
  rl_oracle_op_slot_t* slot =
      &slots[((uintptr_t)name >> 3) * 0x9e3779b1u % 512u];
  if (slot->name != name) {
    char plain[64];
    const char* key = name;
    if (!strncmp(name, "v_dual_", 7)) {
      snprintf(plain, sizeof(plain), "v_%s", name + 7);
      key = plain;
    }
    slot->found = rl_hm_lookup(key, &slot->op);
    // A parsed compare names its own string: keep the table's.
    slot->op.name = name;
    slot->name = name;
  }
  *out = slot->op;
  return slot->found;
}

// The lane moves outside the lane model: v_readfirstlane_b32,
// v_readlane_b32, v_writelane_b32, v_nop.
static bool rl_oracle_lane_moves(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                 const rl_oracle_inst_t* inst) {
  const char* name = inst->name;
  if (!strcmp(name, "v_nop") || !strcmp(name, "v_pipeflush")) return true;
  if (!strcmp(name, "v_readfirstlane_b32")) {
    uint32_t exec = w->s[RL_ORACLE_EXEC];
    uint32_t lane = 0;  // the lowest active lane; none: lane 0
    while (exec && !((exec >> lane) & 1)) ++lane;
    uint64_t v = rl_oracle_read_lane(ctx, w, inst, inst->src[0], lane, false,
                                     0);
    rl_oracle_set_sgpr(w, inst->vdst, v, false);
    return true;
  }
  if (!strcmp(name, "v_readlane_b32")) {
    uint32_t lane = (uint32_t)rl_oracle_read_scalar(ctx, w, inst,
                                                    inst->src[1], false, 0) &
                    31;
    uint64_t v = rl_oracle_read_lane(ctx, w, inst, inst->src[0], lane, false,
                                     0);
    rl_oracle_set_sgpr(w, inst->vdst, v, false);
    return true;
  }
  if (!strcmp(name, "v_writelane_b32")) {
    uint32_t v = (uint32_t)rl_oracle_read_scalar(ctx, w, inst, inst->src[0],
                                                 false, 0);
    uint32_t lane = (uint32_t)rl_oracle_read_scalar(ctx, w, inst,
                                                    inst->src[1], false, 0) &
                    31;
    rl_oracle_set_vgpr(w, inst->vdst, lane, v, false);
    return true;
  }
  return false;
}

static bool rl_oracle_is_dpp_src(uint32_t src0) {
  return src0 == 250 || src0 == 233 || src0 == 234;
}

// gfx12's pseudo-scalar transcendentals (v_s_exp_f32, v_s_log_f32,
// v_s_rcp_f32, v_s_rsq_f32, v_s_sqrt_f32; RDNA4 guide): the VALU opcode of
// the same name on one scalar operand, the result in the SGPR VDST names.
// False when |inst| is not one; the binary16 forms are skipped.
static bool rl_oracle_pseudo_scalar(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                    const rl_oracle_inst_t* inst) {
  if (!ctx->gfx12 || inst->fmt != RL_ORACLE_FMT_VOP3 ||
      strncmp(inst->name, "v_s_", 4) != 0) {
    return false;
  }
  char plain[48];
  snprintf(plain, sizeof(plain), "v_%s", inst->name + 4);
  rl_hm_op_t op;
  if (!rl_hm_lookup(plain, &op) || op.nsrc != 1 ||
      (op.wide & (RL_HM_H16_SRC(0) | RL_HM_H16_DST)) || inst->clamp ||
      inst->omod || inst->opsel) {
    rl_oracle_not_modelled(ctx, inst, NULL);
    return true;
  }
  rl_hm_lane_t x;
  memset(&x, 0, sizeof(x));
  x.s[0] = rl_oracle_read_scalar(ctx, w, inst, inst->src[0], false,
                                 rl_oracle_fkind(&op, 0));
  if (ctx->stop) return true;
  rl_hm_eval(&op, ctx->mode, inst->abs, inst->neg, false, &x);
  if ((op.flags & RL_HM_NAN_ANY) && rl_oracle_result_nan(&op, x.d)) {
    rl_oracle_skip(ctx, "instruction %s made a NaN, whose payload the ISA "
                   "leaves unspecified", inst->name);
    return true;
  }
  rl_oracle_set_sgpr(w, inst->vdst, x.d, false);
  return true;
}

static void rl_oracle_exec_vop(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                               const rl_oracle_inst_t* inst) {
  if (rl_oracle_is_dpp_src(inst->src[0])) {
    rl_oracle_not_modelled(ctx, inst, "DPP");
    return;
  }
  if (rl_oracle_pseudo_scalar(ctx, w, inst)) return;
  if (rl_oracle_lane_moves(ctx, w, inst)) return;
  rl_hm_op_t op;
  if (!rl_oracle_lookup(inst->name, &op) || (op.flags & RL_HM_SALU)) {
    rl_oracle_not_modelled(ctx, inst, NULL);
    return;
  }
  if (!rl_oracle_model_ok(ctx, inst, &op)) return;
  rl_oracle_valu_t f = {{inst->src[0], inst->src[1], inst->src[2]},
                        op.nsrc, inst->vdst, false, RL_ORACLE_VCC,
                        RL_ORACLE_VCC, false, 0, 0, 0, false};
  bool e32 = inst->fmt != RL_ORACLE_FMT_VOP3;
  if (e32 && (op.wide & (RL_HM_H16_SRC(0) | RL_HM_H16_SRC(1) |
                         RL_HM_H16_DST))) {
    // 16-bit e32 forms may name VGPR high halves (v0.h): not modelled.
    bool high = inst->vdst >= 128 || inst->src[0] >= 384 ||
                inst->src[1] >= 384;
    if (high) {
      rl_oracle_not_modelled(ctx, inst, "a 16-bit high half");
      return;
    }
  }
  // VOP3B (a carry-out or 64-bit mad): bits 14:8 are SDST, no ABS/OP_SEL.
  bool vop3b = !e32 && (op.flags & RL_HM_COUT) && !(op.flags & RL_HM_CMP);
  if (!e32) {
    if (inst->opsel && !vop3b) {
      rl_oracle_not_modelled(ctx, inst, "op_sel");
      return;
    }
    f.abs = inst->abs;
    f.neg = inst->neg;
    f.clamp = inst->clamp;
    f.omod = inst->omod;
    // gfx12 dropped DX10_CLAMP and IEEE mode, on which gfx11's float clamp
    // and output modifier rules lean; the RDNA4 rule is not modelled.
    if (ctx->gfx12 && op.fp && !vop3b && (f.clamp || f.omod)) {
      rl_oracle_not_modelled(ctx, inst, f.omod ? "omod on gfx12"
                                               : "a float clamp on gfx12");
      return;
    }
    if (op.flags & RL_HM_CMP) {
      f.mask_out = inst->vdst;  // VOPC as VOP3: the SGPR in VDST
    } else if (op.flags & RL_HM_COUT) {
      f.mask_out = inst->sdst;  // VOP3B
      f.abs = 0;
      f.clamp = inst->clamp;
    }
    if (op.flags & RL_HM_CIN) f.mask_in = inst->src[2];
  }
  if (op.flags & RL_HM_CIN) f.nsrc = 2;
  rl_oracle_valu(ctx, w, inst, &op, &f);
}

// VOP3P packed 16-bit math (RDNA3/RDNA4 guides, "Packed Math"): each 32-bit
// source holds two halves; the low result half takes source n's high half
// when OP_SEL bit n is set, the high result half when OP_SEL_HI bit n is
// set, else the low half; each result half is the host model's
// rl_hm_packed() of the selected halves (binary16 rounded once, denormals
// kept: the descriptor's FLOAT_DENORM_MODE_16_64 is 3 in every dispatch
// the oracle accepts). NEG/NEG_HI, CLAMP, inline constants and literals
// (whose halves the guides describe by form) are not modelled: skipped.
static void rl_oracle_exec_vop3p(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                 const rl_oracle_inst_t* inst) {
  rl_hm_op_t op;
  if (rl_oracle_is_dpp_src(inst->src[0])) {
    rl_oracle_not_modelled(ctx, inst, "DPP");
    return;
  }
  if (!inst->name || !rl_oracle_lookup(inst->name, &op) ||
      !(op.flags & RL_HM_PACKED)) {
    rl_oracle_not_modelled(ctx, inst, NULL);
    return;
  }
  if (inst->neg || inst->neg_hi || inst->clamp) {
    rl_oracle_not_modelled(ctx, inst, inst->clamp ? "clamp" : "neg");
    return;
  }
  for (uint32_t n = 0; n < op.nsrc && n < 2; ++n) {
    if (inst->src[n] >= 128 && inst->src[n] < 256) {
      rl_oracle_not_modelled(ctx, inst, "a constant operand");
      return;
    }
  }
  uint32_t exec = w->s[RL_ORACLE_EXEC];
  uint32_t result[32] = {0};
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint32_t lo[2] = {0}, hi[2] = {0};
    for (uint32_t n = 0; n < op.nsrc && n < 2; ++n) {
      uint32_t v = (uint32_t)rl_oracle_read_lane(ctx, w, inst, inst->src[n],
                                                 lane, false, 0);
      lo[n] = ((inst->opsel >> n) & 1) ? v >> 16 : v & 0xffff;
      hi[n] = ((inst->opsel_hi >> n) & 1) ? v >> 16 : v & 0xffff;
    }
    uint32_t d_lo = rl_hm_packed(&op, ctx->mode, lo[0], lo[1]) & 0xffff;
    uint32_t d_hi = rl_hm_packed(&op, ctx->mode, hi[0], hi[1]) & 0xffff;
    if ((op.flags & RL_HM_NAN_ANY) &&
        (((d_lo & 0x7c00u) == 0x7c00u && (d_lo & 0x3ffu)) ||
         ((d_hi & 0x7c00u) == 0x7c00u && (d_hi & 0x3ffu)))) {
      rl_oracle_skip(ctx, "instruction %s made a NaN, whose payload the ISA "
                     "leaves unspecified", inst->name);
      return;
    }
    result[lane] = d_lo | d_hi << 16;
  }
  if (ctx->stop) return;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if ((exec >> lane) & 1) rl_oracle_set_vgpr(w, inst->vdst, lane, result[lane], false);
  }
}

// VOPD: two VOP2-like halves, every source read before either writes.
static bool rl_oracle_dual_op(const char* name, rl_hm_op_t* op) {
  if (!name || strncmp(name, "v_dual_", 7) != 0) return false;
  return rl_oracle_lookup(name, op) && !(op->flags & RL_HM_SALU);
}

static void rl_oracle_exec_vopd(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                const rl_oracle_inst_t* inst) {
  rl_hm_op_t opx, opy;
  if (!rl_oracle_dual_op(inst->name, &opx)) {
    rl_oracle_not_modelled(ctx, inst, NULL);
    return;
  }
  if (!rl_oracle_dual_op(inst->name_y, &opy)) {
    rl_oracle_skip(ctx, "instruction %s not modelled",
                   inst->name_y ? inst->name_y : "v_dual_?");
    return;
  }
  rl_oracle_valu_t fx = {{inst->src[0], inst->src[1], 0}, 2, inst->vdst,
                         false, RL_ORACLE_VCC, RL_ORACLE_VCC, false,
                         0, 0, 0, false};
  rl_oracle_valu_t fy = {{inst->srcy0, inst->vsrcy1, 0}, 2, inst->vdsty,
                         false, RL_ORACLE_VCC, RL_ORACLE_VCC, false,
                         0, 0, 0, false};
  if (opx.nsrc < 2) fx.nsrc = opx.nsrc;
  if (opy.nsrc < 2) fy.nsrc = opy.nsrc;
  rl_oracle_lanes_t lx, ly;
  rl_oracle_valu_read(ctx, w, inst, &opx, &fx, &lx);
  rl_oracle_valu_read(ctx, w, inst, &opy, &fy, &ly);
  if (ctx->stop) return;
  rl_oracle_valu_eval(ctx, &opx, &fx, &lx);
  rl_oracle_valu_eval(ctx, &opy, &fy, &ly);
  if (ctx->stop) return;
  rl_oracle_valu_write(w, &opx, &fx, &lx);
  rl_oracle_valu_write(w, &opy, &fy, &ly);
}

// The saveexec family: D = EXEC, EXEC = f(S0, EXEC), SCC = EXEC != 0;
// *_wrexec: EXEC = f(S0, EXEC), D = the new EXEC.
static bool rl_oracle_saveexec(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                               const rl_oracle_inst_t* inst) {
  const char* name = inst->name;
  const char* tail = strstr(name, "_saveexec_b32");
  bool wrexec = false;
  if (!tail) {
    tail = strstr(name, "_wrexec_b32");
    wrexec = true;
  }
  if (!tail || strncmp(name, "s_", 2) != 0) return false;
  char fn[32];
  size_t n = (size_t)(tail - (name + 2));
  if (n >= sizeof(fn)) return false;
  memcpy(fn, name + 2, n);
  fn[n] = 0;
  uint32_t s0 = (uint32_t)rl_oracle_read_scalar(ctx, w, inst, inst->src[0],
                                                false, 0);
  uint32_t exec = w->s[RL_ORACLE_EXEC], r;
  if (!strcmp(fn, "and")) r = s0 & exec;
  else if (!strcmp(fn, "or")) r = s0 | exec;
  else if (!strcmp(fn, "xor")) r = s0 ^ exec;
  else if (!strcmp(fn, "nand")) r = ~(s0 & exec);
  else if (!strcmp(fn, "nor")) r = ~(s0 | exec);
  else if (!strcmp(fn, "xnor")) r = ~(s0 ^ exec);
  else if (!strcmp(fn, "and_not0")) r = ~s0 & exec;
  else if (!strcmp(fn, "or_not0")) r = ~s0 | exec;
  else if (!strcmp(fn, "and_not1")) r = s0 & ~exec;
  else if (!strcmp(fn, "or_not1")) r = s0 | ~exec;
  else return false;
  w->s[RL_ORACLE_EXEC] = r;
  rl_oracle_set_sgpr(w, inst->sdst, wrexec ? r : exec, false);
  w->scc = r != 0;
  return true;
}

static void rl_oracle_exec_salu(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                const rl_oracle_inst_t* inst,
                                uint64_t pc_next) {
  const char* name = inst->name;
  if (inst->fmt == RL_ORACLE_FMT_SOP1) {
    if (rl_oracle_saveexec(ctx, w, inst)) return;
    if (!strcmp(name, "s_getpc_b64")) {
      // gfx12 returns the 48-bit PC zero-extended (gfx11 sign-extends; the
      // simulator's code addresses have bit 47 clear, so both read alike).
      rl_oracle_set_sgpr(w, inst->sdst,
                         ctx->gfx12 ? pc_next & 0xffffffffffffull : pc_next,
                         true);
      return;
    }
    if (!strcmp(name, "s_setpc_b64")) {
      w->pc = rl_oracle_read_scalar(ctx, w, inst, inst->src[0], true, 0);
      return;
    }
    if (!strcmp(name, "s_barrier_signal")) {
      // gfx12's split barrier: the signal of the work-group barrier (-1)
      // has no effect the oracle's round-robin needs; s_barrier_wait
      // stops the wave. Named barriers are not modelled.
      if (inst->src[0] != 193) rl_oracle_not_modelled(ctx, inst, "a named barrier");
      return;
    }
    if (!strcmp(name, "s_swappc_b64")) {
      uint64_t target = rl_oracle_read_scalar(ctx, w, inst, inst->src[0], true,
                                              0);
      rl_oracle_set_sgpr(w, inst->sdst, pc_next, true);
      w->pc = target;
      return;
    }
  }
  if (inst->fmt == RL_ORACLE_FMT_SOPK && !strncmp(name, "s_waitcnt", 9)) {
    return;
  }
  if (ctx->gfx12 && inst->fmt == RL_ORACLE_FMT_SOP2 &&
      (!strcmp(name, "s_add_nc_u64") || !strcmp(name, "s_sub_nc_u64") ||
       !strcmp(name, "s_mul_u64"))) {
    // RDNA4 guide: 64-bit add, subtract, multiply (the low 64 bits of the
    // product), SCC unchanged.
    uint64_t a = rl_oracle_read_scalar(ctx, w, inst, inst->src[0], true, 3);
    uint64_t b = rl_oracle_read_scalar(ctx, w, inst, inst->src[1], true, 3);
    uint64_t d = name[2] == 'a' ? a + b : name[2] == 's' ? a - b : a * b;
    if (!ctx->stop) rl_oracle_set_sgpr(w, inst->sdst, d, true);
    return;
  }
  rl_hm_op_t op;
  if (!rl_oracle_lookup(name, &op) || !(op.flags & RL_HM_SALU)) {
    rl_oracle_not_modelled(ctx, inst, NULL);
    return;
  }
  if (!rl_oracle_model_ok(ctx, inst, &op)) return;
  rl_hm_lane_t x;
  memset(&x, 0, sizeof(x));
  bool wide_dst = (op.wide >> RL_HM_DST_BIT) & 1;
  if (op.flags & RL_HM_SOPK) {
    x.s[0] = wide_dst ? rl_oracle_sgpr64(w, inst->sdst) : w->s[inst->sdst & 127];
    x.s[1] = (uint16_t)inst->simm16;
  } else {
    for (uint32_t n = 0; n < op.nsrc && n < 2; ++n) {
      x.s[n] = rl_oracle_read_scalar(ctx, w, inst, inst->src[n],
                                     (op.wide >> n) & 1, rl_oracle_fkind(&op, n));
    }
  }
  if (ctx->stop) return;
  x.cin = w->scc;
  x.cout = w->scc;
  if (!(op.flags & RL_HM_NO_DST)) {
    x.d = wide_dst ? rl_oracle_sgpr64(w, inst->sdst) : w->s[inst->sdst & 127];
  }
  rl_hm_eval(&op, ctx->mode, 0, 0, false, &x);
  if ((op.flags & RL_HM_SALU_FLOAT) && (op.flags & RL_HM_NAN_ANY) &&
      !(op.flags & RL_HM_CMP) && rl_oracle_result_nan(&op, x.d)) {
    rl_oracle_skip(ctx, "instruction %s made a NaN, whose payload the ISA "
                   "leaves unspecified", name);
    return;
  }
  if (op.flags & RL_HM_SCC_OUT) w->scc = x.cout & 1;
  if (!(op.flags & RL_HM_NO_DST)) {
    rl_oracle_set_sgpr(w, inst->sdst, x.d, wide_dst);
  }
}

//===----------------------------------------------------------------------===//
// SOPP
//===----------------------------------------------------------------------===//

static void rl_oracle_exec_sopp(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                const rl_oracle_inst_t* inst) {
  const char* name = inst->name;
  uint64_t target = w->pc + (uint64_t)((int64_t)inst->simm16 * 4);
  bool take = false;
  if (!strcmp(name, "s_endpgm")) {
    w->ended = true;
    return;
  }
  if (!strcmp(name, "s_barrier")) {
    w->at_barrier = true;
    return;
  }
  if (!strcmp(name, "s_barrier_wait")) {  // gfx12: -1, the work-group's
    if (inst->simm16 != -1) {
      rl_oracle_not_modelled(ctx, inst, "a named barrier");
      return;
    }
    w->at_barrier = true;
    return;
  }
  if (!strcmp(name, "s_branch")) {
    take = true;
  } else if (!strcmp(name, "s_cbranch_scc0")) {
    take = !w->scc;
  } else if (!strcmp(name, "s_cbranch_scc1")) {
    take = w->scc;
  } else if (!strcmp(name, "s_cbranch_vccz")) {
    take = w->s[RL_ORACLE_VCC] == 0;
  } else if (!strcmp(name, "s_cbranch_vccnz")) {
    take = w->s[RL_ORACLE_VCC] != 0;
  } else if (!strcmp(name, "s_cbranch_execz")) {
    take = w->s[RL_ORACLE_EXEC] == 0;
  } else if (!strcmp(name, "s_cbranch_execnz")) {
    take = w->s[RL_ORACLE_EXEC] != 0;
  } else if (!strcmp(name, "s_nop") || !strncmp(name, "s_waitcnt", 9) ||
             !strcmp(name, "s_clause") || !strcmp(name, "s_delay_alu") ||
             !strcmp(name, "s_sendmsg") || !strcmp(name, "s_setprio") ||
             !strcmp(name, "s_sleep") || !strcmp(name, "s_icache_inv") ||
             !strcmp(name, "s_set_inst_prefetch_distance") ||
             !strcmp(name, "s_wait_idle") ||
             // gfx12's split counters (s_wait_loadcnt, _storecnt, _dscnt,
             // _kmcnt, ...) and s_wait_alu: every access of the oracle
             // completes before the next instruction.
             !strncmp(name, "s_wait_", 7)) {
    return;  // no effect on registers or memory
  } else {
    rl_oracle_not_modelled(ctx, inst, NULL);
    return;
  }
  if (take) w->pc = target;
}

//===----------------------------------------------------------------------===//
// One instruction (the work-group around it: oracle_workgroup.c)
//===----------------------------------------------------------------------===//

void rl_oracle_step(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w) {
  uint32_t words[4] = {0};
  uint32_t count = 4;
  while (count > 0 && !rl_oracle_mem_read(ctx->mem, w->pc, words, count * 4)) {
    --count;
  }
  rl_oracle_inst_t inst;
  if (!rl_oracle_decode(words, count, ctx->gfx12, &inst)) {
    rl_oracle_fault(ctx, "instruction fetch at 0x%llx outside memory",
                    (unsigned long long)w->pc);
    return;
  }
  if (!inst.name && inst.fmt != RL_ORACLE_FMT_OTHER) {
    rl_oracle_not_modelled(ctx, &inst, NULL);
    return;
  }
  uint64_t pc_next = w->pc + inst.length;
  w->pc = pc_next;
  ctx->run->steps++;
  switch (inst.fmt) {
    case RL_ORACLE_FMT_SOP1:
    case RL_ORACLE_FMT_SOP2:
    case RL_ORACLE_FMT_SOPK:
    case RL_ORACLE_FMT_SOPC:
      rl_oracle_exec_salu(ctx, w, &inst, pc_next);
      break;
    case RL_ORACLE_FMT_SOPP:
      rl_oracle_exec_sopp(ctx, w, &inst);
      break;
    case RL_ORACLE_FMT_VOP1:
    case RL_ORACLE_FMT_VOP2:
    case RL_ORACLE_FMT_VOPC:
    case RL_ORACLE_FMT_VOP3:
      rl_oracle_exec_vop(ctx, w, &inst);
      break;
    case RL_ORACLE_FMT_VOPD:
      rl_oracle_exec_vopd(ctx, w, &inst);
      break;
    case RL_ORACLE_FMT_VOP3P:
      rl_oracle_exec_vop3p(ctx, w, &inst);
      break;
    case RL_ORACLE_FMT_SMEM:
      rl_oracle_exec_smem(ctx, w, &inst);
      break;
    case RL_ORACLE_FMT_DS:
      rl_oracle_exec_ds(ctx, w, &inst);
      break;
    case RL_ORACLE_FMT_FLAT:
      rl_oracle_exec_flat(ctx, w, &inst);
      break;
    case RL_ORACLE_FMT_MUBUF:
      if (inst.name && (!strcmp(inst.name, "buffer_gl0_inv") ||
                        !strcmp(inst.name, "buffer_gl1_inv"))) {
        break;  // coherent memory: nothing to invalidate
      }
      rl_oracle_not_modelled(ctx, &inst, NULL);
      break;
    default:
      rl_oracle_not_modelled(ctx, &inst, NULL);
      break;
  }
}
