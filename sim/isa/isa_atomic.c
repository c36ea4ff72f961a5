// sim/isa/isa_atomic.c — the atomic memory operations of the ISA
// executor: DS (LDS) atomics with and without return, 32 and 64 bits, and
// the FLAT/GLOBAL atomics (returning when GLC is set). Chained after the DS,
// FLAT and GLOBAL tables.
//
// Semantics (RDNA3 ISA guide, "Data Share Operations" DS_* and "Flat,
// Scratch and Global Instructions" *_ATOMIC_* pseudo-code): tmp = MEM[addr];
// MEM[addr] = op(tmp, DATA); RETURN_DATA = tmp, where
//   inc: tmp >= DATA ? 0 : tmp + 1      dec: tmp == 0 || tmp > DATA ? DATA
//   cmpswap/cmpstore: tmp == CMP ? DATA : tmp   (FLAT: DATA, CMP are the
//   low and high halves of the data tuple; DS: DATA0 and DATA1)
//   csub: tmp >= DATA ? tmp - DATA : 0   min/max_f32: the v_min/v_max rule.
// Addresses: DS = ADDR VGPR + OFFSET1:OFFSET0 (16 bits), checked against the
// group segment; FLAT/GLOBAL as loads (isa_mem.c), every access through
// rl_sim_wg_load()/rl_sim_wg_store(), so it is translated, bounds-checked
// and recorded for the hazard checker.
//
// Memory order and atomicity. Within a work-group the waves run one at a
// time (isa_executor.c) and an instruction's active lanes in ascending
// lane order. Each FLAT/GLOBAL lane's read-modify-write is one host atomic
// on the backing memory (rl_sim_wg_atomic), so it is atomic with respect
// to the atomics of every other work-group, whether they run on other host
// threads of the same dispatch (sim_parallel.c) or on other queues' command
// processors. LDS is private to the work-group, so DS atomics are always
// atomic.
#include <string.h>

#include "sim/isa/isa_float.h"
#include "sim/isa/isa_mem.h"

// op(tmp, data) for a 32-bit (|wide| false) or 64-bit element.
static uint64_t rl_isa_atomic_apply(uint32_t op, bool wide, uint64_t tmp,
                                    uint64_t data, uint64_t cmp,
                                    uint32_t mode) {
  const uint64_t mask = wide ? ~0ull : 0xffffffffull;
  const int64_t st = wide ? (int64_t)tmp : (int32_t)tmp;
  const int64_t sd = wide ? (int64_t)data : (int32_t)data;
  switch (op) {
    case RL_ISA_ATOM_ADD: return (tmp + data) & mask;
    case RL_ISA_ATOM_SUB: return (tmp - data) & mask;
    case RL_ISA_ATOM_RSUB: return (data - tmp) & mask;
    case RL_ISA_ATOM_INC: return tmp >= data ? 0 : (tmp + 1) & mask;
    case RL_ISA_ATOM_DEC: return (tmp == 0 || tmp > data) ? data : tmp - 1;
    case RL_ISA_ATOM_MIN_I: return st < sd ? tmp : data;
    case RL_ISA_ATOM_MAX_I: return st > sd ? tmp : data;
    case RL_ISA_ATOM_MIN_U: return tmp < data ? tmp : data;
    case RL_ISA_ATOM_MAX_U: return tmp > data ? tmp : data;
    case RL_ISA_ATOM_AND: return tmp & data;
    case RL_ISA_ATOM_OR: return tmp | data;
    case RL_ISA_ATOM_XOR: return tmp ^ data;
    case RL_ISA_ATOM_SWAP: return data;
    case RL_ISA_ATOM_CMPSWAP: return tmp == cmp ? data : tmp;
    case RL_ISA_ATOM_ADD_F32:
      return rl_isa_bits32(rl_isa_f32((uint32_t)tmp) +
                           rl_isa_f32((uint32_t)data));
    case RL_ISA_ATOM_MIN_F32:
    case RL_ISA_ATOM_MAX_F32:
      return rl_isa_minmax32((uint32_t)tmp, (uint32_t)data,
                             op == RL_ISA_ATOM_MAX_F32,
                             (mode & RL_ISA_MODE_IEEE) != 0);
    default: return tmp >= data ? tmp - data : 0;  // csub
  }
}

// A 1- or 2-dword register value of |lane| starting at |reg|.
static uint64_t rl_isa_atomic_reg(const rl_isa_wave_t* wave, uint32_t reg,
                                  uint32_t lane, bool wide) {
  uint64_t value = wave->vgpr[reg][lane];
  if (wide) value |= (uint64_t)wave->vgpr[reg + 1][lane] << 32;
  return value;
}

static void rl_isa_atomic_put(rl_isa_wave_t* wave, uint32_t reg, uint32_t lane,
                              bool wide, uint64_t value) {
  wave->vgpr[reg][lane] = (uint32_t)value;
  if (wide) wave->vgpr[reg + 1][lane] = (uint32_t)(value >> 32);
}

// ---------------------------------------------------------------------------
// DS.

static rl_status_t rl_isa_ds_atomic_lane(rl_isa_wave_t* wave,
                                         const rl_isa_inst_t* inst,
                                         uint32_t lane) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  const uint32_t op = RL_ISA_MEM_ATOMIC(arg);
  const bool wide = size == 8;
  uint64_t address = (uint64_t)wave->vgpr[inst->addr][lane] +
                     (uint32_t)(inst->offset | (inst->offset1 << 8));
  if (address + size > wave->group->lds_size) {
    char where[160];
    rl_isa_inst_describe(inst, where, sizeof(where));
    return RL_STATUS(RL_STATUS_POISONED,
                     "LDS fault: %u-byte atomic at LDS address 0x%llx (wave "
                     "%u lane %u) is outside the %u-byte group segment: %s",
                     size, (unsigned long long)address, wave->id, lane,
                     wave->group->lds_size, where);
  }
  uint8_t* at = wave->group->lds + address;
  uint64_t tmp = 0;
  memcpy(&tmp, at, size);
  uint64_t data = rl_isa_atomic_reg(wave, inst->data0, lane, wide);
  uint64_t cmp = op == RL_ISA_ATOM_CMPSWAP
                     ? rl_isa_atomic_reg(wave, inst->data1, lane, wide)
                     : 0;
  uint64_t next = rl_isa_atomic_apply(op, wide, tmp, data, cmp,
                                      wave->mode);
  memcpy(at, &next, size);
  if (RL_ISA_MEM_KIND(arg) == RL_ISA_MEM_ATOM_RTN) {
    rl_isa_atomic_put(wave, inst->vdst, lane, wide, tmp);
  }
  return RL_OK;
}

static rl_status_t rl_isa_exec_ds_atomic(rl_isa_wave_t* wave,
                                         const rl_isa_inst_t* inst) {
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  while (exec) {
    uint32_t lane = (uint32_t)__builtin_ctz(exec);
    exec &= exec - 1;
    RL_RETURN_IF_ERROR(rl_isa_ds_atomic_lane(wave, inst, lane));
  }
  return RL_OK;
}

// ---------------------------------------------------------------------------
// FLAT and GLOBAL.

// One lane's operands, for rl_isa_flat_update.
typedef struct rl_isa_flat_rmw_s {
  uint32_t op;
  bool wide;
  uint64_t data, cmp;
  uint32_t mode;
} rl_isa_flat_rmw_t;

static uint64_t rl_isa_flat_update(uint64_t old, const void* arg) {
  const rl_isa_flat_rmw_t* rmw = arg;
  return rl_isa_atomic_apply(rmw->op, rmw->wide, old, rmw->data, rmw->cmp,
                             rmw->mode);
}

static rl_status_t rl_isa_flat_atomic_lane(rl_isa_wave_t* wave,
                                           const rl_isa_inst_t* inst,
                                           uint32_t lane, uint64_t address) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  const bool wide = size == 8;
  rl_isa_flat_rmw_t rmw = {.op = RL_ISA_MEM_ATOMIC(arg),
                           .wide = wide,
                           .data = rl_isa_atomic_reg(wave, inst->data0, lane,
                                                     wide),
                           .mode = wave->mode};
  if (rmw.op == RL_ISA_ATOM_CMPSWAP) {
    rmw.cmp = rl_isa_atomic_reg(wave, inst->data0 + size / 4, lane, wide);
  }
  // Performed at the L2 as one host atomic (sim_executor.h): work-groups of
  // a dispatch may run on several host threads.
  uint64_t tmp = 0;
  RL_RETURN_IF_ERROR(rl_sim_wg_atomic(wave->group->wg, address, size,
                                      rl_isa_flat_update, &rmw, &tmp));
  if (inst->glc_slc_dlc & RL_ISA_MEM_GLC) {
    rl_isa_atomic_put(wave, inst->vdst, lane, wide, tmp);
  }
  return RL_OK;
}

static rl_status_t rl_isa_exec_flat_atomic(rl_isa_wave_t* wave,
                                           const rl_isa_inst_t* inst) {
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  if (exec == 0) return RL_OK;
  uint64_t address[RL_ISA_LANES];
  rl_isa_flat_addresses(wave, inst, address);
  while (exec) {
    uint32_t lane = (uint32_t)__builtin_ctz(exec);
    exec &= exec - 1;
    RL_RETURN_IF_ERROR(rl_isa_flat_atomic_lane(wave, inst, lane,
                                               address[lane]));
  }
  return RL_OK;
}

// ---------------------------------------------------------------------------
// Tables (opcodes: LLVM DSInstructions.td / FLATInstructions.td, gfx11).

#define NO RL_ISA_T_NONE
#define AARG(size, kind, op) RL_ISA_MEM_ARG(size, kind, (op) << 10)
#define DSA(opc, name, size, kind, op)                                   \
  RL_ISA_OP(opc, name, 0, NO, NO, NO, NO, AARG(size, kind, op),          \
            rl_isa_exec_ds_atomic, NULL)
#define A RL_ISA_MEM_ATOM
#define R RL_ISA_MEM_ATOM_RTN

static const rl_isa_op_t rl_isa_ds_atomic_ops[] = {
    DSA(0x00, "ds_add_u32", 4, A, RL_ISA_ATOM_ADD),
    DSA(0x01, "ds_sub_u32", 4, A, RL_ISA_ATOM_SUB),
    DSA(0x02, "ds_rsub_u32", 4, A, RL_ISA_ATOM_RSUB),
    DSA(0x03, "ds_inc_u32", 4, A, RL_ISA_ATOM_INC),
    DSA(0x04, "ds_dec_u32", 4, A, RL_ISA_ATOM_DEC),
    DSA(0x05, "ds_min_i32", 4, A, RL_ISA_ATOM_MIN_I),
    DSA(0x06, "ds_max_i32", 4, A, RL_ISA_ATOM_MAX_I),
    DSA(0x07, "ds_min_u32", 4, A, RL_ISA_ATOM_MIN_U),
    DSA(0x08, "ds_max_u32", 4, A, RL_ISA_ATOM_MAX_U),
    DSA(0x09, "ds_and_b32", 4, A, RL_ISA_ATOM_AND),
    DSA(0x0a, "ds_or_b32", 4, A, RL_ISA_ATOM_OR),
    DSA(0x0b, "ds_xor_b32", 4, A, RL_ISA_ATOM_XOR),
    DSA(0x10, "ds_cmpstore_b32", 4, A, RL_ISA_ATOM_CMPSWAP),
    DSA(0x12, "ds_min_f32", 4, A, RL_ISA_ATOM_MIN_F32),
    DSA(0x13, "ds_max_f32", 4, A, RL_ISA_ATOM_MAX_F32),
    DSA(0x15, "ds_add_f32", 4, A, RL_ISA_ATOM_ADD_F32),
    DSA(0x20, "ds_add_rtn_u32", 4, R, RL_ISA_ATOM_ADD),
    DSA(0x21, "ds_sub_rtn_u32", 4, R, RL_ISA_ATOM_SUB),
    DSA(0x22, "ds_rsub_rtn_u32", 4, R, RL_ISA_ATOM_RSUB),
    DSA(0x23, "ds_inc_rtn_u32", 4, R, RL_ISA_ATOM_INC),
    DSA(0x24, "ds_dec_rtn_u32", 4, R, RL_ISA_ATOM_DEC),
    DSA(0x25, "ds_min_rtn_i32", 4, R, RL_ISA_ATOM_MIN_I),
    DSA(0x26, "ds_max_rtn_i32", 4, R, RL_ISA_ATOM_MAX_I),
    DSA(0x27, "ds_min_rtn_u32", 4, R, RL_ISA_ATOM_MIN_U),
    DSA(0x28, "ds_max_rtn_u32", 4, R, RL_ISA_ATOM_MAX_U),
    DSA(0x29, "ds_and_rtn_b32", 4, R, RL_ISA_ATOM_AND),
    DSA(0x2a, "ds_or_rtn_b32", 4, R, RL_ISA_ATOM_OR),
    DSA(0x2b, "ds_xor_rtn_b32", 4, R, RL_ISA_ATOM_XOR),
    DSA(0x2d, "ds_storexchg_rtn_b32", 4, R, RL_ISA_ATOM_SWAP),
    DSA(0x30, "ds_cmpstore_rtn_b32", 4, R, RL_ISA_ATOM_CMPSWAP),
    DSA(0x32, "ds_min_rtn_f32", 4, R, RL_ISA_ATOM_MIN_F32),
    DSA(0x33, "ds_max_rtn_f32", 4, R, RL_ISA_ATOM_MAX_F32),
    DSA(0x40, "ds_add_u64", 8, A, RL_ISA_ATOM_ADD),
    DSA(0x41, "ds_sub_u64", 8, A, RL_ISA_ATOM_SUB),
    DSA(0x42, "ds_rsub_u64", 8, A, RL_ISA_ATOM_RSUB),
    DSA(0x43, "ds_inc_u64", 8, A, RL_ISA_ATOM_INC),
    DSA(0x44, "ds_dec_u64", 8, A, RL_ISA_ATOM_DEC),
    DSA(0x45, "ds_min_i64", 8, A, RL_ISA_ATOM_MIN_I),
    DSA(0x46, "ds_max_i64", 8, A, RL_ISA_ATOM_MAX_I),
    DSA(0x47, "ds_min_u64", 8, A, RL_ISA_ATOM_MIN_U),
    DSA(0x48, "ds_max_u64", 8, A, RL_ISA_ATOM_MAX_U),
    DSA(0x49, "ds_and_b64", 8, A, RL_ISA_ATOM_AND),
    DSA(0x4a, "ds_or_b64", 8, A, RL_ISA_ATOM_OR),
    DSA(0x4b, "ds_xor_b64", 8, A, RL_ISA_ATOM_XOR),
    DSA(0x50, "ds_cmpstore_b64", 8, A, RL_ISA_ATOM_CMPSWAP),
    DSA(0x60, "ds_add_rtn_u64", 8, R, RL_ISA_ATOM_ADD),
    DSA(0x61, "ds_sub_rtn_u64", 8, R, RL_ISA_ATOM_SUB),
    DSA(0x62, "ds_rsub_rtn_u64", 8, R, RL_ISA_ATOM_RSUB),
    DSA(0x63, "ds_inc_rtn_u64", 8, R, RL_ISA_ATOM_INC),
    DSA(0x64, "ds_dec_rtn_u64", 8, R, RL_ISA_ATOM_DEC),
    DSA(0x65, "ds_min_rtn_i64", 8, R, RL_ISA_ATOM_MIN_I),
    DSA(0x66, "ds_max_rtn_i64", 8, R, RL_ISA_ATOM_MAX_I),
    DSA(0x67, "ds_min_rtn_u64", 8, R, RL_ISA_ATOM_MIN_U),
    DSA(0x68, "ds_max_rtn_u64", 8, R, RL_ISA_ATOM_MAX_U),
    DSA(0x69, "ds_and_rtn_b64", 8, R, RL_ISA_ATOM_AND),
    DSA(0x6a, "ds_or_rtn_b64", 8, R, RL_ISA_ATOM_OR),
    DSA(0x6b, "ds_xor_rtn_b64", 8, R, RL_ISA_ATOM_XOR),
    DSA(0x6d, "ds_storexchg_rtn_b64", 8, R, RL_ISA_ATOM_SWAP),
    DSA(0x70, "ds_cmpstore_rtn_b64", 8, R, RL_ISA_ATOM_CMPSWAP),
    DSA(0x79, "ds_add_rtn_f32", 4, R, RL_ISA_ATOM_ADD_F32),
};

// FLAT and GLOBAL share opcodes; one list, two prefixes.
#define RL_ISA_FLAT_ATOMIC_OPS(X, p)                          \
  X(0x33, p "atomic_swap_b32", 4, RL_ISA_ATOM_SWAP)           \
  X(0x34, p "atomic_cmpswap_b32", 4, RL_ISA_ATOM_CMPSWAP)     \
  X(0x35, p "atomic_add_u32", 4, RL_ISA_ATOM_ADD)             \
  X(0x36, p "atomic_sub_u32", 4, RL_ISA_ATOM_SUB)             \
  X(0x38, p "atomic_min_i32", 4, RL_ISA_ATOM_MIN_I)           \
  X(0x39, p "atomic_min_u32", 4, RL_ISA_ATOM_MIN_U)           \
  X(0x3a, p "atomic_max_i32", 4, RL_ISA_ATOM_MAX_I)           \
  X(0x3b, p "atomic_max_u32", 4, RL_ISA_ATOM_MAX_U)           \
  X(0x3c, p "atomic_and_b32", 4, RL_ISA_ATOM_AND)             \
  X(0x3d, p "atomic_or_b32", 4, RL_ISA_ATOM_OR)               \
  X(0x3e, p "atomic_xor_b32", 4, RL_ISA_ATOM_XOR)             \
  X(0x3f, p "atomic_inc_u32", 4, RL_ISA_ATOM_INC)             \
  X(0x40, p "atomic_dec_u32", 4, RL_ISA_ATOM_DEC)             \
  X(0x41, p "atomic_swap_b64", 8, RL_ISA_ATOM_SWAP)           \
  X(0x42, p "atomic_cmpswap_b64", 8, RL_ISA_ATOM_CMPSWAP)     \
  X(0x43, p "atomic_add_u64", 8, RL_ISA_ATOM_ADD)             \
  X(0x44, p "atomic_sub_u64", 8, RL_ISA_ATOM_SUB)             \
  X(0x45, p "atomic_min_i64", 8, RL_ISA_ATOM_MIN_I)           \
  X(0x46, p "atomic_min_u64", 8, RL_ISA_ATOM_MIN_U)           \
  X(0x47, p "atomic_max_i64", 8, RL_ISA_ATOM_MAX_I)           \
  X(0x48, p "atomic_max_u64", 8, RL_ISA_ATOM_MAX_U)           \
  X(0x49, p "atomic_and_b64", 8, RL_ISA_ATOM_AND)             \
  X(0x4a, p "atomic_or_b64", 8, RL_ISA_ATOM_OR)               \
  X(0x4b, p "atomic_xor_b64", 8, RL_ISA_ATOM_XOR)             \
  X(0x4c, p "atomic_inc_u64", 8, RL_ISA_ATOM_INC)             \
  X(0x4d, p "atomic_dec_u64", 8, RL_ISA_ATOM_DEC)             \
  X(0x51, p "atomic_min_f32", 4, RL_ISA_ATOM_MIN_F32)         \
  X(0x52, p "atomic_max_f32", 4, RL_ISA_ATOM_MAX_F32)         \
  X(0x56, p "atomic_add_f32", 4, RL_ISA_ATOM_ADD_F32)
#define RL_ISA_FLAT_ATOMIC_ROW(opc, name, size, op)                       \
  RL_ISA_OP(opc, name, 0, NO, NO, NO, NO, AARG(size, A, op),              \
            rl_isa_exec_flat_atomic, NULL),

static const rl_isa_op_t rl_isa_flat_atomic_ops[] = {
    RL_ISA_FLAT_ATOMIC_OPS(RL_ISA_FLAT_ATOMIC_ROW, "flat_")};
static const rl_isa_op_t rl_isa_global_atomic_ops[] = {
    RL_ISA_FLAT_ATOMIC_OPS(RL_ISA_FLAT_ATOMIC_ROW, "global_")};
// GLOBAL only: the clamped subtract.
static const rl_isa_op_t rl_isa_global_csub_ops[] = {
    RL_ISA_FLAT_ATOMIC_ROW(0x37, "global_atomic_csub_u32", 4,
                           RL_ISA_ATOM_CSUB)};

static RL_ISA_TABLE(rl_isa_table_global_csub, rl_isa_global_csub_ops);
RL_ISA_TABLE_CHAIN(rl_isa_table_ds_atomic, rl_isa_ds_atomic_ops,
                   &rl_isa_table_ds_permute);
RL_ISA_TABLE(rl_isa_table_flat_atomic, rl_isa_flat_atomic_ops);
RL_ISA_TABLE_CHAIN(rl_isa_table_global_atomic, rl_isa_global_atomic_ops,
                   &rl_isa_table_global_csub);
