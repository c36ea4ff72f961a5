// `redline disasm --pm4 RAWFILE [--processor GFX] [--json]` and
// `redline disasm --aql RAWFILE [--json]`: decodes a raw little-endian
// dword stream (PM4) or a file of 64-byte packets (AQL) with the decoders
// the simulated command processor uses (pm4/pm4_decode.h,
// aql/aql_decode.h) and prints one line per packet, or JSON. Malformed
// input stops the listing with exit 3 and the dword offset of the packet.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aql/aql_decode.h"
#include "pm4/pm4_decode.h"
#include "tools/cli.h"

typedef struct rl_disasm_cli_s {
  bool pm4;
  bool aql;
  bool json;
  const char* target;
  const char* target_flag;  // as given: --processor or its alias --target
  const char* path;
} rl_disasm_cli_t;

static int rl_disasm_parse(int argc, char** argv, rl_disasm_cli_t* cli) {
  memset(cli, 0, sizeof(*cli));
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (rl_cli_is(arg, "--pm4")) {
      cli->pm4 = true;
    } else if (rl_cli_is(arg, "--aql")) {
      cli->aql = true;
    } else if (rl_cli_is(arg, "--json")) {
      cli->json = true;
    } else if (rl_cli_is_processor_flag(arg) && i + 1 < argc) {
      cli->target_flag = arg;
      cli->target = argv[++i];
    } else if (arg[0] != '-' && !cli->path) {
      cli->path = arg;
    } else {
      return rl_cli_usage("disasm: unknown or incomplete option '%s'", arg);
    }
  }
  if (cli->pm4 == cli->aql) {
    return rl_cli_usage("disasm: give exactly one of --pm4 or --aql");
  }
  if (cli->aql && cli->target) {
    return rl_cli_usage("disasm: %s applies to --pm4 only", cli->target_flag);
  }
  if (!cli->path) return rl_cli_usage("disasm: missing RAWFILE");
  if (!cli->target) cli->target = "gfx1100";
  if (!cli->target_flag) cli->target_flag = "--processor";
  // An unknown --processor is a usage error (exit 2), found before the file.
  const rl_pm4_family_t* family = NULL;
  rl_status_t status = rl_pm4_family_for_processor(cli->target, &family);
  if (status) {
    int code = rl_cli_usage("disasm: %s: %s", cli->target_flag,
                            rl_status_message(status));
    rl_status_free(status);
    return code;
  }
  return RL_EXIT_OK;
}

// JSON numbers are doubles: values above 2^53 go out as "0x..." strings.
static cJSON* rl_disasm_json_u64_item(uint64_t value) {
  if (value <= (1ull << 53)) return cJSON_CreateNumber((double)value);
  char hex[24];
  snprintf(hex, sizeof(hex), "0x%" PRIx64, value);
  return cJSON_CreateString(hex);
}
static void rl_disasm_json_u64(cJSON* object, const char* key, uint64_t value) {
  cJSON_AddItemToObject(object, key, rl_disasm_json_u64_item(value));
}
static void rl_disasm_json_xyz(cJSON* object, const char* key,
                               const uint32_t* xyz) {
  cJSON* array = cJSON_AddArrayToObject(object, key);
  for (int i = 0; i < 3; ++i) {
    cJSON_AddItemToArray(array, cJSON_CreateNumber(xyz[i]));
  }
}

// {FIELD: value} for every field of |reg| (a register or GCR word).
static cJSON* rl_disasm_json_fields(const rl_pm4_register_t* reg,
                                    uint32_t value) {
  cJSON* fields = cJSON_CreateObject();
  for (uint32_t i = 0; reg && i < reg->field_count; ++i) {
    const rl_pm4_field_t* f = &reg->fields[i];
    cJSON_AddNumberToObject(fields, f->name,
                            rl_pm4_bits_get(value, f->shift, f->width));
  }
  return fields;
}

static cJSON* rl_disasm_json_sh_regs(const rl_pm4_family_t* family,
                                     const rl_pm4_packet_t* packet) {
  cJSON* regs = cJSON_CreateArray();
  uint32_t first = RL_PM4_GET(SET_SH_REG, REG_OFFSET, packet->body[0]);
  for (uint32_t i = 0; i + 2 < packet->dwords; ++i) {
    uint32_t value = packet->body[1 + i];
    const rl_pm4_register_t* reg =
        rl_pm4_family_register(family, RL_PM4_SH_REG_BASE + first + i);
    cJSON* entry = cJSON_CreateObject();
    char name[32];
    snprintf(name, sizeof(name), "SH_REG_0x%04X",
             RL_PM4_SH_REG_BASE + first + i);
    cJSON_AddStringToObject(entry, "name", reg ? reg->name : name);
    cJSON_AddNumberToObject(entry, "offset", first + i);
    cJSON_AddNumberToObject(entry, "value", value);
    if (reg)
      cJSON_AddItemToObject(entry, "fields", rl_disasm_json_fields(reg, value));
    cJSON_AddItemToArray(regs, entry);
  }
  return regs;
}

// "fields" (the packet's fixed fields) plus breakdowns of GCR_CNTL and the
// dispatch initiator, the event name and WRITE_DATA's data.
static void rl_disasm_json_packet_fields(const rl_pm4_family_t* family,
                                         const rl_pm4_packet_t* packet,
                                         cJSON* object) {
  rl_pm4_named_value_t values[32];
  uint32_t n = rl_pm4_packet_fields(packet, values, 32);
  if (n > 32) n = 32;
  if (n == 0) return;
  cJSON* fields = cJSON_AddObjectToObject(object, "fields");
  for (uint32_t i = 0; i < n; ++i) {
    cJSON_AddNumberToObject(fields, values[i].name, values[i].value);
    if (strcmp(values[i].name, "GCR_CNTL") == 0) {
      const rl_pm4_register_t* gcr = packet->opcode == RL_PM4_ACQUIRE_MEM
                                         ? family->acquire_gcr_cntl
                                         : family->release_gcr_cntl;
      cJSON_AddItemToObject(object, "gcr",
                            rl_disasm_json_fields(gcr, values[i].value));
    } else if (strcmp(values[i].name, "INITIATOR") == 0) {
      cJSON_AddItemToObject(
          object, "initiator",
          rl_disasm_json_fields(
              rl_pm4_family_register(family, family->regs.dispatch_initiator),
              values[i].value));
    } else if (strcmp(values[i].name, "EVENT_TYPE") == 0 &&
               rl_pm4_event_name(values[i].value)) {
      cJSON_AddStringToObject(object, "event",
                              rl_pm4_event_name(values[i].value));
    }
  }
  if (packet->opcode == RL_PM4_WRITE_DATA) {
    cJSON* data = cJSON_AddArrayToObject(object, "data");
    for (uint32_t i = 4; i < packet->dwords; ++i) {
      cJSON_AddItemToArray(data, cJSON_CreateNumber(packet->body[i - 1]));
    }
  }
}

static cJSON* rl_disasm_json_pm4(const rl_pm4_family_t* family,
                                 const rl_pm4_packet_t* packet) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddNumberToObject(object, "offset", packet->offset);
  cJSON_AddNumberToObject(object, "type", packet->type);
  char unknown[24];
  snprintf(unknown, sizeof(unknown), "UNKNOWN(0x%02X)", packet->opcode);
  if (packet->type == RL_PM4_TYPE3) {
    cJSON_AddNumberToObject(object, "opcode", packet->opcode);
  }
  cJSON_AddStringToObject(object, "name",
                          packet->name ? packet->name : unknown);
  cJSON_AddNumberToObject(object, "ndw", packet->dwords);
  cJSON_AddNumberToObject(object, "header", packet->header);
  if (packet->type == RL_PM4_TYPE3 && packet->opcode == RL_PM4_SET_SH_REG &&
      packet->name) {
    cJSON_AddItemToObject(object, "regs",
                          rl_disasm_json_sh_regs(family, packet));
  } else {
    rl_disasm_json_packet_fields(family, packet, object);
  }
  return object;
}

static rl_status_t rl_disasm_pm4(const rl_disasm_cli_t* cli,
                                 const uint8_t* bytes, size_t size,
                                 cJSON* out_json) {
  const rl_pm4_family_t* family = NULL;
  RL_RETURN_IF_ERROR(rl_pm4_family_for_processor(cli->target, &family));
  if (size % 4 != 0 || size / 4 > UINT32_MAX) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "dword %zu: file size %zu is not a whole number of "
                     "dwords",
                     size / 4, size);
  }
  uint32_t count = (uint32_t)(size / 4);
  uint32_t* dwords = malloc(count ? count * sizeof(uint32_t) : 1);
  if (!dwords) return rl_status_out_of_memory();
  for (uint32_t i = 0; i < count; ++i) {  // little-endian on any host
    const uint8_t* b = bytes + 4 * (size_t)i;
    dwords[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                (uint32_t)b[3] << 24;
  }
  rl_status_t status = RL_OK;
  char line[8192];
  for (uint32_t offset = 0; offset < count;) {
    rl_pm4_packet_t packet;
    status = rl_pm4_decode_next(family, dwords, count, offset, &packet);
    if (status) break;
    if (out_json) {
      cJSON_AddItemToArray(out_json, rl_disasm_json_pm4(family, &packet));
    } else {
      rl_pm4_packet_format(family, &packet, line, sizeof(line));
      printf("%s\n", line);
    }
    offset += packet.dwords;
  }
  free(dwords);
  return status;
}

static cJSON* rl_disasm_json_aql(const uint8_t* raw,
                                 const rl_aql_decoded_t* d) {
  cJSON* object = cJSON_CreateObject();
  const char* type = rl_aql_packet_type_name(d->type);
  cJSON_AddStringToObject(object, "type", type ? type : "undefined");
  cJSON_AddNumberToObject(object, "header", d->header);
  cJSON_AddNumberToObject(object, "setup",
                          (uint32_t)raw[2] | (uint32_t)raw[3] << 8);
  cJSON_AddBoolToObject(object, "barrier", d->barrier);
  cJSON_AddStringToObject(object, "acquire",
                          rl_aql_fence_scope_name(d->acquire_scope));
  cJSON_AddStringToObject(object, "release",
                          rl_aql_fence_scope_name(d->release_scope));
  if (d->type == RL_AQL_PACKET_TYPE_KERNEL_DISPATCH) {
    rl_disasm_json_xyz(object, "workgroup_size", d->workgroup_size);
    rl_disasm_json_xyz(object, "grid_size", d->grid_size);
    cJSON_AddNumberToObject(object, "group_segment_size",
                            d->group_segment_size);
    cJSON_AddNumberToObject(object, "private_segment_size",
                            d->private_segment_size);
    rl_disasm_json_u64(object, "kernel_object", d->kernel_object);
    rl_disasm_json_u64(object, "kernarg_address", d->kernarg_address);
  } else if (d->type == RL_AQL_PACKET_TYPE_BARRIER_AND ||
             d->type == RL_AQL_PACKET_TYPE_BARRIER_OR) {
    cJSON* deps = cJSON_AddArrayToObject(object, "dep_signal");
    for (int i = 0; i < 5; ++i) {
      cJSON_AddItemToArray(deps, rl_disasm_json_u64_item(d->dep_signal[i]));
    }
  } else if (d->type == RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC) {
    cJSON_AddNumberToObject(object, "vendor_format", d->vendor_format);
    rl_disasm_json_u64(object, "ib_address", d->ib_address);
    cJSON_AddNumberToObject(object, "ib_size", d->ib_size_dw);
    cJSON_AddBoolToObject(object, "ib_chain", d->ib_chain);
  }
  rl_disasm_json_u64(object, "completion_signal", d->completion_signal);
  return object;
}

static rl_status_t rl_disasm_aql(const uint8_t* bytes, size_t size,
                                 cJSON* out_json) {
  if (size % RL_AQL_PACKET_SIZE != 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "dword %zu: file size %zu is not a whole number of "
                     "64-byte AQL packets",
                     (size / RL_AQL_PACKET_SIZE) * 16, size);
  }
  char line[512];
  for (size_t p = 0; p < size / RL_AQL_PACKET_SIZE; ++p) {
    const uint8_t* raw = bytes + p * RL_AQL_PACKET_SIZE;
    rl_aql_decoded_t decoded;
    rl_aql_error_t error = rl_aql_packet_decode(raw, &decoded);
    // An INVALID slot is an unpublished one (a ring dump past its write
    // index), not a malformed packet: listed, not fatal.
    if (error != RL_AQL_OK && error != RL_AQL_ERROR_NOT_READY) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "dword %zu: AQL packet %zu: %s (%s)", p * 16, p,
                       decoded.reason, rl_aql_error_name(error));
    }
    if (out_json) {
      cJSON_AddItemToArray(out_json, rl_disasm_json_aql(raw, &decoded));
    } else {
      rl_aql_packet_format(raw, line, sizeof(line));
      printf("0x%04zx %s\n", p * 16, line);
    }
  }
  return RL_OK;
}

int rl_cmd_disasm(int argc, char** argv) {
  rl_disasm_cli_t cli;
  int exit_code = rl_disasm_parse(argc, argv, &cli);
  if (exit_code != RL_EXIT_OK) return exit_code;
  uint8_t* bytes = NULL;
  size_t size = 0;
  rl_status_t status = rl_cli_read_file(cli.path, &bytes, &size);
  if (status) return rl_cli_fail(status, "disasm");
  cJSON* json = cli.json ? cJSON_CreateArray() : NULL;
  status = cli.pm4 ? rl_disasm_pm4(&cli, bytes, size, json)
                   : rl_disasm_aql(bytes, size, json);
  free(bytes);
  if (status) {
    cJSON_Delete(json);
    char context[512];
    snprintf(context, sizeof(context), "disasm %s", cli.path);
    return rl_cli_fail(status, context);
  }
  return json ? rl_cli_print_json(json) : RL_EXIT_OK;
}
