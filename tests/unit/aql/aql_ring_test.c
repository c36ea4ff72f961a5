// Tests of the AQL producer protocol (aql/aql_ring.c) against an in-memory
// queue with a packet-processor thread (aql_fake_queue.h): publication
// order with poisoned slots, bounded backpressure that claims nothing,
// wraparound over many ring lengths, one doorbell per batch.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "redline/device/device_ring.h"
#include "tests/unit/aql/aql_fake_queue.h"

#define RL_TEST_SECOND 1000000000ull

// A dispatch packet whose body bytes 4..63 encode |sequence|.
static void rl_test_packet(uint64_t sequence, uint8_t out[64]) {
  for (uint32_t j = 0; j < RL_AQL_PACKET_SIZE; ++j) {
    out[j] = (uint8_t)(sequence * 31u + j * 7u + 1u);
  }
  uint16_t header = rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, 1,
                                  RL_AQL_FENCE_SCOPE_SYSTEM,
                                  RL_AQL_FENCE_SCOPE_AGENT);
  uint16_t setup = 3;
  memcpy(out, &header, 2);
  memcpy(out + 2, &setup, 2);
}

// Consumer check: the body is the one of packet |id| and the header valid.
static bool rl_test_check(void* user, uint64_t id, const uint8_t* packet) {
  (void)user;
  uint8_t expected[64];
  rl_test_packet(id, expected);
  return memcmp(packet, expected, sizeof(expected)) == 0;
}

static void test_emit_leaves_header_invalid_until_commit(void** state) {
  (void)state;
  rl_fake_queue_t* fake = rl_fake_queue_create(8, 16);
  rl_aql_ring_t ring;
  rl_device_aql_ring_init(&ring, &fake->device, &fake->queue);
  uint64_t id = 99;
  assert_null(rl_aql_ring_reserve(&ring, 1, RL_TEST_SECOND, &id));
  assert_int_equal(id, 0);
  assert_int_equal(rl_fake_queue_write_id(fake), 1);
  uint8_t packet[64];
  rl_test_packet(0, packet);
  rl_aql_ring_emit(&ring, id, packet);
  const uint8_t* slot = rl_fake_queue_slot(fake, 0);
  // Header INVALID and the setup half still poison: emit wrote 4..63 only.
  assert_int_equal(rl_aql_header_word(slot), 0xCCCC0001u);
  assert_memory_equal(slot + 4, packet + 4, 60);
  // The next slot is untouched poison.
  assert_int_equal(rl_fake_queue_slot(fake, 1)[4], 0xCC);
  rl_aql_ring_commit(&ring, id, rl_aql_header_word(packet));
  assert_memory_equal(slot, packet, 64);
  assert_int_equal(fake->doorbell_count, 0);
  // The processor consumes it only after the doorbell.
  rl_fake_queue_start(fake, rl_test_check, NULL);
  rl_aql_ring_doorbell(&ring, id);
  assert_true(rl_fake_queue_wait_read(fake, 1, 5 * RL_TEST_SECOND));
  assert_int_equal(atomic_load(&fake->bad_packets), 0);
  assert_int_equal(rl_aql_header_word(slot) & 0xffffu,
                   RL_AQL_PACKET_TYPE_INVALID);
  rl_fake_queue_destroy(fake);
}

static void test_stalled_consumer_times_out_without_taking_slots(
    void** state) {
  (void)state;
  rl_fake_queue_t* fake = rl_fake_queue_create(8, 16);
  rl_aql_ring_t ring;
  rl_device_aql_ring_init(&ring, &fake->device, &fake->queue);
  rl_fake_queue_start(fake, rl_test_check, NULL);
  rl_fake_queue_stall(fake, true);
  uint8_t packets[8][64];
  for (uint32_t i = 0; i < 8; ++i) rl_test_packet(i, packets[i]);
  uint64_t last = 0;
  assert_null(rl_aql_ring_submit(&ring, packets, 8, RL_TEST_SECOND, &last));
  assert_int_equal(last, 7);
  // Full ring, stalled processor: a bounded wait, then a clean failure.
  uint64_t start = rl_fake_queue_now_ns();
  uint64_t id = 5;
  rl_status_t status =
      rl_aql_ring_reserve(&ring, 1, 20 * 1000000ull, &id);
  uint64_t elapsed = rl_fake_queue_now_ns() - start;
  assert_int_equal(rl_status_code(status), RL_STATUS_POISONED);
  assert_non_null(strstr(rl_status_message(status), "no room for 1"));
  rl_status_free(status);
  assert_true(elapsed >= 20 * 1000000ull);
  assert_true(elapsed < 2 * RL_TEST_SECOND);
  assert_int_equal(id, 0);
  assert_int_equal(rl_fake_queue_write_id(fake), 8);
  // A zero timeout fails as cleanly.
  status = rl_aql_ring_reserve(&ring, 1, 0, &id);
  assert_int_equal(rl_status_code(status), RL_STATUS_POISONED);
  rl_status_free(status);
  // Oversized and empty reservations are argument errors.
  status = rl_aql_ring_reserve(&ring, 9, RL_TEST_SECOND, &id);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  status = rl_aql_ring_reserve(&ring, 0, RL_TEST_SECOND, &id);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  assert_int_equal(rl_fake_queue_write_id(fake), 8);
  // A device fault ends the wait early with the device's message.
  atomic_store(&fake->faulted, true);
  status = rl_aql_ring_reserve(&ring, 1, 60 * RL_TEST_SECOND, &id);
  assert_int_equal(rl_status_code(status), RL_STATUS_POISONED);
  assert_non_null(strstr(rl_status_message(status), "fake fault"));
  rl_status_free(status);
  atomic_store(&fake->faulted, false);
  // Once the processor runs again the same reservation succeeds.
  rl_fake_queue_stall(fake, false);
  assert_null(rl_aql_ring_reserve(&ring, 1, 5 * RL_TEST_SECOND, &id));
  assert_int_equal(id, 8);
  uint8_t packet[64];
  rl_test_packet(8, packet);
  rl_aql_ring_emit(&ring, id, packet);
  rl_aql_ring_commit(&ring, id, rl_aql_header_word(packet));
  rl_aql_ring_doorbell(&ring, id);
  assert_true(rl_fake_queue_wait_read(fake, 9, 5 * RL_TEST_SECOND));
  assert_int_equal(atomic_load(&fake->bad_packets), 0);
  rl_fake_queue_destroy(fake);
}

static void test_wraparound_many_ring_lengths(void** state) {
  (void)state;
  enum { kRing = 16, kBatches = 3000 };
  rl_fake_queue_t* fake = rl_fake_queue_create(kRing, kBatches);
  rl_aql_ring_t ring;
  rl_device_aql_ring_init(&ring, &fake->device, &fake->queue);
  rl_fake_queue_start(fake, rl_test_check, NULL);
  uint8_t packets[kRing][64];
  uint64_t next = 0;
  for (uint32_t b = 0; b < kBatches; ++b) {
    uint32_t count = 1 + (b * 7u) % kRing;  // 1..16, every size
    for (uint32_t i = 0; i < count; ++i) rl_test_packet(next + i, packets[i]);
    uint64_t last = 0;
    assert_null(
        rl_aql_ring_submit(&ring, packets, count, 5 * RL_TEST_SECOND, &last));
    assert_int_equal(last, next + count - 1);
    assert_int_equal(fake->doorbell_log[b], last);
    next += count;
  }
  assert_true(next > 1000u * kRing);
  assert_true(rl_fake_queue_wait_read(fake, next, 10 * RL_TEST_SECOND));
  // One doorbell per batch, every packet intact, the queue drained.
  assert_int_equal(fake->doorbell_count, kBatches);
  assert_int_equal(atomic_load(&fake->bad_packets), 0);
  assert_int_equal(rl_fake_queue_write_id(fake), next);
  for (uint32_t s = 0; s < kRing; ++s) {
    assert_int_equal(rl_fake_queue_slot(fake, s)[0],
                     RL_AQL_PACKET_TYPE_INVALID);
  }
  rl_fake_queue_destroy(fake);
}

static void test_one_doorbell_per_batch(void** state) {
  (void)state;
  rl_fake_queue_t* fake = rl_fake_queue_create(64, 16);
  rl_aql_ring_t ring;
  rl_device_aql_ring_init(&ring, &fake->device, &fake->queue);
  rl_fake_queue_start(fake, rl_test_check, NULL);
  uint8_t packets[5][64];
  for (uint32_t i = 0; i < 5; ++i) rl_test_packet(i, packets[i]);
  uint64_t last = 0;
  assert_null(rl_aql_ring_submit(&ring, packets, 5, RL_TEST_SECOND, &last));
  assert_int_equal(fake->doorbell_count, 1);
  assert_int_equal(fake->doorbell_log[0], 4);
  assert_true(rl_fake_queue_wait_read(fake, 5, 5 * RL_TEST_SECOND));
  assert_int_equal(atomic_load(&fake->bad_packets), 0);
  rl_fake_queue_destroy(fake);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_emit_leaves_header_invalid_until_commit),
      cmocka_unit_test(test_stalled_consumer_times_out_without_taking_slots),
      cmocka_unit_test(test_wraparound_many_ring_lengths),
      cmocka_unit_test(test_one_doorbell_per_batch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
