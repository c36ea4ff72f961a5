// Tests of rl_replay_run on the simulated device: replay equals the eager
// run (the funnel recording executed on the same device) byte for byte on
// every state region at several positions, with pointers rebased onto
// fresh allocations (redline's own or the caller's); only changed values
// are written; the route proof names what ran; many replays never diverge.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "redline/device/device.h"
#include "redline/replay_internal.h"
#include "redline/replay_route_state.h"
#include "tests/unit/redline/replay_test_helpers.h"

// Positions across the interesting edges: the smallest, the capture's, a
// chunk boundary of vc_partial_sum (64), past the n = 1024 elements the
// step writes, and the largest admitted.
static const int64_t rl_positions[] = {1, 7, 63, 64, 65, 1000, 1024, 4095};
#define RL_POSITION_COUNT (sizeof(rl_positions) / sizeof(rl_positions[0]))

typedef struct rl_fixture_s {
  rl_device_t* device;
  rl_capture_t* capture;
  rl_replay_t* replay;
  // The eager digests at every position of rl_positions.
  rl_digest128_t eager[RL_POSITION_COUNT][RL_TEST_MAX_REGIONS];
} rl_fixture_t;

static int rl_setup(void** state) {
  rl_fixture_t* fixture = calloc(1, sizeof(*fixture));
  fixture->device = rl_test_open_sim("gfx1100", false, 0);
  for (size_t i = 0; i < RL_POSITION_COUNT; ++i) {
    rl_capture_t* capture = NULL;
    rl_test_record(fixture->device, rl_positions[i], &capture,
                   fixture->eager[i]);
    rl_capture_destroy(capture);
  }
  rl_test_record(fixture->device, 7, &fixture->capture, NULL);
  *state = fixture;
  return 0;
}

static int rl_teardown(void** state) {
  rl_fixture_t* fixture = *state;
  rl_replay_destroy(fixture->replay);
  rl_capture_destroy(fixture->capture);
  rl_device_close(fixture->device);
  free(fixture);
  return 0;
}

static void rl_prepare_with(rl_fixture_t* fixture,
                            const rl_replay_options_t* options) {
  assert_null(rl_replay_create(fixture->device, fixture->capture, options,
                               &fixture->replay));
  assert_null(rl_replay_contract(fixture->replay));
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
}

static void rl_prepare(rl_fixture_t* fixture, bool checked) {
  rl_replay_options_t options = {.checked = checked};
  rl_prepare_with(fixture, &options);
}

// Runs at position index |i| and compares every region with the eager run.
static void rl_run_and_compare(rl_fixture_t* fixture, size_t i) {
  int64_t pos = rl_positions[i];
  rl_status_t status = rl_replay_run(fixture->replay, &pos, 1);
  if (status) fprintf(stderr, "run: %s\n", rl_status_message(status));
  assert_null(status);
  rl_digest128_t replayed[RL_TEST_MAX_REGIONS];
  rl_test_replay_digests(fixture->replay, fixture->capture, replayed);
  for (uint32_t r = 0; r < fixture->capture->region_count; ++r) {
    if (!rl_digest128_equal(replayed[r], fixture->eager[i][r])) {
      fprintf(stderr, "pos %lld region %s differs from eager\n",
              (long long)pos, fixture->capture->regions[r].name);
      fail();
    }
  }
}

static void rl_replay_equals_eager_at_every_position(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, false);
  // The comparison can fail: positions give different states, and the
  // prepared buffers (initial contents, nothing run) differ from eager.
  assert_true(rl_test_count_differences(fixture->capture, fixture->eager[0],
                                        fixture->eager[1]) > 0);
  rl_digest128_t before[RL_TEST_MAX_REGIONS];
  rl_test_replay_digests(fixture->replay, fixture->capture, before);
  assert_true(rl_test_count_differences(fixture->capture, before,
                                        fixture->eager[1]) > 0);
  for (size_t i = 0; i < RL_POSITION_COUNT; ++i) rl_run_and_compare(fixture, i);
  // Backwards too: a replay step never depends on the previous position.
  for (size_t i = RL_POSITION_COUNT; i-- > 0;) rl_run_and_compare(fixture, i);
}

static void rl_replay_rebases_every_pointer(void** state) {
  rl_fixture_t* fixture = *state;
  // The capture's allocations are gone; a spacer keeps the device from
  // handing the same addresses out again.
  rl_device_allocation_t spacer;
  assert_null(fixture->device->vtable->allocate(
      fixture->device, 1 << 20, 4096, RL_MEMORY_KIND_DEVICE, &spacer));
  rl_prepare(fixture, false);
  for (uint32_t b = 0; b < fixture->capture->buffer_count; ++b) {
    uint64_t address = 0;
    assert_null(rl_replay_buffer_address(fixture->replay, b, &address));
    assert_int_not_equal(address, fixture->capture->buffers[b].capture_address);
  }
  const rl_aql_program_t* program = fixture->replay->route_state->program;
  for (uint32_t i = 0; i < program->patch_count; ++i) {
    rl_patch_site_t site;
    assert_null(rl_replay_patch_site(fixture->replay, i, &site));
    if (site.kind != RL_PATCH_SITE_POINTER) continue;
    const rl_capture_launch_t* launch = &fixture->capture->launches[site.launch];
    uint64_t recorded = 0;
    memcpy(&recorded, launch->kernarg + (site.device_address -
                                         fixture->replay->kernarg.address -
                                         program->kernarg_offsets[site.launch]),
           8);
    assert_int_not_equal(site.current, recorded);
  }
  rl_run_and_compare(fixture, 1);
  rl_replay_destroy(fixture->replay);
  fixture->replay = NULL;
  assert_null(fixture->device->vtable->free(fixture->device, spacer.address));
}

// The caller's own allocations, filled by the caller, replace redline's.
static void rl_replay_with_caller_buffers(void** state) {
  rl_fixture_t* fixture = *state;
  rl_device_t* device = fixture->device;
  const rl_capture_t* capture = fixture->capture;
  assert_null(rl_replay_create(device, capture, NULL, &fixture->replay));
  uint64_t addresses[16];
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    rl_device_allocation_t allocation;
    const rl_capture_buffer_t* buffer = &capture->buffers[b];
    assert_null(device->vtable->allocate(device, buffer->size + 512,
                                         buffer->alignment,
                                         RL_MEMORY_KIND_DEVICE, &allocation));
    assert_null(device->vtable->write(device, allocation.address,
                                      buffer->initial, buffer->size));
    assert_null(rl_replay_bind_buffer(fixture->replay, b, allocation.address,
                                      allocation.size));
    addresses[b] = allocation.address;
  }
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
  rl_run_and_compare(fixture, 3);
  rl_run_and_compare(fixture, 6);
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    uint64_t address = 0;
    assert_null(rl_replay_buffer_address(fixture->replay, b, &address));
    assert_int_equal(address, addresses[b]);
  }
  rl_replay_destroy(fixture->replay);
  fixture->replay = NULL;
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    assert_null(device->vtable->free(device, addresses[b]));
  }
}

static void rl_replay_checked_mode_equals_eager(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, true);
  for (size_t i = 0; i < RL_POSITION_COUNT; ++i) rl_run_and_compare(fixture, i);
}

// With spin_wait the run polls the completion signal instead of the
// device's wait: the same bytes at every position, forwards and back.
static void rl_replay_spin_wait_equals_eager(void** state) {
  rl_fixture_t* fixture = *state;
  const rl_replay_options_t options = {.spin_wait = true};
  rl_prepare_with(fixture, &options);
  for (size_t i = 0; i < RL_POSITION_COUNT; ++i) rl_run_and_compare(fixture, i);
  for (size_t i = RL_POSITION_COUNT; i-- > 0;) rl_run_and_compare(fixture, i);
}

// A run rewrites only values that changed: the same position twice writes
// nothing; a new position writes each dynamic scalar and grid once.
static void rl_replay_writes_only_changes(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, false);
  rl_replay_counters_t before, after;
  int64_t pos = 7;
  assert_null(rl_replay_run(fixture->replay, &pos, 1));
  rl_replay_counters(fixture->replay, &before);
  assert_int_equal(before.values_written, 0);  // the capture's own values
  assert_null(rl_replay_run(fixture->replay, &pos, 1));
  rl_replay_counters(fixture->replay, &after);
  assert_int_equal(after.values_written, 0);
  pos = 200;  // axpy pos, partial_sum n and grid, merge count
  assert_null(rl_replay_run(fixture->replay, &pos, 1));
  rl_replay_counters(fixture->replay, &after);
  assert_int_equal(after.values_written, 4);
  pos = 201;  // the chunk count stays ceil(202/64) = 4: two values change
  assert_null(rl_replay_run(fixture->replay, &pos, 1));
  rl_replay_counters(fixture->replay, &before);
  assert_int_equal(before.values_written - after.values_written, 2);
  assert_int_equal(before.runs, 4);
  assert_int_equal(before.doorbells, 4);
  assert_int_equal(before.packets_published, 4 * 8);
}

static void rl_replay_route_proof(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, false);
  int64_t pos = 9;
  assert_null(rl_replay_run(fixture->replay, &pos, 1));
  assert_null(rl_replay_run(fixture->replay, &pos, 1));
  rl_route_proof_t proof;
  rl_replay_proof(fixture->replay, &proof);
  assert_string_equal(proof.device, "sim");
  assert_string_equal(proof.target, "amdgcn-amd-amdhsa--gfx1100");
  assert_int_equal(proof.route, RL_ROUTE_AQL);
  assert_int_equal(proof.state, RL_REPLAY_REPLAYING);
  assert_string_equal(proof.fallback_reason, "");
  assert_int_equal(proof.replay_count, 2);
  assert_int_equal(proof.dispatches, 8);
  assert_int_equal(proof.packets, 8);
  assert_true(proof.waits >= 1 && proof.waits < 8);
  assert_int_not_equal(proof.queue_id, 0);
  assert_int_equal(proof.stream_bytes, 8 * 64);
  assert_true(proof.patch_sites >= 4);
}

// Packets as published: barrier only where the plan needs a wait (and on
// the first), system scope at the ends, agent scope inside.
static void rl_replay_packet_headers(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, false);
  rl_hazard_plan_t* plan = NULL;
  assert_null(rl_hazard_plan_create(fixture->capture, &plan));
  for (uint32_t p = 0; p < 8; ++p) {
    uint8_t bytes[64];
    assert_null(rl_replay_stream_packet(fixture->replay, p, bytes));
    uint16_t header = (uint16_t)(bytes[0] | (bytes[1] << 8));
    bool barrier = (header >> RL_AQL_HEADER_BARRIER_SHIFT) & 1;
    assert_int_equal(barrier, p == 0 || plan->boundaries[p].needs_wait);
    uint32_t acquire = (header >> RL_AQL_HEADER_ACQUIRE_SHIFT) & 3;
    uint32_t release = (header >> RL_AQL_HEADER_RELEASE_SHIFT) & 3;
    assert_int_equal(acquire, p == 0 ? RL_AQL_FENCE_SCOPE_SYSTEM
                                     : RL_AQL_FENCE_SCOPE_AGENT);
    assert_int_equal(release, p == 7 ? RL_AQL_FENCE_SCOPE_SYSTEM
                                     : RL_AQL_FENCE_SCOPE_AGENT);
  }
  rl_hazard_plan_destroy(plan);
}

// 10,000 replays cycling through the positions: no run ever diverges.
static void rl_replay_ten_thousand_runs(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, false);
  for (uint32_t run = 0; run < 10000; ++run) {
    rl_run_and_compare(fixture, run % RL_POSITION_COUNT);
  }
  rl_route_proof_t proof;
  rl_replay_proof(fixture->replay, &proof);
  assert_int_equal(proof.replay_count, 10000);
}

// The engine core drives routes only through the registry
// (redline/replay_route.h): every public route has exactly one complete
// implementation there; NONE and unknown values have none (the lookup can
// fail, so the positive answers mean something).
static void rl_every_route_is_registered_with_every_operation(void** state) {
  (void)state;
  const rl_route_t routes[] = {RL_ROUTE_AQL, RL_ROUTE_PM4, RL_ROUTE_DRM};
  for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); ++i) {
    const rl_replay_route_t* route = rl_replay_route_find(routes[i]);
    assert_non_null(route);
    assert_int_equal(route->route, routes[i]);
    assert_non_null(route->device_runs);
    assert_non_null(route->kernarg_size);
    assert_non_null(route->prepare);
    assert_non_null(route->apply);
    assert_non_null(route->publish);
    assert_non_null(route->wait);
    assert_non_null(route->proof);
    assert_non_null(route->stream_packet);
    assert_non_null(route->patch_site);
    assert_non_null(route->release);
    assert_non_null(route->destroy);
  }
  assert_null(rl_replay_route_find(RL_ROUTE_NONE));
  assert_null(rl_replay_route_find((rl_route_t)99));
}

int main(int argc, char** argv) {
#define RL_TEST(name) cmocka_unit_test_setup_teardown(name, rl_setup, rl_teardown)
  // `replay_run_test soak` runs only the 10,000-run soak (its own CTest).
  if (argc > 1 && strcmp(argv[1], "soak") == 0) {
    const struct CMUnitTest soak[] = {RL_TEST(rl_replay_ten_thousand_runs)};
    return cmocka_run_group_tests(soak, NULL, NULL);
  }
  const struct CMUnitTest tests[] = {
      RL_TEST(rl_replay_equals_eager_at_every_position),
      RL_TEST(rl_replay_rebases_every_pointer),
      RL_TEST(rl_replay_with_caller_buffers),
      RL_TEST(rl_replay_checked_mode_equals_eager),
      RL_TEST(rl_replay_spin_wait_equals_eager),
      RL_TEST(rl_replay_writes_only_changes),
      RL_TEST(rl_replay_route_proof),
      RL_TEST(rl_replay_packet_headers),
      cmocka_unit_test(rl_every_route_is_registered_with_every_operation),
  };
#undef RL_TEST
  return cmocka_run_group_tests(tests, NULL, NULL);
}
