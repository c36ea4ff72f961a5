// Tests of the atomic, lane-crossing and saturating integer operations
// (sim/isa/isa_atomic.c, isa_permute.c, isa_vop3.c, isa_vop.c):
// every instruction is assembled by llvm-mc-19 and run on one wave; the
// expected memory and registers come from a host model written here from
// the RDNA3 ISA guide's pseudo-code, with the lanes of an atomic applied
// in ascending lane order (the simulator's documented order) and several
// lanes hitting the same address so the order is visible.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/sim/isa/isa_snippet.h"

static uint32_t rl_at_state = 0x2545f491u;
static uint32_t rl_at_random(void) {
  rl_at_state ^= rl_at_state << 13;
  rl_at_state ^= rl_at_state >> 17;
  rl_at_state ^= rl_at_state << 5;
  return rl_at_state;
}

// Host model of one atomic: the new memory value from |old| and |data|.
typedef enum {
  OP_ADD, OP_SUB, OP_RSUB, OP_INC, OP_DEC, OP_MIN_I, OP_MAX_I, OP_MIN_U,
  OP_MAX_U, OP_AND, OP_OR, OP_XOR, OP_SWAP, OP_CMPSWAP, OP_CSUB
} rl_at_op_t;

static uint64_t rl_at_model(rl_at_op_t op, bool wide, uint64_t old,
                            uint64_t data, uint64_t cmp) {
  uint64_t m = wide ? ~0ull : 0xffffffffull;
  int64_t so = wide ? (int64_t)old : (int32_t)old;
  int64_t sd = wide ? (int64_t)data : (int32_t)data;
  switch (op) {
    case OP_ADD: return (old + data) & m;
    case OP_SUB: return (old - data) & m;
    case OP_RSUB: return (data - old) & m;
    case OP_INC: return old >= data ? 0 : old + 1;
    case OP_DEC: return old == 0 || old > data ? data : old - 1;
    case OP_MIN_I: return so <= sd ? old : data;
    case OP_MAX_I: return so >= sd ? old : data;
    case OP_MIN_U: return old <= data ? old : data;
    case OP_MAX_U: return old >= data ? old : data;
    case OP_AND: return old & data;
    case OP_OR: return old | data;
    case OP_XOR: return old ^ data;
    case OP_SWAP: return data;
    case OP_CMPSWAP: return old == cmp ? data : old;
    default: return old > data ? old - data : 0;
  }
}

typedef struct rl_at_case_s {
  const char* name;  // without the family prefix
  rl_at_op_t op;
  bool wide;
} rl_at_case_t;

static const rl_at_case_t rl_at_cases[] = {
    {"add_u32", OP_ADD, false},     {"sub_u32", OP_SUB, false},
    {"inc_u32", OP_INC, false},     {"dec_u32", OP_DEC, false},
    {"min_i32", OP_MIN_I, false},   {"max_i32", OP_MAX_I, false},
    {"min_u32", OP_MIN_U, false},   {"max_u32", OP_MAX_U, false},
    {"and_b32", OP_AND, false},     {"or_b32", OP_OR, false},
    {"xor_b32", OP_XOR, false},     {"swap_b32", OP_SWAP, false},
    {"cmpswap_b32", OP_CMPSWAP, false},
    {"add_u64", OP_ADD, true},      {"sub_u64", OP_SUB, true},
    {"inc_u64", OP_INC, true},      {"dec_u64", OP_DEC, true},
    {"min_i64", OP_MIN_I, true},    {"max_i64", OP_MAX_I, true},
    {"min_u64", OP_MIN_U, true},    {"max_u64", OP_MAX_U, true},
    {"and_b64", OP_AND, true},      {"or_b64", OP_OR, true},
    {"xor_b64", OP_XOR, true},      {"swap_b64", OP_SWAP, true},
    {"cmpswap_b64", OP_CMPSWAP, true},
};

// Small values so inc/dec, min/max and cmpswap take both branches.
static uint64_t rl_at_value(bool wide) {
  uint64_t v = rl_at_random() % 8;
  if (rl_at_random() % 4 == 0) v = -v;
  return wide ? v : (uint32_t)v;
}

// Fills the lanes' data (v2.., compare after it) and address offsets (v1:
// lane % 4 elements, so 8 lanes share each address).
static void rl_at_fill(rl_isa_wave_t* wave, bool wide, uint64_t* data,
                       uint64_t* cmp) {
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    data[l] = rl_at_value(wide);
    cmp[l] = rl_at_value(wide);
    wave->vgpr[1][l] = (l % 4) * (wide ? 8u : 4u);
    uint32_t dw = wide ? 2 : 1;
    wave->vgpr[2][l] = (uint32_t)data[l];
    wave->vgpr[2 + dw][l] = (uint32_t)cmp[l];
    if (wide) {
      wave->vgpr[3][l] = (uint32_t)(data[l] >> 32);
      wave->vgpr[5][l] = (uint32_t)(cmp[l] >> 32);
    }
    wave->vgpr[0][l] = wave->vgpr[6][l] = 0xdeadbeefu;
  }
}

// Applies the lanes of |exec| in ascending order to |memory| (4 elements);
// |returned| gets each lane's old value.
static void rl_at_apply(const rl_at_case_t* c, uint32_t exec,
                        uint64_t* memory, const uint64_t* data,
                        const uint64_t* cmp, uint64_t* returned) {
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    if (!((exec >> l) & 1)) continue;
    uint64_t* at = &memory[l % 4];
    returned[l] = *at;
    *at = rl_at_model(c->op, c->wide, *at, data[l], cmp[l]);
  }
}

// Each active lane's returned old value (v0, and v6 for the high half of
// a 64-bit one); inactive lanes keep the poison.
static void rl_at_check_returned(const rl_isa_wave_t* wave, bool wide,
                                 uint32_t exec, const uint64_t* returned,
                                 const char* line) {
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint64_t got = wave->vgpr[0][l];
    if (wide) got |= (uint64_t)wave->vgpr[6][l] << 32;
    uint64_t expected = ((exec >> l) & 1) ? returned[l]
                        : wide ? 0xdeadbeefdeadbeefull : 0xdeadbeefu;
    if (got != expected) {
      fail_msg("%s lane %u: returned 0x%llx, expected 0x%llx", line, l,
               (unsigned long long)got, (unsigned long long)expected);
    }
  }
}

// global_atomic_*: every case, returning (glc) and not, with EXEC holes.
static void
isa_global_atomics_match_host_with_and_without_return_under_exec_holes(
    void** state) {
  (void)state;
  for (size_t i = 0; i < sizeof(rl_at_cases) / sizeof(rl_at_cases[0]); ++i) {
    const rl_at_case_t* c = &rl_at_cases[i];
    for (int glc = 0; glc < 2; ++glc) {
      rl_isa_snippet_t* s = rl_isa_snippet_create(0);
      rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
      void* host = NULL;
      uint64_t base = rl_isa_snippet_alloc(s, 64, &host);
      wave->sgpr[0] = (uint32_t)base;
      wave->sgpr[1] = (uint32_t)(base >> 32);
      uint64_t memory[4], data[RL_ISA_LANES], cmp[RL_ISA_LANES];
      uint64_t returned[RL_ISA_LANES];
      for (int e = 0; e < 4; ++e) memory[e] = rl_at_value(c->wide);
      for (int e = 0; e < 4; ++e) {
        if (c->wide) memcpy((uint8_t*)host + 8 * e, &memory[e], 8);
        else memcpy((uint8_t*)host + 4 * e, &memory[e], 4);
      }
      rl_at_fill(wave, c->wide, data, cmp);
      uint32_t exec = 0xfffffffeu & ~(1u << 13);
      wave->sgpr[126] = exec;
      bool cmpswap = c->op == OP_CMPSWAP;
      const char* vdata = c->wide ? (cmpswap ? "v[2:5]" : "v[2:3]")
                                  : (cmpswap ? "v[2:3]" : "v2");
      // The 64-bit return goes to v[0:1]; move its high half to v6 after.
      char line[128];
      if (glc) {
        snprintf(line, sizeof(line), "global_atomic_%s %s, v1, %s, s[0:1] glc",
                 c->name, c->wide ? "v[0:1]" : "v0", vdata);
      } else {
        snprintf(line, sizeof(line), "global_atomic_%s v1, %s, s[0:1]", c->name,
                 vdata);
      }
      // v1 (the offset) is overwritten by a 64-bit return: keep a copy.
      const char* lines[] = {line, "v_mov_b32_e32 v6, v1"};
      rl_isa_snippet_exec(s, lines, c->wide && glc ? 2 : 1);
      rl_at_apply(c, exec, memory, data, cmp, returned);
      for (int e = 0; e < 4; ++e) {
        uint64_t got = 0;
        memcpy(&got, (uint8_t*)host + (c->wide ? 8 : 4) * e, c->wide ? 8 : 4);
        if (got != memory[e]) {
          fail_msg("%s: element %d is 0x%llx, expected 0x%llx", line, e,
                   (unsigned long long)got, (unsigned long long)memory[e]);
        }
      }
      if (glc) {
        rl_at_check_returned(wave, c->wide, exec, returned, line);
      } else {
        for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
          assert_int_equal(wave->vgpr[0][l], 0xdeadbeefu);  // no return
        }
      }
      rl_isa_snippet_destroy(s);
    }
  }
}

// ds_*: the same cases on LDS (ds_cmpstore: DATA0 new, DATA1 compare), with
// and without return, at a non-zero offset.
static void isa_ds_atomics_match_host_at_nonzero_offset_with_and_without_return(
    void** state) {
  (void)state;
  static const struct { const char* ds; int index; } names[] = {
      {"add_%s32", 0}, {"sub_%s32", 1}, {"inc_%s32", 2}, {"dec_%s32", 3},
      {"min_%si32", 4}, {"max_%si32", 5}, {"min_%su32", 6}, {"max_%su32", 7},
      {"and_%sb32", 8}, {"or_%sb32", 9}, {"xor_%sb32", 10},
      {"cmpstore_%sb32", 12}, {"add_%s64", 13}, {"max_%si64", 18},
      {"min_%su64", 19}, {"xor_%sb64", 23}, {"cmpstore_%sb64", 25}};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    const rl_at_case_t* c = &rl_at_cases[names[i].index];
    for (int rtn = 0; rtn < 2; ++rtn) {
      char op[48], line[128];
      // ds_add_u32 / ds_add_rtn_u32: the type letter follows "rtn_".
      const char* type = strrchr(c->name, '_') + 1;
      char prefix[24];
      snprintf(prefix, sizeof(prefix), "%.*s", (int)(type - c->name), c->name);
      snprintf(op, sizeof(op), "%s%s%s", prefix, rtn ? "rtn_" : "", type);
      bool cmpswap = c->op == OP_CMPSWAP;
      const char* d = c->wide ? "v[2:3]" : "v2";
      const char* x = c->wide ? "v[4:5]" : "v3";
      if (cmpswap) {
        snprintf(op, sizeof(op), "cmpstore_%s%s", rtn ? "rtn_" : "", type);
      }
      snprintf(line, sizeof(line), "ds_%s %s%sv1, %s%s%s offset:16", op,
               rtn ? (c->wide ? "v[0:1]" : "v0") : "", rtn ? ", " : "", d,
               cmpswap ? ", " : "", cmpswap ? x : "");
      rl_isa_snippet_t* s = rl_isa_snippet_create(0);
      rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
      uint8_t* lds = rl_isa_snippet_lds(s);
      uint64_t memory[4], data[RL_ISA_LANES], cmp[RL_ISA_LANES];
      uint64_t returned[RL_ISA_LANES];
      for (int e = 0; e < 4; ++e) {
        memory[e] = rl_at_value(c->wide);
        memcpy(lds + 16 + (c->wide ? 8 : 4) * e, &memory[e], c->wide ? 8 : 4);
      }
      rl_at_fill(wave, c->wide, data, cmp);
      if (!c->wide) {  // DS takes the compare in its own register (v3)
        for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
          wave->vgpr[3][l] = (uint32_t)cmp[l];
        }
      } else {
        for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
          wave->vgpr[4][l] = (uint32_t)cmp[l];
          wave->vgpr[5][l] = (uint32_t)(cmp[l] >> 32);
        }
      }
      uint32_t exec = 0x7fffffffu;
      wave->sgpr[126] = exec;
      const char* lines[] = {line, "v_mov_b32_e32 v6, v1"};
      rl_isa_snippet_exec(s, lines, c->wide && rtn ? 2 : 1);
      rl_at_apply(c, exec, memory, data, cmp, returned);
      for (int e = 0; e < 4; ++e) {
        uint64_t got = 0;
        memcpy(&got, lds + 16 + (c->wide ? 8 : 4) * e, c->wide ? 8 : 4);
        if (got != memory[e]) {
          fail_msg("%s: element %d is 0x%llx, expected 0x%llx", line, e,
                   (unsigned long long)got, (unsigned long long)memory[e]);
        }
      }
      if (rtn) rl_at_check_returned(wave, c->wide, exec, returned, line);
      rl_isa_snippet_destroy(s);
    }
  }
}

// ds_bpermute_b32 (pull) and ds_permute_b32 (push) against the guide's
// pseudo-code, with inactive lanes, offset and collisions.
static void
isa_ds_permute_and_bpermute_follow_guide_pseudocode_with_inactive_lanes(
    void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  for (int round = 0; round < 8; ++round) {
    uint32_t addr[RL_ISA_LANES], data[RL_ISA_LANES];
    uint32_t exec = rl_at_random() | 1u;
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      addr[l] = rl_at_random() % 256;
      data[l] = rl_at_random();
      wave->vgpr[1][l] = addr[l];
      wave->vgpr[2][l] = data[l];
      wave->vgpr[0][l] = wave->vgpr[3][l] = 0xdeadbeefu;
    }
    wave->sgpr[126] = exec;
    const char* lines[] = {"ds_bpermute_b32 v0, v1, v2 offset:4",
                           "ds_permute_b32 v3, v1, v2 offset:4"};
    rl_isa_snippet_exec(s, lines, 2);
    uint32_t pushed[RL_ISA_LANES] = {0};
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      if ((exec >> l) & 1) pushed[((addr[l] + 4) >> 2) & 31] = data[l];
    }
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      uint32_t src = ((addr[l] + 4) >> 2) & 31;
      uint32_t pulled = ((exec >> src) & 1) ? data[src] : 0;
      bool active = (exec >> l) & 1;
      assert_int_equal(wave->vgpr[0][l], active ? pulled : 0xdeadbeefu);
      assert_int_equal(wave->vgpr[3][l], active ? pushed[l] : 0xdeadbeefu);
    }
  }
  rl_isa_snippet_destroy(s);
}

// ds_swizzle_b32 in llvm-mc's swizzle() forms, each against the lane the
// LLVM AMDGPU operand syntax documents for it; an inactive source gives 0.
static void isa_ds_swizzle_macros_read_the_documented_lanes(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  const char* lines[] = {
      "ds_swizzle_b32 v10, v1 offset:swizzle(QUAD_PERM,3,0,2,1)",
      "ds_swizzle_b32 v11, v1 offset:swizzle(BITMASK_PERM,\"01pi0\")",
      "ds_swizzle_b32 v12, v1 offset:swizzle(SWAP,16)",
      "ds_swizzle_b32 v13, v1 offset:swizzle(REVERSE,8)",
      "ds_swizzle_b32 v14, v1 offset:swizzle(BROADCAST,8,5)",
  };
  for (int round = 0; round < 4; ++round) {
    uint32_t data[RL_ISA_LANES];
    uint32_t exec = round == 0 ? 0xffffffffu : rl_at_random() | 1u;
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      data[l] = wave->vgpr[1][l] = rl_at_random();
      for (uint32_t v = 10; v < 15; ++v) wave->vgpr[v][l] = 0xdeadbeefu;
    }
    wave->sgpr[126] = exec;
    rl_isa_snippet_exec(s, lines, 5);
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      static const uint32_t quad[4] = {3, 0, 2, 1};
      // "01pi0", most significant lane-id bit first: bit 4 forced to 0,
      // bit 3 to 1, bit 2 kept, bit 1 inverted, bit 0 forced to 0.
      uint32_t from[5] = {(l & ~3u) | quad[l & 3], ((l & 0x06) | 0x08) ^ 0x02,
                          l ^ 16, l ^ 7, (l & ~7u) | 5};
      for (uint32_t k = 0; k < 5; ++k) {
        uint32_t want = ((exec >> l) & 1) == 0 ? 0xdeadbeefu
                        : ((exec >> from[k]) & 1) ? data[from[k]] : 0;
        if (wave->vgpr[10 + k][l] != want) {
          fail_msg("%s lane %u: 0x%08x, want 0x%08x", lines[k], l,
                   wave->vgpr[10 + k][l], want);
        }
      }
    }
  }
  rl_isa_snippet_destroy(s);
}

// v_mbcnt_lo/hi (the lane id idiom), v_perm_b32, the saturating adds and
// the lane moves.
static uint32_t rl_at_perm_byte(uint64_t d, uint32_t sel) {
  if (sel >= 13) return 0xff;
  if (sel == 12) return 0;
  if (sel >= 8) {
    static const int sign_bit[4] = {15, 31, 47, 63};
    return ((d >> sign_bit[sel - 8]) & 1) ? 0xff : 0;
  }
  return (uint32_t)(d >> (8 * sel)) & 0xff;
}

static void test_lane_and_integer_ops(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  uint32_t a[RL_ISA_LANES], b[RL_ISA_LANES], c[RL_ISA_LANES];
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    a[l] = rl_at_random();
    b[l] = l & 1 ? 0x7fffffffu - (l % 5) : rl_at_random();
    c[l] = rl_at_random() % 16 | (rl_at_random() % 16) << 8 |
           (rl_at_random() % 16) << 16 | 0x0c000000u;
    wave->vgpr[1][l] = a[l];
    wave->vgpr[2][l] = b[l];
    wave->vgpr[3][l] = c[l];
  }
  wave->sgpr[4] = 0x5a5aa5a5u;
  const char* lines[] = {
      "v_mbcnt_lo_u32_b32 v10, s4, 7",
      "v_mbcnt_hi_u32_b32 v11, s4, v10",
      "v_perm_b32 v12, v1, v2, v3",
      "v_add_nc_u32_e64 v13, v1, v2 clamp",
      "v_sub_nc_u32_e64 v14, v1, v2 clamp",
      "v_add_nc_i32 v15, v1, v2 clamp",
      "v_sub_nc_i32 v16, v1, v2 clamp",
      "v_add_nc_i32 v17, v1, v2",
      "v_readlane_b32 s20, v1, 5",
      "v_readfirstlane_b32 s21, v2",
      "v_writelane_b32 v18, s4, 9",
  };
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) wave->vgpr[18][l] = 0;
  wave->sgpr[126] = 0xfffffff8u;  // lanes 0-2 inactive
  rl_isa_snippet_exec(s, lines, sizeof(lines) / sizeof(lines[0]));
  for (uint32_t l = 3; l < RL_ISA_LANES; ++l) {
    uint32_t below = (uint32_t)__builtin_popcount(0x5a5aa5a5u & ((1u << l) - 1));
    assert_int_equal(wave->vgpr[10][l], below + 7);
    assert_int_equal(wave->vgpr[11][l], below + 7);
    uint64_t d = (uint64_t)a[l] << 32 | b[l];
    uint32_t perm = 0;
    for (int i = 0; i < 4; ++i) {
      perm |= rl_at_perm_byte(d, (c[l] >> (8 * i)) & 0xff) << (8 * i);
    }
    assert_int_equal(wave->vgpr[12][l], perm);
    uint64_t usum = (uint64_t)a[l] + b[l];
    assert_int_equal(wave->vgpr[13][l], usum > 0xffffffffu ? 0xffffffffu : (uint32_t)usum);
    assert_int_equal(wave->vgpr[14][l], a[l] < b[l] ? 0u : a[l] - b[l]);
    int64_t ssum = (int64_t)(int32_t)a[l] + (int32_t)b[l];
    int64_t sdif = (int64_t)(int32_t)a[l] - (int32_t)b[l];
    assert_int_equal(wave->vgpr[15][l], (uint32_t)(ssum > INT32_MAX ? INT32_MAX : ssum < INT32_MIN ? INT32_MIN : ssum));
    assert_int_equal(wave->vgpr[16][l], (uint32_t)(sdif > INT32_MAX ? INT32_MAX : sdif < INT32_MIN ? INT32_MIN : sdif));
    assert_int_equal(wave->vgpr[17][l], (uint32_t)ssum);
    assert_int_equal(wave->vgpr[18][l], l == 9 ? 0x5a5aa5a5u : 0u);
  }
  assert_int_equal(wave->sgpr[20], a[5]);
  assert_int_equal(wave->sgpr[21], b[3]);  // the first active lane
  rl_isa_snippet_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(
          isa_global_atomics_match_host_with_and_without_return_under_exec_holes),
      cmocka_unit_test(
          isa_ds_atomics_match_host_at_nonzero_offset_with_and_without_return),
      cmocka_unit_test(
          isa_ds_permute_and_bpermute_follow_guide_pseudocode_with_inactive_lanes),
      cmocka_unit_test(isa_ds_swizzle_macros_read_the_documented_lanes),
      cmocka_unit_test(test_lane_and_integer_ops),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
