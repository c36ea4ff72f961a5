// sim/isa/isa_mem.c — vector memory of the ISA executor: LDS (DS),
// FLAT and GLOBAL loads and stores, and the DS, FLAT, GLOBAL and MUBUF
// opcode tables.
//
// Sources: opcodes from LLVM DSInstructions.td, FLATInstructions.td and
// BUFInstructions.td (gfx11), confirmed with llvm-mc-19 -mcpu=gfx1100 by
// tests/unit/sim/isa/isa_decode_test.c; addressing from the RDNA3 ISA guide
// ("Data Share Operations": address = ADDR VGPR + offset, the 2addr forms
// add OFFSET0/OFFSET1 times the element size, times 64 for stride64;
// "Flat, Scratch and Global Instructions": GLOBAL address = SADDR (64-bit
// SGPR pair) + zero-extended 32-bit VGPR + signed offset, or, with SADDR
// off, the 64-bit VGPR pair + offset).
//
// Every global access goes through the simulator's rl_sim_wg_* interface,
// so it is translated, bounds-checked and recorded for the hazard checker.
// When the active lanes touch one contiguous ascending run of memory (the
// common unit-stride case) the run is moved with one call; otherwise, when
// they lie in one allocation, all lanes go at once (rl_sim_wg_load_lanes /
// store_lanes: one translation, one cache-model lock). If neither applies,
// or the run faults, the lanes go one by one in lane order, so the first
// faulting lane's address is the one reported and the stores of the lanes
// before it land, as they would lane by lane. FLAT (not GLOBAL) addresses in the shared or
// private aperture (sim_executor.h) go lane by lane to LDS or the lane's
// private segment (isa_scratch.c); FLAT atomics are not routed (an
// aperture address faults as unmapped). LDS accesses are checked against the work-group's
// group segment; one outside it faults (the hardware would drop it
// silently, which a checker should not).
#include <inttypes.h>
#include <string.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_float.h"
#include "sim/isa/isa_mem.h"
#include "sim/isa/isa_program.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Widens a loaded element of |size| bytes into dwords: sub-dword loads are
// zero- or sign-extended to 32 bits.
static void rl_isa_mem_widen(const uint8_t* bytes, uint32_t size, bool sign,
                             uint32_t* out_dwords) {
  if (size >= 4) {
    memcpy(out_dwords, bytes, size);
    return;
  }
  uint32_t value = 0;
  memcpy(&value, bytes, size);
  if (sign) {
    value = size == 1 ? (uint32_t)(int32_t)(int8_t)value
                      : (uint32_t)(int32_t)(int16_t)value;
  }
  out_dwords[0] = value;
}

void rl_isa_mem_put(rl_isa_wave_t* wave, uint32_t vreg, uint32_t lane,
                    const uint8_t* bytes, uint32_t size, bool sign) {
  uint32_t dwords[4];
  rl_isa_mem_widen(bytes, size, sign, dwords);
  for (uint32_t i = 0; i < (size + 3) / 4; ++i) {
    wave->vgpr[vreg + i][lane] = dwords[i];
  }
}

void rl_isa_mem_load_lane(rl_isa_wave_t* wave, const rl_isa_inst_t* inst,
                          uint32_t lane, const uint8_t* bytes) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  const bool sign = (arg & RL_ISA_MEM_SIGNED) != 0;
  if (!(arg & RL_ISA_MEM_D16)) {
    rl_isa_mem_put(wave, inst->vdst, lane, bytes, size, sign);
    return;
  }
  uint32_t value = 0;
  memcpy(&value, bytes, size);
  if (size == 1 && sign) value = (uint32_t)(uint16_t)(int16_t)(int8_t)value;
  const uint32_t shift = (arg & RL_ISA_MEM_D16_HI) ? 16u : 0u;
  uint32_t* reg = &wave->vgpr[inst->vdst][lane];
  *reg = (*reg & ~(0xffffu << shift)) | ((value & 0xffffu) << shift);
}

void rl_isa_mem_store_lane(const rl_isa_wave_t* wave,
                           const rl_isa_inst_t* inst, uint32_t lane,
                           uint8_t* out) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  if (!(arg & RL_ISA_MEM_D16)) {
    rl_isa_mem_get(wave, inst->data0, lane, size, out);
    return;
  }
  const uint32_t shift = (arg & RL_ISA_MEM_D16_HI) ? 16u : 0u;
  uint32_t half = wave->vgpr[inst->data0][lane] >> shift;
  memcpy(out, &half, size);  // little-endian: the low |size| bytes
}

void rl_isa_mem_get(const rl_isa_wave_t* wave, uint32_t vreg, uint32_t lane,
                    uint32_t size, uint8_t* out) {
  uint32_t dwords[4];
  for (uint32_t i = 0; i < (size + 3) / 4; ++i) {
    dwords[i] = wave->vgpr[vreg + i][lane];
  }
  memcpy(out, dwords, size);
}

#if defined(__SSE2__)
// Lanes |l| to |l| + 3 of |size| / 4 rows (|size| 8 or 16) from the four
// lanes' elements at |p0| .. |p3|: loaded as four vectors and transposed
// (SSE2), for the loads of 64 and 128 bits with every lane active.
static inline __attribute__((always_inline)) void rl_isa_rows_from4(
    uint32_t (*rows)[RL_ISA_LANES], uint32_t l, const uint8_t* p0,
    const uint8_t* p1, const uint8_t* p2, const uint8_t* p3, uint32_t size) {
  __m128i a, b, c, d;
  if (size == 16) {
    a = _mm_loadu_si128((const __m128i*)p0);
    b = _mm_loadu_si128((const __m128i*)p1);
    c = _mm_loadu_si128((const __m128i*)p2);
    d = _mm_loadu_si128((const __m128i*)p3);
  } else {
    a = _mm_loadl_epi64((const __m128i*)p0);
    b = _mm_loadl_epi64((const __m128i*)p1);
    c = _mm_loadl_epi64((const __m128i*)p2);
    d = _mm_loadl_epi64((const __m128i*)p3);
  }
  __m128i ab_lo = _mm_unpacklo_epi32(a, b), cd_lo = _mm_unpacklo_epi32(c, d);
  _mm_storeu_si128((__m128i*)&rows[0][l], _mm_unpacklo_epi64(ab_lo, cd_lo));
  _mm_storeu_si128((__m128i*)&rows[1][l], _mm_unpackhi_epi64(ab_lo, cd_lo));
  if (size == 16) {
    __m128i ab_hi = _mm_unpackhi_epi32(a, b), cd_hi = _mm_unpackhi_epi32(c, d);
    _mm_storeu_si128((__m128i*)&rows[2][l], _mm_unpacklo_epi64(ab_hi, cd_hi));
    _mm_storeu_si128((__m128i*)&rows[3][l], _mm_unpackhi_epi64(ab_hi, cd_hi));
  }
}
#endif

// rl_isa_mem_put for the lanes of |lanes|, lane l's element at bytes +
// (l - |origin|) * |stride| (|origin| at most the lowest lane): one loop
// per destination dword, with fixed-size moves.
static void rl_isa_mem_put_lanes(rl_isa_wave_t* wave, uint32_t vreg,
                                 uint32_t lanes, const uint8_t* bytes,
                                 uint32_t origin, uint32_t stride,
                                 uint32_t size, bool sign) {
  if (size == 4 && stride == 4 && lanes != 0) {
    uint32_t first = (uint32_t)__builtin_ctz(lanes);
    uint64_t run = (uint64_t)(lanes >> first);
    if ((run & (run + 1)) == 0) {  // one run of lanes: one move
      memcpy(&wave->vgpr[vreg][first], bytes + (first - origin) * 4,
             4u * (uint32_t)__builtin_popcount(lanes));
      return;
    }
  }
#if defined(__SSE2__)
  if (lanes == RL_ISA_ALL_LANES && (size == 8 || size == 16)) {
    const uint8_t* at = bytes - origin * stride;  // origin is lane 0
    for (uint32_t l = 0; l < RL_ISA_LANES; l += 4) {
      rl_isa_rows_from4(wave->vgpr + vreg, l, at + l * stride,
                        at + (l + 1) * stride, at + (l + 2) * stride,
                        at + (l + 3) * stride, size);
    }
    return;
  }
#endif
  if (size >= 4) {
    for (uint32_t i = 0; i < size / 4; ++i) {
      uint32_t* row = wave->vgpr[vreg + i];
      for (uint32_t rest = lanes; rest; rest &= rest - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(rest);
        memcpy(&row[l], bytes + (l - origin) * stride + 4 * i, 4);
      }
    }
    return;
  }
  uint32_t* row = wave->vgpr[vreg];
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(rest);
    const uint8_t* b = bytes + (l - origin) * stride;
    uint32_t value;
    if (size == 1) {
      value = sign ? (uint32_t)(int32_t)(int8_t)b[0] : b[0];
    } else {
      uint16_t half;
      memcpy(&half, b, 2);
      value = sign ? (uint32_t)(int32_t)(int16_t)half : half;
    }
    row[l] = value;
  }
}

// rl_isa_mem_get for the lanes of |lanes| into bytes + (l - |origin|) *
// |stride|.
static void rl_isa_mem_get_lanes(const rl_isa_wave_t* wave, uint32_t vreg,
                                 uint32_t lanes, uint32_t size,
                                 uint8_t* bytes, uint32_t origin,
                                 uint32_t stride) {
  if (size >= 4) {
    for (uint32_t i = 0; i < size / 4; ++i) {
      const uint32_t* row = wave->vgpr[vreg + i];
      for (uint32_t rest = lanes; rest; rest &= rest - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(rest);
        memcpy(bytes + (l - origin) * stride + 4 * i, &row[l], 4);
      }
    }
    return;
  }
  const uint32_t* row = wave->vgpr[vreg];
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(rest);
    memcpy(bytes + (l - origin) * stride, &row[l], size);
  }
}

// ---------------------------------------------------------------------------
// LDS.

static rl_status_t rl_isa_lds_check(const rl_isa_wave_t* wave,
                                    const rl_isa_inst_t* inst, uint32_t lane,
                                    uint64_t address, uint32_t size) {
  if (address + size <= wave->group->lds_size) return RL_OK;
  char where[160];
  rl_isa_inst_describe(inst, where, sizeof(where));
  return RL_STATUS(RL_STATUS_POISONED,
                   "LDS fault: %u-byte access at LDS address 0x%" PRIx64
                   " (wave %u lane %u) is outside the %u-byte group "
                   "segment: %s",
                   size, address, wave->id, lane, wave->group->lds_size,
                   where);
}

static rl_status_t rl_isa_ds_lane_general(rl_isa_wave_t* wave,
                                          const rl_isa_inst_t* inst,
                                          uint32_t lane) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  const uint32_t kind = RL_ISA_MEM_KIND(arg);
  uint8_t* lds = wave->group->lds;
  uint64_t base = wave->vgpr[inst->addr][lane];
  if (kind == RL_ISA_MEM_LOAD2 || kind == RL_ISA_MEM_STORE2) {
    uint64_t scale = size * ((arg & RL_ISA_MEM_STRIDE64) ? 64u : 1u);
    uint64_t a0 = base + inst->offset * scale, a1 = base + inst->offset1 * scale;
    RL_RETURN_IF_ERROR(rl_isa_lds_check(wave, inst, lane, a0, size));
    RL_RETURN_IF_ERROR(rl_isa_lds_check(wave, inst, lane, a1, size));
    if (kind == RL_ISA_MEM_LOAD2) {
      rl_isa_mem_put(wave, inst->vdst, lane, lds + a0, size, false);
      rl_isa_mem_put(wave, inst->vdst + size / 4, lane, lds + a1, size, false);
    } else {
      rl_isa_mem_get(wave, inst->data0, lane, size, lds + a0);
      rl_isa_mem_get(wave, inst->data1, lane, size, lds + a1);
    }
    return RL_OK;
  }
  uint64_t address = base + (uint32_t)(inst->offset | (inst->offset1 << 8));
  RL_RETURN_IF_ERROR(rl_isa_lds_check(wave, inst, lane, address, size));
  if (kind == RL_ISA_MEM_LOAD) {
    rl_isa_mem_put(wave, inst->vdst, lane, lds + address, size,
                   arg & RL_ISA_MEM_SIGNED);
  } else {
    rl_isa_mem_get(wave, inst->data0, lane, size, lds + address);
  }
  return RL_OK;
}

rl_status_t rl_isa_lds_lane_access(rl_isa_wave_t* wave,
                                   const rl_isa_inst_t* inst, uint32_t lane,
                                   uint64_t address) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  RL_RETURN_IF_ERROR(rl_isa_lds_check(wave, inst, lane, address, size));
  uint8_t* lds = wave->group->lds + address;
  if (RL_ISA_MEM_KIND(arg) == RL_ISA_MEM_STORE) {
    rl_isa_mem_store_lane(wave, inst, lane, lds);
  } else {
    rl_isa_mem_load_lane(wave, inst, lane, lds);
  }
  return RL_OK;
}

// The loads and stores of all active lanes at once, when every lane is
// inside the group segment: one bounds check for the wave (the highest
// active lane's address: addresses are unsigned, so no lane is below the
// segment), then per lane a move of a size fixed at compile time
// (rl_isa_ds_moves is instantiated per element width), lanes in lane
// order, so of lanes storing to the same bytes the highest wins, as lane
// by lane. Each lane reads its address before it writes its destination
// rows, so a load into its own address row sees the old address, as lane
// by lane. False (nothing done) when a lane is outside: the caller then
// goes lane by lane (rl_isa_exec_ds_lanes), which reports the first such
// lane after the earlier lanes' accesses. The two-address forms
// (ds_load_2addr*, ds_store_2addr*) the same way, per lane the element at
// offset0, then the one at offset1; only 4- and 8-byte elements exist
// (DSInstructions.td).

// True when every active lane's 32-bit address plus |reach| stays inside
// the |limit|-byte segment. The OR of the addresses is at least their
// maximum, so it passing is enough (with every lane active one pass the
// compiler vectorises); when it does not, the maximum decides.
static inline bool rl_isa_ds_inside(const uint32_t* base, uint32_t exec,
                                    uint64_t reach, uint64_t limit) {
  uint32_t any = 0;
  if (exec == RL_ISA_ALL_LANES) {
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) any |= base[l];
  } else {
    for (uint32_t rest = exec; rest; rest &= rest - 1) {
      any |= base[__builtin_ctz(rest)];
    }
  }
  if (any + reach <= limit) return true;
  uint32_t high = 0;
  for (uint32_t rest = exec; rest; rest &= rest - 1) {
    uint32_t a = base[__builtin_ctz(rest)];
    high = a > high ? a : high;
  }
  return high + reach <= limit;
}

// What one DS instruction moves, resolved once per instruction.
typedef struct rl_isa_ds_move_s {
  uint8_t* lds;
  const uint32_t* base;  // the address row
  uint32_t (*rows)[RL_ISA_LANES];  // first destination or data row
  uint32_t (*rows1)[RL_ISA_LANES];  // the 2addr stores' DATA1 rows
  uint64_t o0, o1;  // byte offsets (o1: the 2addr forms)
} rl_isa_ds_move_t;

// Lane |l| of the one-address forms; |size| and |sign| are constants in
// every instantiation.
static inline __attribute__((always_inline)) void rl_isa_ds_load_one(
    const rl_isa_ds_move_t* m, uint32_t l, uint32_t size, bool sign) {
  const uint8_t* from = m->lds + m->base[l] + m->o0;
  if (size >= 4) {
    uint32_t w[4];
    memcpy(w, from, size);
    for (uint32_t i = 0; i < size / 4; ++i) m->rows[i][l] = w[i];
    return;
  }
  if (size == 1) {
    m->rows[0][l] = sign ? (uint32_t)(int32_t)(int8_t)from[0] : from[0];
    return;
  }
  uint16_t half;
  memcpy(&half, from, 2);
  m->rows[0][l] = sign ? (uint32_t)(int32_t)(int16_t)half : half;
}

static inline __attribute__((always_inline)) void rl_isa_ds_store_one(
    const rl_isa_ds_move_t* m, uint32_t l, uint32_t size) {
  uint32_t w[4];
  for (uint32_t i = 0; i < (size + 3) / 4; ++i) w[i] = m->rows[i][l];
  memcpy(m->lds + m->base[l] + m->o0, w, size);  // little-endian: low bytes
}

// Lane |l| of the two-address forms, |size| 4 or 8 (a constant).
static inline __attribute__((always_inline)) void rl_isa_ds_load_two(
    const rl_isa_ds_move_t* m, uint32_t l, uint32_t size) {
  const uint8_t* at = m->lds + m->base[l];
  uint32_t w[4];
  memcpy(w, at + m->o0, size);
  memcpy(w + size / 4, at + m->o1, size);
  for (uint32_t i = 0; i < size / 2; ++i) m->rows[i][l] = w[i];
}

static inline __attribute__((always_inline)) void rl_isa_ds_store_two(
    const rl_isa_ds_move_t* m, uint32_t l, uint32_t size) {
  uint8_t* at = m->lds + m->base[l];
  uint32_t w0[2], w1[2];
  for (uint32_t i = 0; i < size / 4; ++i) {
    w0[i] = m->rows[i][l];
    w1[i] = m->rows1[i][l];
  }
  memcpy(at + m->o0, w0, size);
  memcpy(at + m->o1, w1, size);
}

#define RL_ISA_DS_MOVE_LOAD 0
#define RL_ISA_DS_MOVE_STORE 1
#define RL_ISA_DS_MOVE_LOAD2 2
#define RL_ISA_DS_MOVE_STORE2 3

static inline __attribute__((always_inline)) void rl_isa_ds_lane(
    const rl_isa_ds_move_t* m, uint32_t l, uint32_t form, uint32_t size,
    bool sign) {
  switch (form) {
    case RL_ISA_DS_MOVE_LOAD: rl_isa_ds_load_one(m, l, size, sign); break;
    case RL_ISA_DS_MOVE_STORE: rl_isa_ds_store_one(m, l, size); break;
    case RL_ISA_DS_MOVE_LOAD2: rl_isa_ds_load_two(m, l, size); break;
    default: rl_isa_ds_store_two(m, l, size); break;
  }
}

#if defined(__SSE2__)
// ds_load_b128, ds_load_b64 and ds_load_2addr_b64 (its offset1 elements
// into rows 2 and 3) with every lane active (rl_isa_rows_from4). The four
// lanes' addresses are read before their rows are written, as lane by lane
// reads each lane's before its own writes (a load into its address row).
static void rl_isa_ds_load_rows_sse2(const rl_isa_ds_move_t* m,
                                     uint32_t form, uint32_t size) {
  for (uint32_t l = 0; l < RL_ISA_LANES; l += 4) {
    const uint8_t* at[4];
    for (uint32_t i = 0; i < 4; ++i) at[i] = m->lds + m->base[l + i];
    rl_isa_rows_from4(m->rows, l, at[0] + m->o0, at[1] + m->o0,
                      at[2] + m->o0, at[3] + m->o0, size);
    if (form == RL_ISA_DS_MOVE_LOAD2) {
      rl_isa_rows_from4(m->rows + 2, l, at[0] + m->o1, at[1] + m->o1,
                        at[2] + m->o1, at[3] + m->o1, size);
    }
  }
}
#endif

// The lanes of |exec| in lane order; a full EXEC without the bit scan.
static inline __attribute__((always_inline)) void rl_isa_ds_moves(
    const rl_isa_ds_move_t* m, uint32_t exec, uint32_t form, uint32_t size,
    bool sign) {
#if defined(__SSE2__)
  if (exec == RL_ISA_ALL_LANES &&
      ((form == RL_ISA_DS_MOVE_LOAD && (size == 16 || size == 8)) ||
       (form == RL_ISA_DS_MOVE_LOAD2 && size == 8))) {
    rl_isa_ds_load_rows_sse2(m, form, size);
    return;
  }
#endif
  if (exec == RL_ISA_ALL_LANES) {
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      rl_isa_ds_lane(m, l, form, size, sign);
    }
    return;
  }
  for (uint32_t rest = exec; rest; rest &= rest - 1) {
    rl_isa_ds_lane(m, (uint32_t)__builtin_ctz(rest), form, size, sign);
  }
}

static bool rl_isa_ds_wave(rl_isa_wave_t* wave, const rl_isa_inst_t* inst,
                           uint32_t exec) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  const uint32_t kind = RL_ISA_MEM_KIND(arg);
  rl_isa_ds_move_t m;
  m.lds = wave->group->lds;
  m.base = wave->vgpr[inst->addr];
  m.rows1 = kind == RL_ISA_MEM_STORE2 ? wave->vgpr + inst->data1 : NULL;
  uint64_t reach;  // past the highest byte above a lane's address
  uint32_t form;
  if (kind == RL_ISA_MEM_LOAD2 || kind == RL_ISA_MEM_STORE2) {
    if (size != 4 && size != 8) return false;
    const uint64_t scale = size * ((arg & RL_ISA_MEM_STRIDE64) ? 64u : 1u);
    m.o0 = (uint64_t)inst->offset * scale;
    m.o1 = (uint64_t)inst->offset1 * scale;
    reach = (m.o0 > m.o1 ? m.o0 : m.o1) + size;
    form = kind == RL_ISA_MEM_LOAD2 ? RL_ISA_DS_MOVE_LOAD2 : RL_ISA_DS_MOVE_STORE2;
  } else if (kind == RL_ISA_MEM_LOAD || kind == RL_ISA_MEM_STORE) {
    m.o0 = (uint32_t)(inst->offset | (inst->offset1 << 8));
    m.o1 = 0;
    reach = m.o0 + size;
    form = kind == RL_ISA_MEM_LOAD ? RL_ISA_DS_MOVE_LOAD : RL_ISA_DS_MOVE_STORE;
  } else {
    return false;
  }
  if (!rl_isa_ds_inside(m.base, exec, reach, wave->group->lds_size)) {
    return false;
  }
  const bool load = form == RL_ISA_DS_MOVE_LOAD || form == RL_ISA_DS_MOVE_LOAD2;
  m.rows = wave->vgpr + (load ? inst->vdst : inst->data0);
  const bool sign = (arg & RL_ISA_MEM_SIGNED) != 0;
  // One instantiation per form and width (sizes 1 and 2 only one-address).
#define RL_ISA_DS_CASE(f, s) \
  case (f) * 32 + (s): rl_isa_ds_moves(&m, exec, (f), (s), false); return true;
  switch (form * 32 + size) {
    case RL_ISA_DS_MOVE_LOAD * 32 + 1:
      rl_isa_ds_moves(&m, exec, RL_ISA_DS_MOVE_LOAD, 1, sign);
      return true;
    case RL_ISA_DS_MOVE_LOAD * 32 + 2:
      rl_isa_ds_moves(&m, exec, RL_ISA_DS_MOVE_LOAD, 2, sign);
      return true;
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_LOAD, 4)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_LOAD, 8)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_LOAD, 12)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_LOAD, 16)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_STORE, 1)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_STORE, 2)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_STORE, 4)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_STORE, 8)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_STORE, 12)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_STORE, 16)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_LOAD2, 4)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_LOAD2, 8)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_STORE2, 4)
    RL_ISA_DS_CASE(RL_ISA_DS_MOVE_STORE2, 8)
    default: return false;  // no such width: lane by lane
  }
#undef RL_ISA_DS_CASE
}

rl_status_t rl_isa_exec_ds_lanes(rl_isa_wave_t* wave,
                                 const rl_isa_inst_t* inst) {
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  while (exec) {
    uint32_t lane = (uint32_t)__builtin_ctz(exec);
    exec &= exec - 1;
    RL_RETURN_IF_ERROR(rl_isa_ds_lane_general(wave, inst, lane));
  }
  return RL_OK;
}

rl_status_t rl_isa_exec_ds(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  if (exec != 0 && rl_isa_ds_wave(wave, inst, exec)) return RL_OK;
  return rl_isa_exec_ds_lanes(wave, inst);
}

// ---------------------------------------------------------------------------
// FLAT and GLOBAL.

static inline void rl_isa_flat_lanes(const rl_isa_wave_t* wave,
                                     const rl_isa_inst_t* inst,
                                     uint64_t* out_address) {
  const int64_t offset = inst->offset;
  if (inst->saddr != RL_ISA_SRC_NULL) {
    uint64_t base = wave->sgpr[inst->saddr & 127] |
                    (uint64_t)wave->sgpr[(inst->saddr + 1) & 127] << 32;
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      out_address[l] = base + wave->vgpr[inst->addr][l] + (uint64_t)offset;
    }
    return;
  }
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint64_t base = wave->vgpr[inst->addr][l] |
                    (uint64_t)wave->vgpr[inst->addr + 1][l] << 32;
    out_address[l] = base + (uint64_t)offset;
  }
}

void rl_isa_flat_addresses(const rl_isa_wave_t* wave,
                           const rl_isa_inst_t* inst, uint64_t* out_address) {
  rl_isa_flat_lanes(wave, inst, out_address);
}

// True when the active lanes are one run of consecutive lanes whose
// elements are consecutive in memory; |out_first| is the run's first lane.
static bool rl_isa_flat_contiguous(const uint64_t* address, uint32_t exec,
                                   uint32_t size, uint32_t* out_first) {
  if (exec == 0) return false;
  uint32_t first = (uint32_t)__builtin_ctz(exec);
  uint64_t run = (uint64_t)(exec >> first);
  if (run & (run + 1)) return false;  // not a single run of ones
  uint32_t count = (uint32_t)__builtin_popcount(exec);
  for (uint32_t i = 1; i < count; ++i) {
    if (address[first + i] != address[first] + (uint64_t)i * size) return false;
  }
  *out_first = first;
  return true;
}

// Cache-model flags of a FLAT/GLOBAL instruction: its cache-policy bits
// (RDNA3 ISA guide, FLAT encoding: DLC bit 13, GLC bit 14, SLC bit 15 of the
// first dword, which the decoder keeps as bits 0..2 of glc_slc_dlc).
static uint32_t rl_isa_flat_access(const rl_isa_inst_t* inst) {
  uint32_t access = 0;
  if (inst->glc_slc_dlc & 1u) access |= RL_SIM_ACCESS_DLC;
  if (inst->glc_slc_dlc & 2u) access |= RL_SIM_ACCESS_GLC;
  if (inst->glc_slc_dlc & 4u) access |= RL_SIM_ACCESS_SLC;
  return access;
}

static rl_status_t rl_isa_flat_lane(rl_isa_wave_t* wave,
                                    const rl_isa_inst_t* inst, uint32_t lane,
                                    uint64_t address) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  uint8_t bytes[16];
  if (RL_ISA_MEM_KIND(arg) == RL_ISA_MEM_STORE) {
    rl_isa_mem_store_lane(wave, inst, lane, bytes);
    return rl_sim_wg_store_with(wave->group->wg, address, bytes, size,
                                rl_isa_flat_access(inst));
  }
  RL_RETURN_IF_ERROR(rl_sim_wg_load_with(wave->group->wg, address, bytes, size,
                                         rl_isa_flat_access(inst)));
  rl_isa_mem_load_lane(wave, inst, lane, bytes);
  return RL_OK;
}

// One access for the whole run; false (status released) when it failed.
static bool rl_isa_flat_run(rl_isa_wave_t* wave, const rl_isa_inst_t* inst,
                            uint32_t first, uint32_t exec, uint64_t address) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  const uint32_t count = (uint32_t)__builtin_popcount(exec);
  uint8_t bytes[RL_ISA_LANES * 16];
  bool store = RL_ISA_MEM_KIND(arg) == RL_ISA_MEM_STORE;
  // The run's element i belongs to lane first + i.
  if (store) {
    rl_isa_mem_get_lanes(wave, inst->data0, exec, size, bytes, first, size);
  }
  rl_status_t status =
      store ? rl_sim_wg_store_with(wave->group->wg, address, bytes,
                                   count * size, rl_isa_flat_access(inst))
            : rl_sim_wg_load_with(wave->group->wg, address, bytes,
                                  count * size, rl_isa_flat_access(inst));
  if (status != RL_OK) {
    rl_status_free(status);
    return false;
  }
  if (!store) {
    rl_isa_mem_put_lanes(wave, inst->vdst, exec, bytes, first, size, size,
                         arg & RL_ISA_MEM_SIGNED);
  }
  return true;
}

// The active lanes at once (rl_sim_wg_load_lanes/store_lanes) when they lie
// in one allocation; *|out_done| false (nothing done) otherwise.
static rl_status_t rl_isa_flat_gather(rl_isa_wave_t* wave,
                                      const rl_isa_inst_t* inst, uint32_t exec,
                                      const uint64_t* address,
                                      bool* out_done) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  uint8_t bytes[RL_ISA_LANES * 16];
  if (RL_ISA_MEM_KIND(arg) == RL_ISA_MEM_STORE) {
    rl_isa_mem_get_lanes(wave, inst->data0, exec, size, bytes, 0, 16);
    return rl_sim_wg_store_lanes(wave->group->wg, address, exec, size,
                                 rl_isa_flat_access(inst), bytes, out_done);
  }
  RL_RETURN_IF_ERROR(rl_sim_wg_load_lanes(wave->group->wg, address, exec,
                                          size, rl_isa_flat_access(inst),
                                          bytes, out_done));
  if (*out_done) {
    rl_isa_mem_put_lanes(wave, inst->vdst, exec, bytes, 0, 16, size,
                         arg & RL_ISA_MEM_SIGNED);
  }
  return RL_OK;
}

// The lanes of |exec| whose FLAT address lies in the shared or the private
// aperture (sim_executor.h): the 4 GiB windows above the simulator's VA.
static uint32_t rl_isa_flat_aperture_lanes(const uint64_t* address,
                                           uint32_t exec) {
  uint32_t lanes = 0;
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    if (address[l] >= RL_SIM_APERTURE_SHARED_BASE) lanes |= 1u << l;
  }
  return lanes & exec;
}

// A FLAT access some lanes of which fall in an aperture: lane by lane in
// lane order, each to LDS, its private segment or global memory by its
// address (RDNA3 ISA guide, "Flat Memory Instructions": the aperture of the
// address decides the memory a flat access reaches).
static rl_status_t rl_isa_flat_apertures(rl_isa_wave_t* wave,
                                         const rl_isa_inst_t* inst,
                                         uint32_t exec,
                                         const uint64_t* address) {
  while (exec) {
    uint32_t lane = (uint32_t)__builtin_ctz(exec);
    exec &= exec - 1;
    uint64_t a = address[lane];
    if (a - RL_SIM_APERTURE_SHARED_BASE < RL_SIM_APERTURE_SIZE) {
      RL_RETURN_IF_ERROR(rl_isa_lds_lane_access(
          wave, inst, lane, a - RL_SIM_APERTURE_SHARED_BASE));
    } else if (a - RL_SIM_APERTURE_PRIVATE_BASE < RL_SIM_APERTURE_SIZE) {
      RL_RETURN_IF_ERROR(rl_isa_private_lane_access(
          wave, inst, lane, a - RL_SIM_APERTURE_PRIVATE_BASE));
    } else {
      RL_RETURN_IF_ERROR(rl_isa_flat_lane(wave, inst, lane, a));
    }
  }
  return RL_OK;
}

rl_status_t rl_isa_exec_flat(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  if (exec == 0) return RL_OK;
  uint64_t address[RL_ISA_LANES];
  rl_isa_flat_lanes(wave, inst, address);
  if (inst->encoding == RL_ISA_ENC_FLAT &&
      rl_isa_flat_aperture_lanes(address, exec) != 0) {
    return rl_isa_flat_apertures(wave, inst, exec, address);
  }
  // The d16 forms keep half of each VGPR: lane by lane (rl_isa_flat_lane).
  if (!(inst->op->arg & RL_ISA_MEM_D16)) {
    uint32_t first = 0;
    const uint32_t size = RL_ISA_MEM_SIZE(inst->op->arg);
    if (rl_isa_flat_contiguous(address, exec, size, &first) &&
        rl_isa_flat_run(wave, inst, first, exec, address[first])) {
      return RL_OK;
    }
    bool done = false;
    RL_RETURN_IF_ERROR(rl_isa_flat_gather(wave, inst, exec, address, &done));
    if (done) return RL_OK;
  }
  while (exec) {
    uint32_t lane = (uint32_t)__builtin_ctz(exec);
    exec &= exec - 1;
    RL_RETURN_IF_ERROR(rl_isa_flat_lane(wave, inst, lane, address[lane]));
  }
  return RL_OK;
}

// ---------------------------------------------------------------------------
// Tables.

#define NO RL_ISA_T_NONE
#define ARG RL_ISA_MEM_ARG
#define DS(opc, name, arg) \
  RL_ISA_OP(opc, name, 0, NO, NO, NO, NO, arg, rl_isa_exec_ds, NULL)
#define L RL_ISA_MEM_LOAD
#define S RL_ISA_MEM_STORE
#define SX RL_ISA_MEM_SIGNED
#define S64 RL_ISA_MEM_STRIDE64

static const rl_isa_op_t rl_isa_ds_ops[] = {
    DS(0x0d, "ds_store_b32", ARG(4, S, 0)),
    DS(0x0e, "ds_store_2addr_b32", ARG(4, RL_ISA_MEM_STORE2, 0)),
    DS(0x0f, "ds_store_2addr_stride64_b32", ARG(4, RL_ISA_MEM_STORE2, S64)),
    DS(0x1e, "ds_store_b8", ARG(1, S, 0)),
    DS(0x1f, "ds_store_b16", ARG(2, S, 0)),
    DS(0x36, "ds_load_b32", ARG(4, L, 0)),
    DS(0x37, "ds_load_2addr_b32", ARG(4, RL_ISA_MEM_LOAD2, 0)),
    DS(0x38, "ds_load_2addr_stride64_b32", ARG(4, RL_ISA_MEM_LOAD2, S64)),
    DS(0x39, "ds_load_i8", ARG(1, L, SX)),
    DS(0x3a, "ds_load_u8", ARG(1, L, 0)),
    DS(0x3b, "ds_load_i16", ARG(2, L, SX)),
    DS(0x3c, "ds_load_u16", ARG(2, L, 0)),
    DS(0x4d, "ds_store_b64", ARG(8, S, 0)),
    DS(0x4e, "ds_store_2addr_b64", ARG(8, RL_ISA_MEM_STORE2, 0)),
    DS(0x4f, "ds_store_2addr_stride64_b64", ARG(8, RL_ISA_MEM_STORE2, S64)),
    DS(0x76, "ds_load_b64", ARG(8, L, 0)),
    DS(0x77, "ds_load_2addr_b64", ARG(8, RL_ISA_MEM_LOAD2, 0)),
    DS(0x78, "ds_load_2addr_stride64_b64", ARG(8, RL_ISA_MEM_LOAD2, S64)),
    DS(0xde, "ds_store_b96", ARG(12, S, 0)),
    DS(0xdf, "ds_store_b128", ARG(16, S, 0)),
    DS(0xfe, "ds_load_b96", ARG(12, L, 0)),
    DS(0xff, "ds_load_b128", ARG(16, L, 0)),
};

#define D16 RL_ISA_MEM_D16
#define D16H (RL_ISA_MEM_D16 | RL_ISA_MEM_D16_HI)

// FLAT, GLOBAL and SCRATCH share opcodes (FLATInstructions.td; the d16
// forms' opcodes as llvm-mc-19 encodes them, tests/data/isa_names_gfx11.txt);
// one list, three prefixes.
#define RL_ISA_FLAT_OPS(X, p)                       \
  X(0x10, p "load_u8", ARG(1, L, 0))                \
  X(0x11, p "load_i8", ARG(1, L, SX))               \
  X(0x12, p "load_u16", ARG(2, L, 0))               \
  X(0x13, p "load_i16", ARG(2, L, SX))              \
  X(0x14, p "load_b32", ARG(4, L, 0))               \
  X(0x15, p "load_b64", ARG(8, L, 0))               \
  X(0x16, p "load_b96", ARG(12, L, 0))              \
  X(0x17, p "load_b128", ARG(16, L, 0))             \
  X(0x18, p "store_b8", ARG(1, S, 0))               \
  X(0x19, p "store_b16", ARG(2, S, 0))              \
  X(0x1a, p "store_b32", ARG(4, S, 0))              \
  X(0x1b, p "store_b64", ARG(8, S, 0))              \
  X(0x1c, p "store_b96", ARG(12, S, 0))             \
  X(0x1d, p "store_b128", ARG(16, S, 0))            \
  X(0x1e, p "load_d16_u8", ARG(1, L, D16))          \
  X(0x1f, p "load_d16_i8", ARG(1, L, D16 | SX))     \
  X(0x20, p "load_d16_b16", ARG(2, L, D16))         \
  X(0x21, p "load_d16_hi_u8", ARG(1, L, D16H))      \
  X(0x22, p "load_d16_hi_i8", ARG(1, L, D16H | SX)) \
  X(0x23, p "load_d16_hi_b16", ARG(2, L, D16H))     \
  X(0x24, p "store_d16_hi_b8", ARG(1, S, D16H))     \
  X(0x25, p "store_d16_hi_b16", ARG(2, S, D16H))
#define RL_ISA_FLAT_ROW(opc, name, arg) \
  RL_ISA_OP(opc, name, 0, NO, NO, NO, NO, arg, rl_isa_exec_flat, NULL),

static const rl_isa_op_t rl_isa_flat_ops[] = {
    RL_ISA_FLAT_OPS(RL_ISA_FLAT_ROW, "flat_")};
static const rl_isa_op_t rl_isa_global_ops[] = {
    RL_ISA_FLAT_OPS(RL_ISA_FLAT_ROW, "global_")};

// SCRATCH: the same loads and stores, d16 forms included (isa_scratch.c
// runs them).
#define RL_ISA_SCRATCH_ROW(opc, name, arg) \
  RL_ISA_OP(opc, name, 0, NO, NO, NO, NO, arg, rl_isa_exec_scratch, NULL),
static const rl_isa_op_t rl_isa_scratch_ops[] = {
    RL_ISA_FLAT_OPS(RL_ISA_SCRATCH_ROW, "scratch_")};

// MUBUF: only the cache invalidations (no operands): they drop this WGP's
// vector L0 / this shader array's GL1 in the cache model (AMDGPUUsage GFX11
// acquire sequences use buffer_gl1_inv; buffer_gl0_inv).
static rl_status_t rl_isa_exec_gl0_inv(rl_isa_wave_t* wave,
                                       const rl_isa_inst_t* inst) {
  (void)inst;
  rl_sim_wg_cache_invalidate(wave->group->wg, RL_SIM_WG_INV_GL0);
  return RL_OK;
}

static rl_status_t rl_isa_exec_gl1_inv(rl_isa_wave_t* wave,
                                       const rl_isa_inst_t* inst) {
  (void)inst;
  rl_sim_wg_cache_invalidate(wave->group->wg, RL_SIM_WG_INV_GL1);
  return RL_OK;
}

static const rl_isa_op_t rl_isa_mubuf_ops[] = {
    RL_ISA_OP(0x2b, "buffer_gl0_inv", 0, NO, NO, NO, NO, 0,
              rl_isa_exec_gl0_inv, NULL),
    RL_ISA_OP(0x2c, "buffer_gl1_inv", 0, NO, NO, NO, NO, 0,
              rl_isa_exec_gl1_inv, NULL),
};

RL_ISA_TABLE_CHAIN(rl_isa_table_ds, rl_isa_ds_ops, &rl_isa_table_ds_atomic);
RL_ISA_TABLE_CHAIN(rl_isa_table_flat, rl_isa_flat_ops, &rl_isa_table_flat_atomic);
RL_ISA_TABLE_CHAIN(rl_isa_table_global, rl_isa_global_ops, &rl_isa_table_global_atomic);
RL_ISA_TABLE(rl_isa_table_scratch, rl_isa_scratch_ops);
RL_ISA_TABLE(rl_isa_table_mubuf, rl_isa_mubuf_ops);

// One past the highest VGPR an instruction of these families touches
// (isa_program.c checks it against the kernel's VGPR allocation).
uint32_t rl_isa_mem_vgpr_end(const rl_isa_inst_t* inst) {
  const uint32_t arg = inst->op->arg, kind = RL_ISA_MEM_KIND(arg);
  const uint32_t dwords = (RL_ISA_MEM_SIZE(arg) + 3) / 4;
  if (dwords == 0) return 0;  // cache invalidations: no operands
  bool wide_address = inst->encoding != RL_ISA_ENC_DS &&
                      inst->saddr == RL_ISA_SRC_NULL;
  uint32_t end = inst->addr + (wide_address ? 2u : 1u);
  if (inst->encoding == RL_ISA_ENC_SCRATCH) {  // a 32-bit VGPR, when SVE
    end = inst->sve ? inst->addr + 1u : 0u;
  }
  uint32_t stored = 0, loaded = 0;
  // An atomic compare-swap carries (new, compare): FLAT/GLOBAL as one
  // register tuple twice as wide, DS as DATA0 and DATA1.
  bool cmpswap = kind >= RL_ISA_MEM_ATOM &&
                 RL_ISA_MEM_ATOMIC(arg) == RL_ISA_ATOM_CMPSWAP;
  bool flat = inst->encoding != RL_ISA_ENC_DS;
  if (kind == RL_ISA_MEM_STORE || kind == RL_ISA_MEM_STORE2 ||
      kind >= RL_ISA_MEM_ATOM) {
    stored = inst->data0 + dwords * (cmpswap && flat ? 2u : 1u);
  }
  if ((kind == RL_ISA_MEM_STORE2 || (cmpswap && !flat)) &&
      inst->data1 + dwords > stored) {
    stored = inst->data1 + dwords;
  }
  bool returns = kind == RL_ISA_MEM_ATOM_RTN ||
                 (kind == RL_ISA_MEM_ATOM && flat &&
                  (inst->glc_slc_dlc & RL_ISA_MEM_GLC));
  if (kind == RL_ISA_MEM_LOAD || returns) {
    loaded = inst->vdst + dwords;
  } else if (kind == RL_ISA_MEM_LOAD2) {
    loaded = inst->vdst + 2 * dwords;
  }
  if (stored > end) end = stored;
  if (loaded > end) end = loaded;
  return end;
}
