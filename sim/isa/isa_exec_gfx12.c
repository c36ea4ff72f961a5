// sim/isa/isa_exec_gfx12.c — the gfx12-only opcodes (isa_gfx12.h):
// their table rows, their semantics and the gfx12 forms refused statically.
// Semantics (AMD "RDNA4 Instruction Set Architecture" reference guide; LLVM
// AMDGPUUsage "Memory Model GFX12"; opcodes from llvm-mc-19 -mcpu=gfx1201,
// see docs/isa-gfx12.md):
//   - s_wait_loadcnt/storecnt/samplecnt/bvhcnt/expcnt/dscnt/kmcnt and the
//     _dscnt combinations wait for counters of outstanding memory
//     operations; every access of the executor completes before the next
//     instruction (isa_exec.h), so they are no-ops, as gfx11's s_waitcnt;
//   - s_barrier_signal -1 / s_barrier_wait -1 split gfx11's s_barrier: the
//     signal is a no-op, the wait is where the wave stops until every wave
//     of the work-group has arrived (rl_isa_exec_barrier). Named barriers
//     (any other barrier id) are refused;
//   - global_inv invalidates the caches below its SCOPE: SCOPE_CU the
//     vector L0, SCOPE_SE and wider also the GL1 (the cache model's entry,
//     rl_sim_wg_cache_invalidate); global_wb writes back dirty lines, and
//     the model's L0/GL1 are write-through (sim/mem/sim_mem.h), so it is a no-op;
//   - s_add_nc_u64 / s_sub_nc_u64 / s_mul_u64: 64-bit add, subtract,
//     multiply (low 64 bits), SCC unchanged;
//   - s_load_b96: three dwords, as s_load_b32..b512;
//   - s_load_u8/i8/u16/i16: one byte or 16 bits from SBASE + OFFSET +
//     SOFFSET, zero- (u) or sign- (i) extended into one SGPR (the guide's
//     S_LOAD_U8..S_LOAD_I16; clang reads blockDim.y with s_load_u16). The
//     address is aligned down to the element size, as the dword loads
//     align to 4;
//   - v_s_exp/log/rcp/rsq/sqrt_f32: the VALU transcendental of the same name
//     on one scalar value, result to an SGPR (the lane kernel is the VOP1
//     opcode's, so the precision model is the same).
#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_gfx12.h"

#define NO RL_ISA_T_NONE
#define B32 RL_ISA_T_B32
#define B64 RL_ISA_T_B64
#define F32 RL_ISA_T_F32

static void rl_isa_s_add_nc_u64(rl_isa_salu_t* s) { s->d = s->a + s->b; }
static void rl_isa_s_sub_nc_u64(rl_isa_salu_t* s) { s->d = s->a - s->b; }
static void rl_isa_s_mul_u64(rl_isa_salu_t* s) { s->d = s->a * s->b; }

static rl_status_t rl_isa_exec_global_inv(rl_isa_wave_t* wave,
                                          const rl_isa_inst_t* inst) {
  uint32_t scope = (inst->th_scope >> 3) & 3;
  rl_sim_wg_cache_invalidate(wave->group->wg,
                             scope == 0 ? RL_SIM_WG_INV_GL0
                                        : RL_SIM_WG_INV_GL0 | RL_SIM_WG_INV_GL1);
  return RL_OK;
}

// s_load_u8/i8/u16/i16: |arg| = bytes (1 or 2) | 0x10 when signed.
static rl_status_t rl_isa_exec_smem_load_sub(rl_isa_wave_t* wave,
                                             const rl_isa_inst_t* inst) {
  const uint32_t size = inst->op->arg & 3u;
  const bool sign = (inst->op->arg & 0x10u) != 0;
  if (inst->dst >= RL_ISA_SRC_VCC) {
    return rl_isa_fault(inst, "destination s%u is beyond s105", inst->dst);
  }
  uint64_t base = wave->sgpr[inst->addr] |
                  (uint64_t)wave->sgpr[inst->addr + 1] << 32;
  uint64_t address = base + (uint64_t)(int64_t)inst->offset;
  if (inst->saddr != RL_ISA_SRC_NULL) address += wave->sgpr[inst->saddr];
  address &= ~(uint64_t)(size - 1);
  uint8_t data[2] = {0, 0};
  uint32_t access = RL_SIM_ACCESS_SCALAR;
  if (inst->glc_slc_dlc & 1u) access |= RL_SIM_ACCESS_GLC;
  RL_RETURN_IF_ERROR(rl_sim_wg_load_with(wave->group->wg, address, data, size,
                                         access));
  uint32_t value = size == 1 ? data[0] : (uint32_t)(data[0] | data[1] << 8);
  if (sign) {
    value = size == 1 ? (uint32_t)(int32_t)(int8_t)value
                      : (uint32_t)(int32_t)(int16_t)value;
  }
  wave->sgpr[inst->dst] = value;
  return RL_OK;
}

// v_s_*_f32: one value through the VOP1 opcode's lane kernel (lane 0).
static rl_status_t rl_isa_exec_pseudo_scalar(rl_isa_wave_t* wave,
                                             const rl_isa_inst_t* inst) {
  uint32_t a = rl_isa_read_s32(wave, &inst->src[0]);
  if (inst->abs & 1) a &= 0x7fffffffu;
  if (inst->neg & 1) a ^= 0x80000000u;
  uint32_t src[RL_ISA_LANES] = {0}, d[RL_ISA_LANES] = {0},
           d_hi[RL_ISA_LANES] = {0};
  src[0] = a;
  rl_isa_valu_t v = {0};
  v.s[0] = src;
  v.s[1] = src;
  v.s[2] = src;
  v.hi[0] = v.hi[1] = v.hi[2] = src;
  v.d = d;
  v.d_hi = d_hi;
  v.exec = 1;
  v.mode = wave->mode;
  v.old = d;
  ((rl_isa_lanes_fn)inst->op->lanes)(&v);
  wave->sgpr[inst->dst & 127] = d[0];  // s0-s105 or VCC (checked)
  return RL_OK;
}

#define ROW(enc, opc, name, flags, d, s0, s1, arg, exec, lanes)            \
  {(enc), RL_ISA_OP(opc, name, flags, d, s0, s1, NO, arg, exec, lanes), NULL}
#define WAIT(opc, name)                                                  \
  ROW(RL_ISA_ENC_SOPP, opc, name, 0, NO, NO, NO, 0, rl_isa_exec_nop, NULL)
#define PSEUDO(opc, name, vop1)                                           \
  {RL_ISA_ENC_VOP3,                                                       \
   RL_ISA_OP(opc, name, 0, NO, F32, NO, NO, 0, rl_isa_exec_pseudo_scalar, \
             NULL),                                                       \
   (vop1)}

const rl_isa_gfx12_extra_t rl_isa_gfx12_extras[] = {
    WAIT(0x40, "s_wait_loadcnt"),
    WAIT(0x41, "s_wait_storecnt"),
    WAIT(0x42, "s_wait_samplecnt"),
    WAIT(0x43, "s_wait_bvhcnt"),
    WAIT(0x44, "s_wait_expcnt"),
    WAIT(0x46, "s_wait_dscnt"),
    WAIT(0x47, "s_wait_kmcnt"),
    WAIT(0x48, "s_wait_loadcnt_dscnt"),
    WAIT(0x49, "s_wait_storecnt_dscnt"),
    ROW(RL_ISA_ENC_SOPP, 0x14, "s_barrier_wait", 0, NO, NO, NO, 0,
        rl_isa_exec_barrier, NULL),
    ROW(RL_ISA_ENC_SOP1, 0x4e, "s_barrier_signal", 0, NO, B32, NO, 0,
        rl_isa_exec_nop, NULL),
    ROW(RL_ISA_ENC_SOP2, 0x53, "s_add_nc_u64", 0, B64, B64, B64, 0,
        rl_isa_exec_salu, rl_isa_s_add_nc_u64),
    ROW(RL_ISA_ENC_SOP2, 0x54, "s_sub_nc_u64", 0, B64, B64, B64, 0,
        rl_isa_exec_salu, rl_isa_s_sub_nc_u64),
    ROW(RL_ISA_ENC_SOP2, 0x55, "s_mul_u64", 0, B64, B64, B64, 0,
        rl_isa_exec_salu, rl_isa_s_mul_u64),
    ROW(RL_ISA_ENC_SMEM, 0x05, "s_load_b96", 0, B32, NO, NO, 3,
        rl_isa_exec_smem_load, NULL),
    ROW(RL_ISA_ENC_SMEM, 0x08, "s_load_i8", 0, B32, NO, NO, 0x11,
        rl_isa_exec_smem_load_sub, NULL),
    ROW(RL_ISA_ENC_SMEM, 0x09, "s_load_u8", 0, B32, NO, NO, 0x01,
        rl_isa_exec_smem_load_sub, NULL),
    ROW(RL_ISA_ENC_SMEM, 0x0a, "s_load_i16", 0, B32, NO, NO, 0x12,
        rl_isa_exec_smem_load_sub, NULL),
    ROW(RL_ISA_ENC_SMEM, 0x0b, "s_load_u16", 0, B32, NO, NO, 0x02,
        rl_isa_exec_smem_load_sub, NULL),
    ROW(RL_ISA_ENC_GLOBAL, 0x2b, "global_inv", 0, NO, NO, NO, 0,
        rl_isa_exec_global_inv, NULL),
    ROW(RL_ISA_ENC_GLOBAL, 0x2c, "global_wb", 0, NO, NO, NO, 0,
        rl_isa_exec_nop, NULL),
    ROW(RL_ISA_ENC_VOP3, 0x30f, "v_permlane16_var_b32", 0, B32, B32, B32,
        RL_ISA_PERMLANE_VAR, rl_isa_exec_permlane, NULL),
    ROW(RL_ISA_ENC_VOP3, 0x310, "v_permlanex16_var_b32", 0, B32, B32, B32,
        RL_ISA_PERMLANE_VAR | RL_ISA_PERMLANE_X, rl_isa_exec_permlane, NULL),
    PSEUDO(0x280, "v_s_exp_f32", "v_exp_f32"),
    PSEUDO(0x282, "v_s_log_f32", "v_log_f32"),
    PSEUDO(0x284, "v_s_rcp_f32", "v_rcp_f32"),
    PSEUDO(0x286, "v_s_rsq_f32", "v_rsq_f32"),
    PSEUDO(0x288, "v_s_sqrt_f32", "v_sqrt_f32"),
};
const uint32_t rl_isa_gfx12_extra_count =
    sizeof(rl_isa_gfx12_extras) / sizeof(rl_isa_gfx12_extras[0]);

static bool rl_isa_is_float(uint32_t type) {
  return type == RL_ISA_T_F32 || type == RL_ISA_T_F16 || type == RL_ISA_T_F64;
}

const char* rl_isa_gfx12_reason(const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  if (op->exec == rl_isa_exec_nop && inst->encoding == RL_ISA_ENC_SOP1 &&
      inst->src[0].code != 193) {  // s_barrier_signal: only -1
    return "named barriers (s_barrier_signal with an id other than -1) are "
           "not modelled";
  }
  if (op->exec == rl_isa_exec_barrier && inst->encoding == RL_ISA_ENC_SOPP &&
      inst->simm16 != -1) {
    return "s_barrier_wait with an id other than -1 is not modelled";
  }
  if (op->exec == rl_isa_exec_pseudo_scalar &&
      (inst->opsel || inst->dst > RL_ISA_SRC_VCC + 1)) {
    return "v_s_* with OP_SEL or a destination other than s0-s105/VCC";
  }
  bool valu = inst->encoding >= RL_ISA_ENC_VOP1 &&
              inst->encoding <= RL_ISA_ENC_VOPD;
  if (valu && inst->omod) {
    return "OMOD on gfx12 (no IEEE mode bit: its interaction is not "
           "modelled)";
  }
  if (valu && inst->clamp && rl_isa_is_float(op->dst)) {
    return "float CLAMP on gfx12 (no DX10_CLAMP bit: NaN handling not "
           "modelled)";
  }
  return NULL;
}
