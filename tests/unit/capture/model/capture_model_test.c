// Tests of the capture model's builders and validation (redline/capture.h)
// and of rl_expr_evaluate. Launches use vc_scale from the vecchain code
// object that rl_kernels builds.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_support.h"

#include "redline/capture.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"

typedef struct rl_test_model_s {
  rl_capture_t* capture;
  uint32_t scale;       // kernel vc_scale(in, out, s, n): 24 kernarg bytes
  uint32_t buffers[2];  // "in" at 0x10000, "out" at 0x20000, 4096 bytes
  uint32_t pos;         // parameter "pos" in [1, 4096), captured at 7
  uint8_t kernarg[24];
  rl_pointer_slot_t slots[2];
  rl_scalar_binding_t binding;
  rl_capture_launch_t launch;
} rl_test_model_t;


static void rl_test_store_u64(uint8_t* bytes, uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes[i] = (uint8_t)(value >> (8 * i));
}

static void rl_test_store_u32(uint8_t* bytes, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[i] = (uint8_t)(value >> (8 * i));
}

static void rl_test_expect_error(rl_status_t status, const char* fragment) {
  assert_non_null(status);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_INPUT);
  if (!strstr(rl_status_message(status), fragment)) {
    fail_msg("message \"%s\" lacks \"%s\"", rl_status_message(status),
             fragment);
  }
  rl_status_free(status);
}

// A valid model with one code object, two buffers, a parameter, and a valid
// launch of vc_scale (in -> out, s = 2.0, n bound to pos + 0 = 7) ready to
// add and then break.
static int rl_test_model_setup(void** state) {
  rl_test_model_t* model = calloc(1, sizeof(*model));
  assert_non_null(model);
  assert_null(rl_capture_create("model", &model->capture));
  size_t size = 0;
  void* bytes = rl_test_read_file(RL_TEST_CODE_OBJECT, &size);
  uint32_t index = 0;
  assert_null(rl_capture_add_code_object(model->capture, bytes, size, &index));
  free(bytes);
  assert_null(rl_capture_add_kernel(model->capture, 0, "vc_scale",
                                    &model->scale));
  const char* names[2] = {"in", "out"};
  for (uint32_t b = 0; b < 2; ++b) {
    rl_capture_buffer_t buffer = {.name = (char*)names[b], .size = 4096,
                                  .alignment = 256,
                                  .capture_address = 0x10000ull * (b + 1)};
    assert_null(rl_capture_add_buffer(model->capture, &buffer,
                                      &model->buffers[b]));
  }
  rl_capture_param_t pos = {.name = "pos", .min = 1, .max = 4096,
                            .capture_value = 7};
  assert_null(rl_capture_add_param(model->capture, &pos, &model->pos));
  rl_test_store_u64(model->kernarg + 0, 0x10000);
  rl_test_store_u64(model->kernarg + 8, 0x20000);
  rl_test_store_u32(model->kernarg + 16, 0x40000000u);  // 2.0f
  rl_test_store_u32(model->kernarg + 20, 7);
  for (uint32_t s = 0; s < 2; ++s) {
    model->slots[s] = (rl_pointer_slot_t){
        .kernarg_offset = 8 * s, .buffer = s,
        .effect = s ? RL_EFFECT_WRITE : RL_EFFECT_READ,
        .source = RL_EFFECT_SOURCE_METADATA, .extent_size = 4096};
  }
  model->binding = (rl_scalar_binding_t){RL_BINDING_KERNARG, 20, 4,
                                         {0, 0, RL_EXPR_ADD, 0, 0}};
  model->launch = (rl_capture_launch_t){
      .kernel = model->scale, .grid = {16, 1, 1}, .block = {64, 1, 1},
      .kernarg_size = 24, .kernarg = model->kernarg, .slot_count = 2,
      .slots = model->slots, .binding_count = 1, .bindings = &model->binding};
  *state = model;
  return 0;
}

static int rl_test_model_teardown(void** state) {
  rl_test_model_t* model = *state;
  rl_capture_destroy(model->capture);
  free(model);
  return 0;
}

static void test_valid_launch_is_added_and_validates(void** state) {
  rl_test_model_t* model = *state;
  uint32_t index = UINT32_MAX;
  assert_null(rl_capture_add_launch(model->capture, &model->launch, &index));
  assert_int_equal(index, 0);
  // The model deep-copied the launch: changing the input changes nothing.
  model->kernarg[20] = 99;
  assert_int_equal(model->capture->launches[0].kernarg[20], 7);
  assert_null(rl_capture_validate(model->capture));
}

// Kernel names are ELF symbols: a templated kernel's mangled name runs past
// RL_CAPTURE_NAME_MAX (the hipCUB samples' did), so they may be up to
// RL_CAPTURE_SYMBOL_MAX - 1 bytes; one byte more is refused by length.
static void test_kernel_names_are_symbols(void** state) {
  rl_test_model_t* model = *state;
  char* name = malloc(RL_CAPTURE_SYMBOL_MAX + 1);
  assert_non_null(name);
  memset(name, 'k', RL_CAPTURE_SYMBOL_MAX);
  name[300] = '\0';
  uint32_t index = 0;
  // 300 bytes pass the name check and reach the code-object lookup.
  rl_status_t status =
      rl_capture_add_kernel(model->capture, 0, name, &index);
  assert_non_null(status);
  assert_int_equal(rl_status_code(status), RL_STATUS_NOT_FOUND);
  rl_status_free(status);
  name[300] = 'k';
  name[RL_CAPTURE_SYMBOL_MAX] = '\0';
  rl_test_expect_error(rl_capture_add_kernel(model->capture, 0, name, &index),
                       "kernel name is longer than 4095 bytes");
  // Other names keep their limit.
  name[RL_CAPTURE_NAME_MAX] = '\0';
  rl_capture_param_t param = {name, 0, 1, 0};
  rl_test_expect_error(rl_capture_add_param(model->capture, &param, &index),
                       "parameter name is longer than 255 bytes");
  free(name);
}

static void test_bad_indices_are_rejected(void** state) {
  rl_test_model_t* model = *state;
  uint32_t index = 0;
  rl_test_expect_error(
      rl_capture_add_kernel(model->capture, 5, "vc_scale", &index),
      "refers to code object 5");
  assert_int_equal(index, UINT32_MAX);
  model->launch.kernel = 9;
  rl_test_expect_error(
      rl_capture_add_launch(model->capture, &model->launch, &index),
      "launch 0: kernel 9 of 1");
  model->launch.kernel = model->scale;
  model->slots[1].buffer = 2;
  rl_test_expect_error(
      rl_capture_add_launch(model->capture, &model->launch, &index),
      "refers to buffer 2 of 2");
  model->slots[1].buffer = 1;
  model->binding.expr.param = 3;
  rl_test_expect_error(
      rl_capture_add_launch(model->capture, &model->launch, &index),
      "parameter 3");
  rl_capture_region_t region = {.name = "r", .buffer = 2, .size = 4};
  rl_test_expect_error(rl_capture_add_region(model->capture, &region, &index),
                       "buffer 2 of 2");
  rl_capture_window_t window = {.param = 1, .start = 1, .count = 1};
  rl_test_expect_error(rl_capture_add_window(model->capture, &window, &index),
                       "parameter 1 of 1");
  assert_int_equal(model->capture->launch_count, 0);
}

static void test_overlapping_buffers_are_rejected(void** state) {
  rl_test_model_t* model = *state;
  rl_capture_buffer_t buffer = {.name = "overlap", .size = 256,
                                .alignment = 256,
                                .capture_address = 0x10f00};
  uint32_t index = 0;
  rl_test_expect_error(rl_capture_add_buffer(model->capture, &buffer, &index),
                       "overlaps buffer 0 (in)");
  assert_int_equal(model->capture->buffer_count, 2);
  buffer.capture_address = 0x11000;  // just past "in": fine
  assert_null(rl_capture_add_buffer(model->capture, &buffer, &index));
  // Whole-model validation catches an overlap made after the fact.
  model->capture->buffers[2].capture_address = 0x20000;
  rl_test_expect_error(rl_capture_validate(model->capture),
                       "buffers out and overlap overlap");
}

static void test_binding_value_mismatch_is_rejected(void** state) {
  rl_test_model_t* model = *state;
  uint32_t index = 0;
  model->binding.expr.add = 1;  // pos + 1 = 8, but the kernarg holds 7
  rl_test_expect_error(
      rl_capture_add_launch(model->capture, &model->launch, &index),
      "recorded value 7 differs from pos+1 = 8");
  model->binding.expr.add = 0;
  model->binding.offset = 8;  // on top of a pointer slot
  rl_test_expect_error(
      rl_capture_add_launch(model->capture, &model->launch, &index),
      "overlaps pointer slot 1");
  // Grid x is 16 = ceil((7 + 1017) / 64); one more element needs 17.
  model->binding = (rl_scalar_binding_t){RL_BINDING_GRID, 0, 4,
                                         {0, 1017, RL_EXPR_CEIL_DIV, 64, 0}};
  assert_null(rl_capture_add_launch(model->capture, &model->launch, &index));
  model->binding.expr.add = 1018;
  rl_test_expect_error(
      rl_capture_add_launch(model->capture, &model->launch, &index),
      "recorded value 16 differs from ceil((pos+1018)/64) = 17");
  assert_int_equal(model->capture->launch_count, 1);
}

static void test_window_outside_range_is_rejected(void** state) {
  rl_test_model_t* model = *state;
  uint32_t index = 0;
  rl_capture_window_t window = {.param = 0, .start = 4090, .count = 6,
                                .stride = 1};
  assert_null(rl_capture_add_window(model->capture, &window, &index));
  window.count = 7;  // 4096 is not admitted
  rl_test_expect_error(rl_capture_add_window(model->capture, &window, &index),
                       "window pos=4090..4096 leaves the admitted range");
  window = (rl_capture_window_t){.param = 0, .start = 1, .count = 0};
  rl_test_expect_error(rl_capture_add_window(model->capture, &window, &index),
                       "has 0 values");
  window = (rl_capture_window_t){0, 8, 3, -4};  // 8, 4, 0: 0 < min
  rl_test_expect_error(rl_capture_add_window(model->capture, &window, &index),
                       "leaves the admitted range");
  assert_int_equal(model->capture->window_count, 1);
}

static void test_kernarg_pointer_must_match_the_slot(void** state) {
  rl_test_model_t* model = *state;
  uint32_t index = 0;
  rl_test_store_u64(model->kernarg + 8, 0x20010);  // slot says offset 0
  rl_test_expect_error(
      rl_capture_add_launch(model->capture, &model->launch, &index),
      "kernarg holds 0x20010, but buffer out + 0 is 0x20000");
  model->slots[1].offset = 0x10;
  assert_null(rl_capture_add_launch(model->capture, &model->launch, &index));
  // An untyped non-null pointer is refused: replay could not rebase it.
  model->launch.slot_count = 1;
  rl_test_expect_error(
      rl_capture_add_launch(model->capture, &model->launch, &index),
      "has no typed pointer slot");
  // An extent past the end of the buffer.
  model->launch.slot_count = 2;
  model->slots[1].extent_size = 4097;
  rl_test_expect_error(
      rl_capture_add_launch(model->capture, &model->launch, &index),
      "outside buffer out");
  assert_int_equal(model->capture->launch_count, 1);
}

static void rl_test_expect_value(rl_expr_op_t op, int64_t add,
                                 int64_t operand, int64_t param,
                                 int64_t expected) {
  rl_expr_t expr = {0, add, op, operand, 0};
  int64_t value = -1;
  assert_null(rl_expr_evaluate(&expr, &param, 1, &value));
  assert_int_equal(value, expected);
}

static void rl_test_expect_eval_error(rl_expr_t expr, int64_t param,
                                      const char* fragment) {
  int64_t value = -1;
  rl_status_t status = rl_expr_evaluate(&expr, &param, 1, &value);
  assert_int_equal(value, 0);
  rl_test_expect_error(status, fragment);
}

static void test_expr_evaluate(void** state) {
  (void)state;
  rl_test_expect_value(RL_EXPR_ADD, 1, 0, 7, 8);
  rl_test_expect_value(RL_EXPR_ADD, -7, 0, 7, 0);
  rl_test_expect_value(RL_EXPR_DIV, 0, 16, 31, 1);
  rl_test_expect_value(RL_EXPR_DIV, 1, 16, 31, 2);
  rl_test_expect_value(RL_EXPR_MOD, 3, 10, 7, 0);
  rl_test_expect_value(RL_EXPR_MOD, 0, 10, 7, 7);
  rl_test_expect_value(RL_EXPR_CEIL_DIV, 1, 64, 7, 1);
  rl_test_expect_value(RL_EXPR_CEIL_DIV, 1, 64, 63, 1);
  rl_test_expect_value(RL_EXPR_CEIL_DIV, 1, 64, 64, 2);
  rl_test_expect_value(RL_EXPR_CEIL_DIV, 0, 64, 0, 0);
  rl_test_expect_eval_error((rl_expr_t){0, -8, RL_EXPR_ADD, 0, 0}, 7,
                            "value -1 is negative");
  rl_test_expect_eval_error((rl_expr_t){0, -8, RL_EXPR_DIV, 2, 0}, 7,
                            "div of negative value -1");
  rl_test_expect_eval_error((rl_expr_t){0, 1, RL_EXPR_ADD, 0, 0}, INT64_MAX,
                            "overflows");
  rl_test_expect_eval_error((rl_expr_t){0, 0, RL_EXPR_DIV, 0, 0}, 7,
                            "operand 0, expected > 0");
  rl_test_expect_eval_error((rl_expr_t){0, 0, RL_EXPR_MOD, 0, 0}, 7,
                            "operand 0, expected > 0");
  rl_test_expect_eval_error((rl_expr_t){0, 0, RL_EXPR_CEIL_DIV, -3, 0}, 7,
                            "operand -3, expected > 0");
  rl_test_expect_eval_error((rl_expr_t){0, 0, RL_EXPR_ADD, 5, 0}, 7,
                            "operand 5, expected 0");
  rl_test_expect_eval_error((rl_expr_t){1, 0, RL_EXPR_ADD, 0, 0}, 7,
                            "parameter 1, but there are 1");
  rl_test_expect_eval_error((rl_expr_t){0, 0, (rl_expr_op_t)9, 1, 0}, 7,
                            "operator 9");
  // The scale: s × param + add, 0 read as 1, overflow refused.
  int64_t value = -1, param = 7;
  rl_expr_t scaled = {0, 5, RL_EXPR_CEIL_DIV, 4, 3};  // ceil((3·7+5)/4)
  assert_null(rl_expr_evaluate(&scaled, &param, 1, &value));
  assert_int_equal(value, 7);
  scaled.scale = -2;  // ceil((-14+5)/4): negative inner value
  rl_test_expect_eval_error(scaled, 7, "ceil_div of negative value -9");
  rl_test_expect_eval_error((rl_expr_t){0, 0, RL_EXPR_ADD, 0, INT64_MAX}, 7,
                            "overflows");
}

// The refusal of an incomplete capture (replay and shadow give it): the
// bypassed count only when there is one, in the right number.
static void test_incomplete_status_wording(void** state) {
  (void)state;
  rl_capture_t capture = {0};
  assert_null(rl_capture_incomplete_status(&capture));  // complete
  capture.incomplete_reason = "texture descriptor relocation";
  rl_status_t status = rl_capture_incomplete_status(&capture);
  assert_true(rl_status_is(status, RL_STATUS_CONTRACT));
  assert_string_equal(rl_status_message(status),
                      "capture incomplete: texture descriptor relocation");
  rl_status_free(status);
  capture.bypassed_launches = 1;
  status = rl_capture_incomplete_status(&capture);
  assert_string_equal(
      rl_status_message(status),
      "capture incomplete: 1 launch bypassed (texture descriptor relocation)");
  rl_status_free(status);
  capture.bypassed_launches = 3;
  capture.incomplete_reason = NULL;
  status = rl_capture_incomplete_status(&capture);
  assert_string_equal(rl_status_message(status),
                      "capture incomplete: 3 launches bypassed (no reason "
                      "recorded)");
  rl_status_free(status);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_valid_launch_is_added_and_validates,
                                      rl_test_model_setup,
                                      rl_test_model_teardown),
      cmocka_unit_test_setup_teardown(test_kernel_names_are_symbols,
                                      rl_test_model_setup,
                                      rl_test_model_teardown),
      cmocka_unit_test_setup_teardown(test_bad_indices_are_rejected,
                                      rl_test_model_setup,
                                      rl_test_model_teardown),
      cmocka_unit_test_setup_teardown(test_overlapping_buffers_are_rejected,
                                      rl_test_model_setup,
                                      rl_test_model_teardown),
      cmocka_unit_test_setup_teardown(test_binding_value_mismatch_is_rejected,
                                      rl_test_model_setup,
                                      rl_test_model_teardown),
      cmocka_unit_test_setup_teardown(test_window_outside_range_is_rejected,
                                      rl_test_model_setup,
                                      rl_test_model_teardown),
      cmocka_unit_test_setup_teardown(test_kernarg_pointer_must_match_the_slot,
                                      rl_test_model_setup,
                                      rl_test_model_teardown),
      cmocka_unit_test(test_expr_evaluate),
      cmocka_unit_test(test_incomplete_status_wording),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
