// sim/oracle/oracle_model.c — the independent host model of the gfx11 ALU
// opcodes (oracle_model.h): finding an operation by mnemonic in the tables
// of the operation files (oracle_model_vint.c, _vfloat.c, _scalar.c,
// _packed.c; compares parsed by oracle_model_compare.c), evaluation with
// the VOP3 modifiers, and matching a result against the model (the memory
// operations: oracle_model_memory.c). Built with -ffp-contract=off.
#include <string.h>

#include "sim/oracle/oracle_model_ops.h"

// The tables, searched in this order (a mnemonic is in at most one).
static const rl_hm_table_t* const rl_hm_tables[] = {
    &rl_hm_ops_vint, &rl_hm_ops_vfloat, &rl_hm_ops_scalar, &rl_hm_ops_packed};

static const rl_hm_op_t* rl_hm_table_find(const char* name) {
  for (size_t t = 0; t < sizeof(rl_hm_tables) / sizeof(rl_hm_tables[0]); ++t) {
    const rl_hm_table_t* table = rl_hm_tables[t];
    for (size_t i = 0; i < table->count; ++i) {
      if (!strcmp(table->ops[i].name, name)) return &table->ops[i];
    }
  }
  return NULL;
}

// The op rl_hm_find() returns for a parsed compare.
static rl_hm_op_t rl_hm_cmp_op;

// gfx12 (RDNA4 guide) names of operations this model knows under their
// gfx11 name: the carry-out SALU adds ("_co_"), the 64-bit VOP3 mad, the
// clamped atomic subtract.
const char* rl_hm_gfx12_alias(const char* name) {
  static const char* const aliases[][2] = {
      {"s_add_co_u32", "s_add_u32"},       {"s_sub_co_u32", "s_sub_u32"},
      {"s_add_co_i32", "s_add_i32"},       {"s_sub_co_i32", "s_sub_i32"},
      {"s_add_co_ci_u32", "s_addc_u32"},   {"s_sub_co_ci_u32", "s_subb_u32"},
      {"s_addk_co_i32", "s_addk_i32"},     {"v_mad_co_u64_u32", "v_mad_u64_u32"},
      {"v_mad_co_i64_i32", "v_mad_i64_i32"},
      {"global_atomic_sub_clamp_u32", "global_atomic_csub_u32"},
  };
  for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); ++i) {
    if (!strcmp(aliases[i][0], name)) return aliases[i][1];
  }
  return name;
}

const rl_hm_op_t* rl_hm_find(const char* name) {
  name = rl_hm_gfx12_alias(name);
  const rl_hm_op_t* op = rl_hm_table_find(name);
  if (op != NULL) return op;
  return rl_hm_parse_compare(name, &rl_hm_cmp_op) ? &rl_hm_cmp_op : NULL;
}

bool rl_hm_lookup(const char* name, rl_hm_op_t* out) {
  const char* alias = rl_hm_gfx12_alias(name);
  const rl_hm_op_t* op = rl_hm_table_find(alias);
  if (op != NULL) {
    *out = *op;
    return true;
  }
  return rl_hm_parse_compare(name, out);
}

// Evaluation with modifiers, matching.

static uint64_t rl_hm_modify(const rl_hm_op_t* op, uint32_t n, uint64_t v,
                             bool abs, bool neg) {
  uint64_t sign = (op->wide >> n) & 1 ? 1ull << 63
                  : (op->wide & RL_HM_H16_SRC(n)) ? 1ull << 15 : 1ull << 31;
  if (abs) v &= ~sign;
  if (neg) v ^= sign;
  return v;
}

void rl_hm_eval(const rl_hm_op_t* op, uint32_t mode, uint32_t abs,
                uint32_t neg, bool clamp, rl_hm_lane_t* x) {
  for (uint32_t n = 0; n < 3; ++n) {
    if (!((op->fp >> n) & 1)) continue;
    x->s[n] = rl_hm_modify(op, n, x->s[n], (abs >> n) & 1, (neg >> n) & 1);
  }
  x->clamp = clamp && (op->flags & RL_HM_ICLAMP);
  op->fn(op, mode, x);
  if (clamp && (op->fp & (1u << RL_HM_DST_BIT))) {
    x->d = rl_hm_clamp_f32(mode, (uint32_t)x->d);
  }
}

uint32_t rl_hm_clamp_f32(uint32_t mode, uint32_t d) {
  if (rl_hm_nan(d)) {
    if (mode & RL_HM_MODE_DX10) d = 0;
  } else if (rl_hm_f(d) <= 0.0f) {
    d = 0;
  } else if (rl_hm_f(d) > 1.0f) {
    d = 0x3f800000u;
  }
  return d;
}

static bool rl_hm_nan64(uint64_t v) {
  return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
         (v & 0x000fffffffffffffull) != 0;
}

bool rl_hm_match(const rl_hm_op_t* op, uint32_t mode, uint64_t want,
                 uint64_t got) {
  (void)mode;
  bool wide = (op->wide >> RL_HM_DST_BIT) & 1;
  if (!wide) want = (uint32_t)want, got = (uint32_t)got;
  if (want == got) return true;
  if ((op->flags & RL_HM_PACKED) && (op->flags & RL_HM_NAN_ANY)) {
    for (uint32_t half = 0; half < 2; ++half) {
      uint32_t w = (uint32_t)(want >> (16 * half)) & 0xffff;
      uint32_t g = (uint32_t)(got >> (16 * half)) & 0xffff;
      if (w != g && !(rl_hm_nan16(w) && rl_hm_nan16(g))) return false;
    }
    return (want >> 32) == (got >> 32);
  }
  if (op->wide & RL_HM_H16_DST) {
    return (op->flags & RL_HM_NAN_ANY) && (want >> 16) == (got >> 16) &&
           rl_hm_nan16((uint32_t)want) && rl_hm_nan16((uint32_t)got);
  }
  if (op->flags & RL_HM_NAN_ANY) {
    if (wide ? rl_hm_nan64(want) && rl_hm_nan64(got)
             : rl_hm_nan((uint32_t)want) && rl_hm_nan((uint32_t)got)) {
      return true;
    }
  }
  if ((op->flags & RL_HM_TRANS) && wide) {  // binary64: 1 ulp
    if ((want ^ got) >> 63) return false;
    uint64_t mw = want & ~(1ull << 63), mg = got & ~(1ull << 63);
    if (mw >= 0x7ff0000000000000ull || mg >= 0x7ff0000000000000ull) return false;
    return mw + 1 == mg || mg + 1 == mw;
  }
  if (op->flags & RL_HM_TRANS) {
    uint32_t w = (uint32_t)want, g = (uint32_t)got;
    if ((w >> 31) != (g >> 31) && ((w | g) & 0x7fffffffu) != 0) return false;
    uint32_t mw = w & 0x7fffffffu, mg = g & 0x7fffffffu;
    if (mw == 0x7f800000u || mg == 0x7f800000u) return false;  // inf exact
    if (mw + 1 == mg || mg + 1 == mw) return true;               // 1 ulp
    // A result in (or rounding to) the denormal range may be flushed.
    if ((mw < 0x00800000u || mw == 0x00800000u) && (mg == 0 || mg <= 0x00800000u)) {
      return true;
    }
    return false;
  }
  return false;
}
