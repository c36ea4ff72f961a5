// Emitting the IB of a PM4 lowering (pm4/pm4_lower_internal.h,
// rl_pm4_emit_program): with relay the entry copies, the entry acquire,
// per launch (its relay copies and) the hazard plan's wait, the launch's
// register writes (with or without retention) and its dispatch, then the
// terminal release; pm4/pm4_lower.h has the stream.
//
// One code path both measures and emits: when measuring, every packet is
// built into a small scratch builder that is reset afterwards, so the size
// lowering reserves is the size the real builder writes.
//
// Chaining (pm4_lower.h "Chained IBs"): before each packet, when the IB in
// progress might not hold the largest packet plus its closing padding and
// chain packet, the IB is closed there (NOP padding, INDIRECT_BUFFER CHAIN
// to the next dword) and the packet starts the next IB. A chain packet's
// IB_SIZE is rewritten once the IB it names is complete.
#include <stdlib.h>
#include <string.h>

#include "pm4/pm4_lower_internal.h"
#include "base/test_fault.h"

// The largest packet lowering builds: a SET_SH_REG of every register one
// launch writes, with a one-register gap between each pair.
#define RL_PM4_EMIT_SCRATCH (2u + 2u * RL_PM4_LAUNCH_REGS_MAX)
// The most an IB's close adds: padding (never one dword: a one-dword NOP is
// the header-only form, so 1 becomes 1 + RL_PM4_IB_PAD_DWORDS) and the
// chain packet.
#define RL_PM4_CHAIN_TAIL_MAX (RL_PM4_IB_PAD_DWORDS + 1u + RL_PM4_CHAIN_DWORDS)
#define RL_PM4_NO_CHAIN UINT32_MAX

_Static_assert(RL_PM4_EMIT_SCRATCH + RL_PM4_CHAIN_TAIL_MAX <=
                   RL_PM4_IB_MIN_DWORDS,
               "the smallest IB limit must hold a packet and a chain");

typedef struct rl_pm4_emitter_s {
  const rl_pm4_layout_t* layout;
  bool retain;
  rl_pm4_builder_t* builder;  // the IB, or &scratch_builder when measuring
  rl_pm4_builder_t scratch_builder;
  uint32_t scratch[RL_PM4_EMIT_SCRATCH];
  bool measuring;
  bool failed;     // a builder refused a packet (or too_long)
  bool too_long;   // the stream passed RL_PM4_STREAM_MAX_DWORDS
  uint32_t total;  // IB dwords so far
  uint32_t ib_max;      // the largest IB of the chain
  uint32_t ib_start;    // the dword the IB in progress starts at
  uint32_t chain_at;    // the chain packet naming it, or RL_PM4_NO_CHAIN
  uint32_t entry_size;  // the first IB's size once it is closed (else 0)
  rl_pm4_regfile_t regs;
  rl_pm4_stats_t stats;
} rl_pm4_emitter_t;

void rl_pm4_regfile_init(rl_pm4_regfile_t* regs) {
  memset(regs->value, 0, sizeof(regs->value));
  for (uint32_t i = 0; i < RL_PM4_SH_COUNT; ++i) {
    regs->where[i] = RL_PM4_REG_UNKNOWN;
  }
}

// Starts a packet without chaining; returns its IB dword offset.
static uint32_t rl_pm4_emitter_start(rl_pm4_emitter_t* e) {
  if (e->measuring) e->builder->count = 0;
  return e->total;
}

// Ends a packet the builder accepted (|ok|) or refused.
static void rl_pm4_emitter_end(rl_pm4_emitter_t* e, bool ok) {
  if (!ok) {
    e->failed = true;
    return;
  }
  e->total = e->measuring ? e->total + e->builder->count : e->builder->count;
  if (e->total > RL_PM4_STREAM_MAX_DWORDS) {
    e->too_long = true;  // stop before the 32-bit offsets could wrap
    e->failed = true;
  }
}

// Completes the IB in progress at e->total: the chain packet naming it (if
// any) gets its size.
static void rl_pm4_emitter_finish_ib(rl_pm4_emitter_t* e) {
  const uint32_t size = e->total - e->ib_start;
  if (e->chain_at == RL_PM4_NO_CHAIN) {
    e->entry_size = size;
  } else if (!e->measuring) {
    rl_pm4_builder_t chain;
    rl_pm4_builder_init(&chain, e->layout->family,
                        e->builder->dwords + e->chain_at, RL_PM4_CHAIN_DWORDS);
    e->failed |= !rl_pm4_emit_indirect_buffer(
        &chain, e->layout->inputs->ib_address + 4ull * e->ib_start, size, true,
        NULL);
  }
}

// Closes the IB in progress: NOP padding, then an INDIRECT_BUFFER CHAIN to
// the next dword (its size written by rl_pm4_emitter_finish_ib).
static void rl_pm4_emitter_chain(rl_pm4_emitter_t* e) {
  uint32_t used = e->total - e->ib_start + RL_PM4_CHAIN_DWORDS;
  uint32_t pad = (RL_PM4_IB_PAD_DWORDS - used % RL_PM4_IB_PAD_DWORDS) %
                 RL_PM4_IB_PAD_DWORDS;
  if (pad == 1) pad += RL_PM4_IB_PAD_DWORDS;
  if (pad > 0) {
    rl_pm4_emitter_start(e);
    rl_pm4_emitter_end(e, rl_pm4_emit_nop(e->builder, pad - 1, NULL));
  }
  const uint32_t at = rl_pm4_emitter_start(e);
  const uint64_t next =
      e->layout->inputs->ib_address + 4ull * (at + RL_PM4_CHAIN_DWORDS);
  // The largest size stands in until the next IB is complete.
  rl_pm4_emitter_end(e, rl_pm4_emit_indirect_buffer(e->builder, next,
                                                    RL_PM4_IB_MAX_DWORDS,
                                                    true, NULL));
  rl_pm4_emitter_finish_ib(e);
  e->chain_at = at;
  e->ib_start = e->total;
  ++e->stats.chains;
}

// Starts a packet, first closing the IB in progress when the largest
// packet and the close might not fit it; returns its IB dword offset.
static uint32_t rl_pm4_emitter_begin(rl_pm4_emitter_t* e) {
  if (e->total - e->ib_start + RL_PM4_EMIT_SCRATCH + RL_PM4_CHAIN_TAIL_MAX >
      e->ib_max) {
    rl_pm4_emitter_chain(e);
  }
  return rl_pm4_emitter_start(e);
}

//===----------------------------------------------------------------------===//
// Register writes
//===----------------------------------------------------------------------===//

// One SET_SH_REG of |count| values from register |index|; records each
// value's dword in the register file.
static void rl_pm4_emit_registers(rl_pm4_emitter_t* e, uint32_t index,
                                  const uint32_t* values, uint32_t count) {
  uint32_t base = rl_pm4_emitter_begin(e);
  bool ok = rl_pm4_emit_set_sh_reg(e->builder, index, values, count, NULL);
  rl_pm4_emitter_end(e, ok);
  if (!ok) return;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t reg = index + i - RL_PM4_SH_REG_BASE;
    e->regs.value[reg] = values[i];
    e->regs.where[reg] = base + 2 + i;  // header, offset dword, values
  }
  ++e->stats.set_sh_reg_packets;
  e->stats.registers_written += count;
}

// Whether retention may skip writing |write|: its value is already there.
static bool rl_pm4_emitter_holds(const rl_pm4_emitter_t* e,
                                 const rl_pm4_reg_value_t* write) {
  uint32_t reg = write->index - RL_PM4_SH_REG_BASE;
  // Test-only (base/test_fault.h): retention that trusts any held
  // register, whatever value it holds.
  bool any_value = rl_test_fault("retain-any-value", 0);
  return e->retain && e->regs.where[reg] != RL_PM4_REG_UNKNOWN &&
         (e->regs.value[reg] == write->value || any_value);
}

// Whether register |index| has a known value a run may write again.
static bool rl_pm4_emitter_known(const rl_pm4_emitter_t* e, uint32_t index) {
  return e->regs.where[index - RL_PM4_SH_REG_BASE] != RL_PM4_REG_UNKNOWN;
}

// Writes the registers of |state| that are not already held, as runs of
// consecutive registers; a gap of one known register joins two runs.
static void rl_pm4_emit_state(rl_pm4_emitter_t* e,
                              const rl_pm4_launch_state_t* state) {
  uint32_t values[RL_PM4_EMIT_SCRATCH];
  uint32_t first = 0, count = 0;
  for (uint32_t i = 0; i < state->count; ++i) {
    const rl_pm4_reg_value_t* write = &state->regs[i];
    if (rl_pm4_emitter_holds(e, write)) {
      ++e->stats.registers_elided;
      continue;
    }
    uint32_t next = first + count;
    if (count > 0 && write->index == next + 1 &&
        rl_pm4_emitter_known(e, next)) {
      values[count++] = e->regs.value[next - RL_PM4_SH_REG_BASE];
    } else if (count > 0 && write->index != next) {
      rl_pm4_emit_registers(e, first, values, count);
      count = 0;
    }
    if (count == 0) first = write->index;
    values[count++] = write->value;
  }
  if (count > 0) rl_pm4_emit_registers(e, first, values, count);
}

//===----------------------------------------------------------------------===//
// Synchronisation and dispatch
//===----------------------------------------------------------------------===//

static void rl_pm4_emit_acquire(rl_pm4_emitter_t* e, uint32_t gcr) {
  rl_pm4_emitter_begin(e);
  rl_pm4_emitter_end(e, rl_pm4_emit_acquire_mem(e->builder, gcr, NULL));
  ++e->stats.acquires;
}

// The wait before a launch the plan makes wait (pm4_lower.h).
static void rl_pm4_emit_wait(rl_pm4_emitter_t* e, uint32_t launch) {
  rl_pm4_emitter_begin(e);
  rl_pm4_emitter_end(e, rl_pm4_emit_cs_partial_flush(e->builder, NULL));
  ++e->stats.waits;
  if (rl_test_fault("drop-acquire", launch)) return;
  rl_pm4_emit_acquire(e, e->layout->family->gcr_acquire);
}

static void rl_pm4_emit_release(rl_pm4_emitter_t* e) {
  const rl_pm4_release_mem_t release = {
      .event_type = RL_PM4_EVENT_CACHE_FLUSH_AND_INV_TS,
      .event_index = RL_PM4_EVENT_INDEX_END_OF_PIPE,
      .gcr = e->layout->family->release_gcr_writeback,
      .data_sel = RL_PM4_DATA_SEL_NONE,
      .int_sel = RL_PM4_INT_SEL_NONE};
  rl_pm4_emitter_begin(e);
  rl_pm4_emitter_end(e, rl_pm4_emit_release_mem(e->builder, &release, NULL));
  ++e->stats.releases;
}

//===----------------------------------------------------------------------===//
// Relay copies
//===----------------------------------------------------------------------===//

// Whether launch |launch|'s relay copies go before the entry acquire
// (pm4_lower.h Relay): launch 0 and every launch the plan runs without a
// wait; the others copy just before their wait.
static bool rl_pm4_relay_at_entry(const rl_pm4_layout_t* layout,
                                  uint32_t launch) {
  return launch == 0 || !layout->inputs->plan->boundaries[launch].needs_wait;
}

// The COPY_DATA packets of launch |launch|'s relayed bindings: slot ->
// site, 64 bits at once when the site is an 8-aligned 8-byte value.
static void rl_pm4_emit_copies(rl_pm4_emitter_t* e, uint32_t launch) {
  const rl_pm4_layout_t* layout = e->layout;
  if (!layout->relay_slots) return;
  const rl_pm4_lower_inputs_t* in = layout->inputs;
  const rl_capture_launch_t* l = &in->capture->launches[launch];
  for (uint32_t b = 0; b < l->binding_count; ++b) {
    const uint32_t slot = rl_pm4_relay_slot(layout, launch, b);
    if (slot == RL_PM4_RELAY_NONE) continue;
    const uint64_t src = in->relay_address + 8ull * slot;
    const uint64_t dst = in->kernarg_address +
                         layout->kernarg_offsets[launch] +
                         l->bindings[b].offset;
    const bool wide = l->bindings[b].size == 8 && dst % 8 == 0;
    const uint32_t pieces = wide ? 1u : l->bindings[b].size / 4u;
    for (uint32_t p = 0; p < pieces; ++p) {
      rl_pm4_emitter_begin(e);
      rl_pm4_emitter_end(
          e, rl_pm4_emit_copy_data(e->builder, RL_PM4_SEL_TC_L2, src + 4 * p,
                                   RL_PM4_SEL_TC_L2, dst + 4 * p, wide, NULL));
      ++e->stats.copies;
    }
  }
}

// Launch |launch|: its wait, registers and DISPATCH_DIRECT; returns the
// dispatch's IB dword offset.
static uint32_t rl_pm4_emit_launch(rl_pm4_emitter_t* e, uint32_t launch,
                                   const uint32_t* grid) {
  const rl_pm4_layout_t* layout = e->layout;
  if (!rl_pm4_relay_at_entry(layout, launch)) {
    rl_pm4_emit_copies(e, launch);
    if (!rl_test_fault("drop-wait", launch)) rl_pm4_emit_wait(e, launch);
  }
  rl_pm4_launch_state_t state;
  rl_pm4_launch_state(layout, launch, launch == 0, &state);
  rl_pm4_emit_state(e, &state);
  static const uint32_t any_grid[3] = {1, 1, 1};
  if (!grid) grid = any_grid;  // measuring: the size does not depend on it
  uint32_t offset = rl_pm4_emitter_begin(e);
  rl_pm4_emitter_end(e, rl_pm4_emit_dispatch_direct(e->builder, grid[0],
                                                    grid[1], grid[2],
                                                    state.initiator, NULL));
  ++e->stats.dispatches;
  return offset;
}

static void rl_pm4_emitter_init(rl_pm4_emitter_t* e,
                                const rl_pm4_layout_t* layout,
                                const rl_pm4_emit_options_t* options,
                                rl_pm4_builder_t* builder) {
  e->layout = layout;
  e->retain = options->retain;
  e->ib_max = options->ib_max_dwords;
  e->chain_at = RL_PM4_NO_CHAIN;
  e->measuring = builder == NULL;
  if (e->measuring) {
    rl_pm4_builder_init(&e->scratch_builder, layout->family, e->scratch,
                        RL_PM4_EMIT_SCRATCH);
    builder = &e->scratch_builder;
  }
  e->builder = builder;
  e->total = builder->count;
  e->ib_start = e->total;
  rl_pm4_regfile_init(&e->regs);
}

rl_status_t rl_pm4_emit_program(const rl_pm4_layout_t* layout,
                                const rl_pm4_emit_options_t* options,
                                const uint32_t* grids,
                                rl_pm4_builder_t* builder,
                                uint32_t* out_dispatch_offsets,
                                rl_pm4_stats_t* out_stats) {
  memset(out_stats, 0, sizeof(*out_stats));
  rl_pm4_emitter_t* e = calloc(1, sizeof(*e));
  if (!e) return rl_status_out_of_memory();
  rl_pm4_emitter_init(e, layout, options, builder);
  const rl_capture_t* capture = layout->inputs->capture;
  for (uint32_t i = 0; i < capture->launch_count && layout->relay_slots; ++i) {
    if (rl_pm4_relay_at_entry(layout, i)) rl_pm4_emit_copies(e, i);
  }
  rl_pm4_emit_acquire(e, layout->family->gcr_acquire_entry);
  for (uint32_t i = 0; i < capture->launch_count && !e->failed; ++i) {
    uint32_t offset = rl_pm4_emit_launch(e, i, grids ? grids + 3 * i : NULL);
    if (out_dispatch_offsets) out_dispatch_offsets[i] = offset;
  }
  rl_pm4_emit_release(e);
  rl_pm4_emitter_finish_ib(e);
  rl_status_t status = RL_OK;
  if (e->too_long) {
    status = RL_STATUS(RL_STATUS_CONTRACT,
                       "the PM4 stream of %u launches passes %u dwords "
                       "(RL_PM4_STREAM_MAX_DWORDS) at launch %u",
                       capture->launch_count, RL_PM4_STREAM_MAX_DWORDS,
                       e->stats.dispatches);
  } else if (e->failed) {
    status = RL_STATUS(RL_STATUS_INTERNAL,
                       "PM4 builder refused a packet at IB dword %u (%s)",
                       e->total, e->measuring ? "measuring" : "emitting");
  }
  e->stats.dwords = e->total;
  e->stats.entry_dwords = e->entry_size;
  *out_stats = e->stats;
  free(e);
  return status;
}
