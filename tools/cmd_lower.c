// `redline lower FILE [--route aql|pm4] [--processor GFX] [--retain |
// --no-retain] [--json] [--stats]`: prepares a capture on the simulated
// device (contract, lowering, census) and prints the retained stream: one
// line per packet with every field named (the AQL decoder's formatter,
// aql/aql_decode.h, so packets read the same here as in the simulated
// command processor), then the patch table. Route pm4 prints the vendor
// packet and the IB disassembled with register names (tools/lower_pm4.c);
// --stats prints only the density statistics (dwords, dwords per
// dispatch, waits, acquires, patch sites); --no-retain turns register
// retention off (pm4; on by default). --processor is --target's old name.
// Nothing runs.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "aql/aql_decode.h"
#include "redline/capture_file.h"
#include "redline/replay.h"
#include "tools/cli.h"
#include "tools/lower_pm4.h"

typedef struct rl_lower_cli_s {
  const char* path;
  const char* processor;
  rl_target_t target;  // --target / --processor, parsed (processor above)
  rl_route_t route;
  bool json;
  bool stats;
  bool no_retain;
  bool device_patch;  // --device-patch: pm4_device_patch
} rl_lower_cli_t;

// The flags without a value.
static bool rl_lower_parse_flag(const char* arg, rl_lower_cli_t* cli) {
  if (rl_cli_is(arg, "--json")) {
    cli->json = true;
  } else if (rl_cli_is(arg, "--stats")) {
    cli->stats = true;
  } else if (rl_cli_is(arg, "--retain") || rl_cli_is(arg, "--no-retain")) {
    cli->no_retain = rl_cli_is(arg, "--no-retain");
  } else if (rl_cli_is(arg, "--device-patch")) {
    cli->device_patch = true;
  } else {
    return false;
  }
  return true;
}

static int rl_lower_parse(int argc, char** argv, rl_lower_cli_t* cli) {
  memset(cli, 0, sizeof(*cli));
  cli->route = RL_ROUTE_AQL;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    bool has_value = i + 1 < argc;
    if (has_value && rl_cli_is(arg, "--route")) {
      const char* value = argv[++i];
      if (!rl_route_parse(value, &cli->route) || cli->route == RL_ROUTE_NONE) {
        return rl_cli_usage("lower: --route expects aql or pm4, got '%s'",
                            value);
      }
    } else if (has_value && rl_cli_is_processor_flag(arg)) {
      // "gfx1201" or a whole target "amdgcn-amd-amdhsa--gfx1201".
      const char* value = argv[++i];
      rl_status_t status = rl_target_parse(value, &cli->target);
      rl_status_free(status);
      cli->processor = status ? value : cli->target.processor;
      int exit_code = rl_cli_processor("lower", arg, cli->processor);
      if (exit_code != RL_EXIT_OK) return exit_code;
    } else if (rl_lower_parse_flag(arg, cli)) {
      continue;
    } else if (arg[0] != '-' && !cli->path) {
      cli->path = arg;
    } else {
      return rl_cli_usage("lower: unknown or incomplete option '%s'", arg);
    }
  }
  if (!cli->path) return rl_cli_usage("lower: missing capture FILE");
  return RL_EXIT_OK;
}

static void rl_lower_print_packets(const rl_replay_t* replay,
                                   const rl_capture_t* capture,
                                   const rl_route_proof_t* proof) {
  printf("stream route=%s target=%s packets=%u dispatches=%u waits=%u "
         "bytes=%" PRIu64 " patch_sites=%u\n",
         rl_route_name(proof->route), proof->target, proof->packets,
         proof->dispatches, proof->waits, proof->stream_bytes,
         proof->patch_sites);
  for (uint32_t p = 0; p < proof->packets; ++p) {
    uint8_t packet[64];
    char line[512];
    rl_status_free(rl_replay_stream_packet(replay, p, packet));
    rl_aql_packet_format(packet, line, sizeof(line));
    const char* kernel = p < capture->launch_count
                             ? capture->kernels[capture->launches[p].kernel].name
                             : "?";
    printf("packet %u %s: %s\n", p, kernel, line);
  }
}

static void rl_lower_print_patches(const rl_replay_t* replay,
                                   const rl_route_proof_t* proof) {
  static const char* const kinds[] = {"scalar", "pointer", "grid"};
  for (uint32_t i = 0; i < proof->patch_sites; ++i) {
    rl_patch_site_t site;
    rl_status_free(rl_replay_patch_site(replay, i, &site));
    printf("patch %u %s launch=%u packet=%u dword=%u", i, kinds[site.kind],
           site.launch, site.packet, site.dword);
    if (site.kind != RL_PATCH_SITE_GRID) {
      printf(" address=0x%" PRIx64, site.device_address);
    }
    printf(" size=%u value=%s current=0x%" PRIx64 "\n", site.size, site.what,
           site.current);
  }
}

// Route aql's --stats / --json: the stream's statistics (and packets).
static void rl_lower_aql_summary(const rl_replay_t* replay,
                                 const rl_route_proof_t* proof,
                                 const rl_lower_cli_t* cli) {
  if (!cli->json) {
    printf("stats route=%s target=%s packets=%u dispatches=%u waits=%u "
           "bytes=%" PRIu64 " patch_sites=%u\n",
           rl_route_name(proof->route), proof->target, proof->packets, proof->dispatches, proof->waits,
           proof->stream_bytes, proof->patch_sites);
    return;
  }
  cJSON* root = cJSON_CreateObject();
  cJSON* stats = cJSON_AddObjectToObject(root, "stats");
  cJSON_AddStringToObject(stats, "route", rl_route_name(proof->route));
  cJSON_AddStringToObject(stats, "target", proof->target);
  cJSON_AddNumberToObject(stats, "packets", proof->packets);
  cJSON_AddNumberToObject(stats, "dispatches", proof->dispatches);
  cJSON_AddNumberToObject(stats, "waits", proof->waits);
  cJSON_AddNumberToObject(stats, "stream_bytes", (double)proof->stream_bytes);
  cJSON_AddNumberToObject(stats, "patch_sites", proof->patch_sites);
  cJSON* packets = cJSON_AddArrayToObject(root, "packets");
  for (uint32_t p = 0; !cli->stats && p < proof->packets; ++p) {
    uint8_t packet[64];
    char line[512];
    rl_status_free(rl_replay_stream_packet(replay, p, packet));
    rl_aql_packet_format(packet, line, sizeof(line));
    cJSON_AddItemToArray(packets, cJSON_CreateString(line));
  }
  rl_cli_print_json(root);
}

static rl_status_t rl_lower_print(const rl_lower_cli_t* cli,
                                  const rl_replay_t* replay,
                                  const rl_capture_t* capture,
                                  const rl_route_proof_t* proof) {
  if (proof->ib_dwords) {  // the route runs an IB (pm4, drm)
    const rl_lower_pm4_output_t output = {
        .json = cli->json, .stats_only = cli->stats, .retain = !cli->no_retain};
    return rl_lower_pm4_print(replay, capture, proof, &output);
  }
  if (cli->json || cli->stats) {
    rl_lower_aql_summary(replay, proof, cli);
    return RL_OK;
  }
  rl_lower_print_packets(replay, capture, proof);
  rl_lower_print_patches(replay, proof);
  return RL_OK;
}

static rl_status_t rl_lower_prepare(const rl_lower_cli_t* cli,
                                    rl_device_t* device,
                                    const rl_capture_t* capture) {
  rl_replay_t* replay = NULL;
  const rl_replay_options_t options = {.pm4_no_retain = cli->no_retain,
                                       .pm4_device_patch = cli->device_patch};
  RL_RETURN_IF_ERROR(rl_replay_create(device, capture, &options, &replay));
  rl_status_t status = rl_replay_contract(replay);
  if (!status) status = rl_replay_prepare(replay, cli->route);
  rl_route_proof_t proof;
  rl_replay_proof(replay, &proof);
  if (!status && proof.fallback_reason[0]) {
    status = RL_STATUS(RL_STATUS_CONTRACT, "no stream was built: %s",
                       proof.fallback_reason);
  }
  if (!status) status = rl_lower_print(cli, replay, capture, &proof);
  rl_replay_destroy(replay);
  return status;
}

int rl_cmd_lower(int argc, char** argv) {
  rl_lower_cli_t cli;
  int exit_code = rl_lower_parse(argc, argv, &cli);
  if (exit_code != RL_EXIT_OK) return exit_code;
  rl_capture_t* capture = NULL;
  rl_status_t status = rl_capture_file_read(cli.path, &capture, NULL);
  if (status) return rl_cli_fail(status, "lower");
  const char* processor = rl_capture_processor_or(capture, "gfx1100");
  const rl_device_options_t options = {
      .processor = cli.processor ? cli.processor : processor};
  rl_device_t* device = NULL;
  status = rl_device_open(&options, &device);
  if (!status) status = rl_lower_prepare(&cli, device, capture);
  rl_device_close(device);
  rl_capture_destroy(capture);
  return status ? rl_cli_fail(status, cli.path) : RL_EXIT_OK;
}
