// Tests of AQL lowering (aql/aql_lower.c), its census (aql/aql_census.c),
// the patch table's apply (aql/aql_patch.c, over capture/bind/bind_table.c) and rl_launch_bind
// (capture/bind/launch_bind.c) on the vecchain workload recorded through the funnel
// with the record-only device.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_record.h"

#include "aql/aql_lower.h"
#include "aql/aql_patch.h"
#include "tests/unit/aql/aql_program_apply.h"
#include "capture/bind/launch_bind.h"
#include "redline/hazard.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"
#define RL_TEST_BUFFER_BASE 0x0000900000000000ull
#define RL_TEST_KERNEL_BASE 0x0000a00000001000ull
#define RL_TEST_KERNARG 0x0000b00000000000ull
#define RL_TEST_SIGNAL 0x0000c00000000040ull

typedef struct rl_test_fixture_s {
  rl_capture_t* capture;
  rl_hazard_plan_t* plan;
  uint64_t* buffers;
  uint64_t* kernels;
  int64_t pos;
  rl_aql_lower_inputs_t inputs;
  rl_aql_program_t* program;
} rl_test_fixture_t;


static int rl_test_setup(void** state) {
  rl_test_fixture_t* f = calloc(1, sizeof(*f));
  f->capture = rl_test_record_null("vecchain", RL_TEST_CODE_OBJECT);
  assert_null(rl_hazard_plan_create(f->capture, &f->plan));
  f->buffers = rl_test_buffer_addresses(f->capture, RL_TEST_BUFFER_BASE);
  f->kernels = calloc(f->capture->kernel_count, sizeof(uint64_t));
  for (uint32_t k = 0; k < f->capture->kernel_count; ++k) {
    f->kernels[k] = RL_TEST_KERNEL_BASE + (uint64_t)k * 0x40;
  }
  assert_int_equal(f->capture->param_count, 1);
  f->pos = f->capture->params[0].capture_value;
  assert_int_equal(f->pos, 7);
  f->inputs = (rl_aql_lower_inputs_t){
      .capture = f->capture, .plan = f->plan, .buffer_addresses = f->buffers,
      .kernel_objects = f->kernels, .kernarg_address = RL_TEST_KERNARG,
      .completion_signal = RL_TEST_SIGNAL, .param_values = &f->pos};
  assert_null(rl_aql_lower(&f->inputs, &f->program));
  *state = f;
  return 0;
}

static int rl_test_teardown(void** state) {
  rl_test_fixture_t* f = *state;
  rl_aql_program_destroy(f->program);
  rl_hazard_plan_destroy(f->plan);
  rl_capture_destroy(f->capture);
  free(f->buffers);
  free(f->kernels);
  free(f);
  return 0;
}

static uint32_t rl_test_slot_total(const rl_capture_t* capture) {
  uint32_t total = 0;
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    total += capture->launches[i].slot_count;
  }
  return total;
}

static void test_packets_follow_the_plan(void** state) {
  rl_test_fixture_t* f = *state;
  const rl_aql_program_t* p = f->program;
  assert_int_equal(p->packet_count, 8);
  assert_int_equal(p->packet_count, f->capture->launch_count);
  // vecchain waits before launches 2, 3, 4, 5 and 7; the first packet
  // always carries the barrier.
  const bool barrier[8] = {1, 0, 1, 1, 1, 1, 0, 1};
  const uint32_t groups[8] = {16, 16, 16, 16, 1, 1, 1, 1};
  assert_int_equal(p->barrier_count, 6);
  for (uint32_t i = 0; i < 8; ++i) {
    const rl_aql_dispatch_packet_t* packet = &p->packets[i];
    uint32_t header = packet->header;
    assert_int_equal(header & 0xff, RL_AQL_PACKET_TYPE_KERNEL_DISPATCH);
    assert_int_equal((header >> RL_AQL_HEADER_BARRIER_SHIFT) & 1, barrier[i]);
    assert_int_equal((header >> RL_AQL_HEADER_ACQUIRE_SHIFT) & 3,
                     i == 0 ? RL_AQL_FENCE_SCOPE_SYSTEM
                            : RL_AQL_FENCE_SCOPE_AGENT);
    assert_int_equal((header >> RL_AQL_HEADER_RELEASE_SHIFT) & 3,
                     i == 7 ? RL_AQL_FENCE_SCOPE_SYSTEM
                            : RL_AQL_FENCE_SCOPE_AGENT);
    assert_int_equal(header & RL_AQL_HEADER_RESERVED_MASK, 0);
    assert_int_equal(packet->setup, 3);
    assert_int_equal(packet->workgroup_size_x, 64);
    assert_int_equal(packet->workgroup_size_y, 1);
    assert_int_equal(packet->grid_size_x, groups[i] * 64);  // work-items
    assert_int_equal(packet->grid_size_y, 1);
    assert_int_equal(packet->grid_size_z, 1);
    const rl_capture_launch_t* launch = &f->capture->launches[i];
    assert_int_equal(packet->kernel_object, f->kernels[launch->kernel]);
    assert_int_equal(packet->kernarg_address,
                     RL_TEST_KERNARG + p->kernarg_offsets[i]);
    assert_int_equal(p->kernarg_offsets[i] % 16, 0);
    assert_int_equal(packet->completion_signal, i == 7 ? RL_TEST_SIGNAL : 0);
    assert_int_equal(packet->reserved0, 0);
    assert_int_equal(packet->reserved2, 0);
  }
  assert_int_equal(p->kernarg_size, rl_aql_kernarg_segment_size(f->capture));
  assert_null(rl_aql_program_check(p, &f->inputs));
}

static void test_kernargs_are_recorded_bytes_with_rebased_pointers(
    void** state) {
  rl_test_fixture_t* f = *state;
  const rl_aql_program_t* p = f->program;
  uint32_t rebased = 0;
  for (uint32_t i = 0; i < p->packet_count; ++i) {
    const rl_capture_launch_t* launch = &f->capture->launches[i];
    const uint8_t* slice = p->kernarg + p->kernarg_offsets[i];
    uint8_t* expected = malloc(launch->kernarg_size);
    memcpy(expected, launch->kernarg, launch->kernarg_size);
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      const rl_pointer_slot_t* slot = &launch->slots[s];
      uint64_t value = f->buffers[slot->buffer] + slot->offset;
      assert_int_equal(rl_launch_load_le(slice + slot->kernarg_offset, 8),
                       value);
      assert_int_not_equal(value, rl_launch_load_le(
                                      launch->kernarg + slot->kernarg_offset,
                                      8));
      rl_launch_store_le(expected + slot->kernarg_offset, 8, value);
      ++rebased;
    }
    assert_memory_equal(slice, expected, launch->kernarg_size);
    free(expected);
  }
  assert_int_equal(rebased, rl_test_slot_total(f->capture));
  assert_int_equal(rebased, 15);
}

static void test_patch_table_lists_every_binding_and_slot(void** state) {
  rl_test_fixture_t* f = *state;
  const rl_aql_program_t* p = f->program;
  uint32_t kinds[3] = {0, 0, 0};
  for (uint32_t i = 0; i < p->patch_count; ++i) {
    const rl_aql_patch_t* patch = &p->patches[i];
    ++kinds[patch->kind];
    if (patch->kind == RL_AQL_PATCH_GRID) {
      assert_int_equal(patch->launch, 4);
      assert_int_equal(patch->axis, 0);
      assert_int_equal(patch->offset,
                       offsetof(rl_aql_dispatch_packet_t, grid_size_x));
      assert_int_equal(rl_bind_table_current(p->binds, i), 64);
    } else {
      assert_int_equal(rl_launch_load_le(p->kernarg + patch->offset,
                                         patch->size),
                       rl_bind_table_current(p->binds, i));
    }
  }
  assert_int_equal(kinds[RL_AQL_PATCH_KERNARG], 3);
  assert_int_equal(kinds[RL_AQL_PATCH_GRID], 1);
  assert_int_equal(kinds[RL_AQL_PATCH_POINTER], rl_test_slot_total(f->capture));
  assert_int_equal(p->patch_count, 3 + 1 + 15);
}

// Kernarg slices and grids of |p| equal rl_launch_bind's at |pos|.
static void rl_test_expect_bound(const rl_test_fixture_t* f, int64_t pos,
                                 const uint8_t* kernarg) {
  const rl_aql_program_t* p = f->program;
  for (uint32_t i = 0; i < p->packet_count; ++i) {
    const rl_capture_launch_t* launch = &f->capture->launches[i];
    uint8_t* bound = malloc(launch->kernarg_size);
    uint32_t grid[3];
    assert_null(rl_launch_bind(f->capture, i, &pos, f->buffers, bound, grid));
    assert_memory_equal(kernarg + p->kernarg_offsets[i], bound,
                        launch->kernarg_size);
    assert_int_equal(p->packets[i].grid_size_x, grid[0] * launch->block[0]);
    assert_int_equal(p->packets[i].grid_size_y, grid[1] * launch->block[1]);
    free(bound);
  }
}

static void test_apply_writes_only_changed_values(void** state) {
  rl_test_fixture_t* f = *state;
  rl_aql_program_t* p = f->program;
  uint8_t* host = malloc(p->kernarg_size);
  memcpy(host, p->kernarg, p->kernarg_size);
  uint32_t changed = 99;
  // At the capture value nothing changes.
  int64_t pos = 7;
  assert_null(rl_aql_program_apply(p, f->capture, &pos, 1, f->buffers, host,
                                   &changed));
  assert_int_equal(changed, 0);
  assert_memory_equal(host, p->kernarg, p->kernarg_size);
  // pos = 100: axpy's pos, partial_sum's n = pos + 1, merge's count and
  // partial_sum's grid ceil(101 / 64) = 2 work-groups: four sites.
  pos = 100;
  assert_null(rl_aql_program_apply(p, f->capture, &pos, 1, f->buffers, host,
                                   &changed));
  assert_int_equal(changed, 4);
  assert_int_equal(p->packets[4].grid_size_x, 128);
  assert_memory_equal(host, p->kernarg, p->kernarg_size);
  rl_test_expect_bound(f, pos, host);
  assert_null(rl_aql_program_check(p, &f->inputs));
  // Applying the same values again changes nothing.
  assert_null(rl_aql_program_apply(p, f->capture, &pos, 1, f->buffers, host,
                                   &changed));
  assert_int_equal(changed, 0);
  // Moving every buffer rewrites exactly the pointer slots.
  for (uint32_t b = 0; b < f->capture->buffer_count; ++b) {
    f->buffers[b] += 0x1000000;
  }
  assert_null(rl_aql_program_apply(p, f->capture, &pos, 1, f->buffers, host,
                                   &changed));
  assert_int_equal(changed, 15);
  rl_test_expect_bound(f, pos, host);
  // Back to the capture state.
  for (uint32_t b = 0; b < f->capture->buffer_count; ++b) {
    f->buffers[b] -= 0x1000000;
  }
  pos = 7;
  assert_null(rl_aql_program_apply(p, f->capture, &pos, 1, f->buffers, host,
                                   &changed));
  assert_int_equal(changed, 4 + 15);
  assert_null(rl_aql_program_check(p, &f->inputs));
  free(host);
}

// Applies |pos| expecting a CONTRACT error containing |needle| and no
// change anywhere.
static void rl_test_apply_fails(rl_test_fixture_t* f, int64_t pos,
                                const char* needle) {
  rl_aql_program_t* p = f->program;
  uint8_t* host = malloc(p->kernarg_size);
  memcpy(host, p->kernarg, p->kernarg_size);
  uint8_t* image = malloc(p->kernarg_size);
  memcpy(image, p->kernarg, p->kernarg_size);
  size_t packet_bytes = p->packet_count * sizeof(*p->packets);
  void* packets = malloc(packet_bytes);
  memcpy(packets, p->packets, packet_bytes);
  size_t patch_bytes = p->patch_count * sizeof(*p->patches);
  void* patches = malloc(patch_bytes);
  memcpy(patches, p->patches, patch_bytes);
  uint32_t changed = 99;
  rl_status_t status = rl_aql_program_apply(p, f->capture, &pos, 1,
                                            f->buffers, host, &changed);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  assert_non_null(strstr(rl_status_message(status), needle));
  rl_status_free(status);
  assert_int_equal(changed, 0);
  assert_memory_equal(host, image, p->kernarg_size);
  assert_memory_equal(p->kernarg, image, p->kernarg_size);
  assert_memory_equal(p->packets, packets, packet_bytes);
  assert_memory_equal(p->patches, patches, patch_bytes);
  free(host);
  free(image);
  free(packets);
  free(patches);
}

static void test_apply_is_all_or_nothing(void** state) {
  rl_test_fixture_t* f = *state;
  // A negative position fails at axpy's binding.
  rl_test_apply_fails(f, -5, "launch 3 (vc_axpy_pos) binding");
  // 2^32 - 6 still fits axpy's and partial_sum's u32 arguments (patched
  // first), but ceil((pos + 1) / 64) work-groups of 64 are 2^32 work-items:
  // the grid overflows and nothing may have been written.
  rl_test_apply_fails(f, 4294967290ll, "launch 4 (vc_partial_sum) binding 1 (grid x");
  // 2^32 does not fit axpy's 4-byte argument.
  rl_test_apply_fails(f, 4294967296ll, "does not fit its 4 bytes");
  // A wrong parameter count is an argument error.
  uint32_t changed = 0;
  int64_t values[2] = {7, 7};
  rl_status_t status = rl_aql_program_apply(f->program, f->capture, values, 2,
                                            f->buffers, NULL, &changed);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  assert_null(rl_aql_program_check(f->program, &f->inputs));
}

static void test_launch_bind(void** state) {
  rl_test_fixture_t* f = *state;
  const rl_capture_launch_t* launch = &f->capture->launches[4];
  uint8_t* kernarg = malloc(launch->kernarg_size);
  uint32_t grid[3];
  int64_t pos = 100;
  assert_null(rl_launch_bind(f->capture, 4, &pos, f->buffers, kernarg, grid));
  assert_int_equal(grid[0], 2);
  assert_int_equal(grid[1], 1);
  assert_int_equal(grid[2], 1);
  // Failure clears both outputs.
  pos = -3;
  rl_status_t status =
      rl_launch_bind(f->capture, 4, &pos, f->buffers, kernarg, grid);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  assert_non_null(strstr(rl_status_message(status), "launch 4"));
  rl_status_free(status);
  assert_int_equal(grid[0], 0);
  for (uint32_t i = 0; i < launch->kernarg_size; ++i) {
    assert_int_equal(kernarg[i], 0);
  }
  free(kernarg);
}

static void test_lower_rejects_bad_inputs(void** state) {
  rl_test_fixture_t* f = *state;
  rl_aql_program_t* program = (rl_aql_program_t*)1;
  rl_aql_lower_inputs_t inputs = f->inputs;
  inputs.kernarg_address = RL_TEST_KERNARG + 8;
  rl_status_t status = rl_aql_lower(&inputs, &program);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_null(program);
  rl_status_free(status);
  inputs = f->inputs;
  inputs.completion_signal = 0;
  status = rl_aql_lower(&inputs, &program);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  inputs = f->inputs;
  int64_t pos = -1;
  inputs.param_values = &pos;
  status = rl_aql_lower(&inputs, &program);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  assert_non_null(strstr(rl_status_message(status), "launch 3"));
  rl_status_free(status);
  inputs = f->inputs;
  uint64_t saved = f->kernels[1];
  f->kernels[1] = 0;
  status = rl_aql_lower(&inputs, &program);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  assert_non_null(strstr(rl_status_message(status), "kernel object"));
  rl_status_free(status);
  f->kernels[1] = saved;
  assert_null(program);
}

// Runs the census expecting RL_STATUS_PREPARE naming |packet| and |field|.
static void rl_test_census_fails(rl_test_fixture_t* f, const char* packet,
                                 const char* field) {
  rl_status_t status = rl_aql_program_check(f->program, &f->inputs);
  assert_int_equal(rl_status_code(status), RL_STATUS_PREPARE);
  if (!strstr(rl_status_message(status), packet) ||
      !strstr(rl_status_message(status), field)) {
    fail_msg("census message '%s' lacks '%s' / '%s'",
             rl_status_message(status), packet, field);
  }
  rl_status_free(status);
}

static uint32_t rl_test_find_patch(const rl_aql_program_t* p,
                                   rl_aql_patch_kind_t kind, uint32_t launch) {
  for (uint32_t i = 0; i < p->patch_count; ++i) {
    if (p->patches[i].kind == kind && p->patches[i].launch == launch) return i;
  }
  fail();
  return 0;
}

static void test_census_negative_controls(void** state) {
  rl_test_fixture_t* f = *state;
  rl_aql_program_t* p = f->program;
  assert_null(rl_aql_program_check(p, &f->inputs));

  p->packets[3].kernarg_address += 16;
  rl_test_census_fails(f, "packet 3 (vc_axpy_pos)", "kernarg_address");
  p->packets[3].kernarg_address -= 16;

  uint64_t kernel_object = p->packets[5].kernel_object;
  p->packets[5].kernel_object = f->kernels[0];
  rl_test_census_fails(f, "packet 5 (vc_merge)", "kernel_object");
  p->packets[5].kernel_object = kernel_object;

  uint16_t header = p->packets[2].header;
  p->packets[2].header &= (uint16_t)~(1u << RL_AQL_HEADER_BARRIER_SHIFT);
  rl_test_census_fails(f, "packet 2", "barrier bit");
  p->packets[2].header = header | 0x2000u;  // reserved header bit
  rl_test_census_fails(f, "packet 2", "HEADER_RESERVED");
  p->packets[2].header = RL_AQL_PACKET_TYPE_BARRIER_AND;
  rl_test_census_fails(f, "packet 2", "does not decode");
  p->packets[2].header = header;

  p->packets[0].completion_signal = RL_TEST_SIGNAL;
  rl_test_census_fails(f, "packet 0", "completion_signal");
  p->packets[0].completion_signal = 0;

  p->packets[1].grid_size_x += 64;
  rl_test_census_fails(f, "packet 1", "grid_size_x");
  p->packets[1].grid_size_x -= 64;

  uint32_t k = rl_test_find_patch(p, RL_AQL_PATCH_KERNARG, 5);
  p->patches[k].offset += 4;
  rl_test_census_fails(f, "packet 5", "patch offset");
  p->patches[k].offset -= 4;
  p->binds->sites[k].current += 1;
  rl_test_census_fails(f, "packet 5", "patch current value");
  p->binds->sites[k].current -= 1;

  uint32_t g = rl_test_find_patch(p, RL_AQL_PATCH_GRID, 4);
  p->patches[g].offset = 60;
  rl_test_census_fails(f, "packet 4", "patch offset");
  p->patches[g].offset = offsetof(rl_aql_dispatch_packet_t, grid_size_x);

  p->patch_count -= 1;
  rl_test_census_fails(f, "", "patches");
  p->patch_count += 1;

  assert_null(rl_aql_program_check(p, &f->inputs));
}

// A compiler may read kernargs with a scalar load wider than it needs (the
// corpus GEMM: s_load_b128 at offset 24 of a 36-byte segment), so the
// segment keeps RL_KERNARG_READ_SLACK zero bytes mapped after its last
// slice (redline/code_object.h). Without them the aql arm of that shadow
// faulted (negative control: drop the slack in rl_aql_kernarg_layout and
// this test fails).
static void test_kernarg_segment_maps_read_slack_after_last_slice(
    void** state) {
  rl_test_fixture_t* f = *state;
  const rl_aql_program_t* p = f->program;
  const uint32_t last = p->packet_count - 1;
  const uint64_t end =
      p->kernarg_offsets[last] + f->capture->launches[last].kernarg_size;
  assert_true(p->kernarg_size >= end + RL_KERNARG_READ_SLACK);
  assert_int_equal(p->kernarg_size % 16, 0);
  for (uint64_t i = end; i < p->kernarg_size; ++i) {
    assert_int_equal(p->kernarg[i], 0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_packets_follow_the_plan,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          test_kernargs_are_recorded_bytes_with_rebased_pointers,
          rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          test_patch_table_lists_every_binding_and_slot, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_apply_writes_only_changed_values,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_apply_is_all_or_nothing,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_launch_bind, rl_test_setup,
                                      rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_lower_rejects_bad_inputs,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_census_negative_controls,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          test_kernarg_segment_maps_read_slack_after_last_slice,
          rl_test_setup, rl_test_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
