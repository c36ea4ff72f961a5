// Tests of the as-issued argument check (shadow/issued_check.h) on a
// hand-made vecchain capture: pointers compared as buffer and offset,
// values byte for byte, bound bytes only at the capture's own values, a
// launch without a record not checked; each mismatch names launch, kernel,
// argument and offset.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redline/capture.h"
#include "redline/capture_issued.h"
#include "shadow/issued_check.h"

#define X_ADDRESS 0x100000ull  // capture addresses
#define Y_ADDRESS 0x200000ull
#define ARM_X 0x7000000ull     // where the arm put them
#define ARM_Y 0x9000000ull

static void expect_ok(rl_status_t status) {
  if (status) fail_msg("unexpected status: %s", rl_status_message(status));
}

static uint8_t* read_whole(const char* path, size_t* out_size) {
  FILE* stream = fopen(path, "rb");
  if (!stream) fail_msg("cannot open %s (was rl_kernels built?)", path);
  fseek(stream, 0, SEEK_END);
  long size = ftell(stream);
  fseek(stream, 0, SEEK_SET);
  uint8_t* data = malloc((size_t)size);
  assert_non_null(data);
  assert_int_equal(fread(data, 1, (size_t)size, stream), (size_t)size);
  fclose(stream);
  *out_size = (size_t)size;
  return data;
}

static void put(uint8_t* kernarg, const rl_capture_t* capture, uint32_t arg,
                uint64_t value) {
  const rl_kernel_arg_t* info = &capture->kernels[0].info->args[arg];
  for (uint32_t i = 0; i < info->size; ++i) {
    kernarg[info->offset + i] = (uint8_t)(value >> (8 * i));
  }
}

static uint32_t offset_of(const rl_capture_t* capture, uint32_t arg) {
  return capture->kernels[0].info->args[arg].offset;
}

// vc_axpy_pos(x + 8, y, pos, 256) twice, pos bound to parameter 0 (capture
// value 5); launch 0 has an as-issued record, launch 1 none.
static rl_capture_t* build(uint8_t* issued) {
  size_t size = 0;
  uint8_t* code = read_whole(RL_KERNELS_DIR "/vecchain-gfx1100.co", &size);
  rl_capture_t* capture = NULL;
  expect_ok(rl_capture_create("vecchain", &capture));
  uint32_t index = 0;
  expect_ok(rl_capture_add_code_object(capture, code, size, &index));
  free(code);
  expect_ok(rl_capture_add_kernel(capture, 0, "vc_axpy_pos", &index));
  rl_capture_buffer_t buffers[2] = {
      {"x", 1024, 256, RL_BUFFER_ROLE_WEIGHTS, X_ADDRESS, false, NULL, 0,
       NULL, 0},
      {"y", 1024, 256, RL_BUFFER_ROLE_STATE, Y_ADDRESS, false, NULL, 0, NULL,
       0},
  };
  for (uint32_t b = 0; b < 2; ++b) {
    expect_ok(rl_capture_add_buffer(capture, &buffers[b], &index));
  }
  rl_capture_param_t param = {"pos", 0, 4096, 5};
  expect_ok(rl_capture_add_param(capture, &param, &index));
  uint32_t kernarg_size = capture->kernels[0].info->kernarg_size;
  uint8_t* kernarg = calloc(kernarg_size, 1);
  put(kernarg, capture, 0, X_ADDRESS + 8);
  put(kernarg, capture, 1, Y_ADDRESS);
  put(kernarg, capture, 2, 5);
  put(kernarg, capture, 3, 256);
  rl_pointer_slot_t slots[2] = {
      {offset_of(capture, 0), 0, 8, RL_EFFECT_READ, RL_EFFECT_SOURCE_METADATA,
       8, 1016},
      {offset_of(capture, 1), 1, 0, RL_EFFECT_READ_WRITE,
       RL_EFFECT_SOURCE_METADATA, 0, 1024}};
  rl_scalar_binding_t binding = {RL_BINDING_KERNARG, offset_of(capture, 2), 4,
                                 {0, 0, RL_EXPR_ADD, 0, 0}};
  rl_capture_launch_t launch = {0,       {4, 1, 1}, {64, 1, 1}, 0,
                                kernarg_size, kernarg, 2, slots, 1,
                                &binding, false};
  expect_ok(rl_capture_add_launch(capture, &launch, &index));
  expect_ok(rl_capture_add_launch(capture, &launch, &index));
  uint32_t end = offset_of(capture, 3) + 4;
  memcpy(issued, kernarg, end);
  expect_ok(rl_capture_add_issued(capture, 0, issued, end));
  free(kernarg);
  return capture;
}

// What the arm dispatched: the pointers rebased, pos at |pos|, n at |n|.
static void dispatched(const rl_capture_t* capture, uint8_t* kernarg,
                       uint64_t x, uint32_t pos, uint32_t n) {
  memset(kernarg, 0, capture->kernels[0].info->kernarg_size);
  put(kernarg, capture, 0, x);
  put(kernarg, capture, 1, ARM_Y);
  put(kernarg, capture, 2, pos);
  put(kernarg, capture, 3, n);
}

static void expect_mismatch(rl_status_t status, const char* needle) {
  if (rl_status_code(status) != RL_STATUS_MISMATCH ||
      !strstr(rl_status_message(status), needle)) {
    fail_msg("expected MISMATCH with '%s', got %s", needle,
             status ? rl_status_message(status) : "OK");
  }
  rl_status_free(status);
}

static void issued_check_compares_pointers_as_buffer_and_offset(void** state) {
  (void)state;
  uint8_t issued[256];
  rl_capture_t* capture = build(issued);
  const uint64_t addresses[2] = {ARM_X, ARM_Y};
  const int64_t at_capture[1] = {5};
  uint8_t kernarg[256];
  uint32_t size = capture->kernels[0].info->kernarg_size;
  bool checked = false;
  dispatched(capture, kernarg, ARM_X + 8, 5, 256);
  expect_ok(rl_issued_check(capture, 0, addresses, at_capture, kernarg, size,
                            &checked));
  assert_true(checked);
  // The pointer's offset in its buffer lost.
  dispatched(capture, kernarg, ARM_X, 5, 256);
  char needle[96];
  snprintf(needle, sizeof(needle),
           "launch 0 (vc_axpy_pos) argument 0 at kernarg offset %u",
           offset_of(capture, 0));
  expect_mismatch(rl_issued_check(capture, 0, addresses, at_capture, kernarg,
                                  size, &checked),
                  needle);
  // The last explicit argument zeroed (a capture-side recording mistake).
  dispatched(capture, kernarg, ARM_X + 8, 5, 0);
  snprintf(needle, sizeof(needle),
           "argument 3 at kernarg offset %u: the dispatch received 0x0, "
           "the program issued 0x100",
           offset_of(capture, 3));
  expect_mismatch(rl_issued_check(capture, 0, addresses, at_capture, kernarg,
                                  size, &checked),
                  needle);
  // A launch without a record is not checked.
  expect_ok(rl_issued_check(capture, 1, addresses, at_capture, kernarg, size,
                            &checked));
  assert_false(checked);
  rl_capture_destroy(capture);
}

static void issued_check_compares_bound_bytes_only_at_the_capture_values(
    void** state) {
  (void)state;
  uint8_t issued[256];
  rl_capture_t* capture = build(issued);
  const uint64_t addresses[2] = {ARM_X, ARM_Y};
  const int64_t at_capture[1] = {5}, elsewhere[1] = {7};
  uint8_t kernarg[256];
  uint32_t size = capture->kernels[0].info->kernarg_size;
  bool checked = false;
  dispatched(capture, kernarg, ARM_X + 8, 7, 256);
  expect_ok(rl_issued_check(capture, 0, addresses, elsewhere, kernarg, size,
                            &checked));
  assert_true(checked);
  expect_mismatch(rl_issued_check(capture, 0, addresses, at_capture, kernarg,
                                  size, &checked),
                  "argument 2 at");
  // Unbound arguments are compared at every value.
  dispatched(capture, kernarg, ARM_X + 8, 7, 255);
  expect_mismatch(rl_issued_check(capture, 0, addresses, elsewhere, kernarg,
                                  size, &checked),
                  "argument 3 at");
  rl_capture_destroy(capture);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(issued_check_compares_pointers_as_buffer_and_offset),
      cmocka_unit_test(
          issued_check_compares_bound_bytes_only_at_the_capture_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
