// sim/oracle/oracle_vmem.c — the oracle's memory instructions
// (oracle_internal.h): SMEM loads, DS (the work-group's own LDS, lanes in
// ascending order), FLAT and GLOBAL loads, stores and atomics through the
// memory view. Semantics from the RDNA3 ISA guide ("Scalar Memory
// Operations", "Data Share Operations", "Flat, Scratch and Global
// Instructions"); atomic results from the host model (oracle_model.h).
#include <stdio.h>
#include <string.h>

#include "sim/oracle/oracle_internal.h"

static bool rl_oracle_starts(const char* name, const char* prefix) {
  return strncmp(name, prefix, strlen(prefix)) == 0;
}

// The element of a load or store named "..._<kind>": bytes and sign.
static bool rl_oracle_element(const char* name, uint32_t* out_size,
                              bool* out_sign) {
  const char* kind = strrchr(name, '_');
  if (!kind) return false;
  static const struct {
    const char* kind;
    uint32_t size;
    bool sign;
  } kinds[] = {{"_u8", 1, false},   {"_i8", 1, true},    {"_u16", 2, false},
               {"_i16", 2, true},   {"_b8", 1, false},   {"_b16", 2, false},
               {"_b32", 4, false},  {"_b64", 8, false},  {"_b96", 12, false},
               {"_b128", 16, false}};
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
    if (!strcmp(kind, kinds[i].kind)) {
      *out_size = kinds[i].size;
      *out_sign = kinds[i].sign;
      return true;
    }
  }
  return false;
}

// A sub-dword load's value in its VGPR; wider loads fill whole dwords.
static void rl_oracle_load_to_vgprs(rl_oracle_wave_t* w, uint32_t vdst,
                                    uint32_t lane, const uint8_t* bytes,
                                    uint32_t size, bool sign) {
  if (size < 4) {
    uint32_t raw = 0;
    memcpy(&raw, bytes, size);
    w->v[(vdst & 255) * 32 + lane] = rl_hm_load_extend(raw, size, sign);
    return;
  }
  for (uint32_t k = 0; k < size / 4; ++k) {
    uint32_t v;
    memcpy(&v, bytes + k * 4, 4);
    w->v[((vdst + k) & 255) * 32 + lane] = v;
  }
}

static void rl_oracle_vgprs_to_bytes(const rl_oracle_wave_t* w, uint32_t r,
                                     uint32_t lane, uint8_t* bytes,
                                     uint32_t size) {
  uint32_t dwords = (size + 3) / 4;
  uint32_t tmp[4] = {0};
  for (uint32_t k = 0; k < dwords && k < 4; ++k) {
    tmp[k] = w->v[((r + k) & 255) * 32 + lane];
  }
  memcpy(bytes, tmp, size);
}

//===----------------------------------------------------------------------===//
// SMEM
//===----------------------------------------------------------------------===//

void rl_oracle_exec_smem(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                         const rl_oracle_inst_t* inst) {
  const char* name = inst->name;
  if (!strcmp(name, "s_dcache_inv") || !strcmp(name, "s_gl1_inv")) return;
  static const struct {
    const char* name;
    uint32_t dwords;
  } loads[] = {{"s_load_b32", 1}, {"s_load_b64", 2}, {"s_load_b96", 3},
               {"s_load_b128", 4}, {"s_load_b256", 8}, {"s_load_b512", 16}};
  uint32_t dwords = 0;
  for (size_t i = 0; i < sizeof(loads) / sizeof(loads[0]); ++i) {
    if (!strcmp(name, loads[i].name)) dwords = loads[i].dwords;
  }
  // gfx12's sub-dword loads: one element, zero- (u) or sign- (i) extended.
  uint32_t size = dwords * 4;
  bool sign = false;
  if (ctx->gfx12 && dwords == 0 &&
      (!strcmp(name, "s_load_u8") || !strcmp(name, "s_load_i8") ||
       !strcmp(name, "s_load_u16") || !strcmp(name, "s_load_i16"))) {
    rl_oracle_element(name, &size, &sign);
  }
  if (size == 0 || (dwords == 3 && !ctx->gfx12)) {
    rl_oracle_skip(ctx, "instruction %s not modelled", name);
    return;
  }
  uint64_t address = rl_oracle_sgpr64(w, inst->addr) + (int64_t)inst->offset;
  if (inst->soffset != RL_ORACLE_NULL) address += w->s[inst->soffset & 127];
  uint32_t align = size < 4 ? size : 4;
  if (ctx->gfx12 && (address & (align - 1))) {
    // The RDNA3 guide says a scalar load ignores the address's low two
    // bits; the RDNA4 guide does not say what a misaligned one reads.
    rl_oracle_skip(ctx, "instruction %s at a misaligned address: the RDNA4 "
                   "guide leaves its bytes unspecified", name);
    return;
  }
  address &= ~(uint64_t)(align - 1);  // gfx11: the low two bits ignored
  if (size < 4) {
    uint32_t raw = 0;
    if (!rl_oracle_mem_read(ctx->mem, address, &raw, size)) {
      rl_oracle_fault(ctx, "%s read of %u bytes at 0x%llx outside memory",
                      name, size, (unsigned long long)address);
      return;
    }
    if (inst->vdst < RL_ORACLE_SGPRS && inst->vdst != RL_ORACLE_NULL) {
      w->s[inst->vdst] = rl_hm_load_extend(raw, size, sign);
    }
    return;
  }
  uint32_t data[16];
  if (!rl_oracle_mem_read(ctx->mem, address, data, dwords * 4)) {
    rl_oracle_fault(ctx, "%s read of %u bytes at 0x%llx outside memory", name,
                    dwords * 4, (unsigned long long)address);
    return;
  }
  for (uint32_t k = 0; k < dwords; ++k) {
    uint32_t r = inst->vdst + k;
    if (r < RL_ORACLE_SGPRS && r != RL_ORACLE_NULL) w->s[r] = data[k];
  }
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

// Whether atomic |name| gives the same memory whatever order the waves of a
// work-group run it in: integer operations that commute, without return.
static bool rl_oracle_atomic_commutes(const char* name) {
  if (strstr(name, "_rtn") || strstr(name, "cmpswap") ||
      strstr(name, "cmpstore") || strstr(name, "_f32") ||
      strstr(name, "_f64") || strstr(name, "_f16") || strstr(name, "swap") ||
      strstr(name, "inc_") || strstr(name, "dec_") || strstr(name, "csub")) {
    return false;
  }
  return true;
}

static bool rl_oracle_atomic_ok(rl_oracle_ctx_t* ctx, const char* name,
                                bool returns) {
  if (ctx->wave_count > 1 && (returns || !rl_oracle_atomic_commutes(name))) {
    rl_oracle_skip(ctx,
                   "atomic %s in a work-group of %u waves: its result "
                   "depends on the order of the waves",
                   name, ctx->wave_count);
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// DS
//===----------------------------------------------------------------------===//

static bool rl_oracle_lds_read(rl_oracle_ctx_t* ctx, uint32_t address,
                               void* out, uint32_t size) {
  if ((uint64_t)address + size > ctx->lds_size) {
    memset(out, 0, size);  // outside the allocation: reads give zero
    return false;
  }
  memcpy(out, ctx->lds + address, size);
  return true;
}

static void rl_oracle_lds_write(rl_oracle_ctx_t* ctx, uint32_t address,
                                const void* data, uint32_t size) {
  if ((uint64_t)address + size > ctx->lds_size) return;  // dropped
  memcpy(ctx->lds + address, data, size);
}

static void rl_oracle_ds_permute(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                 const rl_oracle_inst_t* inst, bool back) {
  (void)ctx;
  uint32_t exec = w->s[RL_ORACLE_EXEC];
  uint32_t tmp[32] = {0};
  for (uint32_t lane = 0; lane < 32; ++lane) {
    uint32_t sel =
        ((w->v[inst->addr * 32 + lane] + (uint32_t)inst->offset) / 4) % 32;
    if (back) {
      if (((exec >> lane) & 1) && ((exec >> sel) & 1)) {
        tmp[lane] = w->v[inst->data0 * 32 + sel];
      }
    } else if ((exec >> lane) & 1) {
      tmp[sel] = w->v[inst->data0 * 32 + lane];
    }
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if ((exec >> lane) & 1) w->v[inst->vdst * 32 + lane] = tmp[lane];
  }
}

static void rl_oracle_ds_atomic(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                const rl_oracle_inst_t* inst) {
  const char* name = inst->name;
  bool returns = strstr(name, "_rtn") != NULL;
  bool wide = strstr(name, "64") != NULL;
  if (!rl_oracle_atomic_ok(ctx, name, returns)) return;
  uint32_t size = wide ? 8 : 4;
  uint32_t exec = w->s[RL_ORACLE_EXEC];
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint32_t address = w->v[inst->addr * 32 + lane] + (uint32_t)inst->offset;
    uint64_t old = 0, data = 0, cmp = 0, out = 0;
    rl_oracle_lds_read(ctx, address, &old, size);
    rl_oracle_vgprs_to_bytes(w, inst->data0, lane, (uint8_t*)&data, size);
    rl_oracle_vgprs_to_bytes(w, inst->data1, lane, (uint8_t*)&cmp, size);
    if (!rl_hm_ds_atomic(name, old, data, cmp, &out)) {
      rl_oracle_skip(ctx, "instruction %s not modelled", name);
      return;
    }
    rl_oracle_lds_write(ctx, address, &out, size);
    if (returns) {
      rl_oracle_load_to_vgprs(w, inst->vdst, lane, (const uint8_t*)&old, size,
                              false);
    }
  }
}

void rl_oracle_exec_ds(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                       const rl_oracle_inst_t* inst) {
  const char* name = inst->name;
  if (!strcmp(name, "ds_nop")) return;
  if (!strcmp(name, "ds_bpermute_b32") || !strcmp(name, "ds_permute_b32")) {
    rl_oracle_ds_permute(ctx, w, inst, name[3] == 'b');
    return;
  }
  bool load = rl_oracle_starts(name, "ds_load_");
  bool store = rl_oracle_starts(name, "ds_store_");
  if (!load && !store) {
    if (strstr(name, "swizzle") || strstr(name, "append") ||
        strstr(name, "consume") || strstr(name, "gws") ||
        strstr(name, "_addtid") || strstr(name, "bvh")) {
      rl_oracle_skip(ctx, "instruction %s not modelled", name);
      return;
    }
    rl_oracle_ds_atomic(ctx, w, inst);
    return;
  }
  if (strstr(name, "d16") || strstr(name, "addtid") || strstr(name, "_hi")) {
    rl_oracle_skip(ctx, "instruction %s not modelled", name);
    return;
  }
  uint32_t size;
  bool sign;
  if (!rl_oracle_element(name, &size, &sign)) {
    rl_oracle_skip(ctx, "instruction %s not modelled", name);
    return;
  }
  bool two = strstr(name, "2addr") != NULL;
  uint32_t stride = strstr(name, "stride64") ? 64u * size : size;
  uint32_t exec = w->s[RL_ORACLE_EXEC];
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint32_t base = w->v[inst->addr * 32 + lane];
    uint8_t bytes[16];
    if (!two) {
      uint32_t address = base + (uint32_t)inst->offset;
      if (load) {
        rl_oracle_lds_read(ctx, address, bytes, size);
        rl_oracle_load_to_vgprs(w, inst->vdst, lane, bytes, size, sign);
      } else {
        rl_oracle_vgprs_to_bytes(w, inst->data0, lane, bytes, size);
        rl_oracle_lds_write(ctx, address, bytes, size);
      }
      continue;
    }
    uint32_t a0 = base + inst->offset0 * stride;
    uint32_t a1 = base + inst->offset1 * stride;
    if (load) {
      rl_oracle_lds_read(ctx, a0, bytes, size);
      rl_oracle_lds_read(ctx, a1, bytes + size, size);
      rl_oracle_load_to_vgprs(w, inst->vdst, lane, bytes, size * 2, false);
    } else {
      rl_oracle_vgprs_to_bytes(w, inst->data0, lane, bytes, size);
      rl_oracle_vgprs_to_bytes(w, inst->data1, lane, bytes + size, size);
      rl_oracle_lds_write(ctx, a0, bytes, size);
      rl_oracle_lds_write(ctx, a1, bytes + size, size);
    }
  }
}

//===----------------------------------------------------------------------===//
// FLAT and GLOBAL
//===----------------------------------------------------------------------===//

// Where a lane's FLAT/GLOBAL access goes: device memory, or the LDS through
// the shared aperture (RL_SIM_APERTURE_*); false with a skip otherwise.
typedef struct rl_oracle_where_s {
  bool lds;
  uint64_t address;  // device address, or the LDS offset
} rl_oracle_where_t;

static bool rl_oracle_flat_where(rl_oracle_ctx_t* ctx,
                                 const rl_oracle_wave_t* w,
                                 const rl_oracle_inst_t* inst, uint32_t lane,
                                 rl_oracle_where_t* out) {
  uint64_t address;
  if (inst->seg == 2 && inst->saddr != RL_ORACLE_NULL && inst->saddr != 0x7f) {
    // SGPR base + a 32-bit unsigned VGPR offset + the signed immediate.
    address = rl_oracle_sgpr64(w, inst->saddr) +
              (uint64_t)w->v[inst->addr * 32 + lane] + (int64_t)inst->offset;
  } else {
    address = ((uint64_t)w->v[inst->addr * 32 + lane] |
               (uint64_t)w->v[((inst->addr + 1) & 255) * 32 + lane] << 32) +
              (int64_t)inst->offset;
  }
  out->lds = false;
  out->address = address;
  if (inst->seg == 0) {
    if (address >= RL_SIM_APERTURE_SHARED_BASE &&
        address < RL_SIM_APERTURE_SHARED_BASE + RL_SIM_APERTURE_SIZE) {
      out->lds = true;
      out->address = address - RL_SIM_APERTURE_SHARED_BASE;
    } else if (address >= RL_SIM_APERTURE_PRIVATE_BASE &&
               address < RL_SIM_APERTURE_PRIVATE_BASE + RL_SIM_APERTURE_SIZE) {
      rl_oracle_skip(ctx, "%s to the private aperture not modelled",
                     inst->name);
      return false;
    }
  }
  return true;
}

static bool rl_oracle_flat_read(rl_oracle_ctx_t* ctx,
                                const rl_oracle_inst_t* inst,
                                const rl_oracle_where_t* where, void* out,
                                uint32_t size) {
  if (where->lds) {
    rl_oracle_lds_read(ctx, (uint32_t)where->address, out, size);
    return true;
  }
  if (rl_oracle_mem_read(ctx->mem, where->address, out, size)) return true;
  rl_oracle_fault(ctx, "%s read of %u bytes at 0x%llx outside memory",
                  inst->name, size, (unsigned long long)where->address);
  return false;
}

static bool rl_oracle_flat_write(rl_oracle_ctx_t* ctx,
                                 const rl_oracle_inst_t* inst,
                                 const rl_oracle_where_t* where,
                                 const void* data, uint32_t size) {
  if (where->lds) {
    rl_oracle_lds_write(ctx, (uint32_t)where->address, data, size);
    return true;
  }
  if (rl_oracle_mem_write(ctx->mem, where->address, data, size)) return true;
  rl_oracle_fault(ctx, "%s write of %u bytes at 0x%llx outside memory",
                  inst->name, size, (unsigned long long)where->address);
  return false;
}

static void rl_oracle_flat_atomic(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                                  const rl_oracle_inst_t* inst) {
  const char* name = inst->name;
  // The old value is returned with gfx11's GLC or gfx12's TH bit 0.
  bool returns = inst->atomic_return;
  bool wide = strstr(name, "64") != NULL;
  bool cmpswap = strstr(name, "cmpswap") != NULL;
  if (!rl_oracle_atomic_ok(ctx, name, returns)) return;
  uint32_t size = wide ? 8 : 4;
  uint32_t exec = w->s[RL_ORACLE_EXEC];
  for (uint32_t lane = 0; lane < 32 && !ctx->stop; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    rl_oracle_where_t where;
    if (!rl_oracle_flat_where(ctx, w, inst, lane, &where)) return;
    uint64_t old = 0, data = 0, cmp = 0, out = 0;
    if (!rl_oracle_flat_read(ctx, inst, &where, &old, size)) return;
    // cmpswap's DATA is {source, compare}.
    rl_oracle_vgprs_to_bytes(w, inst->data0, lane, (uint8_t*)&data, size);
    if (cmpswap) {
      rl_oracle_vgprs_to_bytes(w, inst->data0 + size / 4, lane,
                               (uint8_t*)&cmp, size);
    }
    if (!rl_hm_mem_atomic(name, old, data, cmp, &out)) {
      rl_oracle_skip(ctx, "instruction %s not modelled", name);
      return;
    }
    if (!rl_oracle_flat_write(ctx, inst, &where, &out, size)) return;
    if (returns) {
      rl_oracle_load_to_vgprs(w, inst->vdst, lane, (const uint8_t*)&old, size,
                              false);
    }
  }
}

void rl_oracle_exec_flat(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                         const rl_oracle_inst_t* inst) {
  const char* name = inst->name;
  if (inst->seg == 1) {
    rl_oracle_skip(ctx, "instruction %s (scratch) not modelled", name);
    return;
  }
  const char* op = strchr(name, '_');  // after "global" / "flat"
  if (!op) {
    rl_oracle_skip(ctx, "instruction %s not modelled", name);
    return;
  }
  ++op;
  // gfx12's global_inv / global_wb: memory is coherent in the oracle.
  if (!strcmp(name, "global_inv") || !strcmp(name, "global_wb")) return;
  if (rl_oracle_starts(op, "atomic_")) {
    rl_oracle_flat_atomic(ctx, w, inst);
    return;
  }
  bool load = rl_oracle_starts(op, "load_");
  bool store = rl_oracle_starts(op, "store_");
  uint32_t size;
  bool sign;
  if ((!load && !store) || strstr(op, "d16") || strstr(op, "lds") ||
      strstr(op, "addtid") || !rl_oracle_element(name, &size, &sign)) {
    rl_oracle_skip(ctx, "instruction %s not modelled", name);
    return;
  }
  uint32_t exec = w->s[RL_ORACLE_EXEC];
  for (uint32_t lane = 0; lane < 32 && !ctx->stop; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    rl_oracle_where_t where;
    if (!rl_oracle_flat_where(ctx, w, inst, lane, &where)) return;
    uint8_t bytes[16];
    if (load) {
      if (!rl_oracle_flat_read(ctx, inst, &where, bytes, size)) return;
      rl_oracle_load_to_vgprs(w, inst->vdst, lane, bytes, size, sign);
    } else {
      rl_oracle_vgprs_to_bytes(w, inst->data0, lane, bytes, size);
      if (!rl_oracle_flat_write(ctx, inst, &where, bytes, size)) return;
    }
  }
}
