// tests/isa_conformance/isa_conf_private.c — conformance cases of the
// private segment and of calls: every SCRATCH opcode (loads, stores, d16
// forms) and s_setpc_b64 / s_swappc_b64. Expected values are computed here
// on the host from the test's own inputs (a per-lane image of the private
// segment, byte copies, the RDNA3 ISA guide's d16 rules via the host
// model's load extension), never from the executor.
#include <stdio.h>
#include <string.h>

#include "tests/isa_conformance/isa_conf_suite.h"
#include "sim/oracle/oracle_model.h"

#define RL_CONF_PRIV_LANES 128u
#define RL_CONF_PRIV_BYTES 96u  // private segment per work-item
#define RL_CONF_PRIV_IN 24u     // input dwords per lane
#define RL_CONF_PRIV_OUT 20u    // output dwords per lane

// SCRATCH, gfx11 (isa_decode_memory.c): SVE is bit 23 of the second dword.
static void rl_conf_scratch(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                            uint32_t addr, bool sve, uint32_t data,
                            uint32_t saddr, int32_t offset) {
  rl_conf_flat(p, 1, op, vdst, addr, data, saddr, offset);
  if (sve) p->words[p->count - 1] |= 1u << 23;
}

typedef struct rl_conf_priv_op_s {
  uint32_t size;
  bool store, sign, d16, hi;
} rl_conf_priv_op_t;

static bool rl_conf_priv_parse(const char* name, rl_conf_priv_op_t* m) {
  memset(m, 0, sizeof(*m));
  const char* t = name + strlen("scratch_");
  m->store = !strncmp(t, "store_", 6);
  if (!m->store && strncmp(t, "load_", 5)) return false;
  t += m->store ? 6 : 5;
  if (!strncmp(t, "d16_", 4)) {
    m->d16 = true;
    t += 4;
    if (!strncmp(t, "hi_", 3)) m->hi = true, t += 3;
  }
  char kind = 0;
  uint32_t bits = 0;
  if (sscanf(t, "%c%u", &kind, &bits) != 2) return false;
  m->sign = kind == 'i';
  m->size = bits / 8;
  return m->size >= 1 && m->size <= 16;
}

// Every lane: its private segment's first 64 bytes filled from v20..v35
// through the private aperture (FLAT), EXEC from v4, the instruction under
// test (form 0: s8 base + VGPR v1 (SVE) + offset; form 1: offset only),
// then all lanes read the segment back (64 bytes) and store it with v10..v13.
static bool rl_conf_scratch_case(rl_conf_device_t* device,
                                 const rl_isa_op_t* op,
                                 rl_conf_result_t* result) {
  rl_conf_priv_op_t m;
  if (!rl_conf_priv_parse(op->name, &m)) return false;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  const uint32_t align = m.size >= 4 ? 4u : m.size;
  for (uint32_t form = 0; form < 2; ++form) {
    uint32_t sbase = (uint32_t)(rl_conf_rng_next(&rng) % 16) * 4;
    int32_t offset = (int32_t)(rl_conf_rng_next(&rng) % 9) * 4 - 16;
    uint32_t fixed =
        16 + (uint32_t)(rl_conf_rng_next(&rng) % ((48 - m.size) / align + 1)) *
                 align;
    uint32_t* in = (uint32_t*)rl_conf_in(device);
    uint32_t regs[RL_CONF_PRIV_IN];
    for (uint32_t lane = 0; lane < RL_CONF_PRIV_LANES; ++lane) {
      uint32_t* r = in + lane * RL_CONF_PRIV_IN;
      for (uint32_t i = 0; i < RL_CONF_PRIV_IN; ++i) {
        r[i] = (uint32_t)rl_conf_rng_next(&rng);
      }
      // Form 0: sbase + v1 + offset in [16, 64 - size], aligned.
      uint32_t at = 16 + (r[0] % (48 - m.size + 1)) / align * align;
      r[0] = (uint32_t)((int64_t)at - sbase - offset);  // v1
      r[3] = (r[3] % 5) != 0;                           // v4: active
    }
    for (uint32_t i = 0; i < 8; ++i) regs[i] = i < 4 ? 1 + i : 6 + i;
    for (uint32_t i = 8; i < RL_CONF_PRIV_IN; ++i) regs[i] = 12 + i;
    static rl_conf_program_t p;
    p.count = 0;
    // v1 offset, v4 active, v10..v13 data/old, v20..v35 the segment's image.
    rl_conf_prologue(&p, RL_CONF_PRIV_IN * 4, RL_CONF_PRIV_OUT * 4,
                     RL_CONF_PRIV_IN, regs);
    // The image goes in through the private aperture: FLAT stores to
    // {offset, high half of src_private_base} (s_mov_b64 s[40:41],
    // src_private_base; flat_store_b128 v[40:41], v[20+4q:23+4q]).
    rl_conf_sop1(&p, 0x01, 40, 237, false, 0);
    rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 41, 41, false, 0);
    for (uint32_t q = 0; q < 4; ++q) {
      rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 40, RL_CONF_LITERAL, true,
                   16 * q);
      rl_conf_flat(&p, 0, 0x1d, 0, 40, 20 + 4 * q, RL_CONF_NULL, 0);
    }
    rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 8, RL_CONF_LITERAL, true, sbase);
    rl_conf_active(&p, 4);
    bool sve = form == 0;
    uint32_t saddr = form == 0 ? 8 : RL_CONF_NULL;
    int32_t imm = form == 0 ? offset : (int32_t)fixed;
    if (m.store) {
      rl_conf_scratch(&p, op->opcode, 0, 1, sve, 10, saddr, imm);
    } else {
      rl_conf_scratch(&p, op->opcode, 10, 1, sve, 0, saddr, imm);
    }
    rl_conf_all_lanes(&p);
    for (uint32_t q = 0; q < 4; ++q) {
      rl_conf_scratch(&p, 0x17, 20 + 4 * q, 0, false, 0, RL_CONF_NULL,
                      (int32_t)(16 * q));  // scratch_load_b128
    }
    for (uint32_t i = 0; i < 4; ++i) rl_conf_store(&p, 10 + i, 4 * i);
    for (uint32_t i = 0; i < 16; ++i) rl_conf_store(&p, 20 + i, 16 + 4 * i);
    rl_conf_endpgm(&p);
    rl_conf_config_t cfg = {.lanes = RL_CONF_PRIV_LANES,
                            .private_bytes = RL_CONF_PRIV_BYTES};
    if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
    const uint32_t* out = (const uint32_t*)rl_conf_out(device);
    for (uint32_t lane = 0; lane < RL_CONF_PRIV_LANES; ++lane) {
      const uint32_t* r = in + lane * RL_CONF_PRIV_IN;
      uint8_t image[64];
      memcpy(image, r + 8, 64);
      uint32_t regs_want[4] = {r[4], r[5], r[6], r[7]};
      uint32_t at = form == 0 ? (uint32_t)((int64_t)r[0] + sbase + offset)
                              : fixed;
      if (r[3] && m.store) {
        uint32_t value[4] = {r[4], r[5], r[6], r[7]};
        if (m.hi) value[0] >>= 16;
        memcpy(image + at, value, m.size);
      } else if (r[3]) {
        uint32_t raw[4] = {0};
        memcpy(raw, image + at, m.size);
        if (m.d16) {
          uint32_t half = m.size == 1 && m.sign
                              ? rl_hm_load_extend(raw[0], 1, true) & 0xffffu
                              : raw[0];
          uint32_t shift = m.hi ? 16u : 0u;
          regs_want[0] = (regs_want[0] & ~(0xffffu << shift)) | half << shift;
        } else if (m.size < 4) {
          regs_want[0] = rl_hm_load_extend(raw[0], m.size, m.sign);
        } else {
          memcpy(regs_want, raw, m.size);
        }
      }
      const uint32_t* o = out + lane * RL_CONF_PRIV_OUT;
      for (uint32_t i = 0; i < 4; ++i) {
        rl_conf_check(result, op->name, lane, form * 100 + i, o[i],
                      regs_want[i]);
      }
      for (uint32_t i = 0; i < 16; ++i) {
        uint32_t want;
        memcpy(&want, image + 4 * i, 4);
        rl_conf_check(result, op->name, lane, form * 100 + 10 + i, o[4 + i],
                      want);
      }
    }
  }
  return true;
}

// s_swappc_b64 / s_setpc_b64: the kernel computes a callee's address as
// LLVM does (s_getpc_b64 + s_add_u32/s_addc_u32), calls it with
// s_swappc_b64 s[32:33], s[30:31]; the callee (after s_endpgm) adds 2 to
// v10 and returns with s_setpc_b64 s[32:33]; the caller adds 1 after the
// call, and stores v10 and the saved return address. An instruction that
// adds 100 sits where a wrong jump would land (right after the call site's
// address computation and before the callee).
static bool rl_conf_call_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                              rl_conf_result_t* result) {
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_prologue(&p, 4, 12, 1, NULL);
  rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 10, RL_CONF_V(1), false, 0);
  rl_conf_sop1(&p, 0x47, 30, 0, false, 0);  // s_getpc_b64 s[30:31]
  const uint32_t getpc_next = rl_conf_pc(&p);
  const uint32_t add_at = p.count;
  rl_conf_sop2(&p, 0x00, 30, 30, RL_CONF_LITERAL, true, 0);  // s_add_u32
  rl_conf_sop2(&p, 0x04, 31, 31, 128, false, 0);             // s_addc_u32
  rl_conf_sop1(&p, 0x49, 32, 30, false, 0);  // s_swappc_b64 s[32:33]
  const uint32_t return_pc = rl_conf_pc(&p);
  rl_conf_vop2(&p, RL_CONF_VOP2_ADD_NC_U32, 10, 129, 10, false, 0);
  rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 11, 32, false, 0);
  rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 12, 33, false, 0);
  rl_conf_store(&p, 10, 0);
  rl_conf_store(&p, 11, 4);
  rl_conf_store(&p, 12, 8);
  rl_conf_endpgm(&p);
  rl_conf_vop2(&p, RL_CONF_VOP2_ADD_NC_U32, 10, RL_CONF_LITERAL, 10, true,
               100);  // never reached
  const uint32_t callee = rl_conf_pc(&p);
  rl_conf_vop2(&p, RL_CONF_VOP2_ADD_NC_U32, 10, 130, 10, false, 0);
  rl_conf_sop1(&p, 0x48, 0, 32, false, 0);  // s_setpc_b64 s[32:33]
  p.words[add_at + 1] = callee - getpc_next;  // the PC-relative literal
  uint32_t* in = (uint32_t*)rl_conf_in(device);
  for (uint32_t lane = 0; lane < 64; ++lane) in[lane] = lane * 0x01000193u;
  rl_conf_config_t cfg = {.lanes = 64};
  if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
  const uint64_t back = rl_conf_code_address(device) + return_pc;
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  for (uint32_t lane = 0; lane < 64; ++lane) {
    rl_conf_check(result, op->name, lane, 0, out[lane * 3], in[lane] + 3);
    rl_conf_check(result, op->name, lane, 1, out[lane * 3 + 1],
                  (uint32_t)back);
    rl_conf_check(result, op->name, lane, 2, out[lane * 3 + 2],
                  (uint32_t)(back >> 32));
  }
  return true;
}

bool rl_conf_private_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                          uint32_t encoding, rl_conf_result_t* result) {
  // SCRATCH is gfx11's encoding (gfx12 has VSCRATCH, not modelled); the
  // SOP1 call encodings and opcodes are the same on gfx12 (llvm-mc-19
  // -mcpu=gfx1201), so the call case runs on both.
  if (encoding == RL_ISA_ENC_SCRATCH && !rl_conf_gfx12) {
    return rl_conf_scratch_case(device, op, result);
  }
  if (encoding == RL_ISA_ENC_SOP1 && (!strcmp(op->name, "s_swappc_b64") ||
                                      !strcmp(op->name, "s_setpc_b64"))) {
    return rl_conf_call_case(device, op, result);
  }
  return false;
}
