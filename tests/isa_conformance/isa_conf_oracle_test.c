// tests/isa_conformance/isa_conf_oracle_test.c — the oracle executor
// (sim/oracle/oracle.h) on hand-encoded programs run by the
// conformance harness: it checks what the isa executor computes, and its
// negative controls: a byte the "simulator" got wrong is caught and named,
// a work-group the simulator never ran is caught, a byte written outside
// the oracle's writes (either way) is caught, and an instruction the
// oracle does not model is reported as skipped, never as checked.
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sim/isa/isa_executor.h"
#include "sim/oracle/oracle.h"
#include "tests/isa_conformance/isa_conf_harness.h"

#define WORK_ITEMS 256u  // four work-groups of 64

// in[i] = float i, out[i] = in[i] + 1.0 through the VOP3 form of v_add_f32
// and a v_fma_f32, with global loads and stores at an SGPR base.
static void add_program(rl_conf_program_t* p, bool dpp) {
  p->count = 0;
  rl_conf_smem(p, 0x02, 4, 0, 0, RL_CONF_NULL);  // s_load_b128 s[4:7], s[0:1]
  rl_conf_sop2(p, 0x08, 10, 15, 128 + 6, false, 0);  // s_lshl_b32 s10, s15, 6
  rl_conf_vop2(p, 0x25, 0, 10, 0, false, 0);  // v_add_nc_u32 v0, s10, v0
  rl_conf_vop2(p, 0x0b, 250, RL_CONF_LITERAL, 0, true, 4);  // v250 = v0 * 4
  rl_conf_sopp(p, 0x09, 0);  // s_waitcnt 0
  rl_conf_flat(p, 2, 0x14, 1, 250, 0, 4, 0);  // global_load_b32 v1, v250, s[4:5]
  rl_conf_sopp(p, 0x09, 0);
  const uint32_t add[3] = {256 + 1, 242, 0};  // v1, 1.0
  rl_conf_vop3(p, 0x103, 2, 0, add, NULL, false, 0);  // v_add_f32_e64 v2
  const uint32_t fma[3] = {256 + 2, 240, 256 + 1};  // v2 * 0.5 + v1
  rl_conf_vop3(p, 0x213, 3, 0, fma, NULL, false, 0);  // v_fma_f32 v3
  if (dpp) {  // v_mov_b32_dpp v3, v3 quad_perm:[1,0,3,2]
    const rl_conf_dpp_t d = {.kind = 16, .ctrl = 0xb1, .row_mask = 0xf,
                             .bank_mask = 0xf};
    rl_conf_vop1(p, 0x01, 3, rl_conf_dpp_marker(&d), true,
                 rl_conf_dpp_word(&d, 3));
  }
  rl_conf_flat(p, 2, 0x1a, 0, 250, 2, 6, 0);  // global_store_b32 v250, v2, s[6:7]
  rl_conf_flat(p, 2, 0x1a, 0, 250, 3, 6, 1024);  // ... v3 at +1024
  rl_conf_sopp(p, 0x30, 0);  // s_endpgm
}

// The executor under test made wrong on purpose: after the isa executor
// ran a work-group, one byte of its first result is flipped (|flip|), or a
// work-group is not run at all (|drop|).
// |extra|: the first work-group also rewrites one byte of the input with
// the value it holds (a write outside the program's, its bytes unchanged).
// |early|: work-group 2 also computes work-group 3's results, where its
// own writes are no longer watched, and work-group 3 then writes nothing
// (the right bytes, written by the wrong work-group).
static struct {
  bool flip;
  bool drop;
  bool extra;
  bool early;
  uint64_t out;
  uint64_t in;
} faulty;

static rl_status_t faulty_begin(void* self, const rl_sim_dispatch_t* d,
                                void** out_state) {
  (void)self;
  const rl_sim_executor_t* isa = rl_isa_executor();
  return isa->begin(isa->self, d, out_state);
}

static rl_status_t faulty_run(void* self, void* state, rl_sim_wg_t* wg) {
  (void)self;
  const rl_sim_executor_t* isa = rl_isa_executor();
  if (faulty.drop && wg->group_id[0] == 3) return RL_OK;
  if (faulty.early && wg->group_id[0] == 3) return RL_OK;
  rl_status_t status = isa->run_workgroup(isa->self, state, wg);
  if (!status && faulty.early && wg->group_id[0] == 2) {
    rl_sim_wg_watch_writes(wg, NULL);
    rl_sim_wg_t next = *wg;
    next.group_id[0] = 3;
    return isa->run_workgroup(isa->self, state, &next);
  }
  if (!status && faulty.extra && wg->group_id[0] == 0) {
    uint8_t byte = 0;
    assert_true(rl_sim_wg_peek(wg, faulty.in + 5, &byte, 1));
    return rl_sim_wg_store(wg, faulty.in + 5, &byte, 1);
  }
  if (status || !faulty.flip) return status;
  uint64_t at = faulty.out + (uint64_t)wg->group_id[0] * 64 * 4 + 1;
  uint8_t byte = 0;
  assert_true(rl_sim_wg_peek(wg, at, &byte, 1));
  byte ^= 0x10;
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

// Runs the program under an oracle of |mode| around |inner| and returns
// its report.
static void run_under_oracle(const rl_sim_executor_t* inner,
                             rl_oracle_mode_t mode, bool dpp,
                             rl_oracle_report_t* out_report) {
  rl_conf_device_t* device = rl_conf_device_create();
  float* in = (float*)rl_conf_in(device);
  for (uint32_t i = 0; i < WORK_ITEMS; ++i) in[i] = (float)i * 0.25f;
  rl_oracle_t* oracle = NULL;
  assert_int_equal(rl_oracle_create(inner, mode, 7, &oracle), RL_OK);
  rl_conf_set_inner(rl_oracle_executor(oracle));
  static rl_conf_program_t program;
  add_program(&program, dpp);
  rl_conf_config_t config = {.lanes = WORK_ITEMS, .ieee = true,
                             .dx10_clamp = true};
  faulty.out = rl_conf_out_address(device);
  faulty.in = rl_conf_in_address(device);
  char fault[256] = "";
  bool ran = rl_conf_run(device, &program, &config, fault, sizeof(fault));
  rl_conf_set_inner(NULL);
  rl_oracle_report(oracle, out_report);
  char line[512];
  rl_oracle_report_format(out_report, line, sizeof(line));
  print_message("%s%s%s\n", line, out_report->mismatch ? ": " : "",
                out_report->mismatch ? out_report->mismatch_text : "");
  if (ran && !dpp && inner == rl_isa_executor()) {  // the program itself
    const float* out = (const float*)rl_conf_out(device);
    for (uint32_t i = 0; i < WORK_ITEMS; ++i) {
      assert_true(out[i] == (float)i * 0.25f + 1.0f);
    }
  }
  rl_oracle_destroy(oracle);
  rl_conf_device_destroy(device);
  assert_true(ran);
}

static void oracle_checks_every_workgroup_the_isa_executor_runs(void** state) {
  (void)state;
  rl_oracle_report_t r;
  run_under_oracle(rl_isa_executor(), RL_ORACLE_FULL, false, &r);
  assert_false(r.mismatch);
  assert_int_equal(r.dispatches, 1);
  assert_int_equal(r.dispatches_checked, 1);
  assert_int_equal(r.workgroups, 4);
  assert_int_equal(r.workgroups_checked, 4);
  assert_int_equal(r.workgroups_skipped, 0);
  assert_int_equal(r.bytes_compared, 2 * WORK_ITEMS * 4);
  assert_true(r.wave_instructions > 0);
}

static void oracle_samples_two_workgroups(void** state) {
  (void)state;
  rl_oracle_report_t r;
  run_under_oracle(rl_isa_executor(), RL_ORACLE_SAMPLE, false, &r);
  assert_false(r.mismatch);
  assert_true(r.workgroups_checked >= 1 && r.workgroups_checked <= 2);
  assert_int_equal(r.workgroups, 4);
}

// Negative control: an executor that gets one byte wrong fails the check,
// naming the address and both bytes.
static void oracle_catches_a_flipped_byte(void** state) {
  (void)state;
  faulty.flip = true;
  rl_oracle_report_t r;
  run_under_oracle(&faulty_executor, RL_ORACLE_FULL, false, &r);
  faulty.flip = false;
  assert_true(r.mismatch);
  assert_int_equal(r.mismatch_group[0], 0);
  assert_non_null(strstr(r.mismatch_text, "expected (oracle)"));
  assert_non_null(strstr(r.mismatch_text, "got (simulator)"));
  char line[512];
  rl_oracle_report_format(&r, line, sizeof(line));
  print_message("%s\n  caught: %s\n", line, r.mismatch_text);
}

// Negative control: the sampled last work-group was never computed (an
// executor that leaves part of the grid out) is a mismatch, not a pass.
static void oracle_catches_a_workgroup_never_run(void** state) {
  (void)state;
  faulty.drop = true;
  rl_oracle_report_t r;
  run_under_oracle(&faulty_executor, RL_ORACLE_SAMPLE, false, &r);
  faulty.drop = false;
  assert_true(r.mismatch);
  assert_int_equal(r.mismatch_group[0], 3);
  assert_non_null(strstr(r.mismatch_text, "got (simulator) cd cd cd cd"));
}

// Negative control: a byte the simulator wrote in a checked work-group that
// the oracle did not write fails the check, naming its address, even when
// its value did not change.
static void oracle_catches_a_write_outside_its_own(void** state) {
  (void)state;
  faulty.extra = true;
  rl_oracle_report_t r;
  run_under_oracle(&faulty_executor, RL_ORACLE_FULL, false, &r);
  faulty.extra = false;
  assert_true(r.mismatch);
  assert_int_equal(r.mismatch_group[0], 0);
  char want[128];
  snprintf(want, sizeof(want),
           "address 0x%" PRIx64 ": the simulator wrote 1 byte(s) there that "
           "the oracle did not write",
           faulty.in + 5);
  assert_string_equal(r.mismatch_text, want);
}

// Negative control: bytes the oracle wrote that the simulator did not
// write in that work-group fail, though memory holds the oracle's values.
static void oracle_catches_a_write_the_simulator_left_out(void** state) {
  (void)state;
  faulty.early = true;
  rl_oracle_report_t r;
  run_under_oracle(&faulty_executor, RL_ORACLE_FULL, false, &r);
  faulty.early = false;
  assert_true(r.mismatch);
  assert_int_equal(r.mismatch_group[0], 3);
  assert_non_null(strstr(r.mismatch_text, "the oracle wrote it, the "
                                          "simulator did not"));
  print_message("  caught: %s\n", r.mismatch_text);
}

// An instruction the oracle does not model (DPP) skips the work-group with
// the instruction's name: counted as skipped, never as checked.
static void oracle_skips_what_it_does_not_model(void** state) {
  (void)state;
  rl_oracle_report_t r;
  run_under_oracle(rl_isa_executor(), RL_ORACLE_FULL, true, &r);
  assert_false(r.mismatch);
  assert_int_equal(r.workgroups_checked, 0);
  assert_int_equal(r.workgroups_skipped, 4);
  assert_int_equal(r.dispatches_skipped, 1);
  assert_int_equal(r.reason_count, 1);
  assert_non_null(strstr(r.reasons[0].text, "v_mov_b32 with DPP"));
  char line[512];
  rl_oracle_report_format(&r, line, sizeof(line));
  assert_non_null(strstr(line, "skipped"));
  assert_non_null(strstr(line, "v_mov_b32"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(oracle_checks_every_workgroup_the_isa_executor_runs),
      cmocka_unit_test(oracle_samples_two_workgroups),
      cmocka_unit_test(oracle_catches_a_flipped_byte),
      cmocka_unit_test(oracle_catches_a_workgroup_never_run),
      cmocka_unit_test(oracle_catches_a_write_outside_its_own),
      cmocka_unit_test(oracle_catches_a_write_the_simulator_left_out),
      cmocka_unit_test(oracle_skips_what_it_does_not_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
