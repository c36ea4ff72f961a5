// sim/oracle/oracle_workgroup.c — one work-group in the oracle
// (oracle_internal.h): whether the oracle can set up a dispatch at all, the
// initial wave state of AMDGPUUsage "Initial Kernel Execution State", and
// the round-robin of the work-group's waves over rl_oracle_step
// (oracle_wave.c).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/oracle/oracle.h"
#include "sim/oracle/oracle_internal.h"

bool rl_oracle_dispatch_supported(const rl_sim_dispatch_t* dispatch,
                                  char* why, uint32_t why_size) {
  const rl_code_object_kernel_t* kernel = dispatch->kernel;
  const char* processor = dispatch->processor ? dispatch->processor : "";
  if (strncmp(processor, "gfx11", 5) != 0 &&
      strncmp(processor, "gfx120", 6) != 0) {
    snprintf(why, why_size,
             "processor %s: the oracle decodes gfx11 and gfx12 only",
             processor[0] ? processor : "unknown");
    return false;
  }
  if (!kernel) {
    snprintf(why, why_size, "no kernel metadata");
    return false;
  }
  const rl_kernel_descriptor_info_t* d = &kernel->descriptor_info;
  const char* feature = NULL;
  if (kernel->wavefront_size != 0 && kernel->wavefront_size != 32) {
    feature = "wave64";
  } else if (d->enable_private_segment || d->enable_sgpr_flat_scratch_init ||
             d->enable_sgpr_private_segment_buffer ||
             dispatch->private_segment_size > 0) {
    feature = "a private segment (scratch)";
  } else if (d->enable_sgpr_queue_ptr) {
    feature = "the queue pointer";
  } else if (d->enable_sgpr_dispatch_id) {
    feature = "the dispatch id";
  } else if (d->enable_sgpr_private_segment_size) {
    feature = "the private segment size";
  } else if (d->enable_sgpr_workgroup_info) {
    feature = "the work-group info SGPR";
  } else if (d->kernarg_preload_spec_length) {
    feature = "kernarg preload";
  } else if (d->float_denorm_mode_32 != 0 && d->float_denorm_mode_32 != 3) {
    feature = "FLOAT_DENORM_MODE_32 1 or 2";
  } else if (d->float_denorm_mode_16_64 != 3) {
    feature = "FLOAT_DENORM_MODE_16_64 other than 3";
  } else if (d->float_round_mode_32 || d->float_round_mode_16_64) {
    feature = "a rounding mode other than nearest-even";
  } else if (dispatch->user_sgprs) {
    feature = "user SGPRs from a PM4 dispatch";
  }
  if (feature) {
    snprintf(why, why_size, "kernel %s uses %s", kernel->name, feature);
    return false;
  }
  return true;
}

// AMDGPUUsage "Initial Kernel Execution State" for a wave32 wave |index| of
// |wg|: user SGPRs in their fixed order, then the work-group ids, and the
// packed work-item ids in v0.
static void rl_oracle_wave_init(const rl_oracle_ctx_t* ctx, uint32_t index,
                                rl_oracle_wave_t* w) {
  const rl_sim_dispatch_t* dispatch = ctx->dispatch;
  const rl_kernel_descriptor_info_t* d = &dispatch->kernel->descriptor_info;
  const rl_sim_wg_t* wg = ctx->wg;
  uint32_t s = 0;
  if (d->enable_sgpr_dispatch_ptr) {
    w->s[s++] = (uint32_t)dispatch->packet_address;
    w->s[s++] = (uint32_t)(dispatch->packet_address >> 32);
  }
  if (d->enable_sgpr_kernarg_segment_ptr) {
    w->s[s++] = (uint32_t)dispatch->kernarg_address;
    w->s[s++] = (uint32_t)(dispatch->kernarg_address >> 32);
  }
  s = d->user_sgpr_count;
  if (ctx->gfx12) {
    // Architected SGPRs (AMDGPUUsage, GFX12): the work-group id X in TTMP9,
    // Y in bits 15:0 and Z in bits 31:16 of TTMP7 (TTMPn is SGPR code
    // 108 + n); nothing after the user SGPRs.
    w->s[108 + 9] = wg->group_id[0];
    w->s[108 + 7] = (wg->group_id[1] & 0xffff) | wg->group_id[2] << 16;
  } else {
    if (d->enable_sgpr_workgroup_id_x && s < 106) w->s[s++] = wg->group_id[0];
    if (d->enable_sgpr_workgroup_id_y && s < 106) w->s[s++] = wg->group_id[1];
    if (d->enable_sgpr_workgroup_id_z && s < 106) w->s[s++] = wg->group_id[2];
  }
  uint32_t items = wg->size[0] * wg->size[1] * wg->size[2];
  uint32_t exec = 0;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    uint32_t flat = index * 32 + lane;
    if (flat >= items) break;
    exec |= 1u << lane;
    uint32_t x = flat % wg->size[0];
    uint32_t y = (flat / wg->size[0]) % wg->size[1];
    uint32_t z = flat / (wg->size[0] * wg->size[1]);
    // gfx11 packs the work-item ids into v0 (x 9:0, y 19:10, z 29:20);
    // TIDIG_COMP_CNT says which are provided.
    uint32_t v0 = x;
    if (d->enable_vgpr_workitem_id >= 1) v0 |= y << 10;
    if (d->enable_vgpr_workitem_id >= 2) v0 |= z << 20;
    w->v[lane] = v0;
  }
  w->s[RL_ORACLE_EXEC] = exec;
  w->pc = dispatch->entry_address;
}

void rl_oracle_run_workgroup(rl_sim_wg_t* wg, rl_oracle_mem_t* mem,
                             rl_oracle_run_t* out_run) {
  memset(out_run, 0, sizeof(*out_run));
  const rl_sim_dispatch_t* dispatch = wg->dispatch;
  if (!rl_oracle_dispatch_supported(dispatch, out_run->why,
                                    sizeof(out_run->why))) {
    out_run->outcome = RL_ORACLE_SKIP;
    return;
  }
  const rl_kernel_descriptor_info_t* d = &dispatch->kernel->descriptor_info;
  // gfx12 has no IEEE or DX10_CLAMP mode: descriptor bits 23 and 21 mean
  // other things there (docs/isa-gfx12.md).
  bool gfx12 = strncmp(dispatch->processor, "gfx12", 5) == 0;
  rl_oracle_ctx_t ctx = {
      .wg = wg,
      .dispatch = dispatch,
      .mem = mem,
      .lds_size = dispatch->group_segment_size,
      .mode = (d->float_denorm_mode_32 == 0 ? RL_HM_MODE_FTZ32 : 0u) |
              (!gfx12 && d->enable_ieee_mode ? RL_HM_MODE_IEEE : 0u) |
              (!gfx12 && d->enable_dx10_clamp ? RL_HM_MODE_DX10 : 0u),
      .gfx12 = gfx12,
      .run = out_run,
  };
  uint32_t items = wg->size[0] * wg->size[1] * wg->size[2];
  ctx.wave_count = (items + 31) / 32;
  ctx.lds = calloc(ctx.lds_size ? ctx.lds_size : 1, 1);
  rl_oracle_wave_t* waves = calloc(ctx.wave_count ? ctx.wave_count : 1,
                                   sizeof(*waves));
  bool ok = ctx.lds && waves;
  for (uint32_t i = 0; ok && i < ctx.wave_count; ++i) {
    waves[i].v = calloc(RL_ORACLE_VGPRS * 32, sizeof(uint32_t));
    ok = waves[i].v != NULL;
    if (ok) rl_oracle_wave_init(&ctx, i, &waves[i]);
  }
  if (!ok) rl_oracle_skip(&ctx, "out of host memory");
  // Round-robin: each wave runs to its next barrier or its end; a barrier
  // opens once every wave that has not ended waits at it.
  while (!ctx.stop) {
    bool running = false;
    for (uint32_t i = 0; i < ctx.wave_count && !ctx.stop; ++i) {
      rl_oracle_wave_t* w = &waves[i];
      while (!w->ended && !w->at_barrier && !ctx.stop) {
        rl_oracle_step(&ctx, w);
        if (out_run->steps > RL_ORACLE_MAX_STEPS) {
          rl_oracle_skip(&ctx, "work-group ran past %llu wave-instructions",
                         (unsigned long long)RL_ORACLE_MAX_STEPS);
        }
      }
      running |= !w->ended;
    }
    if (!running) break;
    for (uint32_t i = 0; i < ctx.wave_count; ++i) waves[i].at_barrier = false;
  }
  for (uint32_t i = 0; waves && i < ctx.wave_count; ++i) free(waves[i].v);
  free(waves);
  free(ctx.lds);
}
