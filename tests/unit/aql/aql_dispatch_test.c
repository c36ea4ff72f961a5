// aql/aql_dispatch.h: the one builder of a launch's kernel-dispatch packet.
// Poison test: a packet filled with 0xCC is rewritten completely (every
// field from the launch, reserved fields zero), and the grid is converted
// from work-groups to work-items.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "aql/aql_dispatch.h"

static void test_dispatch_packet_fills_every_field_and_zeroes_reserved(
    void** state) {
  (void)state;
  rl_aql_dispatch_packet_t packet;
  memset(&packet, 0xCC, sizeof(packet));
  const rl_aql_dispatch_t dispatch = {
      .header = rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, 1,
                              RL_AQL_FENCE_SCOPE_SYSTEM,
                              RL_AQL_FENCE_SCOPE_AGENT),
      .grid = {7, 3, 1},
      .block = {64, 2, 1},
      .private_segment_size = 16,
      .group_segment_size = 4096,
      .kernel_object = 0x100000ull,
      .kernarg_address = 0x200040ull,
      .completion_signal = 0x300000ull,
  };
  rl_aql_dispatch_packet_init(&dispatch, &packet);
  assert_int_equal(packet.header, dispatch.header);
  assert_int_equal(packet.setup, 3);
  assert_int_equal(packet.workgroup_size_x, 64);
  assert_int_equal(packet.workgroup_size_y, 2);
  assert_int_equal(packet.workgroup_size_z, 1);
  assert_int_equal(packet.grid_size_x, 7 * 64);
  assert_int_equal(packet.grid_size_y, 3 * 2);
  assert_int_equal(packet.grid_size_z, 1);
  assert_int_equal(packet.private_segment_size, 16);
  assert_int_equal(packet.group_segment_size, 4096);
  assert_int_equal(packet.kernel_object, 0x100000ull);
  assert_int_equal(packet.kernarg_address, 0x200040ull);
  assert_int_equal(packet.completion_signal, 0x300000ull);
  assert_int_equal(packet.reserved0, 0);
  assert_int_equal(packet.reserved2, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(
          test_dispatch_packet_fills_every_field_and_zeroes_reserved),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
