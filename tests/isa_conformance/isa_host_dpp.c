// tests/isa_conformance/isa_host_dpp.c — the lane-permute oracle
// (isa_host_dpp.h), in the guides' terms: a 64-bit lane-select table over
// 16 row positions, one pass per row.
#include "tests/isa_conformance/isa_host_dpp.h"

void rl_hm_permlane(const rl_hm_permlane_t* perm, uint32_t exec,
                    const uint32_t src[32], const uint32_t old[32],
                    uint32_t out[32]) {
  for (uint32_t pass = 0; pass < 2; ++pass) {
    // The row read from: this one, or for x16 the other.
    uint32_t from_row = perm->cross ? 1 - pass : pass;
    for (uint32_t i = 0; i < 16; ++i) {
      uint32_t lane = pass * 16 + i;
      uint32_t nibble = perm->per_lane
                            ? perm->lane_sel[lane] % 16
                            : (uint32_t)((perm->sel64 >> (i * 4)) % 16);
      uint32_t from = from_row * 16 + nibble;
      bool valid = perm->fi || ((exec >> from) & 1) != 0;
      uint32_t value = valid ? src[from] : perm->bound_ctrl ? 0 : old[lane];
      out[lane] = ((exec >> lane) & 1) ? value : old[lane];
    }
  }
}
