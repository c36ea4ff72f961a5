// tests/isa_conformance/isa_conf_encode_test.c — the conformance suite's
// encoder (isa_conf_encode.c) against llvm-mc-19 -mcpu=gfx1151: one or more
// samples of every format and modifier the suite emits, so the programs it
// runs are the instructions it names, independently of the executor's
// decoder.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "tests/isa_conformance/isa_conf_encode.h"
#include "tests/unit/sim/isa/isa_test_util.h"

typedef struct rl_conf_sample_s {
  const char* text;
  rl_conf_program_t* program;
} rl_conf_sample_t;

static void test_encoder_matches_llvm_mc(void** state) {
  (void)state;
  static rl_conf_program_t p[64];
  const rl_conf_mods_t mods = {.abs = 1, .neg = 2, .clamp = true};
  const rl_conf_mods_t pk = {.opsel = 1, .opsel_hi = 6};  // src2 keeps the default
  const uint32_t s3[3] = {RL_CONF_V(1), RL_CONF_V(3), RL_CONF_V(5)};
  const uint32_t s64[3] = {RL_CONF_V(1), RL_CONF_V(3), 0};
  const uint32_t cnd[3] = {128, 129, 32};
  const uint32_t rl[3] = {RL_CONF_V(1), 128 + 5, 0};
  const uint32_t inl[3] = {RL_CONF_V(1), 244, 0};
  const char* lines[64];
  uint32_t n = 0;
#define S(text, call) lines[n] = text; call; ++n
  S("s_add_u32 s26, s20, s22", rl_conf_sop2(&p[n], 0x00, 26, 20, 22, false, 0));
  S("s_fmaak_f32 s26, s20, s22, 0x3fc00000",
    rl_conf_sop2(&p[n], 0x45, 26, 20, 22, true, 0x3fc00000));
  S("s_lshl_b32 s10, s15, 6", rl_conf_sop2(&p[n], 0x08, 10, 15, 134, false, 0));
  S("s_mov_b32 s28, src_scc", rl_conf_sop1(&p[n], 0x00, 28, RL_CONF_SCC, false, 0));
  S("s_mov_b32 exec_lo, -1", rl_conf_sop1(&p[n], 0x00, RL_CONF_EXEC, 193, false, 0));
  S("s_and_saveexec_b32 s26, s20", rl_conf_sop1(&p[n], 0x20, 26, 20, false, 0));
  S("s_movk_i32 s26, 0x8001", rl_conf_sopk(&p[n], 0x00, 26, 0x8001));
  S("s_cmp_lg_u32 s24, 0", rl_conf_sopc(&p[n], 0x07, 24, 128, false, 0));
  S("s_cmp_eq_u32 s20, 0x12345678",
    rl_conf_sopc(&p[n], 0x06, 20, RL_CONF_LITERAL, true, 0x12345678));
  S("s_cbranch_scc0 1", rl_conf_sopp(&p[n], 0x21, 1));
  S("s_load_b128 s[4:7], s[0:1], 0x0",
    rl_conf_smem(&p[n], 0x02, 4, 0, 0, RL_CONF_NULL));
  S("s_load_b32 s40, s[8:9], s12 offset:0x10",
    rl_conf_smem(&p[n], 0x00, 40, 8, 16, 12));
  S("v_mov_b32_e32 v10, v13", rl_conf_vop1(&p[n], 0x01, 10, RL_CONF_V(13), false, 0));
  S("v_mul_u32_u24_e32 v250, 0x30c, v0",
    rl_conf_vop2(&p[n], 0x0b, 250, RL_CONF_LITERAL, 0, true, 780));
  S("v_fmaak_f32 v10, v1, v3, 0x3fc00000",
    rl_conf_vop2(&p[n], 0x2d, 10, RL_CONF_V(1), 3, true, 0x3fc00000));
  S("v_cmpx_ne_u32_e32 0, v7", rl_conf_vopc(&p[n], 0xcd, 128, 7, false, 0));
  S("v_fma_f32 v10, |v1|, -v3, v5 clamp",
    rl_conf_vop3(&p[n], 0x213, 10, 0, s3, &mods, false, 0));
  S("v_add_co_u32 v10, s32, v1, v3",
    rl_conf_vop3(&p[n], 0x300, 10, 32, s64, NULL, false, 0));
  S("v_cndmask_b32_e64 v12, 0, 1, s32",
    rl_conf_vop3(&p[n], 0x101, 12, 0, cnd, NULL, false, 0));
  S("v_cmp_lt_f64_e64 s32, v[1:2], v[3:4]",
    rl_conf_vop3(&p[n], 0x21, 32, 0, s64, NULL, false, 0));
  S("v_readlane_b32 s20, v1, 5", rl_conf_vop3(&p[n], 0x360, 20, 0, rl, NULL, false, 0));
  S("v_add_f32_e64 v10, v1, 2.0", rl_conf_vop3(&p[n], 0x103, 10, 0, inl, NULL, false, 0));
  S("v_pk_add_u16 v10, v1, v3 op_sel:[1,0] op_sel_hi:[0,1]",
    rl_conf_vop3p(&p[n], 0x0a, 10, s64, &pk));
  S("v_dual_fmaak_f32 v10, v1, v2, 0x40000000 :: v_dual_mov_b32 v11, v4",
    rl_conf_vopd(&p[n], 1, 8, 10, RL_CONF_V(1), 2, 11, RL_CONF_V(4), 0, true,
                 0x40000000));
  S("ds_store_2addr_b32 v1, v20, v24 offset0:4 offset1:8",
    rl_conf_ds(&p[n], 0x0e, 0, 1, 20, 24, 4, 8));
  S("ds_load_b32 v72, v252 offset:4100", rl_conf_ds(&p[n], 0x36, 72, 252, 0, 0, 4, 16));
  S("ds_swizzle_b32 v10, v1 offset:swizzle(QUAD_PERM,0,1,2,3)",
    rl_conf_ds(&p[n], 0x35, 10, 1, 0, 0, 0xe4, 0x80));
  S("ds_swizzle_b32 v10, v1 offset:swizzle(BITMASK_PERM,\"01pip\")",
    rl_conf_ds(&p[n], 0x35, 10, 1, 0, 0, 0x07, 0x09));
  S("ds_swizzle_b32 v10, v1 offset:swizzle(SWAP,16)",
    rl_conf_ds(&p[n], 0x35, 10, 1, 0, 0, 0x1f, 0x40));
  S("ds_swizzle_b32 v10, v1 offset:swizzle(REVERSE,8)",
    rl_conf_ds(&p[n], 0x35, 10, 1, 0, 0, 0x1f, 0x1c));
  S("ds_swizzle_b32 v10, v1 offset:swizzle(BROADCAST,8,0)",
    rl_conf_ds(&p[n], 0x35, 10, 1, 0, 0, 0x18, 0x00));
  S("ds_gws_barrier v7 offset:3 gds", rl_conf_ds_gws(&p[n], 0x1d, 7, 3));
  S("global_load_b32 v1, v250, s[4:5] offset:-8",
    rl_conf_flat(&p[n], 2, 0x14, 1, 250, 0, 4, -8));
  S("global_store_b64 v[2:3], v[10:11], off offset:16",
    rl_conf_flat(&p[n], 2, 0x1b, 0, 2, 10, RL_CONF_NULL, 16));
  S("flat_load_u16 v10, v[2:3] offset:6",
    rl_conf_flat(&p[n], 0, 0x12, 10, 2, 0, RL_CONF_NULL, 6));
  S("buffer_gl0_inv", rl_conf_mubuf(&p[n], 0x2b));
  // VOP3 OMOD and OP_SEL.
  const rl_conf_mods_t omod = {.neg = 1, .omod = 3, .clamp = true};
  S("v_mul_f32_e64 v10, -v1, v3 clamp div:2",
    rl_conf_vop3(&p[n], 0x108, 10, 0, s64, &omod, false, 0));
  const rl_conf_mods_t opsel = {.opsel = 0xb};
  S("v_fma_f16 v10, v1, v3, v5 op_sel:[1,1,0,1]",
    rl_conf_vop3(&p[n], 0x248, 10, 0, s3, &opsel, false, 0));
  // DPP16 and DPP8 on VOP1/VOP2 (the DPP dword in the literal slot).
  const rl_conf_dpp_t shr = {.kind = 16, .ctrl = 0x111, .row_mask = 0xa,
                             .bank_mask = 0x5, .bound_ctrl = true, .fi = true};
  S("v_mov_b32_dpp v10, v1 row_shr:1 row_mask:0xa bank_mask:0x5 "
    "bound_ctrl:1 fi:1",
    rl_conf_vop1(&p[n], 0x01, 10, rl_conf_dpp_marker(&shr), true,
                 rl_conf_dpp_word(&shr, 1)));
  const rl_conf_dpp_t quad = {.kind = 16, .ctrl = 0xb1, .row_mask = 0xf,
                              .bank_mask = 0xf, .neg = 1, .abs = 2};
  S("v_add_f32_dpp v10, -v1, |v3| quad_perm:[1,0,3,2] row_mask:0xf "
    "bank_mask:0xf",
    rl_conf_vop2(&p[n], 0x03, 10, rl_conf_dpp_marker(&quad), 3, true,
                 rl_conf_dpp_word(&quad, 1)));
  const rl_conf_dpp_t xmask = {.kind = 16, .ctrl = 0x163, .row_mask = 0xf,
                               .bank_mask = 0xf};
  S("v_add_nc_u32_dpp v10, v1, v3 row_xmask:3 row_mask:0xf bank_mask:0xf",
    rl_conf_vop2(&p[n], 0x25, 10, rl_conf_dpp_marker(&xmask), 3, true,
                 rl_conf_dpp_word(&xmask, 1)));
  const rl_conf_dpp_t d8 = {.kind = 8, .sel = 0x053977, .fi = true};
  S("v_mov_b32_dpp v10, v1 dpp8:[7,6,5,4,3,2,1,0] fi:1",
    rl_conf_vop1(&p[n], 0x01, 10, rl_conf_dpp_marker(&d8), true,
                 rl_conf_dpp_word(&d8, 1)));
  const rl_conf_dpp_t d8b = {.kind = 8, .sel = 0x000000};
  S("v_mul_f32_dpp v10, v1, v3 dpp8:[0,0,0,0,0,0,0,0]",
    rl_conf_vop2(&p[n], 0x08, 10, rl_conf_dpp_marker(&d8b), 3, true,
                 rl_conf_dpp_word(&d8b, 1)));
  // The lane permutes: op_sel:[fi,bc] (isa_conf_lanes.c), and the DPP16
  // controls clang emits for row shares and half-row mirrors.
  const uint32_t perm[3] = {RL_CONF_V(1), 20, 21};
  const rl_conf_mods_t fi_bc = {.opsel = 3};
  S("v_permlane16_b32 v10, v1, s20, s21 op_sel:[1,1]",
    rl_conf_vop3(&p[n], 0x25b, 10, 0, perm, &fi_bc, false, 0));
  S("v_permlanex16_b32 v10, v1, s20, s21",
    rl_conf_vop3(&p[n], 0x25c, 10, 0, perm, NULL, false, 0));
  const rl_conf_dpp_t share = {.kind = 16, .ctrl = 0x155, .row_mask = 0xf,
                               .bank_mask = 0xf};
  S("v_mov_b32_dpp v10, v1 row_share:5 row_mask:0xf bank_mask:0xf",
    rl_conf_vop1(&p[n], 0x01, 10, rl_conf_dpp_marker(&share), true,
                 rl_conf_dpp_word(&share, 1)));
  const rl_conf_dpp_t half = {.kind = 16, .ctrl = 0x141, .row_mask = 0x3,
                              .bank_mask = 0xc, .bound_ctrl = true};
  S("v_mov_b32_dpp v10, v1 row_half_mirror row_mask:0x3 bank_mask:0xc "
    "bound_ctrl:1",
    rl_conf_vop1(&p[n], 0x01, 10, rl_conf_dpp_marker(&half), true,
                 rl_conf_dpp_word(&half, 1)));
  // DPP on compares: the e32 form (VCC) and the e64 form clang emits.
  const rl_conf_dpp_t cshr = {.kind = 16, .ctrl = 0x111, .row_mask = 0xf,
                              .bank_mask = 0x5, .neg = 1};
  S("v_cmp_lt_f32_dpp vcc_lo, -v1, v3 row_shr:1 row_mask:0xf bank_mask:0x5",
    rl_conf_vopc(&p[n], 0x11, rl_conf_dpp_marker(&cshr), 3, true,
                 rl_conf_dpp_word(&cshr, 1)));
  const rl_conf_dpp_t cbc = {.kind = 16, .ctrl = 0x111, .row_mask = 0xf,
                             .bank_mask = 0xf, .bound_ctrl = true};
  const uint32_t cmp_dpp[3] = {rl_conf_dpp_marker(&cbc), RL_CONF_V(3), 0};
  S("v_cmp_lt_i32_e64_dpp s32, v1, v3 row_shr:1 row_mask:0xf bank_mask:0xf "
    "bound_ctrl:1",
    rl_conf_vop3(&p[n], 0x41, 32, 0, cmp_dpp, NULL, true,
                 rl_conf_dpp_word(&cbc, 1)));
  const rl_conf_dpp_t c8 = {.kind = 8, .sel = 0x053977};
  S("v_cmpx_gt_u32_dpp v1, v3 dpp8:[7,6,5,4,3,2,1,0]",
    rl_conf_vopc(&p[n], 0xcc, rl_conf_dpp_marker(&c8), 3, true,
                 rl_conf_dpp_word(&c8, 1)));
#undef S
  rl_isa_encoded_t encoded[64];
  rl_isa_test_assemble_batch("gfx1151", lines, n, encoded);
  for (uint32_t i = 0; i < n; ++i) {
    bool same = encoded[i].count == p[i].count;
    for (uint32_t w = 0; same && w < p[i].count; ++w) {
      same = encoded[i].words[w] == p[i].words[w];
    }
    if (!same) {
      fail_msg("\"%s\": encoder %08x %08x %08x (%u dwords), llvm-mc %08x "
               "%08x %08x (%u dwords)", lines[i], p[i].words[0],
               p[i].words[1], p[i].words[2], p[i].count, encoded[i].words[0],
               encoded[i].words[1], encoded[i].words[2], encoded[i].count);
    }
  }
  print_message("%u encodings match llvm-mc-19\n", n);
}

// gfx12 mode: the SMEM and VFLAT/VGLOBAL layouts of rl_conf_smem /
// rl_conf_flat and the split barrier against llvm-mc-19 -mcpu=gfx1201.
static void test_gfx12_encoder_matches_llvm_mc(void** state) {
  (void)state;
  static rl_conf_program_t p[16];
  const char* lines[16];
  uint32_t n = 0;
  rl_conf_gfx12 = true;
#define S(text, call) lines[n] = text; p[n].count = 0; call; ++n
  S("s_load_b128 s[4:7], s[0:1], 0x0",
    rl_conf_smem(&p[n], 0x02, 4, 0, 0, RL_CONF_NULL));
  S("s_load_b32 s40, s[8:9], s12 offset:-0x10",
    rl_conf_smem(&p[n], 0x00, 40, 8, -16, 12));
  S("global_load_b32 v1, v250, s[4:5] offset:-8",
    rl_conf_flat(&p[n], 2, 0x14, 1, 250, 0, 4, -8));
  S("global_store_b64 v[2:3], v[10:11], off offset:16",
    rl_conf_flat(&p[n], 2, 0x1b, 0, 2, 10, RL_CONF_NULL, 16));
  S("flat_load_b32 v10, v[2:3] offset:6",
    rl_conf_flat(&p[n], 0, 0x14, 10, 2, 0, RL_CONF_NULL, 6));
  S("global_inv", rl_conf_flat(&p[n], 2, 0x2b, 0, 0, 0, RL_CONF_NULL, 0));
  S("ds_swizzle_b32 v10, v1 offset:swizzle(QUAD_PERM,3,2,1,0)",
    rl_conf_ds(&p[n], 0x35, 10, 1, 0, 0, 0x1b, 0x80));
  S("ds_swizzle_b32 v10, v1 offset:swizzle(BITMASK_PERM,\"01pip\")",
    rl_conf_ds(&p[n], 0x35, 10, 1, 0, 0, 0x07, 0x09));
  const uint32_t var[3] = {RL_CONF_V(1), RL_CONF_V(3), 0};
  const rl_conf_mods_t bc = {.opsel = 2};
  S("v_permlane16_var_b32 v10, v1, v3 op_sel:[0,1]",
    rl_conf_vop3(&p[n], 0x30f, 10, 0, var, &bc, false, 0));
  S("v_permlanex16_var_b32 v10, v1, v3",
    rl_conf_vop3(&p[n], 0x310, 10, 0, var, NULL, false, 0));
  S("s_barrier_signal -1", rl_conf_sop1(&p[n], 0x4e, 0, 193, false, 0));
  S("s_barrier_wait -1", rl_conf_sopp(&p[n], 0x14, 0xffff));
#undef S
  rl_conf_gfx12 = false;
  rl_isa_encoded_t encoded[16];
  rl_isa_test_assemble_batch("gfx1201", lines, n, encoded);
  for (uint32_t i = 0; i < n; ++i) {
    bool same = encoded[i].count == p[i].count;
    for (uint32_t w = 0; same && w < p[i].count; ++w) {
      same = encoded[i].words[w] == p[i].words[w];
    }
    if (!same) {
      fail_msg("\"%s\": encoder %08x %08x %08x (%u dwords), llvm-mc %08x "
               "%08x %08x (%u dwords)", lines[i], p[i].words[0],
               p[i].words[1], p[i].words[2], p[i].count, encoded[i].words[0],
               encoded[i].words[1], encoded[i].words[2], encoded[i].count);
    }
  }
  // The barrier helper emits exactly the last two.
  static rl_conf_program_t barrier;
  rl_conf_gfx12 = true;
  rl_conf_wg_barrier(&barrier);
  rl_conf_gfx12 = false;
  assert_int_equal(barrier.count, 2);
  assert_int_equal(barrier.words[0], encoded[n - 2].words[0]);
  assert_int_equal(barrier.words[1], encoded[n - 1].words[0]);
  print_message("%u gfx12 encodings match llvm-mc-19\n", n);
}

// Negative control: a deliberately wrong field must be noticed.
static void test_encoder_check_can_fail(void** state) {
  (void)state;
  static rl_conf_program_t p;
  rl_conf_vop2(&p, 0x03, 10, RL_CONF_V(1), 4, false, 0);  // vsrc1 v4, not v3
  const char* line = "v_add_f32_e32 v10, v1, v3";
  rl_isa_encoded_t encoded;
  rl_isa_test_assemble_batch("gfx1151", &line, 1, &encoded);
  assert_int_not_equal(encoded.words[0], p.words[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_encoder_matches_llvm_mc),
      cmocka_unit_test(test_gfx12_encoder_matches_llvm_mc),
      cmocka_unit_test(test_encoder_check_can_fail),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
