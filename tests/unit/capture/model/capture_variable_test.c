// Buffers that alias a code object variable (redline/capture.h,
// rl_capture_buffer_t.symbol), on the relocation fixture
// code_object_reloc.hip: `rl_reloc_data` (16 bytes, plain) and
// `rl_reloc_ptr` (8 bytes, patched by an R_AMDGPU_RELATIVE64). The code
// object's variable list, the model's checks (unknown symbol, size
// mismatch, keep-address, relocated bytes, code object index), the
// address a route binds, the file round trip and the refusal to write a
// broken alias, the funnel's registration and pointer typing, and the hazard
// plan's implicit read-write of a code object's variables, each with the
// control that shows the check can fail.
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
#include "redline/capture_file.h"
#include "redline/code_object.h"
#include "redline/funnel.h"
#include "redline/hazard.h"

typedef struct test_file_s {
  uint8_t* data;
  size_t size;
} test_file_t;

static test_file_t read_fixture(void) {
  test_file_t file = {NULL, 0};
  file.data = rl_test_read_file(RL_RELOC_FIXTURE, &file.size);
  return file;
}

static void expect_error(rl_status_t status, rl_status_code_t code,
                         const char* fragment) {
  if (status == RL_OK) fail_msg("expected an error with '%s'", fragment);
  if (rl_status_code(status) != code ||
      !strstr(rl_status_message(status), fragment)) {
    fail_msg("expected %s with '%s', got %s: %s", rl_status_code_name(code),
             fragment, rl_status_code_name(rl_status_code(status)),
             rl_status_message(status));
  }
  rl_status_free(status);
}

static void expect_ok(rl_status_t status) {
  if (status) fail_msg("%s", rl_status_message(status));
}

// A capture holding the fixture as code object 0.
static rl_capture_t* capture_with_fixture(void) {
  test_file_t file = read_fixture();
  rl_capture_t* capture = NULL;
  expect_ok(rl_capture_create("variables", &capture));
  uint32_t index = 0;
  expect_ok(rl_capture_add_code_object(capture, file.data, file.size, &index));
  free(file.data);
  return capture;
}

static rl_capture_buffer_t variable_buffer(const char* symbol, uint64_t size) {
  return (rl_capture_buffer_t){.name = "var",
                               .size = size,
                               .alignment = 4,
                               .role = RL_BUFFER_ROLE_STATE,
                               .capture_address = 0x10000,
                               .code_object = 0,
                               .symbol = (char*)symbol};
}

static void code_object_lists_its_variables(void** state) {
  (void)state;
  rl_capture_t* capture = capture_with_fixture();
  const rl_code_object_t* co = capture->code_objects[0].parsed;
  const rl_code_object_variable_t* data =
      rl_code_object_find_variable(co, "rl_reloc_data");
  const rl_code_object_variable_t* ptr =
      rl_code_object_find_variable(co, "rl_reloc_ptr");
  assert_non_null(data);
  assert_non_null(ptr);
  assert_int_equal(data->size, 16);
  assert_int_equal(ptr->size, 8);
  // The kernel descriptor is an STT_OBJECT too, but not a variable.
  assert_null(rl_code_object_find_variable(co, "rl_reloc_read.kd"));
  assert_null(rl_code_object_find_variable(co, "no_such_variable"));
  // The relocation patches rl_reloc_ptr, which points into rl_reloc_data.
  assert_int_equal(co->relocation_count, 1);
  assert_int_equal(co->relocations[0].offset, ptr->address);
  rl_capture_destroy(capture);
}

static void variable_buffer_binds_at_load_base_plus_symbol(void** state) {
  (void)state;
  rl_capture_t* capture = capture_with_fixture();
  const rl_code_object_variable_t* data =
      rl_code_object_find_variable(capture->code_objects[0].parsed,
                                   "rl_reloc_data");
  rl_capture_buffer_t buffer = variable_buffer("rl_reloc_data", 8);
  buffer.symbol_offset = 8;  // the last two floats
  uint32_t index = 0;
  expect_ok(rl_capture_add_buffer(capture, &buffer, &index));
  assert_true(rl_capture_buffer_is_variable(&capture->buffers[index]));
  assert_string_equal(capture->buffers[index].symbol, "rl_reloc_data");
  uint64_t address = 0;
  expect_ok(rl_capture_variable_address(capture, index, 0x700000, &address));
  assert_int_equal(address, 0x700000 + data->address + 8);
  expect_ok(rl_capture_validate(capture));
  // An ordinary buffer has no variable address.
  rl_capture_buffer_t plain = {.name = "plain", .size = 64, .alignment = 64,
                               .capture_address = 0x20000};
  expect_ok(rl_capture_add_buffer(capture, &plain, &index));
  expect_error(rl_capture_variable_address(capture, index, 0, &address),
               RL_STATUS_INVALID_ARGUMENT, "not a code object variable");
  rl_capture_destroy(capture);
}

static void bad_variable_buffers_are_refused(void** state) {
  (void)state;
  rl_capture_t* capture = capture_with_fixture();
  uint32_t index = 0;
  rl_capture_buffer_t buffer = variable_buffer("rl_reloc_nothing", 16);
  expect_error(rl_capture_add_buffer(capture, &buffer, &index),
               RL_STATUS_INVALID_INPUT, "unknown symbol");
  buffer = variable_buffer("rl_reloc_data", 32);
  expect_error(rl_capture_add_buffer(capture, &buffer, &index),
               RL_STATUS_INVALID_INPUT, "size mismatch");
  buffer = variable_buffer("rl_reloc_data", 16);
  buffer.symbol_offset = 4;
  expect_error(rl_capture_add_buffer(capture, &buffer, &index),
               RL_STATUS_INVALID_INPUT, "size mismatch");
  buffer = variable_buffer("rl_reloc_data", 16);
  buffer.keep_address = true;
  expect_error(rl_capture_add_buffer(capture, &buffer, &index),
               RL_STATUS_INVALID_INPUT, "cannot keep its address");
  buffer = variable_buffer("rl_reloc_data", 16);
  buffer.code_object = 1;
  expect_error(rl_capture_add_buffer(capture, &buffer, &index),
               RL_STATUS_INVALID_INPUT, "the capture has 1 code objects");
  buffer = variable_buffer("rl_reloc_ptr", 8);
  expect_error(rl_capture_add_buffer(capture, &buffer, &index),
               RL_STATUS_UNSUPPORTED, "patched by a relocation");
  assert_int_equal(capture->buffer_count, 0);
  // The control: the same buffer, right, is accepted.
  buffer = variable_buffer("rl_reloc_data", 16);
  expect_ok(rl_capture_add_buffer(capture, &buffer, &index));
  rl_capture_destroy(capture);
}

//===----------------------------------------------------------------------===//
// Through the funnel: a device with one flat arena, so the funnel can read
// a variable's bytes (the fixture loaded at ARENA_BASE) like any buffer's.
//===----------------------------------------------------------------------===//

#define ARENA_BASE 0x100000ull
#define ARENA_SIZE 0x40000ull
#define BUFFERS_AT 0x120000ull

typedef struct test_device_s {
  uint8_t arena[ARENA_SIZE];
  uint64_t next;
} test_device_t;

static rl_status_t test_load(void* self, const void* bytes, size_t size,
                             uint64_t* out_handle) {
  (void)self, (void)bytes, (void)size;
  *out_handle = ARENA_BASE;
  return RL_OK;
}

static rl_status_t test_allocate(void* self, uint64_t size, uint64_t alignment,
                                 uint64_t* out_address) {
  test_device_t* device = self;
  uint64_t at = (device->next + alignment - 1) & ~(alignment - 1);
  if (at + size > ARENA_BASE + ARENA_SIZE) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE, "arena full");
  }
  device->next = at + size;
  *out_address = at;
  return RL_OK;
}

static rl_status_t test_access(test_device_t* device, uint64_t address,
                               uint64_t size, uint8_t** out) {
  if (address < ARENA_BASE || address + size > ARENA_BASE + ARENA_SIZE) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "0x%llx outside the arena",
                     (unsigned long long)address);
  }
  *out = device->arena + (address - ARENA_BASE);
  return RL_OK;
}

static rl_status_t test_write(void* self, uint64_t address, const void* data,
                              uint64_t size) {
  uint8_t* at = NULL;
  RL_RETURN_IF_ERROR(test_access(self, address, size, &at));
  memcpy(at, data, size);
  return RL_OK;
}

static rl_status_t test_read(void* self, uint64_t address, void* data,
                             uint64_t size) {
  uint8_t* at = NULL;
  RL_RETURN_IF_ERROR(test_access(self, address, size, &at));
  memcpy(data, at, size);
  return RL_OK;
}

static rl_status_t test_launch(void* self, const rl_funnel_dispatch_t* d) {
  (void)self, (void)d;
  return RL_OK;
}

// Records: rl_reloc_read(a), rl_reloc_read(b), rl_reloc_read(&data[1]),
// with rl_reloc_data registered as a variable buffer unless |no_variable|.
static rl_capture_t* record(bool no_variable) {
  test_device_t* device = calloc(1, sizeof(*device));
  assert_non_null(device);
  device->next = BUFFERS_AT;
  const rl_funnel_device_t handle = {device,     test_load,  test_allocate,
                                     test_write, test_read,  test_launch,
                                     NULL};
  rl_funnel_t* funnel = NULL;
  expect_ok(rl_funnel_create("variables", &handle, &funnel));
  test_file_t file = read_fixture();
  uint32_t co = 0, kernel = 0, a = 0, b = 0, var = UINT32_MAX;
  expect_ok(rl_funnel_load_code_object(funnel, file.data, file.size, &co));
  expect_ok(rl_funnel_kernel(funnel, co, "rl_reloc_read", &kernel));
  const rl_code_object_variable_t* data = rl_code_object_find_variable(
      rl_funnel_capture(funnel)->code_objects[co].parsed, "rl_reloc_data");
  uint64_t data_address = ARENA_BASE + data->address;
  // The "loaded" variable holds what the program put there.
  const float values[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  expect_ok(test_write(device, data_address, values, sizeof(values)));
  uint64_t a_address = 0, b_address = 0;
  expect_ok(rl_funnel_buffer(funnel, "a", 64, 64, RL_BUFFER_ROLE_STATE, false,
                             &a, &a_address));
  expect_ok(rl_funnel_buffer(funnel, "b", 64, 64, RL_BUFFER_ROLE_STATE, false,
                             &b, &b_address));
  expect_error(rl_funnel_variable(funnel, "nothing", co, "rl_reloc_nothing",
                                  data_address, RL_BUFFER_ROLE_STATE, &var),
               RL_STATUS_INVALID_ARGUMENT, "unknown symbol");
  if (!no_variable) {
    expect_ok(rl_funnel_variable(funnel, "rl_reloc_data", co, "rl_reloc_data",
                                 data_address, RL_BUFFER_ROLE_STATE, &var));
  }
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  rl_funnel_arg_t arg = rl_funnel_arg_pointer(a_address);
  expect_ok(rl_funnel_launch(funnel, kernel, grid, block, 0, &arg, 1, NULL,
                             NULL));
  arg = rl_funnel_arg_pointer(b_address);
  expect_ok(rl_funnel_launch(funnel, kernel, grid, block, 0, &arg, 1, NULL,
                             NULL));
  arg = rl_funnel_arg_pointer(data_address + 4);
  rl_status_t status =
      rl_funnel_launch(funnel, kernel, grid, block, 0, &arg, 1, NULL, NULL);
  if (no_variable) {
    // The control: without the alias the pointer is in no buffer.
    expect_error(status, RL_STATUS_INVALID_ARGUMENT, "in no registered buffer");
  } else {
    expect_ok(status);
  }
  rl_capture_t* capture = NULL;
  expect_ok(rl_funnel_finish(funnel, &capture));
  rl_funnel_destroy(funnel);
  free(file.data);
  free(device);
  return capture;
}

static void funnel_types_a_pointer_into_a_variable(void** state) {
  (void)state;
  rl_capture_t* capture = record(false);
  uint32_t var = 0;
  assert_true(rl_capture_find_buffer(capture, "rl_reloc_data", &var));
  const rl_capture_buffer_t* buffer = &capture->buffers[var];
  assert_true(rl_capture_buffer_is_variable(buffer));
  assert_int_equal(buffer->size, 16);
  // Initial contents read at the first launch, like any buffer's.
  assert_non_null(buffer->initial);
  float first = 0.0f;
  memcpy(&first, buffer->initial, sizeof(first));
  assert_true(first == 1.0f);
  const rl_capture_launch_t* launch = &capture->launches[2];
  assert_int_equal(launch->slot_count, 1);
  assert_int_equal(launch->slots[0].buffer, var);
  assert_int_equal(launch->slots[0].offset, 4);
  rl_capture_destroy(capture);
  rl_capture_destroy(record(true));
}

static void hazard_plan_reads_and_writes_the_code_objects_variables(
    void** state) {
  (void)state;
  // Launches 0 and 1 write disjoint buffers a and b: only the variable
  // every launch of the code object may touch orders them.
  rl_capture_t* capture = record(false);
  rl_hazard_plan_t* plan = NULL;
  expect_ok(rl_hazard_plan_create(capture, &plan));
  assert_true(plan->boundaries[1].needs_wait);
  uint32_t var = 0;
  assert_true(rl_capture_find_buffer(capture, "rl_reloc_data", &var));
  assert_int_equal(plan->boundaries[1].reason.buffer, var);
  rl_hazard_plan_destroy(plan);
  rl_capture_destroy(capture);
  // The control: the same launches without the variable need no wait.
  capture = record(true);
  expect_ok(rl_hazard_plan_create(capture, &plan));
  assert_false(plan->boundaries[1].needs_wait);
  rl_hazard_plan_destroy(plan);
  rl_capture_destroy(capture);
}

static void file_round_trip_keeps_the_alias(void** state) {
  (void)state;
  rl_capture_t* capture = record(false);
  uint8_t* bytes = NULL;
  size_t size = 0;
  expect_ok(rl_capture_file_encode(capture, NULL, &bytes, &size));
  rl_capture_t* back = NULL;
  expect_ok(rl_capture_file_read_memory(bytes, size, &back, NULL));
  uint32_t var = 0;
  assert_true(rl_capture_find_buffer(back, "rl_reloc_data", &var));
  assert_true(rl_capture_buffer_is_variable(&back->buffers[var]));
  assert_string_equal(back->buffers[var].symbol, "rl_reloc_data");
  assert_int_equal(back->buffers[var].symbol_offset, 0);
  assert_memory_equal(back->buffers[var].initial,
                      capture->buffers[var].initial, 16);
  rl_capture_destroy(back);
  // A capture whose variable names a symbol the code object lacks is not
  // written (the reader refuses it the same way: it builds through
  // rl_capture_add_buffer, bad_variable_buffers_are_refused).
  free(capture->buffers[var].symbol);
  capture->buffers[var].symbol = strdup("rl_reloc_gone");
  uint8_t* bad = NULL;
  size_t bad_size = 0;
  expect_error(rl_capture_file_encode(capture, NULL, &bad, &bad_size),
               RL_STATUS_INVALID_INPUT, "unknown symbol");
  assert_null(bad);
  free(bytes);
  rl_capture_destroy(capture);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(code_object_lists_its_variables),
      cmocka_unit_test(variable_buffer_binds_at_load_base_plus_symbol),
      cmocka_unit_test(bad_variable_buffers_are_refused),
      cmocka_unit_test(funnel_types_a_pointer_into_a_variable),
      cmocka_unit_test(hazard_plan_reads_and_writes_the_code_objects_variables),
      cmocka_unit_test(file_round_trip_keeps_the_alias),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
