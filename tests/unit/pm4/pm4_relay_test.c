// Tests of the PM4 relay (pm4/pm4_lower.h "Relay", pm4_relay.c, the relay
// parts of pm4_emit.c, pm4_census.c and capture/bind/bind_table.c) on vecchain
// for gfx1100, gfx1151 and gfx1201. The IB is read back by this file's own
// interpreter of COPY_DATA (field positions from PAL's MEC_COPY_DATA, not
// the library's tables): executing the copies from the slot image must give
// every launch the kernarg bytes rl_launch_bind computes, with an
// ACQUIRE_MEM between each copy and its dispatch. Census negative controls
// cover a wrong source, a lost WR_CONFIRM, a missing copy, a copy after the
// wait's acquire or after the entry acquire, a copy no acquire follows, a
// stale slot and a site the bind table does not relay.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "capture/bind/launch_bind.h"
#include "tests/unit/pm4/pm4_test_util.h"

#define RL_TEST_RELAY 0x0000d00000000000ull

typedef struct rl_test_s {
  rl_pm4_fixture_t f;
  rl_pm4_program_t* program;
} rl_test_t;

static int rl_test_setup(void** state) {
  rl_test_t* t = calloc(1, sizeof(*t));
  rl_pm4_fixture_init(&t->f, (const char*)*state);
  t->f.inputs.relay_address = RL_TEST_RELAY;
  rl_status_t status = rl_pm4_lower(&t->f.inputs, NULL, &t->program);
  if (!status) status = rl_pm4_program_check(t->program, &t->f.inputs);
  if (status) fail_msg("%s", rl_status_message(status));
  *state = t;
  return 0;
}

static int rl_test_teardown(void** state) {
  rl_test_t* t = *state;
  rl_pm4_program_destroy(t->program);
  rl_pm4_fixture_deinit(&t->f);
  free(t);
  return 0;
}

static void rl_test_expect(rl_status_t status, const char* needle) {
  if (rl_status_code(status) != RL_STATUS_PREPARE ||
      !strstr(rl_status_message(status), needle)) {
    fail_msg("expected PREPARE with '%s', got %s: %s", needle,
             rl_status_code_name(rl_status_code(status)),
             rl_status_message(status));
  }
  rl_status_free(status);
}

// What the IB does with the relay, read independently: copies executed
// on |kernarg| (the segment image) from |relay| (the slot image).
typedef struct rl_test_run_s {
  uint32_t copies, acquires, dispatches;
  uint32_t prologue;         // copies before the first ACQUIRE_MEM
  int64_t* copied_acquires;  // per segment dword: acquires at its copy
} rl_test_run_t;

static void rl_test_execute(const rl_test_t* t, const uint8_t* relay,
                            uint8_t* kernarg, rl_test_run_t* run) {
  const rl_pm4_program_t* p = t->program;
  const rl_capture_t* capture = t->f.capture;
  memset(run, 0, sizeof(*run));
  run->copied_acquires = malloc((p->kernarg_size / 4 + 1) * sizeof(int64_t));
  for (uint32_t i = 0; i <= p->kernarg_size / 4; ++i) {
    run->copied_acquires[i] = -1;
  }
  for (uint32_t offset = 0; offset < p->dword_count;) {
    const uint32_t* d = p->dwords + offset;
    const uint32_t opcode = d[0] >> 8 & 0xff;
    const uint32_t dwords = (d[0] >> 16 & 0x3fff) + 2;
    if (opcode == 0x40) {  // COPY_DATA
      assert_int_equal(dwords, 6);
      assert_int_equal(d[1] & 0xf, 2);       // SRC_SEL TC_L2
      assert_int_equal(d[1] >> 8 & 0xf, 2);  // DST_SEL TC_L2
      assert_int_equal(d[1] >> 20 & 1, 1);   // WR_CONFIRM
      const uint32_t bytes = (d[1] >> 16 & 1) ? 8 : 4;
      const uint64_t src = d[2] | (uint64_t)d[3] << 32;
      const uint64_t dst = d[4] | (uint64_t)d[5] << 32;
      assert_true(src >= RL_TEST_RELAY &&
                  src + bytes <= RL_TEST_RELAY + 8ull * p->relay_count);
      assert_true(dst >= RL_PM4_TEST_KERNARG &&
                  dst + bytes <= RL_PM4_TEST_KERNARG + p->kernarg_size);
      const uint64_t at = dst - RL_PM4_TEST_KERNARG;
      memcpy(kernarg + at, relay + (src - RL_TEST_RELAY), bytes);
      for (uint32_t w = 0; w < bytes / 4; ++w) {
        run->copied_acquires[at / 4 + w] = run->acquires;
      }
      ++run->copies;
      if (run->acquires == 0) ++run->prologue;
    } else if (opcode == 0x58) {  // ACQUIRE_MEM
      ++run->acquires;
    } else if (opcode == 0x15) {  // DISPATCH_DIRECT
      // Every relayed binding of this launch was copied, and an acquire
      // came after the copy.
      const rl_capture_launch_t* l = &capture->launches[run->dispatches];
      for (uint32_t b = 0; b < l->binding_count; ++b) {
        if (l->bindings[b].target != RL_BINDING_KERNARG) continue;
        const uint32_t at =
            p->kernarg_offsets[run->dispatches] + l->bindings[b].offset;
        for (uint32_t w = 0; w < l->bindings[b].size / 4; ++w) {
          const int64_t when = run->copied_acquires[at / 4 + w];
          if (when < 0 || when >= (int64_t)run->acquires) {
            fail_msg("launch %u binding %u: %s", run->dispatches, b,
                     when < 0 ? "never copied" : "no acquire after the copy");
          }
        }
      }
      ++run->dispatches;
    }
    offset += dwords;
  }
  free(run->copied_acquires);
  run->copied_acquires = NULL;
}

// Executes the IB's copies on the kernarg image with every relayed site
// zeroed first and expects each launch's slice to be what rl_launch_bind
// computes at |pos|.
static void rl_test_expect_bound(const rl_test_t* t, int64_t pos,
                                 rl_test_run_t* run) {
  const rl_pm4_program_t* p = t->program;
  uint8_t* kernarg = malloc(p->kernarg_size);
  memcpy(kernarg, p->kernarg, p->kernarg_size);
  for (uint32_t i = 0; i < p->patch_count; ++i) {
    const rl_bind_site_t* site = &p->binds->sites[i];
    if (site->relayed) memset(kernarg + site->offset, 0, site->width);
  }
  rl_test_execute(t, p->relay, kernarg, run);
  for (uint32_t i = 0; i < t->f.capture->launch_count; ++i) {
    const rl_capture_launch_t* launch = &t->f.capture->launches[i];
    uint8_t* bound = malloc(launch->kernarg_size + 1u);
    uint32_t grid[3];
    assert_null(rl_launch_bind(t->f.capture, i, &pos, t->f.buffers, bound,
                               grid));
    assert_memory_equal(kernarg + p->kernarg_offsets[i], bound,
                        launch->kernarg_size);
    free(bound);
  }
  free(kernarg);
}

static void test_copies_every_kernarg_binding(void** state) {
  rl_test_t* t = *state;
  const rl_pm4_program_t* p = t->program;
  const rl_capture_t* capture = t->f.capture;
  // Slots: the distinct expressions of the kernarg bindings, counted here
  // by pairwise comparison.
  uint32_t distinct = 0, pieces = 0, relayed = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      const rl_scalar_binding_t* binding = &launch->bindings[b];
      if (binding->target != RL_BINDING_KERNARG) continue;
      ++relayed;
      pieces += binding->size == 8 && binding->offset % 8 == 0
                    ? 1
                    : binding->size / 4;
      bool seen = false;
      for (uint32_t m = 0; m <= l && !seen; ++m) {
        const rl_capture_launch_t* other = &capture->launches[m];
        for (uint32_t c = 0; c < other->binding_count && !seen; ++c) {
          if (m == l && c == b) break;
          const rl_expr_t* x = &other->bindings[c].expr;
          seen = other->bindings[c].target == RL_BINDING_KERNARG &&
                 x->param == binding->expr.param &&
                 x->add == binding->expr.add && x->op == binding->expr.op &&
                 x->operand == binding->expr.operand;
        }
      }
      distinct += !seen;
    }
  }
  assert_true(relayed > 0);
  assert_int_equal(p->relay_count, distinct);
  uint32_t slots = 0;
  assert_null(rl_pm4_relay_slot_count(capture, &slots));
  assert_int_equal(slots, distinct);
  assert_int_equal(p->stats.copies, pieces);
  rl_test_run_t run;
  rl_test_expect_bound(t, t->f.pos, &run);
  assert_int_equal(run.copies, pieces);
  assert_int_equal(run.dispatches, capture->launch_count);
  // The copies of launch 0 and of launches without a wait are before the
  // entry acquire (pm4_lower.h); the others before their own wait.
  uint32_t prologue = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    if (l > 0 && t->f.plan->boundaries[l].needs_wait) continue;
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      if (launch->bindings[b].target != RL_BINDING_KERNARG) continue;
      prologue += launch->bindings[b].size == 8 &&
                          launch->bindings[b].offset % 8 == 0
                      ? 1
                      : launch->bindings[b].size / 4;
    }
  }
  assert_int_equal(run.prologue, prologue);
  printf("# %s vecchain relay: %u slots, %u copies (%u before the entry "
         "acquire), %u dwords\n",
         t->f.processor, p->relay_count, run.copies, run.prologue,
         p->dword_count);
}

static void test_apply_writes_slots_only(void** state) {
  rl_test_t* t = *state;
  rl_pm4_program_t* p = t->program;
  uint8_t* kernarg = malloc(p->kernarg_size);
  memcpy(kernarg, p->kernarg, p->kernarg_size);
  uint32_t changed = 99;
  int64_t pos = t->f.pos;
  assert_null(rl_pm4_program_apply(p, t->f.capture, &pos, 1, NULL, NULL,
                                   NULL, &changed));
  assert_int_equal(changed, 0);
  pos = 100;
  assert_null(rl_pm4_program_apply(p, t->f.capture, &pos, 1, NULL, NULL,
                                   NULL, &changed));
  // Every expression moves: one store per slot and one per grid site.
  uint32_t grid_sites = 0;
  for (uint32_t i = 0; i < p->patch_count; ++i) {
    grid_sites += p->binds->sites[i].kind == RL_BIND_SITE_GRID;
  }
  assert_int_equal(changed, p->relay_count + grid_sites);
  // The host wrote no relayed site of the segment image (the CP does).
  uint32_t relayed = 0;
  for (uint32_t i = 0; i < p->patch_count; ++i) {
    const rl_bind_site_t* site = &p->binds->sites[i];
    if (!site->relayed) continue;
    ++relayed;
    assert_memory_equal(kernarg + site->offset, p->kernarg + site->offset,
                        site->width);
  }
  assert_true(relayed > 0);
  rl_test_run_t run;
  rl_test_expect_bound(t, 100, &run);
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  free(kernarg);
}

// Rotates IB dwords [first, end) left by |by|, so the packet at |first|
// moves behind the next |by| dwords.
static void rl_test_rotate(uint32_t* dwords, uint32_t first, uint32_t end,
                           uint32_t by) {
  uint32_t* copy = malloc((end - first) * 4u);
  memcpy(copy, dwords + first, (end - first) * 4u);
  for (uint32_t i = 0; i < end - first; ++i) {
    dwords[first + i] = copy[(i + by) % (end - first)];
  }
  free(copy);
}

static uint32_t rl_test_next(const uint32_t* dwords, uint32_t offset) {
  return offset + (dwords[offset] >> 16 & 0x3fff) + 2;
}

static uint32_t rl_test_opcode(const uint32_t* dwords, uint32_t offset) {
  return dwords[offset] >> 8 & 0xff;
}

static void test_census_negative_controls(void** state) {
  rl_test_t* t = *state;
  rl_pm4_program_t* p = t->program;
  uint32_t* ib = p->dwords;
  const size_t bytes = 4ull * p->dword_count;
  uint32_t* saved = malloc(bytes);
  memcpy(saved, ib, bytes);
  // The first copy.
  uint32_t copy = 0;
  while (rl_test_opcode(ib, copy) != 0x40) copy = rl_test_next(ib, copy);
  ib[copy + 2] += 8;
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), "expected control");
  memcpy(ib, saved, bytes);
  ib[copy + 1] &= ~(1u << 20);
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), "expected control");
  memcpy(ib, saved, bytes);
  ib[copy] = rl_pm4_header(RL_PM4_NOP, 6, 0);
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), "NOP");
  memcpy(ib, saved, bytes);
  // The copy moved behind its launch's dispatch: the dispatch comes first.
  uint32_t dispatch = copy;
  while (rl_test_opcode(ib, dispatch) != 0x15) {
    dispatch = rl_test_next(ib, dispatch);
  }
  rl_test_rotate(ib, copy, rl_test_next(ib, dispatch), 6);
  uint32_t launch = 0;
  while (p->dispatch_offsets[launch] != dispatch) ++launch;
  p->dispatch_offsets[launch] -= 6;  // where the dispatch now is
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), "never copied");
  p->dispatch_offsets[launch] += 6;
  memcpy(ib, saved, bytes);
  // A copy just behind the entry acquire (before any dispatch).
  uint32_t entry = 0;
  while (rl_test_opcode(ib, entry) != 0x58) entry = rl_test_next(ib, entry);
  const uint32_t after_entry = rl_test_next(ib, entry);
  if (copy >= after_entry) {
    rl_test_rotate(ib, after_entry, copy + 6, copy - after_entry);
    assert_int_equal(rl_test_opcode(ib, after_entry), 0x40);
    rl_test_expect(rl_pm4_program_check(p, &t->f.inputs),
                   "between a wait and its dispatch");
    memcpy(ib, saved, bytes);
  }
  // A copy after a wait's acquire: a copy followed by a CS_PARTIAL_FLUSH
  // (opcode 0x46) and ACQUIRE_MEM, moved behind them.
  bool found = false;
  for (copy = after_entry; copy < p->dword_count;
       copy = rl_test_next(ib, copy)) {
    uint32_t next = rl_test_next(ib, copy);
    if (rl_test_opcode(ib, copy) == 0x40 && next < p->dword_count &&
        rl_test_opcode(ib, next) == 0x46) {
      found = true;
      break;
    }
  }
  assert_true(found);
  const uint32_t flush = rl_test_next(ib, copy);
  const uint32_t acquire = rl_test_next(ib, flush);
  rl_test_rotate(ib, copy, rl_test_next(ib, acquire), 6);
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs),
                 "between a wait and its dispatch");
  memcpy(ib, saved, bytes);
  // A copy with no acquire after it: launch 3 (vc_axpy_pos, its pos
  // relayed) lowered as if the plan let it run without a wait, so its copy
  // is in the prologue; moved to just behind launch 2's dispatch (a place
  // a copy may be), nothing invalidates the K$ before launch 3 reads it.
  rl_hazard_plan_t* plan = t->f.plan;
  const bool waits = plan->boundaries[3].needs_wait;
  plan->boundaries[3].needs_wait = false;
  rl_pm4_program_t* nowait = NULL;
  assert_null(rl_pm4_lower(&t->f.inputs, NULL, &nowait));
  assert_null(rl_pm4_program_check(nowait, &t->f.inputs));
  uint32_t first = 0;
  while (rl_test_opcode(nowait->dwords, first) != 0x40) {
    first = rl_test_next(nowait->dwords, first);
  }
  assert_true(first < nowait->dispatch_offsets[0]);
  const uint32_t behind = nowait->dispatch_offsets[2] + 5;  // DISPATCH_DIRECT
  rl_test_rotate(nowait->dwords, first, behind, 6);
  for (uint32_t l = 0; l < 3; ++l) nowait->dispatch_offsets[l] -= 6;
  rl_test_expect(rl_pm4_program_check(nowait, &t->f.inputs),
                 "with no ACQUIRE_MEM between the copy and the dispatch");
  rl_pm4_program_destroy(nowait);
  plan->boundaries[3].needs_wait = waits;
  // A stale slot, and a site the bind table does not relay.
  p->relay[0] ^= 1;
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs), "current value");
  p->relay[0] ^= 1;
  uint32_t site = 0;
  while (!p->binds->sites[site].relayed) ++site;
  p->binds->sites[site].relayed = false;
  rl_test_expect(rl_pm4_program_check(p, &t->f.inputs),
                 "not relayed as the layout says");
  p->binds->sites[site].relayed = true;
  // A program lowered without relay, checked as if it had it.
  rl_pm4_program_t* plain = NULL;
  t->f.inputs.relay_address = 0;
  assert_null(rl_pm4_lower(&t->f.inputs, NULL, &plain));
  t->f.inputs.relay_address = RL_TEST_RELAY;
  rl_test_expect(rl_pm4_program_check(plain, &t->f.inputs), "relay slots");
  rl_pm4_program_destroy(plain);
  assert_null(rl_pm4_program_check(p, &t->f.inputs));
  free(saved);
}

#define RL_TEST(fn, target) \
  cmocka_unit_test_prestate_setup_teardown(fn, rl_test_setup, \
                                           rl_test_teardown, (void*)target)
#define RL_TEST_ALL(fn) \
  RL_TEST(fn, "gfx1100"), RL_TEST(fn, "gfx1151"), RL_TEST(fn, "gfx1201")

int main(void) {
  const struct CMUnitTest tests[] = {
      RL_TEST_ALL(test_copies_every_kernarg_binding),
      RL_TEST_ALL(test_apply_writes_slots_only),
      RL_TEST_ALL(test_census_negative_controls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
