// Tests of the AQL packet decoder (aql/aql_decode.c): every packet type
// decodes, every rejected bit pattern is rejected with its own reason, and
// the one-line format names every field.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "aql/aql_decode.h"

static rl_aql_dispatch_packet_t rl_test_dispatch(void) {
  rl_aql_dispatch_packet_t p = {
      .header =
          rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, 1,
                        RL_AQL_FENCE_SCOPE_SYSTEM, RL_AQL_FENCE_SCOPE_AGENT),
      .setup = 1,
      .workgroup_size_x = 64,
      .workgroup_size_y = 1,
      .workgroup_size_z = 1,
      .grid_size_x = 1024,
      .grid_size_y = 1,
      .grid_size_z = 1,
      .group_segment_size = 256,
      .kernel_object = 0x900000001000ull,
      .kernarg_address = 0x900000020000ull,
      .completion_signal = 0x900000030000ull,
  };
  return p;
}

static rl_aql_barrier_packet_t rl_test_barrier(uint32_t type) {
  rl_aql_barrier_packet_t p = {
      .header = rl_aql_header(type, 1, RL_AQL_FENCE_SCOPE_SYSTEM,
                              RL_AQL_FENCE_SCOPE_SYSTEM),
      .dep_signal = {0x900000040000ull, 0, 0x900000050000ull, 0, 0},
      .completion_signal = 0x900000030000ull,
  };
  return p;
}

// ROCr's PM4_IB packet for a 0x1234-dword IB at |address|.
static rl_aql_pm4_ib_packet_t rl_test_pm4_ib(uint64_t address) {
  rl_aql_pm4_ib_packet_t p = {
      .header =
          rl_aql_header(RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC, 0,
                        RL_AQL_FENCE_SCOPE_SYSTEM, RL_AQL_FENCE_SCOPE_SYSTEM),
      .vendor_format = RL_AQL_VENDOR_FORMAT_PM4_IB,
      .ib_jump_cmd = {RL_AQL_PM4_IB_HEADER, (uint32_t)address & ~3u,
                      (uint32_t)(address >> 32),
                      0x1234u | RL_AQL_PM4_IB_VALID_BIT},
      .dw_cnt_remain = RL_AQL_PM4_IB_DW_REMAIN,
      .completion_signal = 0x900000030000ull,
  };
  return p;
}

static void test_dispatch_decodes_and_formats(void** state) {
  (void)state;
  rl_aql_dispatch_packet_t p = rl_test_dispatch();
  rl_aql_decoded_t d;
  assert_int_equal(rl_aql_packet_decode(&p, &d), RL_AQL_OK);
  assert_int_equal(d.type, RL_AQL_PACKET_TYPE_KERNEL_DISPATCH);
  assert_true(d.barrier);
  assert_int_equal(d.acquire_scope, RL_AQL_FENCE_SCOPE_SYSTEM);
  assert_int_equal(d.release_scope, RL_AQL_FENCE_SCOPE_AGENT);
  assert_int_equal(d.dimensions, 1);
  assert_int_equal(d.workgroup_size[0], 64);
  assert_int_equal(d.grid_size[0], 1024);
  assert_int_equal(d.kernel_object, p.kernel_object);
  assert_string_equal(d.reason, "");
  char line[256];
  int length = rl_aql_packet_format(&p, line, sizeof(line));
  assert_int_equal(length, (int)strlen(line));
  assert_string_equal(line,
                      "dispatch barrier=1 acq=system rel=agent dim=1 "
                      "wg=64x1x1 grid=1024x1x1 lds=256 priv=0 "
                      "kobj=0x900000001000 kernarg=0x900000020000 "
                      "signal=0x900000030000");
  // Truncation keeps the result NUL-terminated and reports the full length.
  char small[16];
  assert_int_equal(rl_aql_packet_format(&p, small, sizeof(small)), length);
  assert_int_equal(strlen(small), sizeof(small) - 1);
}

static void test_barriers_decode(void** state) {
  (void)state;
  uint32_t types[2] = {RL_AQL_PACKET_TYPE_BARRIER_AND,
                       RL_AQL_PACKET_TYPE_BARRIER_OR};
  const char* names[2] = {"barrier_and", "barrier_or"};
  for (int i = 0; i < 2; ++i) {
    rl_aql_barrier_packet_t p = rl_test_barrier(types[i]);
    rl_aql_decoded_t d;
    assert_int_equal(rl_aql_packet_decode(&p, &d), RL_AQL_OK);
    assert_int_equal(d.type, types[i]);
    assert_int_equal(d.dep_signal[2], 0x900000050000ull);
    char line[256];
    rl_aql_packet_format(&p, line, sizeof(line));
    char expected[256];
    snprintf(expected, sizeof(expected),
             "%s barrier=1 acq=system rel=system dep=[0x900000040000,0x0,"
             "0x900000050000,0x0,0x0] signal=0x900000030000",
             names[i]);
    assert_string_equal(line, expected);
  }
}

static void test_pm4_ib_decodes(void** state) {
  (void)state;
  rl_aql_pm4_ib_packet_t p = rl_test_pm4_ib(0x00009abc12345678ull);
  rl_aql_decoded_t d;
  assert_int_equal(rl_aql_packet_decode(&p, &d), RL_AQL_OK);
  assert_int_equal(d.type, RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC);
  assert_int_equal(d.vendor_format, RL_AQL_VENDOR_FORMAT_PM4_IB);
  assert_int_equal(d.ib_address, 0x00009abc12345678ull);
  assert_int_equal(d.ib_size_dw, 0x1234);
  assert_false(d.ib_chain);
  char line[256];
  rl_aql_packet_format(&p, line, sizeof(line));
  assert_string_equal(line,
                      "pm4_ib barrier=0 acq=system rel=system "
                      "ib=0x9abc12345678 ib_dw=4660 chain=0 "
                      "signal=0x900000030000");
  // The header word ROCr publishes for this packet (pm4_reference.md §4.4).
  assert_int_equal(p.header | ((uint32_t)p.vendor_format << 16), 0x00011400u);
}

// One rejected pattern: a mutation of a valid packet and the expected error.
typedef struct rl_test_case_s {
  const char* name;
  void (*mutate)(uint8_t* packet);
  int base;  // 0 dispatch, 1 barrier-AND, 2 PM4_IB
  rl_aql_error_t error;
  const char* reason_part;
} rl_test_case_t;

static void rl_set16(uint8_t* p, size_t offset, uint16_t v) {
  memcpy(p + offset, &v, 2);
}
static void rl_set32(uint8_t* p, size_t offset, uint32_t v) {
  memcpy(p + offset, &v, 4);
}
static uint16_t rl_get16(const uint8_t* p, size_t offset) {
  uint16_t v;
  memcpy(&v, p + offset, 2);
  return v;
}

static void m_invalid(uint8_t* p) {
  rl_set16(p, 0, (uint16_t)(rl_get16(p, 0) & ~0xffu) | 1u);
}
static void m_agent(uint8_t* p) {
  rl_set16(p, 0, (uint16_t)(rl_get16(p, 0) & ~0xffu) | 4u);
}
static void m_type7(uint8_t* p) {
  rl_set16(p, 0, (uint16_t)(rl_get16(p, 0) & ~0xffu) | 7u);
}
static void m_reserved13(uint8_t* p) {
  rl_set16(p, 0, rl_get16(p, 0) | 0x2000u);
}
static void m_reserved15(uint8_t* p) {
  rl_set16(p, 0, rl_get16(p, 0) | 0x8000u);
}
static void m_acquire3(uint8_t* p) {
  rl_set16(p, 0, rl_get16(p, 0) | (3u << 9));
}
static void m_release3(uint8_t* p) {
  rl_set16(p, 0, rl_get16(p, 0) | (3u << 11));
}
static void m_dims0(uint8_t* p) { rl_set16(p, 2, 0); }
static void m_setup_bits(uint8_t* p) { rl_set16(p, 2, 0x0101); }
static void m_wg_zero(uint8_t* p) { rl_set16(p, 4, 0); }
static void m_wg_unused(uint8_t* p) { rl_set16(p, 6, 2); }
static void m_wg_big(uint8_t* p) {
  rl_set16(p, 2, 2);
  rl_set16(p, 4, 64);
  rl_set16(p, 6, 32);
  rl_set32(p, 16, 32);
}
static void m_grid_zero(uint8_t* p) { rl_set32(p, 12, 0); }
static void m_grid_unused(uint8_t* p) { rl_set32(p, 20, 0); }
static void m_reserved0(uint8_t* p) { rl_set16(p, 10, 1); }
static void m_barrier_reserved1(uint8_t* p) { rl_set32(p, 4, 1); }
static void m_barrier_reserved2(uint8_t* p) { p[48] = 1; }
static void m_vendor_format2(uint8_t* p) { p[2] = 2; }
static void m_vendor_reserved(uint8_t* p) { p[3] = 1; }
static void m_ib_header(uint8_t* p) { rl_set32(p, 4, 0xC0033F00u); }
static void m_ib_unaligned(uint8_t* p) { p[8] |= 2; }
static void m_ib_high(uint8_t* p) { rl_set32(p, 12, 0x00010000u); }
static void m_ib_not_valid(uint8_t* p) { rl_set32(p, 16, 0x1234u); }
static void m_ib_size0(uint8_t* p) { rl_set32(p, 16, RL_AQL_PM4_IB_VALID_BIT); }
static void m_ib_remain(uint8_t* p) { rl_set32(p, 20, 9); }
static void m_ib_reserved(uint8_t* p) { rl_set32(p, 40, 1); }

static const rl_test_case_t rl_test_cases[] = {
    {"INVALID type", m_invalid, 0, RL_AQL_ERROR_NOT_READY, "not published"},
    {"AGENT_DISPATCH", m_agent, 0, RL_AQL_ERROR_TYPE, "type 4"},
    {"type 7", m_type7, 0, RL_AQL_ERROR_TYPE, "type 7"},
    {"header bit 13", m_reserved13, 0, RL_AQL_ERROR_HEADER_RESERVED, "15:13"},
    {"header bit 15", m_reserved15, 1, RL_AQL_ERROR_HEADER_RESERVED, "15:13"},
    {"acquire scope 3", m_acquire3, 0, RL_AQL_ERROR_FENCE_SCOPE, "acquire 3"},
    {"release scope 3", m_release3, 1, RL_AQL_ERROR_FENCE_SCOPE, "release 3"},
    {"dimensions 0", m_dims0, 0, RL_AQL_ERROR_DIMENSIONS, "dimensions is 0"},
    {"setup bit 8", m_setup_bits, 0, RL_AQL_ERROR_SETUP_RESERVED, "15:2"},
    {"workgroup x 0", m_wg_zero, 0, RL_AQL_ERROR_WORKGROUP_SIZE, "size x is 0"},
    {"workgroup y unused", m_wg_unused, 0, RL_AQL_ERROR_WORKGROUP_SIZE,
     "unused dimension"},
    {"workgroup 2048 items", m_wg_big, 0, RL_AQL_ERROR_WORKGROUP_SIZE, "2048"},
    {"grid x 0", m_grid_zero, 0, RL_AQL_ERROR_GRID_SIZE, "size x is 0"},
    {"grid z unused 0", m_grid_unused, 0, RL_AQL_ERROR_GRID_SIZE,
     "unused dimension"},
    {"dispatch reserved0", m_reserved0, 0, RL_AQL_ERROR_RESERVED_FIELD,
     "reserved0"},
    {"barrier reserved1", m_barrier_reserved1, 1, RL_AQL_ERROR_RESERVED_FIELD,
     "reserved"},
    {"barrier reserved2", m_barrier_reserved2, 1, RL_AQL_ERROR_RESERVED_FIELD,
     "reserved"},
    {"vendor format 2", m_vendor_format2, 2, RL_AQL_ERROR_VENDOR_FORMAT,
     "format 2"},
    {"vendor reserved byte", m_vendor_reserved, 2, RL_AQL_ERROR_RESERVED_FIELD,
     "byte 3"},
    {"IB header", m_ib_header, 2, RL_AQL_ERROR_PM4_IB, "0xc0033f00"},
    {"IB unaligned", m_ib_unaligned, 2, RL_AQL_ERROR_PM4_IB, "dword-aligned"},
    {"IB address bit 48", m_ib_high, 2, RL_AQL_ERROR_PM4_IB, "48-bit"},
    {"IB not VALID", m_ib_not_valid, 2, RL_AQL_ERROR_PM4_IB, "VALID"},
    {"IB size 0", m_ib_size0, 2, RL_AQL_ERROR_PM4_IB, "nonzero size"},
    {"IB dw_cnt_remain", m_ib_remain, 2, RL_AQL_ERROR_PM4_IB,
     "dw_cnt_remain is 9"},
    {"IB reserved", m_ib_reserved, 2, RL_AQL_ERROR_RESERVED_FIELD,
     "reserved dword 4"},
};

static void rl_test_base(int base, uint8_t* out) {
  if (base == 0) {
    rl_aql_dispatch_packet_t p = rl_test_dispatch();
    memcpy(out, &p, 64);
  } else if (base == 1) {
    rl_aql_barrier_packet_t p = rl_test_barrier(RL_AQL_PACKET_TYPE_BARRIER_AND);
    memcpy(out, &p, 64);
  } else {
    rl_aql_pm4_ib_packet_t p = rl_test_pm4_ib(0x900000060000ull);
    memcpy(out, &p, 64);
  }
}

static void test_each_invalid_pattern_has_its_reason(void** state) {
  (void)state;
  for (size_t i = 0; i < sizeof(rl_test_cases) / sizeof(rl_test_cases[0]);
       ++i) {
    const rl_test_case_t* c = &rl_test_cases[i];
    uint8_t packet[64];
    rl_test_base(c->base, packet);
    c->mutate(packet);
    rl_aql_decoded_t d;
    rl_aql_error_t error = rl_aql_packet_decode(packet, &d);
    if (error != c->error || strstr(d.reason, c->reason_part) == NULL) {
      fail_msg("%s: got %s '%s', expected %s containing '%s'", c->name,
               rl_aql_error_name(error), d.reason, rl_aql_error_name(c->error),
               c->reason_part);
    }
    char line[320];
    rl_aql_packet_format(packet, line, sizeof(line));
    assert_non_null(strstr(line, "INVALID("));
    assert_non_null(strstr(line, rl_aql_error_name(c->error)));
  }
}

static void test_reserved2_accepted_and_flagged(void** state) {
  (void)state;
  rl_aql_dispatch_packet_t p = rl_test_dispatch();
  p.reserved2 = 0x1234;  // CLR's profiler correlation id lives here.
  rl_aql_decoded_t d;
  assert_int_equal(rl_aql_packet_decode(&p, &d), RL_AQL_OK);
  assert_int_equal(d.reserved2, 0x1234);
  char line[256];
  rl_aql_packet_format(&p, line, sizeof(line));
  assert_non_null(strstr(line, "reserved2!=0"));
}

static void test_three_dimensions(void** state) {
  (void)state;
  rl_aql_dispatch_packet_t p = rl_test_dispatch();
  p.setup = 3;
  p.workgroup_size_x = 8;
  p.workgroup_size_y = 8;
  p.workgroup_size_z = 4;
  p.grid_size_y = 16;
  p.grid_size_z = 4;
  rl_aql_decoded_t d;
  assert_int_equal(rl_aql_packet_decode(&p, &d), RL_AQL_OK);
  assert_int_equal(d.workgroup_size[2], 4);
  assert_int_equal(d.grid_size[1], 16);
}

static void test_unknown_type_format_and_any_bytes(void** state) {
  (void)state;
  uint8_t packet[64] = {0x42, 0x00};
  char line[320];
  rl_aql_packet_format(packet, line, sizeof(line));
  assert_non_null(strstr(line, "UNKNOWN(0x42)"));
  // Any 64 bytes decode to OK or a reason, never crash (poison-style input).
  uint64_t x = 0x243F6A8885A308D3ull;
  for (int round = 0; round < 20000; ++round) {
    for (int i = 0; i < 64; i += 8) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
      memcpy(packet + i, &x, 8);
    }
    if (round % 2) packet[0] = (uint8_t)(round % 6);
    rl_aql_decoded_t d;
    rl_aql_error_t error = rl_aql_packet_decode(packet, &d);
    assert_true(error == RL_AQL_OK || d.reason[0] != '\0');
    rl_aql_packet_format(packet, line, sizeof(line));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dispatch_decodes_and_formats),
      cmocka_unit_test(test_barriers_decode),
      cmocka_unit_test(test_pm4_ib_decodes),
      cmocka_unit_test(test_each_invalid_pattern_has_its_reason),
      cmocka_unit_test(test_reserved2_accepted_and_flagged),
      cmocka_unit_test(test_three_dimensions),
      cmocka_unit_test(test_unknown_type_format_and_any_bytes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
