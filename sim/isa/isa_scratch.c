// sim/isa/isa_scratch.c — the private segment of the ISA executor:
// SCRATCH instructions and the per-lane private memory both they and FLAT
// accesses in the private aperture reach (isa_mem.h has the contract).
//
// Sources (docs/isa-scratch.md has the details): RDNA3 ISA guide, "Scratch
// (Private) Memory" and "Flat, Scratch and Global Instructions": a SCRATCH
// address is a per-work-item byte offset, the sum of SADDR (a 32-bit SGPR,
// or nothing when `off`), the 32-bit VGPR ADDR when SVE is set, and the
// signed 13-bit OFFSET; the hardware adds the wave's scratch base and
// interleaves the lanes, so each work-item sees its own private segment
// from offset 0. gfx11 has architected flat scratch (LLVM AMDGPUUsage,
// processor table and "Flat Scratch"): the CP/SPI sets the wave's scratch
// base; the kernel gets no flat scratch init or private segment buffer
// SGPRs and uses s32 (stack pointer) and s33 (frame pointer) as offsets.
// A private access past the dispatch's private_segment_size faults (the
// hardware would read zero / drop the write out of range, which a checker
// should not hide); so does a kernel that uses scratch without a private
// segment.
#include <inttypes.h>
#include <string.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_mem.h"

static rl_status_t rl_isa_private_fault(const rl_isa_wave_t* wave,
                                        const rl_isa_inst_t* inst,
                                        uint32_t lane, uint64_t offset,
                                        uint32_t size) {
  char where[160];
  rl_isa_inst_describe(inst, where, sizeof(where));
  return RL_STATUS(RL_STATUS_POISONED,
                   "private segment fault: %u-byte access at private offset "
                   "0x%" PRIx64 " (wave %u lane %u) is outside the %u-byte "
                   "private segment of the work-item (the dispatch's "
                   "private_segment_size): %s",
                   size, offset, wave->id, lane, wave->private_size, where);
}

rl_status_t rl_isa_private_lane_access(rl_isa_wave_t* wave,
                                       const rl_isa_inst_t* inst,
                                       uint32_t lane, uint64_t offset) {
  const uint32_t arg = inst->op->arg, size = RL_ISA_MEM_SIZE(arg);
  if (offset > wave->private_size || wave->private_size - offset < size) {
    return rl_isa_private_fault(wave, inst, lane, offset, size);
  }
  uint8_t* bytes = wave->private_mem + (size_t)lane * wave->private_size +
                   offset;
  if (RL_ISA_MEM_KIND(arg) == RL_ISA_MEM_STORE) {
    rl_isa_mem_store_lane(wave, inst, lane, bytes);
  } else {
    rl_isa_mem_load_lane(wave, inst, lane, bytes);
  }
  return RL_OK;
}

rl_status_t rl_isa_exec_scratch(rl_isa_wave_t* wave,
                                const rl_isa_inst_t* inst) {
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  const uint32_t base = inst->saddr == RL_ISA_SRC_NULL
                            ? 0u
                            : wave->sgpr[inst->saddr & 127];
  while (exec) {
    uint32_t lane = (uint32_t)__builtin_ctz(exec);
    exec &= exec - 1;
    // Offsets are 32-bit: a negative sum wraps far past any segment size
    // and faults.
    uint32_t offset = base + (inst->sve ? wave->vgpr[inst->addr][lane] : 0u) +
                      (uint32_t)inst->offset;
    RL_RETURN_IF_ERROR(rl_isa_private_lane_access(wave, inst, lane, offset));
  }
  return RL_OK;
}
