// tests/isa_conformance/isa_conf_vmem.c — conformance cases of the vector
// memory instructions: GLOBAL and FLAT loads and stores (the d16 forms
// included) and their atomics. Expected values come from the host model
// (sim/oracle/oracle_model.c: load extension, atomic results) or from plain host
// copies into the test's own image of the buffer, never from the executor.
#include <stdio.h>
#include <string.h>

#include "tests/isa_conformance/isa_conf_suite.h"
#include "sim/oracle/oracle_model.h"

#define RL_CONF_LANES 256u

// GLOBAL and FLAT: per lane an address in the aux buffer (the SGPR-base
// form with a 32-bit VGPR offset, and the 64-bit VGPR form), a random
// immediate offset, EXEC from the lane's active flag.

typedef struct rl_conf_mem_op_s {
  uint32_t size;
  bool store, sign, d16, hi;
} rl_conf_mem_op_t;

static bool rl_conf_mem_parse(const char* name, rl_conf_mem_op_t* out) {
  const char* us = strchr(name, '_');
  if (us == NULL) return false;
  char kind = 0;
  uint32_t bits = 0;
  memset(out, 0, sizeof(*out));
  out->store = !strncmp(us + 1, "store_", 6);
  const char* t = us + 1 + (out->store ? 6 : 5);
  if (strncmp(us + 1, "load_", 5) && !out->store) return false;
  if (!strncmp(t, "d16_", 4)) {  // the d16 forms: one half of the VGPR
    out->d16 = true;
    t += 4;
    if (!strncmp(t, "hi_", 3)) out->hi = true, t += 3;
  }
  if (sscanf(t, "%c%u", &kind, &bits) != 2) return false;
  out->sign = kind == 'i';
  out->size = bits / 8;
  return true;
}

bool rl_conf_vmem(rl_conf_device_t* device, const rl_isa_op_t* op,
                         uint32_t encoding, rl_conf_result_t* result) {
  rl_conf_mem_op_t m;
  if (!rl_conf_mem_parse(op->name, &m)) return false;
  uint32_t seg = encoding == RL_ISA_ENC_FLAT ? 0 : 2;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  uint32_t dwords = (m.size + 3) / 4;
  static uint8_t expect[1u << 16];
  for (uint32_t form = 0; form < 2; ++form) {
    if (seg == 0 && form == 0) continue;  // FLAT has no SGPR base
    int32_t offset = (int32_t)(rl_conf_rng_next(&rng) % 4096) - 2048;
    if (seg == 0) offset = offset < 0 ? -offset : offset;
    offset &= ~(int32_t)(m.size >= 4 ? 3 : m.size - 1);
    uint8_t* aux = rl_conf_aux(device);
    rl_conf_fill_random(&rng, (uint32_t*)aux, sizeof(expect) / 4);
    memcpy(expect, aux, sizeof(expect));
    uint32_t* in = (uint32_t*)rl_conf_in(device);
    uint64_t base = rl_conf_aux_address(device);
    for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
      uint32_t* r = in + lane * 10;
      rl_conf_fill_random(&rng, r, 10);
      uint32_t at = 4096 + lane * 64 + (r[0] % 48 & ~(m.size >= 4 ? 3u : m.size - 1));
      r[0] = at;                                      // v1: 32-bit offset
      uint64_t address = base + at;
      r[1] = (uint32_t)address, r[2] = (uint32_t)(address >> 32);  // v[2:3]
      r[3] = (r[3] % 5) != 0;                         // v4: active
    }
    static rl_conf_program_t p;
    p.count = 0;
    // v1 offset, v[2:3] address, v4 active, v10..v13 data / old.
    rl_conf_prologue(&p, 40, 16, 8, (const uint32_t[]){1, 2, 3, 4, 10, 11, 12, 13});
    rl_conf_active(&p, 4);
    uint32_t addr = form == 0 ? 1 : 2, saddr = form == 0 ? 8 : RL_CONF_NULL;
    if (m.store) {
      rl_conf_flat(&p, seg, op->opcode, 0, addr, 10, saddr, offset);
    } else {
      rl_conf_flat(&p, seg, op->opcode, 10, addr, 0, saddr, offset);
    }
    rl_conf_all_lanes(&p);
    for (uint32_t i = 0; i < 4; ++i) rl_conf_store(&p, 10 + i, 4 * i);
    rl_conf_endpgm(&p);
    rl_conf_config_t cfg = {.lanes = RL_CONF_LANES};
    if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
    const uint32_t* out = (const uint32_t*)rl_conf_out(device);
    for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
      const uint32_t* r = in + lane * 10;
      uint32_t at = (uint32_t)((int64_t)r[0] + offset);
      uint32_t want[4] = {r[4], r[5], r[6], r[7]};
      if (r[3] && m.store) {
        uint32_t value[4] = {want[0], want[1], want[2], want[3]};
        if (m.hi) value[0] >>= 16;  // d16_hi stores: the high half's bytes
        memcpy(expect + at, value, m.size);
      } else if (r[3] && m.d16) {
        // RDNA3 ISA guide, d16 loads: 8 bits zero- or sign-extended to 16
        // (or 16 bits) into the low or the high half; the other half kept.
        uint32_t raw = 0;
        memcpy(&raw, expect + at, m.size);
        uint32_t half = m.size == 1 && m.sign
                            ? rl_hm_load_extend(raw, 1, true) & 0xffffu
                            : raw;
        uint32_t shift = m.hi ? 16u : 0u;
        want[0] = (want[0] & ~(0xffffu << shift)) | half << shift;
      } else if (r[3]) {
        uint32_t loaded[4] = {0};
        memcpy(loaded, expect + at, m.size);
        for (uint32_t i = 0; i < dwords; ++i) want[i] = loaded[i];
        if (m.size < 4) want[0] = rl_hm_load_extend(loaded[0], m.size, m.sign);
      }
      for (uint32_t i = 0; i < 4; ++i) {
        rl_conf_check(result, op->name, lane, form * 4 + i, out[lane * 4 + i],
                      want[i]);
      }
    }
    for (uint32_t i = 0; i < sizeof(expect); i += 4) {
      uint32_t got, w;
      memcpy(&got, aux + i, 4);
      memcpy(&w, expect + i, 4);
      rl_conf_check(result, op->name, i, 100 + form, got, w);
    }
  }
  return true;
}

// GLOBAL / FLAT atomics: each wave owns 8 eight-byte slots of the aux
// buffer; every lane picks one (so lanes collide and the ascending lane
// order the executor documents matters), with and without GLC (return).
// Half the cmpswap lanes compare against the slot's initial contents.
bool rl_conf_vmem_atomic(rl_conf_device_t* device, const rl_isa_op_t* op,
                                uint32_t encoding, rl_conf_result_t* result) {
  uint64_t dummy;
  if (!rl_hm_mem_atomic(op->name, 0, 0, 0, &dummy)) return false;
  bool wide = strstr(op->name, "64") != NULL;
  bool cmpswap = strstr(op->name, "cmpswap") != NULL;
  bool is_float = strstr(op->name, "_f32") != NULL;
  uint32_t seg = encoding == RL_ISA_ENC_FLAT ? 0 : 2;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  const uint32_t region = 4096, rec = 10, slots = 8;
  uint64_t base = rl_conf_aux_address(device);
  for (uint32_t glc = 0; glc < 2; ++glc) {
    int32_t offset = 8 * (int32_t)(rl_conf_rng_next(&rng) % 64);
    uint8_t* aux = rl_conf_aux(device);
    uint32_t* words = (uint32_t*)(aux + region);
    uint32_t nwords = RL_CONF_LANES / 32 * slots * 2;
    rl_conf_fill_random(&rng, words, nwords);
    for (uint32_t i = 0; i < nwords; ++i) {
      if (is_float) {
        words[i] = (0x3f000000u + (words[i] >> 12)) |
                   (strstr(op->name, "add") ? 0 : (words[i] << 31));
      } else if (i % 6 == 0) {
        words[i] &= 0xf;  // small values: inc/dec wrap, min/max, csub clamp
        if (wide) words[i + 1] = 0;
      }
    }
    static uint8_t expect[RL_CONF_LANES / 32 * 8 * 8];
    memcpy(expect, words, sizeof(expect));
    uint32_t* in = (uint32_t*)rl_conf_in(device);
    for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
      uint32_t* r = in + lane * rec;
      rl_conf_fill_random(&rng, r, rec);
      uint32_t at = region + (lane / 32) * slots * 8 + (r[0] % slots) * 8;
      r[0] = at - (uint32_t)offset;  // v1: 32-bit offset (SGPR base)
      uint64_t address = base + at - (uint32_t)offset;
      r[1] = (uint32_t)address, r[2] = (uint32_t)(address >> 32);  // v[2:3]
      r[3] = (r[3] % 5) != 0;  // v4: active
      if (is_float) {
        r[4] = (0x3f000000u + (r[4] >> 12)) |
               (strstr(op->name, "add") ? 0 : (r[5] << 31));
      } else if (r[9] & 1) {
        r[4] &= 0xf;
        if (wide) r[5] = 0;
      }
      if (cmpswap && (r[9] & 2)) {  // the compare value: the initial slot
        memcpy(wide ? &r[6] : &r[5], expect + at - region, wide ? 8 : 4);
      }
    }
    static rl_conf_program_t p;
    p.count = 0;
    // v1 offset, v[2:3] address, v4 active, v[10:13] data, v[20:21] old
    // destination.
    rl_conf_prologue(&p, rec * 4, 8, rec,
                     (const uint32_t[]){1, 2, 3, 4, 10, 11, 12, 13, 20, 21});
    rl_conf_active(&p, 4);
    uint32_t addr = seg == 2 ? 1 : 2, saddr = seg == 2 ? 8 : RL_CONF_NULL;
    rl_conf_flat(&p, seg, op->opcode, glc ? 20 : 0, addr, 10, saddr, offset);
    // GLC (gfx12: TH_ATOMIC_RETURN, TH[54:52] bit 0): return the old value
    if (glc) p.words[p.count - 2] |= rl_conf_gfx12 ? 1u << 20 : 1u << 14;
    rl_conf_all_lanes(&p);
    rl_conf_sopp(&p, RL_CONF_SOPP_WAITCNT, 0);
    rl_conf_store(&p, 20, 0);
    rl_conf_store(&p, 21, 4);
    rl_conf_endpgm(&p);
    rl_conf_config_t cfg = {.lanes = RL_CONF_LANES};
    if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
    const uint32_t* out = (const uint32_t*)rl_conf_out(device);
    for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
      const uint32_t* r = in + lane * rec;
      uint32_t want[2] = {r[8], r[9]};
      if (r[3]) {
        uint32_t at = r[0] + (uint32_t)offset - region;
        uint64_t old = 0, next = 0;
        memcpy(&old, expect + at, wide ? 8 : 4);
        uint64_t data = wide ? r[4] | (uint64_t)r[5] << 32 : r[4];
        uint64_t cmp = wide ? r[6] | (uint64_t)r[7] << 32 : r[5];
        rl_hm_mem_atomic(op->name, old, data, cmp, &next);
        memcpy(expect + at, &next, wide ? 8 : 4);
        if (glc) {
          want[0] = (uint32_t)old;
          if (wide) want[1] = (uint32_t)(old >> 32);
        }
      }
      rl_conf_check(result, op->name, lane, glc * 2, out[lane * 2], want[0]);
      rl_conf_check(result, op->name, lane, glc * 2 + 1, out[lane * 2 + 1],
                    want[1]);
    }
    for (uint32_t i = 0; i < sizeof(expect); i += 4) {
      uint32_t got, w;
      memcpy(&got, aux + region + i, 4);
      memcpy(&w, expect + i, 4);
      rl_conf_check(result, op->name, i, 100 + glc, got, w);
    }
  }
  return true;
}
