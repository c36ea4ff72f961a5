// sim/isa/isa_program.c — the predecoded program of a kernel and
// the process-wide program cache (isa_program.h has the contract).
#include "sim/isa/isa_program.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_image.h"

// Bytes fetched at a time while sweeping.
#define RL_ISA_FETCH_CHUNK 256u
// Programs kept in the cache; the oldest is dropped when it is full.
#define RL_ISA_CACHE_SLOTS 64u

// The growing code window of a sweep.
typedef struct rl_isa_sweep_s {
  uint64_t entry;
  rl_isa_fetch_fn fetch;
  void* context;
  uint32_t* words;
  uint32_t fetched;   // dwords read so far
  uint32_t capacity;  // dwords allocated
  bool exhausted;     // a fetch failed: no more code
} rl_isa_sweep_t;

static bool rl_isa_sweep_try(rl_isa_sweep_t* sweep, uint32_t dwords) {
  rl_status_t status = sweep->fetch(
      sweep->context, sweep->entry + (uint64_t)sweep->fetched * 4,
      sweep->words + sweep->fetched, dwords * 4);
  if (status != RL_OK) {
    rl_status_free(status);
    return false;
  }
  sweep->fetched += dwords;
  return true;
}

// Makes |needed| dwords available when memory allows; false on allocation
// failure only.
static bool rl_isa_sweep_ensure(rl_isa_sweep_t* sweep, uint32_t needed) {
  while (sweep->fetched < needed && !sweep->exhausted) {
    uint32_t chunk = RL_ISA_FETCH_CHUNK / 4;
    if (sweep->fetched + chunk > RL_ISA_PROGRAM_MAX_BYTES / 4) {
      sweep->exhausted = true;
      break;
    }
    if (sweep->fetched + chunk > sweep->capacity) {
      uint32_t capacity = sweep->capacity ? sweep->capacity * 2 : 1024;
      uint32_t* words = realloc(sweep->words, capacity * sizeof(uint32_t));
      if (words == NULL) return false;
      sweep->words = words;
      sweep->capacity = capacity;
    }
    // A whole chunk, else dword by dword up to the end of the allocation
    // (not just up to |needed|: the sweep is exhausted afterwards, so the
    // dwords after |needed| would otherwise never be read).
    if (rl_isa_sweep_try(sweep, chunk)) continue;
    while (sweep->fetched < sweep->capacity && rl_isa_sweep_try(sweep, 1)) {
    }
    sweep->exhausted = true;
  }
  return true;
}

static rl_status_t rl_isa_exec_past_end(rl_isa_wave_t* wave,
                                        const rl_isa_inst_t* inst) {
  (void)wave;
  return rl_isa_fault(inst, "execution ran past the predecoded code (no "
                            "s_endpgm on this path)");
}

static uint32_t rl_isa_type_regs(uint32_t type) {
  return type == RL_ISA_T_B64 || type == RL_ISA_T_F64 ? 2u : 1u;
}

static uint32_t rl_isa_max(uint32_t a, uint32_t b) { return a > b ? a : b; }

// One past the highest VGPR |inst| names.
static uint32_t rl_isa_inst_vgpr_end(const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  if (op == NULL) return 0;
  if (inst->encoding >= RL_ISA_ENC_DS && inst->encoding <= RL_ISA_ENC_MUBUF) {
    return rl_isa_mem_vgpr_end(inst);
  }
  if (inst->encoding == RL_ISA_ENC_MIMG) return rl_isa_image_vgpr_end(inst);
  if (inst->encoding < RL_ISA_ENC_VOP1 || inst->encoding > RL_ISA_ENC_VOPD) {
    return 0;
  }
  uint32_t end = 0;
  for (uint32_t n = 0; n < 3; ++n) {
    if (inst->src[n].kind == RL_ISA_OPK_VGPR) {
      uint32_t type = op->src[n] ? op->src[n] : RL_ISA_T_B32;
      end = rl_isa_max(end, inst->src[n].reg + rl_isa_type_regs(type));
    }
    if (inst->src_y[n].kind == RL_ISA_OPK_VGPR) {
      end = rl_isa_max(end, inst->src_y[n].reg + 1u);
    }
  }
  bool sgpr_result = op->exec == rl_isa_exec_readfirstlane ||
                     op->exec == rl_isa_exec_readlane;
  if (op->dst != RL_ISA_T_NONE && !sgpr_result) {
    end = rl_isa_max(end, inst->dst + rl_isa_type_regs(op->dst));
  }
  if (inst->encoding == RL_ISA_ENC_VOPD) {
    end = rl_isa_max(end, rl_isa_max(inst->dst, inst->dst_y) + 1u);
  }
  return end;
}

// Picks the exec function of a decoded instruction.
static void rl_isa_bind(rl_isa_inst_t* inst, bool known) {
  inst->exec = rl_isa_exec_unsupported;
  if (known && inst->op->exec != NULL &&
      rl_isa_inst_unsupported_reason(inst) == NULL) {
    inst->exec = inst->op->exec;
    if (inst->dpp) {  // DPP source fetch
      inst->exec = inst->op->exec == rl_isa_exec_vopc ? rl_isa_exec_vopc_dpp
                                                      : rl_isa_exec_valu_dpp;
    } else if (rl_isa_valu_is_plain(inst)) {  // no modifier steps
      inst->exec = inst->op->exec == rl_isa_exec_vopc ? rl_isa_exec_vopc_plain
                                                      : rl_isa_exec_valu_plain;
    } else if (rl_isa_salu_plain(inst) != NULL) {  // no operand switch
      inst->exec = rl_isa_salu_plain(inst);
    }
  }
}

static rl_status_t rl_isa_program_push(rl_isa_program_t* program,
                                       uint32_t* capacity,
                                       const rl_isa_inst_t* inst) {
  if (program->count == *capacity) {
    uint32_t grown = *capacity ? *capacity * 2 : 256;
    rl_isa_inst_t* insts = realloc(program->insts, grown * sizeof(*insts));
    if (insts == NULL) return rl_status_out_of_memory();
    program->insts = insts;
    *capacity = grown;
  }
  program->insts[program->count++] = *inst;
  return RL_OK;
}

// ---------------------------------------------------------------------------
// Building: regions swept from the entry and from every call target found
// (see isa_program.h), then merged in address order.

// A decoded instruction and its device address, while building.
typedef struct rl_isa_item_s {
  uint64_t address;
  rl_isa_inst_t inst;
} rl_isa_item_t;

typedef struct rl_isa_region_s {
  uint64_t begin, end;  // [begin, end) swept
} rl_isa_region_t;

typedef struct rl_isa_builder_s {
  rl_isa_fetch_fn fetch;
  void* context;
  uint32_t features;
  rl_isa_item_t* items;
  uint32_t item_count, item_capacity;
  rl_isa_region_t regions[RL_ISA_PROGRAM_MAX_REGIONS];
  uint32_t region_count;
  uint64_t starts[RL_ISA_PROGRAM_MAX_REGIONS];  // call targets to sweep
  uint32_t start_count;
} rl_isa_builder_t;

static rl_status_t rl_isa_builder_add(rl_isa_builder_t* b, uint64_t address,
                                      const rl_isa_inst_t* inst) {
  if (b->item_count == b->item_capacity) {
    uint32_t grown = b->item_capacity ? b->item_capacity * 2 : 256;
    rl_isa_item_t* items = realloc(b->items, grown * sizeof(*items));
    if (items == NULL) return rl_status_out_of_memory();
    b->items = items;
    b->item_capacity = grown;
  }
  b->items[b->item_count].address = address;
  b->items[b->item_count].inst = *inst;
  ++b->item_count;
  return RL_OK;
}

// The region holding |address|, or NULL.
static const rl_isa_region_t* rl_isa_builder_region(const rl_isa_builder_t* b,
                                                    uint64_t address) {
  for (uint32_t r = 0; r < b->region_count; ++r) {
    if (address >= b->regions[r].begin && address < b->regions[r].end) {
      return &b->regions[r];
    }
  }
  return NULL;
}

static rl_status_t rl_isa_builder_target(rl_isa_builder_t* b,
                                         uint64_t target) {
  for (uint32_t i = 0; i < b->start_count; ++i) {
    if (b->starts[i] == target) return RL_OK;
  }
  if (b->start_count == RL_ISA_PROGRAM_MAX_REGIONS) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "isa executor: the code calls more than %u functions; "
                     "the predecoder follows at most that many",
                     RL_ISA_PROGRAM_MAX_REGIONS - 1);
  }
  b->starts[b->start_count++] = target;
  return RL_OK;
}

// Sweeps one region from |start| (see isa_program.h): stops at a block end
// no known branch target lies beyond, at code it cannot decode or fetch, or
// where an earlier region begins.
static rl_status_t rl_isa_sweep_region(rl_isa_builder_t* b, uint64_t start) {
  rl_isa_sweep_t sweep = {.entry = start, .fetch = b->fetch,
                          .context = b->context};
  rl_isa_callscan_t* scan = calloc(1, sizeof(*scan));
  if (scan == NULL) return rl_status_out_of_memory();
  rl_status_t status = RL_OK;
  uint32_t pc = 0;
  int64_t reach = 0;  // furthest branch target seen (bytes from |start|)
  for (;;) {
    if (pc > 0 && rl_isa_builder_region(b, start + pc) != NULL) break;
    if (!rl_isa_sweep_ensure(&sweep, pc / 4 + 3)) {
      status = rl_status_out_of_memory();
      break;
    }
    uint32_t available = sweep.fetched - pc / 4;
    if (available == 0) break;
    rl_isa_inst_t inst;
    bool known = rl_isa_decode(sweep.words + pc / 4, available, b->features,
                               &inst);
    rl_isa_bind(&inst, known);
    status = rl_isa_builder_add(b, start + pc, &inst);
    if (status != RL_OK || inst.size == 0) break;
    if (known && (inst.op->flags & RL_ISA_F_BRANCH)) {
      int64_t target = (int64_t)pc + 4 + (int64_t)inst.simm16 * 4;
      if (target > reach) reach = target;
    }
    uint64_t callee = 0;
    if (rl_isa_callscan_step(scan, &inst, start + pc, &callee)) {
      status = rl_isa_builder_target(b, callee);
      if (status != RL_OK) break;
    }
    pc += inst.size;
    if (known && (inst.op->flags & RL_ISA_F_ENDS_BLOCK) && pc > reach) break;
  }
  free(sweep.words);
  free(scan);
  b->regions[b->region_count++] = (rl_isa_region_t){start, start + pc};
  return status;
}

static int rl_isa_item_compare(const void* a, const void* b) {
  uint64_t x = ((const rl_isa_item_t*)a)->address;
  uint64_t y = ((const rl_isa_item_t*)b)->address;
  return x < y ? -1 : x > y;
}

static rl_isa_inst_t rl_isa_sentinel(uint32_t pc) {
  rl_isa_inst_t sentinel;
  memset(&sentinel, 0, sizeof(sentinel));
  sentinel.pc = pc;
  sentinel.target = -1;
  sentinel.exec = rl_isa_exec_past_end;
  return sentinel;
}

// Every region swept, the instructions merged in address order into
// |program|: a sentinel after each run of contiguous code.
static rl_status_t rl_isa_program_sweep(rl_isa_program_t* program,
                                        rl_isa_builder_t* b) {
  b->starts[b->start_count++] = program->entry_address;
  for (uint32_t next = 0; next < b->start_count; ++next) {
    uint64_t start = b->starts[next];
    if (rl_isa_builder_region(b, start) == NULL) {
      RL_RETURN_IF_ERROR(rl_isa_sweep_region(b, start));
      continue;
    }
    bool boundary = false;  // a call into code already swept
    for (uint32_t i = 0; i < b->item_count && !boundary; ++i) {
      boundary = b->items[i].address == start;
    }
    if (!boundary) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "isa executor: a call targets 0x%llx, which is not "
                       "an instruction boundary of the code swept from "
                       "the kernel entry 0x%llx",
                       (unsigned long long)start,
                       (unsigned long long)program->entry_address);
    }
  }
  qsort(b->items, b->item_count, sizeof(rl_isa_item_t), rl_isa_item_compare);
  const uint64_t base = b->items[0].address;
  const rl_isa_item_t* last = &b->items[b->item_count - 1];
  if (last->address + last->inst.size - base > RL_ISA_PROGRAM_MAX_BYTES) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "isa executor: the kernel and the functions it calls "
                     "span more than %u bytes of code",
                     RL_ISA_PROGRAM_MAX_BYTES);
  }
  program->base_address = base;
  uint32_t capacity = 0;
  for (uint32_t i = 0; i < b->item_count; ++i) {
    const rl_isa_item_t* item = &b->items[i];
    uint64_t end = item->address + item->inst.size;
    if (i + 1 < b->item_count && end > b->items[i + 1].address) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "isa executor: the code at 0x%llx (a call target) is "
                       "not an instruction boundary: it lies inside the "
                       "instruction at 0x%llx",
                       (unsigned long long)b->items[i + 1].address,
                       (unsigned long long)item->address);
    }
    rl_isa_inst_t inst = item->inst;
    inst.pc = (uint32_t)(item->address - base);
    if (item->address == program->entry_address) {
      program->entry_index = program->count;
    }
    if (inst.exec == rl_isa_exec_unsupported && program->unmodelled++ == 0) {
      program->first_unmodelled = program->count;
    }
    program->vgpr_end = rl_isa_max(program->vgpr_end,
                                   rl_isa_inst_vgpr_end(&inst));
    ++program->instructions;
    RL_RETURN_IF_ERROR(rl_isa_program_push(program, &capacity, &inst));
    if (inst.size == 0 || i + 1 == b->item_count ||
        end != b->items[i + 1].address) {
      rl_isa_inst_t sentinel = rl_isa_sentinel((uint32_t)(end - base));
      RL_RETURN_IF_ERROR(rl_isa_program_push(program, &capacity, &sentinel));
    }
  }
  program->code_bytes = (uint32_t)(last->address + last->inst.size - base);
  return RL_OK;
}

// Resolves branch targets to instruction indices and keeps the map of
// instruction starts for jumps (rl_isa_program_index).
static rl_status_t rl_isa_program_link(rl_isa_program_t* program) {
  uint32_t slots = program->code_bytes / 4 + 1;
  int32_t* index = malloc(slots * sizeof(int32_t));
  if (index == NULL) return rl_status_out_of_memory();
  for (uint32_t i = 0; i < slots; ++i) index[i] = -1;
  for (uint32_t i = 0; i < program->count; ++i) {
    const rl_isa_inst_t* inst = &program->insts[i];
    if (inst->exec == rl_isa_exec_past_end || inst->size == 0) continue;
    index[inst->pc / 4] = (int32_t)i;
  }
  for (uint32_t i = 0; i < program->count; ++i) {
    rl_isa_inst_t* inst = &program->insts[i];
    if (inst->op == NULL || !(inst->op->flags & RL_ISA_F_BRANCH)) continue;
    int64_t target = (int64_t)inst->pc + 4 + (int64_t)inst->simm16 * 4;
    if (target >= 0 && target < (int64_t)program->code_bytes) {
      inst->target = index[target / 4];
    }
  }
  program->index = index;
  // Runs of instructions without effect (isa_inst.h |nops|), from the back.
  for (uint32_t i = program->count; i-- > 0;) {
    rl_isa_inst_t* inst = &program->insts[i];
    bool nop = inst->exec == rl_isa_exec_nop;
    inst->nops = !nop ? 0 : 1 + (i + 1 < program->count ? inst[1].nops : 0);
    inst->stale = rl_isa_stale_kind(inst);
  }
  return RL_OK;
}

int32_t rl_isa_program_index(const rl_isa_program_t* program,
                             uint64_t address) {
  uint64_t offset = address - program->base_address;
  if (address < program->base_address || offset >= program->code_bytes ||
      (offset & 3) != 0) {
    return -1;
  }
  return program->index[offset / 4];
}

static void rl_isa_program_free(rl_isa_program_t* program) {
  if (program == NULL) return;
  free(program->insts);
  free(program->code);
  free(program->index);
  free(program);
}

rl_status_t rl_isa_program_build(uint64_t entry_address, uint32_t features,
                                 rl_isa_fetch_fn fetch, void* context,
                                 rl_isa_program_t** out_program) {
  *out_program = NULL;
  rl_isa_program_t* program = calloc(1, sizeof(*program));
  rl_isa_builder_t* builder = calloc(1, sizeof(*builder));
  if (program == NULL || builder == NULL) {
    free(program);
    free(builder);
    return rl_status_out_of_memory();
  }
  program->entry_address = entry_address;
  program->features = features;
  atomic_init(&program->refs, 1);
  builder->fetch = fetch;
  builder->context = context;
  builder->features = features;
  rl_status_t status = rl_isa_program_sweep(program, builder);
  free(builder->items);
  free(builder);
  if (status == RL_OK) {
    program->code = malloc(program->code_bytes ? program->code_bytes : 4);
    if (program->code == NULL) status = rl_status_out_of_memory();
  }
  if (status == RL_OK && program->code_bytes > 0) {
    status = fetch(context, program->base_address, program->code,
                   program->code_bytes);
  }
  if (status == RL_OK) status = rl_isa_program_link(program);
  if (status != RL_OK) {
    rl_isa_program_free(program);
    return status;
  }
  *out_program = program;
  return RL_OK;
}

void rl_isa_program_release(rl_isa_program_t* program) {
  if (program == NULL) return;
  if (atomic_fetch_sub(&program->refs, 1) == 1) rl_isa_program_free(program);
}

// ---------------------------------------------------------------------------
// Cache.

static pthread_mutex_t rl_isa_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static rl_isa_program_t* rl_isa_cache[RL_ISA_CACHE_SLOTS];
static uint32_t rl_isa_cache_next;  // the slot to replace next
static atomic_ullong rl_isa_cache_builds;

// A referenced cached program for (|entry|, |features|), or NULL.
static rl_isa_program_t* rl_isa_cache_find(uint64_t entry, uint32_t features) {
  rl_isa_program_t* found = NULL;
  pthread_mutex_lock(&rl_isa_cache_lock);
  for (uint32_t i = 0; i < RL_ISA_CACHE_SLOTS && !found; ++i) {
    rl_isa_program_t* p = rl_isa_cache[i];
    if (p && p->entry_address == entry && p->features == features) {
      atomic_fetch_add(&p->refs, 1);
      found = p;
    }
  }
  pthread_mutex_unlock(&rl_isa_cache_lock);
  return found;
}

// Puts |program| in the cache, replacing any entry for the same key.
static void rl_isa_cache_insert(rl_isa_program_t* program) {
  rl_isa_program_t* dropped = NULL;
  pthread_mutex_lock(&rl_isa_cache_lock);
  uint32_t slot = rl_isa_cache_next;
  for (uint32_t i = 0; i < RL_ISA_CACHE_SLOTS; ++i) {
    rl_isa_program_t* p = rl_isa_cache[i];
    if (p && p->entry_address == program->entry_address &&
        p->features == program->features) {
      slot = i;
      break;
    }
  }
  if (slot == rl_isa_cache_next) {
    rl_isa_cache_next = (rl_isa_cache_next + 1) % RL_ISA_CACHE_SLOTS;
  }
  dropped = rl_isa_cache[slot];
  atomic_fetch_add(&program->refs, 1);
  rl_isa_cache[slot] = program;
  pthread_mutex_unlock(&rl_isa_cache_lock);
  rl_isa_program_release(dropped);
}

// True when the device still holds the bytes |program| was built from.
static bool rl_isa_program_current(const rl_isa_program_t* program,
                                   rl_isa_fetch_fn fetch, void* context) {
  if (program->code_bytes == 0) return false;
  uint32_t* bytes = malloc(program->code_bytes);
  if (bytes == NULL) return false;
  rl_status_t status = fetch(context, program->base_address, bytes,
                             program->code_bytes);
  bool same = status == RL_OK &&
              memcmp(bytes, program->code, program->code_bytes) == 0;
  rl_status_free(status);
  free(bytes);
  return same;
}

rl_status_t rl_isa_program_get(uint64_t entry_address, uint32_t features,
                               rl_isa_fetch_fn fetch, void* context,
                               rl_isa_program_t** out_program) {
  *out_program = NULL;
  rl_isa_program_t* program = rl_isa_cache_find(entry_address, features);
  if (program && rl_isa_program_current(program, fetch, context)) {
    *out_program = program;
    return RL_OK;
  }
  rl_isa_program_release(program);
  RL_RETURN_IF_ERROR(rl_isa_program_build(entry_address, features, fetch,
                                          context, &program));
  atomic_fetch_add(&rl_isa_cache_builds, 1);
  rl_isa_cache_insert(program);
  *out_program = program;
  return RL_OK;
}

void rl_isa_program_cache_clear(void) {
  rl_isa_program_t* dropped[RL_ISA_CACHE_SLOTS];
  pthread_mutex_lock(&rl_isa_cache_lock);
  for (uint32_t i = 0; i < RL_ISA_CACHE_SLOTS; ++i) {
    dropped[i] = rl_isa_cache[i];
    rl_isa_cache[i] = NULL;
  }
  rl_isa_cache_next = 0;
  pthread_mutex_unlock(&rl_isa_cache_lock);
  for (uint32_t i = 0; i < RL_ISA_CACHE_SLOTS; ++i) {
    rl_isa_program_release(dropped[i]);
  }
}

uint64_t rl_isa_program_builds(void) {
  return atomic_load(&rl_isa_cache_builds);
}
