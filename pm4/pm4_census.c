// The census of a lowered PM4 program (rl_pm4_program_check in
// pm4/pm4_lower.h): the whole IB is decoded back with the shared decoder
// (pm4/pm4_decode.h) while the SH register file is simulated, and what
// every dispatch sees is compared with what the inputs require; then the
// patch table (pm4_census_patch.c) and the vendor packet are checked.
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aql/aql_decode.h"
#include "capture/bind/launch_bind.h"
#include "base/test_fault.h"
#include "pm4/pm4_decode.h"
#include "pm4/pm4_lower_internal.h"

// One COPY_DATA a relayed binding needs (pm4_lower.h Relay): a 64-bit copy
// of an 8-aligned 8-byte site, else one per dword.
typedef struct rl_pm4_census_piece_s {
  uint32_t launch, binding;
  uint32_t offset;   // segment byte of the destination
  uint64_t src;      // the slot (dword) it must copy
  bool wide;         // COUNT_SEL 64 bits
  bool copied;
  uint32_t copied_at;  // IB dword of the copy
  uint32_t acquires;   // ACQUIRE_MEM packets before the copy
} rl_pm4_census_piece_t;

typedef struct rl_pm4_census_s {
  const rl_pm4_program_t* program;
  const rl_pm4_lower_inputs_t* inputs;
  rl_pm4_layout_t layout;  // derived from the inputs again
  rl_pm4_regfile_t regs;
  uint32_t dispatches;
  uint32_t waits;
  uint32_t acquires;
  bool flushed;   // a CS_PARTIAL_FLUSH since the last dispatch
  bool acquired;  // and an ACQUIRE_MEM after it
  bool released;  // the terminal RELEASE_MEM was seen
  // The chain (pm4_lower.h Chained IBs): the IB the stream is in,
  // [ib_start, ib_end) as its INDIRECT_BUFFER declared it.
  uint32_t ib_start;
  uint32_t ib_end;
  uint32_t chains;
  // Relay: the copies the layout requires, the piece starting at each
  // segment dword (index + 1, 0: none), each launch's first piece.
  rl_pm4_census_piece_t* pieces;
  uint32_t piece_count;
  uint32_t* piece_at;
  uint32_t* launch_pieces;  // launch_count + 1 entries
  uint32_t copies;
} rl_pm4_census_t;

// RL_STATUS_PREPARE naming IB dword |offset|.
static rl_status_t rl_pm4_census_error(uint32_t offset, const char* format,
                                       ...) __attribute__((format(printf, 2, 3)));
static rl_status_t rl_pm4_census_error(uint32_t offset, const char* format,
                                       ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  return RL_STATUS(RL_STATUS_PREPARE, "PM4 census: IB dword %u (0x%x): %s",
                   offset, offset, text);
}

static const char* rl_pm4_census_kernel(const rl_pm4_census_t* census,
                                        uint32_t launch) {
  const rl_capture_t* capture = census->inputs->capture;
  return capture->kernels[capture->launches[launch].kernel].name;
}

static const char* rl_pm4_census_reg_name(const rl_pm4_census_t* census,
                                          uint32_t index) {
  const rl_pm4_register_t* reg =
      rl_pm4_family_register(census->layout.family, index);
  return reg ? reg->name : "register";
}

//===----------------------------------------------------------------------===//
// Synchronisation packets
//===----------------------------------------------------------------------===//

static rl_status_t rl_pm4_census_acquire(rl_pm4_census_t* census,
                                         const rl_pm4_packet_t* packet) {
  const rl_pm4_family_t* family = census->layout.family;
  const bool entry = census->acquires == 0;
  const uint32_t* b = packet->body - 1;  // b[n] = DWn
  const uint32_t gcr = RL_PM4_GET(ACQUIRE_MEM, GCR_CNTL,
                                  b[RL_PM4_ACQUIRE_MEM_GCR_CNTL_DWORD]);
  const uint32_t size = b[RL_PM4_ACQUIRE_MEM_COHER_SIZE_DWORD];
  if (!entry && (!census->flushed || census->acquired)) {
    return rl_pm4_census_error(packet->offset,
                               "ACQUIRE_MEM without a CS_PARTIAL_FLUSH "
                               "before it");
  }
  uint32_t expected = entry ? family->gcr_acquire_entry : family->gcr_acquire;
  if (gcr != expected || size != UINT32_MAX) {
    return rl_pm4_census_error(packet->offset,
                               "ACQUIRE_MEM: expected GCR_CNTL 0x%x over the "
                               "full range, found 0x%x (size 0x%x)",
                               expected, gcr, size);
  }
  census->acquired = !entry;
  ++census->acquires;
  return RL_OK;
}

static rl_status_t rl_pm4_census_flush(rl_pm4_census_t* census,
                                       const rl_pm4_packet_t* packet) {
  uint32_t event = packet->body[0];
  if (event != (RL_PM4_PUT(EVENT_WRITE, EVENT_TYPE,
                           RL_PM4_EVENT_CS_PARTIAL_FLUSH) |
                RL_PM4_PUT(EVENT_WRITE, EVENT_INDEX,
                           RL_PM4_EVENT_INDEX_PARTIAL_FLUSH)) ||
      census->flushed || census->dispatches == 0) {
    return rl_pm4_census_error(packet->offset,
                               "EVENT_WRITE 0x%x: expected one "
                               "CS_PARTIAL_FLUSH (0x407) between dispatches",
                               event);
  }
  census->flushed = true;
  ++census->waits;
  return RL_OK;
}

static rl_status_t rl_pm4_census_release(rl_pm4_census_t* census,
                                         const rl_pm4_packet_t* packet) {
  const uint32_t gcr = census->layout.family->release_gcr_writeback;
  const uint32_t dw1 = packet->body[0], dw2 = packet->body[1];
  bool ok = RL_PM4_GET(RELEASE_MEM, EVENT_TYPE, dw1) ==
                RL_PM4_EVENT_CACHE_FLUSH_AND_INV_TS &&
            RL_PM4_GET(RELEASE_MEM, EVENT_INDEX, dw1) ==
                RL_PM4_EVENT_INDEX_END_OF_PIPE &&
            (dw1 & gcr) == gcr &&
            RL_PM4_GET(RELEASE_MEM, DATA_SEL, dw2) == RL_PM4_DATA_SEL_NONE &&
            RL_PM4_GET(RELEASE_MEM, INT_SEL, dw2) == RL_PM4_INT_SEL_NONE;
  if (!ok || census->dispatches != census->inputs->capture->launch_count) {
    return rl_pm4_census_error(packet->offset,
                               "RELEASE_MEM 0x%08x 0x%08x after %u "
                               "dispatches: expected an end-of-pipe release "
                               "with GCR 0x%x, no data, no interrupt, after "
                               "all %u",
                               dw1, dw2, census->dispatches, gcr,
                               census->inputs->capture->launch_count);
  }
  census->released = true;
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Register writes
//===----------------------------------------------------------------------===//

// Whether lowering ever writes register |index|.
static bool rl_pm4_census_writable(const rl_pm4_compute_regs_t* r,
                                   uint32_t user_data_count, uint32_t index) {
  return (index >= r->start_x && index < r->num_thread_x + 3) ||
         (index >= r->pgm_lo && index < r->pgm_lo + 2) ||
         (index >= r->pgm_rsrc1 && index < r->pgm_rsrc1 + 2) ||
         index == r->pgm_rsrc3 || index == r->resource_limits ||
         index == r->tmpring_size ||
         (index >= r->dispatch_scratch_base_lo &&
          index < r->dispatch_scratch_base_lo + 2) ||
         (index >= r->restart_x && index < r->restart_x + 3) ||
         (index >= r->user_data_0 && index < r->user_data_0 + user_data_count);
}

static rl_status_t rl_pm4_census_set_sh_reg(rl_pm4_census_t* census,
                                            const rl_pm4_packet_t* packet) {
  const rl_pm4_family_t* family = census->layout.family;
  const uint32_t first =
      RL_PM4_GET(SET_SH_REG, REG_OFFSET, packet->body[0]) + RL_PM4_SH_REG_BASE;
  const uint32_t count = packet->dwords - 2;
  if (RL_PM4_GET(SET_SH_REG, VMID_SHIFT, packet->body[0]) != 0 ||
      RL_PM4_GET(SET_SH_REG, INDEX, packet->body[0]) != 0 || count == 0) {
    return rl_pm4_census_error(packet->offset,
                               "SET_SH_REG 0x%08x: expected a plain write "
                               "(no index or VMID shift) of 1 or more",
                               packet->body[0]);
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t index = first + i;
    if (index >= RL_PM4_SH_REG_END ||
        !rl_pm4_census_writable(&family->regs, family->user_data_count,
                                index)) {
      return rl_pm4_census_error(packet->offset + 2 + i,
                                 "SET_SH_REG of %s (0x%04x), which lowering "
                                 "never writes",
                                 rl_pm4_census_reg_name(census, index), index);
    }
    census->regs.value[index - RL_PM4_SH_REG_BASE] = packet->body[1 + i];
    census->regs.where[index - RL_PM4_SH_REG_BASE] = packet->offset + 2 + i;
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Dispatches
//===----------------------------------------------------------------------===//

// The register file holds |state| (the value of every register, named at
// the dword that wrote it).
static rl_status_t rl_pm4_census_state(const rl_pm4_census_t* census,
                                       const rl_pm4_packet_t* packet,
                                       const rl_pm4_launch_state_t* state) {
  const uint32_t launch = census->dispatches;
  for (uint32_t i = 0; i < state->count; ++i) {
    const uint32_t reg = state->regs[i].index - RL_PM4_SH_REG_BASE;
    const uint32_t where = census->regs.where[reg];
    if (where != RL_PM4_REG_UNKNOWN &&
        census->regs.value[reg] == state->regs[i].value) {
      continue;
    }
    return rl_pm4_census_error(
        where == RL_PM4_REG_UNKNOWN ? packet->offset : where,
        "%s: expected 0x%08x, found %s0x%08x, at the DISPATCH_DIRECT at "
        "dword %u of launch %u (%s)",
        rl_pm4_census_reg_name(census, state->regs[i].index),
        state->regs[i].value, where == RL_PM4_REG_UNKNOWN ? "never written " : "",
        census->regs.value[reg], packet->offset, launch,
        rl_pm4_census_kernel(census, launch));
  }
  return RL_OK;
}

static uint64_t rl_pm4_census_pointer(const rl_pm4_census_t* census,
                                      uint32_t user_data) {
  uint32_t reg = census->layout.family->regs.user_data_0 + user_data -
                 RL_PM4_SH_REG_BASE;
  return census->regs.value[reg] |
         ((uint64_t)census->regs.value[reg + 1] << 32);
}

// The kernarg pointer lies inside the segment with the whole kernarg, and
// the dispatch image (if any) is what the launch needs.
static rl_status_t rl_pm4_census_pointers(const rl_pm4_census_t* census,
                                          const rl_pm4_packet_t* packet) {
  const uint32_t launch = census->dispatches;
  const rl_pm4_lower_inputs_t* in = census->inputs;
  const rl_capture_launch_t* l = &in->capture->launches[launch];
  const rl_pm4_user_data_t* user = &census->layout.user_data[l->kernel];
  const uint64_t base = in->kernarg_address;
  const uint64_t end = base + census->program->kernarg_size;
  if (user->kernarg_ptr != RL_PM4_USER_NONE) {
    uint64_t pointer = rl_pm4_census_pointer(census, user->kernarg_ptr);
    if (pointer < base || pointer + l->kernarg_size > end) {
      return rl_pm4_census_error(packet->offset,
                                 "launch %u (%s): kernarg pointer 0x%llx + "
                                 "%u bytes outside the segment [0x%llx, "
                                 "0x%llx)",
                                 launch, rl_pm4_census_kernel(census, launch),
                                 (unsigned long long)pointer, l->kernarg_size,
                                 (unsigned long long)base,
                                 (unsigned long long)end);
    }
  }
  if (user->dispatch_ptr == RL_PM4_USER_NONE) return RL_OK;
  const uint32_t image = census->layout.image_offsets[launch];
  const uint32_t grid[3] = {packet->body[0], packet->body[1], packet->body[2]};
  rl_aql_dispatch_packet_t expected;
  rl_pm4_dispatch_image(&census->layout, launch, grid, &expected);
  rl_aql_decoded_t decoded;
  if (rl_pm4_census_pointer(census, user->dispatch_ptr) != base + image ||
      image + sizeof(expected) > census->program->kernarg_size ||
      memcmp(census->program->kernarg + image, &expected, sizeof(expected)) ||
      rl_aql_packet_decode(&expected, &decoded) != RL_AQL_OK) {
    return rl_pm4_census_error(packet->offset,
                               "launch %u (%s): the dispatch ptr does not "
                               "point at a valid dispatch-packet image of "
                               "this launch (segment byte %u)",
                               launch, rl_pm4_census_kernel(census, launch),
                               image);
  }
  return RL_OK;
}

// Dims: the recorded grid on unbound axes, a whole positive count that
// fits on bound ones (its value is checked against its patch).
static rl_status_t rl_pm4_census_dims(const rl_pm4_census_t* census,
                                      const rl_pm4_packet_t* packet,
                                      uint32_t initiator) {
  const uint32_t launch = census->dispatches;
  const rl_capture_launch_t* l = &census->inputs->capture->launches[launch];
  bool bound[3] = {false, false, false};
  for (uint32_t b = 0; b < l->binding_count; ++b) {
    if (l->bindings[b].target == RL_BINDING_GRID) {
      bound[l->bindings[b].offset] = true;
    }
  }
  for (uint32_t axis = 0; axis < 3; ++axis) {
    uint32_t dim = packet->body[axis], items = 0;
    bool ok = bound[axis] ? rl_launch_work_items(dim, l->block[axis], &items)
                          : dim == l->grid[axis];
    if (!ok) {
      return rl_pm4_census_error(packet->offset + 1 + axis,
                                 "launch %u (%s): DISPATCH_DIRECT dim %c = "
                                 "%u, expected %u work-groups",
                                 launch, rl_pm4_census_kernel(census, launch),
                                 "xyz"[axis], dim, l->grid[axis]);
    }
  }
  if (packet->body[3] != initiator) {
    return rl_pm4_census_error(packet->offset + 4,
                               "launch %u (%s): DISPATCH_INITIATOR 0x%x, "
                               "expected 0x%x",
                               launch, rl_pm4_census_kernel(census, launch),
                               packet->body[3], initiator);
  }
  return RL_OK;
}

// Relay copies (pm4_lower.h Relay).

// The copies the layout's relay requires (none without relay).
static rl_status_t rl_pm4_census_relay_init(rl_pm4_census_t* census) {
  const rl_pm4_layout_t* layout = &census->layout;
  if (!layout->relay_slots) return RL_OK;
  const rl_capture_t* capture = census->inputs->capture;
  uint32_t count = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    for (uint32_t b = 0; b < capture->launches[l].binding_count; ++b) {
      if (rl_pm4_relay_slot(layout, l, b) == RL_PM4_RELAY_NONE) continue;
      count += capture->launches[l].bindings[b].size / 4u;
    }
  }
  census->pieces = calloc(count + 1u, sizeof(*census->pieces));
  census->piece_at = calloc(layout->kernarg_size / 4u + 1u, sizeof(uint32_t));
  census->launch_pieces =
      calloc(capture->launch_count + 1u, sizeof(uint32_t));
  if (!census->pieces || !census->piece_at || !census->launch_pieces) {
    return rl_status_out_of_memory();
  }
  const uint64_t kernarg = census->inputs->kernarg_address;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    census->launch_pieces[l] = census->piece_count;
    const rl_capture_launch_t* launch = &capture->launches[l];
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      const uint32_t slot = rl_pm4_relay_slot(layout, l, b);
      if (slot == RL_PM4_RELAY_NONE) continue;
      const uint32_t offset =
          layout->kernarg_offsets[l] + launch->bindings[b].offset;
      const bool wide =
          launch->bindings[b].size == 8 && (kernarg + offset) % 8 == 0;
      const uint32_t n = wide ? 1u : launch->bindings[b].size / 4u;
      for (uint32_t p = 0; p < n; ++p) {
        census->piece_at[(offset + 4 * p) / 4] = census->piece_count + 1;
        census->pieces[census->piece_count++] = (rl_pm4_census_piece_t){
            .launch = l, .binding = b, .offset = offset + 4 * p,
            .src = census->inputs->relay_address + 8ull * slot + 4 * p,
            .wide = wide};
      }
    }
  }
  census->launch_pieces[capture->launch_count] = census->piece_count;
  return RL_OK;
}

static void rl_pm4_census_relay_deinit(rl_pm4_census_t* census) {
  free(census->pieces);
  free(census->piece_at);
  free(census->launch_pieces);
}

// A COPY_DATA: a required copy, encoded as pm4_lower.h says, copied once,
// before the entry acquire or between a dispatch and the next wait.
static rl_status_t rl_pm4_census_copy(rl_pm4_census_t* census,
                                      const rl_pm4_packet_t* packet) {
  if (!census->pieces) {
    return rl_pm4_census_error(packet->offset,
                               "COPY_DATA without relay: lowering never "
                               "emits it");
  }
  if (census->acquires != 0 && (census->dispatches == 0 || census->flushed)) {
    return rl_pm4_census_error(packet->offset,
                               "COPY_DATA between a wait and its dispatch: "
                               "copies go before the entry acquire or "
                               "before a launch's CS_PARTIAL_FLUSH");
  }
  const uint32_t* b = packet->body;
  const uint64_t src = b[1] | (uint64_t)b[2] << 32;
  const uint64_t dst = b[3] | (uint64_t)b[4] << 32;
  const uint64_t kernarg = census->inputs->kernarg_address;
  const uint64_t offset = dst - kernarg;
  uint32_t at = 0;
  if (dst >= kernarg && offset < census->layout.kernarg_size &&
      offset % 4 == 0) {
    at = census->piece_at[offset / 4];
  }
  if (at == 0) {
    return rl_pm4_census_error(packet->offset,
                               "COPY_DATA to 0x%llx: no relayed binding "
                               "starts there",
                               (unsigned long long)dst);
  }
  rl_pm4_census_piece_t* piece = &census->pieces[at - 1];
  const uint32_t control =
      RL_PM4_PUT(COPY_DATA, SRC_SEL, RL_PM4_SEL_TC_L2) |
      RL_PM4_PUT(COPY_DATA, DST_SEL, RL_PM4_SEL_TC_L2) |
      RL_PM4_PUT(COPY_DATA, COUNT_SEL, piece->wide ? 1u : 0u) |
      RL_PM4_PUT(COPY_DATA, WR_CONFIRM, 1);
  if (packet->dwords != 6 || b[0] != control || src != piece->src ||
      piece->copied) {
    return rl_pm4_census_error(
        packet->offset,
        "COPY_DATA to launch %u (%s) binding %u at segment byte %u: "
        "control 0x%x from 0x%llx%s; expected control 0x%x from slot "
        "0x%llx, once",
        piece->launch, rl_pm4_census_kernel(census, piece->launch),
        piece->binding, piece->offset, b[0], (unsigned long long)src,
        piece->copied ? ", a second copy" : "", control,
        (unsigned long long)piece->src);
  }
  piece->copied = true;
  piece->copied_at = packet->offset;
  piece->acquires = census->acquires;
  ++census->copies;
  return RL_OK;
}

// Every copy of launch |launch| done, with an ACQUIRE_MEM after it.
static rl_status_t rl_pm4_census_copied(const rl_pm4_census_t* census,
                                        const rl_pm4_packet_t* packet) {
  const uint32_t launch = census->dispatches;
  if (!census->pieces) return RL_OK;
  for (uint32_t i = census->launch_pieces[launch];
       i < census->launch_pieces[launch + 1]; ++i) {
    const rl_pm4_census_piece_t* piece = &census->pieces[i];
    if (piece->copied && census->acquires > piece->acquires) continue;
    char copied[96] = "never copied from its slot";
    if (piece->copied) {
      snprintf(copied, sizeof(copied),
               "copied at IB dword %u with no ACQUIRE_MEM between the copy "
               "and the dispatch",
               piece->copied_at);
    }
    return rl_pm4_census_error(
        packet->offset,
        "launch %u (%s): relayed binding %u at segment byte %u %s", launch,
        rl_pm4_census_kernel(census, launch), piece->binding, piece->offset,
        copied);
  }
  return RL_OK;
}

// The wait before this dispatch is exactly the plan's.
static rl_status_t rl_pm4_census_wait(const rl_pm4_census_t* census,
                                      const rl_pm4_packet_t* packet) {
  const uint32_t launch = census->dispatches;
  bool needs = launch > 0 &&
               census->inputs->plan->boundaries[launch].needs_wait;
  bool waited = census->flushed && census->acquired;
  if (census->flushed != census->acquired || needs != waited) {
    return rl_pm4_census_error(packet->offset,
                               "launch %u (%s): %s before it, the hazard "
                               "plan %s",
                               launch, rl_pm4_census_kernel(census, launch),
                               census->flushed
                                   ? (census->acquired
                                          ? "CS_PARTIAL_FLUSH + ACQUIRE_MEM"
                                          : "CS_PARTIAL_FLUSH only")
                                   : "no wait",
                               needs ? "needs a wait" : "needs none");
  }
  return RL_OK;
}

static rl_status_t rl_pm4_census_dispatch(rl_pm4_census_t* census,
                                          const rl_pm4_packet_t* packet) {
  const uint32_t launch = census->dispatches;
  if (launch >= census->inputs->capture->launch_count ||
      census->program->dispatch_offsets[launch] != packet->offset) {
    return rl_pm4_census_error(packet->offset,
                               "DISPATCH_DIRECT %u: expected %u dispatches, "
                               "the recorded one at dword %u",
                               launch, census->inputs->capture->launch_count,
                               launch < census->inputs->capture->launch_count
                                   ? census->program->dispatch_offsets[launch]
                                   : 0);
  }
  rl_pm4_launch_state_t state;
  rl_pm4_launch_state(&census->layout, launch, true, &state);
  RL_RETURN_IF_ERROR(rl_pm4_census_wait(census, packet));
  RL_RETURN_IF_ERROR(rl_pm4_census_copied(census, packet));
  RL_RETURN_IF_ERROR(rl_pm4_census_state(census, packet, &state));
  RL_RETURN_IF_ERROR(rl_pm4_census_pointers(census, packet));
  RL_RETURN_IF_ERROR(rl_pm4_census_dims(census, packet, state.initiator));
  census->flushed = census->acquired = false;
  ++census->dispatches;
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// The IB
//===----------------------------------------------------------------------===//

static rl_status_t rl_pm4_census_packet(rl_pm4_census_t* census,
                                        const rl_pm4_packet_t* packet) {
  if (census->released || packet->type != RL_PM4_TYPE3 ||
      (census->acquires == 0 && packet->opcode != RL_PM4_ACQUIRE_MEM &&
       packet->opcode != RL_PM4_COPY_DATA)) {
    return rl_pm4_census_error(packet->offset,
                               "%s: expected the entry ACQUIRE_MEM first "
                               "(relay copies only before it) and nothing "
                               "after the terminal RELEASE_MEM",
                               packet->name ? packet->name : "UNKNOWN");
  }
  switch (packet->opcode) {
    case RL_PM4_ACQUIRE_MEM:
      return rl_pm4_census_acquire(census, packet);
    case RL_PM4_EVENT_WRITE:
      return rl_pm4_census_flush(census, packet);
    case RL_PM4_SET_SH_REG:
      return rl_pm4_census_set_sh_reg(census, packet);
    case RL_PM4_DISPATCH_DIRECT:
      return rl_pm4_census_dispatch(census, packet);
    case RL_PM4_RELEASE_MEM:
      return rl_pm4_census_release(census, packet);
    case RL_PM4_COPY_DATA:
      return rl_pm4_census_copy(census, packet);
    default:
      return rl_pm4_census_error(packet->offset,
                                 "%s (opcode 0x%02x): lowering never emits it",
                                 packet->name ? packet->name : "UNKNOWN",
                                 packet->opcode);
  }
}

// A NOP (padding) or INDIRECT_BUFFER (a chain to the next IB) at
// |packet|: what pm4_lower.h's chain allows, and nothing else. Moves the
// census into the next IB.
static rl_status_t rl_pm4_census_chain(rl_pm4_census_t* census,
                                       const rl_pm4_packet_t* packet) {
  const uint32_t end = packet->offset + packet->dwords;
  if (packet->opcode == RL_PM4_NOP) {
    if (end + RL_PM4_CHAIN_DWORDS == census->ib_end) return RL_OK;
    return rl_pm4_census_error(packet->offset,
                               "NOP of %u dwords: padding only just before "
                               "a chain packet ending the IB at dword %u",
                               packet->dwords, census->ib_end);
  }
  const uint32_t control = packet->dwords == 4 ? packet->body[2] : 0;
  const uint64_t address =
      packet->dwords == 4
          ? packet->body[0] | (uint64_t)packet->body[1] << 32
          : 0;
  const uint64_t next = census->inputs->ib_address + 4ull * end;
  const uint32_t size = RL_PM4_GET(INDIRECT_BUFFER, IB_SIZE, control);
  if (packet->dwords != 4 || !RL_PM4_GET(INDIRECT_BUFFER, CHAIN, control) ||
      !RL_PM4_GET(INDIRECT_BUFFER, VALID, control) || address != next ||
      size == 0 || end != census->ib_end ||
      (end - census->ib_start) % RL_PM4_IB_PAD_DWORDS != 0) {
    return rl_pm4_census_error(
        packet->offset,
        "INDIRECT_BUFFER: expected a CHAIN|VALID packet ending the IB of "
        "dwords %u..%u (a multiple of %u) and naming the next dword at "
        "0x%llx, found control 0x%08x to 0x%llx",
        census->ib_start, census->ib_end, RL_PM4_IB_PAD_DWORDS,
        (unsigned long long)next, control, (unsigned long long)address);
  }
  census->ib_start = end;
  census->ib_end = end + size;
  ++census->chains;
  return RL_OK;
}

static rl_status_t rl_pm4_census_stream(rl_pm4_census_t* census) {
  const rl_pm4_program_t* program = census->program;
  rl_aql_decoded_t vendor;
  rl_aql_packet_decode(&program->packet, &vendor);
  census->ib_start = 0;
  census->ib_end = vendor.ib_size_dw;  // checked by rl_pm4_census_vendor
  uint32_t offset = 0;
  while (offset < program->dword_count) {
    rl_pm4_packet_t packet;
    rl_status_t status =
        rl_pm4_decode_next(census->layout.family, program->dwords,
                           program->dword_count, offset, &packet);
    if (status) {
      rl_status_t census_status = rl_pm4_census_error(
          offset, "does not decode: %s", rl_status_message(status));
      rl_status_free(status);
      return census_status;
    }
    if (offset + packet.dwords > census->ib_end) {
      return rl_pm4_census_error(offset,
                                 "%s of %u dwords: past the end of its IB "
                                 "(dwords %u..%u)",
                                 packet.name ? packet.name : "UNKNOWN",
                                 packet.dwords, census->ib_start,
                                 census->ib_end);
    }
    if (packet.type == RL_PM4_TYPE3 &&
        (packet.opcode == RL_PM4_NOP ||
         packet.opcode == RL_PM4_INDIRECT_BUFFER)) {
      RL_RETURN_IF_ERROR(rl_pm4_census_chain(census, &packet));
    } else {
      RL_RETURN_IF_ERROR(rl_pm4_census_packet(census, &packet));
    }
    offset += packet.dwords;
  }
  const rl_pm4_stats_t* stats = &program->stats;
  if (census->ib_end != program->dword_count ||
      census->chains != stats->chains) {
    return rl_pm4_census_error(offset,
                               "end of the stream: the last IB ends at dword "
                               "%u after %u chain packets; the program "
                               "claims %u dwords and %u chains",
                               census->ib_end, census->chains,
                               program->dword_count, stats->chains);
  }
  if (!census->released || census->waits != stats->waits ||
      census->acquires != stats->acquires ||
      census->dispatches != stats->dispatches ||
      census->copies != stats->copies) {
    return rl_pm4_census_error(offset,
                               "end of the IB: %u dispatches, %u waits, %u "
                               "acquires, %u copies%s; the program claims "
                               "%u, %u, %u, %u and a terminal RELEASE_MEM",
                               census->dispatches, census->waits,
                               census->acquires, census->copies,
                               census->released ? "" : ", no RELEASE_MEM",
                               stats->dispatches, stats->waits,
                               stats->acquires, stats->copies);
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Vendor packet and entry point
//===----------------------------------------------------------------------===//

static rl_status_t rl_pm4_census_vendor(const rl_pm4_census_t* census) {
  const rl_pm4_program_t* program = census->program;
  rl_aql_decoded_t d;
  rl_aql_packet_decode(&program->packet, &d);
  bool ok = d.error == RL_AQL_OK &&
            d.type == RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC &&
            d.vendor_format == RL_AQL_VENDOR_FORMAT_PM4_IB && d.barrier &&
            d.acquire_scope == RL_AQL_FENCE_SCOPE_SYSTEM &&
            d.release_scope == RL_AQL_FENCE_SCOPE_SYSTEM &&
            d.ib_address == census->inputs->ib_address &&
            d.ib_size_dw == program->stats.entry_dwords && !d.ib_chain &&
            d.completion_signal == census->inputs->completion_signal;
  if (ok) return RL_OK;
  return RL_STATUS(RL_STATUS_PREPARE,
                   "PM4 census: vendor packet: expected a barrier PM4_IB "
                   "packet with system scopes jumping to the IB at 0x%llx "
                   "(%u dwords) with signal 0x%llx, found %s to 0x%llx (%u "
                   "dwords) with signal 0x%llx",
                   (unsigned long long)census->inputs->ib_address,
                   program->stats.entry_dwords,
                   (unsigned long long)census->inputs->completion_signal,
                   d.error == RL_AQL_OK ? "a packet" : d.reason,
                   (unsigned long long)d.ib_address, d.ib_size_dw,
                   (unsigned long long)d.completion_signal);
}

static rl_status_t rl_pm4_census_run(rl_pm4_census_t* census) {
  const rl_pm4_program_t* program = census->program;
  RL_RETURN_IF_ERROR(rl_pm4_layout_init(census->inputs, &census->layout));
  if (program->family != census->layout.family ||
      program->kernarg_size != census->layout.kernarg_size ||
      program->dword_count == 0 ||
      program->dword_count > RL_PM4_STREAM_MAX_DWORDS) {
    return RL_STATUS(RL_STATUS_PREPARE,
                     "PM4 census: program of %u dwords (at most %u) for "
                     "family %s and a %u-byte segment, expected family %s "
                     "and %u bytes",
                     program->dword_count, RL_PM4_STREAM_MAX_DWORDS,
                     program->family ? program->family->name : "none",
                     program->kernarg_size, census->layout.family->name,
                     census->layout.kernarg_size);
  }
  for (uint32_t i = 0; i < census->inputs->capture->launch_count; ++i) {
    if (program->kernarg_offsets[i] != census->layout.kernarg_offsets[i] ||
        program->image_offsets[i] != census->layout.image_offsets[i]) {
      return rl_pm4_census_error(0, "launch %u: kernarg slice %u / image %u, "
                                 "expected %u / %u",
                                 i, program->kernarg_offsets[i],
                                 program->image_offsets[i],
                                 census->layout.kernarg_offsets[i],
                                 census->layout.image_offsets[i]);
    }
  }
  if (program->relay_count != census->layout.relay_count) {
    return rl_pm4_census_error(0, "%u relay slots, expected %u",
                               program->relay_count,
                               census->layout.relay_count);
  }
  rl_pm4_regfile_init(&census->regs);
  RL_RETURN_IF_ERROR(rl_pm4_census_relay_init(census));
  // The vendor packet first: its size is the first IB's the stream check
  // walks in.
  RL_RETURN_IF_ERROR(rl_pm4_census_vendor(census));
  RL_RETURN_IF_ERROR(rl_pm4_census_stream(census));
  return rl_pm4_census_patch_table(program, &census->layout);
}

rl_status_t rl_pm4_program_check(const rl_pm4_program_t* program,
                                 const rl_pm4_lower_inputs_t* inputs) {
  if (!program || !inputs) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "PM4 census needs a program and its lowering inputs");
  }
  // Test-only (base/test_fault.h): lets a lowering fault reach the
  // device, to prove the dynamic hazard checker catches it on its own.
  if (rl_test_fault("no-census", 0)) return RL_OK;
  rl_pm4_census_t* census = calloc(1, sizeof(*census));
  if (!census) return rl_status_out_of_memory();
  census->program = program;
  census->inputs = inputs;
  rl_status_t status = rl_pm4_census_run(census);
  rl_pm4_census_relay_deinit(census);
  rl_pm4_layout_deinit(&census->layout);
  free(census);
  return status;
}
