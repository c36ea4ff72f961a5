// Tests of the PM4 family tables (pm4/pm4_family*.c): processor lookups,
// fail-closed on unknown processors, table invariants, and the gfx11/gfx12
// differences the tables must carry.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pm4/pm4_family.h"
#include "pm4/pm4_packet.h"

static const rl_pm4_family_t* rl_test_family(const char* processor) {
  const rl_pm4_family_t* family = NULL;
  rl_status_t status = rl_pm4_family_for_processor(processor, &family);
  if (status) fail_msg("%s: %s", processor, rl_status_message(status));
  assert_non_null(family);
  return family;
}

static void pm4_family_maps_each_processor_to_its_generation(void** state) {
  (void)state;
  static const char* const gfx11[] = {"gfx1100", "gfx1101", "gfx1102",
                                      "gfx1103", "gfx1150", "gfx1151",
                                      "gfx1152"};
  for (size_t i = 0; i < sizeof(gfx11) / sizeof(gfx11[0]); ++i) {
    const rl_pm4_family_t* f = rl_test_family(gfx11[i]);
    assert_string_equal(f->name, "gfx11");
    assert_int_equal(f->gfx_major, 11);
  }
  assert_int_equal(rl_test_family("gfx1200")->gfx_major, 12);
  assert_string_equal(rl_test_family("gfx1201")->name, "gfx12");
  assert_ptr_equal(rl_test_family("gfx1100"), rl_test_family("gfx1151"));
}

static void test_unknown_processor_fails_closed(void** state) {
  (void)state;
  static const char* const unknown[] = {"gfx1030", "gfx90a",  "gfx11000",
                                        "gfx1202", "GFX1100", "gfx1100:xnack-",
                                        ""};
  for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); ++i) {
    const rl_pm4_family_t* family = (const rl_pm4_family_t*)1;
    rl_status_t status = rl_pm4_family_for_processor(unknown[i], &family);
    assert_int_equal(rl_status_code(status), RL_STATUS_UNSUPPORTED);
    assert_null(family);
    char quoted[64];
    snprintf(quoted, sizeof(quoted), "'%s'", unknown[i]);
    assert_non_null(strstr(rl_status_message(status), quoted));
    rl_status_free(status);
  }
  const rl_pm4_family_t* family = NULL;
  rl_status_t status = rl_pm4_family_for_processor(NULL, &family);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
}

// Sorted, unique, inside the SH window; fields inside 32 bits and not
// overlapping; every register lowering uses resolves with its name.
static void rl_test_table_invariants(const rl_pm4_family_t* f) {
  for (uint32_t i = 0; i < f->register_count; ++i) {
    const rl_pm4_register_t* r = &f->registers[i];
    assert_true(r->index >= RL_PM4_SH_REG_BASE && r->index < RL_PM4_SH_REG_END);
    if (i) assert_true(f->registers[i - 1].index < r->index);
    assert_ptr_equal(rl_pm4_family_register(f, r->index), r);
    assert_ptr_equal(rl_pm4_family_register_named(f, r->name), r);
    uint64_t used = 0;
    for (uint32_t j = 0; j < r->field_count; ++j) {
      const rl_pm4_field_t* field = &r->fields[j];
      assert_true(field->width >= 1 && field->shift + field->width <= 32);
      uint64_t mask = ((1ull << field->width) - 1) << field->shift;
      if (used & mask) fail_msg("%s.%s overlaps", r->name, field->name);
      used |= mask;
    }
  }
  assert_null(rl_pm4_family_register(f, 0x2E1F));
  assert_null(rl_pm4_family_register(f, 0));
  const struct {
    uint32_t index;
    const char* name;
  } regs[] = {
      {f->regs.dispatch_initiator, "COMPUTE_DISPATCH_INITIATOR"},
      {f->regs.start_x, "COMPUTE_START_X"},
      {f->regs.start_x + 2, "COMPUTE_START_Z"},
      {f->regs.num_thread_x, "COMPUTE_NUM_THREAD_X"},
      {f->regs.num_thread_x + 2, "COMPUTE_NUM_THREAD_Z"},
      {f->regs.pgm_lo, "COMPUTE_PGM_LO"},
      {f->regs.pgm_lo + 1, "COMPUTE_PGM_HI"},
      {f->regs.pgm_rsrc1, "COMPUTE_PGM_RSRC1"},
      {f->regs.pgm_rsrc1 + 1, "COMPUTE_PGM_RSRC2"},
      {f->regs.pgm_rsrc3, "COMPUTE_PGM_RSRC3"},
      {f->regs.resource_limits, "COMPUTE_RESOURCE_LIMITS"},
      {f->regs.tmpring_size, "COMPUTE_TMPRING_SIZE"},
      {f->regs.restart_x, "COMPUTE_RESTART_X"},
      {f->regs.user_data_0, "COMPUTE_USER_DATA_0"},
      {f->regs.user_data_0 + f->user_data_count - 1, "COMPUTE_USER_DATA_15"},
      {f->regs.dispatch_pkt_addr_lo + 1, "COMPUTE_DISPATCH_PKT_ADDR_HI"},
      {f->regs.dispatch_scratch_base_lo + 1,
       "COMPUTE_DISPATCH_SCRATCH_BASE_HI"},
      {f->regs.user_accum_0 + 3, "COMPUTE_USER_ACCUM_3"},
      {f->regs.dispatch_interleave, "COMPUTE_DISPATCH_INTERLEAVE"},
      {0x2E14, "COMPUTE_VMID"},
      {0x2E1E, "COMPUTE_THREAD_TRACE_ENABLE"},
  };
  for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); ++i) {
    const rl_pm4_register_t* r = rl_pm4_family_register(f, regs[i].index);
    if (!r) fail_msg("%s: no register at 0x%04X", f->name, regs[i].index);
    assert_string_equal(r->name, regs[i].name);
  }
  for (uint32_t i = 0; i < f->regs.static_thread_mgmt_count; ++i) {
    char name[48];
    snprintf(name, sizeof(name), "COMPUTE_STATIC_THREAD_MGMT_SE%u", i);
    const rl_pm4_register_t* r =
        rl_pm4_family_register(f, f->regs.static_thread_mgmt[i]);
    assert_non_null(r);
    assert_string_equal(r->name, name);
  }
}

static void test_table_invariants(void** state) {
  (void)state;
  rl_test_table_invariants(rl_test_family("gfx1100"));
  rl_test_table_invariants(rl_test_family("gfx1201"));
}

static uint32_t rl_test_field(const rl_pm4_family_t* f, const char* reg,
                              const char* field, uint32_t value) {
  uint32_t out = 0xdead;
  const rl_pm4_register_t* r = rl_pm4_family_register_named(f, reg);
  assert_non_null(r);
  if (!rl_pm4_register_field(r, field, value, &out)) {
    fail_msg("%s: %s.%s missing", f->name, reg, field);
  }
  return out;
}

static bool rl_test_has_field(const rl_pm4_register_t* r, const char* field) {
  uint32_t out;
  return rl_pm4_register_field(r, field, 0, &out);
}

static void pm4_family_extracts_fields_and_refuses_unknown_ones(void** state) {
  (void)state;
  const rl_pm4_family_t* f = rl_test_family("gfx1100");
  // RSRC2 0x8C: USER_SGPR 6 (bits 5:1), TGID_X_EN (bit 7).
  assert_int_equal(rl_test_field(f, "COMPUTE_PGM_RSRC2", "USER_SGPR", 0x8C), 6);
  assert_int_equal(rl_test_field(f, "COMPUTE_PGM_RSRC2", "TGID_X_EN", 0x8C), 1);
  assert_int_equal(
      rl_test_field(f, "COMPUTE_PGM_RSRC2", "LDS_SIZE", 0x3u << 15), 3);
  assert_int_equal(rl_test_field(f, "COMPUTE_PGM_RSRC1", "PRIV", 1u << 20), 1);
  assert_int_equal(
      rl_test_field(f, "COMPUTE_PGM_RSRC1", "FWD_PROGRESS", 0x80000000u), 1);
  // Negative controls: an unknown field fails and clears the output.
  uint32_t out = 5;
  const rl_pm4_register_t* rsrc2 =
      rl_pm4_family_register_named(f, "COMPUTE_PGM_RSRC2");
  assert_false(rl_pm4_register_field(rsrc2, "NO_SUCH_FIELD", 0x8C, &out));
  assert_int_equal(out, 0);
  assert_null(rl_pm4_family_register_named(f, "COMPUTE_NOWHERE"));
}

// The gfx11/gfx12 differences read from the kernel's gc_11_0_0 and
// gc_12_0_0 headers and PAL's gfx12 GCR unions.
static void test_gfx11_gfx12_differences(void** state) {
  (void)state;
  const rl_pm4_family_t* g11 = rl_test_family("gfx1151");
  const rl_pm4_family_t* g12 = rl_test_family("gfx1201");
  // NUM_THREAD_X FULL: 16 bits on gfx11, 13 bits + INTERLEAVE_BITS_X on gfx12.
  assert_int_equal(
      rl_test_field(g11, "COMPUTE_NUM_THREAD_X", "NUM_THREAD_FULL", 0xE040),
      0xE040);
  assert_int_equal(
      rl_test_field(g12, "COMPUTE_NUM_THREAD_X", "NUM_THREAD_FULL", 0xE040),
      0x40);
  assert_int_equal(
      rl_test_field(g12, "COMPUTE_NUM_THREAD_Y", "INTERLEAVE_BITS_Y", 0xE040),
      7);
  assert_int_equal(
      rl_test_field(g12, "COMPUTE_NUM_THREAD_Z", "NUM_THREAD_FULL", 0xE040),
      0xE040);
  // RSRC1 bit 21: DX10_CLAMP on gfx11, WG_RR_EN on gfx12.
  const rl_pm4_register_t* r11 =
      rl_pm4_family_register_named(g11, "COMPUTE_PGM_RSRC1");
  const rl_pm4_register_t* r12 =
      rl_pm4_family_register_named(g12, "COMPUTE_PGM_RSRC1");
  assert_true(rl_test_has_field(r11, "DX10_CLAMP"));
  assert_false(rl_test_has_field(r11, "WG_RR_EN"));
  assert_true(rl_test_has_field(r12, "WG_RR_EN"));
  assert_false(rl_test_has_field(r12, "DX10_CLAMP"));
  // RSRC2 bit 6 TRAP_PRESENT vs DYNAMIC_VGPR; RSRC3 INST_PREF_SIZE 6 vs 8 bits.
  assert_int_equal(
      rl_test_field(g11, "COMPUTE_PGM_RSRC3", "INST_PREF_SIZE", 0xFF0u), 0x3F);
  assert_int_equal(
      rl_test_field(g12, "COMPUTE_PGM_RSRC3", "INST_PREF_SIZE", 0xFF0u), 0xFF);
  // TMPRING_SIZE.WAVESIZE 15 vs 18 bits.
  assert_int_equal(
      rl_test_field(g11, "COMPUTE_TMPRING_SIZE", "WAVESIZE", 0xFFFFF000u),
      0x7FFF);
  assert_int_equal(
      rl_test_field(g12, "COMPUTE_TMPRING_SIZE", "WAVESIZE", 0xFFFFF000u),
      0x3FFFF);
  // SE8 only on gfx12.
  assert_null(rl_pm4_family_register(g11, 0x2E23));
  assert_non_null(rl_pm4_family_register(g12, 0x2E23));
  assert_int_equal(g11->regs.static_thread_mgmt_count, 8);
  assert_int_equal(g12->regs.static_thread_mgmt_count, 9);
  // Capabilities.
  assert_true(g11->rsrc1_priv_for_pm4);
  assert_false(g12->rsrc1_priv_for_pm4);
  assert_true(g11->has_gl1);
  assert_false(g12->has_gl1);
  assert_int_equal(g11->gcr_acquire, 0x380);
  assert_int_equal(g12->gcr_acquire, 0x180);
  assert_int_equal(g11->gcr_acquire_entry, 0x4381);
  assert_int_equal(g12->gcr_acquire_entry, 0x4181);
  assert_int_equal(g11->release_gcr_writeback, 0x00603000u);
  assert_int_equal(g12->release_gcr_writeback, 0x00600000u);
  assert_int_equal(g11->user_data_count, 16);
  assert_int_equal(g12->user_data_count, 16);
  // The capability values agree with the family's own GCR tables.
  const rl_pm4_register_t* a11 = g11->acquire_gcr_cntl;
  const rl_pm4_register_t* a12 = g12->acquire_gcr_cntl;
  uint32_t v;
  assert_true(rl_pm4_register_field(a11, "GL1_INV", g11->gcr_acquire, &v) && v);
  assert_true(rl_pm4_register_field(a11, "GLK_INV", g11->gcr_acquire, &v) && v);
  assert_true(rl_pm4_register_field(a11, "GLV_INV", g11->gcr_acquire, &v) && v);
  assert_true(rl_pm4_register_field(a11, "GL2_INV", g11->gcr_acquire, &v) &&
              !v);
  assert_true(
      rl_pm4_register_field(a11, "GLI_INV", g11->gcr_acquire_entry, &v));
  assert_int_equal(v, 1);
  assert_false(rl_test_has_field(a12, "GL1_INV"));
  assert_false(rl_test_has_field(a12, "GLM_INV"));
  assert_true(
      rl_pm4_register_field(a12, "GL2_INV", g12->gcr_acquire_entry, &v) && v);
  const rl_pm4_register_t* rel11 = g11->release_gcr_cntl;
  const rl_pm4_register_t* rel12 = g12->release_gcr_cntl;
  uint32_t gcr11 =
      RL_PM4_GET(RELEASE_MEM, GCR_CNTL, g11->release_gcr_writeback);
  uint32_t gcr12 =
      RL_PM4_GET(RELEASE_MEM, GCR_CNTL, g12->release_gcr_writeback);
  assert_true(rl_pm4_register_field(rel11, "GL2_WB", gcr11, &v) && v);
  assert_true(rl_pm4_register_field(rel12, "GL2_WB", gcr12, &v) && v);
  assert_true(rl_pm4_register_field(rel11, "GL1_INV", gcr11, &v) && !v);
  assert_false(rl_test_has_field(rel12, "GL1_INV"));
  // Register indices lowering uses are the same in both families.
  assert_memory_equal(
      &g11->regs, &g12->regs,
      offsetof(rl_pm4_compute_regs_t, static_thread_mgmt_count));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pm4_family_maps_each_processor_to_its_generation),
      cmocka_unit_test(test_unknown_processor_fails_closed),
      cmocka_unit_test(test_table_invariants),
      cmocka_unit_test(pm4_family_extracts_fields_and_refuses_unknown_ones),
      cmocka_unit_test(test_gfx11_gfx12_differences),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
