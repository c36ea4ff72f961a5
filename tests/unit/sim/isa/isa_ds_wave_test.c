// Tests of the DS whole-wave path (sim/isa/isa_mem.c, rl_isa_exec_ds):
// one bounds check for the wave, then fixed-size moves per element width.
// Every DS load and store form the gfx11 table has (b8 to b128, signed
// and unsigned, the two-address and stride64 forms) must leave the same
// registers, the same LDS bytes and the same status (message included) as
// the lane-by-lane reference (rl_isa_exec_ds_lanes), for EXEC all lanes,
// some lanes and one lane, on addresses that are random, unaligned,
// shared by several lanes (the highest storing lane wins), at the last
// byte of the segment, and with a lane past it (the first such lane
// faults after the earlier lanes' accesses). Loads into their own address
// row must see the old address. The 64- and 128-bit global loads, which
// share the four-lane transpose, are checked against memory.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/isa/isa_mem.h"
#include "tests/unit/sim/isa/isa_snippet.h"

// The segment the test gives the work-group (the snippet's LDS is larger,
// so an access past it stays inside the buffer and is compared too).
#define RL_DW_LDS 4096u
#define RL_DW_ROWS 24u

static uint32_t rl_dw_state = 0x9e3779b9u;
static uint32_t rl_dw_random(void) {
  rl_dw_state ^= rl_dw_state << 13;
  rl_dw_state ^= rl_dw_state >> 17;
  rl_dw_state ^= rl_dw_state << 5;
  return rl_dw_state;
}

static const char* const rl_dw_lines[] = {
    "ds_load_b32 v8, v0",
    "ds_load_b32 v8, v0 offset:20",
    "ds_load_u8 v8, v0 offset:3",
    "ds_load_i8 v8, v0",
    "ds_load_u16 v8, v0 offset:6",
    "ds_load_i16 v8, v0",
    "ds_load_b64 v[8:9], v0 offset:8",
    "ds_load_b96 v[8:10], v0",
    "ds_load_b128 v[8:11], v0 offset:16",
    "ds_load_b128 v[0:3], v0",  // into its own address row
    "ds_load_b64 v[0:1], v0",
    "ds_load_b32 v0, v0 offset:4",
    "ds_load_2addr_b32 v[8:9], v0 offset0:1 offset1:9",
    "ds_load_2addr_b32 v[0:1], v0 offset1:3",
    "ds_load_2addr_b64 v[8:11], v0 offset0:2 offset1:5",
    "ds_load_2addr_b64 v[0:3], v0 offset1:1",  // into its own address row
    "ds_load_2addr_stride64_b32 v[8:9], v0 offset0:1 offset1:2",
    "ds_load_2addr_stride64_b64 v[8:11], v0 offset1:1",
    "ds_store_b32 v0, v1",
    "ds_store_b32 v0, v1 offset:12",
    "ds_store_b8 v0, v1 offset:1",
    "ds_store_b16 v0, v2",
    "ds_store_b64 v0, v[2:3] offset:8",
    "ds_store_b96 v0, v[2:4]",
    "ds_store_b128 v0, v[4:7] offset:32",
    "ds_store_2addr_b32 v0, v1, v2 offset0:1 offset1:7",
    "ds_store_2addr_b64 v0, v[2:3], v[4:5] offset1:2",
    "ds_store_2addr_stride64_b32 v0, v1, v2 offset1:3",
    "ds_store_2addr_stride64_b64 v0, v[2:3], v[4:5] offset0:1",
};
#define RL_DW_LINES (sizeof(rl_dw_lines) / sizeof(rl_dw_lines[0]))

typedef struct rl_dw_state_s {
  uint32_t vgpr[RL_DW_ROWS][RL_ISA_LANES];
  uint8_t lds[RL_DW_LDS + 4096];
} rl_dw_state_t;

// Address patterns of v0.
enum {
  RL_DW_RANDOM,     // anywhere in the first half, unaligned
  RL_DW_SHARED,     // four addresses shared by all lanes
  RL_DW_LAST,       // one lane's element ends at the segment's end
  RL_DW_OUTSIDE,    // one lane's element ends one byte past it
  RL_DW_FAR,        // one lane far outside (past 4 GiB with the offset)
  RL_DW_PATTERNS,
};

static void rl_dw_fill(rl_isa_wave_t* wave, uint8_t* lds, uint32_t pattern,
                       uint32_t reach, uint32_t exec) {
  for (uint32_t i = 0; i < RL_DW_LDS + 4096; ++i) {
    lds[i] = (uint8_t)rl_dw_random();
  }
  uint32_t shared[4];
  for (uint32_t i = 0; i < 4; ++i) shared[i] = rl_dw_random() % 256u;
  for (uint32_t r = 0; r < RL_DW_ROWS; ++r) {
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      wave->vgpr[r][l] = rl_dw_random();
    }
  }
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t a = rl_dw_random() % (RL_DW_LDS / 2);
    if (pattern == RL_DW_SHARED) a = shared[l % 4];
    wave->vgpr[0][l] = a;
  }
  // The special lane: a middle active lane, so lanes before and after it
  // are active.
  uint32_t active = (uint32_t)__builtin_popcount(exec);
  uint32_t pick = active / 2, lane = 0;
  for (uint32_t rest = exec, i = 0; rest; rest &= rest - 1, ++i) {
    if (i == pick) lane = (uint32_t)__builtin_ctz(rest);
  }
  if (pattern == RL_DW_LAST) wave->vgpr[0][lane] = RL_DW_LDS - reach;
  if (pattern == RL_DW_OUTSIDE) wave->vgpr[0][lane] = RL_DW_LDS - reach + 1;
  if (pattern == RL_DW_FAR) wave->vgpr[0][lane] = 0xfffffff0u;
  wave->sgpr[RL_ISA_SRC_EXEC] = exec;
}

static void rl_dw_save(const rl_isa_wave_t* wave, const uint8_t* lds,
                       rl_dw_state_t* out) {
  memcpy(out->vgpr, wave->vgpr, sizeof(out->vgpr));
  memcpy(out->lds, lds, sizeof(out->lds));
}

static void rl_dw_restore(rl_isa_wave_t* wave, uint8_t* lds,
                          const rl_dw_state_t* in) {
  memcpy(wave->vgpr, in->vgpr, sizeof(in->vgpr));
  memcpy(lds, in->lds, sizeof(in->lds));
}

// Bytes past a lane's address an instruction touches.
static uint32_t rl_dw_reach(const rl_isa_inst_t* inst) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  const uint32_t kind = RL_ISA_MEM_KIND(arg);
  if (kind == RL_ISA_MEM_LOAD2 || kind == RL_ISA_MEM_STORE2) {
    uint32_t scale = size * ((arg & RL_ISA_MEM_STRIDE64) ? 64u : 1u);
    uint32_t high = inst->offset > inst->offset1 ? inst->offset : inst->offset1;
    return high * scale + size;
  }
  return (uint32_t)(inst->offset | (inst->offset1 << 8)) + size;
}

static void rl_dw_same_as_lanes(void** state) {
  (void)state;
  static const uint32_t execs[] = {RL_ISA_ALL_LANES, 0x5a5a0ff0u,
                                   0x7ffffffeu, 0x00010000u};
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  uint8_t* lds = rl_isa_snippet_lds(s);
  wave->group->lds_size = RL_DW_LDS;
  rl_isa_snippet_load(s, rl_dw_lines, RL_DW_LINES);
  rl_dw_state_t* before = malloc(sizeof(*before));
  rl_dw_state_t* fast = malloc(sizeof(*fast));
  rl_dw_state_t* lanes = malloc(sizeof(*lanes));
  assert_non_null(before);
  assert_non_null(fast);
  assert_non_null(lanes);
  uint32_t faults = 0;
  for (uint32_t i = 0; i < RL_DW_LINES; ++i) {
    const rl_isa_inst_t* inst = rl_isa_snippet_inst(s, i);
    assert_ptr_equal(inst->exec, rl_isa_exec_ds);
    for (uint32_t e = 0; e < sizeof(execs) / sizeof(execs[0]); ++e) {
      for (uint32_t p = 0; p < RL_DW_PATTERNS; ++p) {
        for (uint32_t round = 0; round < 3; ++round) {
          rl_dw_fill(wave, lds, p, rl_dw_reach(inst), execs[e]);
          rl_dw_save(wave, lds, before);
          rl_status_t got = inst->exec(wave, inst);
          rl_dw_save(wave, lds, fast);
          rl_dw_restore(wave, lds, before);
          rl_status_t want = rl_isa_exec_ds_lanes(wave, inst);
          rl_dw_save(wave, lds, lanes);
          bool expect_fault = p == RL_DW_OUTSIDE || p == RL_DW_FAR;
          if ((want != RL_OK) != expect_fault) {
            fail_msg("\"%s\" pattern %u: the reference %s", rl_dw_lines[i],
                     p, want != RL_OK ? "faulted" : "did not fault");
          }
          faults += want != RL_OK;
          if (rl_status_code(got) != rl_status_code(want) ||
              strcmp(rl_status_message(got), rl_status_message(want)) != 0) {
            fail_msg("\"%s\" EXEC 0x%08x pattern %u: status \"%s\", the "
                     "lane-by-lane path's \"%s\"",
                     rl_dw_lines[i], execs[e], p, rl_status_message(got),
                     rl_status_message(want));
          }
          rl_status_free(got);
          rl_status_free(want);
          if (memcmp(fast->vgpr, lanes->vgpr, sizeof(fast->vgpr)) != 0) {
            fail_msg("\"%s\" EXEC 0x%08x pattern %u: registers differ from "
                     "the lane-by-lane path's",
                     rl_dw_lines[i], execs[e], p);
          }
          if (memcmp(fast->lds, lanes->lds, sizeof(fast->lds)) != 0) {
            fail_msg("\"%s\" EXEC 0x%08x pattern %u: LDS differs from the "
                     "lane-by-lane path's",
                     rl_dw_lines[i], execs[e], p);
          }
        }
      }
    }
  }
  // Every line faulted under the two outside patterns (the check itself
  // can fail).
  assert_int_equal(faults, RL_DW_LINES * 4 * 2 * 3);
  free(before);
  free(fast);
  free(lanes);
  rl_isa_snippet_destroy(s);
}

// The loads give the bytes the test put in LDS (the reference itself is
// checked against the host for one form per kind).
static void rl_dw_values(void** state) {
  (void)state;
  static const char* const lines[] = {
      "ds_load_b128 v[8:11], v0 offset:16",
      "ds_load_2addr_b32 v[12:13], v0 offset0:1 offset1:9",
      "ds_load_i8 v14, v0 offset:3",
  };
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  uint8_t* lds = rl_isa_snippet_lds(s);
  wave->group->lds_size = RL_DW_LDS;
  rl_isa_snippet_load(s, lines, 3);
  for (uint32_t i = 0; i < RL_DW_LDS; ++i) lds[i] = (uint8_t)(i * 7u + 1u);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) wave->vgpr[0][l] = 100u * l + 1u;
  wave->sgpr[RL_ISA_SRC_EXEC] = RL_ISA_ALL_LANES;
  for (uint32_t i = 0; i < 3; ++i) {
    const rl_isa_inst_t* inst = rl_isa_snippet_inst(s, i);
    assert_int_equal(inst->exec(wave, inst), RL_OK);
  }
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t a = 100u * l + 1u, w;
    for (uint32_t d = 0; d < 4; ++d) {
      memcpy(&w, lds + a + 16 + 4 * d, 4);
      assert_int_equal(wave->vgpr[8 + d][l], w);
    }
    memcpy(&w, lds + a + 4, 4);
    assert_int_equal(wave->vgpr[12][l], w);
    memcpy(&w, lds + a + 36, 4);
    assert_int_equal(wave->vgpr[13][l], w);
    assert_int_equal(wave->vgpr[14][l], (uint32_t)(int32_t)(int8_t)lds[a + 3]);
  }
  rl_isa_snippet_destroy(s);
}

// 64- and 128-bit global loads, whose rows are filled four lanes at a time
// when every lane is active (rl_isa_mem_put_lanes): contiguous lanes (one
// run), a stride (the lanes gathered) and a partial EXEC (the lane loop)
// against the bytes in memory.
static void rl_dw_global_rows(void** state) {
  (void)state;
  static const char* const lines[] = {
      "global_load_b128 v[8:11], v0, s[0:1]",
      "global_load_b64 v[12:13], v0, s[0:1] offset:8",
  };
  static const uint32_t execs[] = {RL_ISA_ALL_LANES, 0x00ffff00u};
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  void* host = NULL;
  uint64_t device = rl_isa_snippet_alloc(s, 4096, &host);
  uint8_t* mem = host;
  rl_isa_snippet_load(s, lines, 2);
  for (uint32_t i = 0; i < 4096; ++i) mem[i] = (uint8_t)rl_dw_random();
  for (uint32_t stride = 16; stride <= 48; stride += 32) {
    for (uint32_t e = 0; e < 2; ++e) {
      for (uint32_t r = 8; r < 14; ++r) {
        for (uint32_t l = 0; l < RL_ISA_LANES; ++l) wave->vgpr[r][l] = 0xdeadu;
      }
      wave->sgpr[0] = (uint32_t)device;
      wave->sgpr[1] = (uint32_t)(device >> 32);
      for (uint32_t l = 0; l < RL_ISA_LANES; ++l) wave->vgpr[0][l] = stride * l;
      wave->sgpr[RL_ISA_SRC_EXEC] = execs[e];
      for (uint32_t i = 0; i < 2; ++i) {
        const rl_isa_inst_t* inst = rl_isa_snippet_inst(s, i);
        assert_int_equal(inst->exec(wave, inst), RL_OK);
      }
      for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
        bool on = (execs[e] >> l) & 1u;
        uint32_t w[6];
        memcpy(w, mem + stride * l, 16);
        memcpy(w + 4, mem + stride * l + 8, 8);
        for (uint32_t d = 0; d < 6; ++d) {
          if (wave->vgpr[8 + d][l] != (on ? w[d] : 0xdeadu)) {
            fail_msg("stride %u EXEC 0x%08x: lane %u row %u is 0x%08x, "
                     "memory 0x%08x",
                     stride, execs[e], l, 8 + d, wave->vgpr[8 + d][l], w[d]);
          }
        }
      }
    }
  }
  rl_isa_snippet_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_dw_same_as_lanes),
      cmocka_unit_test(rl_dw_values),
      cmocka_unit_test(rl_dw_global_rows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
