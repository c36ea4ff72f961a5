// Tests of IB chaining in the PM4 lowering (pm4/pm4_lower.h "Chained IBs"):
// a stream longer than one IB is split into IBs linked by INDIRECT_BUFFER
// CHAIN packets. The chain is followed here with the shared decoder from
// the vendor packet's IB, independently of the census: every IB within its
// limit and a multiple of 8 dwords, NOP padding only before the chain
// packet, each chain packet the last of its IB and naming the next one
// with its size, the last IB ending the stream. Every dispatch sees the
// same register file as in the unchained stream. Negative controls: the
// census refuses a chain packet with a wrong address, size or CHAIN bit, a
// stray NOP, and an IB limit outside the accepted range; and a capture past
// the hardware's 1,048,575 dwords chains at the real limit.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aql/aql_decode.h"
#include "tests/unit/pm4/pm4_test_util.h"

#define RL_TEST_LAUNCHES 2000u
#define RL_TEST_IB_LIMIT 1024u

// Expects |status| to be |code| with |needle| in its message; frees it.
static void rl_test_expect(rl_status_t status, rl_status_code_t code,
                           const char* needle) {
  if (rl_status_code(status) != code ||
      !strstr(rl_status_message(status), needle)) {
    fail_msg("expected %s with '%s', got %s: %s", rl_status_code_name(code),
             needle, rl_status_code_name(rl_status_code(status)),
             status ? rl_status_message(status) : "OK");
  }
  rl_status_free(status);
}

static rl_pm4_program_t* rl_test_lower(rl_pm4_fixture_t* f, uint32_t limit) {
  const rl_pm4_lower_options_t options = {.retain = true,
                                          .ib_max_dwords = limit};
  rl_pm4_program_t* program = NULL;
  rl_status_t status = rl_pm4_lower(&f->inputs, &options, &program);
  if (status) fail_msg("lower: %s", rl_status_message(status));
  uint32_t measured = 0;
  assert_null(rl_pm4_lower_measure(&f->inputs, &options, &measured));
  assert_int_equal(measured, program->dword_count);
  return program;
}

// Follows the chain from the vendor packet; returns the number of IBs and
// checks each as the file comment says. Dispatches seen: *|out_dispatches|.
static uint32_t rl_test_follow(const rl_pm4_program_t* p, uint32_t limit,
                               uint32_t* out_dispatches) {
  rl_aql_decoded_t vendor;
  assert_int_equal(rl_aql_packet_decode(&p->packet, &vendor), RL_AQL_OK);
  assert_int_equal(vendor.ib_address, RL_PM4_TEST_IB);
  assert_false(vendor.ib_chain);
  uint64_t address = vendor.ib_address;
  uint32_t size = vendor.ib_size_dw, ibs = 0;
  *out_dispatches = 0;
  for (bool more = true; more; ++ibs) {
    assert_true(size >= 1 && size <= limit);
    const uint32_t start = (uint32_t)((address - RL_PM4_TEST_IB) / 4);
    assert_true(start + size <= p->dword_count);
    const uint32_t* ib = p->dwords + start;
    more = false;
    for (uint32_t offset = 0; offset < size;) {
      rl_pm4_packet_t packet;
      rl_status_t status =
          rl_pm4_decode_next(p->family, ib, size, offset, &packet);
      if (status) fail_msg("IB %u dword %u: %s", ibs, offset,
                           rl_status_message(status));
      offset += packet.dwords;
      *out_dispatches += packet.opcode == RL_PM4_DISPATCH_DIRECT;
      if (packet.opcode == RL_PM4_NOP) {
        assert_int_equal(offset + 4, size);  // only just before the chain
        assert_true(packet.dwords >= 2);     // never the header-only form
      }
      if (packet.opcode != RL_PM4_INDIRECT_BUFFER) continue;
      const uint32_t control = packet.body[2];
      assert_int_equal(offset, size);  // the last packet of its IB
      assert_int_equal(size % 8, 0);
      assert_true(RL_PM4_GET(INDIRECT_BUFFER, CHAIN, control));
      assert_true(RL_PM4_GET(INDIRECT_BUFFER, VALID, control));
      const uint64_t next = packet.body[0] | (uint64_t)packet.body[1] << 32;
      assert_int_equal(next, address + 4ull * size);
      address = next;
      size = RL_PM4_GET(INDIRECT_BUFFER, IB_SIZE, control);
      more = true;
      break;
    }
    if (!more) assert_int_equal(start + size, p->dword_count);
  }
  return ibs;
}

// One dispatch's view, flattened for comparison across two streams.
typedef struct rl_test_views_s {
  uint32_t count;
  uint64_t* hashes;
} rl_test_views_t;

static void rl_test_collect(void* context, uint32_t i,
                            const rl_pm4_view_t* v) {
  rl_test_views_t* views = context;
  uint64_t h = 1469598103934665603ull;
  const uint32_t words[] = {v->dims[0], v->dims[1], v->dims[2], v->initiator,
                            v->flushes, v->acquires};
  for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); ++w) {
    h = (h ^ words[w]) * 1099511628211ull;
  }
  for (uint32_t r = 0; r < RL_PM4_TEST_SH_COUNT; ++r) {
    if (v->known[r]) h = (h ^ (r * 0x9e3779b9u ^ v->value[r])) * 1099511628211ull;
  }
  views->hashes[i] = h;
  views->count = i + 1;
}

static void test_chain_structure_and_equivalence(void** state) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_repeat(&f, (const char*)*state, RL_TEST_LAUNCHES, 0, 1);
  rl_pm4_program_t* plain = rl_test_lower(&f, 0);
  rl_pm4_program_t* chained = rl_test_lower(&f, RL_TEST_IB_LIMIT);
  // The same capture without a limit: one IB (the control).
  assert_int_equal(plain->stats.chains, 0);
  assert_int_equal(plain->stats.entry_dwords, plain->dword_count);
  uint32_t dispatches = 0;
  assert_int_equal(rl_test_follow(plain, RL_PM4_IB_MAX_DWORDS, &dispatches),
                   1);
  // Chained: at least as many IBs as the stream needs at the limit.
  const rl_pm4_stats_t* s = &chained->stats;
  uint32_t ibs = rl_test_follow(chained, RL_TEST_IB_LIMIT, &dispatches);
  assert_int_equal(dispatches, RL_TEST_LAUNCHES);
  assert_int_equal(ibs, s->chains + 1);
  assert_true(ibs >= plain->dword_count / RL_TEST_IB_LIMIT + 1);
  assert_true(s->entry_dwords <= RL_TEST_IB_LIMIT);
  assert_int_equal(s->dispatches, plain->stats.dispatches);
  assert_int_equal(s->waits, plain->stats.waits);
  assert_int_equal(s->acquires, plain->stats.acquires);
  // Padding and chain packets are all a chain adds.
  assert_true(chained->dword_count >= plain->dword_count + 4 * s->chains);
  assert_true(chained->dword_count <= plain->dword_count + 13 * s->chains);
  assert_null(rl_pm4_program_check(chained, &f.inputs));
  // Every dispatch sees the same registers, dims, initiator and waits.
  rl_test_views_t a = {0, calloc(RL_TEST_LAUNCHES, sizeof(uint64_t))};
  rl_test_views_t b = {0, calloc(RL_TEST_LAUNCHES, sizeof(uint64_t))};
  assert_int_equal(rl_pm4_walk(plain, rl_test_collect, &a, NULL),
                   RL_TEST_LAUNCHES);
  assert_int_equal(rl_pm4_walk(chained, rl_test_collect, &b, NULL),
                   RL_TEST_LAUNCHES);
  assert_memory_equal(a.hashes, b.hashes, RL_TEST_LAUNCHES * sizeof(uint64_t));
  // Patch sites in the IB (grid dims) still name their DISPATCH_DIRECT.
  for (uint32_t i = 0; i < chained->patch_count; ++i) {
    const rl_pm4_patch_t* patch = &chained->patches[i];
    if (patch->kind != RL_PM4_PATCH_GRID_DIM) continue;
    assert_int_equal(patch->offset,
                     chained->dispatch_offsets[patch->launch] + 1 +
                         patch->axis);
  }
  free(a.hashes);
  free(b.hashes);
  rl_pm4_program_destroy(plain);
  rl_pm4_program_destroy(chained);
  rl_pm4_fixture_deinit(&f);
}

// The dword of the first chain packet of |p|.
static uint32_t rl_test_first_chain(const rl_pm4_program_t* p) {
  return p->stats.entry_dwords - 4;
}

static void test_census_refuses_broken_chains(void** state) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_repeat(&f, (const char*)*state, 200, 0, 1);
  rl_pm4_program_t* p = rl_test_lower(&f, 256);
  assert_true(p->stats.chains >= 2);
  assert_null(rl_pm4_program_check(p, &f.inputs));
  uint32_t* chain = p->dwords + rl_test_first_chain(p);
  assert_int_equal(rl_pm4_header_opcode(chain[0]), RL_PM4_INDIRECT_BUFFER);
  // A chain to the wrong address.
  chain[1] += 8;
  rl_test_expect(rl_pm4_program_check(p, &f.inputs), RL_STATUS_PREPARE,
                 "expected a CHAIN|VALID packet ending the IB");
  chain[1] -= 8;
  // CHAIN cleared: a nested IB would return, the census refuses it.
  chain[3] &= ~(1u << RL_PM4_INDIRECT_BUFFER_CHAIN_SHIFT);
  rl_test_expect(rl_pm4_program_check(p, &f.inputs), RL_STATUS_PREPARE,
                 "expected a CHAIN|VALID packet");
  chain[3] |= 1u << RL_PM4_INDIRECT_BUFFER_CHAIN_SHIFT;
  // A size 8 dwords short: the next IB's last packets lie past its end.
  chain[3] -= 8;
  rl_test_expect(rl_pm4_program_check(p, &f.inputs), RL_STATUS_PREPARE,
                 "past the end of its IB");
  chain[3] += 8;
  // A size of 0 (no IB at all).
  const uint32_t size = chain[3] & 0xfffffu;
  chain[3] &= ~0xfffffu;
  rl_test_expect(rl_pm4_program_check(p, &f.inputs), RL_STATUS_PREPARE,
                 "INDIRECT_BUFFER");
  chain[3] |= size;
  // A NOP anywhere but just before a chain packet.
  const uint32_t saved[2] = {p->dwords[0], p->dwords[1]};
  assert_int_equal(rl_pm4_header_opcode(p->dwords[0]), RL_PM4_ACQUIRE_MEM);
  const uint32_t acquire_dwords = rl_pm4_header_dwords(p->dwords[0]);
  p->dwords[0] = rl_pm4_header(RL_PM4_NOP, acquire_dwords, 0);
  rl_test_expect(rl_pm4_program_check(p, &f.inputs), RL_STATUS_PREPARE,
                 "padding only just before a chain packet");
  p->dwords[0] = saved[0];
  assert_null(rl_pm4_program_check(p, &f.inputs));  // restored: passes
  rl_pm4_program_destroy(p);
  // Limits outside 128..1048575 are refused before anything is built.
  const rl_pm4_lower_options_t small = {.retain = true, .ib_max_dwords = 127};
  rl_test_expect(rl_pm4_lower(&f.inputs, &small, &p),
                 RL_STATUS_INVALID_ARGUMENT, "IB limit of 127 dwords");
  assert_null(p);
  const rl_pm4_lower_options_t big = {.retain = true,
                                      .ib_max_dwords = 1u << 20};
  uint32_t measured = 7;
  rl_test_expect(rl_pm4_lower_measure(&f.inputs, &big, &measured),
                 RL_STATUS_INVALID_ARGUMENT, "expected 128..1048575");
  assert_int_equal(measured, 0);
  rl_pm4_fixture_deinit(&f);
}

// Past the hardware's IB size: the default limit chains (this capture
// was refused before chaining with "more than the 1048575 an
// INDIRECT_BUFFER can jump to").
static void test_hardware_limit_chains(void** state) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_repeat(&f, (const char*)*state, 100000, 0, 1);
  rl_pm4_program_t* p = rl_test_lower(&f, 0);
  assert_true(p->dword_count > RL_PM4_IB_MAX_DWORDS);
  assert_true(p->stats.chains >= 1);
  print_message("100000 launches: %u dwords in %u IBs (first %u)\n",
                p->dword_count, p->stats.chains + 1, p->stats.entry_dwords);

  uint32_t dispatches = 0;
  assert_int_equal(rl_test_follow(p, RL_PM4_IB_MAX_DWORDS, &dispatches),
                   p->stats.chains + 1);
  assert_int_equal(dispatches, 100000);
  // The first IB is filled to within one packet and its close.
  assert_true(p->stats.entry_dwords > RL_PM4_IB_MAX_DWORDS - 100);
  assert_null(rl_pm4_program_check(p, &f.inputs));
  rl_pm4_program_destroy(p);
  rl_pm4_fixture_deinit(&f);
}

int main(void) {
  static const char* const targets[] = {"gfx1100", "gfx1201"};
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_prestate(test_chain_structure_and_equivalence,
                                (void*)targets[0]),
      cmocka_unit_test_prestate(test_chain_structure_and_equivalence,
                                (void*)targets[1]),
      cmocka_unit_test_prestate(test_census_refuses_broken_chains,
                                (void*)targets[0]),
      cmocka_unit_test_prestate(test_hardware_limit_chains,
                                (void*)targets[0]),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
