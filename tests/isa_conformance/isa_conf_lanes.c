// tests/isa_conformance/isa_conf_lanes.c — conformance cases of the VALU
// lane permutes: v_permlane16_b32 and v_permlanex16_b32 (lane selects in
// two SGPRs), gfx12's v_permlane16_var_b32 and v_permlanex16_var_b32 (lane
// selects in a VGPR). Each runs with every FI/BOUND_CTRL combination
// (op_sel:[fi,bc]), random selects and random EXEC (one wave of the
// program fully active), and the results come from the host model
// (isa_host_dpp.c), never from the executor.
#include <string.h>

#include "tests/isa_conformance/isa_conf_suite.h"
#include "tests/isa_conformance/isa_host_dpp.h"

#define RL_CONF_LANES 256u
#define RL_CONF_PERM_SELECTS 4u

bool rl_conf_permlane_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                           rl_conf_result_t* result) {
  const char* name = op->name;
  rl_hm_permlane_t perm = {0};
  if (!strcmp(name, "v_permlanex16_b32") ||
      !strcmp(name, "v_permlanex16_var_b32")) {
    perm.cross = true;
  } else if (strcmp(name, "v_permlane16_b32") &&
             strcmp(name, "v_permlane16_var_b32")) {
    return false;
  }
  perm.per_lane = strstr(name, "_var_") != NULL;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, name);
  for (uint32_t form = 0; form < 4 * RL_CONF_PERM_SELECTS; ++form) {
    perm.fi = form & 1;
    perm.bound_ctrl = (form >> 1) & 1;
    // The first select table is the identity, the second a row reversal
    // (v_permlane16 with 0x01234567/0x89abcdef), the rest random.
    uint64_t sel64 = rl_conf_rng_next(&rng);
    if (form / 4 == 0) sel64 = 0xfedcba9876543210ull;
    if (form / 4 == 1) sel64 = 0x0123456789abcdefull;
    perm.sel64 = sel64;
    uint32_t* in = (uint32_t*)rl_conf_in(device);
    for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
      uint32_t* r = in + lane * 4;
      rl_conf_fill_random(&rng, r, 4);
      r[1] = (r[1] % 4) != 0;
    }
    for (uint32_t lane = 32; lane < 64; ++lane) in[lane * 4 + 1] = 1;
    static rl_conf_program_t p;
    p.count = 0;
    // v1 source, v2 active, v3 per-lane selects, v10 old destination.
    rl_conf_prologue(&p, 16, 4, 4, (const uint32_t[]){1, 2, 3, 10});
    rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 20, RL_CONF_LITERAL, true,
                 (uint32_t)sel64);
    rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 21, RL_CONF_LITERAL, true,
                 (uint32_t)(sel64 >> 32));
    rl_conf_active(&p, 2);
    const rl_conf_mods_t mods = {.opsel = (uint8_t)(form & 3)};
    const uint32_t src[3] = {RL_CONF_V(1), perm.per_lane ? RL_CONF_V(3) : 20,
                             perm.per_lane ? 0 : 21};
    rl_conf_vop3(&p, op->opcode, 10, 0, src, &mods, false, 0);
    // op_sel bits 0 and 1 are FI and BOUND_CTRL here (the coverage check
    // counts them as the op_sel forms of sources 0 and 1).
    result->mod_forms |= (uint32_t)(form & 3) * RL_CONF_MOD_OPSEL_SRC0;
    rl_conf_all_lanes(&p);
    rl_conf_store(&p, 10, 0);
    rl_conf_endpgm(&p);
    rl_conf_config_t cfg = {.lanes = RL_CONF_LANES};
    if (!rl_conf_go(device, &p, &cfg, name, result)) return true;
    const uint32_t* out = (const uint32_t*)rl_conf_out(device);
    for (uint32_t wave = 0; wave < RL_CONF_LANES / 32; ++wave) {
      uint32_t values[32], old[32], sel[32], want[32], exec = 0;
      for (uint32_t i = 0; i < 32; ++i) {
        const uint32_t* r = in + (wave * 32 + i) * 4;
        values[i] = r[0];
        exec |= (r[1] ? 1u : 0u) << i;
        sel[i] = r[2];
        old[i] = r[3];
      }
      perm.lane_sel = sel;
      rl_hm_permlane(&perm, exec, values, old, want);
      for (uint32_t i = 0; i < 32; ++i) {
        rl_conf_check(result, name, wave * 32 + i, form,
                      out[wave * 32 + i], want[i]);
      }
    }
  }
  return true;
}
