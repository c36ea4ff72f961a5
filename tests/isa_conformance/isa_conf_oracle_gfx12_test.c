// tests/isa_conformance/isa_conf_oracle_gfx12_test.c — the oracle executor
// (sim/oracle/oracle.h) on gfx1201: a program assembled by
// llvm-mc-19 -mcpu=gfx1201 (not by either decoder) that uses each gfx12
// form the oracle decodes — SMEM with the gfx12 layout (s_load_b128,
// s_load_b96, s_load_u16, s_load_i8), VOP3P packed binary16, VGLOBAL
// loads/stores/atomics with SADDR and positive and negative 24-bit
// offsets, VFLAT, the work-group id
// in TTMP9/TTMP7, the split wait counters, s_barrier_signal/s_barrier_wait
// around an LDS exchange, the renamed s_add_co_u32/s_add_co_ci_u32, VOPD —
// writes one region of the output per form, and runs under the oracle in
// full mode. Checked: every work-group is checked and agrees with the isa
// executor. Negative controls, one per region (so per form): an executor
// that flips one byte of that region after the isa executor ran is caught
// at that address; an instruction the oracle does not model on gfx12
// (v_permlane16_var_b32) is a skip that names it, never a pass.
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/isa/isa_executor.h"
#include "sim/oracle/oracle.h"
#include "tests/isa_conformance/isa_conf_harness.h"
#include "tests/unit/sim/isa/isa_test_util.h"

#define WORK_ITEMS 256u  // four work-groups of 64 (two waves each)

// The output regions, one per gfx12 form (byte offsets into out; each
// holds one dword per work-item).
static const struct {
  uint32_t offset;
  const char* what;
} regions[] = {
    {0x0000, "VGLOBAL load + VOP3 fma + VGLOBAL store (SADDR)"},
    {0x0400, "SMEM s_load_u16 / s_load_i8 / s_load_b96 (gfx12 layout)"},
    {0x0800, "LDS exchange across s_barrier_signal / s_barrier_wait"},
    {0x0c00, "work-group id from TTMP9 and TTMP7"},
    {0x1000, "VFLAT store through a 64-bit address"},
    {0x1400, "VOPD v_dual_mul_f32 (X)"},
    {0x1800, "VOPD v_dual_add_f32 (Y)"},
    {0x1c00, "VGLOBAL atomic add without return"},
    {0x2c00, "VGLOBAL store, negative offset, base from s_add_co_*"},
    {0x2000, "VOP3P v_pk_mul_f16 / v_pk_add_f16 with op_sel"},
    {0x2400, "SALU s_add_nc_u64 / s_sub_nc_u64 / s_mul_u64"},
    {0x2800, "SALU float s_cvt_f32_u32 / s_add_f32 / s_mul_f32"},
    {0x3000, "pseudo-scalar v_s_sqrt_f32 / v_s_exp_f32 into an SGPR"},
};
#define REGIONS (sizeof(regions) / sizeof(regions[0]))

static const char* const program_lines[] = {
    "s_load_b128 s[4:7], s[0:1], 0x0",  // in, out
    "s_wait_kmcnt 0x0",
    "s_lshl_b32 s10, ttmp9, 6",
    "v_add_nc_u32_e32 v1, s10, v0",  // global id
    "v_lshlrev_b32_e32 v2, 2, v1",
    // 0x0000: in * 0.5 + in, + 1.0 (VOP3)
    "global_load_b32 v3, v2, s[4:5]",
    "s_wait_loadcnt 0x0",
    "v_fma_f32 v4, v3, 0.5, v3",
    "v_add_f32_e64 v4, v4, 1.0",
    "global_store_b32 v2, v4, s[6:7]",
    // 0x0400: sub-dword and three-dword scalar loads
    "s_load_u16 s11, s[4:5], 0x6",
    "s_mov_b32 s13, 0x10",
    "s_load_i8 s12, s[4:5], s13 offset:0x3",
    "s_load_b96 s[16:18], s[4:5], 0x20",
    "s_wait_kmcnt 0x0",
    "v_add_nc_u32_e32 v5, s11, v1",
    "v_xor_b32_e32 v5, s12, v5",
    "v_add_nc_u32_e32 v5, s18, v5",
    "global_store_b32 v2, v5, s[6:7] offset:0x400",
    // 0x0800: two waves exchange through LDS
    "v_lshlrev_b32_e32 v6, 2, v0",
    "v_mad_u32_u24 v7, v1, 3, 1",
    "ds_store_b32 v6, v7",
    "s_wait_dscnt 0x0",
    "s_barrier_signal -1",
    "s_barrier_wait -1",
    "v_xor_b32_e32 v8, 0x80, v6",
    "ds_load_b32 v9, v8",
    "s_wait_dscnt 0x0",
    "global_store_b32 v2, v9, s[6:7] offset:0x800",
    // 0x0c00: the work-group ids
    "v_add_nc_u32_e32 v10, ttmp9, v0",
    "v_add_nc_u32_e32 v10, ttmp7, v10",
    "global_store_b32 v2, v10, s[6:7] offset:0xc00",
    // 0x1000: VFLAT
    "v_add_co_u32 v12, vcc_lo, s6, v2",
    "v_add_co_ci_u32_e64 v13, null, s7, 0, vcc_lo",
    "flat_store_b32 v[12:13], v1 offset:0x1000",
    // 0x1400, 0x1800: VOPD
    "v_dual_mul_f32 v14, v3, v4 :: v_dual_add_f32 v15, v4, v3",
    "global_store_b32 v2, v14, s[6:7] offset:0x1400",
    "global_store_b32 v2, v15, s[6:7] offset:0x1800",
    // 0x1c00: an atomic without return (commutes: modelled in 2 waves)
    "global_atomic_add_u32 v2, v1, s[6:7] offset:0x1c00",
    // 0x2c00: a base 0x3000 past out, a negative offset
    "s_add_co_u32 s20, s6, 0x3000",
    "s_add_co_ci_u32 s21, s7, 0",
    "global_store_b32 v2, v1, s[20:21] offset:-0x400",
    // 0x2000: packed binary16 with op_sel / op_sel_hi
    "v_pk_mul_f16 v16, v3, v4 op_sel:[1,0] op_sel_hi:[0,1]",
    "v_pk_add_f16 v17, v16, v3",
    "global_store_b32 v2, v17, s[6:7] offset:0x2000",
    // 0x2400: gfx12's 64-bit SALU arithmetic
    "s_mul_u64 s[22:23], s[4:5], s[10:11]",
    "s_add_nc_u64 s[22:23], s[22:23], s[6:7]",
    "s_sub_nc_u64 s[24:25], s[22:23], 0x12345",
    "v_xor_b32_e32 v18, s24, v1",
    "v_add_nc_u32_e32 v18, s25, v18",
    "global_store_b32 v2, v18, s[6:7] offset:0x2400",
    // 0x2800: SALU float (gfx1150+, gfx12)
    "s_cvt_f32_u32 s26, s10",
    "s_add_f32 s26, s26, 1.0",
    "s_mul_f32 s26, s26, 0x3fc00000",
    "v_add_f32_e32 v19, s26, v3",
    "global_store_b32 v2, v19, s[6:7] offset:0x2800",
    // 0x3000: pseudo-scalar transcendentals
    "v_s_sqrt_f32 s27, s26",
    "v_s_exp_f32 s28, -s27",
    "v_add_f32_e32 v20, s28, v3",
    "global_store_b32 v2, v20, s[6:7] offset:0x3000",
    "s_endpgm",
};
#define PROGRAM_LINES (sizeof(program_lines) / sizeof(program_lines[0]))

// |lines| assembled for gfx1201 into |program|.
static void assemble(const char* const* lines, uint32_t count,
                     rl_conf_program_t* program) {
  rl_isa_encoded_t* encoded = calloc(count, sizeof(*encoded));
  assert_non_null(encoded);
  rl_isa_test_assemble_batch("gfx1201", lines, count, encoded);
  program->count = 0;
  for (uint32_t i = 0; i < count; ++i) {
    assert_true(encoded[i].count > 0);
    for (uint32_t w = 0; w < encoded[i].count; ++w) {
      assert_true(program->count < RL_CONF_MAX_WORDS);
      program->words[program->count++] = encoded[i].words[w];
    }
  }
  free(encoded);
}

// The executor under test made wrong on purpose: after the isa executor
// ran a work-group, one byte of region |flip_region| (when >= 0) is
// flipped in that work-group's slice.
static struct {
  int flip_region;
  uint64_t out;
  uint64_t flipped_at;
} faulty = {-1, 0, 0};

static rl_status_t faulty_begin(void* self, const rl_sim_dispatch_t* d,
                                void** out_state) {
  (void)self;
  const rl_sim_executor_t* isa = rl_isa_executor();
  return isa->begin(isa->self, d, out_state);
}

static rl_status_t faulty_run(void* self, void* state, rl_sim_wg_t* wg) {
  (void)self;
  const rl_sim_executor_t* isa = rl_isa_executor();
  rl_status_t status = isa->run_workgroup(isa->self, state, wg);
  if (status || faulty.flip_region < 0) return status;
  uint64_t at = faulty.out + regions[faulty.flip_region].offset +
                (uint64_t)wg->group_id[0] * 64 * 4 + 4 * 5 + 1;
  uint8_t byte = 0;
  assert_true(rl_sim_wg_peek(wg, at, &byte, 1));
  byte ^= 0x10;
  if (wg->group_id[0] == 0) faulty.flipped_at = at;
  return rl_sim_wg_store(wg, at, &byte, 1);
}

static void faulty_end(void* self, void* state) {
  (void)self;
  const rl_sim_executor_t* isa = rl_isa_executor();
  isa->end(isa->self, state);
}

static const rl_sim_executor_t faulty_executor = {
    .name = "isa",
    .begin = faulty_begin,
    .run_workgroup = faulty_run,
    .end = faulty_end};

// Runs |program| on gfx1201 under an oracle in full mode around |inner|.
static void run_under_oracle(const rl_conf_program_t* program,
                             const rl_sim_executor_t* inner,
                             rl_conf_device_t* device,
                             rl_oracle_report_t* out_report) {
  uint8_t* in = rl_conf_in(device);
  float* in_f = (float*)in;
  for (uint32_t i = 0; i < WORK_ITEMS; ++i) in_f[i] = (float)i * 0.25f;
  in[0x13] = 0x9c;  // s_load_i8's byte: bit 7 set, so sign extension shows
  rl_oracle_t* oracle = NULL;
  assert_int_equal(rl_oracle_create(inner, RL_ORACLE_FULL, 7, &oracle), RL_OK);
  rl_conf_set_inner(rl_oracle_executor(oracle));
  rl_conf_config_t config = {.lanes = WORK_ITEMS, .processor = "gfx1201",
                             .lds_bytes = 256};
  faulty.out = rl_conf_out_address(device);
  char fault[256] = "";
  bool ran = rl_conf_run(device, program, &config, fault, sizeof(fault));
  rl_conf_set_inner(NULL);
  rl_oracle_report(oracle, out_report);
  char line[512];
  rl_oracle_report_format(out_report, line, sizeof(line));
  print_message("%s%s%s\n", line, out_report->mismatch ? ": " : "",
                out_report->mismatch ? out_report->mismatch_text : "");
  rl_oracle_destroy(oracle);
  if (!ran) fail_msg("gfx1201 program faulted: %s", fault);
}

static void oracle_checks_every_gfx12_form(void** state) {
  (void)state;
  static rl_conf_program_t program;
  assemble(program_lines, PROGRAM_LINES, &program);
  rl_conf_device_t* device = rl_conf_device_create();
  rl_oracle_report_t r;
  run_under_oracle(&program, rl_isa_executor(), device, &r);
  assert_false(r.mismatch);
  assert_int_equal(r.dispatches_checked, 1);
  assert_int_equal(r.workgroups, 4);
  assert_int_equal(r.workgroups_checked, 4);
  assert_int_equal(r.workgroups_skipped, 0);
  assert_int_equal(r.bytes_compared, REGIONS * WORK_ITEMS * 4);
  // The program itself computed what it says (so agreement means
  // something): a few regions against host arithmetic.
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  const uint8_t* in = rl_conf_in(device);
  uint32_t u16 = in[6] | in[7] << 8;
  uint32_t i8 = 0xffffff9cu;
  uint32_t b96_hi;
  memcpy(&b96_hi, in + 0x28, 4);
  for (uint32_t i = 0; i < WORK_ITEMS; ++i) {
    float x, a;
    memcpy(&x, in + 4 * i, 4);
    memcpy(&a, &out[i], 4);
    assert_true(a == x * 0.5f + x + 1.0f);
    assert_int_equal(out[0x400 / 4 + i], ((u16 + i) ^ i8) + b96_hi);
    uint32_t other = (i & ~63u) | ((i & 63u) ^ 32u);
    assert_int_equal(out[0x800 / 4 + i], other * 3 + 1);
    assert_int_equal(out[0xc00 / 4 + i], i / 64 + i % 64);
    assert_int_equal(out[0x1000 / 4 + i], i);
    assert_int_equal(out[0x2c00 / 4 + i], i);
  }
  rl_conf_device_destroy(device);
}

// Negative controls: a byte of each region flipped by the "simulator" is
// caught at its address.
static void oracle_catches_a_flipped_byte_in_every_region(void** state) {
  (void)state;
  static rl_conf_program_t program;
  assemble(program_lines, PROGRAM_LINES, &program);
  rl_conf_device_t* device = rl_conf_device_create();
  for (uint32_t k = 0; k < REGIONS; ++k) {
    faulty.flip_region = (int)k;
    faulty.flipped_at = 0;
    rl_oracle_report_t r;
    run_under_oracle(&program, &faulty_executor, device, &r);
    faulty.flip_region = -1;
    if (!r.mismatch) fail_msg("flipped byte in region %s not caught",
                              regions[k].what);
    assert_int_equal(r.mismatch_group[0], 0);
    char want[64];
    snprintf(want, sizeof(want), "address 0x%" PRIx64 ":", faulty.flipped_at);
    if (!strstr(r.mismatch_text, want)) {
      fail_msg("region %s: %s does not name %s", regions[k].what,
               r.mismatch_text, want);
    }
    print_message("  %s: caught\n", regions[k].what);
  }
  rl_conf_device_destroy(device);
}

// An instruction the oracle does not model on gfx12 skips the work-groups
// with its name: never counted as checked.
static void oracle_skips_a_gfx12_form_it_does_not_model(void** state) {
  (void)state;
  static const char* const lines[] = {
      "s_load_b128 s[4:7], s[0:1], 0x0",
      "s_wait_kmcnt 0x0",
      "v_lshlrev_b32_e32 v2, 2, v0",
      "v_permlane16_var_b32 v3, v0, v0",
      "global_store_b32 v2, v3, s[6:7]",
      "s_endpgm",
  };
  static rl_conf_program_t program;
  assemble(lines, sizeof(lines) / sizeof(lines[0]), &program);
  rl_conf_device_t* device = rl_conf_device_create();
  rl_oracle_report_t r;
  run_under_oracle(&program, rl_isa_executor(), device, &r);
  assert_false(r.mismatch);
  assert_int_equal(r.workgroups_checked, 0);
  assert_int_equal(r.workgroups_skipped, 4);
  assert_non_null(strstr(r.reasons[0].text, "v_permlane16_var_b32"));
  rl_conf_device_destroy(device);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(oracle_checks_every_gfx12_form),
      cmocka_unit_test(oracle_catches_a_flipped_byte_in_every_region),
      cmocka_unit_test(oracle_skips_a_gfx12_form_it_does_not_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
