// `redline replay FILE [--route aql|pm4|drm] [--no-retain] [--device-patch]
// [--device sim]
// [--processor GFX]
// [--param NAME=VALUE]... [--repeat N] [--hazards sequential|adversarial]
// [--seed N] [--checked] [--timeout-ms N] [--json] [--no-hazard-check]`:
// replays a capture through the public replay API (redline/replay.h) and
// prints the route proof and the XXH3-128 of every state region after the
// last run. On a simulated device the dynamic hazard checker watches every
// run (shadow/hazard_verdict.h): a finding is printed ("hazard ...", and in
// the JSON "hazard_check") and fails the replay with exit 1; so does the
// effects audit (shadow/effects_audit.h: an access outside its launch's
// declared or observed effects, printed "effects ..." and in the JSON
// "effects_audit"). The exit code
// is otherwise the failure class: 4 contract (also parameters outside the
// admitted range), 5 prepare, 6 poisoned, 7 quarantined.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "redline/capture_file.h"
#include "redline/replay.h"
#include "sim/sim.h"
#include "tools/cli.h"
#include "shadow/effects_audit.h"
#include "shadow/hazard_verdict.h"
#include "shadow/proof_json.h"
#include "shadow/shadow_trace.h"
#include "tools/trace_cli.h"
#include "tools/cli_limits.h"

#define RL_REPLAY_CLI_MAX_PARAMS 16
#define RL_REPLAY_CLI_NS_PER_MS 1000000ull
// Hazard findings printed (more are counted).
#define RL_REPLAY_CLI_MAX_HAZARDS 8u

typedef struct rl_replay_cli_s {
  const char* path;
  const char* device;
  const char* processor;
  const char* executor;  // sim: "ref" (NULL) or "isa"
  rl_route_t route;
  uint64_t repeat;
  bool adversarial;
  const char* cache_model;  // NULL: off
  uint64_t seed;
  bool checked;
  bool json;
  const char* trace_path;  // --trace
  rl_trace_t* trace;
  bool no_retain;
  bool device_patch;  // --device-patch: pm4_device_patch
  bool no_hazard_check;
  uint64_t timeout_ms;
  rl_limits_t limits;  // --max-* (tools/cli_limits.h)
  uint32_t param_count;
  const char* param_text[RL_REPLAY_CLI_MAX_PARAMS];
} rl_replay_cli_t;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static int rl_replay_parse_value(rl_replay_cli_t* cli, const char* flag,
                                 const char* value) {
  int exit_code = RL_EXIT_OK;
  if (!rl_cli_is(flag, "--timeout-ms") &&
      rl_cli_limits_option("replay", flag, value, &cli->limits, &exit_code)) {
    return exit_code;
  }
  if (rl_cli_is(flag, "--route")) {
    if (!rl_route_parse(value, &cli->route) || cli->route == RL_ROUTE_NONE) {
      return rl_cli_usage("replay: --route expects aql, pm4 or drm, got '%s'",
                          value);
    }
  } else if (rl_cli_is(flag, "--device")) {
    cli->device = value;
  } else if (rl_cli_is_processor_flag(flag)) {
    cli->processor = value;
    return rl_cli_processor("replay", flag, value);
  } else if (rl_cli_is(flag, "--executor")) {
    cli->executor = value;
  } else if (rl_cli_is(flag, "--cache-model")) {
    cli->cache_model = value;
    return rl_cli_cache_model("replay", value);
  } else if (rl_cli_is(flag, "--hazards")) {
    cli->adversarial = strcmp(value, "adversarial") == 0;
    if (!cli->adversarial && strcmp(value, "sequential") != 0) {
      return rl_cli_usage("replay: --hazards expects sequential or "
                          "adversarial, got '%s'", value);
    }
  } else if (rl_cli_is(flag, "--param")) {
    if (cli->param_count == RL_REPLAY_CLI_MAX_PARAMS) {
      return rl_cli_usage("replay: more than %d --param values",
                          RL_REPLAY_CLI_MAX_PARAMS);
    }
    cli->param_text[cli->param_count++] = value;
  } else if (rl_cli_is(flag, "--trace")) {
    cli->trace_path = value;
  } else if (rl_cli_is(flag, "--repeat")) {
    return rl_cli_number_u64("replay", flag, value, 1, UINT32_MAX,
                             &cli->repeat);
  } else if (rl_cli_is(flag, "--seed")) {
    return rl_cli_number_u64("replay", flag, value, 0, UINT64_MAX, &cli->seed);
  } else if (rl_cli_is(flag, "--timeout-ms")) {
    // The bound is handed on in nanoseconds: refuse what would wrap there.
    return rl_cli_number_u64("replay", flag, value, 1,
                             UINT64_MAX / RL_REPLAY_CLI_NS_PER_MS,
                             &cli->timeout_ms);
  }
  return RL_EXIT_OK;
}

static bool rl_replay_takes_value(const char* flag) {
  static const char* const flags[] = {
      "--route", "--device", "--processor", "--target", "--executor", "--hazards", "--param",
      "--repeat", "--seed", "--timeout-ms", "--cache-model", "--trace"};
  for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); ++i) {
    if (rl_cli_is(flag, flags[i])) return true;
  }
  return rl_cli_limits_is_flag(flag);
}

static int rl_replay_parse(int argc, char** argv, rl_replay_cli_t* cli) {
  memset(cli, 0, sizeof(*cli));
  cli->route = RL_ROUTE_AQL;
  cli->repeat = 1;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    int exit_code = RL_EXIT_OK;
    if (rl_cli_is(arg, "--checked")) {
      cli->checked = true;
    } else if (rl_cli_is(arg, "--json")) {
      cli->json = true;
    } else if (rl_cli_is(arg, "--no-retain")) {
      cli->no_retain = true;
    } else if (rl_cli_is(arg, "--device-patch")) {
      cli->device_patch = true;
    } else if (rl_cli_is(arg, "--no-hazard-check")) {
      cli->no_hazard_check = true;
    } else if (rl_replay_takes_value(arg) && i + 1 < argc) {
      exit_code = rl_replay_parse_value(cli, arg, argv[++i]);
    } else if (arg[0] != '-' && !cli->path) {
      cli->path = arg;
    } else {
      return rl_cli_usage("replay: unknown or incomplete option '%s'", arg);
    }
    if (exit_code != RL_EXIT_OK) return exit_code;
  }
  if (!cli->path) return rl_cli_usage("replay: missing capture FILE");
  return RL_EXIT_OK;
}

// Sets |values| from the capture's values and the --param overrides. A
// value is parsed by the one number parser (base/number.h); whether
// it is admitted is the replay's answer (exit 4), not a usage error.
static rl_status_t rl_replay_values(const rl_replay_cli_t* cli,
                                    const rl_capture_t* capture,
                                    int64_t* values) {
  for (uint32_t p = 0; p < capture->param_count; ++p) {
    values[p] = capture->params[p].capture_value;
  }
  for (uint32_t i = 0; i < cli->param_count; ++i) {
    const char* text = cli->param_text[i];
    const char* equals = strchr(text, '=');
    char name[RL_CAPTURE_NAME_MAX];
    size_t length = equals ? (size_t)(equals - text) : 0;
    uint32_t index = 0;
    if (!equals || length == 0 || length >= sizeof(name)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "--param expects NAME=VALUE, got '%s'", text);
    }
    memcpy(name, text, length);
    name[length] = '\0';
    if (!rl_capture_find_param(capture, name, &index)) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "--param %s: the capture has no parameter '%s'", text,
                       name);
    }
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_number_parse_i64(equals + 1, &values[index]), "--param %s", name));
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

static void rl_replay_print_text(rl_replay_t* replay,
                                 const rl_capture_t* capture) {
  rl_route_proof_t proof;
  rl_replay_counters_t counters;
  rl_replay_proof(replay, &proof);
  rl_replay_counters(replay, &counters);
  printf("proof device=%s target=%s route=%s state=%s fallback=\"%s\" "
         "replays=%" PRIu64 " dispatches=%u packets=%u waits=%u queue=%u "
         "bytes=%" PRIu64 " patch_sites=%u ib_dwords=%u\n",
         proof.device, proof.target, rl_route_name(proof.route),
         rl_replay_state_name(proof.state), proof.fallback_reason,
         proof.replay_count, proof.dispatches, proof.packets, proof.waits,
         proof.queue_id, proof.stream_bytes, proof.patch_sites,
         proof.ib_dwords);
  printf("counters values_written=%" PRIu64 " values_unchanged=%" PRIu64
         " host_ns=%" PRIu64 " wait_ns=%" PRIu64 "\n",
         counters.values_written, counters.values_unchanged,
         counters.host_ns, counters.wait_ns);
  if (proof.state != RL_REPLAY_REPLAYING) return;
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    rl_digest128_t digest;
    char hex[RL_DIGEST128_HEX_LENGTH + 1] = "unreadable";
    rl_status_t status = rl_replay_read_region(replay, r, NULL, 0, &digest);
    if (!status) rl_digest128_format(digest, hex);
    rl_status_free(status);
    printf("region %s %s\n", capture->regions[r].name, hex);
  }
}

// With --cache-model report|strict on the simulator: what the cache model
// found (docs/cache-model.md), after the region hashes.
static void rl_replay_print_cache(const rl_replay_cli_t* cli,
                                  rl_device_t* device) {
  if (!cli->cache_model || strcmp(cli->cache_model, "off") == 0 ||
      !rl_sim_device_is(device)) {
    return;
  }
  rl_sim_cache_stats_t stats;
  rl_sim_cache_stats(device, &stats);
  printf("cache model=%s stale_reads=%" PRIu64 " stale_host_reads=%" PRIu64
         "\n",
         cli->cache_model, stats.stale_reads, stats.stale_host_reads);
}

// The proof object: the shared writer's replay form (shadow/proof_json.h).
static cJSON* rl_replay_proof_json(const rl_route_proof_t* proof) {
  rl_shadow_proof_t shared;
  rl_shadow_proof_from_route(proof, &shared);
  shared.route = rl_route_name(proof->route);
  return rl_proof_json(&shared, RL_PROOF_JSON_REPLAY);
}

static cJSON* rl_replay_counters_json(const rl_replay_counters_t* counters) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddNumberToObject(object, "runs", (double)counters->runs);
  cJSON_AddNumberToObject(object, "refused", (double)counters->refused);
  cJSON_AddNumberToObject(object, "values_written",
                          (double)counters->values_written);
  cJSON_AddNumberToObject(object, "values_unchanged",
                          (double)counters->values_unchanged);
  cJSON_AddNumberToObject(object, "host_ns", (double)counters->host_ns);
  cJSON_AddNumberToObject(object, "wait_ns", (double)counters->wait_ns);
  return object;
}

static cJSON* rl_replay_regions_json(rl_replay_t* replay,
                                     const rl_capture_t* capture) {
  cJSON* array = cJSON_CreateArray();
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    rl_digest128_t digest;
    char hex[RL_DIGEST128_HEX_LENGTH + 1];
    rl_status_t status = rl_replay_read_region(replay, r, NULL, 0, &digest);
    if (status) {
      rl_status_free(status);
      continue;
    }
    rl_digest128_format(digest, hex);
    cJSON* object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "name", capture->regions[r].name);
    cJSON_AddNumberToObject(object, "size", (double)capture->regions[r].size);
    cJSON_AddStringToObject(object, "xxh3_128", hex);
    cJSON_AddItemToArray(array, object);
  }
  return array;
}

typedef struct rl_replay_hazards_s rl_replay_hazards_t;
static cJSON* rl_replay_hazards_json(const rl_replay_hazards_t* hazards,
                                     const rl_capture_t* capture);
static cJSON* rl_replay_effects_json(const rl_replay_hazards_t* hazards);

static void rl_replay_print_json(rl_replay_t* replay,
                                 const rl_capture_t* capture,
                                 const rl_replay_hazards_t* hazards,
                                 rl_status_t status) {
  rl_route_proof_t proof;
  rl_replay_counters_t counters;
  rl_replay_proof(replay, &proof);
  rl_replay_counters(replay, &counters);
  cJSON* root = cJSON_CreateObject();
  cJSON_AddItemToObject(root, "proof", rl_replay_proof_json(&proof));
  cJSON_AddItemToObject(root, "counters", rl_replay_counters_json(&counters));
  cJSON_AddStringToObject(root, "status",
                          rl_status_code_name(rl_status_code(status)));
  cJSON_AddItemToObject(root, "hazard_check",
                        rl_replay_hazards_json(hazards, capture));
  cJSON_AddItemToObject(root, "effects_audit", rl_replay_effects_json(hazards));
  if (proof.state == RL_REPLAY_REPLAYING) {
    cJSON_AddItemToObject(root, "regions",
                          rl_replay_regions_json(replay, capture));
  }
  rl_cli_print_json(root);
}

//===----------------------------------------------------------------------===//
// Hazard verdicts
//===----------------------------------------------------------------------===//

typedef struct rl_replay_hazards_s {
  bool checked;
  uint32_t count;  // total found
  uint64_t digest;  // of all of them, in order (rl_hazard_watch_digest)
  rl_hazard_finding_t findings[RL_REPLAY_CLI_MAX_HAZARDS];
  // The effects and dispatch audits, on where the hazard checker is.
  bool effects_checked;
  rl_effects_audit_t effects;
} rl_replay_hazards_t;

static void rl_replay_hazards_collect(rl_replay_t* replay,
                                      const rl_capture_t* capture,
                                      const rl_hazard_watch_t* watch,
                                      rl_effects_watch_t* effects,
                                      const int64_t* values,
                                      rl_replay_hazards_t* out) {
  out->checked = rl_hazard_watch_active(watch);
  out->effects_checked = rl_effects_watch_active(effects);
  if (!out->checked && !out->effects_checked) return;
  uint64_t addresses[capture->buffer_count + 1];
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    addresses[b] = 0;
    rl_status_free(rl_replay_buffer_address(replay, b, &addresses[b]));
  }
  if (out->checked) {
    out->count = rl_hazard_watch_collect(watch, addresses, out->findings,
                                         RL_REPLAY_CLI_MAX_HAZARDS);
    out->digest = rl_hazard_watch_digest(watch);
  }
  rl_effects_watch_end(effects, values, addresses, "replay", &out->effects);
}

// "effects ..." lines: the audits' counts and their first findings.
static void rl_replay_effects_print(const rl_replay_hazards_t* hazards) {
  const rl_effects_audit_t* a = &hazards->effects;
  if (!hazards->effects_checked) {
    printf("effects not checked\n");
    return;
  }
  printf("effects audited %" PRIu64 " dispatches: %u violations, %u "
         "dispatch violations, %" PRIu64 " slots untouched\n",
         a->dispatches, a->violations, a->dispatch_violations, a->untouched);
  if (a->violations) printf("effects violation: %s\n", a->first);
  if (a->dispatch_violations) {
    printf("effects dispatch violation: %s\n", a->first_dispatch);
  }
}

static cJSON* rl_replay_effects_json(const rl_replay_hazards_t* hazards) {
  const rl_effects_audit_t* a = &hazards->effects;
  cJSON* o = cJSON_CreateObject();
  cJSON_AddBoolToObject(o, "checked", hazards->effects_checked);
  cJSON_AddNumberToObject(o, "dispatches", (double)a->dispatches);
  cJSON_AddNumberToObject(o, "violations", a->violations);
  cJSON_AddStringToObject(o, "first", a->first);
  cJSON_AddNumberToObject(o, "dispatch_violations", a->dispatch_violations);
  cJSON_AddStringToObject(o, "first_dispatch", a->first_dispatch);
  cJSON_AddNumberToObject(o, "untouched", (double)a->untouched);
  return o;
}

static void rl_replay_hazards_print(const rl_replay_hazards_t* hazards,
                                    const rl_capture_t* capture) {
  rl_replay_effects_print(hazards);
  if (!hazards->checked) {
    printf("hazards not checked\n");
    return;
  }
  printf("hazards %u\n", hazards->count);
  printf("hazards digest %016" PRIx64 "\n", hazards->digest);
  uint32_t kept = hazards->count < RL_REPLAY_CLI_MAX_HAZARDS
                      ? hazards->count
                      : RL_REPLAY_CLI_MAX_HAZARDS;
  for (uint32_t i = 0; i < kept; ++i) {
    char line[768];
    rl_hazard_finding_format(capture, &hazards->findings[i], line,
                             sizeof(line));
    printf("hazard run %" PRIu64 ": %s\n", hazards->findings[i].step, line);
  }
}

static cJSON* rl_replay_hazards_json(const rl_replay_hazards_t* hazards,
                                     const rl_capture_t* capture) {
  cJSON* o = cJSON_CreateObject();
  cJSON_AddBoolToObject(o, "checked", hazards->checked);
  cJSON_AddNumberToObject(o, "count", hazards->count);
  cJSON* findings = cJSON_AddArrayToObject(o, "findings");
  uint32_t kept = hazards->count < RL_REPLAY_CLI_MAX_HAZARDS
                      ? hazards->count
                      : RL_REPLAY_CLI_MAX_HAZARDS;
  for (uint32_t i = 0; i < kept; ++i) {
    cJSON_AddItemToArray(findings,
                         rl_hazard_finding_json(capture, &hazards->findings[i]));
  }
  return o;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

static rl_status_t rl_replay_open_device(const rl_replay_cli_t* cli,
                                         const rl_capture_t* capture,
                                         rl_device_t** out_device) {
  const char* processor = rl_capture_processor_or(capture, "gfx1100");
  const rl_limits_t limits = rl_limits_for_capture(&cli->limits, capture);
  const rl_device_options_t options = {
      .kind = cli->device,
      .processor = cli->processor ? cli->processor : processor,
      .adversarial = cli->adversarial,
      .seed = cli->seed,
      .cache_model = cli->cache_model,
      .executor = cli->executor,
      .max_work_items = limits.max_work_items,
      .max_dispatches = limits.max_dispatches,
      .no_hazard_check = cli->no_hazard_check,
  };
  return rl_device_open(&options, out_device);
}

// Contract, prepare and |cli->repeat| runs, watched by the hazard checker
// unless |cli->no_hazard_check|.
static rl_status_t rl_replay_steps(const rl_replay_cli_t* cli,
                                   rl_device_t* device, rl_replay_t* replay,
                                   const rl_capture_t* capture,
                                   rl_replay_hazards_t* out_hazards) {
  int64_t values[capture->param_count + 1];
  RL_RETURN_IF_ERROR(rl_replay_values(cli, capture, values));
  RL_RETURN_IF_ERROR(rl_replay_contract(replay));
  RL_RETURN_IF_ERROR(rl_replay_prepare(replay, cli->route));
  rl_hazard_watch_t watch;
  rl_hazard_watch_begin(&watch, cli->no_hazard_check ? NULL : device, capture);
  rl_effects_watch_t effects;
  rl_effects_watch_begin(&effects, cli->no_hazard_check ? NULL : device,
                         capture);
  rl_shadow_trace_t trace;
  const char* route = rl_route_name(cli->route);
  RL_RETURN_IF_ERROR(rl_shadow_trace_begin(&trace, cli->trace, capture, &route,
                                           1, "replay", 0));
  rl_status_t status = RL_OK;
  for (uint64_t i = 0; i < cli->repeat && !status; ++i) {
    uint64_t start = cli->trace ? rl_trace_now_ns() : 0;
    status = rl_replay_run(replay, values, capture->param_count);
    if (cli->trace) {
      rl_replay_counters_t counters;
      rl_replay_counters(replay, &counters);
      rl_route_proof_t proof;
      rl_replay_proof(replay, &proof);
      char name[48];
      snprintf(name, sizeof(name), "run %" PRIu64, i);
      rl_shadow_trace_device_step(&trace, 0, device, &counters,
                                  proof.stream_bytes / 4, name, start,
                                  rl_trace_now_ns());
    }
  }
  rl_shadow_trace_end(&trace);
  RL_RETURN_IF_ERROR(status);
  rl_replay_hazards_collect(replay, capture, &watch, &effects, values,
                            out_hazards);
  // A wrong declaration is what makes a plan miss a wait: the effects
  // audit's finding comes first (as in the shadow's verdict).
  const rl_effects_audit_t* audit = &out_hazards->effects;
  if (audit->violations || audit->dispatch_violations) {
    return RL_STATUS(RL_STATUS_MISMATCH, "effects audit: %s (%u found)",
                     audit->violations ? audit->first : audit->first_dispatch,
                     audit->violations + audit->dispatch_violations);
  }
  if (out_hazards->count == 0) return RL_OK;
  char line[768];
  rl_hazard_finding_format(capture, &out_hazards->findings[0], line,
                           sizeof(line));
  return RL_STATUS(RL_STATUS_MISMATCH, "hazard: %s (%u found)", line,
                   out_hazards->count);
}

static int rl_replay_on_device(const rl_replay_cli_t* cli,
                               rl_device_t* device,
                               const rl_capture_t* capture) {
  const rl_replay_options_t options = {
      .checked = cli->checked,
      .wait_timeout_ns = cli->timeout_ms * RL_REPLAY_CLI_NS_PER_MS,
      .pm4_no_retain = cli->no_retain,
      .pm4_device_patch = cli->device_patch,
      .limits = cli->limits,
  };
  rl_replay_t* replay = NULL;
  rl_status_t status = rl_replay_create(device, capture, &options, &replay);
  if (status) return rl_cli_fail(status, "replay");
  rl_replay_hazards_t hazards = {0};
  status = rl_replay_steps(cli, device, replay, capture, &hazards);
  if (cli->json) {
    rl_replay_print_json(replay, capture, &hazards, status);
  } else {
    rl_replay_print_text(replay, capture);
    rl_replay_print_cache(cli, device);
    rl_replay_hazards_print(&hazards, capture);
  }
  rl_replay_destroy(replay);
  return status ? rl_cli_fail(status, cli->path) : RL_EXIT_OK;
}

int rl_cmd_replay(int argc, char** argv) {
  rl_replay_cli_t cli;
  int exit_code = rl_replay_parse(argc, argv, &cli);
  if (exit_code != RL_EXIT_OK) return exit_code;
  rl_capture_t* capture = NULL;
  rl_status_t status =
      rl_capture_file_read_limited(cli.path, &cli.limits, &capture, NULL);
  if (status) return rl_cli_fail(status, "replay");
  rl_device_t* device = NULL;
  status = rl_replay_open_device(&cli, capture, &device);
  if (status) {
    rl_capture_destroy(capture);
    return rl_cli_fail(status, "replay");
  }
  const char* inputs[] = {cli.path};
  exit_code = rl_cli_trace_open("replay", cli.trace_path, inputs, 1, &cli.trace);
  if (exit_code == RL_EXIT_OK) {
    exit_code = rl_replay_on_device(&cli, device, capture);
    exit_code = rl_cli_trace_close("replay", cli.trace, cli.trace_path,
                                   exit_code);
  }
  rl_device_close(device);
  rl_capture_destroy(capture);
  return exit_code;
}
