// libFuzzer target for pm4/pm4_decode.c and pm4_format.c: any byte string,
// read as little-endian dwords, must decode packet by packet under every
// family (gfx11, gfx12) until the end or a status, and every decoded packet
// must format and list its fields; never crash, hang, leak or read out of
// bounds. Seed: a stream built with the builders (pm4.cmake writes it with
// pm4_fuzz_seed).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pm4/pm4_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void rl_fuzz_decode_all(const rl_pm4_family_t* family,
                               const uint32_t* dwords, uint32_t count) {
  char line[512];
  rl_pm4_named_value_t fields[8];
  uint32_t offset = 0;
  while (offset < count) {
    rl_pm4_packet_t packet;
    rl_status_t status =
        rl_pm4_decode_next(family, dwords, count, offset, &packet);
    if (status) {
      rl_status_free(status);
      return;
    }
    // The decoder's promises: the packet lies inside the stream and moves
    // the offset forward.
    if (packet.dwords == 0 || packet.dwords > count - offset) abort();
    rl_pm4_packet_format(family, &packet, line, sizeof(line));
    if (strlen(line) >= sizeof(line)) abort();
    (void)rl_pm4_packet_fields(&packet, fields, 8);
    offset += packet.dwords;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint32_t count = (uint32_t)(size / 4);
  // An exact-size copy so ASan sees any read past the last dword.
  uint32_t* dwords = malloc(count ? count * sizeof(uint32_t) : 1);
  if (!dwords) return 0;
  if (count) memcpy(dwords, data, count * sizeof(uint32_t));
  static const char* const processors[] = {"gfx1100", "gfx1201"};
  for (size_t i = 0; i < 2; ++i) {
    const rl_pm4_family_t* family = NULL;
    rl_status_t status = rl_pm4_family_for_processor(processors[i], &family);
    if (status) abort();
    rl_fuzz_decode_all(family, dwords, count);
  }
  rl_fuzz_decode_all(NULL, dwords, count);
  free(dwords);
  return 0;
}
