// sim/isa/isa_mem.h — what the vector-memory files of the ISA
// executor share (private to rl_sim_isa: isa_mem.c, isa_atomic.c,
// isa_permute.c; isa_valu.c asks rl_isa_ds_permute_reason): the layout of
// a DS/FLAT/GLOBAL opcode's |arg| and the per-lane addressing of
// FLAT/GLOBAL.
#ifndef REDLINE_SIM_ISA_ISA_MEM_H_
#define REDLINE_SIM_ISA_ISA_MEM_H_

#include "sim/isa/isa_exec.h"

// DS/FLAT |arg| layout: bytes per element [4:0], kind [7:5], sign-extend
// [8], stride64 [9], atomic operation [14:10] (isa_atomic.c).
#define RL_ISA_MEM_SIZE(arg) ((arg) & 31u)
#define RL_ISA_MEM_KIND(arg) (((arg) >> 5) & 7u)
#define RL_ISA_MEM_SIGNED 0x100u
#define RL_ISA_MEM_STRIDE64 0x200u
#define RL_ISA_MEM_ATOMIC(arg) (((arg) >> 10) & 31u)
#define RL_ISA_MEM_ARG(size, kind, flags) ((size) | ((kind) << 5) | (flags))
enum {
  RL_ISA_MEM_LOAD = 0,
  RL_ISA_MEM_STORE = 1,
  RL_ISA_MEM_LOAD2 = 2,
  RL_ISA_MEM_STORE2 = 3,
  RL_ISA_MEM_ATOM = 4,      // DS atomic without return; FLAT atomics (GLC
                            // selects the return)
  RL_ISA_MEM_ATOM_RTN = 5,  // DS atomic with return, ds_(b)permute
};

// Atomic operations (RL_ISA_MEM_ATOMIC).
enum {
  RL_ISA_ATOM_ADD = 0,
  RL_ISA_ATOM_SUB,
  RL_ISA_ATOM_RSUB,
  RL_ISA_ATOM_INC,
  RL_ISA_ATOM_DEC,
  RL_ISA_ATOM_MIN_I,
  RL_ISA_ATOM_MAX_I,
  RL_ISA_ATOM_MIN_U,
  RL_ISA_ATOM_MAX_U,
  RL_ISA_ATOM_AND,
  RL_ISA_ATOM_OR,
  RL_ISA_ATOM_XOR,
  RL_ISA_ATOM_SWAP,
  RL_ISA_ATOM_CMPSWAP,  // data is (new, compare): two operands
  RL_ISA_ATOM_ADD_F32,
  RL_ISA_ATOM_MIN_F32,
  RL_ISA_ATOM_MAX_F32,
  RL_ISA_ATOM_CSUB,     // subtract, clamped at 0
};

// 16-bit (d16) forms of LOAD/STORE (SCRATCH): the element is 1 or 2 bytes
// and lands in (or comes from) one half of the VGPR, the other half kept:
// D16 alone the low half, D16 | D16_HI the high half (bits [10] and [11],
// which only atomic kinds use for their operation).
#define RL_ISA_MEM_D16 0x400u
#define RL_ISA_MEM_D16_HI 0x800u

// The FLAT/GLOBAL GLC bit (inst->glc_slc_dlc bit 1): an atomic returns the
// old value to VDST when it is set.
#define RL_ISA_MEM_GLC 2u

// Why a DS instruction of isa_permute.c cannot run in the form |inst| has
// (ds_swizzle_b32's rotate and FFT modes); NULL when it can or when |inst|
// is another instruction.
const char* rl_isa_ds_permute_reason(const rl_isa_inst_t* inst);

// The 32 lane addresses of a FLAT/GLOBAL instruction (isa_mem.c).
void rl_isa_flat_addresses(const rl_isa_wave_t* wave,
                           const rl_isa_inst_t* inst, uint64_t* out_address);

// Moves one lane's element between VGPRs |vreg|.. and |bytes| (isa_mem.c):
// put widens sub-dword loads (sign-extended when |sign|), get takes the low
// |size| bytes of the registers.
void rl_isa_mem_put(rl_isa_wave_t* wave, uint32_t vreg, uint32_t lane,
                    const uint8_t* bytes, uint32_t size, bool sign);
void rl_isa_mem_get(const rl_isa_wave_t* wave, uint32_t vreg, uint32_t lane,
                    uint32_t size, uint8_t* out);

// One lane's element of a one-address load or store |inst| (its
// RL_ISA_MEM_ARG): load_lane writes the |bytes| read into the lane's
// destination VGPRs, store_lane the bytes to write from its data VGPRs. The
// d16 forms (RL_ISA_MEM_D16) move one 16-bit half of the VGPR and keep the
// other: loads of 8 bits zero- (u8) or sign-extended (i8) to 16 bits into
// the low half, or the high half with RL_ISA_MEM_D16_HI; stores of the high
// half's low 8 or 16 bits (RDNA3 ISA guide, "Flat, Global and Scratch
// instructions": the D16 and D16_HI load and store variants). Every
// FLAT/GLOBAL/SCRATCH and aperture path goes through these.
void rl_isa_mem_load_lane(rl_isa_wave_t* wave, const rl_isa_inst_t* inst,
                          uint32_t lane, const uint8_t* bytes);
void rl_isa_mem_store_lane(const rl_isa_wave_t* wave,
                           const rl_isa_inst_t* inst, uint32_t lane,
                           uint8_t* out);

// The DS loads and stores of |inst| lane by lane in lane order, each lane
// bounds-checked against the group segment (the first lane outside it
// faults, after the earlier lanes' accesses): the general path that
// rl_isa_exec_ds takes when a lane is outside, and the reference its
// whole-wave moves are tested against (isa_ds_wave_test).
rl_status_t rl_isa_exec_ds_lanes(rl_isa_wave_t* wave,
                                 const rl_isa_inst_t* inst);

// LDS through the shared aperture: one lane's load or store of |inst|'s
// element at LDS byte |address| (isa_mem.c).
rl_status_t rl_isa_lds_lane_access(rl_isa_wave_t* wave,
                                   const rl_isa_inst_t* inst, uint32_t lane,
                                   uint64_t address);

// The private segment (isa_scratch.c): one lane's load or store of
// |inst|'s element (LOAD/STORE kinds, d16 forms included) at byte |offset|
// of the lane's private segment, bounds-checked against the dispatch's
// private_segment_size (a fault names the lane, the offset and the size).
// SCRATCH instructions and FLAT addresses in the private aperture both
// come here, on gfx11 and gfx12.
rl_status_t rl_isa_private_lane_access(rl_isa_wave_t* wave,
                                       const rl_isa_inst_t* inst,
                                       uint32_t lane, uint64_t offset);

#endif  // REDLINE_SIM_ISA_ISA_MEM_H_
