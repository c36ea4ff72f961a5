// sim/isa/isa_table_gfx12.c — the gfx12 opcode tables
// (isa_gfx12.h), built once from three pieces of data:
//   - the gfx12 name tables (isa_names_gfx12.c, generated from llvm-mc-19
//     -mcpu=gfx1201): which mnemonic each gfx12 opcode is;
//   - the gfx11 tables: a gfx12 opcode whose mnemonic (or, through
//     rl_isa_gfx12_renames, whose gfx11 name) the gfx11 table of the same
//     family models takes that entry — its semantics, operand types and
//     flags — under the gfx12 opcode and mnemonic (a gfx12 VOP1/VOP2 opcode
//     that was VOP3-only on gfx11 takes the VOP3 entry);
//   - the gfx12-only rows (rl_isa_gfx12_extras, isa_exec_gfx12.c), which
//     win over a join.
// A gfx12 mnemonic that is neither stays out of the table, so its
// instruction is refused before the kernel runs. Same mnemonic, same
// semantics is the premise; a gfx12 name for a gfx11 operation is joined
// only through rl_isa_gfx12_renames, which says why the semantics agree. The join is checked by tests/unit/isa_gfx12_test.c.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sim/isa/isa_gfx12.h"
#include "sim/isa/isa_names.h"

// Renamed by gfx12 with unchanged semantics (LLVM's gfx12 aliases in
// SOPInstructions.td / VOP3Instructions.td / FLATInstructions.td; the RDNA4
// guide lists the same operations under the new names).
const rl_isa_rename_t rl_isa_gfx12_renames[] = {
    {"s_add_co_u32", "s_add_u32"},
    {"s_sub_co_u32", "s_sub_u32"},
    {"s_add_co_i32", "s_add_i32"},
    {"s_sub_co_i32", "s_sub_i32"},
    {"s_add_co_ci_u32", "s_addc_u32"},
    {"s_sub_co_ci_u32", "s_subb_u32"},
    {"s_addk_co_i32", "s_addk_i32"},
    {"s_wait_alu", "s_waitcnt_depctr"},
    {"v_mad_co_u64_u32", "v_mad_u64_u32"},
    {"v_mad_co_i64_i32", "v_mad_i64_i32"},
    {"global_atomic_sub_clamp_u32", "global_atomic_csub_u32"},
    // IEEE 754-2019 minimumNumber/maximumNumber (RDNA4 guide, V_MIN_NUM_F32
    // ...: a NaN operand loses to a number, quiet or signalling; two NaNs
    // give the first quieted; -0 < +0). That is the gfx11 rule with
    // IEEE_MODE clear, and a gfx12 wave never has IEEE_MODE (no such
    // descriptor or MODE bit, isa_executor.c / isa_mode.c), so the gfx11
    // rows compute it.
    {"v_min_num_f32", "v_min_f32"},
    {"v_max_num_f32", "v_max_f32"},
    {"v_min_num_f16", "v_min_f16"},
    {"v_max_num_f16", "v_max_f16"},
    {"v_min_num_f64", "v_min_f64"},
    {"v_max_num_f64", "v_max_f64"},
    {"v_min3_num_f32", "v_min3_f32"},
    {"v_max3_num_f32", "v_max3_f32"},
    {"v_pk_min_num_f16", "v_pk_min_f16"},
    {"v_pk_max_num_f16", "v_pk_max_f16"},
    {"v_dual_min_num_f32", "v_dual_min_f32"},
    {"v_dual_max_num_f32", "v_dual_max_f32"},
    {"s_min_num_f32", "s_min_f32"},
    {"s_max_num_f32", "s_max_f32"},
    {"ds_min_num_f32", "ds_min_f32"},
    {"ds_max_num_f32", "ds_max_f32"},
    {"ds_min_num_rtn_f32", "ds_min_rtn_f32"},
    {"ds_max_num_rtn_f32", "ds_max_rtn_f32"},
    {"global_atomic_min_num_f32", "global_atomic_min_f32"},
    {"global_atomic_max_num_f32", "global_atomic_max_f32"},
    {"flat_atomic_min_num_f32", "flat_atomic_min_f32"},
    {"flat_atomic_max_num_f32", "flat_atomic_max_f32"},
};
const uint32_t rl_isa_gfx12_rename_count =
    sizeof(rl_isa_gfx12_renames) / sizeof(rl_isa_gfx12_renames[0]);

// The gfx11 tables the decoder asks for, with their family.
typedef struct rl_isa_family_s {
  uint32_t encoding;
  const rl_isa_table_t* gfx11;
} rl_isa_family_t;

static const rl_isa_family_t rl_isa_families[] = {
    {RL_ISA_ENC_SOP1, &rl_isa_table_sop1},   {RL_ISA_ENC_SOP2, &rl_isa_table_sop2},
    {RL_ISA_ENC_SOPK, &rl_isa_table_sopk},   {RL_ISA_ENC_SOPC, &rl_isa_table_sopc},
    {RL_ISA_ENC_SOPP, &rl_isa_table_sopp},   {RL_ISA_ENC_SMEM, &rl_isa_table_smem},
    {RL_ISA_ENC_VOP1, &rl_isa_table_vop1},   {RL_ISA_ENC_VOP2, &rl_isa_table_vop2},
    {RL_ISA_ENC_VOP3, &rl_isa_table_vop3},   {RL_ISA_ENC_VOPC, &rl_isa_table_vopc},
    {RL_ISA_ENC_VOP3P, &rl_isa_table_vop3p}, {RL_ISA_ENC_VOPD, &rl_isa_table_vopd},
    {RL_ISA_ENC_DS, &rl_isa_table_ds},       {RL_ISA_ENC_FLAT, &rl_isa_table_flat},
    {RL_ISA_ENC_GLOBAL, &rl_isa_table_global},
    {RL_ISA_ENC_MUBUF, &rl_isa_table_mubuf},
};
#define RL_ISA_FAMILIES (sizeof(rl_isa_families) / sizeof(rl_isa_families[0]))

static rl_isa_table_t rl_isa_gfx12_tables[RL_ISA_FAMILIES];
static pthread_once_t rl_isa_gfx12_once = PTHREAD_ONCE_INIT;

static const char* rl_isa_gfx11_name_of(const char* gfx12) {
  for (uint32_t i = 0; i < rl_isa_gfx12_rename_count; ++i) {
    if (strcmp(rl_isa_gfx12_renames[i].gfx12, gfx12) == 0) {
      return rl_isa_gfx12_renames[i].gfx11;
    }
  }
  return gfx12;
}

static const rl_isa_op_t* rl_isa_find_by_name(const rl_isa_table_t* table,
                                              const char* name) {
  for (; table; table = table->next) {
    for (uint32_t i = 0; i < table->count; ++i) {
      if (strcmp(table->ops[i].name, name) == 0) return &table->ops[i];
    }
  }
  return NULL;
}

static const rl_isa_gfx12_extra_t* rl_isa_extra(uint32_t encoding,
                                                uint32_t opcode) {
  for (uint32_t i = 0; i < rl_isa_gfx12_extra_count; ++i) {
    if (rl_isa_gfx12_extras[i].encoding == encoding &&
        rl_isa_gfx12_extras[i].op.opcode == opcode) {
      return &rl_isa_gfx12_extras[i];
    }
  }
  return NULL;
}

// The row of a gfx12-only opcode; v_s_* borrow the lane kernel of the VOP1
// opcode they are the scalar form of.
static rl_isa_op_t rl_isa_extra_row(const rl_isa_gfx12_extra_t* extra) {
  rl_isa_op_t row = extra->op;
  if (extra->borrow) {
    const rl_isa_op_t* vop1 =
        rl_isa_find_by_name(&rl_isa_table_vop1, extra->borrow);
    row.lanes = vop1 ? vop1->lanes : NULL;
    if (vop1 == NULL) row.exec = NULL;  // refused: no kernel to borrow
  }
  return row;
}

static void rl_isa_gfx12_build_family(uint32_t f) {
  const rl_isa_family_t* family = &rl_isa_families[f];
  const rl_isa_name_table_t* names =
      &rl_isa_name_tables_gfx12[family->encoding];
  rl_isa_op_t* ops = calloc(names->count ? names->count : 1, sizeof(*ops));
  uint32_t count = 0;
  for (uint32_t i = 0; ops && i < names->count; ++i) {
    const rl_isa_name_t* name = &names->names[i];
    const rl_isa_gfx12_extra_t* extra =
        rl_isa_extra(family->encoding, name->opcode);
    if (extra) {
      ops[count++] = rl_isa_extra_row(extra);
      continue;
    }
    const char* gfx11_name = rl_isa_gfx11_name_of(name->name);
    const rl_isa_op_t* gfx11 = rl_isa_find_by_name(family->gfx11, gfx11_name);
    if (gfx11 == NULL && (family->encoding == RL_ISA_ENC_VOP1 ||
                          family->encoding == RL_ISA_ENC_VOP2)) {
      // gfx12 gave some VOP3-only opcodes a VOP1/VOP2 form (v_lshlrev_b64,
      // v_add_f64...): the same operation, so the same row, unless its
      // VOP3 form has operands a VOP1/VOP2 encoding cannot carry.
      gfx11 = rl_isa_find_by_name(&rl_isa_table_vop3, gfx11_name);
      if (gfx11 && (gfx11->flags & (RL_ISA_F_SDST | RL_ISA_F_CARRY |
                                    RL_ISA_F_READS_VCC | RL_ISA_F_ACCUM))) {
        gfx11 = NULL;
      }
    }
    if (gfx11 == NULL) continue;
    ops[count] = *gfx11;
    ops[count].opcode = name->opcode;
    ops[count].name = name->name;
    ++count;
  }
  // Sorted by opcode: the name table is.
  rl_isa_gfx12_tables[f].ops = ops;
  rl_isa_gfx12_tables[f].count = ops ? count : 0;
  rl_isa_gfx12_tables[f].next = NULL;
}

static void rl_isa_gfx12_build(void) {
  for (uint32_t f = 0; f < RL_ISA_FAMILIES; ++f) rl_isa_gfx12_build_family(f);
}

const rl_isa_table_t* rl_isa_gfx12_table(const rl_isa_table_t* gfx11) {
  pthread_once(&rl_isa_gfx12_once, rl_isa_gfx12_build);
  for (uint32_t f = 0; f < RL_ISA_FAMILIES; ++f) {
    if (rl_isa_families[f].gfx11 == gfx11) return &rl_isa_gfx12_tables[f];
  }
  static const rl_isa_table_t empty = {NULL, 0, NULL};
  return &empty;
}

const rl_isa_table_t* rl_isa_gfx12_table_of(uint32_t encoding) {
  for (uint32_t f = 0; f < RL_ISA_FAMILIES; ++f) {
    if (rl_isa_families[f].encoding == encoding) {
      return rl_isa_gfx12_table(rl_isa_families[f].gfx11);
    }
  }
  return NULL;
}
