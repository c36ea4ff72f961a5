// The corpus harness (hip_programs_harness.h).
#include "tests/hip_programs/hip_programs_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redline/capture_file.h"
#include "redline/device/device_funnel.h"
#include "sim/isa/isa_executor.h"
#include "sim/sim.h"
#include "redline/status.h"
#include "tests/support/test_support.h"

static void rl_hp_ok(rl_status_t status) {
  if (!status) return;
  char message[1024];
  snprintf(message, sizeof(message), "%s: %s",
           rl_status_code_name(rl_status_code(status)),
           rl_status_message(status));
  rl_status_free(status);
  fail_msg("%s", message);
}

void rl_hp_open(rl_hp_t* hp, const char* program, const char* target,
                const char* variant) {
  memset(hp, 0, sizeof(*hp));
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s-%s%s.co", RL_HIP_PROGRAMS_DIR, program,
           target, variant);
  hp->bytes = rl_test_read_file(path, &hp->size);
  rl_sim_options_t options = {.processor = target,
                              .hazards = RL_SIM_HAZARDS_SEQUENTIAL,
                              .executor = rl_isa_executor()};
  rl_hp_ok(rl_sim_device_create(&options, &hp->device));
  rl_hp_ok(rl_device_funnel_create(hp->device, &hp->funnel_device));
  rl_hp_ok(rl_funnel_create(program, &hp->funnel_device, &hp->funnel));
  rl_hp_ok(rl_funnel_load_code_object(hp->funnel, hp->bytes, hp->size,
                                      &hp->code_object));
  rl_hp_ok(rl_funnel_param(hp->funnel, "step", 0, 1 << 20, 0, &hp->param));
}

void rl_hp_close(rl_hp_t* hp) {
  rl_funnel_destroy(hp->funnel);
  rl_funnel_device_destroy(&hp->funnel_device);
  assert_null(hp->funnel_device.self);
  if (hp->device) hp->device->vtable->destroy(hp->device);
  free(hp->bytes);
  memset(hp, 0, sizeof(*hp));
}

uint32_t rl_hp_buffer(rl_hp_t* hp, const char* name, const void* data,
                      uint64_t bytes, uint64_t* out_address) {
  uint32_t buffer = 0;
  rl_hp_ok(rl_funnel_buffer(hp->funnel, name, bytes, 256,
                            RL_BUFFER_ROLE_STATE, false, &buffer,
                            out_address));
  if (data) rl_hp_ok(rl_funnel_upload(hp->funnel, buffer, 0, data, bytes));
  return buffer;
}

void rl_hp_launch(rl_hp_t* hp, const char* name, uint32_t gx, uint32_t gy,
                  uint32_t bx, uint32_t by, const rl_funnel_arg_t* args,
                  uint32_t count) {
  uint32_t kernel = 0;
  rl_hp_ok(rl_funnel_kernel(hp->funnel, hp->code_object, name, &kernel));
  const uint32_t grid[3] = {gx, gy, 1}, block[3] = {bx, by, 1};
  rl_hp_ok(rl_funnel_launch(hp->funnel, kernel, grid, block, 0, args, count,
                            NULL, NULL));
}

void rl_hp_read(rl_hp_t* hp, uint32_t buffer, void* data, uint64_t bytes) {
  rl_hp_ok(rl_funnel_read(hp->funnel, buffer, 0, data, bytes));
}

void rl_hp_region(rl_hp_t* hp, const char* name, uint32_t buffer,
                  uint64_t bytes, rl_region_type_t type) {
  uint32_t index = 0;
  if (rl_funnel_capture(hp->funnel)->window_count == 0) {
    rl_hp_ok(rl_funnel_window(hp->funnel, hp->param, 0, 2, 1, &index));
  }
  rl_hp_ok(rl_funnel_region(hp->funnel, name, buffer, 0, bytes, type, &index));
}

void rl_hp_write_capture(rl_hp_t* hp, const char* path) {
  rl_capture_t* capture = NULL;
  rl_hp_ok(rl_funnel_finish(hp->funnel, &capture));
  rl_status_t status = rl_capture_file_write(capture, path, NULL);
  rl_capture_destroy(capture);
  rl_hp_ok(status);
}

uint64_t rl_hp_next(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
