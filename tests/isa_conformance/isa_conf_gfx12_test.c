// The gfx12-only instructions of the ISA executor (sim/isa/
// isa_exec_gfx12.c) against the independent host model, run the way the
// conformance suite runs gfx11 code (isa_conf_harness.h) but as gfx1201:
// the programs are gfx12 assembly, encoded by llvm-mc-19 -mcpu=gfx1201 (not
// by the executor's decoder), loaded at the dispatch's entry and run by
// the `isa` executor of a simulated device. Checked:
//   - s_add_nc_u64 / s_sub_nc_u64 / s_mul_u64 on seeded 64-bit operands
//     (and SCC unchanged) against C arithmetic;
//   - v_s_exp/log/rcp/rsq/sqrt_f32 on seeded floats against the host
//     model's transcendental (1 ulp, rl_hm_match) and bit-equal to the VALU
//     opcode of the same name in the same program;
//   - s_load_b96 (three dwords, SOFFSET and negative offsets), VGLOBAL
//     loads/stores with SADDR and 24-bit offsets, global_inv / global_wb and
//     the split wait counters in the same program;
//   - s_load_u8/i8/u16/i16 at odd (8-bit) and 2-aligned (16-bit) byte
//     addresses, with SOFFSET and negative immediates, against the input
//     bytes zero- or sign-extended on the host (bytes with bit 7 / bit 15
//     set among them, so a missing sign extension shows);
//   - s_barrier_signal / s_barrier_wait: the two waves of a work-group
//     exchange values through LDS; negative control: without the wait the
//     exchange reads stale LDS, so the check can fail.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/isa_conformance/isa_conf_harness.h"
#include "sim/oracle/oracle_model.h"
#include "tests/unit/sim/isa/isa_test_util.h"

#define RL_G12_LINES 4096

typedef struct rl_g12_asm_s {
  char text[RL_G12_LINES][96];
  uint32_t count;
} rl_g12_asm_t;

static rl_g12_asm_t rl_g12_source;

static void rl_g12_line(const char* format, ...)
    __attribute__((format(printf, 1, 2)));
static void rl_g12_line(const char* format, ...) {
  assert_true(rl_g12_source.count < RL_G12_LINES);
  va_list args;
  va_start(args, format);
  vsnprintf(rl_g12_source.text[rl_g12_source.count++], 96, format, args);
  va_end(args);
}

// Assembles the collected lines for gfx1201 into |program|.
static void rl_g12_assemble(rl_conf_program_t* program) {
  const char** lines = calloc(rl_g12_source.count, sizeof(*lines));
  rl_isa_encoded_t* encoded = calloc(rl_g12_source.count, sizeof(*encoded));
  assert_true(lines && encoded);
  for (uint32_t i = 0; i < rl_g12_source.count; ++i) {
    lines[i] = rl_g12_source.text[i];
  }
  rl_isa_test_assemble_batch("gfx1201", lines, rl_g12_source.count, encoded);
  program->count = 0;
  for (uint32_t i = 0; i < rl_g12_source.count; ++i) {
    for (uint32_t w = 0; w < encoded[i].count; ++w) {
      assert_true(program->count < RL_CONF_MAX_WORDS);
      program->words[program->count++] = encoded[i].words[w];
    }
  }
  free(lines);
  free(encoded);
  rl_g12_source.count = 0;
}

static uint64_t rl_g12_rng = 0x15ac0f2026ull ^ 0x1201;
static uint64_t rl_g12_next(void) {  // splitmix64
  uint64_t z = (rl_g12_rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static const rl_conf_config_t rl_g12_config = {
    .ieee = true, .dx10_clamp = true, .processor = "gfx1201", .lanes = 64};

static rl_conf_device_t* rl_g12_device;

static int rl_g12_setup(void** state) {
  (void)state;
  rl_g12_device = rl_conf_device_create();
  return 0;
}
static int rl_g12_teardown(void** state) {
  (void)state;
  rl_conf_device_destroy(rl_g12_device);
  return 0;
}

static void rl_g12_run(const rl_conf_program_t* program) {
  char fault[512] = "";
  if (!rl_conf_run(rl_g12_device, program, &rl_g12_config, fault,
                   sizeof(fault))) {
    fail_msg("gfx1201 program faulted: %s", fault);
  }
}

// Prologue: s[4:5] = in, s[6:7] = out (s[0:1] is the kernarg pointer).
static void rl_g12_prologue(void) {
  rl_g12_source.count = 0;
  rl_g12_line("s_load_b128 s[4:7], s[0:1], 0x0");
  rl_g12_line("s_wait_kmcnt 0x0");
}

#define RL_G12_SALU_CASES 48

static void test_salu64(void** state) {
  (void)state;
  uint64_t* in = (uint64_t*)rl_conf_in(rl_g12_device);
  for (uint32_t i = 0; i < 2 * RL_G12_SALU_CASES; ++i) {
    uint64_t v = rl_g12_next();
    // Some carries across the halves and some small values.
    in[i] = (i % 5 == 0) ? (v & 0xffffffffull) | 0xffffffffull
            : (i % 7 == 0) ? (v & 0xff) : v;
  }
  rl_g12_prologue();
  for (uint32_t c = 0; c < RL_G12_SALU_CASES; ++c) {
    rl_g12_line("s_load_b128 s[8:11], s[4:5], 0x%x", c * 16);
    rl_g12_line("s_wait_kmcnt 0x0");
    rl_g12_line("s_cmp_eq_u32 s8, s8");  // SCC = 1 must survive
    rl_g12_line("s_add_nc_u64 s[12:13], s[8:9], s[10:11]");
    rl_g12_line("s_sub_nc_u64 s[14:15], s[8:9], s[10:11]");
    rl_g12_line("s_mul_u64 s[16:17], s[8:9], s[10:11]");
    rl_g12_line("s_cselect_b32 s18, 1, 0");
    rl_g12_line("v_mov_b32_e32 v1, 0");
    for (uint32_t r = 0; r < 7; ++r) {
      rl_g12_line("v_mov_b32_e32 v2, s%u", 12 + r);
      rl_g12_line("global_store_b32 v1, v2, s[6:7] offset:0x%x",
                  c * 32 + r * 4);
    }
  }
  rl_g12_line("s_wait_storecnt 0x0");
  rl_g12_line("s_endpgm");
  static rl_conf_program_t program;
  rl_g12_assemble(&program);
  rl_g12_run(&program);
  const uint8_t* out = rl_conf_out(rl_g12_device);
  for (uint32_t c = 0; c < RL_G12_SALU_CASES; ++c) {
    uint64_t a = in[2 * c], b = in[2 * c + 1], got[3];
    uint32_t scc;
    memcpy(got, out + c * 32, 24);
    memcpy(&scc, out + c * 32 + 24, 4);
    uint64_t want[3] = {a + b, a - b, a * b};
    for (int k = 0; k < 3; ++k) {
      if (got[k] != want[k]) {
        fail_msg("case %u op %d: a=%#llx b=%#llx: got %#llx want %#llx", c,
                 k, (unsigned long long)a, (unsigned long long)b,
                 (unsigned long long)got[k], (unsigned long long)want[k]);
      }
    }
    assert_int_equal(scc, 1);
  }
  print_message("s_add_nc_u64/s_sub_nc_u64/s_mul_u64: %u cases agree\n",
                RL_G12_SALU_CASES);
}

#define RL_G12_TRANS_CASES 64

static void test_pseudo_scalar_trans(void** state) {
  (void)state;
  static const char* const names[] = {"exp", "log", "rcp", "rsq", "sqrt"};
  uint32_t* in = (uint32_t*)rl_conf_in(rl_g12_device);
  for (uint32_t i = 0; i < RL_G12_TRANS_CASES; ++i) {
    float f;
    uint64_t r = rl_g12_next();
    if (i % 4 == 0) f = (float)(r % 1000) / 7.0f;  // ordinary positives
    else if (i % 4 == 1) f = ldexpf(1.0f + (float)(r & 0xffff) / 65536.0f,
                                    (int)(r % 60) - 30);
    else if (i % 4 == 2) f = -(float)(r % 100) / 3.0f;  // negatives, 0
    else memcpy(&f, &(uint32_t){(uint32_t)r}, 4);  // any bits
    memcpy(&in[i], &f, 4);
  }
  rl_g12_prologue();
  for (uint32_t c = 0; c < RL_G12_TRANS_CASES; ++c) {
    rl_g12_line("s_load_b32 s8, s[4:5], 0x%x", c * 4);
    rl_g12_line("s_wait_kmcnt 0x0");
    rl_g12_line("v_mov_b32_e32 v1, 0");
    for (uint32_t k = 0; k < 5; ++k) {
      rl_g12_line("v_s_%s_f32 s%u, s8", names[k], 10 + k);
      rl_g12_line("v_%s_f32_e32 v%u, s8", names[k], 10 + k);
      rl_g12_line("v_mov_b32_e32 v2, s%u", 10 + k);
      rl_g12_line("global_store_b32 v1, v2, s[6:7] offset:0x%x",
                  c * 40 + k * 8);
      rl_g12_line("global_store_b32 v1, v%u, s[6:7] offset:0x%x", 10 + k,
                  c * 40 + k * 8 + 4);
    }
  }
  rl_g12_line("s_endpgm");
  static rl_conf_program_t program;
  rl_g12_assemble(&program);
  rl_g12_run(&program);
  const uint32_t* out = (const uint32_t*)rl_conf_out(rl_g12_device);
  for (uint32_t k = 0; k < 5; ++k) {
    char name[32];
    snprintf(name, sizeof(name), "v_%s_f32", names[k]);
    const rl_hm_op_t* model = rl_hm_find(name);
    assert_non_null(model);
    for (uint32_t c = 0; c < RL_G12_TRANS_CASES; ++c) {
      uint32_t scalar = out[c * 10 + k * 2], vector = out[c * 10 + k * 2 + 1];
      rl_hm_lane_t x = {.s = {in[c], 0, 0}};
      rl_hm_eval(model, RL_HM_MODE_IEEE | RL_HM_MODE_DX10, 0, 0, false, &x);
      if (!rl_hm_match(model, RL_HM_MODE_IEEE | RL_HM_MODE_DX10, x.d,
                       scalar)) {
        fail_msg("v_s_%s_f32(%#x) = %#x, host model %#llx", names[k], in[c],
                 scalar, (unsigned long long)x.d);
      }
      if (scalar != vector) {
        fail_msg("v_s_%s_f32(%#x) = %#x but %s gives %#x", names[k], in[c],
                 scalar, name, vector);
      }
    }
  }
  print_message("v_s_{exp,log,rcp,rsq,sqrt}_f32: %u cases each agree\n",
                RL_G12_TRANS_CASES);
}

static void test_memory_forms(void** state) {
  (void)state;
  uint32_t* in = (uint32_t*)rl_conf_in(rl_g12_device);
  for (uint32_t i = 0; i < 64; ++i) in[i] = (uint32_t)rl_g12_next();
  rl_g12_prologue();
  // s_load_b96 with SOFFSET and a negative immediate: in + 40 - 16 = in + 24.
  rl_g12_line("s_mov_b32 s20, 40");
  rl_g12_line("s_load_b96 s[8:10], s[4:5], s20 offset:-0x10");
  rl_g12_line("s_wait_kmcnt 0x0");
  rl_g12_line("v_mov_b32_e32 v1, 0");
  for (uint32_t r = 0; r < 3; ++r) {
    rl_g12_line("v_mov_b32_e32 v2, s%u", 8 + r);
    rl_g12_line("global_store_b32 v1, v2, s[6:7] offset:0x%x", r * 4);
  }
  // Per lane: out[16 + lane] = in[lane + 8] via a 64-bit VGPR address with a
  // negative offset, then global_wb / global_inv and the wait counters.
  rl_g12_line("v_lshlrev_b32_e32 v3, 2, v0");
  rl_g12_line("v_mov_b32_e32 v7, s5");
  rl_g12_line("v_add_co_u32 v4, vcc_lo, s4, v3");
  rl_g12_line("v_add_co_ci_u32_e32 v5, vcc_lo, 0, v7, vcc_lo");
  rl_g12_line("global_load_b32 v6, v[4:5], off offset:0x40");
  rl_g12_line("s_wait_loadcnt 0x0");
  rl_g12_line("v_mov_b32_e32 v7, s7");
  rl_g12_line("v_add_co_u32 v4, vcc_lo, s6, v3");
  rl_g12_line("v_add_co_ci_u32_e32 v5, vcc_lo, 0, v7, vcc_lo");
  rl_g12_line("global_store_b32 v[4:5], v6, off offset:0x40");
  rl_g12_line("global_wb scope:SCOPE_DEV");
  rl_g12_line("s_wait_storecnt_dscnt 0x0");
  rl_g12_line("global_inv scope:SCOPE_DEV");
  rl_g12_line("s_wait_loadcnt_dscnt 0x0");
  rl_g12_line("s_wait_alu 0xfffd");
  rl_g12_line("s_endpgm");
  static rl_conf_program_t program;
  rl_g12_assemble(&program);
  rl_g12_run(&program);
  const uint32_t* out = (const uint32_t*)rl_conf_out(rl_g12_device);
  for (uint32_t r = 0; r < 3; ++r) assert_int_equal(out[r], in[6 + r]);
  for (uint32_t lane = 0; lane < 64; ++lane) {
    assert_int_equal(out[16 + lane], in[16 + lane]);
  }
}

#define RL_G12_SUB_CASES 24

static void test_sub_dword_scalar_loads(void** state) {
  (void)state;
  static const char* const names[4] = {"s_load_u8", "s_load_i8", "s_load_u16",
                                       "s_load_i16"};
  uint8_t* in = rl_conf_in(rl_g12_device);
  for (uint32_t i = 0; i < 256; ++i) in[i] = (uint8_t)rl_g12_next();
  in[5] = 0x80, in[6] = 0xff, in[7] = 0x7f;  // sign bits set and clear
  uint32_t kind[RL_G12_SUB_CASES], at[RL_G12_SUB_CASES];
  rl_g12_prologue();
  rl_g12_line("v_mov_b32_e32 v1, 0");
  for (uint32_t c = 0; c < RL_G12_SUB_CASES; ++c) {
    kind[c] = c % 4;
    uint32_t size = kind[c] < 2 ? 1 : 2;
    at[c] = c < 4 ? 5 + (c % 2) : (uint32_t)(rl_g12_next() % 240) & ~(size - 1);
    if (c < 4 && size == 2) at[c] = 6;
    uint32_t soff = c % 3 == 0 ? (uint32_t)(rl_g12_next() % 64) : 0;
    int32_t imm = (int32_t)at[c] - (int32_t)soff;
    if (soff) {
      rl_g12_line("s_mov_b32 s20, %u", soff);
      rl_g12_line("%s s%u, s[4:5], s20 offset:%d", names[kind[c]], 8 + c % 8,
                  imm);
    } else {
      rl_g12_line("%s s%u, s[4:5], 0x%x", names[kind[c]], 8 + c % 8, at[c]);
    }
    rl_g12_line("s_wait_kmcnt 0x0");
    rl_g12_line("v_mov_b32_e32 v2, s%u", 8 + c % 8);
    rl_g12_line("global_store_b32 v1, v2, s[6:7] offset:0x%x", c * 4);
  }
  rl_g12_line("s_endpgm");
  static rl_conf_program_t program;
  rl_g12_assemble(&program);
  rl_g12_run(&program);
  const uint32_t* out = (const uint32_t*)rl_conf_out(rl_g12_device);
  for (uint32_t c = 0; c < RL_G12_SUB_CASES; ++c) {
    uint32_t lo = in[at[c]], hi = in[at[c] + 1];
    uint32_t want;
    switch (kind[c]) {
      case 0: want = lo; break;
      case 1: want = (lo & 0x80) ? lo | 0xffffff00u : lo; break;
      case 2: want = lo | hi << 8; break;
      default: want = (hi & 0x80) ? (lo | hi << 8) | 0xffff0000u : lo | hi << 8;
    }
    if (out[c] != want) {
      fail_msg("%s at byte %u: 0x%08x, want 0x%08x", names[kind[c]], at[c],
               out[c], want);
    }
  }
}

// Two waves exchange through LDS: lane l writes l * 3 + 1 at LDS[l], then
// (after the split barrier when |barrier|) reads LDS[l ^ 32], the other
// wave's slot, and stores it at out[l].
static void rl_g12_exchange(bool barrier) {
  rl_g12_prologue();
  rl_g12_line("v_lshlrev_b32_e32 v1, 2, v0");
  rl_g12_line("v_mad_u32_u24 v2, v0, 3, 1");
  rl_g12_line("ds_store_b32 v1, v2");
  rl_g12_line("s_wait_dscnt 0x0");
  if (barrier) {
    rl_g12_line("s_barrier_signal -1");
    rl_g12_line("s_barrier_wait -1");
  }
  rl_g12_line("v_xor_b32_e32 v3, 0x80, v1");
  rl_g12_line("ds_load_b32 v4, v3");
  rl_g12_line("s_wait_dscnt 0x0");
  rl_g12_line("global_store_b32 v1, v4, s[6:7]");
  rl_g12_line("s_endpgm");
  static rl_conf_program_t program;
  rl_g12_assemble(&program);
  rl_conf_config_t config = rl_g12_config;
  config.lds_bytes = 256;
  char fault[512] = "";
  if (!rl_conf_run(rl_g12_device, &program, &config, fault, sizeof(fault))) {
    fail_msg("gfx1201 program faulted: %s", fault);
  }
}

static uint32_t rl_g12_exchange_errors(void) {
  const uint32_t* out = (const uint32_t*)rl_conf_out(rl_g12_device);
  uint32_t errors = 0;
  for (uint32_t lane = 0; lane < 64; ++lane) {
    if (out[lane] != (lane ^ 32) * 3 + 1) ++errors;
  }
  return errors;
}

static void test_split_barrier(void** state) {
  (void)state;
  rl_g12_exchange(true);
  assert_int_equal(rl_g12_exchange_errors(), 0);
  // Negative control: without s_barrier_wait wave 0 reads LDS before wave
  // 1 has written it.
  rl_g12_exchange(false);
  assert_true(rl_g12_exchange_errors() > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_salu64),
      cmocka_unit_test(test_pseudo_scalar_trans),
      cmocka_unit_test(test_memory_forms),
      cmocka_unit_test(test_sub_dword_scalar_loads),
      cmocka_unit_test(test_split_barrier),
  };
  return cmocka_run_group_tests(tests, rl_g12_setup, rl_g12_teardown);
}
