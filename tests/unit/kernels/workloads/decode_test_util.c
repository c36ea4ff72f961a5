// Helpers shared by the decode and verify tests (decode_test_util.h).
#include "tests/unit/kernels/workloads/decode_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/ref/ref_executor.h"
#include "redline/device/device_funnel.h"
#include "sim/sim.h"
#include "tests/support/test_support.h"

void rl_dt_ok(rl_status_t status) {
  if (!status) return;
  char message[1024];
  snprintf(message, sizeof(message), "%s: %s",
           rl_status_code_name(rl_status_code(status)),
           rl_status_message(status));
  rl_status_free(status);
  fail_msg("%s", message);
}

void rl_dt_expect(rl_status_t status, rl_status_code_t code,
                  const char* needle) {
  if (!status) fail_msg("expected %s, got OK", rl_status_code_name(code));
  char message[1024];
  snprintf(message, sizeof(message), "%s", rl_status_message(status));
  rl_status_code_t got = rl_status_code(status);
  rl_status_free(status);
  if (got != code || !strstr(message, needle)) {
    fail_msg("expected %s with \"%s\", got %s: %s", rl_status_code_name(code),
             needle, rl_status_code_name(got), message);
  }
}

void rl_dt_sim_open(rl_dt_sim_t* sim, const char* workload, int null_device) {
  rl_dt_sim_open_target(sim, workload, null_device, "gfx1100");
}

void rl_dt_sim_open_target(rl_dt_sim_t* sim, const char* workload,
                           int null_device, const char* target) {
  rl_dt_sim_open_kernels(sim, workload, null_device, target, "decode");
}

void rl_dt_sim_open_kernels(rl_dt_sim_t* sim, const char* workload,
                            int null_device, const char* target,
                            const char* kernels) {
  memset(sim, 0, sizeof(*sim));
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s-%s.co", RL_KERNELS_DIR, kernels,
           target);
  sim->bytes = rl_test_read_file(path, &sim->size);
  if (null_device) {
    rl_dt_ok(rl_funnel_null_device_create(&sim->funnel_device));
  } else {
    rl_sim_options_t options = {.processor = target,
                                .hazards = RL_SIM_HAZARDS_SEQUENTIAL,
                                .executor = rl_ref_executor()};
    rl_dt_ok(rl_sim_device_create(&options, &sim->device));
    rl_dt_ok(rl_device_funnel_create(sim->device, &sim->funnel_device));
  }
  rl_dt_ok(rl_funnel_create(workload, &sim->funnel_device, &sim->funnel));
}

void rl_dt_sim_close(rl_dt_sim_t* sim) {
  rl_funnel_destroy(sim->funnel);
  rl_funnel_device_destroy(&sim->funnel_device);
  assert_null(sim->funnel_device.self);
  if (sim->device) sim->device->vtable->destroy(sim->device);
  free(sim->bytes);
  memset(sim, 0, sizeof(*sim));
}

void rl_dt_sim_load(rl_dt_sim_t* sim) {
  rl_dt_ok(rl_funnel_load_code_object(sim->funnel, sim->bytes, sim->size,
                                      &sim->code_object));
}

uint32_t rl_dt_buffer(rl_dt_sim_t* sim, const char* name, const void* data,
                      uint64_t bytes, uint64_t* out_address) {
  uint32_t buffer = 0;
  rl_dt_ok(rl_funnel_buffer(sim->funnel, name, bytes, 256,
                            RL_BUFFER_ROLE_SCRATCH, false, &buffer,
                            out_address));
  if (data) rl_dt_ok(rl_funnel_upload(sim->funnel, buffer, 0, data, bytes));
  return buffer;
}

void rl_dt_launch(rl_dt_sim_t* sim, const char* name, uint32_t gx,
                  uint32_t gy, const rl_funnel_arg_t* args, uint32_t count) {
  uint32_t kernel = 0;
  rl_dt_ok(rl_funnel_kernel(sim->funnel, sim->code_object, name, &kernel));
  const uint32_t grid[3] = {gx, gy, 1}, block[3] = {64, 1, 1};
  rl_dt_ok(rl_funnel_launch(sim->funnel, kernel, grid, block, 0, args, count,
                            NULL, NULL));
}

void rl_dt_read(rl_dt_sim_t* sim, uint32_t buffer, void* data,
                uint64_t bytes) {
  rl_dt_ok(rl_funnel_read(sim->funnel, buffer, 0, data, bytes));
}

uint64_t rl_dt_next(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

float rl_dt_uniform(uint64_t* state, double amplitude) {
  double u = (double)(rl_dt_next(state) >> 40) * 0x1p-23 - 1.0;
  return (float)(u * amplitude);
}
