// Tests of route pm4 of the replay engine (redline/replay_route_pm4.c) on the
// simulated device in adversarial mode: a pm4 replay equals the eager run
// (the funnel recording executed on the same device) byte for byte on every
// state region, for gfx1100, gfx1151 and gfx1201, with and without register
// retention, and with the CP relaying the kernarg values (pm4_device_patch); the route proof names one packet and the IB; the simulator's
// hazard checker stays silent, and reports a dropped wait or acquire
// (negative controls); a kernel the route cannot launch is refused at
// prepare naming the property.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "redline/device/device.h"
#include "redline/replay_internal.h"
#include "redline/replay_route_state.h"
#include "sim/sim.h"
#include "tests/unit/redline/replay_test_helpers.h"

static const int64_t rl_positions[] = {1, 7, 64, 65, 1000, 4095};
#define RL_POSITION_COUNT (sizeof(rl_positions) / sizeof(rl_positions[0]))

typedef struct rl_pm4_case_s {
  const char* processor;
  bool retain;
  bool relay;  // pm4_device_patch: the CP copies the kernarg values
} rl_pm4_case_t;

typedef struct rl_fixture_s {
  rl_pm4_case_t which;
  rl_device_t* device;
  rl_capture_t* capture;
  rl_replay_t* replay;
  rl_digest128_t eager[RL_POSITION_COUNT][RL_TEST_MAX_REGIONS];
} rl_fixture_t;

// rl_test_record for any target's vecchain code object.
static void rl_record(rl_device_t* device, const char* processor, int64_t pos,
                      rl_capture_t** out_capture, rl_digest128_t* digests) {
  char path[512];
  snprintf(path, sizeof(path), "%s/vecchain-%s.co", RL_KERNELS_DIR, processor);
  size_t size = 0;
  void* bytes = rl_test_read_file(path, &size);
  rl_workload_param_value_t value = {"pos", pos};
  rl_workload_options_t options = {.code_object = bytes,
                                   .code_object_size = size,
                                   .seed = 1,
                                   .params = &value,
                                   .param_count = 1};
  rl_funnel_device_t funnel_device;
  assert_null(rl_device_funnel_device_create(device, &funnel_device));
  rl_funnel_t* funnel = NULL;
  assert_null(rl_funnel_create("vecchain", &funnel_device, &funnel));
  assert_null(rl_workload_vecchain.record(funnel, &options));
  if (digests) rl_test_funnel_digests(funnel, digests);
  assert_null(rl_funnel_finish(funnel, out_capture));
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&funnel_device);
  free(bytes);
}

static int rl_setup(void** state) {
  rl_fixture_t* f = calloc(1, sizeof(*f));
  f->which = *(const rl_pm4_case_t*)*state;
  f->device = rl_test_open_sim(f->which.processor, true, 0x5eed);
  for (size_t i = 0; i < RL_POSITION_COUNT; ++i) {
    rl_capture_t* capture = NULL;
    rl_record(f->device, f->which.processor, rl_positions[i], &capture,
              f->eager[i]);
    rl_capture_destroy(capture);
  }
  rl_record(f->device, f->which.processor, 7, &f->capture, NULL);
  *state = f;
  return 0;
}

static int rl_teardown(void** state) {
  rl_fixture_t* f = *state;
  rl_replay_destroy(f->replay);
  rl_capture_destroy(f->capture);
  rl_device_close(f->device);
  free(f);
  return 0;
}

static rl_status_t rl_prepare(rl_fixture_t* f) {
  rl_replay_options_t options = {.checked = true,
                                 .pm4_no_retain = !f->which.retain,
                                 .pm4_device_patch = f->which.relay};
  assert_null(rl_replay_create(f->device, f->capture, &options, &f->replay));
  return rl_replay_prepare(f->replay, RL_ROUTE_PM4);
}

static void rl_run_and_compare(rl_fixture_t* f, size_t i) {
  int64_t pos = rl_positions[i];
  rl_status_t status = rl_replay_run(f->replay, &pos, 1);
  if (status) fail_msg("run at %lld: %s", (long long)pos,
                       rl_status_message(status));
  rl_digest128_t replayed[RL_TEST_MAX_REGIONS];
  rl_test_replay_digests(f->replay, f->capture, replayed);
  for (uint32_t r = 0; r < f->capture->region_count; ++r) {
    if (!rl_digest128_equal(replayed[r], f->eager[i][r])) {
      fail_msg("%s retain=%d relay=%d pos %lld region %s differs from eager",
               f->which.processor, f->which.retain, f->which.relay,
               (long long)pos,
               f->capture->regions[r].name);
    }
  }
}

static void test_pm4_replay_equals_eager(void** state) {
  rl_fixture_t* f = *state;
  rl_sim_hazards_clear(f->device);
  assert_null(rl_prepare(f));
  for (size_t i = 0; i < RL_POSITION_COUNT; ++i) rl_run_and_compare(f, i);
  for (size_t i = RL_POSITION_COUNT; i-- > 0;) rl_run_and_compare(f, i);
  assert_int_equal(rl_sim_hazards(f->device, NULL, 0), 0);
  rl_route_proof_t proof;
  rl_replay_proof(f->replay, &proof);
  assert_int_equal(proof.route, RL_ROUTE_PM4);
  assert_int_equal(proof.state, RL_REPLAY_REPLAYING);
  assert_int_equal(proof.dispatches, 8);
  assert_int_equal(proof.packets, 1);
  assert_int_equal(proof.waits, 5);
  const rl_replay_route_state_t* route = f->replay->route_state;
  assert_int_equal(proof.ib_dwords, route->pm4->dword_count);
  assert_int_equal(proof.stream_bytes, 64 + 4ull * proof.ib_dwords);
  assert_int_equal(proof.patch_sites, 19);
  assert_int_equal(proof.replay_count, 2 * RL_POSITION_COUNT);
  assert_int_equal(route->pm4->retain, f->which.retain);
  // Relay: vecchain's three kernarg bindings (pos, pos + 1, the chunk
  // count) each have a slot and one COPY_DATA; its grid stays host-written.
  assert_int_equal(route->pm4->relay_count, f->which.relay ? 3 : 0);
  assert_int_equal(route->pm4->stats.copies, f->which.relay ? 3 : 0);
  assert_int_equal(route->has_relay, f->which.relay);
  rl_replay_counters_t counters;
  rl_replay_counters(f->replay, &counters);
  assert_int_equal(counters.doorbells, counters.runs);
  assert_int_equal(counters.packets_published, counters.runs);
  // The prepared stream: the vendor packet, and patch sites in the IB.
  uint8_t packet[64];
  assert_null(rl_replay_stream_packet(f->replay, 0, packet));
  assert_int_equal(packet[0], RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC);
  uint32_t grid_sites = 0;
  for (uint32_t i = 0; i < proof.patch_sites; ++i) {
    rl_patch_site_t site;
    assert_null(rl_replay_patch_site(f->replay, i, &site));
    if (site.kind != RL_PATCH_SITE_GRID) continue;
    ++grid_sites;
    assert_int_equal(site.device_address,
                     f->replay->route_state->ib.address + 4ull * site.dword);
  }
  assert_int_equal(grid_sites, 1);
}

// Drops the flush (or the acquire) before launch 2 of vecchain, whose
// vc_add reads what launches 0 and 1 wrote: the checker reports it.
static void rl_drop_and_expect(rl_fixture_t* f, bool acquire,
                               uint32_t expected_kind) {
  assert_null(rl_prepare(f));
  assert_null(rl_replay_test_pm4_drop_wait(f->replay, 2, acquire));
  rl_sim_hazards_clear(f->device);
  int64_t pos = 7;
  rl_status_t status = rl_replay_run(f->replay, &pos, 1);
  rl_status_free(status);  // the run may or may not notice; the checker must
  rl_sim_hazard_t hazards[16];
  uint32_t count = rl_sim_hazards(f->device, hazards, 16);
  assert_true(count > 0);
  bool found = false;
  for (uint32_t i = 0; i < count && i < 16; ++i) {
    found = found || hazards[i].kind == expected_kind;
  }
  if (!found) fail_msg("no hazard of kind %u among %u", expected_kind, count);
}

static void test_dropped_wait_is_reported(void** state) {
  rl_drop_and_expect(*state, false, RL_HAZARD_RAW);
}

static void test_dropped_acquire_is_reported(void** state) {
  rl_drop_and_expect(*state, true, 4 /* RL_SIM_HAZARD_RAW_NO_ACQUIRE */);
}

static void test_prepare_refuses_an_implicit_sgpr(void** state) {
  rl_fixture_t* f = *state;
  rl_code_object_kernel_t* info = (rl_code_object_kernel_t*)
      f->capture->kernels[f->capture->launches[3].kernel].info;
  rl_kernel_descriptor_info_t saved = info->descriptor_info;
  info->descriptor_info.enable_sgpr_queue_ptr = true;
  rl_test_expect(rl_prepare(f), RL_STATUS_PREPARE,
                 "kernel vc_axpy_pos: code property ENABLE_SGPR_QUEUE_PTR");
  info->descriptor_info = saved;
  assert_int_equal(rl_replay_state(f->replay), RL_REPLAY_POISONED);
  rl_route_proof_t proof;
  rl_replay_proof(f->replay, &proof);
  assert_int_equal(proof.ib_dwords, 0);
  assert_non_null(strstr(proof.fallback_reason, "ENABLE_SGPR_QUEUE_PTR"));
}

static const rl_pm4_case_t rl_cases[] = {
    {"gfx1100", true, false}, {"gfx1100", false, false},
    {"gfx1151", true, false}, {"gfx1151", false, false},
    {"gfx1201", true, false}, {"gfx1201", false, false},
    {"gfx1100", true, true},  {"gfx1151", false, true},
    {"gfx1201", true, true}};

#define RL_CASE(fn, i) \
  cmocka_unit_test_prestate_setup_teardown(fn, rl_setup, rl_teardown, \
                                           (void*)&rl_cases[i])

int main(void) {
  const struct CMUnitTest tests[] = {
      RL_CASE(test_pm4_replay_equals_eager, 0),
      RL_CASE(test_pm4_replay_equals_eager, 1),
      RL_CASE(test_pm4_replay_equals_eager, 2),
      RL_CASE(test_pm4_replay_equals_eager, 3),
      RL_CASE(test_pm4_replay_equals_eager, 4),
      RL_CASE(test_pm4_replay_equals_eager, 5),
      RL_CASE(test_pm4_replay_equals_eager, 6),
      RL_CASE(test_pm4_replay_equals_eager, 7),
      RL_CASE(test_pm4_replay_equals_eager, 8),
      RL_CASE(test_dropped_wait_is_reported, 0),
      RL_CASE(test_dropped_acquire_is_reported, 0),
      RL_CASE(test_dropped_acquire_is_reported, 5),
      RL_CASE(test_prepare_refuses_an_implicit_sgpr, 0),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
