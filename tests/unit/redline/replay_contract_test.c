// Tests of the replay contract and admission (redline/replay_contract.c):
// every contract failure is RL_STATUS_CONTRACT naming what and where and
// poisons the replay; admission refusals and API misuse change nothing;
// REDLINE_ROUTE is honoured by the library.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "redline/device/device.h"
#include "redline/replay_internal.h"
#include "shadow/shadow.h"
#include "tests/unit/redline/replay_test_helpers.h"

typedef struct rl_fixture_s {
  rl_device_t* device;
  rl_capture_t* capture;
  rl_replay_t* replay;
} rl_fixture_t;

static int rl_setup(void** state) {
  rl_fixture_t* fixture = calloc(1, sizeof(*fixture));
  fixture->device = rl_test_open_sim("gfx1100", false, 0);
  rl_test_record(NULL, 7, &fixture->capture, NULL);
  assert_null(rl_replay_create(fixture->device, fixture->capture, NULL,
                               &fixture->replay));
  *state = fixture;
  return 0;
}

static int rl_teardown(void** state) {
  rl_fixture_t* fixture = *state;
  rl_replay_destroy(fixture->replay);
  rl_capture_destroy(fixture->capture);
  rl_device_close(fixture->device);
  free(fixture);
  unsetenv("REDLINE_ROUTE");
  return 0;
}

// A contract failure poisons: later calls fail with RL_STATUS_POISONED.
static void rl_expect_poisoned(rl_replay_t* replay) {
  assert_int_equal(rl_replay_state(replay), RL_REPLAY_POISONED);
  int64_t pos = 7;
  rl_test_expect(rl_replay_prepare(replay, RL_ROUTE_AQL), RL_STATUS_POISONED,
                 "poisoned");
  rl_test_expect(rl_replay_run(replay, &pos, 1), RL_STATUS_POISONED, NULL);
  rl_admission_t admission;
  assert_null(rl_replay_admit(replay, &pos, 1, &admission));
  assert_false(admission.admitted);
  assert_non_null(strstr(admission.reason, "poisoned"));
}

static void rl_contract_passes_for_vecchain(void** state) {
  rl_fixture_t* fixture = *state;
  assert_null(rl_replay_contract(fixture->replay));
  assert_int_equal(rl_replay_state(fixture->replay), RL_REPLAY_CONTRACTED);
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
  assert_int_equal(rl_replay_state(fixture->replay), RL_REPLAY_PREPARED);
}

static void rl_contract_rejects_other_isa(void** state) {
  rl_fixture_t* fixture = *state;
  rl_device_t* other = rl_test_open_sim("gfx1201", false, 0);
  rl_replay_t* replay = NULL;
  assert_null(rl_replay_create(other, fixture->capture, NULL, &replay));
  rl_test_expect(rl_replay_contract(replay), RL_STATUS_CONTRACT, "gfx1201");
  rl_expect_poisoned(replay);
  rl_route_proof_t proof;
  rl_replay_proof(replay, &proof);
  assert_non_null(strstr(proof.fallback_reason, "target"));
  rl_replay_destroy(replay);
  rl_device_close(other);
}

static void rl_contract_rejects_wrong_digest(void** state) {
  rl_fixture_t* fixture = *state;
  fixture->capture->code_objects[0].digest.low ^= 1;
  rl_test_expect(rl_replay_contract(fixture->replay), RL_STATUS_CONTRACT,
                 "code object 0: digest");
  rl_expect_poisoned(fixture->replay);
}

// On a simulated device running the `isa` executor, a launched kernel whose
// code holds an instruction the executor does not model is refused by the
// contract (exit status 4), naming the kernel, the LLVM mnemonic and the PC.
static void rl_contract_rejects_unmodelled_isa(void** state) {
  rl_fixture_t* fixture = *state;
  rl_device_options_t options = {.processor = "gfx1100", .executor = "isa"};
  rl_device_t* isa = NULL;
  assert_null(rl_device_open(&options, &isa));
  rl_replay_t* replay = NULL;
  assert_null(rl_replay_create(isa, fixture->capture, NULL, &replay));
  assert_null(rl_replay_contract(replay));  // control: vecchain is modelled
  rl_replay_destroy(replay);
  // vc_fill's s_waitcnt at +0x10 becomes v_sin_f32 v1, v2 (llvm-mc-19).
  rl_capture_code_object_t* code = &fixture->capture->code_objects[0];
  const rl_code_object_kernel_t* fill =
      rl_code_object_find_kernel(code->parsed, "vc_fill");
  assert_non_null(fill);
  const rl_code_object_segment_t* text = NULL;
  for (uint32_t i = 0; i < code->parsed->segment_count; ++i) {
    const rl_code_object_segment_t* s = &code->parsed->segments[i];
    if (fill->entry_address >= s->virtual_address &&
        fill->entry_address < s->virtual_address + s->file_size) {
      text = s;
    }
  }
  assert_non_null(text);
  const uint32_t sin = 0x7e026b02u;
  memcpy(code->bytes + text->file_offset +
             (fill->entry_address - text->virtual_address) + 0x10,
         &sin, 4);
  code->digest = rl_digest128_of(code->bytes, code->size);
  assert_null(rl_replay_create(isa, fixture->capture, NULL, &replay));
  rl_test_expect(rl_replay_contract(replay), RL_STATUS_CONTRACT,
                 "kernel vc_fill: v_sin_f32 (VOP1 opcode 0x35) at PC +0x10 "
                 "is not modelled");
  rl_expect_poisoned(replay);
  rl_replay_destroy(replay);
  rl_device_close(isa);
  // shadow refuses the same file with the same status (exit 4 for both):
  // its eager arm asks the device the contract's question before running
  // (redline/device/device_kernels.h); it used to fault in the run (6).
  rl_shadow_options_t shadow_options;
  memset(&shadow_options, 0, sizeof(shadow_options));
  assert_null(rl_shadow_arms_parse("eager,aql", shadow_options.arms,
                                   &shadow_options.arm_count));
  shadow_options.device.executor = "isa";
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(fixture->capture, &shadow_options, &result));
  assert_false(result->pass);
  assert_int_equal(rl_shadow_result_code(result), RL_STATUS_CONTRACT);
  assert_non_null(strstr(result->reason, "v_sin_f32"));
  rl_shadow_result_destroy(result);
}

static void rl_contract_rejects_small_workspace(void** state) {
  rl_fixture_t* fixture = *state;
  uint32_t partials = 0;
  assert_true(rl_capture_find_buffer(fixture->capture, "partials", &partials));
  rl_device_allocation_t small;
  assert_null(fixture->device->vtable->allocate(
      fixture->device, 128, 256, RL_MEMORY_KIND_DEVICE, &small));
  assert_null(rl_replay_bind_buffer(fixture->replay, partials, small.address,
                                    small.size));
  rl_test_expect(rl_replay_contract(fixture->replay), RL_STATUS_CONTRACT,
                 "buffer 5 'partials' (workspace): workspace capacity 128");
  rl_expect_poisoned(fixture->replay);
  assert_null(fixture->device->vtable->free(fixture->device, small.address));
}

static void rl_contract_rejects_misaligned_binding(void** state) {
  rl_fixture_t* fixture = *state;
  rl_device_allocation_t block;
  assert_null(fixture->device->vtable->allocate(
      fixture->device, 8192, 256, RL_MEMORY_KIND_DEVICE, &block));
  assert_null(rl_replay_bind_buffer(fixture->replay, 0, block.address + 4,
                                    4096));
  rl_test_expect(rl_replay_contract(fixture->replay), RL_STATUS_CONTRACT,
                 "not aligned");
  assert_null(fixture->device->vtable->free(fixture->device, block.address));
}

static void rl_contract_rejects_kernarg_size(void** state) {
  rl_fixture_t* fixture = *state;
  fixture->capture->launches[1].kernarg_size -= 4;
  rl_test_expect(rl_replay_contract(fixture->replay), RL_STATUS_CONTRACT,
                 "launch 1 (vc_scale): kernarg size 20, the loader metadata "
                 "says 24");
  fixture->capture->launches[1].kernarg_size += 4;
}

static void rl_contract_rejects_lds(void** state) {
  rl_fixture_t* fixture = *state;
  fixture->capture->launches[2].dynamic_lds = 70000;
  rl_test_expect(rl_replay_contract(fixture->replay), RL_STATUS_CONTRACT,
                 "launch 2 (vc_add): LDS");
}

// The metadata's argument |arg| of the kernel of launch |launch|, writable
// (the test edits the parsed code object to make a bad layout).
static rl_kernel_arg_t* rl_arg(rl_fixture_t* fixture, uint32_t launch,
                               uint32_t arg) {
  const rl_capture_t* capture = fixture->capture;
  const rl_code_object_kernel_t* info =
      capture->kernels[capture->launches[launch].kernel].info;
  return (rl_kernel_arg_t*)&info->args[arg];
}

// vc_scale's f32 0.5 (0x3f000000 at bytes 16..19): with the argument
// shrunk to 2 bytes, byte 19 lies outside every argument and is not zero.
static void rl_contract_rejects_nonzero_gap(void** state) {
  rl_fixture_t* fixture = *state;
  rl_arg(fixture, 1, 2)->size = 2;
  rl_test_expect(rl_replay_contract(fixture->replay), RL_STATUS_CONTRACT,
                 "launch 1 (vc_scale): kernarg byte 19 lies outside every "
                 "argument but holds 0x3f");
}

// vc_fill's n (1024 at byte 12) read as an implicit block count: the
// runtime would pass the grid's 16 work-groups.
static void rl_contract_rejects_wrong_implicit_argument(void** state) {
  rl_fixture_t* fixture = *state;
  rl_kernel_arg_t* arg = rl_arg(fixture, 0, 2);
  const char* value_kind = arg->value_kind;
  arg->kind = RL_ARG_KIND_HIDDEN;
  arg->value_kind = "hidden_block_count_x";
  rl_test_expect(rl_replay_contract(fixture->replay), RL_STATUS_CONTRACT,
                 "launch 0 (vc_fill): implicit argument hidden_block_count_x "
                 "at kernarg byte 12 holds 1024, the runtime would pass 16");
  arg->value_kind = value_kind;  // owned by the parsed code object
}

// An admitted range whose far end makes a u32 binding overflow.
static void rl_contract_rejects_unrepresentable_range(void** state) {
  rl_fixture_t* fixture = *state;
  fixture->capture->params[0].max = (int64_t)1 << 40;
  rl_test_expect(rl_replay_contract(fixture->replay), RL_STATUS_CONTRACT,
                 "does not fit 4 bytes");
}

// Out-of-range parameters are not admitted: a normal answer with a reason
// that poisons nothing.
static void rl_admission_refuses_out_of_range(void** state) {
  rl_fixture_t* fixture = *state;
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
  int64_t pos = 5000;
  rl_admission_t admission;
  assert_null(rl_replay_admit(fixture->replay, &pos, 1, &admission));
  assert_false(admission.admitted);
  assert_string_equal(admission.reason,
                      "pos=5000 outside the admitted range [1, 4096)");
  rl_test_expect(rl_replay_run(fixture->replay, &pos, 1), RL_STATUS_CONTRACT,
                 "not admitted: pos=5000");
  assert_int_equal(rl_replay_state(fixture->replay), RL_REPLAY_PREPARED);
  pos = 0;
  assert_null(rl_replay_admit(fixture->replay, &pos, 1, &admission));
  assert_false(admission.admitted);
  pos = 4095;
  assert_null(rl_replay_admit(fixture->replay, &pos, 1, &admission));
  assert_true(admission.admitted);
  assert_null(rl_replay_run(fixture->replay, &pos, 1));
  rl_replay_counters_t counters;
  rl_replay_counters(fixture->replay, &counters);
  assert_int_equal(counters.refused, 1);
  assert_int_equal(counters.runs, 1);
  assert_null(rl_replay_admit(fixture->replay, &pos, 0, &admission));
  assert_false(admission.admitted);
}

static void rl_api_misuse_changes_nothing(void** state) {
  rl_fixture_t* fixture = *state;
  int64_t pos = 7;
  rl_test_expect(rl_replay_run(fixture->replay, &pos, 1),
                 RL_STATUS_INVALID_ARGUMENT, "needs a prepared replay");
  rl_test_expect(rl_replay_bind_buffer(fixture->replay, 99, 0x1000, 16),
                 RL_STATUS_INVALID_ARGUMENT, NULL);
  rl_test_expect(rl_replay_prepare(fixture->replay, RL_ROUTE_NONE),
                 RL_STATUS_INVALID_ARGUMENT, "route aql, pm4 or drm");
  assert_int_equal(rl_replay_state(fixture->replay), RL_REPLAY_CAPTURED);
  uint8_t packet[64];
  rl_test_expect(rl_replay_stream_packet(fixture->replay, 0, packet),
                 RL_STATUS_INVALID_ARGUMENT, NULL);
  // Prepare contracts implicitly; binding afterwards is refused.
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
  rl_test_expect(rl_replay_bind_buffer(fixture->replay, 0, 0x1000, 4096),
                 RL_STATUS_INVALID_ARGUMENT, NULL);
  assert_null(rl_replay_run(fixture->replay, &pos, 1));
  assert_int_equal(rl_replay_state(fixture->replay), RL_REPLAY_REPLAYING);
}

static void rl_device_kinds(void** state) {
  (void)state;
  rl_device_t* device = NULL;
  // No GPU here: drm fails closed too (tests/drm.cmake tests it in depth).
  rl_device_options_t options = {
      .kind = "drm", .library = "/nonexistent/libdrm_amdgpu.so.1"};
  rl_test_expect(rl_device_open(&options, &device), RL_STATUS_UNAVAILABLE,
                 "device drm: libdrm_amdgpu not loaded");
  // No GPU here: rocr fails closed (tests/rocr.cmake tests it in depth).
  options.kind = "rocr";
  options.library = "/nonexistent/libhsa-runtime64.so.1";
  rl_test_expect(rl_device_open(&options, &device), RL_STATUS_UNAVAILABLE,
                 "device rocr");
  options.kind = "tpu";
  rl_test_expect(rl_device_open(&options, &device), RL_STATUS_INVALID_ARGUMENT,
                 NULL);
  assert_null(device);
  assert_null(rl_device_open(NULL, &device));
  assert_string_equal(rl_device_kind(device), "sim");
  assert_string_equal(rl_device_target(device), "amdgcn-amd-amdhsa--gfx1100");
  rl_device_close(device);
}

static void rl_route_off_is_not_admitted(void** state) {
  rl_fixture_t* fixture = *state;
  setenv("REDLINE_ROUTE", "off", 1);
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
  int64_t pos = 7;
  rl_admission_t admission;
  assert_null(rl_replay_admit(fixture->replay, &pos, 1, &admission));
  assert_false(admission.admitted);
  assert_string_equal(admission.reason, "REDLINE_ROUTE=off");
  rl_test_expect(rl_replay_run(fixture->replay, &pos, 1), RL_STATUS_CONTRACT,
                 "REDLINE_ROUTE=off");
  rl_route_proof_t proof;
  rl_replay_proof(fixture->replay, &proof);
  assert_string_equal(proof.fallback_reason, "REDLINE_ROUTE=off");
  assert_int_equal(proof.packets, 0);
  assert_int_not_equal(rl_replay_state(fixture->replay), RL_REPLAY_POISONED);
}

static void rl_route_aql_is_admitted(void** state) {
  rl_fixture_t* fixture = *state;
  setenv("REDLINE_ROUTE", "aql", 1);
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
  int64_t pos = 7;
  rl_admission_t admission;
  assert_null(rl_replay_admit(fixture->replay, &pos, 1, &admission));
  assert_true(admission.admitted);
  assert_null(rl_replay_run(fixture->replay, &pos, 1));
}

static void rl_route_pm4_excludes_aql(void** state) {
  rl_fixture_t* fixture = *state;
  setenv("REDLINE_ROUTE", "pm4", 1);
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
  int64_t pos = 7;
  rl_admission_t admission;
  assert_null(rl_replay_admit(fixture->replay, &pos, 1, &admission));
  assert_false(admission.admitted);
  assert_string_equal(admission.reason, "REDLINE_ROUTE=pm4 excludes route aql");
}

static void rl_route_bad_value_is_refused(void** state) {
  rl_fixture_t* fixture = *state;
  setenv("REDLINE_ROUTE", "fast", 1);
  rl_test_expect(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL),
                 RL_STATUS_INVALID_ARGUMENT, "REDLINE_ROUTE='fast'");
  assert_int_equal(rl_replay_state(fixture->replay), RL_REPLAY_CONTRACTED);
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define RL_TEST(name) cmocka_unit_test_setup_teardown(name, rl_setup, rl_teardown)
      RL_TEST(rl_contract_passes_for_vecchain),
      RL_TEST(rl_contract_rejects_other_isa),
      RL_TEST(rl_contract_rejects_wrong_digest),
      RL_TEST(rl_contract_rejects_unmodelled_isa),
      RL_TEST(rl_contract_rejects_small_workspace),
      RL_TEST(rl_contract_rejects_misaligned_binding),
      RL_TEST(rl_contract_rejects_kernarg_size),
      RL_TEST(rl_contract_rejects_lds),
      RL_TEST(rl_contract_rejects_nonzero_gap),
      RL_TEST(rl_contract_rejects_wrong_implicit_argument),
      RL_TEST(rl_contract_rejects_unrepresentable_range),
      RL_TEST(rl_admission_refuses_out_of_range),
      RL_TEST(rl_api_misuse_changes_nothing),
      RL_TEST(rl_device_kinds),
      RL_TEST(rl_route_off_is_not_admitted),
      RL_TEST(rl_route_aql_is_admitted),
      RL_TEST(rl_route_pm4_excludes_aql),
      RL_TEST(rl_route_bad_value_is_refused),
#undef RL_TEST
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
