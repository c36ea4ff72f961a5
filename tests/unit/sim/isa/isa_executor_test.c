// Tests of the `isa` executor (sim/isa/isa_executor.h) on the
// simulated GPU:
//   - every registered workload (vecchain, decode) recorded through the
//     funnel on a device running `isa` and on one running `ref` leaves every
//     buffer bit-identical, for the gfx1100 (v5 and v4), gfx1151 and gfx1201 code
//     objects, and every kernel of those code objects that has a reference
//     implementation was run by the interpreter;
//   - negative controls: a dispatch whose kernarg pointer, entry address or
//     user SGPR layout is wrong gives a wrong result or a fault; the refusals
//     of begin() (an unmodelled processor, wave64, float modes, SGPR counts); an LDS access
//     outside the group segment faults; the descriptor's denormal mode
//     changes results; a cached program is rebuilt when the code changes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/ref/ref_executor.h"
#include "kernels/ref/ref_kernel.h"
#include "kernels/workloads/workload.h"
#include "redline/device/device_funnel.h"
#include "sim/isa/isa_executor.h"
#include "sim/sim.h"
#include "tests/support/test_support.h"
#include "tests/unit/sim/sim_test_util.h"

// ---------------------------------------------------------------------------
// A wrapper executor around `isa`: records the kernels it ran and applies a
// mutation to the dispatch before isa's begin() sees it.

typedef struct rl_it_mutation_s {
  int64_t kernarg_delta;
  int64_t entry_delta;
  const uint32_t* user_sgprs;
  uint32_t user_sgpr_count;
  const char* processor;  // replaces the processor when set
  bool null_processor;
  bool wave64;
  int denorm_mode_32;  // -1: unchanged
  int round_mode_32;   // -1: unchanged
  uint32_t group_segment_size;  // 0: unchanged
} rl_it_mutation_t;

static rl_it_mutation_t rl_it_mutation;
static char rl_it_ran[64][64];
static uint32_t rl_it_ran_count;

static void rl_it_reset(void) {
  memset(&rl_it_mutation, 0, sizeof(rl_it_mutation));
  rl_it_mutation.denorm_mode_32 = -1;
  rl_it_mutation.round_mode_32 = -1;
}

static void rl_it_note(const char* name) {
  for (uint32_t i = 0; i < rl_it_ran_count; ++i) {
    if (strcmp(rl_it_ran[i], name) == 0) return;
  }
  if (rl_it_ran_count < 64) {
    snprintf(rl_it_ran[rl_it_ran_count++], sizeof(rl_it_ran[0]), "%s", name);
  }
}

static rl_status_t rl_it_begin(void* self, const rl_sim_dispatch_t* dispatch,
                               void** out_state) {
  (void)self;
  const rl_it_mutation_t* m = &rl_it_mutation;
  rl_sim_dispatch_t copy = *dispatch;
  rl_code_object_kernel_t kernel = *dispatch->kernel;
  copy.kernel = &kernel;
  copy.kernarg_address += (uint64_t)m->kernarg_delta;
  copy.entry_address += (uint64_t)m->entry_delta;
  if (m->user_sgprs) {
    copy.user_sgprs = m->user_sgprs;
    copy.user_sgpr_count = m->user_sgpr_count;
  }
  if (m->processor) copy.processor = m->processor;
  if (m->null_processor) copy.processor = NULL;
  if (m->wave64) kernel.descriptor_info.enable_wavefront_size32 = false;
  if (m->denorm_mode_32 >= 0) {
    kernel.descriptor_info.float_denorm_mode_32 = (uint32_t)m->denorm_mode_32;
  }
  if (m->round_mode_32 >= 0) {
    kernel.descriptor_info.float_round_mode_32 = (uint32_t)m->round_mode_32;
  }
  if (m->group_segment_size) copy.group_segment_size = m->group_segment_size;
  rl_it_note(dispatch->kernel->name);
  const rl_sim_executor_t* isa = rl_isa_executor();
  return isa->begin(isa->self, &copy, out_state);
}

static rl_status_t rl_it_run(void* self, void* state, rl_sim_wg_t* wg) {
  (void)self;
  const rl_sim_executor_t* isa = rl_isa_executor();
  return isa->run_workgroup(isa->self, state, wg);
}

static void rl_it_end(void* self, void* state) {
  (void)self;
  const rl_sim_executor_t* isa = rl_isa_executor();
  isa->end(isa->self, state);
}

static const rl_sim_executor_t rl_it_executor = {
    "isa-test", NULL, rl_it_begin, rl_it_run, rl_it_end, NULL, false, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL};

static void rl_it_ok(rl_status_t status) {
  if (status == RL_OK) return;
  char message[1024];
  snprintf(message, sizeof(message), "%s", rl_status_message(status));
  rl_status_free(status);
  fail_msg("%s", message);
}

// ---------------------------------------------------------------------------
// Workloads: isa against ref, buffer by buffer.

typedef struct rl_it_run_s {
  rl_device_t* device;
  rl_funnel_device_t funnel_device;
  rl_funnel_t* funnel;
} rl_it_run_t;

// Host threads per dispatch and cache model of the next rl_it_record (0
// and OFF: the defaults).
static uint32_t rl_it_threads;
static rl_sim_cache_mode_t rl_it_cache;

static void rl_it_record(const rl_workload_t* workload, const char* processor,
                         const void* bytes, size_t size,
                         const rl_sim_executor_t* executor, rl_it_run_t* run) {
  rl_sim_options_t options = {.processor = processor,
                              .hazards = RL_SIM_HAZARDS_SEQUENTIAL,
                              .executor = executor,
                              .cache_model = rl_it_cache,
                              .threads = rl_it_threads};
  rl_it_ok(rl_sim_device_create(&options, &run->device));
  // A comparison, not a timing: sanitizer builds interpret the machine code
  // many times slower than the default 10 s bound of a launch allows.
  rl_it_ok(rl_device_funnel_create_bounded(run->device, 600ull * 1000000000ull,
                                           &run->funnel_device));
  rl_it_ok(rl_funnel_create(workload->name, &run->funnel_device, &run->funnel));
  // Small shapes that still run every kernel: two layers of a layered
  // workload (more repeat them), and verify at the demo's 1,024-row context
  // (tools/demo_verify.c) instead of 8,704 rows.
  static const rl_workload_param_value_t two_layers[] = {{"layers", 2}};
  static const rl_workload_param_value_t verify_config[] = {
      {"layers", 2}, {"max_context", 1024}, {"crossover", 256}};
  static const rl_workload_param_value_t verify_params[] = {{"pos", 816}};
  bool layered = false;
  for (uint32_t c = 0; c < workload->config_count; ++c) {
    layered |= strcmp(workload->config[c].name, "layers") == 0;
  }
  const bool verify = strcmp(workload->name, "verify") == 0;
  rl_workload_options_t workload_options = {
      .code_object = bytes, .code_object_size = size, .seed = 7,
      .config = verify ? verify_config : layered ? two_layers : NULL,
      .config_count = verify ? 3u : layered ? 1u : 0u,
      .params = verify ? verify_params : NULL,
      .param_count = verify ? 1u : 0u};
  rl_it_ok(workload->record(run->funnel, &workload_options));
}

static void rl_it_close(rl_it_run_t* run) {
  rl_funnel_destroy(run->funnel);
  rl_funnel_device_destroy(&run->funnel_device);
  run->device->vtable->destroy(run->device);
}

static void rl_it_compare_buffers(const char* what, rl_it_run_t* ref,
                                  rl_it_run_t* isa) {
  const rl_capture_t* capture = rl_funnel_capture(ref->funnel);
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    uint64_t size = capture->buffers[b].size;
    uint8_t* want = malloc(size);
    uint8_t* got = malloc(size);
    assert_true(want && got);
    rl_it_ok(rl_funnel_read(ref->funnel, b, 0, want, size));
    rl_it_ok(rl_funnel_read(isa->funnel, b, 0, got, size));
    for (uint64_t i = 0; i < size; ++i) {
      if (want[i] != got[i]) {
        fail_msg("%s: buffer %s differs at byte %llu: isa 0x%02x, ref 0x%02x",
                 what, capture->buffers[b].name, (unsigned long long)i,
                 got[i], want[i]);
      }
    }
    free(want);
    free(got);
  }
}

// Every kernel of |code_object| with a reference implementation ran.
static void rl_it_expect_coverage(const char* path) {
  size_t size = 0;
  void* bytes = rl_test_read_file(path, &size);
  rl_code_object_t* object = NULL;
  rl_it_ok(rl_code_object_parse(bytes, size, &object));
  const rl_ref_kernel_t* tables[] = {rl_ref_vecchain_kernels,
                                     rl_ref_decode_kernels};
  const uint32_t counts[] = {rl_ref_vecchain_kernel_count,
                             rl_ref_decode_kernel_count};
  for (uint32_t k = 0; k < object->kernel_count; ++k) {
    const char* name = object->kernels[k].name;
    bool has_ref = false, ran = false;
    for (uint32_t t = 0; t < 2; ++t) {
      for (uint32_t i = 0; i < counts[t]; ++i) {
        if (strcmp(tables[t][i].name, name) == 0) has_ref = true;
      }
    }
    for (uint32_t i = 0; i < rl_it_ran_count; ++i) {
      if (strcmp(rl_it_ran[i], name) == 0) ran = true;
    }
    if (has_ref && !ran) fail_msg("%s: kernel %s never ran on isa", path, name);
  }
  rl_code_object_destroy(object);
  free(bytes);
}

static void test_workloads_match_ref(void** state) {
  (void)state;
  static const struct {
    const char* processor;
    const char* suffix;
  } targets[] = {{"gfx1100", "gfx1100"}, {"gfx1100", "gfx1100-v4"},
                 {"gfx1151", "gfx1151"}, {"gfx1201", "gfx1201"}};
  uint64_t before = rl_isa_executor_instructions();
  for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); ++t) {
    for (uint32_t w = 0; w < rl_workload_count(); ++w) {
      const rl_workload_t* workload = rl_workload_at(w);
      char path[1024], what[256];
      snprintf(path, sizeof(path), "%s/%s-%s.co", RL_KERNELS_DIR,
               workload->code_object, targets[t].suffix);
      snprintf(what, sizeof(what), "%s on %s", workload->name,
               targets[t].suffix);
      size_t size = 0;
      void* bytes = rl_test_read_file(path, &size);
      rl_it_reset();
      rl_it_ran_count = 0;
      rl_it_run_t ref, isa;
      rl_it_record(workload, targets[t].processor, bytes, size,
                   rl_ref_executor(), &ref);
      rl_it_record(workload, targets[t].processor, bytes, size,
                   &rl_it_executor, &isa);
      rl_it_compare_buffers(what, &ref, &isa);
      rl_it_expect_coverage(path);
      print_message("%s: %u kernels, every buffer bit-identical to ref\n",
                    what, rl_it_ran_count);
      rl_it_close(&isa);
      rl_it_close(&ref);
      free(bytes);
    }
  }
  assert_true(rl_isa_executor_instructions() > before);
}

// Every workload on the real ISA executor with the cache model in report
// mode, its work-groups on 1 and on 4 host threads (docs/cache-model.md,
// "Work-groups in parallel"): every buffer byte-identical and the same
// findings in the same order. Labelled threaded, so the TSan stage runs the
// worker threads.
static void test_workloads_threads_agree(void** state) {
  (void)state;
  for (uint32_t w = 0; w < rl_workload_count(); ++w) {
    const rl_workload_t* workload = rl_workload_at(w);
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s-gfx1100.co", RL_KERNELS_DIR,
             workload->code_object);
    size_t size = 0;
    void* bytes = rl_test_read_file(path, &size);
    rl_it_run_t one, four;
    rl_it_cache = RL_SIM_CACHE_REPORT;
    rl_it_threads = 1;
    rl_it_record(workload, "gfx1100", bytes, size, rl_isa_executor(), &one);
    rl_it_threads = 4;
    rl_it_record(workload, "gfx1100", bytes, size, rl_isa_executor(), &four);
    rl_it_threads = 0;
    rl_it_cache = RL_SIM_CACHE_OFF;
    rl_it_compare_buffers(workload->name, &one, &four);
    uint32_t total = rl_sim_hazards(one.device, NULL, 0);
    assert_int_equal(rl_sim_hazards(four.device, NULL, 0), total);
    uint32_t kept = total < 1024u ? total : 1024u;
    rl_sim_hazard_t* a = calloc(kept + 1, sizeof(*a));
    rl_sim_hazard_t* b = calloc(kept + 1, sizeof(*b));
    assert_true(a && b);
    rl_sim_hazards(one.device, a, kept);
    rl_sim_hazards(four.device, b, kept);
    for (uint32_t i = 0; i < kept; ++i) {
      assert_int_equal(a[i].kind, b[i].kind);
      assert_int_equal(a[i].ordering, b[i].ordering);
      assert_int_equal(a[i].earlier_dispatch, b[i].earlier_dispatch);
      assert_int_equal(a[i].later_dispatch, b[i].later_dispatch);
      assert_int_equal(a[i].address, b[i].address);
      assert_int_equal(a[i].end, b[i].end);
      assert_int_equal(a[i].size, b[i].size);
    }
    print_message("%s: every buffer and %u findings the same on 1 and 4 "
                  "threads\n", workload->name, total);
    free(a);
    free(b);
    rl_it_close(&four);
    rl_it_close(&one);
    free(bytes);
  }
}

// ---------------------------------------------------------------------------
// Single dispatches of vc_fill on the fixture (vecchain-gfx1100.co).

enum { RL_IT_N = 100 };  // two work-groups of 64, the second partial
#define RL_IT_POISON 0xcdcdcdcdu

typedef struct rl_it_fill_s {
  bool completed;
  rl_device_fault_t fault;
  uint32_t out[128];
} rl_it_fill_t;

static rl_it_fill_t rl_it_fill(rl_sim_fixture_t* fixture, float value) {
  rl_it_fill_t result = {0};
  rl_device_allocation_t out = rl_sim_fixture_alloc(fixture, sizeof(result.out));
  memset(out.host, 0xcd, sizeof(result.out));
  uint64_t args = rl_sim_fixture_fill_args(fixture, out.address, value,
                                           RL_IT_N);
  uint64_t signal = rl_sim_fixture_signal(fixture, 1);
  rl_aql_dispatch_packet_t packet = rl_test_dispatch(
      rl_sim_fixture_kernel(fixture, "vc_fill"), args, 128, signal, true);
  rl_test_submit(fixture, &packet);
  result.completed = rl_test_wait(fixture, signal, RL_TEST_WAIT_NS / 20);
  fixture->device->vtable->queue_fault(fixture->device, &fixture->queue,
                                       &result.fault);
  memcpy(result.out, out.host, sizeof(result.out));
  return result;
}

static bool rl_it_fill_correct(const rl_it_fill_t* fill, float value) {
  uint32_t bits = 0;
  memcpy(&bits, &value, 4);
  for (uint32_t i = 0; i < 128; ++i) {
    if (fill->out[i] != (i < RL_IT_N ? bits : RL_IT_POISON)) return false;
  }
  return fill->completed;
}

static int rl_it_setup(void** state) {
  rl_sim_fixture_t* fixture = calloc(1, sizeof(*fixture));
  rl_sim_options_t options = {.processor = "gfx1100",
                              .executor = &rl_it_executor};
  rl_sim_fixture_setup(fixture, &options, 16);
  rl_it_reset();
  *state = fixture;
  return 0;
}

static int rl_it_teardown(void** state) {
  rl_sim_fixture_t* fixture = *state;
  rl_sim_fixture_teardown(fixture);
  free(fixture);
  rl_it_reset();
  return 0;
}

// The control: the unaltered dispatch is correct, also through verbatim
// user SGPRs (the PM4 path) when they hold the kernarg pointer.
static void test_fill_control_and_verbatim_sgprs(void** state) {
  rl_sim_fixture_t* fixture = *state;
  rl_it_fill_t fill = rl_it_fill(fixture, 2.5f);
  assert_true(rl_it_fill_correct(&fill, 2.5f));
  // vc_fill enables the kernarg segment ptr only (USER_SGPR 2): what
  // COMPUTE_USER_DATA_0/1 would hold for a PM4 dispatch.
  static uint32_t sgprs[2];
  rl_it_mutation.user_sgprs = sgprs;
  rl_it_mutation.user_sgpr_count = 2;
  rl_device_allocation_t out = rl_sim_fixture_alloc(fixture, 512);
  memset(out.host, 0xcd, 512);
  uint64_t args = rl_sim_fixture_fill_args(fixture, out.address, 4.0f, RL_IT_N);
  sgprs[0] = (uint32_t)args;
  sgprs[1] = (uint32_t)(args >> 32);
  uint64_t signal = rl_sim_fixture_signal(fixture, 1);
  rl_aql_dispatch_packet_t packet = rl_test_dispatch(
      rl_sim_fixture_kernel(fixture, "vc_fill"), args, 128, signal, true);
  rl_test_submit(fixture, &packet);
  assert_true(rl_test_wait(fixture, signal, RL_TEST_WAIT_NS));
  float got[RL_IT_N];
  memcpy(got, out.host, sizeof(got));
  for (uint32_t i = 0; i < RL_IT_N; ++i) assert_true(got[i] == 4.0f);
}

// Negative control: kernarg pointer off by 8 — the kernel reads its output
// pointer from (value, n): an unmapped address, so a VM fault.
static void test_kernarg_off_by_8_is_caught(void** state) {
  rl_sim_fixture_t* fixture = *state;
  rl_it_mutation.kernarg_delta = 8;
  rl_it_fill_t fill = rl_it_fill(fixture, 2.5f);
  assert_false(rl_it_fill_correct(&fill, 2.5f));
  assert_true(fill.fault.faulted);
  print_message("kernarg + 8: %s\n", fill.fault.message);
}

// Negative control: entry shifted by 4 lands inside s_load_b64's second
// dword (0xf8000008, an EXP encoding): a decode fault naming it.
static void test_entry_plus_4_is_caught(void** state) {
  rl_sim_fixture_t* fixture = *state;
  rl_it_mutation.entry_delta = 4;
  rl_it_fill_t fill = rl_it_fill(fixture, 2.5f);
  assert_false(rl_it_fill_correct(&fill, 2.5f));
  assert_true(fill.fault.faulted);
  assert_non_null(strstr(fill.fault.message, "EXP"));
  assert_non_null(strstr(fill.fault.message, "PC +0x0"));
  print_message("entry + 4: %s\n", fill.fault.message);
}

// Negative control: user SGPRs in the wrong layout (the kernarg pointer's
// halves swapped) fault; a wrong count is refused.
static void test_wrong_sgpr_layout_is_caught(void** state) {
  rl_sim_fixture_t* fixture = *state;
  static uint32_t swapped[2];
  rl_device_allocation_t probe = rl_sim_fixture_alloc(fixture, 16);
  swapped[0] = (uint32_t)(probe.address >> 32);
  swapped[1] = (uint32_t)probe.address;
  rl_it_mutation.user_sgprs = swapped;
  rl_it_mutation.user_sgpr_count = 2;
  rl_it_fill_t fill = rl_it_fill(fixture, 2.5f);
  assert_false(rl_it_fill_correct(&fill, 2.5f));
  assert_true(fill.fault.faulted);
}

static void test_sgpr_count_mismatch_refused(void** state) {
  // vc_fill: USER_SGPR 15 (LLVM 19), kernarg segment ptr enabled (2).
  rl_sim_fixture_t* fixture = *state;
  static const uint32_t values[16] = {0};
  rl_it_mutation.user_sgprs = values;
  rl_it_mutation.user_sgpr_count = 1;  // the kernarg pointer needs 2
  rl_it_fill_t fill = rl_it_fill(fixture, 2.5f);
  assert_true(fill.fault.faulted);
  assert_non_null(strstr(fill.fault.message,
                         "1 user SGPR values given; the descriptor enables 2 "
                         "and COMPUTE_PGM_RSRC2.USER_SGPR is 15"));
}

// begin() refusals, each with its reason.
static void rl_it_expect_refusal(rl_sim_fixture_t* fixture,
                                 const char* fragment) {
  rl_it_fill_t fill = rl_it_fill(fixture, 1.0f);
  assert_true(fill.fault.faulted);
  if (!strstr(fill.fault.message, fragment)) {
    fail_msg("fault \"%s\" lacks \"%s\"", fill.fault.message, fragment);
  }
}

static void test_refuses_gfx12(void** state) {
  rl_it_mutation.processor = "gfx1030";  // gfx12 is modelled; gfx10 is not
  rl_it_expect_refusal(*state, "processor gfx1030 is not modelled");
}
static void test_refuses_unknown_processor(void** state) {
  rl_it_mutation.null_processor = true;
  rl_it_expect_refusal(*state, "does not name its processor");
}
static void test_refuses_wave64(void** state) {
  rl_it_mutation.wave64 = true;
  rl_it_expect_refusal(*state, "wave64 kernels are not modelled");
}
static void test_refuses_round_mode(void** state) {
  rl_it_mutation.round_mode_32 = 1;
  rl_it_expect_refusal(*state, "only round-to-nearest-even");
}
static void test_refuses_denorm_mode(void** state) {
  rl_it_mutation.denorm_mode_32 = 1;
  rl_it_expect_refusal(*state, "FLOAT_DENORM_MODE_32 1");
}

// The denormal mode comes from the descriptor: with FLOAT_DENORM_MODE_32 = 0
// a denormal product is flushed, with 3 (the compiled default) it is kept.
static uint32_t rl_it_scale(rl_sim_fixture_t* fixture, float x, float s) {
  rl_device_allocation_t in = rl_sim_fixture_alloc(fixture, 256);
  rl_device_allocation_t out = rl_sim_fixture_alloc(fixture, 256);
  memcpy(in.host, &x, 4);
  rl_device_allocation_t args = rl_sim_fixture_alloc(fixture, 32);
  uint32_t n = 1;
  memcpy((uint8_t*)args.host + 0, &in.address, 8);
  memcpy((uint8_t*)args.host + 8, &out.address, 8);
  memcpy((uint8_t*)args.host + 16, &s, 4);
  memcpy((uint8_t*)args.host + 20, &n, 4);
  uint64_t signal = rl_sim_fixture_signal(fixture, 1);
  rl_aql_dispatch_packet_t packet = rl_test_dispatch(
      rl_sim_fixture_kernel(fixture, "vc_scale"), args.address, 64, signal,
      true);
  rl_test_submit(fixture, &packet);
  assert_true(rl_test_wait(fixture, signal, RL_TEST_WAIT_NS));
  uint32_t bits = 0;
  memcpy(&bits, out.host, 4);
  return bits;
}

static void test_denorm_mode_from_descriptor(void** state) {
  rl_sim_fixture_t* fixture = *state;
  const float x = 0x1p-120f, s = 0x1p-10f;  // product 2^-130: a denormal
  assert_int_equal(rl_it_scale(fixture, x, s), 0x00080000u);  // 2^19 * 2^-149
  rl_it_mutation.denorm_mode_32 = 0;
  assert_int_equal(rl_it_scale(fixture, x, s), 0u);
}

// An LDS access outside the group segment faults: vc_partial_sum stores
// lane * 4 for 64 lanes, so a 128-byte group segment is too small.
static void test_lds_out_of_bounds_faults(void** state) {
  rl_sim_fixture_t* fixture = *state;
  rl_it_mutation.group_segment_size = 128;
  rl_device_allocation_t in = rl_sim_fixture_alloc(fixture, 1024);
  rl_device_allocation_t out = rl_sim_fixture_alloc(fixture, 256);
  rl_device_allocation_t args = rl_sim_fixture_alloc(fixture, 32);
  uint32_t chunk = 64, n = 64;
  memcpy((uint8_t*)args.host + 0, &in.address, 8);
  memcpy((uint8_t*)args.host + 8, &out.address, 8);
  memcpy((uint8_t*)args.host + 16, &chunk, 4);
  memcpy((uint8_t*)args.host + 20, &n, 4);
  uint64_t signal = rl_sim_fixture_signal(fixture, 1);
  rl_aql_dispatch_packet_t packet = rl_test_dispatch(
      rl_sim_fixture_kernel(fixture, "vc_partial_sum"), args.address, 64,
      signal, true);
  packet.group_segment_size = 256;
  rl_test_submit(fixture, &packet);
  assert_false(rl_test_wait(fixture, signal, RL_TEST_NEGATIVE_WAIT_NS * 4));
  rl_device_fault_t fault = {0};
  fixture->device->vtable->queue_fault(fixture->device, &fixture->queue,
                                       &fault);
  assert_true(fault.faulted);
  assert_non_null(strstr(fault.message, "LDS fault"));
  assert_non_null(strstr(fault.message, "ds_store_b32"));
}

// The program cache: a second dispatch of the same code decodes nothing;
// changing the code in device memory forces a rebuild (and changes the
// behaviour: s_endpgm as the first instruction writes nothing).
static void test_program_cache_validates_code(void** state) {
  rl_sim_fixture_t* fixture = *state;
  rl_isa_executor_clear_cache();
  uint64_t built = rl_isa_executor_programs_built();
  rl_it_fill_t fill = rl_it_fill(fixture, 1.5f);
  assert_true(rl_it_fill_correct(&fill, 1.5f));
  fill = rl_it_fill(fixture, 3.5f);
  assert_true(rl_it_fill_correct(&fill, 3.5f));
  assert_int_equal(rl_isa_executor_programs_built(), built + 1);
  const rl_code_object_kernel_t* kernel =
      rl_code_object_find_kernel(fixture->code, "vc_fill");
  const uint32_t endpgm = 0xbfb00000u;  // s_endpgm
  rl_it_ok(fixture->device->vtable->write(
      fixture->device, fixture->loaded.load_base + kernel->entry_address,
      &endpgm, 4));
  fill = rl_it_fill(fixture, 5.5f);
  assert_true(fill.completed);
  for (uint32_t i = 0; i < 128; ++i) assert_int_equal(fill.out[i], RL_IT_POISON);
  assert_int_equal(rl_isa_executor_programs_built(), built + 2);
}

// A kernel holding an instruction the executor does not model is refused
// before its first work-group runs (nothing is written), naming the
// instruction by its LLVM mnemonic and PC — never mid-step.
static void test_unmodelled_refused_before_running(void** state) {
  rl_sim_fixture_t* fixture = *state;
  const rl_code_object_kernel_t* kernel =
      rl_code_object_find_kernel(fixture->code, "vc_fill");
  const uint32_t sin = 0x7e026b02u;  // v_sin_f32 v1, v2 (llvm-mc-19)
  rl_it_ok(fixture->device->vtable->write(
      fixture->device, fixture->loaded.load_base + kernel->entry_address + 0x10,
      &sin, 4));
  rl_it_fill_t fill = rl_it_fill(fixture, 1.0f);
  assert_true(fill.fault.faulted);
  if (!strstr(fill.fault.message, "kernel vc_fill: v_sin_f32 (VOP1 opcode "
                                  "0x35) at PC +0x10 is not modelled")) {
    fail_msg("fault \"%s\"", fill.fault.message);
  }
  for (uint32_t i = 0; i < 128; ++i) assert_int_equal(fill.out[i], RL_IT_POISON);
}

static int rl_it_group_teardown(void** state) {
  (void)state;
  rl_isa_executor_clear_cache();  // the leak check sees no cached programs
  return 0;
}

int main(void) {
#define RL_IT(test) cmocka_unit_test_setup_teardown(test, rl_it_setup, rl_it_teardown)
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_workloads_match_ref),
      cmocka_unit_test(test_workloads_threads_agree),
      RL_IT(test_fill_control_and_verbatim_sgprs),
      RL_IT(test_kernarg_off_by_8_is_caught),
      RL_IT(test_entry_plus_4_is_caught),
      RL_IT(test_wrong_sgpr_layout_is_caught),
      RL_IT(test_sgpr_count_mismatch_refused),
      RL_IT(test_refuses_gfx12),
      RL_IT(test_refuses_unknown_processor),
      RL_IT(test_refuses_wave64),
      RL_IT(test_refuses_round_mode),
      RL_IT(test_refuses_denorm_mode),
      RL_IT(test_denorm_mode_from_descriptor),
      RL_IT(test_lds_out_of_bounds_faults),
      RL_IT(test_program_cache_validates_code),
      RL_IT(test_unmodelled_refused_before_running),
  };
  return cmocka_run_group_tests(tests, NULL, rl_it_group_teardown);
}
