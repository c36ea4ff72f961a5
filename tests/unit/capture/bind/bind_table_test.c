// Tests of the compiled patch table every route applies
// (capture/bind/bind_table.c) and the one "value fits" rule
// (capture/bind/launch_bind.h, capture/bind/bind_range.c), on the vecchain workload
// recorded through the funnel with the record-only device. The table is
// laid out here over a route of the test's own (a kernarg image with each
// launch's kernarg in order, and a grid array of 3 work-group counts per
// launch), and every apply is compared with a fresh full evaluation of
// every launch (rl_launch_bind), the independent side.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_record.h"

#include "capture/bind/bind_table.h"
#include "capture/bind/launch_bind.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"
#define RL_TEST_BUFFER_BASE 0x0000900000000000ull

enum { RL_TEST_DEST_KERNARG = 0, RL_TEST_DEST_GRID = 1 };

typedef struct rl_test_fixture_s {
  rl_capture_t* capture;
  uint64_t* buffers;
  uint32_t* offsets;   // per launch, into |image|
  uint32_t image_size;
  uint8_t* image;      // destination 0
  uint8_t* mirror;     // its mirror
  uint32_t* grids;     // destination 1: 3 per launch
  rl_bind_dest_t dests[RL_BIND_MAX_DESTS];
  rl_bind_table_t* table;
} rl_test_fixture_t;

// Binds every launch at |pos| into the image and grids and builds the
// table over them: slots, then bindings, per launch.
static void rl_test_build(rl_test_fixture_t* f, int64_t pos) {
  const rl_capture_t* capture = f->capture;
  assert_null(rl_bind_table_create(capture, &f->table));
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    uint8_t* kernarg = f->image + f->offsets[l];
    uint32_t* grid = f->grids + 3 * l;
    assert_null(rl_launch_bind(capture, l, &pos, f->buffers, kernarg, grid));
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      uint32_t at = launch->slots[s].kernarg_offset;
      assert_null(rl_bind_table_add(
          f->table, RL_BIND_SITE_POINTER, l, s, RL_TEST_DEST_KERNARG,
          f->offsets[l] + at, 8, 1, rl_launch_load_le(kernarg + at, 8)));
    }
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      const rl_scalar_binding_t* binding = &launch->bindings[b];
      if (binding->target == RL_BINDING_GRID) {
        assert_null(rl_bind_table_add(f->table, RL_BIND_SITE_GRID, l, b,
                                      RL_TEST_DEST_GRID,
                                      4 * (3 * l + binding->offset), 4, 1,
                                      grid[binding->offset]));
      } else {
        assert_null(rl_bind_table_add(
            f->table, RL_BIND_SITE_KERNARG, l, b, RL_TEST_DEST_KERNARG,
            f->offsets[l] + binding->offset, (uint8_t)binding->size, 1,
            rl_launch_load_le(kernarg + binding->offset, binding->size)));
      }
    }
  }
  assert_null(rl_bind_table_finish(f->table, &pos));
  memcpy(f->mirror, f->image, f->image_size);
}

static int rl_test_setup(void** state) {
  rl_test_fixture_t* f = calloc(1, sizeof(*f));
  f->capture = rl_test_record_null("vecchain", RL_TEST_CODE_OBJECT);
  const rl_capture_t* capture = f->capture;
  assert_int_equal(capture->param_count, 1);
  f->buffers = rl_test_buffer_addresses(capture, RL_TEST_BUFFER_BASE);
  f->offsets = calloc(capture->launch_count, sizeof(uint32_t));
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    f->offsets[l] = f->image_size;
    f->image_size += capture->launches[l].kernarg_size;
  }
  f->image = calloc(f->image_size + 1u, 1);
  f->mirror = calloc(f->image_size + 1u, 1);
  f->grids = calloc(3u * capture->launch_count, sizeof(uint32_t));
  f->dests[RL_TEST_DEST_KERNARG] = (rl_bind_dest_t){
      .base = f->image, .mirror = f->mirror, .size = f->image_size};
  f->dests[RL_TEST_DEST_GRID] = (rl_bind_dest_t){
      .base = (uint8_t*)f->grids, .size = 12u * capture->launch_count};
  rl_test_build(f, capture->params[0].capture_value);
  *state = f;
  return 0;
}

static int rl_test_teardown(void** state) {
  rl_test_fixture_t* f = *state;
  rl_bind_table_destroy(f->table);
  rl_capture_destroy(f->capture);
  free(f->buffers);
  free(f->offsets);
  free(f->image);
  free(f->mirror);
  free(f->grids);
  free(f);
  return 0;
}

// The independent side: every launch bound afresh at |pos|
// (rl_launch_bind) must equal the image, its mirror and the grids. Returns
// the first launch that differs, or UINT32_MAX when all agree.
static uint32_t rl_test_first_stale_launch(const rl_test_fixture_t* f,
                                           int64_t pos) {
  const rl_capture_t* capture = f->capture;
  uint8_t* fresh = malloc(f->image_size + 1u);
  uint32_t found = UINT32_MAX;
  for (uint32_t l = 0; l < capture->launch_count && found == UINT32_MAX;
       ++l) {
    uint32_t grid[3];
    uint32_t size = capture->launches[l].kernarg_size;
    assert_null(rl_launch_bind(capture, l, &pos, f->buffers, fresh, grid));
    if (memcmp(fresh, f->image + f->offsets[l], size) != 0 ||
        memcmp(fresh, f->mirror + f->offsets[l], size) != 0 ||
        memcmp(grid, f->grids + 3 * l, sizeof(grid)) != 0) {
      found = l;
    }
  }
  free(fresh);
  return found;
}

static void test_equal_expressions_share_one_id(void** state) {
  rl_test_fixture_t* f = *state;
  const rl_bind_table_t* t = f->table;
  uint32_t dynamic = 0;
  for (uint32_t i = 0; i < t->site_count; ++i) {
    const rl_bind_site_t* site = &t->sites[i];
    if (site->kind == RL_BIND_SITE_POINTER) continue;
    ++dynamic;
    const rl_expr_t* expr =
        &f->capture->launches[site->launch].bindings[site->ref].expr;
    const rl_expr_t* compiled = &t->exprs[site->expr].expr;
    assert_int_equal(expr->param, compiled->param);
    assert_int_equal(expr->add, compiled->add);
    assert_int_equal(expr->op, compiled->op);
    assert_int_equal(expr->operand, compiled->operand);
  }
  // vecchain: axpy's pos, partial_sum's n = pos + 1, and merge's count and
  // partial_sum's grid both ceil((pos + 1) / 64): 4 sites, 3 expressions.
  assert_int_equal(dynamic, 4);
  assert_int_equal(t->expr_count, 3);
  assert_int_equal(t->pointer_count, t->site_count - dynamic);
  // Every expression id distinct, and each site listed once under its id.
  uint32_t listed = 0;
  for (uint32_t e = 0; e < t->expr_count; ++e) {
    for (uint32_t k = 0; k < t->exprs[e].count; ++k) {
      assert_int_equal(t->sites[t->site_index[t->exprs[e].first + k]].expr, e);
      ++listed;
    }
  }
  assert_int_equal(listed, dynamic);
}

static void test_apply_matches_a_fresh_full_evaluation(void** state) {
  rl_test_fixture_t* f = *state;
  const rl_capture_param_t* param = &f->capture->params[0];
  assert_int_equal(rl_test_first_stale_launch(f, param->capture_value),
                   UINT32_MAX);
  // A walk over the admitted range: steps of one, jumps, and back.
  int64_t walk[] = {8, 9, 63, 64, 65, 1000, 999, 7, 128, param->max - 1,
                    param->min, 7};
  for (size_t i = 0; i < sizeof(walk) / sizeof(walk[0]); ++i) {
    uint32_t changed = 0;
    assert_null(rl_bind_table_apply(f->table, &walk[i], 1, f->dests,
                                    &changed));
    assert_int_equal(rl_test_first_stale_launch(f, walk[i]), UINT32_MAX);
  }
}

static void test_apply_writes_only_changed_sites(void** state) {
  rl_test_fixture_t* f = *state;
  uint32_t changed = 99;
  int64_t pos = 7;  // the capture value: nothing changes
  assert_null(rl_bind_table_apply(f->table, &pos, 1, f->dests, &changed));
  assert_int_equal(changed, 0);
  // pos 7 -> 8: pos and pos + 1 change; ceil(9/64) = 1 (merge's count and
  // partial_sum's grid) does not.
  pos = 8;
  assert_null(rl_bind_table_apply(f->table, &pos, 1, f->dests, &changed));
  assert_int_equal(changed, 2);
  // pos 8 -> 64: ceil(65/64) = 2 as well.
  pos = 64;
  assert_null(rl_bind_table_apply(f->table, &pos, 1, f->dests, &changed));
  assert_int_equal(changed, 4);
  assert_null(rl_bind_table_apply(f->table, &pos, 1, f->dests, &changed));
  assert_int_equal(changed, 0);
  // Moving every buffer rewrites exactly the pointer sites, at rebase.
  for (uint32_t b = 0; b < f->capture->buffer_count; ++b) {
    f->buffers[b] += 0x1000000;
  }
  assert_null(
      rl_bind_table_rebase(f->table, f->buffers, f->dests, &changed));
  assert_int_equal(changed, f->table->pointer_count);
  assert_int_equal(rl_test_first_stale_launch(f, pos), UINT32_MAX);
}

// The negative control of the comparison above: a site the table believes
// current but that holds a stale value (a lost write) is found by the
// fresh full evaluation.
static void test_a_stale_site_is_found_by_the_full_evaluation(void** state) {
  rl_test_fixture_t* f = *state;
  rl_bind_table_t* t = f->table;
  uint32_t changed = 0;
  int64_t pos = 100;
  assert_null(rl_bind_table_apply(t, &pos, 1, f->dests, &changed));
  assert_int_equal(rl_test_first_stale_launch(f, pos), UINT32_MAX);
  // The first kernarg site loses its write: its bytes hold 101 while the
  // table believes they hold 100, so the same value again writes nothing.
  uint32_t k = 0;
  while (t->sites[k].kind != RL_BIND_SITE_KERNARG) ++k;
  f->image[t->sites[k].offset] += 1;
  f->mirror[t->sites[k].offset] += 1;
  assert_null(rl_bind_table_apply(t, &pos, 1, f->dests, &changed));
  assert_int_equal(changed, 0);
  assert_int_equal(rl_test_first_stale_launch(f, pos), t->sites[k].launch);
  f->image[t->sites[k].offset] -= 1;
  f->mirror[t->sites[k].offset] -= 1;
}

// The number site |k| holds in its destination.
static uint64_t rl_test_site_bytes(const rl_test_fixture_t* f, uint32_t k) {
  const rl_bind_site_t* site = &f->table->sites[k];
  return rl_launch_load_le(f->dests[site->dest].base + site->offset,
                           site->width);
}

// rl_bind_table_current (derived from the expressions after a fast apply,
// from sites[] after the slow path) names what every site holds; the
// negative control: a changed byte makes them differ.
static void test_current_names_what_each_site_holds(void** state) {
  rl_test_fixture_t* f = *state;
  rl_bind_table_t* t = f->table;
  int64_t walk[] = {8, 9, 64, 65, 1000, 1000, 7};
  for (size_t i = 0; i < sizeof(walk) / sizeof(walk[0]); ++i) {
    uint32_t changed = 0;
    if (i == 3) {
      // A refused value takes the slow path (which syncs sites[]) and
      // changes nothing.
      int64_t refused = -5;
      rl_status_t status =
          rl_bind_table_apply(t, &refused, 1, f->dests, &changed);
      assert_non_null(status);
      rl_status_free(status);
    }
    assert_null(rl_bind_table_apply(t, &walk[i], 1, f->dests, &changed));
    if (i == 5) assert_int_equal(changed, 0);
    for (uint32_t k = 0; k < t->site_count; ++k) {
      assert_int_equal(rl_bind_table_current(t, k), rl_test_site_bytes(f, k));
    }
  }
  uint32_t k = 0;
  while (t->sites[k].kind != RL_BIND_SITE_GRID) ++k;
  uint8_t* byte = f->dests[t->sites[k].dest].base + t->sites[k].offset;
  *byte ^= 1;
  assert_int_not_equal(rl_bind_table_current(t, k), rl_test_site_bytes(f, k));
  *byte ^= 1;
}

static void test_a_refused_value_changes_nothing(void** state) {
  rl_test_fixture_t* f = *state;
  uint8_t* image = malloc(f->image_size);
  memcpy(image, f->image, f->image_size);
  size_t grid_bytes = 12u * f->capture->launch_count;
  uint32_t* grids = malloc(grid_bytes);
  memcpy(grids, f->grids, grid_bytes);
  struct {
    int64_t pos;
    const char* needle;
  } cases[] = {
      {-5, "launch 3 (vc_axpy_pos) binding"},
      // ceil((pos + 1) / 64) work-groups of 64 are 2^32 work-items.
      {4294967290ll, "launch 4 (vc_partial_sum) binding 1 (grid x"},
      {4294967296ll, "does not fit its 4 bytes"}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    uint32_t changed = 99;
    rl_status_t status =
        rl_bind_table_apply(f->table, &cases[i].pos, 1, f->dests, &changed);
    assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
    assert_non_null(strstr(rl_status_message(status), cases[i].needle));
    rl_status_free(status);
    assert_int_equal(changed, 0);
    assert_memory_equal(f->image, image, f->image_size);
    assert_memory_equal(f->grids, grids, grid_bytes);
  }
  free(image);
  free(grids);
}

// The contract's range check, the per-run evaluator and the table refuse
// the same values (one rule).
static void test_the_contract_and_the_evaluator_share_the_fit_rule(
    void** state) {
  rl_test_fixture_t* f = *state;
  rl_capture_param_t* param = &f->capture->params[0];
  const int64_t saved = param->max;
  // partial_sum's grid (launch 4, binding 1) ceil((pos + 1) / 64) in
  // work-groups of 64 fits 32 bits up to pos + 1 = 2^32 - 64.
  param->max = 4294967232ll;
  assert_null(rl_bind_check_admitted(f->capture, 4, 1));
  param->max = 4294967233ll;
  rl_status_t status = rl_bind_check_admitted(f->capture, 4, 1);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  assert_non_null(strstr(rl_status_message(status), "grid axis 0"));
  rl_status_free(status);
  uint64_t value = 0;
  int64_t pos = 4294967231ll;
  assert_null(rl_launch_binding_evaluate(f->capture, 4, 1, &pos, 1, &value));
  pos = 4294967232ll;
  status = rl_launch_binding_evaluate(f->capture, 4, 1, &pos, 1, &value);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  rl_status_free(status);
  param->max = saved;
  // The range of an expression: monotone ends, MOD is [0, operand - 1].
  rl_expr_t mod = {.param = 0, .add = 0, .op = RL_EXPR_MOD, .operand = 5};
  int64_t lo = 0, hi = 0;
  assert_null(rl_bind_expr_range(f->capture, &mod, &lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 4);
  rl_expr_t add = {.param = 0, .add = 1, .op = RL_EXPR_ADD};
  assert_null(rl_bind_expr_range(f->capture, &add, &lo, &hi));
  assert_int_equal(lo, param->min + 1);
  assert_int_equal(hi, param->max);
}

static void test_sites_that_do_not_match_the_capture_are_refused(
    void** state) {
  rl_test_fixture_t* f = *state;
  rl_bind_table_t* t = NULL;
  assert_null(rl_bind_table_create(f->capture, &t));
  // Launch 4's binding 1 is a grid binding, not a kernarg one.
  rl_status_t status = rl_bind_table_add(t, RL_BIND_SITE_KERNARG, 4, 1, 0, 0,
                                         4, 1, 0);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  // A grid scale other than 1 or the block.
  status = rl_bind_table_add(t, RL_BIND_SITE_GRID, 4, 1, 0, 0, 4, 3, 0);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  assert_null(rl_bind_table_add(t, RL_BIND_SITE_GRID, 4, 1, 0, 0, 4, 64, 64));
  assert_null(rl_bind_table_finish(t, NULL));
  rl_bind_table_destroy(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_current_names_what_each_site_holds,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_equal_expressions_share_one_id,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          test_apply_matches_a_fresh_full_evaluation, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_apply_writes_only_changed_sites,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          test_a_stale_site_is_found_by_the_full_evaluation, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_a_refused_value_changes_nothing,
                                      rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          test_the_contract_and_the_evaluator_share_the_fit_rule,
          rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          test_sites_that_do_not_match_the_capture_are_refused,
          rl_test_setup, rl_test_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
