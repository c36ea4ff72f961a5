// tests/unit/sim/sim_pm4_test_util.c — see sim_pm4_test_util.h.
#include "tests/unit/sim/sim_pm4_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// cmocka.h needs the headers above.
#include <cmocka.h>

#include "aql/aql_decode.h"
#include "kernels/ref/ref_executor.h"

// DISPATCH_INITIATOR bits (pm4_reference.md §2.1): COMPUTE_SHADER_EN,
// FORCE_START_AT_000, ORDER_MODE, CS_W32_EN.
#define RL_TEST_INITIATOR 0x45u
#define RL_TEST_INITIATOR_W32 0x8000u
#define RL_TEST_RSRC1_PRIV (1u << 20)
#define RL_TEST_RSRC2_LDS_SHIFT 15

static void rl_pm4_test_ok(rl_status_t status) {
  if (status != RL_OK) fail_msg("%s", rl_status_message(status));
}

static void* rl_pm4_test_read_file(const char* path, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (file == NULL) fail_msg("cannot open %s", path);
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  void* bytes = malloc((size_t)size);
  assert_non_null(bytes);
  assert_int_equal(fread(bytes, 1, (size_t)size, file), (size_t)size);
  fclose(file);
  *out_size = (size_t)size;
  return bytes;
}

void rl_pm4_fixture_setup(rl_pm4_fixture_t* fixture, const char* processor,
                          rl_sim_hazard_mode_t hazards) {
  rl_pm4_fixture_setup_cache(fixture, processor, hazards, RL_SIM_CACHE_OFF);
}

void rl_pm4_fixture_setup_cache(rl_pm4_fixture_t* fixture,
                                const char* processor,
                                rl_sim_hazard_mode_t hazards,
                                rl_sim_cache_mode_t cache_model) {
  memset(fixture, 0, sizeof(*fixture));
  rl_sim_fixture_t* f = &fixture->sim;
  rl_sim_options_t options = {.processor = processor,
                              .hazards = hazards,
                              .seed = 0x5eed,
                              .executor = rl_ref_executor(),
                              .cache_model = cache_model};
  rl_pm4_test_ok(rl_sim_device_create(&options, &f->device));
  rl_pm4_test_ok(f->device->vtable->queue_create(f->device, 16, &f->queue));
  char path[512];
  snprintf(path, sizeof(path), "%s/vecchain-%s.co", RL_KERNELS_DIR, processor);
  f->code_bytes = rl_pm4_test_read_file(path, &f->code_size);
  rl_pm4_test_ok(rl_code_object_parse(f->code_bytes, f->code_size, &f->code));
  rl_pm4_test_ok(f->device->vtable->load_code_object(
      f->device, f->code_bytes, f->code_size, f->code, &f->loaded));
  rl_pm4_test_ok(rl_pm4_family_for_processor(processor, &fixture->family));
}

void rl_pm4_fixture_teardown(rl_pm4_fixture_t* fixture) {
  rl_sim_fixture_teardown(&fixture->sim);
}

const rl_code_object_kernel_t* rl_pm4_test_kernel(rl_pm4_fixture_t* fixture,
                                                  const char* name) {
  const rl_code_object_kernel_t* kernel =
      rl_code_object_find_kernel(fixture->sim.code, name);
  assert_non_null(kernel);
  return kernel;
}

void rl_pm4_test_ib_init(rl_pm4_fixture_t* fixture, rl_pm4_test_ib_t* ib,
                         uint32_t capacity_dwords) {
  ib->memory = rl_sim_fixture_alloc(&fixture->sim, 4ull * capacity_dwords);
  rl_pm4_builder_init(&ib->builder, fixture->family, ib->memory.host,
                      capacity_dwords);
}

static void rl_pm4_test_set(rl_pm4_builder_t* b, uint32_t index,
                            const uint32_t* values, uint32_t count) {
  assert_true(rl_pm4_emit_set_sh_reg(b, index, values, count, NULL));
}

void rl_pm4_test_emit_kernarg(rl_pm4_fixture_t* fixture, rl_pm4_builder_t* b,
                              uint64_t kernarg) {
  uint32_t user[2] = {(uint32_t)kernarg, (uint32_t)(kernarg >> 32)};
  rl_pm4_test_set(b, fixture->family->regs.user_data_0, user, 2);
}

void rl_pm4_test_emit_kernel(rl_pm4_fixture_t* fixture, rl_pm4_builder_t* b,
                             const char* name, uint64_t kernarg,
                             const rl_pm4_test_kernel_t* options) {
  rl_pm4_test_kernel_t none = {0};
  if (options == NULL) options = &none;
  const rl_code_object_kernel_t* k = rl_pm4_test_kernel(fixture, name);
  const rl_pm4_compute_regs_t* regs = &fixture->family->regs;
  uint64_t entry =
      fixture->sim.loaded.load_base + k->entry_address + options->entry_offset;
  uint32_t pgm[2] = {(uint32_t)(entry >> 8), (uint32_t)(entry >> 40)};
  rl_pm4_test_set(b, regs->pgm_lo, pgm, 2);
  uint32_t lds = 0;
  if (options->lds_bytes >= 0) {
    lds = (k->group_segment_size + (uint32_t)options->lds_bytes + 511) / 512;
  }
  uint32_t rsrc[2] = {
      k->descriptor.compute_pgm_rsrc1,
      k->descriptor.compute_pgm_rsrc2 | (lds << RL_TEST_RSRC2_LDS_SHIFT)};
  if (fixture->family->rsrc1_priv_for_pm4 && !options->no_priv) {
    rsrc[0] |= RL_TEST_RSRC1_PRIV;
  }
  rl_pm4_test_set(b, regs->pgm_rsrc1, rsrc, 2);
  rl_pm4_test_set(b, regs->pgm_rsrc3, &k->descriptor.compute_pgm_rsrc3, 1);
  uint32_t geometry[6] = {0, 0, 0, 64, 1, 1};  // START_X..Z, NUM_THREAD_X..Z
  rl_pm4_test_set(b, regs->start_x, geometry, 6);
  uint32_t zero = 0;
  rl_pm4_test_set(b, regs->tmpring_size, &zero, 1);
  rl_pm4_test_emit_kernarg(fixture, b, kernarg);
}

void rl_pm4_test_emit_dispatch(rl_pm4_fixture_t* fixture, rl_pm4_builder_t* b,
                               const char* name, uint32_t groups,
                               bool w32_flip) {
  const rl_code_object_kernel_t* k = rl_pm4_test_kernel(fixture, name);
  bool w32 = k->descriptor_info.enable_wavefront_size32 != w32_flip;
  uint32_t initiator = RL_TEST_INITIATOR | (w32 ? RL_TEST_INITIATOR_W32 : 0);
  assert_true(rl_pm4_emit_dispatch_direct(b, groups, 1, 1, initiator, NULL));
}

void rl_pm4_test_emit_wait(rl_pm4_fixture_t* fixture, rl_pm4_builder_t* b,
                           bool flush, bool acquire) {
  if (flush) assert_true(rl_pm4_emit_cs_partial_flush(b, NULL));
  if (acquire) {
    assert_true(rl_pm4_emit_acquire_mem(b, fixture->family->gcr_acquire, NULL));
  }
}

uint64_t rl_pm4_test_submit(rl_pm4_fixture_t* fixture,
                            const rl_pm4_test_ib_t* ib, uint64_t signal,
                            bool acquire) {
  uint32_t scope =
      acquire ? RL_AQL_FENCE_SCOPE_SYSTEM : RL_AQL_FENCE_SCOPE_NONE;
  return rl_pm4_test_submit_scopes(fixture, ib, signal, scope,
                                   RL_AQL_FENCE_SCOPE_SYSTEM);
}

uint64_t rl_pm4_test_submit_scopes(rl_pm4_fixture_t* fixture,
                                   const rl_pm4_test_ib_t* ib,
                                   uint64_t signal, uint32_t acquire_scope,
                                   uint32_t release_scope) {
  uint64_t address = ib->memory.address;
  rl_aql_pm4_ib_packet_t packet = {
      .header = rl_aql_header(RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC, 0,
                              acquire_scope, release_scope),
      .vendor_format = RL_AQL_VENDOR_FORMAT_PM4_IB,
      .ib_jump_cmd = {RL_AQL_PM4_IB_HEADER, (uint32_t)address,
                      (uint32_t)(address >> 32),
                      ib->builder.count | RL_AQL_PM4_IB_VALID_BIT},
      .dw_cnt_remain = RL_AQL_PM4_IB_DW_REMAIN,
      .completion_signal = signal,
  };
  return rl_test_submit(&fixture->sim, &packet);
}

uint64_t rl_pm4_test_fill_args(rl_pm4_fixture_t* fixture, uint64_t out,
                               float value, uint32_t n) {
  return rl_sim_fixture_fill_args(&fixture->sim, out, value, n);
}

uint64_t rl_pm4_test_scale_args(rl_pm4_fixture_t* fixture, uint64_t in,
                                uint64_t out, float s, uint32_t n) {
  rl_device_allocation_t args = rl_sim_fixture_alloc(&fixture->sim, 24);
  memcpy((uint8_t*)args.host + 0, &in, 8);
  memcpy((uint8_t*)args.host + 8, &out, 8);
  memcpy((uint8_t*)args.host + 16, &s, 4);
  memcpy((uint8_t*)args.host + 20, &n, 4);
  return args.address;
}

const char* rl_pm4_test_fault(rl_pm4_fixture_t* fixture) {
  rl_device_t* device = fixture->sim.device;
  time_t start = time(NULL);
  for (;;) {
    device->vtable->queue_fault(device, &fixture->sim.queue, &fixture->fault);
    if (fixture->fault.faulted) return fixture->fault.message;
    if (time(NULL) - start > 10) fail_msg("no queue fault within 10 s");
    struct timespec pause = {0, 100000};
    nanosleep(&pause, NULL);
  }
}

void rl_pm4_test_contains(const char* text, const char* needle) {
  if (strstr(text, needle) == NULL) {
    fail_msg("expected \"%s\" in \"%s\"", needle, text);
  }
}
