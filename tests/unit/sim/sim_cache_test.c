// tests/unit/sim/sim_cache_test.c — the simulator's cache model
// (sim/mem/sim_mem.h): each coherence rule with its negative control.
//
// The chains run the vecchain kernels (reference executor) on one work-group
// each, so the placement (consecutive dispatches on opposite halves of the
// WGPs, dispatches two apart on the same WGP) makes the third dispatch read
// through the caches the first one filled:
//   d0 scale(b -> x)  reads b: fills its WGP's L0 and its array's GL1
//   d1 fill(b, 2)     writes b from the other half: L2 changes
//   d2 scale(b -> c)  reads b on d0's WGP: stale unless invalidated.
// b starts as 1.0, so c is 2.0 when the acquire before d2 is right and 1.0
// (strict) when it is missing or too weak.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// cmocka.h needs the headers above.
#include <cmocka.h>

#include "base/test_fault.h"
#include "sim/mem/sim_mem.h"
#include "tests/unit/sim/sim_pm4_test_util.h"

#define RL_TEST_N 64u  // one work-group
#define RL_TEST_NO_ACQUIRE UINT32_MAX

static void rl_test_fill_host(rl_pm4_fixture_t* f, uint64_t address,
                              float value) {
  float values[RL_TEST_N];
  for (uint32_t i = 0; i < RL_TEST_N; ++i) values[i] = value;
  assert_int_equal(f->sim.device->vtable->write(f->sim.device, address, values,
                                                sizeof(values)),
                   RL_OK);
}

static float rl_test_read(rl_pm4_fixture_t* f, uint64_t address) {
  float value = 0;
  assert_int_equal(
      f->sim.device->vtable->read(f->sim.device, address, &value, 4), RL_OK);
  return value;
}

static uint32_t rl_test_count(rl_device_t* device, uint32_t kind) {
  rl_sim_hazard_t hazards[64];
  uint32_t total = rl_sim_hazards(device, hazards, 64);
  uint32_t found = 0;
  for (uint32_t i = 0; i < total && i < 64; ++i) {
    found += hazards[i].kind == kind;
  }
  return found;
}

// Runs the chain with ACQUIRE_MEM(|gcr|) before d2 (RL_TEST_NO_ACQUIRE:
// none) and returns c[0]; *|out_stale| counts STALE_READ findings.
static float rl_test_chain(const char* processor, rl_sim_cache_mode_t mode,
                           uint32_t gcr, uint32_t* out_stale) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup_cache(&f, processor, RL_SIM_HAZARDS_SEQUENTIAL, mode);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t x = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t c = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_test_fill_host(&f, b.address, 1.0f);
  rl_pm4_test_ib_t ib;
  rl_pm4_test_ib_init(&f, &ib, 512);
  rl_pm4_builder_t* builder = &ib.builder;
  rl_pm4_test_emit_kernel(
      &f, builder, "vc_scale",
      rl_pm4_test_scale_args(&f, b.address, x.address, 1.0f, RL_TEST_N), NULL);
  rl_pm4_test_emit_dispatch(&f, builder, "vc_scale", 1, false);
  rl_pm4_test_emit_wait(&f, builder, true, false);  // WAR: no acquire needed
  rl_pm4_test_emit_kernel(&f, builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, b.address, 2.0f, RL_TEST_N),
                          NULL);
  rl_pm4_test_emit_dispatch(&f, builder, "vc_fill", 1, false);
  rl_pm4_test_emit_wait(&f, builder, true, false);
  if (gcr != RL_TEST_NO_ACQUIRE) {
    assert_true(rl_pm4_emit_acquire_mem(builder, gcr, NULL));
  }
  rl_pm4_test_emit_kernel(
      &f, builder, "vc_scale",
      rl_pm4_test_scale_args(&f, b.address, c.address, 1.0f, RL_TEST_N), NULL);
  rl_pm4_test_emit_dispatch(&f, builder, "vc_scale", 1, false);
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &ib, signal, true);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  float value = rl_test_read(&f, c.address + 4 * 7);
  *out_stale = rl_test_count(f.sim.device, RL_SIM_HAZARD_STALE_READ);
  rl_pm4_fixture_teardown(&f);
  return value;
}

// gfx11 ACQUIRE_MEM GCR_CNTL bits (Linux nvd.h PACKET3_ACQUIRE_MEM_GCR_CNTL_*).
#define RL_GFX11_GLK_INV (1u << 7)
#define RL_GFX11_GLV_INV (1u << 8)
#define RL_GFX11_GL1_INV (1u << 9)

static void rl_test_acquire_gfx11(void** state) {
  (void)state;
  uint32_t stale = 0;
  const uint32_t full = RL_GFX11_GLK_INV | RL_GFX11_GLV_INV | RL_GFX11_GL1_INV;
  // The acquire: the consumer sees the producer's bytes, nothing reported.
  assert_true(rl_test_chain("gfx1100", RL_SIM_CACHE_STRICT, full, &stale) ==
              2.0f);
  assert_int_equal(stale, 0);
  // Negative controls: no acquire, no GLV_INV (L0 keeps the line), no
  // GL1_INV (the L0 misses but the array's GL1 still holds the old line).
  assert_true(rl_test_chain("gfx1100", RL_SIM_CACHE_STRICT, RL_TEST_NO_ACQUIRE,
                            &stale) == 1.0f);
  assert_true(stale > 0);
  assert_true(rl_test_chain("gfx1100", RL_SIM_CACHE_STRICT,
                            full & ~RL_GFX11_GLV_INV, &stale) == 1.0f);
  assert_true(rl_test_chain("gfx1100", RL_SIM_CACHE_STRICT,
                            full & ~RL_GFX11_GL1_INV, &stale) == 1.0f);
  assert_true(stale > 0);
  // Report mode: the current bytes, and the finding.
  assert_true(rl_test_chain("gfx1100", RL_SIM_CACHE_REPORT, RL_TEST_NO_ACQUIRE,
                            &stale) == 2.0f);
  assert_true(stale > 0);
  // Off: memory is coherent, as before the model.
  assert_true(rl_test_chain("gfx1100", RL_SIM_CACHE_OFF, RL_TEST_NO_ACQUIRE,
                            &stale) == 2.0f);
  assert_int_equal(stale, 0);
}

static void rl_test_acquire_gfx12(void** state) {
  (void)state;
  uint32_t stale = 0;
  // gfx12 has no GL1: GLK_INV | GLV_INV is the whole acquire (PAL
  // gfx12CmdUtil; bit 9 is reserved there).
  const uint32_t full = RL_GFX11_GLK_INV | RL_GFX11_GLV_INV;
  assert_true(rl_test_chain("gfx1201", RL_SIM_CACHE_STRICT, full, &stale) ==
              2.0f);
  assert_true(rl_test_chain("gfx1201", RL_SIM_CACHE_STRICT, RL_GFX11_GLK_INV,
                            &stale) == 1.0f);
  assert_true(stale > 0);
}

// The scalar cache: d0 reads its kernargs through the K$, d1 rewrites the
// value argument in memory with a vector store, d2 uses the same kernarg
// segment. Without GLK_INV the K$ still holds the old value.
static float rl_test_scalar(uint32_t gcr) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup_cache(&f, "gfx1100", RL_SIM_HAZARDS_SEQUENTIAL,
                             RL_SIM_CACHE_STRICT);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  uint64_t args = rl_pm4_test_fill_args(&f, b.address, 1.0f, RL_TEST_N);
  rl_pm4_test_ib_t ib;
  rl_pm4_test_ib_init(&f, &ib, 512);
  rl_pm4_builder_t* builder = &ib.builder;
  rl_pm4_test_emit_kernel(&f, builder, "vc_fill", args, NULL);
  rl_pm4_test_emit_dispatch(&f, builder, "vc_fill", 1, false);
  rl_pm4_test_emit_wait(&f, builder, true, false);
  // vc_fill(out = &args.value, 7.0, n = 1): kernarg layout out@0, value@8.
  rl_pm4_test_emit_kernel(&f, builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, args + 8, 7.0f, 1), NULL);
  rl_pm4_test_emit_dispatch(&f, builder, "vc_fill", 1, false);
  rl_pm4_test_emit_wait(&f, builder, true, false);
  assert_true(rl_pm4_emit_acquire_mem(builder, gcr, NULL));
  rl_pm4_test_emit_kernel(&f, builder, "vc_fill", args, NULL);
  rl_pm4_test_emit_dispatch(&f, builder, "vc_fill", 1, false);
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &ib, signal, true);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  float value = rl_test_read(&f, b.address);
  rl_pm4_fixture_teardown(&f);
  return value;
}

static void rl_test_scalar_cache(void** state) {
  (void)state;
  const uint32_t full = RL_GFX11_GLK_INV | RL_GFX11_GLV_INV | RL_GFX11_GL1_INV;
  assert_true(rl_test_scalar(full) == 7.0f);
  assert_true(rl_test_scalar(full & ~RL_GFX11_GLK_INV) == 1.0f);
}

// The host reads memory, not L2: fill(b, 4) then RELEASE_MEM with |gcr|,
// in a PM4-IB packet whose own release scope is |release_scope|.
static float rl_test_host(rl_sim_cache_mode_t mode, uint32_t gcr,
                          uint32_t release_scope, uint32_t* out_findings) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup_cache(&f, "gfx1100", RL_SIM_HAZARDS_SEQUENTIAL, mode);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_pm4_test_ib_t ib;
  rl_pm4_test_ib_init(&f, &ib, 512);
  rl_pm4_test_emit_kernel(&f, &ib.builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, b.address, 4.0f, RL_TEST_N),
                          NULL);
  rl_pm4_test_emit_dispatch(&f, &ib.builder, "vc_fill", 1, false);
  const rl_pm4_release_mem_t release = {
      .event_type = RL_PM4_EVENT_CACHE_FLUSH_AND_INV_TS,
      .event_index = RL_PM4_EVENT_INDEX_END_OF_PIPE,
      .gcr = gcr};
  assert_true(rl_pm4_emit_release_mem(&ib.builder, &release, NULL));
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit_scopes(&f, &ib, signal, RL_AQL_FENCE_SCOPE_SYSTEM,
                            release_scope);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  float value = rl_test_read(&f, b.address + 8);
  *out_findings = rl_test_count(f.sim.device, RL_SIM_HAZARD_STALE_HOST_READ);
  rl_pm4_fixture_teardown(&f);
  return value;
}

static void rl_test_host_writeback(void** state) {
  (void)state;
  uint32_t found = 0;
  const rl_pm4_family_t* family = NULL;
  assert_int_equal(rl_pm4_family_for_processor("gfx1100", &family), RL_OK);
  const uint32_t wb = family->release_gcr_writeback;
  // RELEASE_MEM GL2_WB: the host sees the results.
  assert_true(rl_test_host(RL_SIM_CACHE_STRICT, wb, RL_AQL_FENCE_SCOPE_AGENT,
                           &found) == 4.0f);
  assert_int_equal(found, 0);
  // The packet's system release scope alone writes back too.
  assert_true(rl_test_host(RL_SIM_CACHE_STRICT, 0, RL_AQL_FENCE_SCOPE_SYSTEM,
                           &found) == 4.0f);
  // Negative controls: neither: the host sees memory's old zeros.
  assert_true(rl_test_host(RL_SIM_CACHE_STRICT, 0, RL_AQL_FENCE_SCOPE_AGENT,
                           &found) == 0.0f);
  assert_true(found > 0);
  assert_true(rl_test_host(RL_SIM_CACHE_REPORT, 0, RL_AQL_FENCE_SCOPE_NONE,
                           &found) == 4.0f);
  assert_true(found > 0);
}

// AQL fence scopes: the same read / write / read chain as kernel-dispatch
// packets (test executor: vc_copy_u32, vc_fill); d1 and d2 acquire with
// |scope|.
static uint32_t rl_test_aql(uint32_t scope) {
  rl_sim_fixture_t f;
  rl_sim_options_t options = {.seed = 1, .cache_model = RL_SIM_CACHE_STRICT};
  rl_sim_fixture_setup(&f, &options, 16);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f, 4 * RL_TEST_N);
  rl_device_allocation_t x = rl_sim_fixture_alloc(&f, 4 * RL_TEST_N);
  rl_device_allocation_t c = rl_sim_fixture_alloc(&f, 4 * RL_TEST_N);
  uint32_t ones[RL_TEST_N];
  for (uint32_t i = 0; i < RL_TEST_N; ++i) ones[i] = 1;
  assert_int_equal(
      f.device->vtable->write(f.device, b.address, ones, sizeof(ones)), RL_OK);
  uint64_t copy = rl_sim_fixture_kernel(&f, "vc_copy_u32");
  uint64_t fill = rl_sim_fixture_kernel(&f, "vc_fill");
  uint64_t signal = rl_sim_fixture_signal(&f, 1);
  rl_aql_dispatch_packet_t p[3] = {
      rl_test_dispatch(copy,
                       rl_sim_fixture_copy_args(&f, b.address, x.address, 64),
                       RL_TEST_N, 0, true),
      rl_test_dispatch(fill, rl_sim_fixture_fill_args(&f, b.address, 2.0f, 64),
                       RL_TEST_N, 0, true),
      rl_test_dispatch(copy,
                       rl_sim_fixture_copy_args(&f, b.address, c.address, 64),
                       RL_TEST_N, signal, true),
  };
  for (int i = 1; i < 3; ++i) {
    p[i].header = rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, true, scope,
                                RL_AQL_FENCE_SCOPE_SYSTEM);
  }
  for (int i = 0; i < 3; ++i) rl_test_submit(&f, &p[i]);
  assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
  uint32_t value = 0;
  assert_int_equal(f.device->vtable->read(f.device, c.address, &value, 4),
                   RL_OK);
  rl_sim_fixture_teardown(&f);
  return value;
}

static void rl_test_aql_scopes(void** state) {
  (void)state;
  float two = 2.0f;
  uint32_t two_bits = 0;
  memcpy(&two_bits, &two, 4);
  assert_int_equal(rl_test_aql(RL_AQL_FENCE_SCOPE_AGENT), two_bits);
  assert_int_equal(rl_test_aql(RL_AQL_FENCE_SCOPE_SYSTEM), two_bits);
  // Negative control: scope NONE invalidates nothing.
  assert_int_equal(rl_test_aql(RL_AQL_FENCE_SCOPE_NONE), 1u);
}

// The cache model named by an option: no name keeps the caller's default, a
// known name sets it, and (negative control) an unknown one is refused,
// named, with the default left as it was.
static void rl_test_cache_mode_option(void** state) {
  (void)state;
  rl_sim_cache_mode_t mode = RL_SIM_CACHE_STRICT;
  assert_int_equal(rl_sim_cache_mode_option(NULL, &mode), RL_OK);
  assert_int_equal(mode, RL_SIM_CACHE_STRICT);
  assert_int_equal(rl_sim_cache_mode_option("report", &mode), RL_OK);
  assert_int_equal(mode, RL_SIM_CACHE_REPORT);
  rl_status_t status = rl_sim_cache_mode_option("lax", &mode);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_non_null(strstr(rl_status_message(status), "'lax'"));
  rl_status_free(status);
  assert_int_equal(mode, RL_SIM_CACHE_REPORT);
}

// The model's own API: cache-policy bits, the GL1 shared by both L0s,
// in-kernel invalidations and the placement.
static uint32_t rl_test_policy_load(rl_device_t* device, uint64_t address,
                                    uint32_t flags) {
  uint32_t value = 0;
  assert_int_equal(device->vtable->read(device, address, &value, 4), RL_OK);
  const rl_sim_cache_access_t access = {.wgp = 3, .flags = flags};
  rl_sim_cache_load(rl_sim_device_cast(device), &access, address, &value, 4);
  return value;
}

static void rl_test_policy_bits(void** state) {
  (void)state;
  rl_device_t* device = NULL;
  const rl_sim_options_t options = {.cache_model = RL_SIM_CACHE_STRICT};
  assert_int_equal(rl_sim_device_create(&options, &device), RL_OK);
  rl_device_allocation_t b;
  assert_int_equal(
      device->vtable->allocate(device, 256, 256, RL_MEMORY_KIND_DEVICE, &b),
      RL_OK);
  uint32_t one = 1, two = 2;
  assert_int_equal(device->vtable->write(device, b.address, &one, 4), RL_OK);
  assert_int_equal(rl_test_policy_load(device, b.address, 0), 1u);  // fills
  assert_int_equal(device->vtable->write(device, b.address, &two, 4), RL_OK);
  // L0 hit: stale. SLC/DLC are hints; GLC (gfx11) and scope >= SE (gfx12)
  // bypass L0 and GL1.
  assert_int_equal(rl_test_policy_load(device, b.address, 0), 1u);
  assert_int_equal(rl_test_policy_load(device, b.address,
                                       RL_SIM_ACCESS_SLC | RL_SIM_ACCESS_DLC),
                   1u);
  assert_int_equal(rl_test_policy_load(device, b.address, RL_SIM_ACCESS_GLC),
                   2u);
  // An atomic read-modify-write is performed at L2 whatever its bits: it
  // reads the current value, while a plain load still hits the stale line.
  assert_int_equal(rl_test_policy_load(device, b.address, RL_SIM_ACCESS_ATOMIC),
                   2u);
  assert_int_equal(rl_test_policy_load(device, b.address, 0), 1u);
  assert_int_equal(
      rl_test_policy_load(device, b.address,
                          RL_SIM_ACCESS_SCOPE(RL_SIM_ACCESS_SCOPE_SE)),
      2u);
  // The K$ missed, but the array's GL1 the vector load filled is stale.
  assert_int_equal(rl_test_policy_load(device, b.address, RL_SIM_ACCESS_SCALAR),
                   1u);
  // buffer_gl0_inv alone still hits the GL1; with buffer_gl1_inv it is
  // fresh. The K$ keeps its own stale copy until s_dcache_inv / GLK_INV.
  rl_sim_cache_t* cache = &rl_sim_device_cast(device)->cache;
  rl_sim_cache_apply_local(cache, 3, RL_SIM_CACHE_INV_GLV);
  assert_int_equal(rl_test_policy_load(device, b.address, 0), 1u);
  rl_sim_cache_apply_local(cache, 3,
                           RL_SIM_CACHE_INV_GLV | RL_SIM_CACHE_INV_GL1);
  assert_int_equal(rl_test_policy_load(device, b.address, 0), 2u);
  assert_int_equal(rl_test_policy_load(device, b.address, RL_SIM_ACCESS_SCALAR),
                   1u);
  rl_sim_cache_apply(cache, RL_SIM_CACHE_INV_GLK);
  assert_int_equal(rl_test_policy_load(device, b.address, RL_SIM_ACCESS_SCALAR),
                   2u);
  // Placement: consecutive dispatches on opposite halves, two apart equal.
  assert_int_not_equal(rl_sim_cache_place(cache, 4, 0),
                       rl_sim_cache_place(cache, 5, 0));
  assert_int_equal(rl_sim_cache_place(cache, 4, 7),
                   rl_sim_cache_place(cache, 6, 7));
  rl_sim_cache_stats_t stats;
  rl_sim_cache_stats(device, &stats);
  assert_true(stats.stale_reads >= 5);
  assert_int_equal(device->vtable->free(device, b.address), RL_OK);
  device->vtable->destroy(device);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_test_acquire_gfx11),
      cmocka_unit_test(rl_test_acquire_gfx12),
      cmocka_unit_test(rl_test_scalar_cache),
      cmocka_unit_test(rl_test_host_writeback),
      cmocka_unit_test(rl_test_aql_scopes),
      cmocka_unit_test(rl_test_cache_mode_option),
      cmocka_unit_test(rl_test_policy_bits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
