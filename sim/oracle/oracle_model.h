// sim/oracle/oracle_model.h — the conformance suite's oracle:
// an independent host model of the gfx11 (RDNA3) ALU opcodes the `isa`
// executor implements, written from the RDNA3 ISA guide's per-opcode
// pseudo-code ("Scalar ALU Operations", "Vector ALU Operations") and IEEE
// 754 as the host CPU computes it. It shares no code with sim/isa/:
// it is keyed by mnemonic, not by the executor's tables, and its own table
// says each opcode's operand shape (widths, which sources are floats, carry
// and SCC use), so a table error in the executor shows up as a mismatch.
//
// Float rules modelled (RDNA3 ISA guide, "Floating-point modes"; the
// executor's documented model, sim/isa/isa_float.h, is the
// contract the suite holds it to):
//   - round to nearest even; FLOAT_DENORM_MODE_32 0 flushes binary32
//     inputs and results to a zero of the same sign, 3 keeps them; binary64
//     always keeps them;
//   - VOP3 ABS/NEG act on the sign bit of float sources before the
//     operation; CLAMP clamps a binary32 result to [+0, 1], NaN to +0 when
//     DX10_CLAMP is set;
//   - a NaN result is compared as "is a NaN" for arithmetic (payloads are
//     unspecified), bit-exactly for min/max (which select an operand);
//   - transcendentals (exp, log, rcp, rsq, sqrt) are checked to 1 ulp of the
//     exact value computed in double, with tiny results allowed to flush.
#ifndef REDLINE_SIM_ORACLE_ORACLE_MODEL_H_
#define REDLINE_SIM_ORACLE_ORACLE_MODEL_H_

#include <stdbool.h>
#include <stdint.h>

// Mode bits.
enum {
  RL_HM_MODE_FTZ32 = 1u << 0,
  RL_HM_MODE_IEEE = 1u << 1,
  RL_HM_MODE_DX10 = 1u << 2,
};

// Operand-shape flags of a model entry.
enum {
  RL_HM_SALU = 1u << 0,      // scalar ALU (else vector)
  RL_HM_CIN = 1u << 1,       // VALU: reads a lane mask (carry-in, select)
  RL_HM_COUT = 1u << 2,      // VALU: writes a lane mask (carry-out, sdst)
  RL_HM_SCC_IN = 1u << 3,    // SALU: reads SCC
  RL_HM_SCC_OUT = 1u << 4,   // SALU: writes SCC
  RL_HM_ACC = 1u << 5,       // the destination is also source 2
  RL_HM_K = 1u << 6,         // source 2 is the literal K (fmaak/fmamk)
  RL_HM_CMP = 1u << 7,       // a compare: only the mask / SCC result
  RL_HM_CMPX = 1u << 8,      // VALU compare that writes EXEC
  RL_HM_NO_DST = 1u << 9,    // SALU: no destination register
  RL_HM_SOPK = 1u << 10,     // SALU: source 0 is the destination, source 1
                             // the 16-bit immediate
  RL_HM_SALU_FLOAT = 1u << 11,  // needs gfx1150+
  RL_HM_NAN_ANY = 1u << 12,  // a NaN result matches any NaN
  RL_HM_TRANS = 1u << 13,    // transcendental: 1 ulp
  RL_HM_PACKED = 1u << 14,   // VOP3P: two 16-bit halves
  RL_HM_NO_INLINE = 1u << 15,  // no inline-constant / literal forms (the
                               // 16-bit float constants are not modelled)
  RL_HM_ICLAMP = 1u << 16,   // VOP3 CLAMP saturates the integer result
};

// One lane (or one scalar operand set): sources as 64-bit values (32-bit
// operands in the low half), the mask bit / SCC in, results.
typedef struct rl_hm_lane_s {
  uint64_t s[3];
  uint32_t cin;  // carry-in / select bit (VALU) or SCC (SALU)
  uint64_t d;    // destination before (ACC, s_cmov) and after
  uint32_t cout; // mask bit (VALU) or SCC (SALU) after
  uint32_t lane; // VALU: the lane's index in its wave32 (v_mbcnt)
  bool clamp;    // RL_HM_ICLAMP opcodes: the CLAMP bit (set by eval)
} rl_hm_lane_t;

typedef struct rl_hm_op_s rl_hm_op_t;
typedef void (*rl_hm_fn)(const rl_hm_op_t* op, uint32_t mode,
                         rl_hm_lane_t* x);

struct rl_hm_op_s {
  const char* name;
  uint8_t nsrc;   // sources read
  uint8_t wide;   // bit n: source n is 64-bit; bit 3: the destination;
                  // bits 4-7: binary16 (RL_HM_H16_*)
  uint8_t fp;     // bit n: source n is a float (ABS/NEG apply); bit 3: the
                  // destination is binary32 (CLAMP applies)
  uint32_t flags; // RL_HM_*
  rl_hm_fn fn;
  uint32_t arg;
};

#define RL_HM_DST_BIT 3
// |wide| bits 4..6: source n is a binary16 in the low half (ABS/NEG act on
// bit 15); bit 7: the destination is a binary16 low half (the high half
// keeps its old value, NaNs compared as "is a NaN" under RL_HM_NAN_ANY).
#define RL_HM_H16_SRC(n) (1u << (4 + (n)))
#define RL_HM_H16_DST (1u << 7)

// The model of mnemonic |name| (compares are parsed from the name), or
// NULL. The returned pointer stays valid until the next call with a parsed
// name, so copy it if two are needed at once.
const rl_hm_op_t* rl_hm_find(const char* name);

// The same as a value the caller owns (false: no model of |name|): safe
// from several threads at once, which rl_hm_find() is not.
bool rl_hm_lookup(const char* name, rl_hm_op_t* out);

// Evaluates |op| on |x| with VOP3 modifiers |abs|/|neg| (bit n for source
// n, floats only) and |clamp|.
void rl_hm_eval(const rl_hm_op_t* op, uint32_t mode, uint32_t abs,
                uint32_t neg, bool clamp, rl_hm_lane_t* x);

// VOP3 CLAMP of a binary32 result: [+0, 1], NaN to +0 under DX10_CLAMP.
uint32_t rl_hm_clamp_f32(uint32_t mode, uint32_t d);

// Whether |got| matches the model's |want| for the destination of |op|
// (NaN and ulp rules above).
bool rl_hm_match(const rl_hm_op_t* op, uint32_t mode, uint64_t want,
                 uint64_t got);

// VOP3P packed op: the 16-bit result of one half.
uint32_t rl_hm_packed(const rl_hm_op_t* op, uint32_t mode, uint32_t a,
                      uint32_t b);

// Memory helpers: the dword(s) a sub-dword load leaves in a VGPR, and the
// new memory value of an atomic: rl_hm_ds_atomic() for "ds_add_u32",
// "ds_max_rtn_i64", "ds_cmpstore_b32"... (|cmp| is DATA1),
// rl_hm_mem_atomic() for "global_atomic_*" / "flat_atomic_*" (|cmp| is the
// compare half of cmpswap's DATA). Both return false for an unknown name.
uint32_t rl_hm_load_extend(uint32_t raw, uint32_t size, bool sign);
bool rl_hm_ds_atomic(const char* name, uint64_t old, uint64_t data,
                     uint64_t cmp, uint64_t* out_new);
bool rl_hm_mem_atomic(const char* name, uint64_t old, uint64_t data,
                      uint64_t cmp, uint64_t* out_new);

#endif  // REDLINE_SIM_ORACLE_ORACLE_MODEL_H_
