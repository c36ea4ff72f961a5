// Tests of the dynamic hazard checker and the adversarial scheduler
// (sim/sim_hazard_checker.c, sim_schedule.c). Dispatch A fills a
// buffer, dispatch B copies it elsewhere (read-after-write). Without a
// barrier between them the checker must report RAW with A and B's dispatch
// indices, and adversarial interleaving must change B's output versus the
// sequential order; with the barrier bit on B there is no report and every
// mode gives the same bytes (the negative control).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "redline/hazard.h"
#include "sim/wg/sim_wg.h"
#include "tests/unit/sim/sim_test_util.h"

enum { RL_TEST_ITEMS = 4096 };  // 64 work-groups of 64

typedef struct rl_test_result_s {
  uint32_t out[RL_TEST_ITEMS];
  uint32_t hazard_total;
  rl_sim_hazard_t hazards[8];
  uint64_t buffer_address;
  uint64_t index_a;
} rl_test_result_t;

// Runs A (fill |buf| with 3.0f) then B (copy |buf| to |out|) in one
// submission; B has the barrier bit when |barrier|.
static void rl_test_run(rl_sim_hazard_mode_t mode, uint64_t seed, bool barrier,
                        rl_test_result_t* result) {
  rl_sim_options_t options = {.hazards = mode, .seed = seed};
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, &options, 16);
  rl_device_allocation_t buf = rl_sim_fixture_alloc(&f, 4 * RL_TEST_ITEMS);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * RL_TEST_ITEMS);
  uint64_t signal = rl_sim_fixture_signal(&f, 2);
  rl_aql_dispatch_packet_t a = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_fill"),
      rl_sim_fixture_fill_args(&f, buf.address, 3.0f, RL_TEST_ITEMS),
      RL_TEST_ITEMS, signal, true);
  rl_aql_dispatch_packet_t b = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_copy_u32"),
      rl_sim_fixture_copy_args(&f, buf.address, out.address, RL_TEST_ITEMS),
      RL_TEST_ITEMS, signal, barrier);
  // One doorbell for both, so the CP sees them as one candidate batch.
  rl_test_publish(&f, &a);
  rl_test_submit(&f, &b);
  assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
  assert_null(f.device->vtable->read(f.device, out.address, result->out,
                                     sizeof(result->out)));
  result->hazard_total = rl_sim_hazards(f.device, result->hazards, 8);
  result->buffer_address = buf.address;
  rl_sim_dispatch_record_t log[2];
  assert_int_equal(rl_sim_dispatch_log(f.device, log, 2), 2);
  result->index_a =
      log[0].packet_id == 0 ? log[0].dispatch_index : log[1].dispatch_index;
  rl_sim_hazards_clear(f.device);
  assert_int_equal(rl_sim_hazards(f.device, NULL, 0), 0);
  assert_true(f.device->vtable->queue_idle(f.device, &f.queue));
  rl_sim_fixture_teardown(&f);
}

static void test_missing_barrier_reports_raw(void** state) {
  (void)state;
  static rl_test_result_t r;
  rl_test_run(RL_SIM_HAZARDS_SEQUENTIAL, 0, false, &r);
  assert_int_equal(r.hazard_total, 1);
  assert_int_equal(r.hazards[0].kind, RL_HAZARD_RAW);
  assert_int_equal(r.hazards[0].earlier_dispatch, r.index_a);
  assert_int_equal(r.hazards[0].later_dispatch, r.index_a + 1);
  assert_int_equal(r.hazards[0].address, r.buffer_address);
  assert_int_equal(r.hazards[0].size, 4 * RL_TEST_ITEMS);
}

static void test_barrier_reports_nothing(void** state) {
  (void)state;
  static rl_test_result_t r;
  rl_test_run(RL_SIM_HAZARDS_SEQUENTIAL, 0, true, &r);
  assert_int_equal(r.hazard_total, 0);
  rl_test_run(RL_SIM_HAZARDS_ADVERSARIAL, 1, true, &r);
  assert_int_equal(r.hazard_total, 0);
}

static void test_adversarial_changes_result_without_barrier(void** state) {
  (void)state;
  static rl_test_result_t sequential, adversarial;
  rl_test_run(RL_SIM_HAZARDS_SEQUENTIAL, 0, false, &sequential);
  float three = 3.0f;
  uint32_t bits;
  memcpy(&bits, &three, 4);
  for (int i = 0; i < RL_TEST_ITEMS; ++i)
    assert_int_equal(sequential.out[i], bits);
  const uint64_t seeds[2] = {0x1234, 0xfeedface};
  for (int s = 0; s < 2; ++s) {
    rl_test_run(RL_SIM_HAZARDS_ADVERSARIAL, seeds[s], false, &adversarial);
    assert_true(
        memcmp(adversarial.out, sequential.out, sizeof(sequential.out)) != 0);
    // The checker reports the same hazard whatever order the groups ran in.
    assert_int_equal(adversarial.hazard_total, 1);
    assert_int_equal(adversarial.hazards[0].kind, RL_HAZARD_RAW);
  }
}

static void test_adversarial_with_barrier_identical(void** state) {
  (void)state;
  static rl_test_result_t sequential, adversarial;
  rl_test_run(RL_SIM_HAZARDS_SEQUENTIAL, 0, true, &sequential);
  const uint64_t seeds[2] = {0x1234, 0xfeedface};
  for (int s = 0; s < 2; ++s) {
    rl_test_run(RL_SIM_HAZARDS_ADVERSARIAL, seeds[s], true, &adversarial);
    assert_memory_equal(adversarial.out, sequential.out,
                        sizeof(sequential.out));
  }
}

static void test_same_seed_is_reproducible(void** state) {
  (void)state;
  static rl_test_result_t first, second;
  rl_test_run(RL_SIM_HAZARDS_ADVERSARIAL, 42, false, &first);
  rl_test_run(RL_SIM_HAZARDS_ADVERSARIAL, 42, false, &second);
  assert_memory_equal(first.out, second.out, sizeof(first.out));
}

// The range set against a byte-map oracle: random adds in random order
// (what interleaved work-groups produce), then coalescing and overlap.
static void test_range_set_matches_oracle(void** state) {
  (void)state;
  enum { SPAN = 4096 };
  static uint8_t map_a[SPAN], map_b[SPAN];
  memset(map_a, 0, sizeof(map_a));
  memset(map_b, 0, sizeof(map_b));
  rl_sim_range_set_t a = {0}, b = {0};
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 3000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
    uint64_t begin = x % (SPAN - 16);
    uint64_t size = 1 + (x >> 32) % 12;
    bool to_a = (x >> 60) & 1;
    assert_null(rl_sim_range_set_add(to_a ? &a : &b, 1000 + begin, size));
    memset((to_a ? map_a : map_b) + begin, 1, size);
  }
  const rl_sim_range_set_t* sets[2] = {&a, &b};
  const uint8_t* maps[2] = {map_a, map_b};
  for (int s = 0; s < 2; ++s) {
    uint64_t covered = 0;
    for (uint32_t i = 0; i < sets[s]->count; ++i) {
      const rl_sim_range_t* r = &sets[s]->items[i];
      assert_true(r->begin < r->end);
      // Sorted, disjoint and not adjacent (fully coalesced).
      if (i > 0) assert_true(sets[s]->items[i - 1].end < r->begin);
      for (uint64_t byte = r->begin; byte < r->end; ++byte) {
        assert_int_equal(maps[s][byte - 1000], 1);
      }
      covered += r->end - r->begin;
    }
    uint64_t expected = 0;
    for (int byte = 0; byte < SPAN; ++byte) expected += maps[s][byte];
    assert_int_equal(covered, expected);
  }
  uint64_t first = 0, both = 0, oracle_first = 0;
  for (int byte = SPAN - 1; byte >= 0; --byte) {
    if (map_a[byte] && map_b[byte])
      both++, oracle_first = 1000 + (uint64_t)byte;
  }
  assert_int_equal(rl_sim_range_set_overlap(&a, &b, &first), both);
  assert_int_equal(first, oracle_first);
  // Sequential 4-byte accesses collapse into one interval.
  rl_sim_range_set_clear(&a);
  for (uint64_t i = 0; i < 1024; ++i) {
    assert_null(rl_sim_range_set_add(&a, 0x900000000000ull + 4 * i, 4));
  }
  assert_int_equal(a.count, 1);
  rl_sim_range_set_deinit(&a);
  rl_sim_range_set_deinit(&b);
}

static bool rl_test_sets_equal(const rl_sim_range_set_t* a,
                               const rl_sim_range_set_t* b) {
  if (a->count != b->count) return false;
  for (uint32_t i = 0; i < a->count; ++i) {
    if (a->items[i].begin != b->items[i].begin ||
        a->items[i].end != b->items[i].end) {
      return false;
    }
  }
  return true;
}

// A sorted batch (the lanes of one instruction, sim_wg.c) gives the set
// that adding its ranges one by one gives, whatever the set held before:
// batches inside, across and between existing intervals, some spanning
// more than the batch's stack buffer. Negative control: one range more on
// one side makes the comparison fail.
static void test_range_set_sorted_batch_matches_one_by_one(void** state) {
  (void)state;
  rl_sim_range_set_t batched = {0}, single = {0};
  uint64_t x = 0x2545F4914F6CDD1Dull;
  for (int round = 0; round < 2000; ++round) {
    rl_sim_range_t ranges[32];
    uint32_t count = 0;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    uint64_t at = x % 200000;
    uint64_t stride = 1 + (x >> 40) % 600;
    uint32_t want = 1 + (uint32_t)((x >> 20) % 32);
    for (uint32_t k = 0; k < want; ++k) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      uint64_t begin = at + k * stride + (x % 3);
      uint64_t end = begin + 1 + (x >> 33) % 16;
      // Sorted, disjoint and not touching, as the caller makes them.
      if (count > 0 && begin <= ranges[count - 1].end) continue;
      ranges[count++] = (rl_sim_range_t){begin, end};
    }
    assert_null(rl_sim_range_set_add_sorted(&batched, ranges, count));
    for (uint32_t k = 0; k < count; ++k) {
      assert_null(rl_sim_range_set_add(&single, ranges[k].begin,
                                       ranges[k].end - ranges[k].begin));
    }
    assert_true(rl_test_sets_equal(&batched, &single));
  }
  assert_true(batched.count > 100);  // the batches landed between intervals
  assert_null(rl_sim_range_set_add(&single, 900000, 4));
  assert_false(rl_test_sets_equal(&batched, &single));
  rl_sim_range_set_deinit(&batched);
  rl_sim_range_set_deinit(&single);
}

// Logged ranges (rl_sim_range_set_log, the simulator's recording), settled
// now and then and at the end, give the set adding them one by one gives:
// random ranges in random order, runs of ascending lanes, re-reads of what
// the set holds, past the log's bound of 1024 ranges (so it settles by
// itself on the way). Negative controls: before the last settle the logged
// set misses ranges; one range more on one side makes the comparison fail.
static void test_range_set_log_matches_one_by_one(void** state) {
  (void)state;
  rl_sim_range_set_t logged = {0}, single = {0};
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 30000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    uint64_t begin = 0, size = 0;
    switch ((x >> 61) & 3) {
      case 0:  // anywhere
        begin = x % 1000000;
        size = 1 + (x >> 32) % 16;
        break;
      case 1:  // the next element of a run
        begin = 2000000 + 4 * (uint64_t)(i % 5000);
        size = 4;
        break;
      case 2:  // a strided lane
        begin = 3000000 + 256 * ((x >> 8) % 20000);
        size = 4;
        break;
      default:  // again what an earlier access read
        begin = 2000000 + 4 * ((x >> 8) % 5000);
        size = 4;
        break;
    }
    assert_null(rl_sim_range_set_log(&logged, begin, size));
    assert_null(rl_sim_range_set_add(&single, begin, size));
    if (i % 14001 == 14000) {  // ~7000 new ranges: past the bound
      assert_null(rl_sim_range_set_settle(&logged));
      assert_true(rl_test_sets_equal(&logged, &single));
    }
  }
  assert_true(logged.pending_count > 0);
  assert_false(rl_test_sets_equal(&logged, &single));
  assert_null(rl_sim_range_set_settle(&logged));
  assert_int_equal(logged.pending_count, 0);
  assert_true(rl_test_sets_equal(&logged, &single));
  assert_true(single.count > 1024);  // more than one log's worth
  assert_null(rl_sim_range_set_add(&single, 5000000, 4));
  assert_false(rl_test_sets_equal(&logged, &single));
  rl_sim_range_set_deinit(&logged);
  rl_sim_range_set_deinit(&single);
}

// The lanes of vector-memory instructions (rl_sim_range_set_log_lanes)
// give the set adding every lane's range one by one gives: a wave walking
// 16-byte strided rows byte by byte (each lane extends its own range: 32
// logged ranges for 16 instructions, the mechanism at work), unit-stride
// loads, gathers at random addresses with partial EXEC masks, past the
// log's bound. Negative controls: before the last settle the lanes' set
// misses ranges; one range more on one side makes the comparison fail.
static void test_range_set_log_lanes_matches_one_by_one(void** state) {
  (void)state;
  rl_sim_range_set_t lanes = {0}, single = {0};
  uint64_t address[32];
  for (uint32_t d = 0; d < 16; ++d) {  // k[t * 64 + d] for t = lane
    for (uint32_t l = 0; l < 32; ++l) address[l] = 1000000 + l * 64u + d;
    assert_null(rl_sim_range_set_log_lanes(&lanes, address, 0xFFFFFFFFu, 1));
    for (uint32_t l = 0; l < 32; ++l) {
      assert_null(rl_sim_range_set_add(&single, address[l], 1));
    }
  }
  assert_int_equal(lanes.pending_count, 32);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 3000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const uint32_t mask = (uint32_t)(x >> 16) | 1u;
    const uint32_t size = (x & 1) ? 4 : 8;
    for (uint32_t l = 0; l < 32; ++l) {
      switch ((x >> 61) & 3) {
        case 0:  // a gather anywhere
          x ^= x << 13, x ^= x >> 7, x ^= x << 17;
          address[l] = x % 4000000;
          break;
        case 1:  // unit stride, the next block of a run
          address[l] = 5000000 + (uint64_t)(i % 700) * 32 * size + l * size;
          break;
        default:  // a strided column, one element further each time
          address[l] = 6000000 + l * 4096u + (uint64_t)(i % 300) * size;
          break;
      }
    }
    assert_null(rl_sim_range_set_log_lanes(&lanes, address, mask, size));
    for (uint32_t rest = mask; rest; rest &= rest - 1) {
      assert_null(rl_sim_range_set_add(
          &single, address[__builtin_ctz(rest)], size));
    }
  }
  assert_true(lanes.pending_count > 0);
  assert_false(rl_test_sets_equal(&lanes, &single));
  assert_null(rl_sim_range_set_settle(&lanes));
  assert_true(rl_test_sets_equal(&lanes, &single));
  assert_true(single.count > 1024);  // more than one log's worth
  assert_null(rl_sim_range_set_add(&single, 9000000, 4));
  assert_false(rl_test_sets_equal(&lanes, &single));
  rl_sim_range_set_deinit(&lanes);
  rl_sim_range_set_deinit(&single);
}

// A copies buf to out, B refills buf (WAR against A), C refills out (WAW
// against A, and nothing against B): one batch, three dispatches.
static void sim_hazard_war_and_waw_in_one_batch_order_dispatches(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  enum { N = 256 };
  rl_device_allocation_t buf = rl_sim_fixture_alloc(&f, 4 * N);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * N);
  uint64_t signal = rl_sim_fixture_signal(&f, 3);
  uint64_t fill = rl_sim_fixture_kernel(&f, "vc_fill");
  rl_aql_dispatch_packet_t a = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_copy_u32"),
      rl_sim_fixture_copy_args(&f, buf.address, out.address, N), N, signal,
      true);
  rl_aql_dispatch_packet_t b =
      rl_test_dispatch(fill, rl_sim_fixture_fill_args(&f, buf.address, 1.0f, N),
                       N, signal, false);
  rl_aql_dispatch_packet_t c = rl_test_dispatch(
      fill, rl_sim_fixture_fill_args(&f, out.address, 2.0f, N / 2), N, signal,
      false);
  rl_test_publish(&f, &a);
  rl_test_publish(&f, &b);
  rl_test_submit(&f, &c);
  assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
  rl_sim_hazard_t hazards[4];
  assert_int_equal(rl_sim_hazards(f.device, hazards, 4), 2);
  assert_int_equal(hazards[0].kind, RL_HAZARD_WAR);
  assert_int_equal(hazards[0].later_dispatch, hazards[0].earlier_dispatch + 1);
  assert_int_equal(hazards[0].address, buf.address);
  assert_int_equal(hazards[1].kind, RL_HAZARD_WAW);
  assert_int_equal(hazards[1].later_dispatch, hazards[1].earlier_dispatch + 2);
  assert_int_equal(hazards[1].address, out.address);
  assert_int_equal(hazards[1].size, 4 * N / 2);
  rl_sim_fixture_teardown(&f);
}

// The access log (sim.h): one record per dispatch with the ranges it
// loaded and stored, its derived geometry and the work-groups it ran;
// nothing is recorded while it is off (the control).
static void sim_access_log_records_ranges_and_geometry(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  enum { N = 256 };
  rl_device_allocation_t buf = rl_sim_fixture_alloc(&f, 4 * N);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * N);
  uint64_t signal = rl_sim_fixture_signal(&f, 1);
  rl_sim_access_log_enable(f.device, true);
  rl_aql_dispatch_packet_t a = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_copy_u32"),
      rl_sim_fixture_copy_args(&f, buf.address, out.address, N / 2), N,
      signal, true);
  rl_test_submit(&f, &a);
  assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
  rl_sim_access_record_t* records = NULL;
  uint32_t total = 0;
  assert_int_equal(rl_sim_access_log_take(f.device, &records, &total), 1);
  assert_int_equal(total, 1);
  assert_int_equal(records[0].grid_size[0], N);
  assert_int_equal(records[0].workgroup_count[0] * records[0].workgroup_size[0],
                   N);
  assert_int_equal(records[0].workgroups_run, records[0].workgroup_count[0]);
  // Half the items copy: reads [buf, +N/2 words) (and the kernarg segment,
  // elsewhere), writes exactly [out, +N/2 words).
  assert_int_equal(records[0].write_count, 1);
  assert_int_equal(records[0].writes[0].begin, out.address);
  assert_int_equal(records[0].writes[0].end, out.address + 4 * N / 2);
  bool read_buf = false;
  for (uint32_t r = 0; r < records[0].read_count; ++r) {
    read_buf |= records[0].reads[r].begin == buf.address &&
                records[0].reads[r].end == buf.address + 4 * N / 2;
  }
  assert_true(read_buf);
  rl_sim_access_log_free(records, 1);
  rl_sim_access_log_enable(f.device, false);
  uint64_t signal2 = rl_sim_fixture_signal(&f, 1);
  rl_aql_dispatch_packet_t b = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_copy_u32"),
      rl_sim_fixture_copy_args(&f, buf.address, out.address, N), N, signal2,
      true);
  rl_test_submit(&f, &b);
  assert_true(rl_test_wait(&f, signal2, RL_TEST_WAIT_NS));
  assert_int_equal(rl_sim_access_log_take(f.device, &records, &total), 0);
  assert_int_equal(total, 0);
  assert_null(records);
  rl_sim_fixture_teardown(&f);
}

// Two submissions, each waited for: the second packet has no barrier bit,
// so it is unordered with the first although the CP ran them in separate
// batches (sim_hazard_checker.h, open list). A later packet with the
// barrier bit is ordered and reports nothing new (negative control).
static void test_unordered_across_submissions(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 16);
  enum { N = 256 };
  rl_device_allocation_t buf = rl_sim_fixture_alloc(&f, 4 * N);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * N);
  uint64_t first = rl_sim_fixture_signal(&f, 1);
  uint64_t second = rl_sim_fixture_signal(&f, 1);
  uint64_t third = rl_sim_fixture_signal(&f, 1);
  uint64_t copy = rl_sim_fixture_kernel(&f, "vc_copy_u32");
  rl_aql_dispatch_packet_t a = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_fill"),
      rl_sim_fixture_fill_args(&f, buf.address, 1.0f, N), N, first, true);
  rl_test_submit(&f, &a);
  assert_true(rl_test_wait(&f, first, RL_TEST_WAIT_NS));
  rl_aql_dispatch_packet_t b = rl_test_dispatch(
      copy, rl_sim_fixture_copy_args(&f, buf.address, out.address, N), N,
      second, false);
  rl_test_submit(&f, &b);
  assert_true(rl_test_wait(&f, second, RL_TEST_WAIT_NS));
  rl_sim_hazard_t hazards[4];
  assert_int_equal(rl_sim_hazards(f.device, hazards, 4), 1);
  assert_int_equal(hazards[0].kind, RL_HAZARD_RAW);
  assert_int_equal(hazards[0].ordering, RL_SIM_HAZARD_ORDERING_AQL);
  assert_int_equal(hazards[0].later_dispatch, hazards[0].earlier_dispatch + 1);
  assert_int_equal(hazards[0].address, buf.address);
  assert_int_equal(hazards[0].end, buf.address + 4 * N);
  rl_aql_dispatch_packet_t c = rl_test_dispatch(
      copy, rl_sim_fixture_copy_args(&f, buf.address, out.address, N), N,
      third, true);
  rl_test_submit(&f, &c);
  assert_true(rl_test_wait(&f, third, RL_TEST_WAIT_NS));
  assert_int_equal(rl_sim_hazards(f.device, hazards, 4), 1);
  rl_sim_fixture_teardown(&f);
}

// More unbarriered packets than one batch holds (RL_SIM_BATCH_MAX): the
// producer and the consumer land in different batches and are still
// reported; the fills in between touch disjoint bytes and report nothing.
static void test_unordered_past_batch_max(void** state) {
  (void)state;
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, NULL, 128);
  enum { N = 64, FILLS = 64 };
  rl_device_allocation_t buf = rl_sim_fixture_alloc(&f, 4 * N);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * N);
  rl_device_allocation_t many = rl_sim_fixture_alloc(&f, 4 * N * FILLS);
  uint64_t signal = rl_sim_fixture_signal(&f, 1);
  uint64_t fill = rl_sim_fixture_kernel(&f, "vc_fill");
  rl_aql_dispatch_packet_t a = rl_test_dispatch(
      fill, rl_sim_fixture_fill_args(&f, buf.address, 1.0f, N), N, 0, true);
  rl_test_publish(&f, &a);
  for (uint32_t k = 0; k < FILLS; ++k) {
    rl_aql_dispatch_packet_t p = rl_test_dispatch(
        fill, rl_sim_fixture_fill_args(&f, many.address + 4ull * N * k, 2.0f, N),
        N, 0, false);
    rl_test_publish(&f, &p);
  }
  rl_aql_dispatch_packet_t b = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_copy_u32"),
      rl_sim_fixture_copy_args(&f, buf.address, out.address, N), N, signal,
      false);
  rl_test_submit(&f, &b);
  assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
  rl_sim_hazard_t hazards[4];
  assert_int_equal(rl_sim_hazards(f.device, hazards, 4), 1);
  assert_int_equal(hazards[0].kind, RL_HAZARD_RAW);
  assert_int_equal(hazards[0].later_dispatch,
                   hazards[0].earlier_dispatch + FILLS + 1);
  assert_int_equal(hazards[0].address, buf.address);
  rl_sim_fixture_teardown(&f);
}

// A barrier orders B after A, but B's packet has acquire fence scope NONE:
// it may read A's bytes from a stale L0. The checker reports RAW (no
// acquire) with AQL ordering; with an agent-scope acquire on B (the
// negative control), or an acquiring packet between them, nothing.
static uint32_t rl_test_acquire_run(uint32_t b_acquire, bool middle,
                                    rl_sim_hazard_t* out_hazard) {
  rl_sim_options_t options = {0};
  rl_sim_fixture_t f;
  rl_sim_fixture_setup(&f, &options, 16);
  rl_device_allocation_t buf = rl_sim_fixture_alloc(&f, 4 * 256);
  rl_device_allocation_t out = rl_sim_fixture_alloc(&f, 4 * 256);
  rl_device_allocation_t other = rl_sim_fixture_alloc(&f, 4 * 256);
  uint64_t signal = rl_sim_fixture_signal(&f, middle ? 3 : 2);
  rl_aql_dispatch_packet_t a = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_fill"),
      rl_sim_fixture_fill_args(&f, buf.address, 3.0f, 256), 256, signal, true);
  rl_aql_dispatch_packet_t m = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_fill"),
      rl_sim_fixture_fill_args(&f, other.address, 1.0f, 256), 256, signal,
      true);
  rl_aql_dispatch_packet_t b = rl_test_dispatch(
      rl_sim_fixture_kernel(&f, "vc_copy_u32"),
      rl_sim_fixture_copy_args(&f, buf.address, out.address, 256), 256, signal,
      true);
  b.header = rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, true,
                           b_acquire, RL_AQL_FENCE_SCOPE_SYSTEM);
  rl_test_publish(&f, &a);
  if (middle) rl_test_publish(&f, &m);
  rl_test_submit(&f, &b);
  assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
  rl_sim_hazard_t hazards[4];
  uint32_t total = rl_sim_hazards(f.device, hazards, 4);
  if (total > 0) *out_hazard = hazards[0];
  rl_sim_fixture_teardown(&f);
  return total;
}

static void barrier_without_acquire_reports_raw_no_acquire(void** state) {
  (void)state;
  rl_sim_hazard_t h;
  assert_int_equal(rl_test_acquire_run(RL_AQL_FENCE_SCOPE_NONE, false, &h), 1);
  assert_int_equal(h.kind, RL_SIM_HAZARD_RAW_NO_ACQUIRE);
  assert_int_equal(h.ordering, RL_SIM_HAZARD_ORDERING_AQL);
  assert_int_equal(h.size, 4 * 256);
  // Negative controls: an acquire on the reader, or an acquiring packet
  // between writer and reader, makes the bytes visible.
  assert_int_equal(rl_test_acquire_run(RL_AQL_FENCE_SCOPE_AGENT, false, &h),
                   0);
  assert_int_equal(rl_test_acquire_run(RL_AQL_FENCE_SCOPE_NONE, true, &h), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_range_set_matches_oracle),
      cmocka_unit_test(test_range_set_sorted_batch_matches_one_by_one),
      cmocka_unit_test(test_range_set_log_matches_one_by_one),
      cmocka_unit_test(test_range_set_log_lanes_matches_one_by_one),
      cmocka_unit_test(test_missing_barrier_reports_raw),
      cmocka_unit_test(test_barrier_reports_nothing),
      cmocka_unit_test(test_adversarial_changes_result_without_barrier),
      cmocka_unit_test(test_adversarial_with_barrier_identical),
      cmocka_unit_test(test_same_seed_is_reproducible),
      cmocka_unit_test(sim_hazard_war_and_waw_in_one_batch_order_dispatches),
      cmocka_unit_test(sim_access_log_records_ranges_and_geometry),
      cmocka_unit_test(test_unordered_across_submissions),
      cmocka_unit_test(test_unordered_past_batch_max),
      cmocka_unit_test(barrier_without_acquire_reports_raw_no_acquire),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
