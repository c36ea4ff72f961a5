// Writes the fuzz_pm4_decode seed: one packet of every kind redline builds,
// as little-endian dwords, to argv[1].
#include <stdio.h>

#include "pm4/pm4_builder.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const rl_pm4_family_t* family = NULL;
  rl_status_t status = rl_pm4_family_for_processor("gfx1100", &family);
  if (status) return 1;
  uint32_t s[256];
  rl_pm4_builder_t b;
  rl_pm4_builder_init(&b, family, s, 256);
  const uint32_t regs[4] = {0x12345, 0x80, 0x20AF0004u, 0x8C};
  const uint32_t data[2] = {1, 2};
  rl_pm4_release_mem_t release = {.event_type = 0x14,
                                  .event_index = 5,
                                  .gcr = family->release_gcr_writeback,
                                  .data_sel = 2,
                                  .address = 0x7F0000001000ull,
                                  .data = 1};
  bool ok =
      rl_pm4_emit_acquire_mem(&b, family->gcr_acquire_entry, NULL) &&
      rl_pm4_emit_set_sh_reg(&b, 0x2E0C, regs, 2, NULL) &&
      rl_pm4_emit_set_sh_reg(&b, 0x2E12, regs + 2, 2, NULL) &&
      rl_pm4_emit_dispatch_direct(&b, 16, 1, 1, 0x8045, NULL) &&
      rl_pm4_emit_cs_partial_flush(&b, NULL) &&
      rl_pm4_emit_acquire_mem(&b, family->gcr_acquire, NULL) &&
      rl_pm4_emit_write_data(&b, 0x7F0000002000ull, data, 2, NULL) &&
      rl_pm4_emit_wait_reg_mem(&b, 3, 0x7F0000002000ull, 1, ~0u, 4, NULL) &&
      rl_pm4_emit_copy_data(&b, 9, 0, 5, 0x7F0000003000ull, true, NULL) &&
      rl_pm4_emit_release_mem(&b, &release, NULL) &&
      rl_pm4_emit_indirect_buffer(&b, 0x7F0000100000ull, 64, false, NULL) &&
      rl_pm4_emit_nop(&b, 0, NULL) && rl_pm4_emit_nop(&b, 3, NULL);
  if (!ok) return 1;
  FILE* file = fopen(argv[1], "wb");
  if (!file) return 1;
  for (uint32_t i = 0; i < b.count; ++i) {
    unsigned char bytes[4] = {(unsigned char)s[i], (unsigned char)(s[i] >> 8),
                              (unsigned char)(s[i] >> 16),
                              (unsigned char)(s[i] >> 24)};
    if (fwrite(bytes, 1, 4, file) != 4) ok = false;
  }
  return fclose(file) == 0 && ok ? 0 : 1;
}
