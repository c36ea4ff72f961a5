// Tests of the recording funnel (redline/funnel.h) with the record-only
// device, wrapped so a test can see every dispatch and make launches fail.
// Kernels come from the vecchain code object that rl_kernels builds.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_support.h"

#include "redline/funnel.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"

// The null device plus a record of the last dispatch and a failure switch.
typedef struct rl_test_device_s {
  rl_funnel_device_t inner;
  bool fail_launch;
  uint32_t launches;
  uint8_t kernarg[512];
  uint32_t kernarg_size;
  uint32_t grid[3];
} rl_test_device_t;

typedef struct rl_test_s {
  rl_test_device_t device;
  rl_funnel_device_t handle;
  rl_funnel_t* funnel;
  uint32_t kernels[4];  // vc_fill, vc_scale, vc_axpy_pos, vc_partial_sum
  uint32_t buffers[2];  // "in", "out": 4096 bytes each
  uint64_t addresses[2];
} rl_test_t;

enum { RL_TEST_FILL, RL_TEST_SCALE, RL_TEST_AXPY, RL_TEST_PARTIAL };

static const uint32_t rl_test_block[3] = {64, 1, 1};
static const uint32_t rl_test_grid[3] = {16, 1, 1};

static rl_status_t rl_test_load(void* self, const void* bytes, size_t size,
                                uint64_t* out_handle) {
  rl_test_device_t* device = self;
  return device->inner.load_code_object(device->inner.self, bytes, size,
                                        out_handle);
}

static rl_status_t rl_test_allocate(void* self, uint64_t size,
                                    uint64_t alignment, uint64_t* out_address) {
  rl_test_device_t* device = self;
  return device->inner.allocate(device->inner.self, size, alignment,
                                out_address);
}

static rl_status_t rl_test_write(void* self, uint64_t address,
                                 const void* data, uint64_t size) {
  rl_test_device_t* device = self;
  return device->inner.write(device->inner.self, address, data, size);
}

static rl_status_t rl_test_read(void* self, uint64_t address, void* data,
                                uint64_t size) {
  rl_test_device_t* device = self;
  return device->inner.read(device->inner.self, address, data, size);
}

static rl_status_t rl_test_launch(void* self,
                                  const rl_funnel_dispatch_t* dispatch) {
  rl_test_device_t* device = self;
  if (device->fail_launch) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE, "test device refuses launches");
  }
  assert_true(dispatch->kernarg_size <= sizeof(device->kernarg));
  memcpy(device->kernarg, dispatch->kernarg, dispatch->kernarg_size);
  device->kernarg_size = dispatch->kernarg_size;
  memcpy(device->grid, dispatch->grid, sizeof(device->grid));
  ++device->launches;
  return device->inner.launch(device->inner.self, dispatch);
}


static int rl_test_setup(void** state) {
  rl_test_t* test = calloc(1, sizeof(*test));
  assert_non_null(test);
  assert_null(rl_funnel_null_device_create(&test->device.inner));
  test->handle = (rl_funnel_device_t){&test->device, rl_test_load,
                                      rl_test_allocate, rl_test_write,
                                      rl_test_read, rl_test_launch, NULL};
  assert_null(rl_funnel_create("funnel-test", &test->handle, &test->funnel));
  size_t size = 0;
  void* bytes = rl_test_read_file(RL_TEST_CODE_OBJECT, &size);
  uint32_t co = 0;
  assert_null(rl_funnel_load_code_object(test->funnel, bytes, size, &co));
  free(bytes);
  const char* names[4] = {"vc_fill", "vc_scale", "vc_axpy_pos",
                          "vc_partial_sum"};
  for (int k = 0; k < 4; ++k) {
    assert_null(rl_funnel_kernel(test->funnel, co, names[k],
                                 &test->kernels[k]));
  }
  const char* buffers[2] = {"in", "out"};
  for (int b = 0; b < 2; ++b) {
    assert_null(rl_funnel_buffer(test->funnel, buffers[b], 4096, 256,
                                 RL_BUFFER_ROLE_STATE, false,
                                 &test->buffers[b], &test->addresses[b]));
  }
  *state = test;
  return 0;
}

static int rl_test_teardown(void** state) {
  rl_test_t* test = *state;
  rl_funnel_destroy(test->funnel);
  rl_funnel_device_destroy(&test->device.inner);
  free(test);
  return 0;
}

static const rl_capture_t* rl_test_capture(const rl_test_t* test) {
  return rl_funnel_capture(test->funnel);
}

static void rl_test_expect_error(rl_status_t status, rl_status_code_t code,
                                 const char* fragment) {
  assert_non_null(status);
  if (rl_status_code(status) != code ||
      !strstr(rl_status_message(status), fragment)) {
    fail_msg("got %s \"%s\", expected %s with \"%s\"",
             rl_status_code_name(rl_status_code(status)),
             rl_status_message(status), rl_status_code_name(code), fragment);
  }
  rl_status_free(status);
}

// Launches vc_scale(in + in_offset, out, 2.0, 1024).
static rl_status_t rl_test_scale(rl_test_t* test, rl_funnel_arg_t in) {
  const rl_funnel_arg_t args[] = {
      in, rl_funnel_arg_pointer(test->addresses[1]), rl_funnel_arg_f32(2.0f),
      rl_funnel_arg_u32(1024)};
  return rl_funnel_launch(test->funnel, test->kernels[RL_TEST_SCALE],
                          rl_test_grid, rl_test_block, 0, args, 4, NULL, NULL);
}

static void test_null_device_hands_out_fake_aligned_addresses(void** state) {
  rl_test_t* test = *state;
  rl_funnel_device_t* device = &test->device.inner;
  uint64_t a = 0, b = 0;
  assert_null(device->allocate(device->self, 100, 4096, &a));
  assert_null(device->allocate(device->self, 8, 1u << 16, &b));
  assert_true(test->addresses[0] >= RL_FUNNEL_NULL_DEVICE_BASE);
  assert_int_equal(test->addresses[0] % 256, 0);
  assert_int_equal(a % 4096, 0);
  assert_int_equal(b % (1u << 16), 0);
  assert_true(test->addresses[1] >=
              test->addresses[0] + 4096 + RL_FUNNEL_NULL_DEVICE_GAP);
  assert_true(b >= a + 100 + RL_FUNNEL_NULL_DEVICE_GAP);
  const char text[] = "shadow";
  char back[sizeof(text)] = {0};
  assert_null(device->write(device->self, a + 10, text, sizeof(text)));
  assert_null(device->read(device->self, a + 10, back, sizeof(back)));
  assert_string_equal(back, text);
  rl_test_expect_error(device->read(device->self, a + 96, back, 8),
                       RL_STATUS_INVALID_ARGUMENT, "not inside one allocation");
  // New buffers read as zeros.
  uint8_t zeros[64] = {0}, bytes[64];
  memset(bytes, 0xcc, sizeof(bytes));
  assert_null(rl_funnel_read(test->funnel, test->buffers[1], 4032, bytes, 64));
  assert_memory_equal(bytes, zeros, 64);
}

static void test_kernarg_is_assembled_at_metadata_offsets(void** state) {
  rl_test_t* test = *state;
  assert_null(rl_test_scale(test, rl_funnel_arg_pointer(test->addresses[0])));
  const rl_capture_t* capture = rl_test_capture(test);
  const rl_code_object_kernel_t* info =
      capture->kernels[test->kernels[RL_TEST_SCALE]].info;
  assert_int_equal(info->arg_count, 4);
  uint8_t expected[64];
  memset(expected, 0, sizeof(expected));
  float two = 2.0f;
  uint32_t n = 1024;
  memcpy(expected + info->args[0].offset, &test->addresses[0], 8);
  memcpy(expected + info->args[1].offset, &test->addresses[1], 8);
  memcpy(expected + info->args[2].offset, &two, 4);
  memcpy(expected + info->args[3].offset, &n, 4);
  assert_int_equal(capture->launch_count, 1);
  assert_int_equal(capture->launches[0].kernarg_size, info->kernarg_size);
  assert_memory_equal(capture->launches[0].kernarg, expected,
                      info->kernarg_size);
  // The device ran exactly the recorded bytes.
  assert_int_equal(test->device.launches, 1);
  assert_int_equal(test->device.kernarg_size, info->kernarg_size);
  assert_memory_equal(test->device.kernarg, expected, info->kernarg_size);
  assert_int_equal(rl_funnel_null_device_launch_count(&test->device.inner), 1);
}

// vc_fill's layout with hidden arguments appended, as a COV5 build linking
// the device libraries would have it.
static const rl_kernel_arg_t rl_test_hidden_args[] = {
    {0, 8, RL_ARG_KIND_GLOBAL_BUFFER, "out", "global_buffer", "global",
     NULL, NULL, RL_EFFECT_READ_WRITE, false},
    {8, 4, RL_ARG_KIND_BY_VALUE, "value", "by_value", NULL, NULL, NULL, 0, 0},
    {12, 4, RL_ARG_KIND_BY_VALUE, "n", "by_value", NULL, NULL, NULL, 0, 0},
    {16, 4, RL_ARG_KIND_HIDDEN, NULL, "hidden_block_count_x", 0, 0, 0, 0, 0},
    {20, 4, RL_ARG_KIND_HIDDEN, NULL, "hidden_block_count_y", 0, 0, 0, 0, 0},
    {24, 2, RL_ARG_KIND_HIDDEN, NULL, "hidden_group_size_x", 0, 0, 0, 0, 0},
    {26, 2, RL_ARG_KIND_HIDDEN, NULL, "hidden_group_size_y", 0, 0, 0, 0, 0},
    {28, 2, RL_ARG_KIND_HIDDEN, NULL, "hidden_remainder_x", 0, 0, 0, 0, 0},
    {30, 2, RL_ARG_KIND_HIDDEN, NULL, "hidden_grid_dims", 0, 0, 0, 0, 0},
    {32, 4, RL_ARG_KIND_HIDDEN, NULL, "hidden_dynamic_lds_size", 0, 0, 0, 0,
     0},
    {40, 8, RL_ARG_KIND_HIDDEN, NULL, "hidden_global_offset_x", 0, 0, 0, 0, 0},
    {48, 8, RL_ARG_KIND_HIDDEN, NULL, "hidden_queue_ptr", 0, 0, 0, 0, 0},
};

static uint64_t rl_test_le(const uint8_t* bytes, int size) {
  uint64_t value = 0;
  for (int i = size - 1; i >= 0; --i) value = (value << 8) | bytes[i];
  return value;
}

static void test_hidden_arguments_are_filled_like_hip(void** state) {
  rl_test_t* test = *state;
  rl_capture_t* capture = (rl_capture_t*)rl_test_capture(test);
  rl_capture_kernel_t* kernel = &capture->kernels[test->kernels[RL_TEST_FILL]];
  const rl_code_object_kernel_t* original = kernel->info;
  rl_code_object_kernel_t fake = *original;
  fake.arg_count = sizeof(rl_test_hidden_args) / sizeof(rl_test_hidden_args[0]);
  fake.args = (rl_kernel_arg_t*)rl_test_hidden_args;
  fake.kernarg_size = 64;
  kernel->info = &fake;
  memset(test->device.kernarg, 0xcc, sizeof(test->device.kernarg));
  const rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(test->addresses[1]),
                                  rl_funnel_arg_f32(1.5f),
                                  rl_funnel_arg_u32(1024)};
  const uint32_t grid[3] = {8, 2, 1};
  rl_status_t status = rl_funnel_launch(test->funnel,
                                        (uint32_t)(kernel - capture->kernels),
                                        grid, rl_test_block, 48, args, 3,
                                        NULL, NULL);
  kernel->info = original;
  assert_null(status);
  const uint8_t* k = test->device.kernarg;
  assert_int_equal(rl_test_le(k + 16, 4), 8);   // block_count_x
  assert_int_equal(rl_test_le(k + 20, 4), 2);   // block_count_y
  assert_int_equal(rl_test_le(k + 24, 2), 64);  // group_size_x
  assert_int_equal(rl_test_le(k + 26, 2), 1);   // group_size_y
  assert_int_equal(rl_test_le(k + 28, 2), 0);   // remainder_x
  assert_int_equal(rl_test_le(k + 30, 2), 3);   // grid_dims
  assert_int_equal(rl_test_le(k + 32, 4), 48);  // dynamic LDS bytes
  static const uint8_t zeros[28] = {0};
  assert_memory_equal(k + 36, zeros, 28);  // padding, offset, queue: zero
  assert_int_equal(test->device.kernarg_size, 64);
}

// A bound grid axis also binds hidden_block_count_<axis>, so a kernel that
// reads gridDim sees the replayed grid.
static void test_bound_grid_axis_binds_hidden_block_count(void** state) {
  rl_test_t* test = *state;
  rl_capture_t* capture = (rl_capture_t*)rl_test_capture(test);
  rl_capture_kernel_t* kernel = &capture->kernels[test->kernels[RL_TEST_FILL]];
  const rl_code_object_kernel_t* original = kernel->info;
  rl_code_object_kernel_t fake = *original;
  fake.arg_count = sizeof(rl_test_hidden_args) / sizeof(rl_test_hidden_args[0]);
  fake.args = (rl_kernel_arg_t*)rl_test_hidden_args;
  fake.kernarg_size = 64;
  kernel->info = &fake;
  uint32_t pos = 0;
  assert_null(rl_funnel_param(test->funnel, "pos", 1, 100, 7, &pos));
  rl_funnel_launch_options_t options = {0};
  options.grid_bound[0] = true;
  options.grid_binding[0] = (rl_expr_t){pos, 1, RL_EXPR_ADD, 0, 0};  // pos+1 = 8
  const rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(test->addresses[1]),
                                  rl_funnel_arg_f32(1.5f),
                                  rl_funnel_arg_u32(1024)};
  const uint32_t grid[3] = {8, 2, 1};
  uint32_t index = 0;
  rl_status_t status = rl_funnel_launch(
      test->funnel, (uint32_t)(kernel - capture->kernels), grid, rl_test_block,
      0, args, 3, &options, &index);
  kernel->info = original;
  assert_null(status);
  const rl_capture_launch_t* launch = &capture->launches[index];
  assert_int_equal(launch->binding_count, 2);
  assert_int_equal(launch->bindings[0].target, RL_BINDING_GRID);
  assert_int_equal(launch->bindings[1].target, RL_BINDING_KERNARG);
  assert_int_equal(launch->bindings[1].offset, 16);  // hidden_block_count_x
  assert_int_equal(launch->bindings[1].size, 4);
  assert_int_equal(launch->bindings[1].expr.add, 1);
  // The unbound y axis gets no binding.
}

static void test_pointer_outside_buffers_fails_at_record_time(void** state) {
  rl_test_t* test = *state;
  assert_null(rl_test_scale(test, rl_funnel_arg_pointer(test->addresses[0])));
  uint64_t stray = test->addresses[0] + 4096;  // one past the end of "in"
  char text[32];
  snprintf(text, sizeof(text), "pointer 0x%llx", (unsigned long long)stray);
  rl_status_t status = rl_test_scale(test, rl_funnel_arg_pointer(stray));
  assert_non_null(strstr(rl_status_message(status), text));
  rl_test_expect_error(status, RL_STATUS_INVALID_ARGUMENT,
                       "launch 1 (vc_scale): argument 0");
  assert_int_equal(rl_test_capture(test)->launch_count, 1);
  assert_int_equal(test->device.launches, 1);
  // A null pointer is allowed and gets no slot.
  assert_null(rl_test_scale(test, rl_funnel_arg_pointer(0)));
  const rl_capture_launch_t* launch = &rl_test_capture(test)->launches[1];
  assert_int_equal(launch->slot_count, 1);
  assert_int_equal(launch->slots[0].buffer, test->buffers[1]);
}

static void test_effects_declared_metadata_unknown(void** state) {
  rl_test_t* test = *state;
  // Metadata: vc_scale's in is read_only, out write_only; whole buffers.
  assert_null(rl_test_scale(test, rl_funnel_arg_pointer(test->addresses[0] + 64)));
  // Declared overrides metadata: [pointer + 16, +32) read-write.
  assert_null(rl_test_scale(test, rl_funnel_arg_pointer_declared(
                                      test->addresses[0] + 64,
                                      RL_EFFECT_READ_WRITE, 16, 32)));
  // Unknown: vc_fill's out has no access qualifier.
  const rl_funnel_arg_t fill[] = {rl_funnel_arg_pointer(test->addresses[1]),
                                  rl_funnel_arg_f32(0.0f),
                                  rl_funnel_arg_u32(1024)};
  assert_null(rl_funnel_launch(test->funnel, test->kernels[RL_TEST_FILL],
                               rl_test_grid, rl_test_block, 0, fill, 3, NULL,
                               NULL));
  const rl_capture_t* capture = rl_test_capture(test);
  const rl_pointer_slot_t* metadata = capture->launches[0].slots;
  assert_int_equal(metadata[0].effect, RL_EFFECT_READ);
  assert_int_equal(metadata[0].source, RL_EFFECT_SOURCE_METADATA);
  assert_int_equal(metadata[0].offset, 64);
  assert_int_equal(metadata[0].extent_offset, 0);
  assert_int_equal(metadata[0].extent_size, 4096);
  assert_int_equal(metadata[1].effect, RL_EFFECT_WRITE);
  const rl_pointer_slot_t* declared = &capture->launches[1].slots[0];
  assert_int_equal(declared->effect, RL_EFFECT_READ_WRITE);
  assert_int_equal(declared->source, RL_EFFECT_SOURCE_DECLARED);
  assert_int_equal(declared->extent_offset, 80);
  assert_int_equal(declared->extent_size, 32);
  const rl_pointer_slot_t* unknown = &capture->launches[2].slots[0];
  assert_int_equal(unknown->effect, RL_EFFECT_READ_WRITE);
  assert_int_equal(unknown->source, RL_EFFECT_SOURCE_UNKNOWN);
  assert_int_equal(unknown->extent_size, 4096);
  // A declared extent past the buffer is refused.
  rl_test_expect_error(
      rl_test_scale(test, rl_funnel_arg_pointer_declared(
                              test->addresses[0] + 64, RL_EFFECT_READ, 0,
                              4096)),
      RL_STATUS_INVALID_ARGUMENT, "declared extent");
  assert_int_equal(capture->launch_count, 3);
}

static void test_bindings_are_checked(void** state) {
  rl_test_t* test = *state;
  uint32_t pos = 0;
  assert_null(rl_funnel_param(test->funnel, "pos", 1, 4096, 7, &pos));
  rl_expr_t pos_expr = {pos, 0, RL_EXPR_ADD, 0, 0};
  rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(test->addresses[0]),
                            rl_funnel_arg_pointer(test->addresses[1]),
                            rl_funnel_arg_u32_bound(8, pos_expr),
                            rl_funnel_arg_u32(1024)};
  uint32_t kernel = test->kernels[RL_TEST_AXPY];
  rl_test_expect_error(
      rl_funnel_launch(test->funnel, kernel, rl_test_grid, rl_test_block, 0,
                       args, 4, NULL, NULL),
      RL_STATUS_INVALID_ARGUMENT,
      "launch 0 (vc_axpy_pos): argument 2: value 8 differs from its binding "
      "pos = 7");
  // A changed parameter value is fine until a launch binds it.
  assert_null(rl_funnel_set_param(test->funnel, pos, 8));
  uint32_t index = 0;
  assert_null(rl_funnel_launch(test->funnel, kernel, rl_test_grid,
                               rl_test_block, 0, args, 4, NULL, &index));
  assert_int_equal(index, 0);
  const rl_capture_launch_t* launch = &rl_test_capture(test)->launches[0];
  assert_int_equal(launch->binding_count, 1);
  assert_int_equal(launch->bindings[0].target, RL_BINDING_KERNARG);
  assert_int_equal(launch->bindings[0].size, 4);
  rl_test_expect_error(rl_funnel_set_param(test->funnel, pos, 9),
                       RL_STATUS_INVALID_ARGUMENT, "is bound by launch 0");
  // Grid bindings: 16 groups is ceil((8 + 1016) / 64), not ceil((8+1)/64).
  rl_funnel_launch_options_t options = {
      .grid_bound = {true}, .grid_binding = {{pos, 1, RL_EXPR_CEIL_DIV, 64, 0}}};
  rl_test_expect_error(
      rl_funnel_launch(test->funnel, kernel, rl_test_grid, rl_test_block, 0,
                       args, 4, &options, NULL),
      RL_STATUS_INVALID_ARGUMENT, "grid axis 0: value 16 differs");
  options.grid_binding[0].add = 1016;
  assert_null(rl_funnel_launch(test->funnel, kernel, rl_test_grid,
                               rl_test_block, 0, args, 4, &options, NULL));
  // Only integer scalars take bindings.
  rl_funnel_arg_t scale[] = {rl_funnel_arg_pointer(test->addresses[0]),
                             rl_funnel_arg_pointer(test->addresses[1]),
                             rl_funnel_arg_f32(8.0f), rl_funnel_arg_u32(1024)};
  scale[2].bound = true;
  scale[2].binding = pos_expr;
  rl_test_expect_error(
      rl_funnel_launch(test->funnel, test->kernels[RL_TEST_SCALE],
                       rl_test_grid, rl_test_block, 0, scale, 4, NULL, NULL),
      RL_STATUS_INVALID_ARGUMENT, "can carry a binding");
  assert_int_equal(rl_test_capture(test)->launch_count, 2);
}

static void test_argument_types_are_checked(void** state) {
  rl_test_t* test = *state;
  rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(test->addresses[0]),
                            rl_funnel_arg_pointer(test->addresses[1]),
                            rl_funnel_arg_f32(2.0f), rl_funnel_arg_u32(1024)};
  uint32_t kernel = test->kernels[RL_TEST_SCALE];
  rl_test_expect_error(
      rl_funnel_launch(test->funnel, kernel, rl_test_grid, rl_test_block, 0,
                       args, 3, NULL, NULL),
      RL_STATUS_INVALID_ARGUMENT, "3 arguments given, the kernel has 4");
  args[3] = rl_funnel_arg_u64(1024);
  rl_test_expect_error(
      rl_funnel_launch(test->funnel, kernel, rl_test_grid, rl_test_block, 0,
                       args, 4, NULL, NULL),
      RL_STATUS_INVALID_ARGUMENT, "is 8 bytes, the metadata says 4");
  args[3] = rl_funnel_arg_pointer(test->addresses[0]);
  rl_test_expect_error(
      rl_funnel_launch(test->funnel, kernel, rl_test_grid, rl_test_block, 0,
                       args, 4, NULL, NULL),
      RL_STATUS_INVALID_ARGUMENT, "a pointer was passed for a by_value");
  args[3] = rl_funnel_arg_u32(1024);
  args[0] = rl_funnel_arg_u64(test->addresses[0]);
  rl_test_expect_error(
      rl_funnel_launch(test->funnel, kernel, rl_test_grid, rl_test_block, 0,
                       args, 4, NULL, NULL),
      RL_STATUS_INVALID_ARGUMENT, "needs a typed pointer");
  assert_int_equal(rl_test_capture(test)->launch_count, 0);
  assert_int_equal(test->device.launches, 0);
}

static void test_failed_launch_leaves_the_capture_unchanged(void** state) {
  rl_test_t* test = *state;
  const uint32_t pattern = 0xdeadbeefu;
  assert_null(rl_funnel_upload(test->funnel, test->buffers[0], 8, &pattern, 4));
  test->device.fail_launch = true;
  rl_test_expect_error(
      rl_test_scale(test, rl_funnel_arg_pointer(test->addresses[0])),
      RL_STATUS_UNAVAILABLE, "launch 0 (vc_scale): device launch");
  const rl_capture_t* capture = rl_test_capture(test);
  assert_int_equal(capture->launch_count, 0);
  assert_null(capture->buffers[0].initial);
  // Still before the first launch: uploads are still initial contents.
  assert_null(rl_funnel_upload(test->funnel, test->buffers[0], 12, &pattern, 4));
  test->device.fail_launch = false;
  assert_null(rl_test_scale(test, rl_funnel_arg_pointer(test->addresses[0])));
  assert_int_equal(capture->launch_count, 1);
  assert_non_null(capture->buffers[0].initial);
  assert_memory_equal(capture->buffers[0].initial + 8, &pattern, 4);
  assert_memory_equal(capture->buffers[0].initial + 12, &pattern, 4);
  rl_test_expect_error(
      rl_funnel_upload(test->funnel, test->buffers[0], 0, &pattern, 4),
      RL_STATUS_UNSUPPORTED, "already has recorded initial contents");
}

// rl_funnel_keep_address pins a registered buffer (the interposer's answer
// to a pointer inside a struct argument) and refuses an unknown one.
static void test_keep_address_pins_a_buffer(void** state) {
  rl_test_t* test = *state;
  const rl_capture_t* capture = rl_funnel_capture(test->funnel);
  assert_false(capture->buffers[test->buffers[1]].keep_address);
  assert_null(rl_funnel_keep_address(test->funnel, test->buffers[1]));
  assert_true(capture->buffers[test->buffers[1]].keep_address);
  assert_false(capture->buffers[test->buffers[0]].keep_address);
  rl_test_expect_error(rl_funnel_keep_address(test->funnel, 99),
                       RL_STATUS_INVALID_ARGUMENT, "no buffer 99");
}

// A struct argument (like rocPRIM's zip_iterator) holding two addresses
// inside registered buffers and an integer: each address becomes a pointer
// slot at its kernarg word and its buffer keeps its address; the integer
// stays a value. The capture validates, and not once a slot's buffer may
// move (the relocation would then rewrite a word that may be an integer).
static const rl_kernel_arg_t rl_test_struct_args[] = {
    {0, 24, RL_ARG_KIND_BY_VALUE, "iter", "by_value", NULL, NULL, NULL, 0, 0},
    {24, 8, RL_ARG_KIND_BY_VALUE, "count", "by_value", NULL, NULL, NULL, 0,
     0},
    {32, 4, RL_ARG_KIND_BY_VALUE, "n", "by_value", NULL, NULL, NULL, 0, 0},
};

static void test_struct_words_inside_buffers_become_slots(void** state) {
  rl_test_t* test = *state;
  rl_capture_t* capture = (rl_capture_t*)rl_test_capture(test);
  rl_capture_kernel_t* kernel = &capture->kernels[test->kernels[RL_TEST_FILL]];
  const rl_code_object_kernel_t* original = kernel->info;
  rl_code_object_kernel_t fake = *original;
  fake.arg_count = 3;
  fake.args = (rl_kernel_arg_t*)rl_test_struct_args;
  fake.kernarg_size = 40;
  kernel->info = &fake;
  const uint64_t iter[3] = {test->addresses[0] + 16, 7, test->addresses[1]};
  const rl_funnel_arg_t args[] = {rl_funnel_arg_bytes(iter, sizeof(iter)),
                                  rl_funnel_arg_u64(5),
                                  rl_funnel_arg_u32(1024)};
  rl_status_t status = rl_funnel_launch(
      test->funnel, (uint32_t)(kernel - capture->kernels), rl_test_grid,
      rl_test_block, 0, args, 3, NULL, NULL);
  assert_null(status);
  const rl_capture_launch_t* launch = &capture->launches[0];
  assert_int_equal(launch->slot_count, 2);
  assert_int_equal(launch->slots[0].kernarg_offset, 0);
  assert_int_equal(launch->slots[0].buffer, test->buffers[0]);
  assert_int_equal(launch->slots[0].offset, 16);
  assert_int_equal(launch->slots[0].effect, RL_EFFECT_READ_WRITE);
  assert_int_equal(launch->slots[0].source, RL_EFFECT_SOURCE_UNKNOWN);
  assert_int_equal(launch->slots[0].extent_size, 4096);
  assert_int_equal(launch->slots[1].kernarg_offset, 16);
  assert_int_equal(launch->slots[1].buffer, test->buffers[1]);
  assert_true(capture->buffers[test->buffers[0]].keep_address);
  assert_true(capture->buffers[test->buffers[1]].keep_address);
  // The validator finds the kernel in its code object: the fake layout
  // goes there for the check.
  rl_code_object_kernel_t* entry = (rl_code_object_kernel_t*)original;
  const rl_code_object_kernel_t saved = *entry;
  *entry = fake;
  kernel->info = original;
  status = rl_capture_validate(capture);
  if (status) fail_msg("%s", rl_status_message(status));
  capture->buffers[test->buffers[1]].keep_address = false;
  status = rl_capture_validate(capture);
  capture->buffers[test->buffers[1]].keep_address = true;
  *entry = saved;
  rl_test_expect_error(status, RL_STATUS_INVALID_INPUT,
                       "which does not keep its address");
}

static void test_finish_hands_over_a_valid_capture(void** state) {
  rl_test_t* test = *state;
  uint32_t pos = 0, index = 0, late = 0;
  uint64_t late_address = 0;
  assert_null(rl_funnel_param(test->funnel, "pos", 1, 4096, 7, &pos));
  assert_null(rl_test_scale(test, rl_funnel_arg_pointer(test->addresses[0])));
  // A buffer registered after the last launch is snapshotted at finish.
  assert_null(rl_funnel_buffer(test->funnel, "late", 64, 64,
                               RL_BUFFER_ROLE_IO, true, &late, &late_address));
  const uint8_t late_bytes[4] = {1, 2, 3, 4};
  assert_null(rl_funnel_upload(test->funnel, late, 0, late_bytes, 4));
  assert_null(rl_funnel_region(test->funnel, "out", test->buffers[1], 0, 4096,
                               RL_REGION_F32, &index));
  assert_null(rl_funnel_window(test->funnel, pos, 1, 8, 1, &index));
  rl_test_expect_error(rl_funnel_window(test->funnel, pos, 4095, 2, 1, &index),
                       RL_STATUS_INVALID_INPUT, "leaves the admitted range");
  rl_capture_t* capture = NULL;
  assert_null(rl_funnel_finish(test->funnel, &capture));
  assert_non_null(capture);
  assert_null(rl_funnel_capture(test->funnel));
  assert_int_equal(capture->launch_count, 1);
  assert_int_equal(capture->buffer_count, 3);
  assert_true(capture->buffers[late].keep_address);
  assert_int_equal(capture->buffers[late].capture_address, late_address);
  assert_memory_equal(capture->buffers[late].initial, late_bytes, 4);
  rl_capture_t* again = (rl_capture_t*)1;
  rl_test_expect_error(rl_funnel_finish(test->funnel, &again),
                       RL_STATUS_INVALID_ARGUMENT, "finished");
  assert_null(again);
  rl_test_expect_error(
      rl_test_scale(test, rl_funnel_arg_pointer(test->addresses[0])),
      RL_STATUS_INVALID_ARGUMENT, "finished");
  rl_funnel_destroy(test->funnel);
  test->funnel = NULL;
  assert_null(rl_capture_validate(capture));
  rl_capture_destroy(capture);
}

int main(void) {
#define RL_TEST(name) \
  cmocka_unit_test_setup_teardown(name, rl_test_setup, rl_test_teardown)
  const struct CMUnitTest tests[] = {
      RL_TEST(test_null_device_hands_out_fake_aligned_addresses),
      RL_TEST(test_kernarg_is_assembled_at_metadata_offsets),
      RL_TEST(test_hidden_arguments_are_filled_like_hip),
      RL_TEST(test_bound_grid_axis_binds_hidden_block_count),
      RL_TEST(test_pointer_outside_buffers_fails_at_record_time),
      RL_TEST(test_effects_declared_metadata_unknown),
      RL_TEST(test_bindings_are_checked),
      RL_TEST(test_argument_types_are_checked),
      RL_TEST(test_failed_launch_leaves_the_capture_unchanged),
      RL_TEST(test_keep_address_pins_a_buffer),
      RL_TEST(test_struct_words_inside_buffers_become_slots),
      RL_TEST(test_finish_hands_over_a_valid_capture),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
