// sim/oracle/oracle_mods.h — the oracle of the VALU modifiers
// that change more than one operand's sign: VOP3 OMOD and OP_SEL and the
// DPP16/DPP8 lane selection. Written from the RDNA3 ISA guide ("VOP3"
// fields, "DPP16", "DPP8") and LLVM's AMDGPUModifierSyntax.rst, separately
// from the executor (sim/isa/isa_dpp.c, isa_valu.c): nothing here
// includes sim/isa/.
#ifndef REDLINE_SIM_ORACLE_ORACLE_MODS_H_
#define REDLINE_SIM_ORACLE_ORACLE_MODS_H_

#include <stdbool.h>
#include <stdint.h>

#include "sim/oracle/oracle_model.h"

// rl_hm_eval() with OMOD (0 none, 1 x2, 2 x4, 3 x0.5) between the
// operation and CLAMP. OMOD applies to binary32 results when IEEE_MODE is
// clear (the hardware ignores it in IEEE mode: LLVM SIFoldOperands.cpp) and
// the product is flushed like any result under FLOAT_DENORM_MODE_32 = 0.
// |flush_first|: a result below the binary32 normal range becomes a signed
// zero before OMOD (the 1-ulp transcendentals may flush tiny results).
void rl_hm_eval_omod(const rl_hm_op_t* op, uint32_t mode, uint32_t abs,
                     uint32_t neg, bool clamp, uint32_t omod,
                     bool flush_first, rl_hm_lane_t* x);

// One DPP selection, as encoded.
typedef struct rl_hm_dpp_s {
  uint32_t kind;       // 16 or 8
  uint32_t ctrl;       // DPP16 DPP_CTRL
  uint32_t row_mask;   // DPP16
  uint32_t bank_mask;  // DPP16
  bool bound_ctrl;     // DPP16 BOUND_CTRL (written bound_ctrl:1)
  bool fi;             // fetch inactive
  uint32_t sel;        // DPP8: eight 3-bit selects, lane 0 in bits 2:0
} rl_hm_dpp_t;

// For lane |lane| (0..31) of a wave whose EXEC is |exec|: whether the lane
// writes its result (*|writes|), and its source 0, read from lane
// *|src_lane| when *|read| is true, zero otherwise.
void rl_hm_dpp_lane(const rl_hm_dpp_t* dpp, uint32_t exec, uint32_t lane,
                    bool* writes, bool* read, uint32_t* src_lane);

// The DPP16 DPP_CTRL values gfx11 defines (0x000-0x0ff quad_perm,
// 0x101-0x10f row_shl, 0x111-0x11f row_shr, 0x121-0x12f row_ror, 0x140
// row_mirror, 0x141 row_half_mirror, 0x150-0x15f row_share, 0x160-0x16f
// row_xmask): a valid control from a random number.
uint32_t rl_hm_dpp16_ctrl_pick(uint64_t r);

#endif  // REDLINE_SIM_ORACLE_ORACLE_MODS_H_
