// Every public function (redline/include/redline/*.h) handles a NULL
// pointer argument: each of its pointer parameters, in turn, is passed NULL
// while the others are valid. A function returning a status must return
// RL_STATUS_INVALID_ARGUMENT for a NULL it requires; one returning bool
// false; one returning a pointer NULL; a void function must do nothing.
// Parameters the headers document as optional (options, out_info, limits,
// objects a destroy accepts as NULL) are called with NULL too and must not
// crash (rl_replay_admit answers NULL values with a refusal, checked
// below). `public_api_null_test --list` prints the table as "FUNCTION INDEX"
// lines; CTest public_api_null_coverage compares them with the pointer
// parameters the compiler finds in the headers
// (tests/install/public_api_pointers.sh), so a new function or parameter
// cannot be left out. Also: teardown order (redline/replay.h "Teardown").
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "redline/capture_file.h"
#include "redline/capture_issued.h"
#include "redline/doctor.h"
#include "redline/hazard.h"
#include "redline/kernel_descriptor.h"
#include "redline/limits.h"
#include "redline/offload_bundle.h"
#include "redline/shadow_json.h"
#include "tests/unit/redline/replay_test_helpers.h"

static rl_device_t* g_device;
static rl_capture_t* g_capture;
static rl_replay_t* g_replay;
static const rl_code_object_t* g_code;
static rl_funnel_device_t g_null_device;
static rl_funnel_t* g_funnel;
// Output storage for any call (the largest output, a doctor report, is
// about 20 KiB).
static _Alignas(16) uint8_t g_out[1 << 16];
#define OUT(type) ((type*)(void*)g_out)
// Argument |i|: NULL when it is the one under test, else |valid|.
#define A(i, valid) (p == (i) ? NULL : (valid))

typedef struct rl_api_case_s {
  const char* name;
  unsigned pointers;  // bit i: parameter i is a pointer
  unsigned optional;  // bit i: NULL is documented as allowed
  void (*call)(int p);
} rl_api_case_t;
static const rl_api_case_t* g_case;
static int g_failures;  // every wrong answer is printed, then the test fails

static bool rl_api_optional(int p) { return (g_case->optional >> p) & 1u; }

static void rl_api_status(int p, rl_status_t status) {
  if (!rl_api_optional(p) &&
      rl_status_code(status) != RL_STATUS_INVALID_ARGUMENT) {
    fprintf(stderr, "%s with parameter %d NULL: expected INVALID_ARGUMENT, "
            "got %s: %s\n", g_case->name, p,
            rl_status_code_name(rl_status_code(status)),
            status ? rl_status_message(status) : "OK");
    ++g_failures;
  }
  rl_status_free(status);
}
static void rl_api_false(int p, bool result) {
  if (!rl_api_optional(p) && result) {
    fprintf(stderr, "%s with parameter %d NULL returned true\n", g_case->name,
            p);
    ++g_failures;
  }
}
static void rl_api_null(int p, const void* result) {
  if (!rl_api_optional(p) && result) {
    fprintf(stderr, "%s with parameter %d NULL returned a pointer\n",
            g_case->name, p);
    ++g_failures;
  }
}
#define S(call) rl_api_status(p, (call))
#define B(call) rl_api_false(p, (call))
#define P(call) rl_api_null(p, (call))

static const char* g_name = "buf";
static const int64_t g_values[4] = {300, 0, 0, 0};

static void c_bench_run_json(int p) {
  char* report = NULL;
  S(rl_bench_run_json(A(0, g_capture), A(1, "{\"rounds\": 1}"),
                      A(2, &report)));
  rl_json_free(report);
}
static void c_shadow_run_json(int p) {
  char* report = NULL;
  S(rl_shadow_run_json(A(0, g_capture), A(1, "{\"arms\": \"eager\"}"),
                       A(2, &report)));
  rl_json_free(report);
}
static void c_json_free(int p) { rl_json_free(A(0, NULL)); }
static void c_buffer_role_parse(int p) {
  B(rl_buffer_role_parse(A(0, "state"), A(1, OUT(rl_buffer_role_t))));
}
static void c_region_type_parse(int p) {
  B(rl_region_type_parse(A(0, "f32"), A(1, OUT(rl_region_type_t))));
}
static void c_route_parse(int p) {
  B(rl_route_parse(A(0, "aql"), A(1, OUT(rl_route_t))));
}
static void c_digest128_parse(int p) {
  B(rl_digest128_parse(A(0, "00000000000000000000000000000000"),
                       A(1, OUT(rl_digest128_t))));
}
static void c_digest128_format(int p) {
  rl_digest128_format((rl_digest128_t){1, 2}, A(1, OUT(char)));
}
static void c_digest128_of(int p) { (void)rl_digest128_of(A(0, g_out), 4); }
static void c_target_parse(int p) {
  S(rl_target_parse(A(0, "gfx1100"), A(1, OUT(rl_target_t))));
}

// The capture model: each call works on a fresh copy, so nothing it adds
// reaches the shared fixture.
static rl_capture_t* rl_api_fresh(void) {
  uint8_t* bytes = NULL;
  size_t size = 0;
  assert_null(rl_capture_file_encode(g_capture, NULL, &bytes, &size));
  rl_capture_t* copy = NULL;
  assert_null(rl_capture_file_read_memory(bytes, size, &copy, NULL));
  free(bytes);
  return copy;
}
static void c_capture_add_buffer(int p) {
  rl_capture_t* c = rl_api_fresh();
  const rl_capture_buffer_t buffer = {.name = "extra", .size = 64,
                                      .alignment = 16};
  S(rl_capture_add_buffer(A(0, c), A(1, &buffer), A(2, OUT(uint32_t))));
  rl_capture_destroy(c);
}
static void c_capture_add_code_object(int p) {
  rl_capture_t* c = rl_api_fresh();
  const rl_capture_code_object_t* code = &g_capture->code_objects[0];
  S(rl_capture_add_code_object(A(0, c), A(1, code->bytes), code->size,
                               A(3, OUT(uint32_t))));
  rl_capture_destroy(c);
}
static void c_capture_add_kernel(int p) {
  rl_capture_t* c = rl_api_fresh();
  S(rl_capture_add_kernel(A(0, c), 0, A(2, g_capture->kernels[0].name),
                          A(3, OUT(uint32_t))));
  rl_capture_destroy(c);
}
static void c_capture_add_launch(int p) {
  rl_capture_t* c = rl_api_fresh();
  S(rl_capture_add_launch(A(0, c), A(1, &g_capture->launches[0]),
                          A(2, OUT(uint32_t))));
  rl_capture_destroy(c);
}
static void c_capture_add_param(int p) {
  rl_capture_t* c = rl_api_fresh();
  const rl_capture_param_t param = {.name = "extra", .min = 0, .max = 2};
  S(rl_capture_add_param(A(0, c), A(1, &param), A(2, OUT(uint32_t))));
  rl_capture_destroy(c);
}
static void c_capture_add_region(int p) {
  rl_capture_t* c = rl_api_fresh();
  const rl_capture_region_t region = {.name = "extra", .buffer = 0,
                                      .size = 4};
  S(rl_capture_add_region(A(0, c), A(1, &region), A(2, OUT(uint32_t))));
  rl_capture_destroy(c);
}
static void c_capture_add_issued(int p) {
  rl_capture_t* c = rl_api_fresh();
  const uint8_t bytes[4] = {0};
  S(rl_capture_add_issued(A(0, c), 0, A(2, bytes), 4));
  rl_capture_destroy(c);
}
static void c_capture_issued_find(int p) {
  P(rl_capture_issued_find(A(0, g_capture), 0));
}
static void c_capture_issued_clear(int p) {
  rl_capture_issued_clear(A(0, NULL));
}
static void c_capture_add_program_param(int p) {
  rl_capture_t* c = rl_api_fresh();
  const rl_capture_program_param_t value = {.pos = 0, .param = 0};
  S(rl_capture_add_program_param(A(0, c), A(1, &value)));
  rl_capture_destroy(c);
}
static void c_capture_add_program_state(int p) {
  rl_capture_t* c = rl_api_fresh();
  const rl_capture_program_state_t state = {.pos = 0, .region = 0};
  S(rl_capture_add_program_state(A(0, c), A(1, &state)));
  rl_capture_destroy(c);
}
static void c_capture_add_window(int p) {
  rl_capture_t* c = rl_api_fresh();
  const rl_capture_window_t window = {.param = 0, .start = 1, .count = 1};
  S(rl_capture_add_window(A(0, c), A(1, &window), A(2, OUT(uint32_t))));
  rl_capture_destroy(c);
}
static void c_capture_create(int p) {
  rl_capture_t* c = NULL;
  S(rl_capture_create(A(0, "w"), A(1, &c)));
  rl_capture_destroy(c);
}
static void c_capture_destroy(int p) { rl_capture_destroy(A(0, NULL)); }
static void c_capture_file_encode(int p) {
  uint8_t* bytes = NULL;
  S(rl_capture_file_encode(A(0, g_capture), NULL, A(2, &bytes),
                           A(3, OUT(size_t))));
  free(bytes);
  if (p == 1) {  // options NULL: the defaults
    bytes = NULL;
    S(rl_capture_file_encode(g_capture, A(1, NULL), &bytes, OUT(size_t)));
    free(bytes);
  }
}
static char g_path[256];
static const char* rl_api_file(void) {
  char* path = g_path;
  if (!path[0]) {
    snprintf(path, sizeof(g_path), "public_api_null_test.%ld.rlc",
             (long)getpid());
    assert_null(rl_capture_file_write(g_capture, path, NULL));
  }
  return path;
}
static void c_capture_file_read(int p) {
  rl_capture_t* c = NULL;
  S(rl_capture_file_read(A(0, rl_api_file()), A(1, &c),
                         A(2, OUT(rl_capture_file_info_t))));
  rl_capture_destroy(c);
}
static void c_capture_file_read_limited(int p) {
  rl_capture_t* c = NULL;
  const rl_limits_t limits = {0};
  S(rl_capture_file_read_limited(A(0, rl_api_file()), A(1, &limits),
                                 A(2, &c), A(3, OUT(rl_capture_file_info_t))));
  rl_capture_destroy(c);
}
static void c_capture_file_read_memory(int p) {
  rl_capture_t* c = NULL;
  uint8_t* bytes = NULL;
  size_t size = 0;
  assert_null(rl_capture_file_encode(g_capture, NULL, &bytes, &size));
  S(rl_capture_file_read_memory(A(0, bytes), size, A(2, &c),
                                A(3, OUT(rl_capture_file_info_t))));
  rl_capture_destroy(c);
  free(bytes);
}
static void c_capture_file_read_memory_limited(int p) {
  rl_capture_t* c = NULL;
  uint8_t* bytes = NULL;
  size_t size = 0;
  const rl_limits_t limits = {0};
  assert_null(rl_capture_file_encode(g_capture, NULL, &bytes, &size));
  S(rl_capture_file_read_memory_limited(A(0, bytes), size, A(2, &limits),
                                        A(3, &c),
                                        A(4, OUT(rl_capture_file_info_t))));
  rl_capture_destroy(c);
  free(bytes);
}
static void c_capture_file_write(int p) {
  S(rl_capture_file_write(A(0, g_capture), A(1, rl_api_file()), A(2, NULL)));
}
static void c_capture_find_buffer(int p) {
  B(rl_capture_find_buffer(A(0, g_capture), A(1, "io"), A(2, OUT(uint32_t))));
}
static void c_capture_find_param(int p) {
  B(rl_capture_find_param(A(0, g_capture), A(1, "pos"), A(2, OUT(uint32_t))));
}
static void c_capture_identity(int p) {
  S(rl_capture_identity(A(0, g_capture), A(1, OUT(rl_digest128_t))));
}
static void c_capture_slot_binding(int p) {
  P(rl_capture_slot_binding(A(0, &g_capture->launches[0]), 0));
}
static void c_capture_mark_incomplete(int p) {
  rl_capture_t* c = rl_api_fresh();
  S(rl_capture_mark_incomplete(A(0, c), 1, A(2, "reason")));
  rl_capture_destroy(c);
}
static void c_capture_incomplete_status(int p) {
  S(rl_capture_incomplete_status(A(0, g_capture)));
}
static void c_capture_validate(int p) { S(rl_capture_validate(A(0, g_capture))); }
static void c_capture_add_descriptor(int p) {
  rl_capture_t* c = rl_api_fresh();
  const rl_capture_descriptor_t descriptor = {0};
  S(rl_capture_add_descriptor(A(0, c), A(1, &descriptor)));
  rl_capture_destroy(c);
}
static void c_capture_launch_reads_image(int p) {
  B(rl_capture_launch_reads_image(A(0, g_capture),
                                  A(1, &g_capture->launches[0]), 0));
}
static void c_descriptor_patch(int p) {
  S(rl_descriptor_patch(A(0, g_capture), 0, 0, A(3, OUT(uint8_t))));
}
static void c_capture_variable_address(int p) {
  S(rl_capture_variable_address(A(0, g_capture), 0, 0, A(3, OUT(uint64_t))));
}
static void c_expr_evaluate(int p) {
  const rl_expr_t* expr = &g_capture->launches[4].bindings[0].expr;
  S(rl_expr_evaluate(A(0, expr), A(1, g_values), 1, A(3, OUT(int64_t))));
}
static void c_expr_format(int p) {
  const rl_expr_t* expr = &g_capture->launches[4].bindings[0].expr;
  rl_expr_format(A(0, g_capture), A(1, expr), A(2, OUT(char)), 64);
}
static void c_limits_capture_device_bytes(int p) {
  (void)rl_limits_capture_device_bytes(A(0, g_capture), 0);
}
static void c_limits_check_capture(int p) {
  const rl_limits_t limits = rl_limits_resolve(NULL);
  S(rl_limits_check_capture(A(0, g_capture), A(1, &limits), 0));
}
static void c_limits_resolve(int p) { (void)rl_limits_resolve(A(0, NULL)); }
static void c_limits_for_capture(int p) {
  (void)rl_limits_for_capture(A(0, NULL), A(1, g_capture));
}

// Code objects.
static void c_code_object_destroy(int p) { rl_code_object_destroy(A(0, NULL)); }
static void c_code_object_find_kernel(int p) {
  P(rl_code_object_find_kernel(A(0, g_code), A(1, "vc_fill")));
}
static void c_code_object_find_variable(int p) {
  P(rl_code_object_find_variable(A(0, g_code), A(1, "missing")));
}
static void c_code_object_load_image(int p) {
  const rl_capture_code_object_t* code = &g_capture->code_objects[0];
  S(rl_code_object_load_image(A(0, g_code), A(1, code->bytes), code->size,
                              0x1000, A(4, g_out), sizeof(g_out)));
}
static void c_code_object_parse(int p) {
  rl_code_object_t* parsed = NULL;
  const rl_capture_code_object_t* code = &g_capture->code_objects[0];
  S(rl_code_object_parse(A(0, code->bytes), code->size, A(2, &parsed)));
  rl_code_object_destroy(parsed);
}
static void c_code_object_target(int p) {
  rl_code_object_target(A(0, g_code), A(1, OUT(rl_target_t)));
}
static void c_kernel_descriptor_decode(int p) {
  rl_kernel_descriptor_t descriptor;
  memset(&descriptor, 0, sizeof(descriptor));
  rl_kernel_descriptor_decode(A(0, &descriptor), 11,
                              A(2, OUT(rl_kernel_descriptor_info_t)));
}
static void c_hip_fatbin_find(int p) {
  const void* code = NULL;
  S(rl_hip_fatbin_find(A(0, g_out), A(1, "gfx1100"), A(2, &code),
                       A(3, OUT(uint64_t))));
}
static void c_offload_visit(void* context, const rl_offload_entry_t* entry) {
  (void)context, (void)entry;
}
static void c_offload_bundle_list(int p) {
  uint32_t count = 0;
  S(rl_offload_bundle_list(A(0, g_out), 8, A(2, c_offload_visit),
                           A(3, g_out), A(4, &count)));
}

// Devices.
static void c_device_close(int p) { rl_device_close(A(0, NULL)); }
static void c_device_kind(int p) { (void)rl_device_kind(A(0, g_device)); }
static void c_device_target(int p) { (void)rl_device_target(A(0, g_device)); }
static void c_device_open(int p) {
  const rl_device_options_t options = {0};
  rl_device_t* device = NULL;
  S(rl_device_open(A(0, &options), A(1, &device)));
  rl_device_close(device);
}
static void c_device_funnel_device_create(int p) {
  rl_funnel_device_t funnel_device;
  memset(&funnel_device, 0, sizeof(funnel_device));
  rl_status_t status = rl_device_funnel_device_create(A(0, g_device),
                                                      A(1, &funnel_device));
  S(status);
}
static void c_doctor_collect(int p) { S(rl_doctor_collect(A(0, NULL))); }
static void c_doctor_has_hardware(int p) {
  B(rl_doctor_has_hardware(A(0, NULL)));
}

// The funnel (record-only device).
static void c_funnel_buffer(int p) {
  S(rl_funnel_buffer(A(0, g_funnel), A(1, g_name), 64, 16,
                     RL_BUFFER_ROLE_STATE, false, A(6, OUT(uint32_t)),
                     A(7, OUT(uint64_t))));
}
static void c_funnel_capture(int p) { P(rl_funnel_capture(A(0, NULL))); }
static void c_funnel_create(int p) {
  rl_funnel_t* funnel = NULL;
  S(rl_funnel_create(A(0, "w"), A(1, &g_null_device), A(2, &funnel)));
  rl_funnel_destroy(funnel);
}
static void c_funnel_destroy(int p) { rl_funnel_destroy(A(0, NULL)); }
static void c_funnel_device_destroy(int p) {
  rl_funnel_device_destroy(A(0, NULL));
}
static void c_funnel_finish(int p) {
  rl_capture_t* c = NULL;
  S(rl_funnel_finish(A(0, NULL), A(1, &c)));
  if (p == 1) S(rl_funnel_finish(g_funnel, NULL));
}
static void c_funnel_kernel(int p) {
  S(rl_funnel_kernel(A(0, g_funnel), 0, A(2, "vc_fill"), A(3, OUT(uint32_t))));
}
static void c_funnel_keep_address(int p) {
  S(rl_funnel_keep_address(A(0, g_funnel), 0));
}
static void c_funnel_launch(int p) {
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  const rl_funnel_arg_t args[1];
  memset((void*)args, 0, sizeof(args));
  S(rl_funnel_launch(A(0, g_funnel), 0, A(2, grid), A(3, block), 0,
                     A(5, args), 1, A(7, NULL), A(8, OUT(uint32_t))));
}
static void c_funnel_load_code_object(int p) {
  const rl_capture_code_object_t* code = &g_capture->code_objects[0];
  S(rl_funnel_load_code_object(A(0, g_funnel), A(1, code->bytes), code->size,
                               A(3, OUT(uint32_t))));
}
static void c_funnel_null_device_create(int p) {
  S(rl_funnel_null_device_create(A(0, NULL)));
}
static void c_funnel_null_device_launch_count(int p) {
  (void)rl_funnel_null_device_launch_count(A(0, &g_null_device));
}
static void c_funnel_param(int p) {
  S(rl_funnel_param(A(0, g_funnel), A(1, "p"), 0, 2, 0, A(5, OUT(uint32_t))));
}
static void c_funnel_read(int p) {
  S(rl_funnel_read(A(0, g_funnel), 0, 0, A(3, g_out), 4));
}
static void c_funnel_region(int p) {
  S(rl_funnel_region(A(0, g_funnel), A(1, "r"), 0, 0, 4, RL_REGION_BYTES,
                     A(6, OUT(uint32_t))));
}
static void c_funnel_set_param(int p) {
  S(rl_funnel_set_param(A(0, NULL), 0, 0));
}
static void c_funnel_upload(int p) {
  S(rl_funnel_upload(A(0, g_funnel), 0, 0, A(3, g_out), 4));
}
static void c_funnel_variable(int p) {
  S(rl_funnel_variable(A(0, g_funnel), A(1, "v"), 0, A(3, "missing"), 4,
                       RL_BUFFER_ROLE_STATE, A(6, OUT(uint32_t))));
}
static void c_funnel_window(int p) {
  S(rl_funnel_window(A(0, g_funnel), 0, 0, 1, 1, A(5, OUT(uint32_t))));
}

// Hazard plans.
static void c_hazard_plan_compute(int p) {
  const rl_hazard_launch_t launches[1] = {{0}};
  rl_hazard_plan_t* plan = NULL;
  S(rl_hazard_plan_compute(A(0, launches), 1, 1, 0, A(4, &plan)));
  rl_hazard_plan_destroy(plan);
}
static void c_hazard_plan_create(int p) {
  rl_hazard_plan_t* plan = NULL;
  S(rl_hazard_plan_create(A(0, g_capture), A(1, &plan)));
  rl_hazard_plan_destroy(plan);
}
static void c_hazard_plan_create_range(int p) {
  rl_hazard_plan_t* plan = NULL;
  S(rl_hazard_plan_create_range(A(0, g_capture), 0, 1, A(3, &plan)));
  rl_hazard_plan_destroy(plan);
}
static void c_hazard_plan_destroy(int p) { rl_hazard_plan_destroy(A(0, NULL)); }

// Replays (one prepared on route aql).
static void c_replay_admit(int p) {
  S(rl_replay_admit(A(0, g_replay), A(1, g_values), 1,
                    A(3, OUT(rl_admission_t))));
}
static void c_replay_bind_buffer(int p) {
  S(rl_replay_bind_buffer(A(0, NULL), 0, 0x1000, 64));
}
static void c_replay_buffer_address(int p) {
  S(rl_replay_buffer_address(A(0, g_replay), 0, A(2, OUT(uint64_t))));
}
static void c_replay_contract(int p) { S(rl_replay_contract(A(0, NULL))); }
static void c_replay_counters(int p) {
  rl_replay_counters(A(0, g_replay), A(1, OUT(rl_replay_counters_t)));
}
static void c_replay_create(int p) {
  rl_replay_t* replay = NULL;
  const rl_replay_options_t options = {0};
  S(rl_replay_create(A(0, g_device), A(1, g_capture), A(2, &options),
                     A(3, &replay)));
  rl_replay_destroy(replay);
}
static void c_replay_destroy(int p) { rl_replay_destroy(A(0, NULL)); }
static void c_replay_patch_site(int p) {
  S(rl_replay_patch_site(A(0, g_replay), 0, A(2, OUT(rl_patch_site_t))));
}
static void c_replay_prepare(int p) {
  S(rl_replay_prepare(A(0, NULL), RL_ROUTE_AQL));
}
static void c_replay_proof(int p) {
  rl_replay_proof(A(0, g_replay), A(1, OUT(rl_route_proof_t)));
}
static void c_replay_read_region(int p) {
  rl_digest128_t digest;
  uint64_t size = g_capture->regions[0].size;
  assert_true(size <= sizeof(g_out));
  S(rl_replay_read_region(A(0, g_replay), 0, A(2, g_out), size,
                          A(4, &digest)));
}
static void c_replay_run(int p) { S(rl_replay_run(A(0, g_replay), A(1, g_values), 1)); }
static void c_replay_state(int p) { (void)rl_replay_state(A(0, NULL)); }
static void c_replay_stream_ib(int p) {
  S(rl_replay_stream_ib(A(0, g_replay), A(1, NULL), 0, A(3, OUT(uint32_t))));
}
static void c_replay_stream_packet(int p) {
  S(rl_replay_stream_packet(A(0, g_replay), 0, A(2, g_out)));
}

// Statuses: a NULL file or format is tolerated (the message says so).
static void c_status_annotate(int p) {
  rl_status_free(rl_status_annotate(rl_status_out_of_memory(), A(1, "x")));
}
static void c_status_make(int p) {
  rl_status_free(rl_status_make(RL_STATUS_INTERNAL, A(1, "f.c"), 1,
                                A(3, "x")));
}
static rl_status_t rl_api_makev(int p, const char* format, ...) {
  va_list args;
  va_start(args, format);
  rl_status_t status =
      rl_status_makev(RL_STATUS_INTERNAL, A(1, "f.c"), 1, A(3, format), args);
  va_end(args);
  return status;
}
static void c_status_makev(int p) { rl_status_free(rl_api_makev(p, "x")); }

#define RL_API_CASE(name, pointers, optional) \
  {"rl_" #name, pointers, optional, c_##name}
#define O(i) (1u << (i))
static const rl_api_case_t rl_api_cases[] = {
    RL_API_CASE(bench_run_json, O(0) | O(1) | O(2), O(1)),
    RL_API_CASE(buffer_role_parse, O(0) | O(1), 0),
    RL_API_CASE(capture_add_buffer, O(0) | O(1) | O(2), 0),
    RL_API_CASE(capture_add_code_object, O(0) | O(1) | O(3), 0),
    RL_API_CASE(capture_add_issued, O(0) | O(2), 0),
    RL_API_CASE(capture_add_kernel, O(0) | O(2) | O(3), 0),
    RL_API_CASE(capture_add_launch, O(0) | O(1) | O(2), 0),
    RL_API_CASE(capture_add_param, O(0) | O(1) | O(2), 0),
    RL_API_CASE(capture_add_program_param, O(0) | O(1), 0),
    RL_API_CASE(capture_add_program_state, O(0) | O(1), 0),
    RL_API_CASE(capture_add_region, O(0) | O(1) | O(2), 0),
    RL_API_CASE(capture_add_descriptor, O(0) | O(1), 0),
    RL_API_CASE(capture_launch_reads_image, O(0) | O(1), 0),
    RL_API_CASE(descriptor_patch, O(0) | O(3), 0),
    RL_API_CASE(capture_add_window, O(0) | O(1) | O(2), 0),
    RL_API_CASE(capture_create, O(0) | O(1), 0),
    RL_API_CASE(capture_destroy, O(0), O(0)),
    RL_API_CASE(capture_file_encode, O(0) | O(1) | O(2) | O(3), O(1)),
    RL_API_CASE(capture_file_read, O(0) | O(1) | O(2), O(2)),
    RL_API_CASE(capture_file_read_limited, O(0) | O(1) | O(2) | O(3),
                O(1) | O(3)),
    RL_API_CASE(capture_file_read_memory, O(0) | O(2) | O(3), O(3)),
    RL_API_CASE(capture_file_read_memory_limited, O(0) | O(2) | O(3) | O(4),
                O(2) | O(4)),
    RL_API_CASE(capture_file_write, O(0) | O(1) | O(2), O(2)),
    RL_API_CASE(capture_find_buffer, O(0) | O(1) | O(2), 0),
    RL_API_CASE(capture_find_param, O(0) | O(1) | O(2), 0),
    RL_API_CASE(capture_identity, O(0) | O(1), 0),
    RL_API_CASE(capture_issued_clear, O(0), O(0)),
    RL_API_CASE(capture_issued_find, O(0), 0),
    RL_API_CASE(capture_incomplete_status, O(0), 0),
    RL_API_CASE(capture_mark_incomplete, O(0) | O(2), O(2)),
    RL_API_CASE(capture_slot_binding, O(0), 0),
    RL_API_CASE(capture_validate, O(0), 0),
    RL_API_CASE(capture_variable_address, O(0) | O(3), 0),
    RL_API_CASE(code_object_destroy, O(0), O(0)),
    RL_API_CASE(code_object_find_kernel, O(0) | O(1), 0),
    RL_API_CASE(code_object_find_variable, O(0) | O(1), 0),
    RL_API_CASE(code_object_load_image, O(0) | O(1) | O(4), 0),
    RL_API_CASE(code_object_parse, O(0) | O(2), 0),
    RL_API_CASE(code_object_target, O(0) | O(1), 0),
    RL_API_CASE(device_close, O(0), O(0)),
    RL_API_CASE(device_funnel_device_create, O(0) | O(1), 0),
    RL_API_CASE(device_kind, O(0), O(0)),
    RL_API_CASE(device_open, O(0) | O(1), O(0)),
    RL_API_CASE(device_target, O(0), O(0)),
    RL_API_CASE(digest128_format, O(1), 0),
    RL_API_CASE(digest128_of, O(0), O(0)),
    RL_API_CASE(digest128_parse, O(0) | O(1), 0),
    RL_API_CASE(doctor_collect, O(0), 0),
    RL_API_CASE(doctor_has_hardware, O(0), 0),
    RL_API_CASE(expr_evaluate, O(0) | O(1) | O(3), 0),
    RL_API_CASE(expr_format, O(0) | O(1) | O(2), O(0)),
    RL_API_CASE(funnel_buffer, O(0) | O(1) | O(6) | O(7), 0),
    RL_API_CASE(funnel_capture, O(0), 0),
    RL_API_CASE(funnel_create, O(0) | O(1) | O(2), 0),
    RL_API_CASE(funnel_destroy, O(0), O(0)),
    RL_API_CASE(funnel_device_destroy, O(0), O(0)),
    RL_API_CASE(funnel_finish, O(0) | O(1), 0),
    RL_API_CASE(funnel_kernel, O(0) | O(2) | O(3), 0),
    RL_API_CASE(funnel_keep_address, O(0), 0),
    RL_API_CASE(funnel_launch, O(0) | O(2) | O(3) | O(5) | O(7) | O(8),
                O(7) | O(8)),
    RL_API_CASE(funnel_load_code_object, O(0) | O(1) | O(3), 0),
    RL_API_CASE(funnel_null_device_create, O(0), 0),
    RL_API_CASE(funnel_null_device_launch_count, O(0), O(0)),
    RL_API_CASE(funnel_param, O(0) | O(1) | O(5), 0),
    RL_API_CASE(funnel_read, O(0) | O(3), 0),
    RL_API_CASE(funnel_region, O(0) | O(1) | O(6), 0),
    RL_API_CASE(funnel_set_param, O(0), 0),
    RL_API_CASE(funnel_upload, O(0) | O(3), 0),
    RL_API_CASE(funnel_variable, O(0) | O(1) | O(3) | O(6), 0),
    RL_API_CASE(funnel_window, O(0) | O(5), 0),
    RL_API_CASE(hazard_plan_compute, O(0) | O(4), 0),
    RL_API_CASE(hazard_plan_create, O(0) | O(1), 0),
    RL_API_CASE(hazard_plan_create_range, O(0) | O(3), 0),
    RL_API_CASE(hazard_plan_destroy, O(0), O(0)),
    RL_API_CASE(hip_fatbin_find, O(0) | O(1) | O(2) | O(3), 0),
    RL_API_CASE(json_free, O(0), O(0)),
    RL_API_CASE(kernel_descriptor_decode, O(0) | O(2), 0),
    RL_API_CASE(limits_capture_device_bytes, O(0), O(0)),
    RL_API_CASE(limits_check_capture, O(0) | O(1), O(1)),
    RL_API_CASE(limits_for_capture, O(0) | O(1), O(0) | O(1)),
    RL_API_CASE(limits_resolve, O(0), O(0)),
    RL_API_CASE(offload_bundle_list, O(0) | O(3) | O(4), O(3)),
    RL_API_CASE(region_type_parse, O(0) | O(1), 0),
    RL_API_CASE(replay_admit, O(0) | O(1) | O(3), O(1)),
    RL_API_CASE(replay_bind_buffer, O(0), 0),
    RL_API_CASE(replay_buffer_address, O(0) | O(2), 0),
    RL_API_CASE(replay_contract, O(0), 0),
    RL_API_CASE(replay_counters, O(0) | O(1), O(0)),
    RL_API_CASE(replay_create, O(0) | O(1) | O(2) | O(3), O(2)),
    RL_API_CASE(replay_destroy, O(0), O(0)),
    RL_API_CASE(replay_patch_site, O(0) | O(2), 0),
    RL_API_CASE(replay_prepare, O(0), 0),
    RL_API_CASE(replay_proof, O(0) | O(1), O(0)),
    RL_API_CASE(replay_read_region, O(0) | O(2) | O(4), O(2) | O(4)),
    RL_API_CASE(replay_run, O(0) | O(1), 0),
    RL_API_CASE(replay_state, O(0), O(0)),
    RL_API_CASE(replay_stream_ib, O(0) | O(1) | O(3), O(1)),
    RL_API_CASE(replay_stream_packet, O(0) | O(2), 0),
    RL_API_CASE(route_parse, O(0) | O(1), 0),
    RL_API_CASE(shadow_run_json, O(0) | O(1) | O(2), O(1)),
    RL_API_CASE(status_annotate, O(1), O(1)),
    RL_API_CASE(status_make, O(1) | O(3), O(1) | O(3)),
    RL_API_CASE(status_makev, O(1) | O(3), O(1) | O(3)),
    RL_API_CASE(target_parse, O(0) | O(1), 0),
};
#define RL_API_CASE_COUNT (sizeof(rl_api_cases) / sizeof(rl_api_cases[0]))

static void every_public_function_refuses_null_pointers(void** state) {
  (void)state;
  for (size_t i = 0; i < RL_API_CASE_COUNT; ++i) {
    g_case = &rl_api_cases[i];
    for (int p = 0; p < 32; ++p) {
      if ((g_case->pointers >> p) & 1u) g_case->call(p);
    }
  }
  assert_int_equal(g_failures, 0);
}

// rl_replay_run with NULL values and a count says so (it used to report
// "1 parameter values given, the capture has 1").
static void run_with_null_values_names_the_null(void** state) {
  (void)state;
  rl_test_expect(rl_replay_run(g_replay, NULL, 1),
                 RL_STATUS_INVALID_ARGUMENT,
                 "values is NULL but value_count is 1");
  rl_admission_t admission;
  assert_null(rl_replay_admit(g_replay, NULL, 1, &admission));
  assert_false(admission.admitted);
  assert_non_null(strstr(admission.reason, "values is NULL"));
}

// redline/replay.h "Teardown": every replay holds its device, so the
// device may be closed before its replays are destroyed; the last one to
// go destroys the device (ASan would report the use after free).
static void device_closed_before_its_replay_is_safe(void** state) {
  (void)state;
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0);
  rl_replay_t* first = NULL;
  rl_replay_t* second = NULL;
  assert_null(rl_replay_create(device, g_capture, NULL, &first));
  assert_null(rl_replay_create(device, g_capture, NULL, &second));
  assert_null(rl_replay_prepare(first, RL_ROUTE_AQL));
  rl_device_close(device);
  const int64_t pos = 300;
  assert_null(rl_replay_run(first, &pos, 1));  // the device is still there
  rl_replay_destroy(first);
  assert_null(rl_replay_prepare(second, RL_ROUTE_PM4));
  assert_null(rl_replay_run(second, &pos, 1));
  rl_replay_destroy(second);
}

static int rl_api_setup(void** state) {
  (void)state;
  g_device = rl_test_open_sim("gfx1100", false, 0);
  rl_test_record(NULL, 300, &g_capture, NULL);
  g_code = g_capture->code_objects[0].parsed;
  assert_null(rl_replay_create(g_device, g_capture, NULL, &g_replay));
  assert_null(rl_replay_prepare(g_replay, RL_ROUTE_AQL));
  assert_null(rl_funnel_null_device_create(&g_null_device));
  assert_null(rl_funnel_create("w", &g_null_device, &g_funnel));
  return 0;
}

static int rl_api_teardown(void** state) {
  (void)state;
  if (g_path[0]) remove(g_path);
  rl_funnel_destroy(g_funnel);
  rl_funnel_device_destroy(&g_null_device);
  rl_replay_destroy(g_replay);
  rl_capture_destroy(g_capture);
  rl_device_close(g_device);
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < RL_API_CASE_COUNT; ++i) {
      for (int p = 0; p < 32; ++p) {
        if ((rl_api_cases[i].pointers >> p) & 1u) {
          printf("%s %d\n", rl_api_cases[i].name, p);
        }
      }
    }
    return 0;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_public_function_refuses_null_pointers),
      cmocka_unit_test(run_with_null_values_names_the_null),
      cmocka_unit_test(device_closed_before_its_replay_is_safe),
  };
  return cmocka_run_group_tests(tests, rl_api_setup, rl_api_teardown);
}
