// Reports of a bench run (shadow/bench.h): a text table and JSON with the
// same content. Times print in microseconds.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "shadow/bench.h"
#include "shadow/proof_json.h"

static void rl_bench_text_time(FILE* out, const rl_bench_stat_t* stat) {
  if (!stat->present) {
    fprintf(out, " %9s %9s", "-", "-");
    return;
  }
  fprintf(out, " %9.1f %9.1f", stat->median / 1000.0, stat->p95 / 1000.0);
}

static void rl_bench_text_row(FILE* out, const rl_bench_arm_result_t* arm) {
  const rl_shadow_proof_t* p = &arm->proof;
  fprintf(out, "%-9s", rl_shadow_arm_kind_name(arm->kind));
  if (arm->failed && !arm->samples) {
    fprintf(out, " %s\n", arm->failure);
    return;
  }
  rl_bench_text_time(out, &arm->wall);
  rl_bench_text_time(out, &arm->host);
  rl_bench_text_time(out, &arm->device_span);
  fprintf(out, " %9.1f", arm->device_busy.median / 1000.0);
  fprintf(out, "  route=%s device=%s replays=%" PRIu64 " dispatches=%u "
          "packets=%u waits=%u", p->route, p->device, p->replay_count,
          p->dispatches, p->packets, p->waits);
  if (p->ib_dwords) fprintf(out, " ib_dwords=%u", p->ib_dwords);
  fprintf(out, "%s%s\n", arm->proof_ok ? "" : "  proof FAILED: ",
          arm->proof_ok ? "" : arm->proof_problem);
}

// The host share split (shadow/bench.h): per step, engine + doorbell =
// host; the medians are taken separately, so they need not add up.
static void rl_bench_text_split(FILE* out, const rl_bench_arm_result_t* arm) {
  if (!arm->engine.present) return;
  fprintf(out, "%s host split (medians, us): host %.2f = engine %.2f (admit "
          "+ apply + publish, the engine's work) + doorbell %.2f (device "
          "hand-off)",
          rl_shadow_arm_kind_name(arm->kind), arm->host.median / 1000.0,
          arm->engine.median / 1000.0, arm->doorbell.median / 1000.0);
  if (arm->handoff.present) {
    fprintf(out, "; wait beyond the device span %.2f (CP wake-up, packet "
            "fetch, completion to host)", arm->handoff.median / 1000.0);
  }
  fprintf(out, "\n");
}

static void rl_bench_text_pm4(FILE* out, const rl_bench_arm_result_t* arm) {
  const rl_bench_pm4_t* pm4 = &arm->pm4;
  if (!pm4->present) return;
  fprintf(out, "pm4 IB: %u dwords, %u DISPATCH_DIRECT (%.1f dwords/dispatch), "
          "waits: %u CS_PARTIAL_FLUSH, acquires: %u ACQUIRE_MEM, "
          "%u RELEASE_MEM, %u SET_SH_REG\n",
          pm4->dwords, pm4->dispatches, pm4->dwords_per_dispatch, pm4->waits,
          pm4->acquires, pm4->releases, pm4->set_sh_reg);
}

// Wave-instructions per second of device busy time, or 0.
static double rl_bench_isa_rate(const rl_bench_arm_result_t* arm) {
  if (!arm->isa_instructions || !arm->isa_busy_ns) return 0.0;
  return (double)arm->isa_instructions * 1e9 / (double)arm->isa_busy_ns;
}

// One line for every arm the ISA executor ran: its wave-instructions per
// second of device busy time (per core: one simulated CP thread per queue).
static void rl_bench_text_isa(FILE* out, const rl_bench_result_t* result) {
  bool any = false;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_bench_arm_result_t* arm = &result->arms[a];
    double rate = rl_bench_isa_rate(arm);
    if (rate == 0.0) continue;
    fprintf(out, "%s%s %.1f (%" PRIu64 " in %.1f ms busy)",
            any ? ", " : "isa, M wave-instructions/s per core: ",
            rl_shadow_arm_kind_name(arm->kind), rate / 1e6,
            arm->isa_instructions, arm->isa_busy_ns / 1e6);
    any = true;
  }
  if (any) fprintf(out, "\n");
}

static void rl_bench_text_write(FILE* out, const rl_bench_result_t* result) {
  const rl_capture_t* capture = result->capture;
  fprintf(out, "bench %s (%s): %u arms interleaved, %u rounds x %u steps "
          "from %" PRId64 " stride %" PRId64 "; wall-clock times per step in us "
          "(host: the engine's work and the doorbell, split below)\n",
          capture->workload, capture->target ? capture->target : "?",
          result->arm_count, result->rounds, result->window.count,
          result->window.start, result->window.stride);
  fprintf(out, "wait %s; threads %s\n",
          result->spin_wait ? "spin (polls the completion signal)"
                            : "block (the device's wait)",
          result->pinning[0] ? result->pinning : "not pinned (--pin)");
  // Every column is wall-clock time. The tail is a p95 only with enough
  // samples (shadow/bench.h), otherwise the maximum.
  bool p95 = false;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    p95 = p95 || result->arms[a].wall.p95_valid;
  }
  const char* tail = p95 ? "p95" : "max";
  char names[6][16];
  snprintf(names[0], sizeof(names[0]), "wall %s", tail);
  snprintf(names[1], sizeof(names[1]), "host %s", tail);
  snprintf(names[2], sizeof(names[2]), "dev %s", tail);
  fprintf(out, "%-9s %9s %9s %9s %9s %9s %9s %9s  %s\n", "arm", "wall p50",
          names[0], "host p50", names[1], "dev p50", names[2], "busy p50",
          "route proof");
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    rl_bench_text_row(out, &result->arms[a]);
  }
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    rl_bench_text_split(out, &result->arms[a]);
  }
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    rl_bench_text_pm4(out, &result->arms[a]);
    if (result->arms[a].device_partial) {
      fprintf(out, "%s: device times cover the last %u dispatches of a step "
              "only\n", rl_shadow_arm_kind_name(result->arms[a].kind), 4096u);
    }
  }
  rl_bench_text_isa(out, result);
  if (result->pass) {
    fprintf(out, "bench: PASS\n");
  } else {
    fprintf(out, "bench: FAIL (%s)\n", result->reason);
  }
}

char* rl_bench_report_text(const rl_bench_result_t* result) {
  char* text = NULL;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  if (!out) return NULL;
  rl_bench_text_write(out, result);
  if (fclose(out) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

static void rl_bench_json_stat(cJSON* parent, const char* name,
                               const rl_bench_stat_t* stat) {
  if (!stat->present) {
    cJSON_AddNullToObject(parent, name);
    return;
  }
  cJSON* o = cJSON_AddObjectToObject(parent, name);
  cJSON_AddNumberToObject(o, "median_ns", (double)stat->median);
  if (stat->p95_valid) cJSON_AddNumberToObject(o, "p95_ns", (double)stat->p95);
  cJSON_AddNumberToObject(o, "min_ns", (double)stat->min);
  cJSON_AddNumberToObject(o, "max_ns", (double)stat->max);
}

static void rl_bench_json_pm4(cJSON* parent, const rl_bench_pm4_t* pm4) {
  if (!pm4->present) return;
  cJSON* o = cJSON_AddObjectToObject(parent, "pm4");
  cJSON_AddNumberToObject(o, "dwords", pm4->dwords);
  cJSON_AddNumberToObject(o, "dispatches", pm4->dispatches);
  cJSON_AddNumberToObject(o, "dwords_per_dispatch", pm4->dwords_per_dispatch);
  cJSON_AddNumberToObject(o, "waits", pm4->waits);
  cJSON_AddNumberToObject(o, "acquires", pm4->acquires);
  cJSON_AddNumberToObject(o, "releases", pm4->releases);
  cJSON_AddNumberToObject(o, "set_sh_reg", pm4->set_sh_reg);
}

static cJSON* rl_bench_json_arm(const rl_bench_arm_result_t* arm) {
  cJSON* o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "arm", rl_shadow_arm_kind_name(arm->kind));
  cJSON_AddBoolToObject(o, "failed", arm->failed);
  if (arm->failed) cJSON_AddStringToObject(o, "failure", arm->failure);
  cJSON_AddNumberToObject(o, "samples", arm->samples);
  rl_bench_json_stat(o, "wall", &arm->wall);
  rl_bench_json_stat(o, "host", &arm->host);
  // host = host_engine + host_doorbell (shadow/bench.h).
  rl_bench_json_stat(o, "host_engine", &arm->engine);
  rl_bench_json_stat(o, "host_doorbell", &arm->doorbell);
  rl_bench_json_stat(o, "handoff", &arm->handoff);
  rl_bench_json_stat(o, "device_span", &arm->device_span);
  rl_bench_json_stat(o, "device_busy", &arm->device_busy);
  cJSON_AddBoolToObject(o, "device_partial", arm->device_partial);
  cJSON_AddItemToObject(o, "proof",
                        rl_proof_json(&arm->proof, RL_PROOF_JSON_BENCH));
  cJSON_AddBoolToObject(o, "proof_ok", arm->proof_ok);
  rl_bench_json_pm4(o, &arm->pm4);
  if (arm->isa_instructions) {
    cJSON* isa = cJSON_AddObjectToObject(o, "isa");
    cJSON_AddNumberToObject(isa, "wave_instructions",
                            (double)arm->isa_instructions);
    cJSON_AddNumberToObject(isa, "busy_ns", (double)arm->isa_busy_ns);
    cJSON_AddNumberToObject(isa, "wave_instructions_per_second",
                            rl_bench_isa_rate(arm));
  }
  return o;
}

cJSON* rl_bench_report_json(const rl_bench_result_t* result) {
  cJSON* root = cJSON_CreateObject();
  if (!root) return NULL;
  cJSON_AddStringToObject(root, "workload", result->capture->workload);
  cJSON_AddStringToObject(root, "target",
                          result->capture->target ? result->capture->target : "");
  cJSON_AddNumberToObject(root, "rounds", result->rounds);
  cJSON_AddStringToObject(root, "wait", result->spin_wait ? "spin" : "block");
  if (result->pinning[0]) {
    cJSON_AddStringToObject(root, "pinning", result->pinning);
  } else {
    cJSON_AddNullToObject(root, "pinning");
  }
  cJSON* window = cJSON_AddObjectToObject(root, "window");
  cJSON_AddNumberToObject(window, "start", (double)result->window.start);
  cJSON_AddNumberToObject(window, "count", result->window.count);
  cJSON_AddNumberToObject(window, "stride", (double)result->window.stride);
  cJSON* arms = cJSON_AddArrayToObject(root, "arms");
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    cJSON_AddItemToArray(arms, rl_bench_json_arm(&result->arms[a]));
  }
  cJSON_AddStringToObject(root, "verdict", result->pass ? "PASS" : "FAIL");
  cJSON_AddStringToObject(root, "reason", result->reason);
  return root;
}
