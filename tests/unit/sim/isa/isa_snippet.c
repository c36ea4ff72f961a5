// tests/unit/sim/isa/isa_snippet.c — see isa_snippet.h.
#include "tests/unit/sim/isa/isa_snippet.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/wg/sim_wg.h"
#include "tests/unit/sim/isa/isa_test_util.h"

#define RL_SNIPPET_MAX_LINES 64u
#define RL_SNIPPET_VGPR_ROWS 260u

struct rl_isa_snippet_s {
  rl_isa_program_t* program;
  rl_isa_wave_t wave;
  rl_isa_group_t group;
  uint32_t vgprs[RL_SNIPPET_VGPR_ROWS][RL_ISA_LANES];
  uint8_t lds[RL_ISA_SNIPPET_LDS_BYTES];
  // A private simulated memory behind rl_sim_wg_load()/store().
  rl_sim_device_t device;
  rl_sim_run_t run;
  rl_sim_wg_context_t context;
  rl_sim_wg_t wg;
  uint32_t code[RL_SNIPPET_MAX_LINES * 3 + 1];
  uint32_t code_bytes;
};

rl_isa_snippet_t* rl_isa_snippet_create(uint32_t mode) {
  // Aligned as its type asks (the device's locks sit on host lines).
  rl_isa_snippet_t* s = aligned_alloc(_Alignof(rl_isa_snippet_t), sizeof(*s));
  assert_non_null(s);
  memset(s, 0, sizeof(*s));
  assert_int_equal(rl_sim_memory_init(&s->device.memory, 0), RL_OK);
  s->device.upcalls.report_hazard = rl_sim_report_hazard;  // sim_mem.h
  s->context.device = &s->device;
  s->context.run = &s->run;
  s->context.lds = s->lds;
  s->context.reads = &s->run.reads;
  s->context.writes = &s->run.writes;
  s->wg.dispatch = &s->run.dispatch;
  s->wg.size[0] = RL_ISA_LANES;
  s->wg.size[1] = s->wg.size[2] = 1;
  s->wg.context = &s->context;
  s->group.wg = &s->wg;
  s->group.lds = s->lds;
  s->group.lds_size = RL_ISA_SNIPPET_LDS_BYTES;
  s->group.mode = mode;
  s->wave.vgpr = s->vgprs;
  s->wave.vgpr_count = 256;
  s->wave.group = &s->group;
  s->wave.sgpr[RL_ISA_SRC_EXEC] = RL_ISA_ALL_LANES;
  return s;
}

void rl_isa_snippet_destroy(rl_isa_snippet_t* s) {
  if (s == NULL) return;
  rl_isa_program_release(s->program);
  rl_sim_range_set_deinit(&s->run.reads);
  rl_sim_range_set_deinit(&s->run.writes);
  rl_sim_cache_deinit(&s->device.cache);
  rl_sim_memory_deinit(&s->device.memory);
  free(s);
}

rl_isa_wave_t* rl_isa_snippet_wave(rl_isa_snippet_t* s) { return &s->wave; }
uint8_t* rl_isa_snippet_lds(rl_isa_snippet_t* s) { return s->lds; }

static rl_status_t rl_isa_snippet_fetch(void* context, uint64_t address,
                                        void* out_data, uint32_t size) {
  const rl_isa_snippet_t* s = context;
  if (address + size > s->code_bytes) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "past the snippet");
  }
  memcpy(out_data, (const uint8_t*)s->code + address, size);
  return RL_OK;
}

void rl_isa_snippet_load(rl_isa_snippet_t* s, const char* const* lines,
                         uint32_t count) {
  assert_true(count < RL_SNIPPET_MAX_LINES);
  const char* all[RL_SNIPPET_MAX_LINES + 1];
  rl_isa_encoded_t encoded[RL_SNIPPET_MAX_LINES + 1];
  memcpy(all, lines, count * sizeof(*all));
  all[count] = "s_endpgm";
  rl_isa_test_assemble_batch("gfx1100", all, count + 1, encoded);
  s->code_bytes = 0;
  for (uint32_t i = 0; i <= count; ++i) {
    memcpy((uint8_t*)s->code + s->code_bytes, encoded[i].words,
           encoded[i].count * 4);
    s->code_bytes += encoded[i].count * 4;
  }
  rl_isa_program_release(s->program);
  s->program = NULL;
  assert_int_equal(rl_isa_program_build(0, 0, rl_isa_snippet_fetch, s,
                                        &s->program),
                   RL_OK);
  assert_int_equal(s->program->count, count + 2);  // + s_endpgm + sentinel
  for (uint32_t i = 0; i <= count; ++i) {
    const rl_isa_inst_t* inst = &s->program->insts[i];
    if (inst->exec == rl_isa_exec_unsupported) {
      char where[160];
      rl_isa_inst_describe(inst, where, sizeof(where));
      fail_msg("\"%s\" is not modelled: %s (%s)", all[i], where,
               rl_isa_inst_unsupported_reason(inst));
    }
  }
  s->group.insts = s->program->insts;
  s->group.program = s->program;
  s->group.entry_address = s->program->base_address;
}

const rl_isa_inst_t* rl_isa_snippet_inst(rl_isa_snippet_t* s,
                                         uint32_t index) {
  assert_non_null(s->program);
  assert_true(index < s->program->count);
  return &s->program->insts[index];
}

rl_status_t rl_isa_snippet_run(rl_isa_snippet_t* s) {
  rl_isa_wave_t* wave = &s->wave;
  wave->pc = s->program->entry_index;
  wave->state = RL_ISA_WAVE_RUNNING;
  while (wave->state == RL_ISA_WAVE_RUNNING) {
    const rl_isa_inst_t* inst = &s->group.insts[wave->pc++];
    rl_status_t status = rl_isa_step(wave, inst);
    if (status != RL_OK) return status;
  }
  return RL_OK;
}

void rl_isa_snippet_exec(rl_isa_snippet_t* s, const char* const* lines,
                         uint32_t count) {
  rl_isa_snippet_load(s, lines, count);
  rl_status_t status = rl_isa_snippet_run(s);
  if (status != RL_OK) {
    fail_msg("snippet failed: %s", rl_status_message(status));
  }
}

void rl_isa_snippet_cache(rl_isa_snippet_t* s, rl_sim_cache_mode_t mode) {
  assert_int_equal(rl_sim_cache_init(&s->device.cache, "gfx1100", mode, 0),
                   RL_OK);
  s->group.caches = rl_sim_wg_cache_enabled(&s->wg);
}

uint32_t rl_isa_snippet_stale_reads(rl_isa_snippet_t* s,
                                    uint64_t* out_retracted) {
  uint32_t found = 0;
  uint32_t kept = s->device.hazard_count < RL_SIM_HAZARD_CAPACITY
                      ? s->device.hazard_count
                      : RL_SIM_HAZARD_CAPACITY;
  for (uint32_t i = 0; i < kept; ++i) {
    found += s->device.hazards[i].kind == RL_SIM_HAZARD_STALE_READ;
  }
  if (out_retracted) *out_retracted = s->device.cache.retracted_reads;
  return found;
}

uint64_t rl_isa_snippet_alloc(rl_isa_snippet_t* s, uint64_t size,
                              void** out_host) {
  rl_device_allocation_t allocation;
  assert_int_equal(rl_sim_memory_allocate(&s->device.memory, size, 256,
                                          RL_MEMORY_KIND_DEVICE, &allocation),
                   RL_OK);
  memset(allocation.host, 0, size);
  *out_host = allocation.host;
  return allocation.address;
}
