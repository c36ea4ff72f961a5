// sim/isa/isa_stale.c — which of the cache model's stale reads the
// ISA executor reports: all of them, except the first read of a
// compare-and-swap loop (docs/cache-model.md, "Compare-and-swap loops").
//
// clang lowers a float or double atomicAdd on gfx11/gfx12 (no returning
// global float add there) with LLVM's expandAtomicRMWToCmpXchg
// (llvm/lib/CodeGen/AtomicExpandPass.cpp): a plain load of the address
// supplies the first expected value, then global_atomic_cmpswap (with
// return) is retried with the value each failed attempt returns. The
// compare-and-swap is performed at the L2 (isa_atomic.c), so a stale first
// value only makes the first attempt fail and costs one retry.
//
// The rule. While the device runs the cache model, the stale-read findings
// of a wave's plain loads (FLAT/GLOBAL loads, SMEM loads) are held back with
// the bytes the load returned (rl_sim_cache_defer). The wave then runs on.
// ALU instructions, branches, waits and further plain loads keep the value
// in registers, where nothing outside the wave can see it. The first
// instruction that can let a value out of the wave's registers — a store,
// an atomic, an LDS or scratch access, an export or s_endpgm — decides:
//   - a FLAT/GLOBAL atomic_cmpswap retracts each held read of this wave
//     every byte of which one of its active lanes addresses with exactly
//     those bytes, as the load returned them, in its compare operand;
//   - every other held read of the wave (and all of them at any other such
//     instruction) is reported, as the model would have reported it at once:
//     one finding per cache line (and pair of dispatches), as the model
//     reports a line once per fill, however many lanes read it.
// Why this is sound for the retracted ones. Up to the compare-and-swap the
// stale value lived only in registers, so nothing outside the wave has
// seen it. The compare-and-swap reads the L2 itself: when the compare
// succeeds, memory held exactly the loaded bytes at that moment, so the
// load could as well have read them then (no store or atomic of the wave
// lay between the two to order it earlier); when it fails, nothing is
// written and the loop goes round with the value it returned. The rule
// does not follow the value through registers: a wave that copies a stale
// value, passes a failed compare-and-swap on the same bytes and only then
// stores the copy is not reported. clang's loop replaces the value with the
// returned one, so this needs hand-written code; a store or any other
// atomic before the compare-and-swap is always reported.
#include "sim/isa/isa_mem.h"

static bool rl_isa_stale_plain_load(const rl_isa_inst_t* inst) {
  if (inst->op == NULL) return false;
  if (inst->encoding == RL_ISA_ENC_SMEM) return true;  // s_load, s_buffer_load
  if (inst->encoding != RL_ISA_ENC_FLAT && inst->encoding != RL_ISA_ENC_GLOBAL)
    return false;
  const uint32_t arg = inst->op->arg;
  return RL_ISA_MEM_KIND(arg) == RL_ISA_MEM_LOAD && RL_ISA_MEM_SIZE(arg) != 0;
}

// An instruction that can let a register value out of the wave.
static bool rl_isa_stale_escapes(const rl_isa_inst_t* inst) {
  if (inst->exec == rl_isa_exec_endpgm) return true;
  switch (inst->encoding) {
    case RL_ISA_ENC_DS:
    case RL_ISA_ENC_FLAT:
    case RL_ISA_ENC_GLOBAL:
    case RL_ISA_ENC_SCRATCH:
    case RL_ISA_ENC_MUBUF:
    case RL_ISA_ENC_MTBUF:
    case RL_ISA_ENC_MIMG:
    case RL_ISA_ENC_EXP:
    case RL_ISA_ENC_LDSDIR:
      return !rl_isa_stale_plain_load(inst);
    default:
      return false;
  }
}

static bool rl_isa_stale_cmpswap(const rl_isa_inst_t* inst) {
  if (inst->op == NULL || (inst->encoding != RL_ISA_ENC_FLAT &&
                           inst->encoding != RL_ISA_ENC_GLOBAL)) {
    return false;
  }
  const uint32_t arg = inst->op->arg;
  return RL_ISA_MEM_KIND(arg) == RL_ISA_MEM_ATOM &&
         RL_ISA_MEM_ATOMIC(arg) == RL_ISA_ATOM_CMPSWAP;
}

// True when every byte of |read| is addressed by an active lane of the
// compare-and-swap |inst| whose compare operand holds that byte as the load
// returned it.
static bool rl_isa_stale_covered(const rl_isa_wave_t* wave,
                                 const rl_isa_inst_t* inst,
                                 const uint64_t* address,
                                 const rl_sim_deferred_read_t* read) {
  const uint32_t size = RL_ISA_MEM_SIZE(inst->op->arg);  // 4 or 8
  const uint32_t cmp = inst->data0 + size / 4;  // DATA, then CMP (isa_atomic.c)
  uint8_t covered[RL_SIM_DEFERRED_BYTES] = {0};
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  while (exec) {
    uint32_t lane = (uint32_t)__builtin_ctz(exec);
    exec &= exec - 1;
    uint32_t words[2] = {wave->vgpr[cmp][lane],
                         size == 8 ? wave->vgpr[cmp + 1][lane] : 0};
    const uint8_t* bytes = (const uint8_t*)words;
    uint64_t a = address[lane];
    uint64_t first = a > read->address ? a : read->address;
    uint64_t last = a + size < read->address + read->size
                        ? a + size
                        : read->address + read->size;
    for (uint64_t b = first; b < last; ++b) {
      if (bytes[b - a] == read->bytes[b - read->address]) {
        covered[b - read->address] = 1;
      }
    }
  }
  for (uint32_t b = 0; b < read->size; ++b) {
    if (!covered[b]) return false;
  }
  return true;
}

// Decides this wave's held reads at |inst|, which lets values out.
static void rl_isa_stale_decide(rl_isa_wave_t* wave,
                                const rl_isa_inst_t* inst) {
  rl_sim_deferred_t* held = &wave->group->stale;
  bool cmpswap = rl_isa_stale_cmpswap(inst);
  uint64_t address[RL_ISA_LANES];
  if (cmpswap) rl_isa_flat_addresses(wave, inst, address);
  uint32_t i = 0;
  while (cmpswap && i < held->count) {
    const rl_sim_deferred_read_t* read = &held->reads[i];
    if (read->owner == wave->id &&
        rl_isa_stale_covered(wave, inst, address, read)) {
      rl_sim_deferred_retract(held, i);  // the last one moves to i
    } else {
      ++i;
    }
  }
  rl_sim_deferred_report_owner(held, wave->id);
}

// The RL_ISA_STALE_* bits of |inst|, once per instruction by the program
// builder (isa_program.c).
uint8_t rl_isa_stale_kind(const rl_isa_inst_t* inst) {
  return (uint8_t)((rl_isa_stale_plain_load(inst) ? RL_ISA_STALE_LOAD : 0) |
                   (rl_isa_stale_escapes(inst) ? RL_ISA_STALE_ESCAPES : 0));
}

rl_status_t rl_isa_stale_step(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  rl_sim_deferred_t* held = &wave->group->stale;
  if (held->count != 0 && (inst->stale & RL_ISA_STALE_ESCAPES)) {
    rl_isa_stale_decide(wave, inst);
  }
  if (!(inst->stale & RL_ISA_STALE_LOAD)) return inst->exec(wave, inst);
  held->owner = wave->id;
  rl_sim_cache_defer(held);
  rl_status_t status = inst->exec(wave, inst);
  rl_sim_cache_defer(NULL);
  return status;
}
