// `redline lower --route pm4` output (tools/lower_pm4.h).
#include "tools/lower_pm4.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aql/aql_decode.h"
#include "pm4/pm4_decode.h"
#include "tools/cli.h"

// The IB of the prepared stream and the family that decodes it.
typedef struct rl_lower_pm4_ib_s {
  const rl_pm4_family_t* family;
  uint32_t* dwords;
  uint32_t count;
  uint32_t acquires;  // ACQUIRE_MEM packets
  uint32_t copies;    // COPY_DATA packets (relay, --device-patch)
  uint32_t ibs;       // IBs: 1 + INDIRECT_BUFFER CHAIN packets
  uint32_t packets;
} rl_lower_pm4_ib_t;

// The IB's family is the capture's processor (the replay contract made the
// device's target equal to the capture's).
static rl_status_t rl_lower_pm4_ib_read(const rl_replay_t* replay,
                                        const rl_capture_t* capture,
                                        rl_lower_pm4_ib_t* out_ib) {
  memset(out_ib, 0, sizeof(*out_ib));
  out_ib->ibs = 1;
  RL_RETURN_IF_ERROR(rl_pm4_family_for_processor(
      rl_capture_processor_or(capture, ""), &out_ib->family));
  RL_RETURN_IF_ERROR(rl_replay_stream_ib(replay, NULL, 0, &out_ib->count));
  out_ib->dwords = malloc(4ull * out_ib->count + 4);
  if (!out_ib->dwords) return rl_status_out_of_memory();
  RL_RETURN_IF_ERROR(rl_replay_stream_ib(replay, out_ib->dwords,
                                         out_ib->count, &out_ib->count));
  for (uint32_t offset = 0; offset < out_ib->count;) {
    rl_pm4_packet_t packet;
    RL_RETURN_IF_ERROR(rl_pm4_decode_next(out_ib->family, out_ib->dwords,
                                          out_ib->count, offset, &packet));
    out_ib->acquires += packet.opcode == RL_PM4_ACQUIRE_MEM;
    out_ib->copies += packet.opcode == RL_PM4_COPY_DATA;
    out_ib->ibs += packet.opcode == RL_PM4_INDIRECT_BUFFER;
    ++out_ib->packets;
    offset += packet.dwords;
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

static void rl_lower_pm4_text_stats(const rl_route_proof_t* proof,
                                    const rl_lower_pm4_ib_t* ib,
                                    bool retain) {
  printf("stats route=%s target=%s retain=%s dwords=%u dispatches=%u "
         "dwords_per_dispatch=%.2f waits=%u acquires=%u copies=%u "
         "patch_sites=%u ibs=%u\n",
         rl_route_name(proof->route), proof->target, retain ? "on" : "off", ib->count, proof->dispatches,
         proof->dispatches ? (double)ib->count / proof->dispatches : 0.0,
         proof->waits, ib->acquires, ib->copies, proof->patch_sites, ib->ibs);
}

// The packet at dword |offset| of the IB, decoded and formatted (the census
// accepted the IB, so it decodes).
static void rl_lower_pm4_decode(const rl_lower_pm4_ib_t* ib, uint32_t offset,
                                rl_pm4_packet_t* out_packet, char* line,
                                size_t line_size) {
  rl_status_free(rl_pm4_decode_next(ib->family, ib->dwords, ib->count, offset,
                                    out_packet));
  rl_pm4_packet_format(ib->family, out_packet, line, line_size);
}

static void rl_lower_pm4_text_ib(const rl_lower_pm4_ib_t* ib) {
  for (uint32_t offset = 0; offset < ib->count;) {
    rl_pm4_packet_t packet;
    char line[1024];
    rl_lower_pm4_decode(ib, offset, &packet, line, sizeof(line));
    printf("ib %s\n", line);
    offset += packet.dwords;
  }
}

static void rl_lower_pm4_text_patches(const rl_replay_t* replay,
                                      const rl_route_proof_t* proof) {
  static const char* const kinds[] = {"scalar", "pointer", "grid"};
  for (uint32_t i = 0; i < proof->patch_sites; ++i) {
    rl_patch_site_t site;
    rl_status_free(rl_replay_patch_site(replay, i, &site));
    printf("patch %u %s launch=%u dword=%u address=0x%" PRIx64
           " size=%u value=%s current=0x%" PRIx64 "\n",
           i, kinds[site.kind], site.launch, site.dword, site.device_address,
           site.size, site.what, site.current);
  }
}

static void rl_lower_pm4_text(const rl_replay_t* replay,
                              const rl_route_proof_t* proof,
                              const rl_lower_pm4_ib_t* ib, bool retain) {
  uint8_t packet[64];
  char line[512];
  rl_status_free(rl_replay_stream_packet(replay, 0, packet));
  rl_aql_packet_format(packet, line, sizeof(line));
  printf("stream route=%s target=%s packets=%u dispatches=%u waits=%u "
         "bytes=%" PRIu64 " ib_dwords=%u patch_sites=%u\n",
         rl_route_name(proof->route), proof->target, proof->packets, proof->dispatches, proof->waits,
         proof->stream_bytes, proof->ib_dwords, proof->patch_sites);
  printf("packet 0 %s\n", line);
  rl_lower_pm4_text_ib(ib);
  rl_lower_pm4_text_patches(replay, proof);
  rl_lower_pm4_text_stats(proof, ib, retain);
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static cJSON* rl_lower_pm4_json_stats(const rl_route_proof_t* proof,
                                      const rl_lower_pm4_ib_t* ib,
                                      bool retain) {
  cJSON* stats = cJSON_CreateObject();
  cJSON_AddStringToObject(stats, "route", rl_route_name(proof->route));
  cJSON_AddStringToObject(stats, "target", proof->target);
  cJSON_AddBoolToObject(stats, "retain", retain);
  cJSON_AddNumberToObject(stats, "dwords", ib->count);
  cJSON_AddNumberToObject(stats, "dispatches", proof->dispatches);
  cJSON_AddNumberToObject(
      stats, "dwords_per_dispatch",
      proof->dispatches ? (double)ib->count / proof->dispatches : 0.0);
  cJSON_AddNumberToObject(stats, "waits", proof->waits);
  cJSON_AddNumberToObject(stats, "acquires", ib->acquires);
  cJSON_AddNumberToObject(stats, "copies", ib->copies);
  cJSON_AddNumberToObject(stats, "patch_sites", proof->patch_sites);
  cJSON_AddNumberToObject(stats, "ibs", ib->ibs);
  cJSON_AddNumberToObject(stats, "stream_bytes", (double)proof->stream_bytes);
  return stats;
}

static cJSON* rl_lower_pm4_json_ib(const rl_lower_pm4_ib_t* ib) {
  cJSON* array = cJSON_CreateArray();
  for (uint32_t offset = 0; offset < ib->count;) {
    rl_pm4_packet_t packet;
    char line[1024];
    rl_lower_pm4_decode(ib, offset, &packet, line, sizeof(line));
    cJSON* item = cJSON_CreateObject();
    cJSON_AddNumberToObject(item, "offset", offset);
    cJSON_AddStringToObject(item, "packet", packet.name ? packet.name : "");
    cJSON_AddNumberToObject(item, "dwords", packet.dwords);
    cJSON_AddStringToObject(item, "text", line);
    cJSON_AddItemToArray(array, item);
    offset += packet.dwords;
  }
  return array;
}

static cJSON* rl_lower_pm4_json_patches(const rl_replay_t* replay,
                                        const rl_route_proof_t* proof) {
  static const char* const kinds[] = {"scalar", "pointer", "grid"};
  cJSON* array = cJSON_CreateArray();
  for (uint32_t i = 0; i < proof->patch_sites; ++i) {
    rl_patch_site_t site;
    char address[32];
    rl_status_free(rl_replay_patch_site(replay, i, &site));
    snprintf(address, sizeof(address), "0x%" PRIx64, site.device_address);
    cJSON* item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "kind", kinds[site.kind]);
    cJSON_AddNumberToObject(item, "launch", site.launch);
    cJSON_AddNumberToObject(item, "dword", site.dword);
    cJSON_AddStringToObject(item, "address", address);
    cJSON_AddNumberToObject(item, "size", site.size);
    cJSON_AddStringToObject(item, "value", site.what);
    cJSON_AddNumberToObject(item, "current", (double)site.current);
    cJSON_AddItemToArray(array, item);
  }
  return array;
}

static int rl_lower_pm4_json(const rl_replay_t* replay,
                             const rl_route_proof_t* proof,
                             const rl_lower_pm4_ib_t* ib,
                             const rl_lower_pm4_output_t* output) {
  cJSON* root = cJSON_CreateObject();
  cJSON_AddItemToObject(root, "stats",
                        rl_lower_pm4_json_stats(proof, ib, output->retain));
  if (!output->stats_only) {
    uint8_t packet[64];
    char line[512];
    rl_status_free(rl_replay_stream_packet(replay, 0, packet));
    rl_aql_packet_format(packet, line, sizeof(line));
    cJSON_AddStringToObject(root, "packet", line);
    cJSON_AddItemToObject(root, "ib", rl_lower_pm4_json_ib(ib));
    cJSON_AddItemToObject(root, "patches",
                          rl_lower_pm4_json_patches(replay, proof));
  }
  return rl_cli_print_json(root);
}

rl_status_t rl_lower_pm4_print(const rl_replay_t* replay,
                               const rl_capture_t* capture,
                               const rl_route_proof_t* proof,
                               const rl_lower_pm4_output_t* output) {
  rl_lower_pm4_ib_t ib;
  rl_status_t status = rl_lower_pm4_ib_read(replay, capture, &ib);
  if (!status && output->json) {
    if (rl_lower_pm4_json(replay, proof, &ib, output) != RL_EXIT_OK) {
      status = rl_status_out_of_memory();
    }
  } else if (!status && output->stats_only) {
    rl_lower_pm4_text_stats(proof, &ib, output->retain);
  } else if (!status) {
    rl_lower_pm4_text(replay, proof, &ib, output->retain);
  }
  free(ib.dwords);
  return status;
}
