// sim/cp/sim_pm4.c — the PM4 interpreter of the simulated command
// processor: IB fetching, nesting and chaining, and the non-dispatch
// packets (contract in sim/cp/sim_cp.h).
#include "sim/clock/sim_clock.h"
#include "sim/cp/sim_cp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// COPY_DATA SRC_SEL 1: TC_L2 (obsolete encoding) reads memory like 2
// (PAL MEC_COPY_DATA_src_sel_enum); pm4_packet.h names the others.
#define RL_SIM_PM4_SRC_TC_L2_OBSOLETE 1u

// One level of the IB stack: a host copy of the IB being executed.
typedef struct rl_sim_pm4_ib_s {
  uint64_t address;
  uint32_t size;  // dwords
  uint32_t offset;
  uint32_t* dwords;
} rl_sim_pm4_ib_t;

//===----------------------------------------------------------------------===//
// State and memory
//===----------------------------------------------------------------------===//

// Mask of the fields named in |names| (NULL-terminated) of register |index|.
static uint32_t rl_sim_pm4_mask(const rl_pm4_family_t* family, uint32_t index,
                                const char* const* names) {
  const rl_pm4_register_t* reg = rl_pm4_family_register(family, index);
  uint32_t mask = 0;
  for (uint32_t f = 0; reg && f < reg->field_count; ++f) {
    for (const char* const* name = names; *name; ++name) {
      if (strcmp(reg->fields[f].name, *name) != 0) continue;
      mask |= (uint32_t)(((1ull << reg->fields[f].width) - 1)
                         << reg->fields[f].shift);
    }
  }
  return mask;
}

// The GCR_CNTL fields the cache model acts on and their actions, in the
// order of rl_sim_pm4_state_t's *_gcr_mask arrays. Sources of what each bit
// does: Mesa radeonsi gfx10_emit_barrier and RADV
// gfx10_cs_emit_cache_flush.
static const struct {
  const char* name;
  uint32_t action;
} rl_sim_pm4_gcr_fields[6] = {
    {"GLV_INV", RL_SIM_CACHE_INV_GLV}, {"GLK_INV", RL_SIM_CACHE_INV_GLK},
    {"GLK_WB", RL_SIM_CACHE_WB_GLK},   {"GL1_INV", RL_SIM_CACHE_INV_GL1},
    {"GL2_INV", RL_SIM_CACHE_INV_GL2}, {"GL2_WB", RL_SIM_CACHE_WB_GL2},
};

// Fills |masks| with the mask of each rl_sim_pm4_gcr_fields entry in
// |reg| (0 when the family's table has no such field).
static void rl_sim_pm4_gcr_masks(const rl_pm4_register_t* reg,
                                 uint32_t masks[6]) {
  for (int k = 0; k < 6; ++k) {
    masks[k] = 0;
    for (uint32_t f = 0; reg && f < reg->field_count; ++f) {
      if (strcmp(reg->fields[f].name, rl_sim_pm4_gcr_fields[k].name) != 0) {
        continue;
      }
      masks[k] = (uint32_t)(((1ull << reg->fields[f].width) - 1)
                            << reg->fields[f].shift);
    }
  }
}

static rl_status_t rl_sim_pm4_state_create(rl_sim_queue_t* queue,
                                           rl_sim_pm4_state_t** out_state) {
  const rl_pm4_family_t* family = NULL;
  RL_RETURN_IF_ERROR(
      rl_pm4_family_for_processor(queue->device->processor, &family));
  rl_sim_pm4_state_t* state = calloc(1, sizeof(*state));
  if (state == NULL) return rl_status_out_of_memory();
  state->family = family;
  // The fields AMDGPUUsage's rsrc tables mark "CP sets"; only those the
  // family's table names exist (gfx12 reuses RSRC2 bit 6 and RSRC3 10/11).
  static const char* const rsrc1[] = {"PRIORITY", "PRIV",      "DEBUG_MODE",
                                      "BULKY",    "CDBG_USER", NULL};
  static const char* const rsrc2[] = {"TRAP_PRESENT", "EXCP_EN_MSB", "LDS_SIZE",
                                      NULL};
  static const char* const rsrc3[] = {"TRAP_ON_START", "TRAP_ON_END", NULL};
  state->rsrc1_cp_mask = rl_sim_pm4_mask(family, family->regs.pgm_rsrc1, rsrc1);
  state->rsrc2_cp_mask =
      rl_sim_pm4_mask(family, family->regs.pgm_rsrc1 + 1, rsrc2);
  state->rsrc3_cp_mask = rl_sim_pm4_mask(family, family->regs.pgm_rsrc3, rsrc3);
  rl_sim_pm4_gcr_masks(family->acquire_gcr_cntl, state->acquire_gcr_mask);
  rl_sim_pm4_gcr_masks(family->release_gcr_cntl, state->release_gcr_mask);
  *out_state = state;
  return RL_OK;
}

void rl_sim_pm4_state_destroy(rl_sim_pm4_state_t* state) {
  if (state == NULL) return;
  for (uint32_t s = 0; s < state->stale_capacity; ++s) {
    rl_sim_range_set_deinit(&state->stale[s].writes);
  }
  free(state->stale);
  rl_sim_hazard_open_deinit(&state->open);
  free(state);
}

bool rl_sim_pm4_store(rl_sim_queue_t* queue, uint64_t address, const void* data,
                      uint32_t size) {
  rl_sim_memory_t* memory = &queue->device->memory;
  uint8_t* host = rl_sim_memory_translate(memory, address, size);
  if (host == NULL || (address & 3u) != 0) return false;
  for (uint32_t i = 0; i < size; i += 4) {
    uint32_t word;
    memcpy(&word, (const uint8_t*)data + i, 4);
    atomic_store_explicit((_Atomic uint32_t*)(host + i), word,
                          memory_order_release);
  }
  return true;
}

bool rl_sim_pm4_load(rl_sim_queue_t* queue, uint64_t address, void* out_data,
                     uint32_t size) {
  rl_sim_memory_t* memory = &queue->device->memory;
  uint8_t* host = rl_sim_memory_translate(memory, address, size);
  if (host == NULL || (address & 3u) != 0) return false;
  for (uint32_t i = 0; i < size; i += 4) {
    uint32_t word = atomic_load_explicit((_Atomic uint32_t*)(host + i),
                                         memory_order_acquire);
    memcpy((uint8_t*)out_data + i, &word, 4);
  }
  return true;
}

static rl_status_t rl_sim_pm4_vm_fault(rl_sim_pm4_exec_t* exec,
                                       const char* what, uint64_t address,
                                       uint32_t size) {
  exec->fault_address = address;
  char nearest[160];
  rl_sim_memory_describe(&exec->queue->device->memory, address, size, nearest,
                         sizeof(nearest));
  return RL_STATUS(RL_STATUS_POISONED,
                   "VM fault: %s of %u bytes at 0x%" PRIx64
                   " is not inside one live allocation (or not 4-byte "
                   "aligned)%s%s",
                   what, size, address, nearest[0] ? ": " : "", nearest);
}

//===----------------------------------------------------------------------===//
// Packets
//===----------------------------------------------------------------------===//

static rl_status_t rl_sim_pm4_length(const rl_pm4_packet_t* packet,
                                     uint32_t expected) {
  if (packet->dwords == expected) return RL_OK;
  return RL_STATUS(RL_STATUS_CONTRACT, "packet of %u dwords, expected %u",
                   packet->dwords, expected);
}

static uint64_t rl_sim_pm4_address(const uint32_t* lo_hi) {
  return (uint64_t)lo_hi[0] | ((uint64_t)lo_hi[1] << 32);
}

static rl_status_t rl_sim_pm4_set_sh_reg(rl_sim_pm4_exec_t* exec,
                                         const rl_pm4_packet_t* packet) {
  if (packet->dwords < 3) return rl_sim_pm4_length(packet, 3);
  uint32_t control = packet->body[0];
  uint32_t index =
      RL_PM4_SH_REG_BASE + RL_PM4_GET(SET_SH_REG, REG_OFFSET, control);
  uint32_t count = packet->dwords - 2;
  if (RL_PM4_GET(SET_SH_REG, VMID_SHIFT, control) != 0 ||
      RL_PM4_GET(SET_SH_REG, INDEX, control) != 0) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "SET_SH_REG dword 1 is 0x%08x: INDEX and VMID_SHIFT are "
                     "not supported (expected 0)",
                     control);
  }
  if (index + count > RL_PM4_SH_REG_END) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "registers 0x%04x..0x%04x are outside the SH window "
                     "0x%04x..0x%04x",
                     index, index + count - 1, RL_PM4_SH_REG_BASE,
                     RL_PM4_SH_REG_END - 1);
  }
  rl_sim_pm4_state_t* state = exec->state;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t slot = index - RL_PM4_SH_REG_BASE + i;
    state->regs[slot] = packet->body[1 + i];
    state->written[slot / 64] |= 1ull << (slot % 64);
  }
  return RL_OK;
}

static rl_status_t rl_sim_pm4_dispatch_direct(rl_sim_pm4_exec_t* exec,
                                              const rl_pm4_packet_t* packet) {
  RL_RETURN_IF_ERROR(rl_sim_pm4_length(packet, 5));
  const uint32_t limit = exec->queue->device->options.max_dispatches;
  if (++exec->dispatches > limit) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "more than %u dispatches in one PM4-IB packet: the "
                     "work cap (rl_sim_options_t.max_dispatches) refuses "
                     "the next one before it runs",
                     limit);
  }
  rl_sim_launch_t launch;
  RL_RETURN_IF_ERROR(
      rl_sim_pm4_dispatch_launch(exec, packet->body, packet->body[3], &launch));
  return rl_sim_pm4_batch_launch(exec, &launch);
}

static rl_status_t rl_sim_pm4_event_write(rl_sim_pm4_exec_t* exec,
                                          const rl_pm4_packet_t* packet) {
  RL_RETURN_IF_ERROR(rl_sim_pm4_length(packet, 2));
  uint32_t type = RL_PM4_GET(EVENT_WRITE, EVENT_TYPE, packet->body[0]);
  uint32_t index = RL_PM4_GET(EVENT_WRITE, EVENT_INDEX, packet->body[0]);
  if (type != RL_PM4_EVENT_CS_PARTIAL_FLUSH ||
      index != RL_PM4_EVENT_INDEX_PARTIAL_FLUSH) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "event type 0x%02x index %u is not supported (only "
                     "CS_PARTIAL_FLUSH, type 7 index 4)",
                     type, index);
  }
  return rl_sim_pm4_batch_idle(exec);
}

// The cache-model actions of a GCR_CNTL word (ACQUIRE_MEM dword 7, or
// RELEASE_MEM dword 1 >> 12), decoded with the family's field table
// (pm4_family_gfx11.c / _gfx12.c cite nvd.h and PAL), through the masks
// the state resolved at creation. Range fields are ignored: every action
// covers all lines, which is what the full-range packets drivers and
// redline emit ask for.
static uint32_t rl_sim_pm4_gcr_actions(const uint32_t masks[6], uint32_t gcr) {
  uint32_t actions = 0;
  for (int k = 0; k < 6; ++k) {
    if (gcr & masks[k]) actions |= rl_sim_pm4_gcr_fields[k].action;
  }
  return actions;
}

static rl_status_t rl_sim_pm4_acquire_mem(rl_sim_pm4_exec_t* exec,
                                          const rl_pm4_packet_t* packet) {
  RL_RETURN_IF_ERROR(rl_sim_pm4_length(packet, 8));
  const rl_pm4_family_t* family = exec->state->family;
  uint32_t needed = family->gcr_acquire;
  uint32_t gcr = RL_PM4_GET(ACQUIRE_MEM, GCR_CNTL, packet->body[6]);
  if ((gcr & needed) == needed) {
    rl_sim_pm4_batch_acquire(exec->state);
  }
  // ACQUIRE_MEM does not wait for dispatches in flight (that is
  // CS_PARTIAL_FLUSH's job): the invalidation happens now, in CP order.
  rl_sim_cache_apply(&exec->queue->device->cache,
                     rl_sim_pm4_gcr_actions(exec->state->acquire_gcr_mask,
                                            gcr));
  return RL_OK;
}

static rl_status_t rl_sim_pm4_release_mem(rl_sim_pm4_exec_t* exec,
                                          const rl_pm4_packet_t* packet) {
  RL_RETURN_IF_ERROR(rl_sim_pm4_length(packet, 8));
  uint32_t index = RL_PM4_GET(RELEASE_MEM, EVENT_INDEX, packet->body[0]);
  uint32_t dst_sel = RL_PM4_GET(RELEASE_MEM, DST_SEL, packet->body[1]);
  rl_sim_pm4_release_t release = {
      .data_sel = RL_PM4_GET(RELEASE_MEM, DATA_SEL, packet->body[1]),
      .address = rl_sim_pm4_address(&packet->body[2]),
      .data = rl_sim_pm4_address(&packet->body[4]),
      .cache_actions = rl_sim_pm4_gcr_actions(
          exec->state->release_gcr_mask,
          packet->body[0] >> RL_PM4_RELEASE_MEM_GCR_CNTL_SHIFT),
  };
  if ((index != RL_PM4_EVENT_INDEX_END_OF_PIPE &&
       index != RL_PM4_EVENT_INDEX_SHADER_DONE) ||
      dst_sel > 1 || release.data_sel > RL_PM4_DATA_SEL_GPU_CLOCK) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "EVENT_INDEX %u, DST_SEL %u, DATA_SEL %u: supported are "
                     "index 5/6, memory, data 0..3",
                     index, dst_sel, release.data_sel);
  }
  uint32_t size = release.data_sel == 1 ? 4u : 8u;
  uint64_t probe = 0;
  if (release.data_sel != 0 &&
      ((release.address & (size - 1)) != 0 ||
       !rl_sim_pm4_load(exec->queue, release.address, &probe, size))) {
    return rl_sim_pm4_vm_fault(exec, "RELEASE_MEM write", release.address,
                               size);
  }
  return rl_sim_pm4_batch_release(exec, &release);
}

static rl_status_t rl_sim_pm4_wait_reg_mem(rl_sim_pm4_exec_t* exec,
                                           const rl_pm4_packet_t* packet) {
  RL_RETURN_IF_ERROR(rl_sim_pm4_length(packet, 7));
  uint32_t control = packet->body[0];
  uint32_t function = RL_PM4_GET(WAIT_REG_MEM, FUNCTION, control);
  uint32_t space = RL_PM4_GET(WAIT_REG_MEM, MEM_SPACE, control);
  uint32_t operation = RL_PM4_GET(WAIT_REG_MEM, OPERATION, control);
  if (function == 7 || space != 1 || operation != 0) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "FUNCTION %u, MEM_SPACE %u, OPERATION %u: supported are "
                     "function 0..6 on memory (1) with operation wait (0)",
                     function, space, operation);
  }
  return rl_sim_pm4_batch_wait(exec, rl_sim_pm4_address(&packet->body[1]),
                               function, packet->body[3], packet->body[4]);
}

static rl_status_t rl_sim_pm4_write_data(rl_sim_pm4_exec_t* exec,
                                         const rl_pm4_packet_t* packet) {
  if (packet->dwords < 5) return rl_sim_pm4_length(packet, 5);
  uint32_t dst_sel = RL_PM4_GET(WRITE_DATA, DST_SEL, packet->body[0]);
  bool fixed = RL_PM4_GET(WRITE_DATA, ADDR_INCR, packet->body[0]);
  uint64_t address = rl_sim_pm4_address(&packet->body[1]);
  uint32_t count = packet->dwords - 4;
  if (dst_sel != RL_PM4_SEL_TC_L2 && dst_sel != RL_PM4_SEL_MEMORY) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "DST_SEL %u is not supported (only 2 and 5: memory)",
                     dst_sel);
  }
  uint32_t span = fixed ? 4u : 4u * count;
  uint32_t probe[1];
  if (!rl_sim_pm4_load(exec->queue, address, probe, 4) ||
      rl_sim_memory_translate(&exec->queue->device->memory, address, span) ==
          NULL) {
    return rl_sim_pm4_vm_fault(exec, "WRITE_DATA", address, span);
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t at = fixed ? address : address + 4ull * i;
    if (!rl_sim_pm4_store(exec->queue, at, &packet->body[3 + i], 4)) {
      return rl_sim_pm4_vm_fault(exec, "WRITE_DATA", at, 4);
    }
  }
  return RL_OK;
}

static rl_status_t rl_sim_pm4_copy_data(rl_sim_pm4_exec_t* exec,
                                        const rl_pm4_packet_t* packet) {
  RL_RETURN_IF_ERROR(rl_sim_pm4_length(packet, 6));
  uint32_t src_sel = RL_PM4_GET(COPY_DATA, SRC_SEL, packet->body[0]);
  uint32_t dst_sel = RL_PM4_GET(COPY_DATA, DST_SEL, packet->body[0]);
  uint32_t size = RL_PM4_GET(COPY_DATA, COUNT_SEL, packet->body[0]) ? 8u : 4u;
  uint64_t src = rl_sim_pm4_address(&packet->body[1]);
  uint64_t dst = rl_sim_pm4_address(&packet->body[3]);
  uint64_t value = 0;
  if (dst_sel != RL_PM4_SEL_TC_L2 && dst_sel != RL_PM4_SEL_MEMORY) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "DST_SEL %u is not supported (only 2 and 5: memory)",
                     dst_sel);
  }
  if (src_sel == RL_PM4_SEL_GPU_CLOCK) {
    value = rl_sim_timestamp(&exec->queue->device->base);
  } else if (src_sel == RL_PM4_SEL_IMMEDIATE) {
    value = src;
  } else if (src_sel == RL_SIM_PM4_SRC_TC_L2_OBSOLETE ||
             src_sel == RL_PM4_SEL_TC_L2) {
    if (!rl_sim_pm4_load(exec->queue, src, &value, size)) {
      return rl_sim_pm4_vm_fault(exec, "COPY_DATA read", src, size);
    }
  } else {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "SRC_SEL %u is not supported (1/2 memory, 5 immediate, "
                     "9 GPU clock)",
                     src_sel);
  }
  if ((dst & (size - 1)) != 0 ||
      !rl_sim_pm4_store(exec->queue, dst, &value, size)) {
    return rl_sim_pm4_vm_fault(exec, "COPY_DATA write", dst, size);
  }
  return RL_OK;
}

static rl_status_t rl_sim_pm4_execute(rl_sim_pm4_exec_t* exec,
                                      const rl_pm4_packet_t* packet) {
  switch (packet->opcode) {
    case RL_PM4_NOP:
      return RL_OK;
    case RL_PM4_SET_SH_REG:
      return rl_sim_pm4_set_sh_reg(exec, packet);
    case RL_PM4_DISPATCH_DIRECT:
      return rl_sim_pm4_dispatch_direct(exec, packet);
    case RL_PM4_EVENT_WRITE:
      return rl_sim_pm4_event_write(exec, packet);
    case RL_PM4_ACQUIRE_MEM:
      return rl_sim_pm4_acquire_mem(exec, packet);
    case RL_PM4_RELEASE_MEM:
      return rl_sim_pm4_release_mem(exec, packet);
    case RL_PM4_WAIT_REG_MEM:
      return rl_sim_pm4_wait_reg_mem(exec, packet);
    case RL_PM4_WRITE_DATA:
      return rl_sim_pm4_write_data(exec, packet);
    case RL_PM4_COPY_DATA:
      return rl_sim_pm4_copy_data(exec, packet);
    default:
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "unknown or unsupported opcode 0x%02x (header "
                       "0x%08x)",
                       packet->opcode, packet->header);
  }
}

//===----------------------------------------------------------------------===//
// IBs
//===----------------------------------------------------------------------===//

// Copies the IB [address, +4 * size) into |ib| (freeing what it held).
static rl_status_t rl_sim_pm4_ib_fetch(rl_sim_pm4_exec_t* exec,
                                       rl_sim_pm4_ib_t* ib, uint64_t address,
                                       uint32_t size) {
  free(ib->dwords);
  *ib = (rl_sim_pm4_ib_t){address, size, 0, malloc(4ull * size)};
  if (ib->dwords == NULL) return rl_status_out_of_memory();
  if ((address & 3u) == 0 &&
      rl_sim_memory_copy_out(&exec->queue->device->memory, address, ib->dwords,
                             4ull * size)) {
    return RL_OK;
  }
  return rl_sim_pm4_vm_fault(exec, "IB fetch", address, 4u * size);
}

// INDIRECT_BUFFER inside an IB: returns the target through the out params.
static rl_status_t rl_sim_pm4_ib_target(const rl_pm4_packet_t* packet,
                                        uint64_t* out_address,
                                        uint32_t* out_size, bool* out_chain) {
  RL_RETURN_IF_ERROR(rl_sim_pm4_length(packet, 4));
  uint32_t control = packet->body[2];
  *out_address = rl_sim_pm4_address(&packet->body[0]);
  *out_size = RL_PM4_GET(INDIRECT_BUFFER, IB_SIZE, control);
  *out_chain = RL_PM4_GET(INDIRECT_BUFFER, CHAIN, control) != 0;
  if (!RL_PM4_GET(INDIRECT_BUFFER, VALID, control) || *out_size == 0 ||
      (*out_address & 3u) != 0 || (*out_address >> 48) != 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "INDIRECT_BUFFER of 0x%" PRIx64
                     " control 0x%08x: expected VALID (bit 23), a nonzero "
                     "size and a dword-aligned 48-bit address",
                     *out_address, control);
  }
  return RL_OK;
}

// Enters the IB an INDIRECT_BUFFER names: chained (replaces the top of the
// stack) or nested (pushed).
static rl_status_t rl_sim_pm4_ib_enter(rl_sim_pm4_exec_t* exec,
                                       rl_sim_pm4_ib_t* stack, uint32_t* depth,
                                       const rl_pm4_packet_t* packet) {
  uint64_t address = 0;
  uint32_t size = 0;
  bool chain = false;
  RL_RETURN_IF_ERROR(rl_sim_pm4_ib_target(packet, &address, &size, &chain));
  if (chain && ++exec->chains > RL_SIM_PM4_MAX_CHAINS) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "more than %u chained IBs in one AQL packet (an IB "
                     "chain loop?)",
                     RL_SIM_PM4_MAX_CHAINS);
  }
  if (chain)
    return rl_sim_pm4_ib_fetch(exec, &stack[*depth - 1], address, size);
  if (*depth == RL_SIM_PM4_MAX_DEPTH) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "INDIRECT_BUFFER nesting deeper than %u levels",
                     RL_SIM_PM4_MAX_DEPTH);
  }
  return rl_sim_pm4_ib_fetch(exec, &stack[(*depth)++], address, size);
}

// Decodes and executes the packet at the top of the stack.
static rl_status_t rl_sim_pm4_ib_step(rl_sim_pm4_exec_t* exec,
                                      rl_sim_pm4_ib_t* stack, uint32_t* depth,
                                      uint32_t* packets) {
  rl_sim_pm4_ib_t* ib = &stack[*depth - 1];
  exec->ib_address = ib->address;
  exec->offset = ib->offset;
  exec->opcode = UINT32_MAX;
  exec->fault_address = ib->address + 4ull * ib->offset;
  if (++*packets > RL_SIM_PM4_MAX_PACKETS) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "more than %u PM4 packets in one AQL packet (an IB "
                     "chain loop?)",
                     RL_SIM_PM4_MAX_PACKETS);
  }
  uint32_t header = ib->dwords[ib->offset];
  if (rl_pm4_header_type(header) == RL_PM4_TYPE3) {
    exec->opcode = rl_pm4_header_opcode(header);  // named by a decode fault
  }
  rl_pm4_packet_t packet;
  RL_RETURN_IF_ERROR(rl_pm4_decode_next(exec->state->family, ib->dwords,
                                        ib->size, ib->offset, &packet));
  ib->offset += packet.dwords;  // a nested IB returns to the next packet
  if (packet.type != RL_PM4_TYPE3) return RL_OK;  // type-2 filler
  if (packet.opcode == RL_PM4_INDIRECT_BUFFER) {
    return rl_sim_pm4_ib_enter(exec, stack, depth, &packet);
  }
  return rl_sim_pm4_execute(exec, &packet);
}

// Runs the IB at |address| to its end, nested and chained IBs included.
static rl_status_t rl_sim_pm4_ib_run(rl_sim_pm4_exec_t* exec, uint64_t address,
                                     uint32_t size) {
  rl_sim_pm4_ib_t stack[RL_SIM_PM4_MAX_DEPTH];
  memset(stack, 0, sizeof(stack));
  uint32_t depth = 1;
  uint32_t packets = 0;
  exec->ib_address = address;
  rl_status_t status = rl_sim_pm4_ib_fetch(exec, &stack[0], address, size);
  while (status == RL_OK && depth > 0 && !exec->stopped) {
    // Up to RL_SIM_PM4_MAX_PACKETS packets (a chain of IBs may loop):
    // the stop flag is re-checked every 4,096, as the dispatch loops do.
    if ((packets & 4095u) == 4095u &&
        atomic_load_explicit(&exec->queue->stop, memory_order_acquire)) {
      exec->stopped = true;
      break;
    }
    rl_sim_pm4_ib_t* ib = &stack[depth - 1];
    if (ib->offset >= ib->size) {
      free(ib->dwords);
      ib->dwords = NULL;
      --depth;
      continue;
    }
    status = rl_sim_pm4_ib_step(exec, stack, &depth, &packets);
  }
  for (uint32_t i = 0; i < RL_SIM_PM4_MAX_DEPTH; ++i) free(stack[i].dwords);
  return status;
}

//===----------------------------------------------------------------------===//
// The AQL packet
//===----------------------------------------------------------------------===//

static void rl_sim_pm4_fault(rl_sim_pm4_exec_t* exec, rl_status_t status) {
  char opcode[32] = "";
  const char* name =
      exec->opcode == UINT32_MAX ? NULL : rl_pm4_opcode_name(exec->opcode);
  if (exec->opcode != UINT32_MAX) {
    snprintf(opcode, sizeof(opcode), " %s", name ? name : "UNKNOWN");
    if (name == NULL) {
      snprintf(opcode, sizeof(opcode), " UNKNOWN(0x%02x)", exec->opcode);
    }
  }
  char what[192];
  snprintf(what, sizeof(what), "PM4 IB 0x%" PRIx64 " dword %u%s",
           exec->ib_address, exec->offset, opcode);
  rl_sim_queue_set_fault(exec->queue, exec->packet_id, exec->fault_address,
                         what, status);
}

bool rl_sim_pm4_execute_packet(rl_sim_queue_t* queue, uint64_t id,
                               const rl_aql_decoded_t* packet) {
  rl_sim_pm4_exec_t exec = {.queue = queue,
                            .packet_id = id,
                            .opcode = UINT32_MAX,
                            .ib_address = packet->ib_address};
  rl_status_t status = RL_OK;
  if (queue->pm4 == NULL) status = rl_sim_pm4_state_create(queue, &queue->pm4);
  exec.state = queue->pm4;
  if (status == RL_OK) {
    rl_sim_pm4_state_t* state = queue->pm4;
    // (The packet's acquire fence was applied by sim_cp.c.)
    state->rng = queue->device->options.seed ^
                 atomic_load(&queue->device->dispatch_count);
    status = rl_sim_pm4_ib_run(&exec, packet->ib_address, packet->ib_size_dw);
  }
  if (status == RL_OK && !exec.stopped) {
    // The end of the IB: a fault while its dispatches finish names the
    // end of the packet's IB.
    exec.ib_address = packet->ib_address;
    exec.offset = packet->ib_size_dw;
    exec.opcode = UINT32_MAX;
    status = rl_sim_pm4_batch_idle(&exec);
  }
  if (status != RL_OK || exec.stopped) {
    if (exec.state != NULL) rl_sim_pm4_batch_abandon(&exec);
    if (status == RL_OK) return true;  // stopping: leave unretired
    rl_sim_pm4_fault(&exec, status);
    return false;
  }
  rl_sim_cp_retire(queue, id, packet->completion_signal);
  return true;
}
