// Exactness of register-state retention (pm4/pm4_lower.h, options.retain):
// the IB is decoded with the tests' own register-file walker
// (pm4_test_util.c), and at every dispatch the retained stream must present
// exactly the register file of the stream without retention — same
// registers known, same values, same dims, initiator and synchronisation —
// while being smaller. A negative control proves the comparison can fail.
// Density (dwords per dispatch with and without retention) is printed for
// vecchain and for long synthetic captures cycling its launches.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/pm4/pm4_test_util.h"

// The views of every dispatch of one IB.
typedef struct rl_views_s {
  uint32_t count;
  rl_pm4_view_t* views;
} rl_views_t;

static void rl_views_visit(void* context, uint32_t dispatch,
                           const rl_pm4_view_t* view) {
  rl_views_t* views = context;
  views->views = realloc(views->views, (dispatch + 1) * sizeof(*view));
  assert_non_null(views->views);
  views->views[dispatch] = *view;
  views->count = dispatch + 1;
}

static rl_views_t rl_views_collect(const rl_pm4_program_t* program) {
  rl_views_t views = {0};
  uint32_t tail = 0;
  rl_pm4_walk(program, rl_views_visit, &views, &tail);
  assert_int_equal(tail, 1u << 16);
  return views;
}

// Compares what every dispatch sees; returns the first difference as
// dispatch << 16 | register offset (0xFFFF: dims, initiator or sync), or
// UINT32_MAX when the streams are equivalent.
static uint32_t rl_views_compare(const rl_views_t* full,
                                 const rl_views_t* retained) {
  assert_int_equal(full->count, retained->count);
  for (uint32_t d = 0; d < full->count; ++d) {
    const rl_pm4_view_t* a = &full->views[d];
    const rl_pm4_view_t* b = &retained->views[d];
    if (memcmp(a->dims, b->dims, sizeof(a->dims)) ||
        a->initiator != b->initiator || a->flushes != b->flushes ||
        a->acquires != b->acquires) {
      return d << 16 | 0xFFFFu;
    }
    for (uint32_t r = 0; r < RL_PM4_TEST_SH_COUNT; ++r) {
      if (a->known[r] != b->known[r] ||
          (a->known[r] && a->value[r] != b->value[r])) {
        return d << 16 | r;
      }
    }
  }
  return UINT32_MAX;
}

static void rl_views_free(rl_views_t* views) { free(views->views); }

typedef struct rl_pair_s {
  rl_pm4_program_t* full;
  rl_pm4_program_t* retained;
} rl_pair_t;

static rl_pair_t rl_pair_lower(const rl_pm4_fixture_t* f) {
  rl_pair_t pair = {0};
  rl_pm4_lower_options_t off = {.retain = false}, on = {.retain = true};
  assert_null(rl_pm4_lower(&f->inputs, &off, &pair.full));
  assert_null(rl_pm4_lower(&f->inputs, &on, &pair.retained));
  assert_null(rl_pm4_program_check(pair.full, &f->inputs));
  assert_null(rl_pm4_program_check(pair.retained, &f->inputs));
  return pair;
}

static void rl_pair_destroy(rl_pair_t* pair) {
  rl_pm4_program_destroy(pair->full);
  rl_pm4_program_destroy(pair->retained);
}

// Retention is exact and smaller on |f|; prints the density.
static void rl_test_exact(const rl_pm4_fixture_t* f, const char* what) {
  rl_pair_t pair = rl_pair_lower(f);
  rl_views_t full = rl_views_collect(pair.full);
  rl_views_t retained = rl_views_collect(pair.retained);
  assert_int_equal(rl_views_compare(&full, &retained), UINT32_MAX);
  const rl_pm4_stats_t* a = &pair.full->stats;
  const rl_pm4_stats_t* b = &pair.retained->stats;
  assert_true(b->dwords < a->dwords);
  assert_true(b->registers_elided > 0);
  assert_int_equal(a->waits, f->plan->wait_count);
  assert_int_equal(b->waits, f->plan->wait_count);
  assert_int_equal(b->acquires, f->plan->wait_count + 1);
  printf("# %s %s: %u dispatches, %u waits, %u acquires, %u patch sites; "
         "dwords/dispatch %.2f without retention, %.2f with (%u -> %u "
         "dwords; %.2f / %.2f excluding waits)\n",
         f->processor, what, b->dispatches, b->waits, b->acquires,
         b->patch_sites, rl_pm4_stats_dwords_per_dispatch(a),
         rl_pm4_stats_dwords_per_dispatch(b), a->dwords, b->dwords,
         (double)(a->dwords - 10u * a->waits) / a->dispatches,
         (double)(b->dwords - 10u * b->waits) / b->dispatches);
  rl_views_free(&full);
  rl_views_free(&retained);
  rl_pair_destroy(&pair);
}

static void test_vecchain_retention_is_exact(void** state) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_init(&f, (const char*)*state);
  rl_test_exact(&f, "vecchain");
  rl_pm4_fixture_deinit(&f);
}

static void test_long_capture_retention_is_exact(void** state) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_repeat(&f, (const char*)*state, 1000, 0, 1);
  rl_test_exact(&f, "vecchain x125 (1000 launches)");
  rl_pm4_fixture_deinit(&f);
}

// The comparison notices one value the retained stream gets wrong: a
// kernarg pointer of a later launch, and a retained RSRC2 write dropped
// into the previous kernel's value.
static void test_negative_control(void** state) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_init(&f, (const char*)*state);
  rl_pair_t pair = rl_pair_lower(&f);
  rl_views_t full = rl_views_collect(pair.full);
  rl_pm4_program_t* p = pair.retained;
  const uint32_t user = p->family->regs.user_data_0 - RL_PM4_SH_REG_BASE;
  // The last SET_SH_REG of USER_DATA_0 before dispatch 6.
  uint32_t site = UINT32_MAX;
  for (uint32_t offset = 0; offset < p->dispatch_offsets[6];) {
    rl_pm4_packet_t packet;
    assert_null(rl_pm4_decode_next(p->family, p->dwords, p->dword_count,
                                   offset, &packet));
    if (packet.opcode == RL_PM4_SET_SH_REG &&
        (packet.body[0] & 0xffffu) == user) {
      site = offset + 2;
    }
    offset += packet.dwords;
  }
  assert_int_not_equal(site, UINT32_MAX);
  p->dwords[site] += 64;
  rl_views_t retained = rl_views_collect(p);
  assert_int_equal(rl_views_compare(&full, &retained), 6u << 16 | user);
  rl_views_free(&retained);
  p->dwords[site] -= 64;
  rl_views_free(&full);
  rl_pair_destroy(&pair);
  rl_pm4_fixture_deinit(&f);
}

// Consecutive launches of one kernel rewrite only the kernarg pointer's
// low half (one 3-dword SET_SH_REG of USER_DATA_0) before DISPATCH_DIRECT.
static void rl_visit_same_kernel(void* context, uint32_t dispatch,
                                 const rl_pm4_view_t* view) {
  (void)context;
  (void)dispatch;
  (void)view;
}

static void test_same_kernel_rewrites_only_the_kernarg_pointer(void** state) {
  rl_pm4_fixture_t f;
  // vc_fill (launch 0) 16 times: every launch writes the same buffer, so
  // the plan waits before each; the registers stay.
  rl_pm4_fixture_repeat(&f, (const char*)*state, 16, 0, 0);
  rl_pm4_lower_options_t on = {.retain = true};
  rl_pm4_program_t* p = NULL;
  assert_null(rl_pm4_lower(&f.inputs, &on, &p));
  assert_null(rl_pm4_program_check(p, &f.inputs));
  assert_int_equal(rl_pm4_walk(p, rl_visit_same_kernel, NULL, NULL), 16);
  const uint32_t user0 = p->family->regs.user_data_0 - RL_PM4_SH_REG_BASE;
  for (uint32_t d = 1; d < 16; ++d) {
    uint32_t sets = 0;
    for (uint32_t offset = p->dispatch_offsets[d - 1] + 5;
         offset < p->dispatch_offsets[d];) {
      rl_pm4_packet_t packet;
      assert_null(rl_pm4_decode_next(p->family, p->dwords, p->dword_count,
                                     offset, &packet));
      if (packet.opcode == RL_PM4_SET_SH_REG) {
        assert_int_equal(packet.body[0] & 0xffffu, user0);
        assert_int_equal(packet.dwords, 3);
        ++sets;
      }
      offset += packet.dwords;
    }
    assert_int_equal(sets, 1);
  }
  printf("# %s vc_fill x16: %u dwords, %.2f per dispatch with %u waits\n",
         f.processor, p->stats.dwords,
         rl_pm4_stats_dwords_per_dispatch(&p->stats), p->stats.waits);
  rl_pm4_program_destroy(p);
  rl_pm4_fixture_deinit(&f);
}

#define RL_TEST(fn, target) \
  cmocka_unit_test_prestate(fn, (void*)target)
#define RL_TEST_ALL(fn) \
  RL_TEST(fn, "gfx1100"), RL_TEST(fn, "gfx1151"), RL_TEST(fn, "gfx1201")

int main(void) {
  const struct CMUnitTest tests[] = {
      RL_TEST_ALL(test_vecchain_retention_is_exact),
      RL_TEST_ALL(test_long_capture_retention_is_exact),
      RL_TEST_ALL(test_negative_control),
      RL_TEST_ALL(test_same_kernel_rewrites_only_the_kernarg_pointer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
