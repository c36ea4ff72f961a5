// sim/oracle/oracle_model_packed.c — the host model (oracle_model.h): the
// VOP3P packed operations, one 16-bit half at a time (rl_hm_packed), and
// their table rows.
// Semantics follow the RDNA3 ISA guide's opcode pseudo-code; nothing here
// includes sim/isa/. Built with -ffp-contract=off: every float operation
// must round where the instruction rounds.
#include <math.h>
#include <string.h>

#include "sim/oracle/oracle_model_ops.h"

// VOP3P halves.
enum { PK_MUL_LO, PK_ADD, PK_SUB, PK_LSHL, PK_LSHR, PK_MAX_U, PK_MIN_U,
       PK_ADD_F16, PK_MUL_F16, PK_MIN_F16, PK_MAX_F16, PK_MIN_NUM_F16,
       PK_MAX_NUM_F16 };
FN(hm_packed) { UNUSED; (void)x; }

uint32_t rl_hm_packed(const rl_hm_op_t* op, uint32_t mode, uint32_t a,
                      uint32_t b) {
  a &= 0xffff;
  b &= 0xffff;
  mode &= ~RL_HM_MODE_FTZ32;  // binary16 denormals are always kept
  switch (op->arg) {
    case PK_ADD_F16: return rl_hm_d2h(rl_hm_h2d(a) + rl_hm_h2d(b));
    case PK_MUL_F16: return rl_hm_d2h(rl_hm_h2d(a) * rl_hm_h2d(b));
    case PK_MIN_F16:
    case PK_MAX_F16:
      return rl_hm_f2h_bits(rl_hm_minmax(mode, rl_hm_h2f_bits(a),
                                         rl_hm_h2f_bits(b),
                                         op->arg == PK_MAX_F16));
    case PK_MIN_NUM_F16:
    case PK_MAX_NUM_F16:
      return rl_hm_f2h_bits(rl_hm_minmax(RL_HM_NUM(mode), rl_hm_h2f_bits(a),
                                         rl_hm_h2f_bits(b),
                                         op->arg == PK_MAX_NUM_F16));
    case PK_MUL_LO: return (a * b) & 0xffff;
    case PK_ADD: return (a + b) & 0xffff;
    case PK_SUB: return (a - b) & 0xffff;
    case PK_LSHL: return (b << (a & 15)) & 0xffff;
    case PK_LSHR: return b >> (a & 15);
    case PK_MAX_U: return a > b ? a : b;
    default: return a < b ? a : b;
  }
}

static const rl_hm_op_t rl_hm_packed_ops[] = {
    // VOP3P (16-bit halves; arg selects the operation).
    VA("v_pk_mul_lo_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MUL_LO),
    VA("v_pk_add_i16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_ADD),
    VA("v_pk_lshlrev_b16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_LSHL),
    VA("v_pk_lshrrev_b16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_LSHR),
    VA("v_pk_add_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_ADD),
    VA("v_pk_sub_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_SUB),
    VA("v_pk_max_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MAX_U),
    VA("v_pk_min_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MIN_U),
    VA("v_pk_add_f16", 2, 0, 0, RL_HM_PACKED | NANY, hm_packed, PK_ADD_F16),
    VA("v_pk_mul_f16", 2, 0, 0, RL_HM_PACKED | NANY, hm_packed, PK_MUL_F16),
    VA("v_pk_min_f16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MIN_F16),
    VA("v_pk_min_num_f16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MIN_NUM_F16),
    VA("v_pk_max_num_f16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MAX_NUM_F16),
    VA("v_pk_max_f16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MAX_F16),
};
const rl_hm_table_t rl_hm_ops_packed = {
    rl_hm_packed_ops, sizeof(rl_hm_packed_ops) / sizeof(rl_hm_packed_ops[0])};
