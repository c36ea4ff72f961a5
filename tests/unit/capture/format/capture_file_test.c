// Tests of the capture file (redline/capture_file.h): round trip with deep
// equality, identity independent of compression, the atomic writer, the
// compatibility rules (unknown optional/required sections, newer versions),
// decoder messages, and the corruption sweep: every single-byte flip and
// every truncation of a file must fail cleanly.
//
// The round-trip test also writes its file to $RL_CAPTURE_FILE_SAMPLE (or
// RL_CAPTURE_FILE_SAMPLE_DEFAULT in the build tree): the fuzzer's seed.
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <cmocka.h>

#include "redline/capture.h"
#include "redline/capture_file.h"
#include "redline/capture_issued.h"

#define TEST_X_ADDRESS 0x100000ull
#define TEST_Y_ADDRESS 0x200000ull
#define TEST_P_ADDRESS 0x300000ull

static void expect_ok(rl_status_t status) {
  if (status) fail_msg("unexpected status: %s", rl_status_message(status));
}

static uint8_t* read_whole(const char* path, size_t* out_size) {
  FILE* stream = fopen(path, "rb");
  if (!stream) fail_msg("cannot open %s (was rl_kernels built?)", path);
  fseek(stream, 0, SEEK_END);
  long length = ftell(stream);
  fseek(stream, 0, SEEK_SET);
  uint8_t* data = malloc((size_t)length + 1);
  assert_non_null(data);
  *out_size = fread(data, 1, (size_t)length, stream);
  fclose(stream);
  assert_int_equal(*out_size, (size_t)length);
  return data;
}

//===----------------------------------------------------------------------===//
// The sample capture: three vecchain launches over three buffers
//===----------------------------------------------------------------------===//

static void put(uint8_t* kernarg, const rl_capture_t* capture, uint32_t kernel,
                uint32_t arg, uint64_t value) {
  const rl_kernel_arg_t* info = &capture->kernels[kernel].info->args[arg];
  for (uint32_t i = 0; i < info->size; ++i) {
    kernarg[info->offset + i] = (uint8_t)(value >> (8 * i));
  }
}

static uint32_t arg_offset(const rl_capture_t* capture, uint32_t kernel,
                           uint32_t arg) {
  return capture->kernels[kernel].info->args[arg].offset;
}

static void add_buffers(rl_capture_t* capture) {
  static uint8_t x[1024], y[1024];
  float values[256];
  for (int i = 0; i < 256; ++i) values[i] = (float)(i % 16) * 0.5f;
  memcpy(x, values, sizeof(x));
  uint32_t seed = 0x12345678u;  // xorshift: incompressible contents
  for (size_t i = 0; i < sizeof(y); ++i) {
    seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    y[i] = (uint8_t)seed;
  }
  rl_capture_buffer_t buffers[3] = {
      {"x", 1024, 256, RL_BUFFER_ROLE_WEIGHTS, TEST_X_ADDRESS, false, x, 0, NULL, 0},
      {"y", 1024, 256, RL_BUFFER_ROLE_STATE, TEST_Y_ADDRESS, true, y, 0, NULL, 0},
      {"partials", 16, 16, RL_BUFFER_ROLE_SCRATCH, TEST_P_ADDRESS, false, NULL, 0, NULL, 0},
  };
  for (uint32_t i = 0; i < 3; ++i) {
    uint32_t index = 0;
    expect_ok(rl_capture_add_buffer(capture, &buffers[i], &index));
    assert_int_equal(index, i);
  }
}

static void add_launch(rl_capture_t* capture, uint32_t kernel, uint32_t grid,
                       uint8_t* kernarg, rl_pointer_slot_t* slots,
                       uint32_t slot_count, rl_scalar_binding_t* bindings,
                       uint32_t binding_count) {
  rl_capture_launch_t launch = {
      kernel, {grid, 1, 1}, {64, 1, 1}, kernel == 2 ? 128 : 0,
      capture->kernels[kernel].info->kernarg_size, kernarg, slot_count, slots,
      binding_count, bindings, false};
  uint32_t index = 0;
  expect_ok(rl_capture_add_launch(capture, &launch, &index));
}

static void add_launches(rl_capture_t* capture) {
  uint8_t kernarg[64];
  // vc_fill(y, 1.0f, 256)
  memset(kernarg, 0, sizeof(kernarg));
  put(kernarg, capture, 0, 0, TEST_Y_ADDRESS);
  put(kernarg, capture, 0, 1, 0x3f800000u);
  put(kernarg, capture, 0, 2, 256);
  rl_pointer_slot_t fill_slot = {arg_offset(capture, 0, 0), 1, 0,
                                 RL_EFFECT_WRITE, RL_EFFECT_SOURCE_DECLARED,
                                 0, 1024};
  add_launch(capture, 0, 4, kernarg, &fill_slot, 1, NULL, 0);
  // vc_axpy_pos(x, y, pos, 256) with pos bound to the parameter.
  memset(kernarg, 0, sizeof(kernarg));
  put(kernarg, capture, 1, 0, TEST_X_ADDRESS + 8);
  put(kernarg, capture, 1, 1, TEST_Y_ADDRESS);
  put(kernarg, capture, 1, 2, 5);
  put(kernarg, capture, 1, 3, 256);
  rl_pointer_slot_t axpy_slots[2] = {
      {arg_offset(capture, 1, 0), 0, 8, RL_EFFECT_READ,
       RL_EFFECT_SOURCE_METADATA, 8, 1016},
      {arg_offset(capture, 1, 1), 1, 0, RL_EFFECT_READ_WRITE,
       RL_EFFECT_SOURCE_UNKNOWN, 0, 1024}};
  rl_scalar_binding_t axpy_binding = {
      RL_BINDING_KERNARG, arg_offset(capture, 1, 2), 4,
      {0, 0, RL_EXPR_ADD, 0, 0}};
  add_launch(capture, 1, 4, kernarg, axpy_slots, 2, &axpy_binding, 1);
  // vc_partial_sum(y, partials, chunk, n): every expression operator.
  memset(kernarg, 0, sizeof(kernarg));
  put(kernarg, capture, 2, 0, TEST_Y_ADDRESS);
  put(kernarg, capture, 2, 1, TEST_P_ADDRESS);
  put(kernarg, capture, 2, 2, 64);
  put(kernarg, capture, 2, 3, 256);
  rl_pointer_slot_t sum_slots[2] = {
      {arg_offset(capture, 2, 0), 1, 0, RL_EFFECT_READ,
       RL_EFFECT_SOURCE_METADATA, 0, 1024},
      {arg_offset(capture, 2, 1), 2, 0, RL_EFFECT_WRITE,
       RL_EFFECT_SOURCE_DECLARED, 0, 16}};
  rl_scalar_binding_t sum_bindings[3] = {
      {RL_BINDING_GRID, 0, 4, {0, 251, RL_EXPR_CEIL_DIV, 64, 0}},
      {RL_BINDING_KERNARG, arg_offset(capture, 2, 2), 4,
       {0, 123, RL_EXPR_DIV, 2, 0}},
      {RL_BINDING_KERNARG, arg_offset(capture, 2, 3), 4,
       {0, 251, RL_EXPR_MOD, 1000, 0}}};
  add_launch(capture, 2, 4, kernarg, sum_slots, 2, sum_bindings, 3);
}

static rl_capture_t* build_sample(void) {
  size_t size = 0;
  uint8_t* code = read_whole(RL_KERNELS_DIR "/vecchain-gfx1100.co", &size);
  rl_capture_t* capture = NULL;
  expect_ok(rl_capture_create("vecchain", &capture));
  uint32_t index = 0;
  expect_ok(rl_capture_add_code_object(capture, code, size, &index));
  free(code);
  const char* kernels[3] = {"vc_fill", "vc_axpy_pos", "vc_partial_sum"};
  for (uint32_t i = 0; i < 3; ++i) {
    expect_ok(rl_capture_add_kernel(capture, 0, kernels[i], &index));
  }
  add_buffers(capture);
  rl_capture_param_t params[2] = {{"pos", 0, 4096, 5}, {"ctx", 1, 8192, 100}};
  expect_ok(rl_capture_add_param(capture, &params[0], &index));
  expect_ok(rl_capture_add_param(capture, &params[1], &index));
  add_launches(capture);
  rl_capture_region_t regions[2] = {{"y_all", 1, 0, 1024, RL_REGION_F32},
                                    {"partials", 2, 0, 16, RL_REGION_U32}};
  expect_ok(rl_capture_add_region(capture, &regions[0], &index));
  expect_ok(rl_capture_add_region(capture, &regions[1], &index));
  rl_capture_window_t windows[2] = {{0, 5, 4, 1}, {1, 100, 2, -1}};
  expect_ok(rl_capture_add_window(capture, &windows[0], &index));
  expect_ok(rl_capture_add_window(capture, &windows[1], &index));
  expect_ok(rl_capture_validate(capture));
  return capture;
}

//===----------------------------------------------------------------------===//
// Deep equality
//===----------------------------------------------------------------------===//

static void expect_launch_equal(const rl_capture_launch_t* a,
                                const rl_capture_launch_t* b) {
  assert_int_equal(a->kernel, b->kernel);
  assert_memory_equal(a->grid, b->grid, sizeof(a->grid));
  assert_memory_equal(a->block, b->block, sizeof(a->block));
  assert_int_equal(a->dynamic_lds, b->dynamic_lds);
  assert_int_equal(a->cooperative, b->cooperative);
  assert_int_equal(a->kernarg_size, b->kernarg_size);
  assert_memory_equal(a->kernarg, b->kernarg, a->kernarg_size);
  assert_int_equal(a->slot_count, b->slot_count);
  for (uint32_t s = 0; s < a->slot_count; ++s) {
    const rl_pointer_slot_t *x = &a->slots[s], *y = &b->slots[s];
    assert_int_equal(x->kernarg_offset, y->kernarg_offset);
    assert_int_equal(x->buffer, y->buffer);
    assert_int_equal(x->offset, y->offset);
    assert_int_equal(x->effect, y->effect);
    assert_int_equal(x->source, y->source);
    assert_int_equal(x->extent_offset, y->extent_offset);
    assert_int_equal(x->extent_size, y->extent_size);
  }
  assert_int_equal(a->binding_count, b->binding_count);
  for (uint32_t i = 0; i < a->binding_count; ++i) {
    const rl_scalar_binding_t *x = &a->bindings[i], *y = &b->bindings[i];
    assert_int_equal(x->target, y->target);
    assert_int_equal(x->offset, y->offset);
    assert_int_equal(x->size, y->size);
    assert_int_equal(x->expr.param, y->expr.param);
    assert_int_equal(x->expr.add, y->expr.add);
    assert_int_equal(x->expr.op, y->expr.op);
    assert_int_equal(x->expr.operand, y->expr.operand);
  }
}

static void expect_buffer_equal(const rl_capture_buffer_t* a,
                                const rl_capture_buffer_t* b, bool contents) {
  assert_string_equal(a->name, b->name);
  assert_int_equal(a->size, b->size);
  assert_int_equal(a->alignment, b->alignment);
  assert_int_equal(a->role, b->role);
  assert_int_equal(a->capture_address, b->capture_address);
  assert_int_equal(a->keep_address, b->keep_address);
  if (!contents || !a->initial) {
    assert_null(b->initial);
    return;
  }
  assert_non_null(b->initial);
  assert_memory_equal(a->initial, b->initial, a->size);
}

// Compares every field; |contents|: whether |b| should hold a's contents.
static void expect_capture_equal(const rl_capture_t* a, const rl_capture_t* b,
                                 bool contents) {
  assert_string_equal(a->workload, b->workload);
  assert_string_equal(a->target, b->target);
  assert_int_equal(a->code_object_count, b->code_object_count);
  for (uint32_t i = 0; i < a->code_object_count; ++i) {
    assert_int_equal(a->code_objects[i].size, b->code_objects[i].size);
    assert_memory_equal(a->code_objects[i].bytes, b->code_objects[i].bytes,
                        a->code_objects[i].size);
    assert_true(rl_digest128_equal(a->code_objects[i].digest,
                                   b->code_objects[i].digest));
  }
  assert_int_equal(a->kernel_count, b->kernel_count);
  for (uint32_t i = 0; i < a->kernel_count; ++i) {
    assert_int_equal(a->kernels[i].code_object, b->kernels[i].code_object);
    assert_string_equal(a->kernels[i].name, b->kernels[i].name);
    assert_string_equal(a->kernels[i].info->name, b->kernels[i].info->name);
  }
  assert_int_equal(a->buffer_count, b->buffer_count);
  for (uint32_t i = 0; i < a->buffer_count; ++i) {
    expect_buffer_equal(&a->buffers[i], &b->buffers[i], contents);
  }
  assert_int_equal(a->param_count, b->param_count);
  for (uint32_t i = 0; i < a->param_count; ++i) {
    assert_string_equal(a->params[i].name, b->params[i].name);
    assert_int_equal(a->params[i].min, b->params[i].min);
    assert_int_equal(a->params[i].max, b->params[i].max);
    assert_int_equal(a->params[i].capture_value, b->params[i].capture_value);
  }
  assert_int_equal(a->launch_count, b->launch_count);
  for (uint32_t i = 0; i < a->launch_count; ++i) {
    expect_launch_equal(&a->launches[i], &b->launches[i]);
  }
  assert_int_equal(a->region_count, b->region_count);
  for (uint32_t i = 0; i < a->region_count; ++i) {
    const rl_capture_region_t *x = &a->regions[i], *y = &b->regions[i];
    assert_string_equal(x->name, y->name);
    assert_int_equal(x->buffer, y->buffer);
    assert_int_equal(x->offset, y->offset);
    assert_int_equal(x->size, y->size);
    assert_int_equal(x->type, y->type);
  }
  assert_int_equal(a->window_count, b->window_count);
  for (uint32_t i = 0; i < a->window_count; ++i) {
    const rl_capture_window_t *x = &a->windows[i], *y = &b->windows[i];
    assert_int_equal(x->param, y->param);
    assert_int_equal(x->start, y->start);
    assert_int_equal(x->count, y->count);
    assert_int_equal(x->stride, y->stride);
  }
  assert_int_equal(a->descriptor_count, b->descriptor_count);
  for (uint32_t i = 0; i < a->descriptor_count; ++i) {
    const rl_capture_descriptor_t *x = &a->descriptors[i],
                                  *y = &b->descriptors[i];
    assert_int_equal(x->buffer, y->buffer);
    assert_int_equal(x->offset, y->offset);
    assert_int_equal(x->layout, y->layout);
    assert_int_equal(x->image, y->image);
    assert_int_equal(x->image_offset, y->image_offset);
  }
}

//===----------------------------------------------------------------------===//
// Helpers over encoded files
//===----------------------------------------------------------------------===//

typedef struct test_bytes_s {
  uint8_t* data;
  size_t size;
} test_bytes_t;

static test_bytes_t encode(const rl_capture_t* capture,
                           const rl_capture_write_options_t* options) {
  test_bytes_t bytes = {NULL, 0};
  expect_ok(rl_capture_file_encode(capture, options, &bytes.data, &bytes.size));
  return bytes;
}

static rl_capture_t* decode_ok(test_bytes_t bytes, rl_capture_file_info_t* info) {
  rl_capture_t* capture = NULL;
  expect_ok(rl_capture_file_read_memory(bytes.data, bytes.size, &capture, info));
  assert_non_null(capture);
  return capture;
}

// Expects decoding to fail with |code| and a message containing |needle|.
static void decode_fails(test_bytes_t bytes, rl_status_code_t code,
                         const char* needle) {
  rl_capture_t* capture = (rl_capture_t*)(uintptr_t)0xcc;  // poison
  rl_status_t status =
      rl_capture_file_read_memory(bytes.data, bytes.size, &capture, NULL);
  assert_null(capture);
  if (rl_status_code(status) != code ||
      (needle && !strstr(rl_status_message(status), needle))) {
    fail_msg("expected %s with '%s', got %s: %s", rl_status_code_name(code),
             needle ? needle : "", rl_status_code_name(rl_status_code(status)),
             rl_status_message(status));
  }
  rl_status_free(status);
}

static void store_u32(uint8_t* at, uint32_t v) {
  for (int i = 0; i < 4; ++i) at[i] = (uint8_t)(v >> (8 * i));
}

static void store_u64(uint8_t* at, uint64_t v) {
  for (int i = 0; i < 8; ++i) at[i] = (uint8_t)(v >> (8 * i));
}

// Recomputes the header's section count, file size and checksum.
static void reseal_header(test_bytes_t bytes, uint32_t section_count) {
  store_u32(bytes.data + 20, section_count);
  store_u64(bytes.data + 24, bytes.size);
  store_u64(bytes.data + 56, XXH3_64bits(bytes.data, 56));
}

// Recomputes the checksum of the section whose header is at |offset|.
static void reseal_section(test_bytes_t bytes, size_t offset) {
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i) length = (length << 8) | bytes.data[offset + 8 + i];
  uint64_t seed = XXH3_64bits(bytes.data + offset, 16);
  store_u64(bytes.data + offset + 16,
            XXH3_64bits_withSeed(bytes.data + offset + 24, length, seed));
}

// Returns a copy of |bytes| with a 5-byte section of |kind| and |flags|
// inserted before END (section |end_index| at |end_offset|).
static test_bytes_t insert_section(test_bytes_t bytes, size_t end_offset,
                                   uint32_t section_count, uint32_t kind,
                                   uint32_t flags) {
  test_bytes_t out = {calloc(1, bytes.size + 32), bytes.size + 32};
  assert_non_null(out.data);
  memcpy(out.data, bytes.data, end_offset);
  uint8_t* section = out.data + end_offset;
  store_u32(section, kind);
  store_u32(section + 4, flags);
  store_u64(section + 8, 5);
  memcpy(section + 24, "hello", 5);
  reseal_section(out, end_offset);
  memcpy(out.data + end_offset + 32, bytes.data + end_offset,
         bytes.size - end_offset);
  reseal_header(out, section_count + 1);
  return out;
}

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

// ISSUED (redline/capture_issued.h): an optional section after WINDOWS that
// round-trips, stays out of the identity, and whose records are checked.
static void capture_file_keeps_issued_records_out_of_the_identity(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  rl_digest128_t before, after;
  expect_ok(rl_capture_identity(capture, &before));
  const uint8_t first[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const uint8_t third[4] = {9, 10, 11, 12};
  expect_ok(rl_capture_add_issued(capture, 0, first, sizeof(first)));
  expect_ok(rl_capture_add_issued(capture, 2, third, sizeof(third)));
  // Out of order, a missing launch: refused.
  rl_status_t status = rl_capture_add_issued(capture, 1, third, 4);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  status = rl_capture_add_issued(capture, 99, third, 4);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  expect_ok(rl_capture_identity(capture, &after));
  assert_memory_equal(&before, &after, sizeof(before));
  test_bytes_t bytes = encode(capture, NULL);
  rl_capture_file_info_t info;
  rl_capture_t* decoded = decode_ok(bytes, &info);
  expect_capture_equal(capture, decoded, true);
  assert_int_equal(info.section_count, 11);
  assert_int_equal(info.sections[9].kind, RL_CAPTURE_SECTION_ISSUED);
  assert_true(info.sections[9].known);
  assert_int_equal(decoded->issued_count, 2);
  assert_null(rl_capture_issued_find(decoded, 1));
  const rl_capture_issued_t* record = rl_capture_issued_find(decoded, 2);
  assert_non_null(record);
  assert_int_equal(record->size, 4);
  assert_memory_equal(record->bytes, third, 4);
  assert_memory_equal(rl_capture_issued_find(decoded, 0)->bytes, first, 8);
  rl_capture_destroy(decoded);
  // The second record names launch 77 (the section resealed): refused,
  // naming the record.
  size_t issued = info.sections[9].offset;
  store_u32(bytes.data + issued + 24 + 4 + 8 + 8, 77);
  reseal_section(bytes, issued);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, "record 1: launch 77");
  free(bytes.data);
  rl_capture_destroy(capture);
}

// COOPERATIVE: a required section after WINDOWS naming the cooperative
// launches, only in captures that have one (an older file, without it,
// reads with every launch ordinary), part of the identity; a truncated
// section and a launch out of range are refused naming them.
static void capture_file_records_cooperative_launches(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  rl_digest128_t before, after;
  expect_ok(rl_capture_identity(capture, &before));
  assert_int_equal(rl_capture_first_cooperative(capture), UINT32_MAX);
  // Without a cooperative launch there is no section (the file of 1.0).
  test_bytes_t plain = encode(capture, NULL);
  rl_capture_file_info_t info;
  rl_capture_t* decoded = decode_ok(plain, &info);
  assert_int_equal(info.section_count, 10);
  assert_int_equal(rl_capture_first_cooperative(decoded), UINT32_MAX);
  rl_capture_destroy(decoded);
  free(plain.data);
  capture->launches[1].cooperative = true;
  expect_ok(rl_capture_identity(capture, &after));
  assert_false(rl_digest128_equal(before, after));
  test_bytes_t bytes = encode(capture, NULL);
  decoded = decode_ok(bytes, &info);
  expect_capture_equal(capture, decoded, true);
  assert_int_equal(rl_capture_first_cooperative(decoded), 1);
  assert_false(decoded->launches[0].cooperative);
  assert_int_equal(info.section_count, 11);
  assert_int_equal(info.sections[9].kind, RL_CAPTURE_SECTION_COOPERATIVE);
  assert_true(info.sections[9].known);
  assert_true(info.sections[9].flags & RL_CAPTURE_SECTION_FLAG_REQUIRED);
  assert_string_equal(rl_capture_section_kind_name(RL_CAPTURE_SECTION_COOPERATIVE),
                      "COOPERATIVE");
  rl_capture_destroy(decoded);
  size_t section = info.sections[9].offset;
  // A count of 2 with one record: truncated.
  store_u32(bytes.data + section + 24, 2);
  reseal_section(bytes, section);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, "cooperative launch count");
  // One record naming launch 77 of 3: refused naming it.
  store_u32(bytes.data + section + 24, 1);
  store_u32(bytes.data + section + 28, 77);
  reseal_section(bytes, section);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, "names launch 77");
  // The record back at launch 1: reads again (the controls changed only it).
  store_u32(bytes.data + section + 28, 1);
  reseal_section(bytes, section);
  decoded = decode_ok(bytes, NULL);
  assert_true(decoded->launches[1].cooperative);
  rl_capture_destroy(decoded);
  free(bytes.data);
  rl_capture_destroy(capture);
}

// Expects rl_capture_add_descriptor(|capture|, |d|) to fail with
// INVALID_INPUT and a message containing |needle|.
static void add_descriptor_fails(rl_capture_t* capture,
                                 const rl_capture_descriptor_t* d,
                                 const char* needle) {
  rl_status_t status = rl_capture_add_descriptor(capture, d);
  if (rl_status_code(status) != RL_STATUS_INVALID_INPUT ||
      !strstr(rl_status_message(status), needle)) {
    fail_msg("expected INVALID_INPUT with '%s', got %s", needle,
             rl_status_message(status));
  }
  rl_status_free(status);
}

// DESCRIPTORS: a texture object's T# inside buffer y at byte 64 pointing at
// x + 256. The model refuses a descriptor out of its buffer, an image
// offset out of range or unaligned, and one whose recorded bytes hold
// another address; the file round-trips it in a required section that is
// part of the identity; a truncated section, a record out of range and an
// unknown layout are refused naming them; rl_descriptor_patch rewrites
// only the address fields.
static void capture_file_records_descriptor_bindings(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  rl_digest128_t before, after;
  expect_ok(rl_capture_identity(capture, &before));
  uint8_t* y = capture->buffers[1].initial;
  store_u32(y + 64, (uint32_t)((TEST_X_ADDRESS + 256) >> 8));
  store_u32(y + 68, 0xabcdef00u);  // format bits above BASE_ADDRESS_HI
  rl_capture_descriptor_t d = {.buffer = 1, .offset = 64,
                               .layout = RL_DESCRIPTOR_IMAGE_GFX11,
                               .image = 0, .image_offset = 256};
  rl_capture_descriptor_t bad = d;
  bad.offset = 1000;  // 1000 + 32 > 1024
  add_descriptor_fails(capture, &bad, "out of range");
  bad = d;
  bad.image_offset = 128;
  add_descriptor_fails(capture, &bad, "not kept 256-byte aligned");
  bad = d;
  bad.image_offset = 1024;
  add_descriptor_fails(capture, &bad, "out of range");
  bad = d;
  bad.image_offset = 512;  // the bytes say x + 256
  add_descriptor_fails(capture, &bad, "holds image address 0x100100");
  bad = d;
  bad.image = 7;
  add_descriptor_fails(capture, &bad, "the capture has 3 buffers");
  bad = d;
  bad.buffer = 2;  // partials: 16 bytes
  add_descriptor_fails(capture, &bad, "out of range");
  expect_ok(rl_capture_add_descriptor(capture, &d));
  add_descriptor_fails(capture, &d, "does not follow");  // overlaps itself
  expect_ok(rl_capture_identity(capture, &after));
  assert_false(rl_digest128_equal(before, after));
  // Patched for an image placed at 0x123456789a00: dword 0 = address >> 8
  // (of x + 256), the low byte of dword 1 = address >> 40, the rest kept.
  uint8_t patched[8];
  expect_ok(rl_descriptor_patch(capture, 0, 0x123456789a00ull, patched));
  uint64_t image = 0x123456789a00ull + 256;
  uint8_t want[8];
  store_u32(want, (uint32_t)(image >> 8));
  store_u32(want + 4, 0xabcdef00u | (uint32_t)(image >> 40));
  assert_memory_equal(patched, want, 8);
  rl_status_t status = rl_descriptor_patch(capture, 0, 0x1080, patched);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  rl_status_free(status);

  test_bytes_t bytes = encode(capture, NULL);
  rl_capture_file_info_t info;
  rl_capture_t* decoded = decode_ok(bytes, &info);
  expect_capture_equal(capture, decoded, true);
  assert_int_equal(info.section_count, 11);
  assert_int_equal(info.sections[9].kind, RL_CAPTURE_SECTION_DESCRIPTORS);
  assert_true(info.sections[9].known);
  assert_true(info.sections[9].flags & RL_CAPTURE_SECTION_FLAG_REQUIRED);
  assert_string_equal(
      rl_capture_section_kind_name(RL_CAPTURE_SECTION_DESCRIPTORS),
      "DESCRIPTORS");
  rl_capture_destroy(decoded);
  size_t record = info.sections[9].offset + 24 + 4;
  // A count of 2 with one record: truncated.
  store_u32(bytes.data + record - 4, 2);
  reseal_section(bytes, info.sections[9].offset);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, "descriptor count");
  store_u32(bytes.data + record - 4, 1);
  // The descriptor at byte 1000 of y: out of range, naming the record.
  store_u64(bytes.data + record + 8, 1000);
  reseal_section(bytes, info.sections[9].offset);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT,
               "DESCRIPTORS record 0: descriptor 0: descriptor at byte 1000 "
               "of buffer y (1024 bytes): its 32 bytes are out of range");
  store_u64(bytes.data + record + 8, 64);
  // Image buffer 9 of 3.
  store_u32(bytes.data + record + 16, 9);
  reseal_section(bytes, info.sections[9].offset);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, "the capture has 3 buffers");
  store_u32(bytes.data + record + 16, 0);
  // Layout 5: unknown.
  store_u32(bytes.data + record + 4, 5);
  reseal_section(bytes, info.sections[9].offset);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, "record 0: layout 5");
  store_u32(bytes.data + record + 4, 0);
  // Every field back: reads again (the controls changed only them).
  reseal_section(bytes, info.sections[9].offset);
  decoded = decode_ok(bytes, NULL);
  assert_int_equal(decoded->descriptor_count, 1);
  rl_capture_destroy(decoded);
  // The section missing (cut out, header resealed): refused, the identity
  // (which covers it) no longer matches what the file holds.
  size_t section = info.sections[9].offset;
  size_t length = 24 + ((4 + 32 + 7) & ~(size_t)7);
  memmove(bytes.data + section, bytes.data + section + length,
          bytes.size - section - length);
  bytes.size -= length;
  reseal_header(bytes, 10);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, "identity mismatch");
  free(bytes.data);
  rl_capture_destroy(capture);
}

static void capture_file_round_trip_keeps_the_capture_and_its_identity(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  test_bytes_t bytes = encode(capture, NULL);
  rl_capture_file_info_t info;
  rl_capture_t* decoded = decode_ok(bytes, &info);
  expect_capture_equal(capture, decoded, true);
  rl_digest128_t a, b;
  expect_ok(rl_capture_identity(capture, &a));
  expect_ok(rl_capture_identity(decoded, &b));
  assert_true(rl_digest128_equal(a, b));
  assert_true(rl_digest128_equal(a, info.identity));
  assert_int_equal(info.version_major, RL_CAPTURE_FILE_VERSION_MAJOR);
  assert_int_equal(info.header_size, RL_CAPTURE_FILE_HEADER_SIZE);
  assert_int_equal(info.file_size, bytes.size);
  assert_string_equal(info.writer, RL_CAPTURE_FILE_WRITER);
  assert_int_equal(info.section_count, 10);
  for (uint32_t i = 0; i < 9; ++i) {
    assert_int_equal(info.sections[i].kind, RL_CAPTURE_SECTION_META + i);
    assert_true(info.sections[i].known);
    assert_int_equal(info.sections[i].offset % 8, 0);
  }
  assert_int_equal(info.sections[9].kind, RL_CAPTURE_SECTION_END);
  assert_string_equal(rl_capture_section_kind_name(RL_CAPTURE_SECTION_LAUNCHES),
                      "LAUNCHES");
  // Through the file system too; the file is the fuzzer's seed.
  const char* sample = getenv("RL_CAPTURE_FILE_SAMPLE");
  if (!sample) sample = RL_CAPTURE_FILE_SAMPLE_DEFAULT;
  expect_ok(rl_capture_file_write(capture, sample, NULL));
  rl_capture_t* from_file = NULL;
  expect_ok(rl_capture_file_read(sample, &from_file, NULL));
  expect_capture_equal(capture, from_file, true);
  rl_capture_destroy(from_file);
  rl_capture_destroy(decoded);
  rl_capture_destroy(capture);
  free(bytes.data);
}

static void test_identity_ignores_compression(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  rl_digest128_t expected;
  expect_ok(rl_capture_identity(capture, &expected));
  rl_capture_write_options_t options[4] = {
      {RL_CAPTURE_COMPRESSION_ZSTD, 0, false},
      {RL_CAPTURE_COMPRESSION_ZSTD, 1, false},
      {RL_CAPTURE_COMPRESSION_ZSTD, 19, false},
      {RL_CAPTURE_COMPRESSION_NONE, 0, false}};
  size_t sizes[4];
  for (int i = 0; i < 4; ++i) {
    test_bytes_t bytes = encode(capture, &options[i]);
    rl_capture_file_info_t info;
    rl_capture_t* decoded = decode_ok(bytes, &info);
    assert_true(rl_digest128_equal(info.identity, expected));
    expect_capture_equal(capture, decoded, true);
    sizes[i] = bytes.size;
    rl_capture_destroy(decoded);
    free(bytes.data);
  }
  assert_true(sizes[0] < sizes[3]);  // x compressed, y stored raw
  // Without contents: a different identity, buffers without contents.
  rl_capture_write_options_t omit = {RL_CAPTURE_COMPRESSION_ZSTD, 0, true};
  test_bytes_t bytes = encode(capture, &omit);
  rl_capture_file_info_t info;
  rl_capture_t* decoded = decode_ok(bytes, &info);
  assert_false(rl_digest128_equal(info.identity, expected));
  expect_capture_equal(capture, decoded, false);
  rl_capture_destroy(decoded);
  free(bytes.data);
  // Bad options are the caller's error.
  rl_capture_write_options_t bad = {RL_CAPTURE_COMPRESSION_ZSTD, 1000, false};
  uint8_t* out = (uint8_t*)(uintptr_t)0xcc;
  size_t out_size = 1;
  rl_status_t status = rl_capture_file_encode(capture, &bad, &out, &out_size);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_null(out);
  rl_status_free(status);
  rl_capture_destroy(capture);
}

// Counts the directory entries of |dir| that are output temporaries.
static int count_temporaries(const char* dir) {
  DIR* stream = opendir(dir);
  assert_non_null(stream);
  int count = 0;
  for (struct dirent* entry; (entry = readdir(stream));) {
    count += strstr(entry->d_name, ".redline-tmp.") != NULL;
  }
  closedir(stream);
  return count;
}

static void expect_write_fails(const rl_capture_t* capture, const char* path) {
  rl_status_t status = rl_capture_file_write(capture, path, NULL);
  if (rl_status_code(status) != RL_STATUS_IO || !strstr(rl_status_message(status), path)) {
    fail_msg("expected IO error naming %s, got %s", path,
             rl_status_message(status));
  }
  rl_status_free(status);
}

static void capture_file_write_keeps_the_old_file_when_it_fails(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  char dir[] = "/tmp/rl_capture_file_test.XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256], subdir[256];
  snprintf(path, sizeof(path), "%s/a.rlc", dir);
  snprintf(subdir, sizeof(subdir), "%s/d.rlc", dir);
  rl_capture_write_options_t raw = {RL_CAPTURE_COMPRESSION_NONE, 0, false};
  expect_ok(rl_capture_file_write(capture, path, &raw));
  size_t before_size = 0;
  uint8_t* before = read_whole(path, &before_size);
  // A write that fails part-way (file size limit): the old file stays.
  struct rlimit saved;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = {4096, saved.rlim_max};
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  expect_write_fails(capture, path);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
  signal(SIGXFSZ, old_handler);
  // The path is a directory: refused before anything is written.
  assert_int_equal(mkdir(subdir, 0755), 0);
  expect_write_fails(capture, subdir);
  // The directory does not exist.
  char missing[300];
  snprintf(missing, sizeof(missing), "%s/nope/b.rlc", dir);
  expect_write_fails(capture, missing);
  size_t after_size = 0;
  uint8_t* after = read_whole(path, &after_size);
  assert_int_equal(before_size, after_size);
  assert_memory_equal(before, after, before_size);
  assert_int_equal(count_temporaries(dir), 0);
  struct stat st;
  assert_int_equal(stat(subdir, &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  // A successful write replaces the file.
  expect_ok(rl_capture_file_write(capture, path, NULL));
  free(after);
  after = read_whole(path, &after_size);
  assert_true(after_size < before_size);
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0644);
  free(before);
  free(after);
  unlink(path);
  rmdir(subdir);
  rmdir(dir);
  rl_capture_destroy(capture);
}

static void capture_file_skips_unknown_optional_sections_and_refuses_required_ones(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  test_bytes_t bytes = encode(capture, NULL);
  rl_capture_file_info_t info;
  rl_capture_t* decoded = decode_ok(bytes, &info);
  rl_capture_destroy(decoded);
  size_t end = info.sections[9].offset;
  // Optional: skipped, reported, the capture is unchanged.
  test_bytes_t optional = insert_section(bytes, end, 10, 0x1000, 0);
  decoded = decode_ok(optional, &info);
  expect_capture_equal(capture, decoded, true);
  assert_int_equal(info.section_count, 11);
  assert_int_equal(info.sections[9].kind, 0x1000);
  assert_false(info.sections[9].known);
  assert_int_equal(info.sections[9].payload_length, 5);
  rl_capture_destroy(decoded);
  // Required: rejected.
  test_bytes_t required = insert_section(bytes, end, 10, 0x1000,
                                         RL_CAPTURE_SECTION_FLAG_REQUIRED);
  decode_fails(required, RL_STATUS_UNSUPPORTED, "section 0x1000, byte");
  // A known section twice: the second LAUNCHES copy is a duplicate.
  size_t launches = info.sections[6].offset, regions = info.sections[7].offset;
  test_bytes_t twice = {malloc(bytes.size + regions - launches),
                        bytes.size + regions - launches};
  memcpy(twice.data, bytes.data, regions);
  memcpy(twice.data + regions, bytes.data + launches, bytes.size - launches);
  reseal_header(twice, 11);
  decode_fails(twice, RL_STATUS_INVALID_INPUT, "duplicate section");
  // A missing section: drop REGIONS.
  test_bytes_t dropped = {malloc(bytes.size), 0};
  size_t windows = info.sections[8].offset;
  memcpy(dropped.data, bytes.data, regions);
  memcpy(dropped.data + regions, bytes.data + windows, bytes.size - windows);
  dropped.size = bytes.size - (windows - regions);
  reseal_header(dropped, 9);
  decode_fails(dropped, RL_STATUS_INVALID_INPUT, "REGIONS must come first");
  free(twice.data);
  free(dropped.data);
  free(optional.data);
  free(required.data);
  free(bytes.data);
  rl_capture_destroy(capture);
}

static void capture_file_refuses_another_major_version_and_reads_a_newer_minor(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  test_bytes_t bytes = encode(capture, NULL);
  bytes.data[8] = 2;  // major 2
  reseal_header(bytes, 10);
  decode_fails(bytes, RL_STATUS_UNSUPPORTED, "format version 2.0");
  bytes.data[8] = 1;
  bytes.data[10] = 7;  // minor 7: compatible
  reseal_header(bytes, 10);
  rl_capture_file_info_t info;
  rl_capture_t* decoded = decode_ok(bytes, &info);
  assert_int_equal(info.version_minor, 7);
  rl_capture_destroy(decoded);
  bytes.data[16] = 1;  // header flags
  reseal_header(bytes, 10);
  decode_fails(bytes, RL_STATUS_UNSUPPORTED, "header flags");
  free(bytes.data);
  rl_capture_destroy(capture);
}

// Resealed corruptions reach the decoders: messages name section and byte.
static void test_decoder_messages(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  test_bytes_t bytes = encode(capture, NULL);
  rl_capture_file_info_t info;
  rl_capture_destroy(decode_ok(bytes, &info));
  const rl_capture_file_section_t* launches = &info.sections[6];
  char needle[96];
  // A launch count far beyond the payload.
  store_u32(bytes.data + launches->payload_offset, 9999);
  reseal_section(bytes, launches->offset);
  snprintf(needle, sizeof(needle),
           "section LAUNCHES, byte %llu: launch count 9999 needs at least",
           (unsigned long long)launches->payload_offset);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, needle);
  store_u32(bytes.data + launches->payload_offset, 3);
  // Launch 0's slot count (after kernel, grid, block, lds, size, kernarg).
  size_t slot_count = launches->payload_offset + 4 + 36 + 16;
  store_u32(bytes.data + slot_count, 700);
  reseal_section(bytes, launches->offset);
  snprintf(needle, sizeof(needle), "byte %llu: launch 0: slot count 700",
           (unsigned long long)slot_count);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, needle);
  store_u32(bytes.data + slot_count, 1);
  reseal_section(bytes, launches->offset);
  rl_capture_destroy(decode_ok(bytes, NULL));
  // Negative control for the identity: a window stride 1 -> 2 decodes into
  // a valid capture that is not the one the header names.
  const rl_capture_file_section_t* windows = &info.sections[8];
  bytes.data[windows->payload_offset + 4 + 16] = 2;
  reseal_section(bytes, windows->offset);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, "identity");
  free(bytes.data);
  rl_capture_destroy(capture);
}

// The reader relies on the builders' checks; this one once let a block
// whose work-item count wraps past 2^64 through (capture_validate.c).
static void test_wrapped_block_rejected(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  rl_capture_launch_t launch = capture->launches[0];
  launch.block[0] = 1u << 31;
  launch.block[1] = 1u << 31;
  launch.block[2] = 4;
  uint32_t index = 0;
  rl_status_t status = rl_capture_add_launch(capture, &launch, &index);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_INPUT);
  rl_status_free(status);
  rl_capture_destroy(capture);
}

static void expect_corrupt(const uint8_t* data, size_t size, size_t where) {
  rl_capture_t* capture = NULL;
  rl_status_t status = rl_capture_file_read_memory(data, size, &capture, NULL);
  rl_status_code_t code = rl_status_code(status);
  if ((code != RL_STATUS_INVALID_INPUT && code != RL_STATUS_UNSUPPORTED) ||
      capture || !rl_status_message(status)[0]) {
    fail_msg("corruption at byte %zu (size %zu): %s %s", where, size,
             rl_status_code_name(code), rl_status_message(status));
  }
  rl_status_free(status);
}

static void capture_file_detects_every_flipped_byte(void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  test_bytes_t bytes = encode(capture, NULL);
  uint8_t* copy = malloc(bytes.size);
  assert_non_null(copy);
  memcpy(copy, bytes.data, bytes.size);
  static const uint8_t masks[2] = {0xff, 0x01};
  for (int m = 0; m < 2; ++m) {
    for (size_t i = 0; i < bytes.size; ++i) {
      copy[i] ^= masks[m];
      expect_corrupt(copy, bytes.size, i);
      copy[i] ^= masks[m];
    }
  }
  for (size_t length = 0; length < bytes.size; ++length) {
    expect_corrupt(copy, length, length);
  }
  expect_corrupt(NULL, 0, 0);
  free(copy);
  free(bytes.data);
  rl_capture_destroy(capture);
}

// The program's state after each step (PROGRAM_STATE, optional, outside
// the identity): kept by a round trip; bad entries refused when added and
// when read (a region past the capture's, resealed so only that check can
// see it).
static void capture_file_program_state_round_trips_and_is_checked(
    void** state) {
  (void)state;
  rl_capture_t* capture = build_sample();
  rl_digest128_t plain;
  expect_ok(rl_capture_identity(capture, &plain));
  const rl_capture_program_state_t states[3] = {
      {5, 0, {1, 2}}, {5, 1, {3, 4}}, {6, 0, {5, 6}}};
  for (int i = 0; i < 3; ++i) {
    expect_ok(rl_capture_add_program_state(capture, &states[i]));
  }
  const rl_capture_program_state_t before = {5, 1, {0, 0}};
  const rl_capture_program_state_t nowhere = {7, 2, {0, 0}};
  rl_status_t refused = rl_capture_add_program_state(capture, &before);
  assert_int_equal(rl_status_code(refused), RL_STATUS_INVALID_INPUT);
  rl_status_free(refused);
  refused = rl_capture_add_program_state(capture, &nowhere);
  assert_int_equal(rl_status_code(refused), RL_STATUS_INVALID_INPUT);
  rl_status_free(refused);
  const rl_capture_program_param_t values[2] = {{5, 1, 100}, {6, 1, 101}};
  for (int i = 0; i < 2; ++i) {
    expect_ok(rl_capture_add_program_param(capture, &values[i]));
  }
  const rl_capture_program_param_t no_param = {7, 2, 0};
  refused = rl_capture_add_program_param(capture, &no_param);
  assert_int_equal(rl_status_code(refused), RL_STATUS_INVALID_INPUT);
  rl_status_free(refused);
  test_bytes_t bytes = encode(capture, NULL);
  rl_capture_file_info_t info;
  rl_capture_t* decoded = decode_ok(bytes, &info);
  assert_int_equal(decoded->program_param_count, 2);
  assert_int_equal(decoded->program_params[1].pos, 6);
  assert_int_equal(decoded->program_params[1].param, 1);
  assert_int_equal(decoded->program_params[1].value, 101);
  assert_int_equal(decoded->program_state_count, 3);
  for (int i = 0; i < 3; ++i) {
    assert_int_equal(decoded->program_states[i].pos, states[i].pos);
    assert_int_equal(decoded->program_states[i].region, states[i].region);
    assert_true(rl_digest128_equal(decoded->program_states[i].digest,
                                   states[i].digest));
  }
  assert_true(rl_digest128_equal(info.identity, plain));
  assert_int_equal(info.section_count, 11);
  const rl_capture_file_section_t* section = &info.sections[9];
  assert_int_equal(section->kind, RL_CAPTURE_SECTION_PROGRAM_STATE);
  assert_int_equal(section->flags, 0);
  assert_true(section->known);
  // Entry 1's region (after the count and its pos) names region 9.
  store_u32(bytes.data + section->payload_offset + 4 + 32 + 8, 9);
  reseal_section(bytes, (size_t)section->offset);
  decode_fails(bytes, RL_STATUS_INVALID_INPUT, "PROGRAM_STATE");
  rl_capture_destroy(decoded);
  rl_capture_destroy(capture);
  free(bytes.data);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(capture_file_round_trip_keeps_the_capture_and_its_identity),
      cmocka_unit_test(test_identity_ignores_compression),
      cmocka_unit_test(capture_file_write_keeps_the_old_file_when_it_fails),
      cmocka_unit_test(capture_file_skips_unknown_optional_sections_and_refuses_required_ones),
      cmocka_unit_test(capture_file_refuses_another_major_version_and_reads_a_newer_minor),
      cmocka_unit_test(capture_file_keeps_issued_records_out_of_the_identity),
      cmocka_unit_test(capture_file_records_cooperative_launches),
      cmocka_unit_test(capture_file_records_descriptor_bindings),
      cmocka_unit_test(test_decoder_messages),
      cmocka_unit_test(test_wrapped_block_rejected),
      cmocka_unit_test(capture_file_detects_every_flipped_byte),
      cmocka_unit_test(capture_file_program_state_round_trips_and_is_checked),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
