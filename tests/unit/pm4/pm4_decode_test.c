// Tests of the PM4 decoder and formatter (pm4/pm4_decode.c, pm4_format.c):
// seeded random streams built with the builders decode back packet by
// packet with the fields that went in; every malformed class is reported
// with its dword offset; the formatter's text for a known stream.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pm4/pm4_builder.h"
#include "pm4/pm4_decode.h"

#define RL_TEST_STREAM 4096

static const rl_pm4_family_t* rl_test_family(const char* processor) {
  const rl_pm4_family_t* family = NULL;
  assert_null(rl_pm4_family_for_processor(processor, &family));
  return family;
}

// xorshift64*: deterministic per seed.
static uint64_t rl_test_rand(uint64_t* s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}
static uint32_t rl_test_below(uint64_t* s, uint32_t n) {
  return (uint32_t)(rl_test_rand(s) % n);
}

typedef struct rl_test_expected_s {
  uint32_t offset;
  uint32_t opcode;
  uint32_t dwords;
  uint32_t check_field_dword;  // a payload dword to compare, 0 = none
  uint32_t check_value;
} rl_test_expected_t;

// Appends one random valid packet; returns false when the stream is full.
static bool rl_test_emit_random(rl_pm4_builder_t* b, uint64_t* s,
                                rl_test_expected_t* e) {
  uint32_t values[32];
  for (int i = 0; i < 32; ++i) values[i] = (uint32_t)rl_test_rand(s);
  uint64_t address = rl_test_rand(s) & 0x0000FFFFFFFFFFF8ull;
  uint32_t kind = rl_test_below(s, 10);
  uint32_t offset = 0;
  bool ok = false;
  memset(e, 0, sizeof(*e));
  switch (kind) {
    case 0: {
      uint32_t n = 1 + rl_test_below(s, 16);
      uint32_t reg = 0x2C00 + rl_test_below(s, 0x400 - n + 1);
      ok = rl_pm4_emit_set_sh_reg(b, reg, values, n, &offset);
      *e = (rl_test_expected_t){offset, RL_PM4_SET_SH_REG, 2 + n, 2, values[0]};
      break;
    }
    case 1:
      ok = rl_pm4_emit_dispatch_direct(b, values[0], values[1], values[2],
                                       values[3], &offset);
      *e =
          (rl_test_expected_t){offset, RL_PM4_DISPATCH_DIRECT, 5, 4, values[3]};
      break;
    case 2: {
      uint32_t index = rl_test_below(s, 16);
      if (index >= 1 && index <= 3) index = 4;  // 2-dword form only
      ok = rl_pm4_emit_event_write(b, values[0] & 63, index, &offset);
      *e = (rl_test_expected_t){offset, RL_PM4_EVENT_WRITE, 2, 1,
                                (values[0] & 63) | index << 8};
      break;
    }
    case 3:
      ok = rl_pm4_emit_acquire_mem(b, values[0] & 0x7FFFF, &offset);
      *e = (rl_test_expected_t){offset, RL_PM4_ACQUIRE_MEM, 8, 7,
                                values[0] & 0x7FFFF};
      break;
    case 4: {
      rl_pm4_release_mem_t r = {.event_type = values[0] & 63,
                                .event_index = values[1] & 15,
                                .gcr = values[2] & 0xFFFFF000u,
                                .dst_sel = values[3] & 3,
                                .int_sel = values[4] & 7,
                                .data_sel = values[5] & 7,
                                .address = address,
                                .data = rl_test_rand(s)};
      ok = rl_pm4_emit_release_mem(b, &r, &offset);
      *e = (rl_test_expected_t){offset, RL_PM4_RELEASE_MEM, 8, 3,
                                (uint32_t)address};
      break;
    }
    case 5:
      ok = rl_pm4_emit_wait_reg_mem(b, rl_test_below(s, 7), address, values[0],
                                    values[1], values[2] & 0xFFFF, &offset);
      *e = (rl_test_expected_t){offset, RL_PM4_WAIT_REG_MEM, 7, 4, values[0]};
      break;
    case 6: {
      uint32_t n = 1 + rl_test_below(s, 20);
      ok = rl_pm4_emit_write_data(b, address, values, n, &offset);
      *e = (rl_test_expected_t){offset, RL_PM4_WRITE_DATA, 4 + n, 4, values[0]};
      break;
    }
    case 7:
      ok = rl_pm4_emit_copy_data(b, 9, 0, 5, address, true, &offset);
      *e = (rl_test_expected_t){offset, RL_PM4_COPY_DATA, 6, 4,
                                (uint32_t)address};
      break;
    case 8: {
      uint32_t size = 1 + rl_test_below(s, 0xFFFFF);
      ok =
          rl_pm4_emit_indirect_buffer(b, address, size, values[0] & 1, &offset);
      *e = (rl_test_expected_t){offset, RL_PM4_INDIRECT_BUFFER, 4, 3,
                                size | (values[0] & 1) << 20 | 1u << 23};
      break;
    }
    default: {
      uint32_t n = rl_test_below(s, 6);
      ok = rl_pm4_emit_nop(b, n, &offset);
      *e = (rl_test_expected_t){offset, RL_PM4_NOP, n ? n + 1 : 1, 0, 0};
      break;
    }
  }
  return ok;
}

static void rl_test_round_trip(const char* processor, uint64_t seed) {
  const rl_pm4_family_t* family = rl_test_family(processor);
  uint32_t* stream = malloc(RL_TEST_STREAM * sizeof(uint32_t));
  rl_test_expected_t* expected = malloc(RL_TEST_STREAM * sizeof(*expected));
  assert_non_null(stream);
  assert_non_null(expected);
  rl_pm4_builder_t b;
  rl_pm4_builder_init(&b, family, stream, RL_TEST_STREAM);
  uint32_t n = 0;
  uint64_t s = seed;
  while (rl_test_emit_random(&b, &s, &expected[n])) ++n;
  assert_true(n > 100);
  uint32_t offset = 0, i = 0;
  char line[4096];
  while (offset < b.count) {
    rl_pm4_packet_t packet;
    rl_status_t status =
        rl_pm4_decode_next(family, stream, b.count, offset, &packet);
    if (status)
      fail_msg("seed %llu: %s", (unsigned long long)seed,
               rl_status_message(status));
    assert_true(i < n);
    assert_int_equal(packet.offset, expected[i].offset);
    assert_int_equal(packet.opcode, expected[i].opcode);
    assert_int_equal(packet.dwords, expected[i].dwords);
    assert_non_null(packet.name);
    if (expected[i].check_field_dword) {
      assert_int_equal(packet.body[expected[i].check_field_dword - 1],
                       expected[i].check_value);
    }
    rl_pm4_packet_format(family, &packet, line, sizeof(line));
    assert_non_null(strstr(line, packet.name));
    offset += packet.dwords;
    ++i;
  }
  assert_int_equal(i, n);
  assert_int_equal(offset, b.count);
  free(stream);
  free(expected);
}

static void test_random_round_trips(void** state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    rl_test_round_trip(seed & 1 ? "gfx1100" : "gfx1201", seed * 0x9E3779B9ull);
  }
}

// Decodes |dwords| expecting the first failure at packet offset |offset|
// with |needle| in the message.
static void rl_test_malformed(const uint32_t* dwords, uint32_t count,
                              uint32_t bad_offset, const char* needle) {
  const rl_pm4_family_t* family = rl_test_family("gfx1151");
  uint32_t* copy = malloc(count * sizeof(uint32_t));  // exact size for ASan
  assert_non_null(copy);
  memcpy(copy, dwords, count * sizeof(uint32_t));
  uint32_t offset = 0;
  rl_status_t status = RL_OK;
  rl_pm4_packet_t packet;
  while (offset < count) {
    status = rl_pm4_decode_next(family, copy, count, offset, &packet);
    if (status) break;
    offset += packet.dwords;
  }
  if (!status) fail_msg("no error, expected one at dword %u", bad_offset);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_INPUT);
  assert_int_equal(offset, bad_offset);
  assert_int_equal(packet.offset, bad_offset);
  assert_null(packet.name);
  char prefix[32];
  snprintf(prefix, sizeof(prefix), "dword %u: ", bad_offset);
  const char* message = rl_status_message(status);
  if (strncmp(message, prefix, strlen(prefix)) != 0 ||
      !strstr(message, needle)) {
    fail_msg("message '%s', expected '%s...%s'", message, prefix, needle);
  }
  rl_status_free(status);
  free(copy);
}

// Each class behind two valid packets (a NOP and a CS_PARTIAL_FLUSH: 3
// dwords), so the offset reported is 3.
static void test_malformed_classes_report_offset(void** state) {
  (void)state;
#define P 0xFFFF1000u, 0xC0004600u, 0x00000407u
  {  // type-0 and type-1 headers
    const uint32_t s0[] = {P, 0x00001234u};
    rl_test_malformed(s0, 4, 3, "type-0 packet");
    const uint32_t s1[] = {P, 0x40000000u};
    rl_test_malformed(s1, 4, 3, "type-1 packet");
  }
  {  // PREDICATE and reserved header bits
    const uint32_t s[] = {P, 0xC0004601u, 0x00000407u};
    rl_test_malformed(s, 5, 3, "PREDICATE or reserved bits");
    const uint32_t r[] = {P, 0xC0004680u, 0x00000407u};
    rl_test_malformed(r, 5, 3, "PREDICATE or reserved bits");
  }
  {  // COUNT runs past the end (known and unknown opcode)
    const uint32_t s[] = {P, 0xC0031502u, 1, 1};
    rl_test_malformed(s, 6, 3, "DISPATCH_DIRECT packet of 5 dwords");
    const uint32_t u[] = {P, 0xC0059900u, 1};
    rl_test_malformed(u, 5, 3, "UNKNOWN(0x99) packet of 7 dwords");
  }
  {  // fixed lengths
    const uint32_t d[] = {P, 0xC0041502u, 1, 1, 1, 1, 0};
    rl_test_malformed(d, 9, 3, "DISPATCH_DIRECT has 6 dwords, expected 5");
    const uint32_t a[] = {P, 0xC0055800u, 0, 0, 0, 0, 0, 0};
    rl_test_malformed(a, 10, 3, "ACQUIRE_MEM has 7 dwords, expected 8");
    const uint32_t r[] = {P, 0xC0074900u, 0, 0, 0, 0, 0, 0, 0, 0};
    rl_test_malformed(r, 12, 3, "RELEASE_MEM has 9 dwords, expected 8");
    const uint32_t w[] = {P, 0xC0043C00u, 0, 0, 0, 0, 0};
    rl_test_malformed(w, 9, 3, "WAIT_REG_MEM has 6 dwords, expected 7");
    const uint32_t c[] = {P, 0xC0054000u, 0, 0, 0, 0, 0, 0};
    rl_test_malformed(c, 10, 3, "COPY_DATA has 7 dwords, expected 6");
    const uint32_t i[] = {P, 0xC0013F00u, 0, 0};
    rl_test_malformed(i, 6, 3, "INDIRECT_BUFFER has 3 dwords, expected 4");
    const uint32_t e[] = {P, 0xC0024600u, 0x00000407u, 0, 0};
    rl_test_malformed(e, 7, 3, "EVENT_WRITE with EVENT_INDEX 4 has 4 dwords");
    const uint32_t e2[] = {P, 0xC0004600u, 0x00000101u};
    rl_test_malformed(e2, 5, 3, "EVENT_WRITE with EVENT_INDEX 1 has 2 dwords");
    const uint32_t wd[] = {P, 0xC0023700u, 0x00100500u, 0, 0};
    rl_test_malformed(wd, 7, 3, "WRITE_DATA has 4 dwords, expected at least 5");
    const uint32_t sh[] = {P, 0xC0007602u, 0x200};
    rl_test_malformed(sh, 5, 3, "SET_SH_REG has 2 dwords, expected at least 3");
  }
  {  // SET_SH_REG leaves the window
    const uint32_t s[] = {P, 0xC0027602u, 0x3FF, 1, 2};
    rl_test_malformed(s, 7, 3, "2 registers from 0x2FFF");
    const uint32_t t[] = {P, 0xC0017602u, 0x400, 1};
    rl_test_malformed(t, 6, 3, "from 0x3000");
  }
#undef P
}

// Negative control for the malformed checker: a valid stream decodes.
static void test_valid_stream_has_no_error(void** state) {
  (void)state;
  const uint32_t s[] = {0xFFFF1000u, 0xC0027602u, 0x3FE, 1, 2,
                        0x80000000u, 0xC0015500u, 7,     8};
  const rl_pm4_family_t* family = rl_test_family("gfx1201");
  uint32_t offset = 0, packets = 0;
  const char* names[4] = {0};
  while (offset < 9) {
    rl_pm4_packet_t packet;
    rl_status_t status = rl_pm4_decode_next(family, s, 9, offset, &packet);
    assert_null(status);
    names[packets++] = packet.name;
    offset += packet.dwords;
  }
  assert_int_equal(packets, 4);
  assert_string_equal(names[0], "NOP");
  assert_string_equal(names[1], "SET_SH_REG");
  assert_string_equal(names[2], "TYPE2_NOP");
  assert_null(names[3]);  // opcode 0x55: unknown, framed by COUNT
  rl_pm4_packet_t packet;
  rl_status_t status = rl_pm4_decode_next(family, s, 9, 9, &packet);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
}

// Every prefix of a valid stream either decodes or fails "runs past the
// end", never reading beyond the prefix (exact-size heap copies for ASan).
static void test_truncations_never_overread(void** state) {
  (void)state;
  const rl_pm4_family_t* family = rl_test_family("gfx1100");
  uint32_t stream[256];
  rl_pm4_builder_t b;
  rl_pm4_builder_init(&b, family, stream, 256);
  uint64_t s = 42;
  rl_test_expected_t e;
  for (int i = 0; i < 12; ++i) assert_true(rl_test_emit_random(&b, &s, &e));
  for (uint32_t n = 1; n <= b.count; ++n) {
    uint32_t* copy = malloc(n * sizeof(uint32_t));
    assert_non_null(copy);
    memcpy(copy, stream, n * sizeof(uint32_t));
    uint32_t offset = 0;
    while (offset < n) {
      rl_pm4_packet_t packet;
      rl_status_t status = rl_pm4_decode_next(family, copy, n, offset, &packet);
      if (status) {
        assert_non_null(strstr(rl_status_message(status), "runs past"));
        rl_status_free(status);
        break;
      }
      offset += packet.dwords;
    }
    free(copy);
  }
}

static void rl_test_format_stream(const char* processor, const uint32_t* s,
                                  uint32_t count, const char* const* lines) {
  const rl_pm4_family_t* family = rl_test_family(processor);
  uint32_t offset = 0;
  for (size_t i = 0; lines[i]; ++i) {
    rl_pm4_packet_t packet;
    assert_null(rl_pm4_decode_next(family, s, count, offset, &packet));
    char line[1024];
    rl_pm4_packet_format(family, &packet, line, sizeof(line));
    if (strcmp(line, lines[i]) != 0) {
      fail_msg("packet %zu:\n  got      '%s'\n  expected '%s'", i, line,
               lines[i]);
    }
    offset += packet.dwords;
  }
  assert_int_equal(offset, count);
}

static void test_format_known_stream(void** state) {
  (void)state;
  uint32_t s[128];
  const rl_pm4_family_t* gfx11 = rl_test_family("gfx1100");
  rl_pm4_builder_t b;
  rl_pm4_builder_init(&b, gfx11, s, 128);
  const uint32_t pgm[4] = {0x00012345u, 0x00000080u, 0x20AF0004u, 0x0000008Cu};
  const uint32_t start[6] = {0, 0, 0, 64, 0x00200001u, 1};
  const uint32_t data[2] = {0xDEADBEEFu, 7};
  rl_pm4_release_mem_t release = {
      .event_type = RL_PM4_EVENT_CACHE_FLUSH_AND_INV_TS,
      .event_index = 5,
      .gcr = gfx11->release_gcr_writeback,
      .data_sel = 1,
      .address = 0x7F0000001000ull,
      .data = 1};
  assert_true(rl_pm4_emit_acquire_mem(&b, gfx11->gcr_acquire_entry, NULL));
  assert_true(rl_pm4_emit_set_sh_reg(&b, 0x2E0C, pgm, 4, NULL));
  assert_true(rl_pm4_emit_set_sh_reg(&b, 0x2E04, start, 6, NULL));
  assert_true(rl_pm4_emit_dispatch_direct(&b, 16, 1, 1, 0x8045, NULL));
  assert_true(rl_pm4_emit_cs_partial_flush(&b, NULL));
  assert_true(rl_pm4_emit_acquire_mem(&b, gfx11->gcr_acquire, NULL));
  assert_true(rl_pm4_emit_write_data(&b, 0x7F0000002000ull, data, 2, NULL));
  assert_true(rl_pm4_emit_wait_reg_mem(&b, RL_PM4_WAIT_GE, 0x7F0000002004ull, 7,
                                       ~0u, 4, NULL));
  assert_true(rl_pm4_emit_release_mem(&b, &release, NULL));
  assert_true(
      rl_pm4_emit_indirect_buffer(&b, 0x7F0000100000ull, 64, true, NULL));
  assert_true(rl_pm4_emit_nop(&b, 2, NULL));
  s[b.count++] = 0xC0009900u;  // unknown opcode with one payload dword
  s[b.count++] = 0;
  const char* const lines[] = {
      "0x0000 ACQUIRE_MEM COHER_CNTL=0 COHER_SIZE=0xffffffff COHER_SIZE_HI=0xff"
      " COHER_BASE=0x0 POLL_INTERVAL=0xa GCR_CNTL=0x4381 (GLI_INV=1 GLK_INV=1"
      " GLV_INV=1 GL1_INV=1 GL2_INV=1)",
      "0x0008 SET_SH_REG COMPUTE_PGM_LO=0x00012345 COMPUTE_PGM_HI=0x00000080"
      " (DATA=0x80) COMPUTE_DISPATCH_PKT_ADDR_LO=0x20af0004"
      " COMPUTE_DISPATCH_PKT_ADDR_HI=0x0000008c (DATA=0x8c)",
      "0x000e SET_SH_REG COMPUTE_START_X=0x00000000 COMPUTE_START_Y=0x00000000"
      " COMPUTE_START_Z=0x00000000 COMPUTE_NUM_THREAD_X=0x00000040"
      " (NUM_THREAD_FULL=0x40) COMPUTE_NUM_THREAD_Y=0x00200001"
      " (NUM_THREAD_FULL=1 NUM_THREAD_PARTIAL=0x20)"
      " COMPUTE_NUM_THREAD_Z=0x00000001 (NUM_THREAD_FULL=1)",
      "0x0016 DISPATCH_DIRECT DIM_X=0x10 DIM_Y=1 DIM_Z=1 INITIATOR=0x8045"
      " (COMPUTE_SHADER_EN=1 FORCE_START_AT_000=1 ORDER_MODE=1 CS_W32_EN=1)",
      "0x001b EVENT_WRITE EVENT_TYPE=7(CS_PARTIAL_FLUSH) EVENT_INDEX=4"
      " OFFLOAD_ENABLE=0",
      "0x001d ACQUIRE_MEM COHER_CNTL=0 COHER_SIZE=0xffffffff COHER_SIZE_HI=0xff"
      " COHER_BASE=0x0 POLL_INTERVAL=0xa GCR_CNTL=0x380 (GLK_INV=1 GLV_INV=1"
      " GL1_INV=1)",
      "0x0025 WRITE_DATA DST_SEL=5 ADDR_INCR=0 WR_CONFIRM=1 CACHE_POLICY=0"
      " DST_ADDR=0x7f0000002000 DATA=[0xdeadbeef 0x00000007]",
      "0x002b WAIT_REG_MEM FUNCTION=5 MEM_SPACE=1 OPERATION=0 CACHE_POLICY=0"
      " POLL_ADDRESS=0x7f0000002004 REFERENCE=7 MASK=0xffffffff"
      " POLL_INTERVAL=4 OPTIMIZE_ACE_OFFLOAD_MODE=0",
      "0x0032 RELEASE_MEM EVENT_TYPE=0x14(CACHE_FLUSH_AND_INV_TS_EVENT)"
      " EVENT_INDEX=5 GCR_CNTL=0x603 (GLM_WB=1 GLM_INV=1 GL2_WB=1 SEQ=1)"
      " CACHE_POLICY=0 PQ_EXE_STATUS=0 GLK_INV=0 DST_SEL=0 INT_SEL=0"
      " DATA_SEL=1 ADDRESS=0x7f0000001000 DATA=0x1 INT_CTXID=0",
      "0x003a INDIRECT_BUFFER IB_BASE=0x7f0000100000 IB_SIZE=0x40 CHAIN=1"
      " OFFLOAD_POLLING=0 VALID=1 VMID=0 CACHE_POLICY=0",
      "0x003e NOP dwords=3",
      "0x0041 UNKNOWN(0x99) dwords=2",
      NULL};
  rl_test_format_stream("gfx1100", s, b.count, lines);
}

// gfx12 names: NUM_THREAD_X's 13-bit FULL and INTERLEAVE_BITS_X, RSRC1
// WG_RR_EN, no GL1 in the GCR breakdown.
static void test_format_gfx12_fields(void** state) {
  (void)state;
  const uint32_t s[] = {0xC0017602u, 0x207,       0x0000E040u, 0xC0017602u,
                        0x212,       0x00200000u, 0xC0065800u, 0,
                        0xFFFFFFFFu, 0xFF,        0,           0,
                        0xA,         0x4381u};
  const char* const lines[] = {
      "0x0000 SET_SH_REG COMPUTE_NUM_THREAD_X=0x0000e040 (NUM_THREAD_FULL=0x40"
      " INTERLEAVE_BITS_X=7)",
      "0x0003 SET_SH_REG COMPUTE_PGM_RSRC1=0x00200000 (WG_RR_EN=1)",
      "0x0006 ACQUIRE_MEM COHER_CNTL=0 COHER_SIZE=0xffffffff COHER_SIZE_HI=0xff"
      " COHER_BASE=0x0 POLL_INTERVAL=0xa GCR_CNTL=0x4381 (GLI_INV=1 GLK_INV=1"
      " GLV_INV=1 GL2_INV=1)",
      NULL};
  rl_test_format_stream("gfx1201", s, 14, lines);
}

// Truncated output stays NUL-terminated; unknown SH registers get a name.
static void test_format_truncation_and_unknown_register(void** state) {
  (void)state;
  const rl_pm4_family_t* family = rl_test_family("gfx1100");
  const uint32_t s[] = {0xC0017602u, 0x21F, 5};
  rl_pm4_packet_t packet;
  assert_null(rl_pm4_decode_next(family, s, 3, 0, &packet));
  char line[64];
  rl_pm4_packet_format(family, &packet, line, sizeof(line));
  assert_string_equal(line, "0x0000 SET_SH_REG SH_REG_0x2E1F=0x00000005");
  for (size_t size = 0; size < 20; ++size) {
    char small[20];
    memset(small, 'x', sizeof(small));
    rl_pm4_packet_format(family, &packet, small, size);
    if (size > 0) assert_int_equal(strlen(small), size - 1);
    if (size < sizeof(small)) assert_int_equal(small[size], size ? 'x' : 'x');
  }
  rl_pm4_packet_format(NULL, &packet, line, sizeof(line));
  assert_string_equal(line, "0x0000 SET_SH_REG SH_REG_0x2E1F=0x00000005");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_round_trips),
      cmocka_unit_test(test_malformed_classes_report_offset),
      cmocka_unit_test(test_valid_stream_has_no_error),
      cmocka_unit_test(test_truncations_never_overread),
      cmocka_unit_test(test_format_known_stream),
      cmocka_unit_test(test_format_gfx12_fields),
      cmocka_unit_test(test_format_truncation_and_unknown_register),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
