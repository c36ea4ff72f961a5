// tests/isa_conformance/isa_host_dpp.h — the oracle of the VALU lane
// permutes v_permlane16_b32, v_permlanex16_b32 and gfx12's
// v_permlane16_var_b32 / v_permlanex16_var_b32. Written from the RDNA3 and
// RDNA4 ISA guides (the instructions' pseudo-code; FI and BOUND_CTRL in
// OP_SEL[1:0] as LLVM's AMDGPUModifierSyntax.rst writes op_sel:[fi,bc]),
// separately from the executor (sim/isa/isa_permlane.c): nothing
// here includes sim/isa/. Kept apart from isa_host_model.c so the
// two can move independently.
#ifndef REDLINE_TESTS_ISA_CONFORMANCE_ISA_HOST_DPP_H_
#define REDLINE_TESTS_ISA_CONFORMANCE_ISA_HOST_DPP_H_

#include <stdbool.h>
#include <stdint.h>

// One wave32 lane permute, as the program encodes it.
typedef struct rl_hm_permlane_s {
  bool cross;            // x16: read the other 16-lane row
  bool per_lane;         // _var: selects from |lane_sel|, else |sel64|
  bool fi;               // OP_SEL[0], fetch inactive
  bool bound_ctrl;       // OP_SEL[1]
  uint64_t sel64;        // {S2, S1}: nibble n selects for row index n
  const uint32_t* lane_sel;  // _var: 32 lane values, bits [3:0] used
} rl_hm_permlane_t;

// The 32 results of |perm| over |src| with EXEC |exec| and |old| the
// destination before: inactive lanes keep |old|; an active lane whose
// source lane is inactive (and FI clear) gets 0 with BOUND_CTRL, else
// keeps |old|.
void rl_hm_permlane(const rl_hm_permlane_t* perm, uint32_t exec,
                    const uint32_t src[32], const uint32_t old[32],
                    uint32_t out[32]);

#endif  // REDLINE_TESTS_ISA_CONFORMANCE_ISA_HOST_DPP_H_
