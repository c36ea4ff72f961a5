// Reports of a shadow run (shadow/shadow.h): text and JSON with the same
// content. The text is built in memory (open_memstream); the caller prints.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shadow/proof_json.h"
#include "shadow/shadow.h"
#include "shadow/shadow_effects.h"
#include "shadow/shadow_hazard.h"

// Differing region states the text report details; the JSON has them all.
#define RL_SHADOW_TEXT_MAX_DIFFERING 6u

// The verdict line's length bound in characters (issue 28: one line).
#define RL_SHADOW_VERDICT_MAX 200

static const char* rl_shadow_param_name(const rl_shadow_result_t* result) {
  return result->param == UINT32_MAX
             ? "step"
             : result->capture->params[result->param].name;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

static void rl_shadow_text_arm(FILE* out, const rl_shadow_arm_result_t* arm) {
  const rl_shadow_proof_t* p = &arm->proof;
  fprintf(out, "arm %-9s ", arm->name);
  if (!arm->available) {
    fprintf(out, "%s\n", arm->failure);
    return;
  }
  fprintf(out,
          "route=%s device=%s state=%s replays=%" PRIu64 " steps=%" PRIu64
          " launches=%" PRIu64 " dispatches=%u packets=%u waits=%u",
          p->route, p->device, p->state ? p->state : "?",
          p->replay_count, p->steps, p->launches_issued, p->dispatches,
          p->packets, p->waits);
  if (p->ib_dwords) fprintf(out, " ib_dwords=%u", p->ib_dwords);
  if (arm->kind == RL_SHADOW_ARM_HIPGRAPH && p->fallback_reason[0]) {
    fprintf(out, " [%s]", p->fallback_reason);  // instantiations, updates
  } else if (arm->kind == RL_SHADOW_ARM_RECORDED && p->fallback_reason[0]) {
    fprintf(out, " [%s; typed-model check only]", p->fallback_reason);
  } else if (arm->kind == RL_SHADOW_ARM_RECORDED) {
    fprintf(out, " rerecorded=%" PRIu64 "x%" PRIu64, p->rerecorded_windows,
            p->rerecorded_windows
                ? p->rerecorded_launches / p->rerecorded_windows
                : 0);
  }
  if (arm->failed) {
    fprintf(out, "  FAILED: %s\n", arm->failure);
  } else if (!arm->proof_ok) {
    fprintf(out, "  proof FAILED: %s\n", arm->proof_problem);
  } else {
    fprintf(out, "  proof ok\n");
  }
}

static void rl_shadow_text_difference(FILE* out,
                                      const rl_shadow_result_t* result,
                                      uint32_t a, const rl_shadow_cell_t* cell) {
  char hex[RL_DIGEST128_HEX_LENGTH + 1];
  rl_digest128_format(cell->digest, hex);
  fprintf(out, "      %-9s ", result->arms[a].name);
  if (cell->equal) {
    fprintf(out, "equal               %s\n", hex);
    return;
  }
  fprintf(out, "first byte %" PRIu64 ", %" PRIu64 " byte%s differ%s",
          cell->first_difference, cell->differing_bytes,
          cell->differing_bytes == 1 ? "" : "s",
          cell->differing_bytes == 1 ? "s" : "");
  if (cell->has_max_abs) fprintf(out, ", max abs %g", cell->max_abs_difference);
  fprintf(out, "  %s\n", hex);
}

// One line when every arm present agrees; otherwise a line per arm, for
// the first RL_SHADOW_TEXT_MAX_DIFFERING differing region states (|shown|
// so far); the rest are only counted. Returns true when the region differs.
static bool rl_shadow_text_region(FILE* out, const rl_shadow_result_t* result,
                                  uint32_t w, uint32_t r, uint32_t shown) {
  const rl_capture_region_t* region = &result->capture->regions[r];
  bool all_equal = true;
  uint32_t present = 0;
  const rl_shadow_cell_t* first = NULL;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_cell_t* cell = rl_shadow_result_cell(result, w, r, a);
    if (!cell->present) continue;
    if (!first) first = cell;
    ++present;
    all_equal = all_equal && cell->equal;
  }
  if (first && !all_equal && shown >= RL_SHADOW_TEXT_MAX_DIFFERING) {
    return true;
  }
  fprintf(out, "  window %-3u %s=%-6" PRId64 " %-12s ", w,
          rl_shadow_param_name(result),
          rl_shadow_window_value(&result->window, w), region->name);
  if (!first) {
    fprintf(out, "not read\n");
    return false;
  }
  if (all_equal) {
    char hex[RL_DIGEST128_HEX_LENGTH + 1];
    rl_digest128_format(first->digest, hex);
    fprintf(out, "equal (%u arms)     %s", present, hex);
    if (region->type == RL_REGION_U32 && first->small_size) {
      fprintf(out, "  values");  // a small u32 region: its values too
      for (uint32_t i = 0; i + 4 <= first->small_size; i += 4) {
        uint32_t v = 0;
        for (uint32_t b = 0; b < 4; ++b) {
          v |= (uint32_t)first->small[i + b] << (8 * b);
        }
        fprintf(out, " %u", v);
      }
    }
    fprintf(out, "\n");
    return false;
  }
  fprintf(out, "DIFFERS\n");
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_cell_t* cell = rl_shadow_result_cell(result, w, r, a);
    if (cell->present) rl_shadow_text_difference(out, result, a, cell);
  }
  return true;
}

// Widens an IEEE half (f16) or bfloat16 to float.
static float rl_shadow_half_to_float(uint16_t bits, bool brain) {
  if (brain) {
    uint32_t wide = (uint32_t)bits << 16;
    float value;
    memcpy(&value, &wide, sizeof(value));
    return value;
  }
  int exponent = (bits >> 10) & 0x1f;
  float mantissa = (float)(bits & 0x3ff);
  float value = exponent == 0    ? ldexpf(mantissa, -24)
                : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                 : ldexpf(mantissa + 1024.0f, exponent - 25);
  return (bits & 0x8000) ? -value : value;
}

// Prints one little-endian element of |type| (|size| bytes at |bytes|):
// its value and its bits.
static void rl_shadow_text_value(FILE* out, rl_region_type_t type,
                                 uint32_t size, const uint8_t* bytes) {
  uint32_t bits = 0;
  for (uint32_t i = 0; i < size; ++i) bits |= (uint32_t)bytes[i] << (8 * i);
  if (size == 4 && type == RL_REGION_F32) {
    float value;
    memcpy(&value, &bits, sizeof(value));
    fprintf(out, "%.9g (0x%08x)", (double)value, bits);
  } else if (size == 4 && type == RL_REGION_I32) {
    fprintf(out, "%" PRId32 " (0x%08x)", (int32_t)bits, bits);
  } else if (size == 4) {
    fprintf(out, "%" PRIu32 " (0x%08x)", bits, bits);
  } else if (size == 2) {
    fprintf(out, "%.5g (0x%04x)",
            (double)rl_shadow_half_to_float((uint16_t)bits,
                                            type == RL_REGION_BF16),
            bits);
  } else {
    fprintf(out, "0x%02x", bits);
  }
}

static void rl_shadow_text_title(FILE* out, const rl_shadow_result_t* result) {
  const rl_capture_t* capture = result->capture;
  fprintf(out,
          "shadow %s (%s): %u arms, %u windows of %s from %" PRId64
          " stride %" PRId64 ", %u regions, reference %s\n",
          capture->workload, capture->target ? capture->target : "?",
          result->arm_count, result->window.count, rl_shadow_param_name(result),
          result->window.start, result->window.stride, result->region_count,
          result->arms[result->reference].name);
}

static void rl_shadow_text_flip(FILE* out, const rl_shadow_result_t* result) {
  if (!result->flip) return;
  fprintf(out, "negative control: flipped byte %" PRIu64 " of region %s "
          "in arm %s after window 0\n", result->flip_offset,
          result->capture->regions[result->flip_region].name,
          result->arms[result->flip_arm].name);
}

// What checks the code under test independently (shadow.h, eager@isa).
static void rl_shadow_text_independent(FILE* out,
                                       const rl_shadow_result_t* result) {
  // The waits' bound shares the line: the demo's output stays in 40 lines.
  fprintf(out, "independent reference: %s%s%s\n",
          result->independent_reference[0] ? result->independent_reference
                                           : "none",
          result->wait_bound[0] ? "; bound: " : "", result->wait_bound);
}

static void rl_shadow_text_header(FILE* out, const rl_shadow_result_t* result) {
  rl_shadow_text_title(out, result);
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    rl_shadow_text_arm(out, &result->arms[a]);
    rl_shadow_hazard_text(out, result, &result->arms[a]);
    rl_shadow_effects_text(out, result, &result->arms[a]);
  }
  rl_shadow_text_independent(out, result);
  rl_shadow_text_flip(out, result);
}

static void rl_shadow_text_verdict(FILE* out, const rl_shadow_result_t* result) {
  if (result->pass) {
    fprintf(out, "shadow: PASS (%u arms x %u windows x %u regions "
            "byte-identical)\n", result->arm_count, result->window_count,
            result->region_count);
  } else {
    // Within RL_SHADOW_VERDICT_MAX characters: the details are above and
    // in --json (the reason there is whole).
    const int room = RL_SHADOW_VERDICT_MAX - (int)strlen("shadow: FAIL ()");
    if ((int)strlen(result->reason) <= room) {
      fprintf(out, "shadow: FAIL (%s)\n", result->reason);
    } else {
      fprintf(out, "shadow: FAIL (%.*s...)\n", room - 3, result->reason);
    }
  }
}

// Two arms of the same kind (one route on one kind of device) that differ
// only in the order their device ran work-groups (sequential or another
// adversarial seed) and disagree on region |r| after window |w|: the bytes
// depend on execution order, whatever the route does. False when there
// are none; else their indices.
static bool rl_shadow_order_dependent(const rl_shadow_result_t* result,
                                      uint32_t w, uint32_t r,
                                      uint32_t* out_a, uint32_t* out_b) {
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_cell_t* x = rl_shadow_result_cell(result, w, r, a);
    if (!x->present) continue;
    for (uint32_t b = a + 1; b < result->arm_count; ++b) {
      const rl_shadow_cell_t* y = rl_shadow_result_cell(result, w, r, b);
      if (!y->present || result->arms[a].kind != result->arms[b].kind ||
          rl_digest128_equal(x->digest, y->digest)) {
        continue;
      }
      *out_a = a;
      *out_b = b;
      return true;
    }
  }
  return false;
}

// The first divergence: where, and the element there in both arms.
static void rl_shadow_text_first(FILE* out, const rl_shadow_result_t* result) {
  const rl_capture_region_t* region =
      &result->capture->regions[result->first_region];
  fprintf(out,
          "first divergence: window %u (%s=%" PRId64 "), region %s (%s), "
          "byte %" PRIu64 "\n",
          result->first_window, rl_shadow_param_name(result),
          rl_shadow_window_value(&result->window, result->first_window),
          region->name, rl_region_type_name(region->type),
          result->first_offset);
  const char* names[2] = {
      result->arms[result->reference].name,
      result->arms[result->first_arm].name};
  const uint8_t* values[2] = {result->first_reference_value,
                              result->first_arm_value};
  for (int i = 0; i < 2; ++i) {
    fprintf(out, "  %-8s @%-8" PRIu64 " ", names[i],
            result->first_element_offset);
    rl_shadow_text_value(out, region->type, result->first_element_size,
                         values[i]);
    fputc('\n', out);
  }
  uint32_t a = 0, b = 0;
  if (rl_shadow_order_dependent(result, result->first_window,
                                result->first_region, &a, &b)) {
    fprintf(out,
            "cause: arms %s and %s run the same route and differ only in the "
            "order work-groups ran, yet region %s differs between them: its "
            "bytes depend on execution order (atomics on floating-point data "
            "are order-dependent, since float addition is not associative; "
            "or a race), so no route can be byte-exact on it; compute it "
            "deterministically (per-block partials and a final pass, "
            "docs/hip-corpus.md)\n",
            result->arms[a].name, result->arms[b].name, region->name);
  }
}

// An arm the summary folds into its route family's line: it ran, its proof
// holds, the hazard checker found nothing (or was off), and a recorded arm
// was re-recorded. Every other arm gets its full line.
static bool rl_shadow_summary_clean(const rl_shadow_arm_result_t* arm) {
  return arm->available && !arm->failed && arm->proof_ok &&
         arm->hazard_count == 0 && !arm->proof.fallback_reason[0] &&
         arm->effects.violations == 0 && arm->effects.dispatch_violations == 0;
}

// Arms |a| and |b| share a family line: one route, the same per-step
// stream, both hazard-checked or both not.
static bool rl_shadow_summary_family(const rl_shadow_arm_result_t* a,
                                     const rl_shadow_arm_result_t* b) {
  return strcmp(a->proof.route, b->proof.route) == 0 &&
         strcmp(a->proof.device, b->proof.device) == 0 &&
         (a->executor == b->executor ||
          (a->executor && b->executor &&
           strcmp(a->executor, b->executor) == 0)) &&
         a->effects_checked == b->effects_checked &&
         a->proof.dispatches == b->proof.dispatches &&
         a->proof.packets == b->proof.packets &&
         a->proof.waits == b->proof.waits &&
         a->proof.ib_dwords == b->proof.ib_dwords &&
         a->proof.steps == b->proof.steps &&
         a->hazard_checked == b->hazard_checked;
}

// The summary's arm lines: one per route family of clean arms ("ok pm4
// (pm4, pm4~adv1, pm4~adv2): ..."), the full line (and hazard lines) for
// every other arm.
static void rl_shadow_summary_arms(FILE* out, const rl_shadow_result_t* result) {
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    if (rl_shadow_summary_clean(arm)) continue;
    rl_shadow_text_arm(out, arm);
    rl_shadow_hazard_text(out, result, arm);
    rl_shadow_effects_text(out, result, arm);
  }
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    if (!rl_shadow_summary_clean(arm)) continue;
    bool seen = false;
    for (uint32_t b = 0; b < a && !seen; ++b) {
      seen = rl_shadow_summary_clean(&result->arms[b]) &&
             rl_shadow_summary_family(&result->arms[b], arm);
    }
    if (seen) continue;
    fprintf(out, "ok %-9s (", arm->proof.route);
    const char* separator = "";
    for (uint32_t b = a; b < result->arm_count; ++b) {
      if (!rl_shadow_summary_clean(&result->arms[b]) ||
          !rl_shadow_summary_family(arm, &result->arms[b])) {
        continue;
      }
      fprintf(out, "%s%s", separator, result->arms[b].name);
      separator = ", ";
    }
    const rl_shadow_proof_t* p = &arm->proof;
    fprintf(out, "): steps=%" PRIu64 " dispatches=%u packets=%u waits=%u",
            p->steps, p->dispatches, p->packets, p->waits);
    if (p->ib_dwords) fprintf(out, " ib_dwords=%u", p->ib_dwords);
    fprintf(out, " device=%s", p->device);
    if (arm->kind == RL_SHADOW_ARM_RECORDED) {
      fprintf(out, " rerecorded=%" PRIu64 "x%" PRIu64, p->rerecorded_windows,
              p->rerecorded_windows
                  ? p->rerecorded_launches / p->rerecorded_windows
                  : 0);
    }
    fprintf(out, "; proof ok, hazards %s\n",
            arm->hazard_checked ? "none" : "not checked");
  }
}

// The summary's audit line: what the effects and dispatch audits found
// in the clean arms they checked (an arm with a violation has its own lines
// above), or why no arm was checked.
static void rl_shadow_summary_audits(FILE* out,
                                     const rl_shadow_result_t* result) {
  const rl_shadow_arm_result_t* first = NULL;
  uint32_t checked = 0, clean = 0, available = 0;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    if (!arm->available) continue;
    ++available;
    if (!arm->effects_checked) continue;
    ++checked;
    if (!rl_shadow_summary_clean(arm)) continue;
    if (!first) first = arm;
    ++clean;
  }
  if (checked == 0) {
    if (available > 0) {
      fprintf(out, "effects audit: not checked (%s)\n",
              result->hazard_check ? "not a simulated device"
                                   : "--no-hazard-check");
    }
    return;
  }
  if (!first) return;
  fprintf(out, "effects audit: every access inside the declared effects "
          "(%" PRIu64 " dispatches) in %u arm%s", first->effects.dispatches,
          clean, clean == 1 ? "" : "s");
  if (checked < available) {
    fprintf(out, " (%u not on a simulated device)", available - checked);
  }
  fprintf(out, "; dispatch audit: grids and work-groups as launched\n");
}

// The as-issued argument check (shadow/issued_check.h): how many
// dispatches each simulated arm checked from what its device received (the
// clean arms; an arm that failed says so on its own line).
static void rl_shadow_summary_issued(FILE* out,
                                     const rl_shadow_result_t* result) {
  uint64_t launches = 0;
  uint32_t arms = 0, available = 0;
  bool recorded = false;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    if (!arm->available || arm->failed) continue;
    ++available;
    if (arm->kind == RL_SHADOW_ARM_RECORDED && arm->proof.issued_checked) {
      recorded = true;
    }
    if (!arm->issued_checked) continue;
    ++arms;
    if (arm->issued_checked > launches) launches = arm->issued_checked;
  }
  // Nothing checked (a capture without ISSUED records, as every
  // `redline capture` workload's, or no simulated arm): no line; the JSON
  // says issued_checked 0 per arm.
  if (available == 0 || (arms == 0 && !recorded)) return;
  fprintf(out, "as-issued arguments: %" PRIu64 " launches checked in %u "
          "arm%s against the HIP API arguments the program passed (the "
          "bytes each dispatch received on the simulated device%s)\n",
          launches, arms, arms == 1 ? "" : "s",
          recorded ? "; recorded also before each dispatch" : "");
}

static void rl_shadow_summary_write(FILE* out,
                                    const rl_shadow_result_t* result) {
  rl_shadow_text_title(out, result);
  rl_shadow_summary_arms(out, result);
  rl_shadow_summary_audits(out, result);
  rl_shadow_summary_issued(out, result);
  if (result->program_checked) {  // shadow/shadow_program.h
    fprintf(out, "reference program: %u region states at %u positions "
            "compared with the program's own%s\n", result->program_checked,
            result->program_windows,
            result->program_mismatch ? " (a MISMATCH)" : ", all equal");
  }
  rl_shadow_text_independent(out, result);
  rl_shadow_text_flip(out, result);
  if (result->diverged) {
    rl_shadow_text_first(out, result);
    fprintf(out, "(every window and region: --verbose or --json)\n");
  }
  rl_shadow_text_verdict(out, result);
}

static void rl_shadow_text_write(FILE* out, const rl_shadow_result_t* result) {
  rl_shadow_text_header(out, result);
  uint32_t differing = 0;
  for (uint32_t w = 0; w < result->window_count; ++w) {
    for (uint32_t r = 0; r < result->region_count; ++r) {
      if (rl_shadow_text_region(out, result, w, r, differing)) ++differing;
    }
  }
  if (differing > RL_SHADOW_TEXT_MAX_DIFFERING) {
    fprintf(out, "  ... %u more differing region states (all in --json)\n",
            differing - RL_SHADOW_TEXT_MAX_DIFFERING);
  }
  if (result->diverged) rl_shadow_text_first(out, result);
  rl_shadow_text_verdict(out, result);
}

// Runs |write| on an in-memory stream and returns its text.
static char* rl_shadow_report_build(
    void (*write)(FILE*, const rl_shadow_result_t*),
    const rl_shadow_result_t* result) {
  char* text = NULL;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  if (!out) return NULL;
  write(out, result);
  if (fclose(out) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

char* rl_shadow_report_text(const rl_shadow_result_t* result) {
  return rl_shadow_report_build(rl_shadow_text_write, result);
}

char* rl_shadow_report_summary(const rl_shadow_result_t* result) {
  return rl_shadow_report_build(rl_shadow_summary_write, result);
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static cJSON* rl_shadow_json_arm(const rl_shadow_result_t* result,
                                 const rl_shadow_arm_result_t* arm) {
  cJSON* o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "arm", arm->name);
  cJSON_AddStringToObject(o, "kind", rl_shadow_arm_kind_name(arm->kind));
  cJSON_AddBoolToObject(o, "diverged", arm->diverged);
  cJSON_AddStringToObject(o, "hazards",
                          arm->adversarial ? "adversarial" : "sequential");
  if (arm->adversarial) cJSON_AddNumberToObject(o, "seed", (double)arm->seed);
  if (arm->executor) cJSON_AddStringToObject(o, "executor", arm->executor);
  cJSON_AddBoolToObject(o, "available", arm->available);
  cJSON_AddBoolToObject(o, "failed", arm->failed);
  cJSON_AddNumberToObject(o, "issued_checked", (double)arm->issued_checked);
  if (arm->failed) {
    cJSON_AddStringToObject(o, "failure", arm->failure);
    cJSON_AddStringToObject(o, "failure_code",
                            rl_status_code_name(arm->failure_code));
  }
  cJSON_AddItemToObject(o, "proof", rl_proof_json(&arm->proof, RL_PROOF_JSON_SHADOW_ARM));
  cJSON_AddBoolToObject(o, "proof_ok", arm->proof_ok);
  if (!arm->proof_ok) {
    cJSON_AddStringToObject(o, "proof_problem", arm->proof_problem);
  }
  cJSON_AddItemToObject(o, "hazard_check", rl_shadow_hazard_json(result, arm));
  cJSON_AddItemToObject(o, "effects_audit", rl_shadow_effects_json(arm));
  return o;
}

static cJSON* rl_shadow_json_cell(const rl_shadow_result_t* result, uint32_t a,
                                  const rl_shadow_cell_t* cell) {
  char hex[RL_DIGEST128_HEX_LENGTH + 1];
  rl_digest128_format(cell->digest, hex);
  cJSON* o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "arm", result->arms[a].name);
  cJSON_AddStringToObject(o, "xxh3_128", hex);
  cJSON_AddBoolToObject(o, "equal", cell->equal);
  if (!cell->equal) {
    cJSON_AddNumberToObject(o, "first_difference",
                            (double)cell->first_difference);
    cJSON_AddNumberToObject(o, "differing_bytes",
                            (double)cell->differing_bytes);
    if (cell->has_max_abs) {
      // JSON has no infinity: a non-finite difference is a string.
      if (isfinite(cell->max_abs_difference)) {
        cJSON_AddNumberToObject(o, "max_abs_difference",
                                cell->max_abs_difference);
      } else {
        cJSON_AddStringToObject(o, "max_abs_difference", "inf");
      }
    }
  }
  return o;
}

static cJSON* rl_shadow_json_region(const rl_shadow_result_t* result,
                                    uint32_t w, uint32_t r) {
  const rl_capture_region_t* region = &result->capture->regions[r];
  cJSON* o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "region", region->name);
  cJSON_AddStringToObject(o, "type", rl_region_type_name(region->type));
  cJSON_AddNumberToObject(o, "size", (double)region->size);
  bool equal = true;
  cJSON* arms = cJSON_AddArrayToObject(o, "arms");
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_cell_t* cell = rl_shadow_result_cell(result, w, r, a);
    if (!cell->present) continue;
    equal = equal && cell->equal;
    cJSON_AddItemToArray(arms, rl_shadow_json_cell(result, a, cell));
  }
  cJSON_AddBoolToObject(o, "equal", equal);
  return o;
}

static cJSON* rl_shadow_json_windows(const rl_shadow_result_t* result) {
  cJSON* windows = cJSON_CreateArray();
  for (uint32_t w = 0; w < result->window_count; ++w) {
    cJSON* o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "window", w);
    cJSON_AddNumberToObject(o, "value",
                            (double)rl_shadow_window_value(&result->window, w));
    cJSON* regions = cJSON_AddArrayToObject(o, "regions");
    for (uint32_t r = 0; r < result->region_count; ++r) {
      cJSON_AddItemToArray(regions, rl_shadow_json_region(result, w, r));
    }
    cJSON_AddItemToArray(windows, o);
  }
  return windows;
}

static void rl_shadow_json_header(cJSON* root, const rl_shadow_result_t* result) {
  const rl_capture_t* capture = result->capture;
  cJSON_AddStringToObject(root, "workload", capture->workload);
  cJSON_AddStringToObject(root, "target", capture->target ? capture->target : "");
  cJSON_AddStringToObject(root, "param", rl_shadow_param_name(result));
  cJSON* window = cJSON_AddObjectToObject(root, "window");
  cJSON_AddNumberToObject(window, "start", (double)result->window.start);
  cJSON_AddNumberToObject(window, "count", result->window.count);
  cJSON_AddNumberToObject(window, "stride", (double)result->window.stride);
  cJSON_AddStringToObject(
      root, "reference",
      result->arms[result->reference].name);
  cJSON_AddStringToObject(root, "independent_reference",
                          result->independent_reference);
  cJSON_AddStringToObject(root, "wait_bound", result->wait_bound);
  if (result->oracle_ran) {
    const rl_oracle_report_t* r = &result->oracle;
    cJSON* oracle = cJSON_AddObjectToObject(root, "oracle");
    cJSON_AddStringToObject(oracle, "mode", rl_oracle_mode_name(r->mode));
    cJSON_AddStringToObject(oracle, "arm", result->arms[result->oracle_arm].name);
    cJSON_AddNumberToObject(oracle, "dispatches", (double)r->dispatches);
    cJSON_AddNumberToObject(oracle, "dispatches_checked",
                            (double)r->dispatches_checked);
    cJSON_AddNumberToObject(oracle, "dispatches_skipped",
                            (double)r->dispatches_skipped);
    cJSON_AddNumberToObject(oracle, "workgroups", (double)r->workgroups);
    cJSON_AddNumberToObject(oracle, "workgroups_checked",
                            (double)r->workgroups_checked);
    cJSON_AddNumberToObject(oracle, "workgroups_skipped",
                            (double)r->workgroups_skipped);
    cJSON_AddNumberToObject(oracle, "bytes_compared", (double)r->bytes_compared);
    cJSON_AddNumberToObject(oracle, "wave_instructions",
                            (double)r->wave_instructions);
    cJSON_AddNumberToObject(oracle, "oracle_ns", (double)r->oracle_ns);
    cJSON* reasons = cJSON_AddArrayToObject(oracle, "skip_reasons");
    for (uint32_t i = 0; i < r->reason_count && i < RL_ORACLE_MAX_REASONS;
         ++i) {
      cJSON* reason = cJSON_CreateObject();
      cJSON_AddStringToObject(reason, "reason", r->reasons[i].text);
      cJSON_AddNumberToObject(reason, "workgroups", (double)r->reasons[i].count);
      cJSON_AddItemToArray(reasons, reason);
    }
    cJSON_AddBoolToObject(oracle, "mismatch", r->mismatch);
    // The adversarial passes' oracles (shadow.h).
    cJSON_AddNumberToObject(oracle, "adversarial_arms",
                            result->oracle_adversarial_arms);
    cJSON_AddNumberToObject(oracle, "adversarial_workgroups_checked",
                            (double)result->oracle_adversarial_checked);
    cJSON_AddNumberToObject(oracle, "adversarial_workgroups_skipped",
                            (double)result->oracle_adversarial_skipped);
  }
}

static void rl_shadow_json_verdict(cJSON* root, const rl_shadow_result_t* result) {
  const rl_capture_t* capture = result->capture;
  if (result->flip) {
    cJSON* flip = cJSON_AddObjectToObject(root, "negative_control");
    cJSON_AddStringToObject(
        flip, "arm", result->arms[result->flip_arm].name);
    cJSON_AddStringToObject(flip, "region",
                            capture->regions[result->flip_region].name);
    cJSON_AddNumberToObject(flip, "offset", (double)result->flip_offset);
  }
  if (result->diverged) {
    cJSON* first = cJSON_AddObjectToObject(root, "first_divergence");
    cJSON_AddNumberToObject(first, "window", result->first_window);
    cJSON_AddStringToObject(first, "region",
                            capture->regions[result->first_region].name);
    cJSON_AddStringToObject(
        first, "arm", result->arms[result->first_arm].name);
    cJSON_AddNumberToObject(first, "offset", (double)result->first_offset);
    cJSON_AddNumberToObject(first, "element_offset",
                            (double)result->first_element_offset);
    // The element's bytes in memory order, as hex.
    char hex[2][2 * sizeof(result->first_arm_value) + 1];
    for (uint32_t i = 0; i < result->first_element_size; ++i) {
      snprintf(&hex[0][2 * i], 3, "%02x", result->first_reference_value[i]);
      snprintf(&hex[1][2 * i], 3, "%02x", result->first_arm_value[i]);
    }
    hex[0][2 * result->first_element_size] = '\0';
    hex[1][2 * result->first_element_size] = '\0';
    cJSON_AddStringToObject(first, "reference_bytes", hex[0]);
    cJSON_AddStringToObject(first, "arm_bytes", hex[1]);
  }
  cJSON_AddStringToObject(root, "verdict", result->pass ? "PASS" : "FAIL");
  cJSON_AddStringToObject(root, "reason", result->reason);
}

cJSON* rl_shadow_report_json(const rl_shadow_result_t* result) {
  cJSON* root = cJSON_CreateObject();
  if (!root) return NULL;
  rl_shadow_json_header(root, result);
  cJSON* arms = cJSON_AddArrayToObject(root, "arms");
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    cJSON_AddItemToArray(arms, rl_shadow_json_arm(result, &result->arms[a]));
  }
  cJSON_AddItemToObject(root, "windows", rl_shadow_json_windows(result));
  rl_shadow_json_verdict(root, result);
  return root;
}
