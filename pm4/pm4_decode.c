// pm4/pm4_decode.c — PM4 stream framing and validation (pm4_decode.h).
// Layouts come from RL_PM4_PACKET_FIELDS (pm4_packet.h), the table the
// builders encode with.
#include "pm4/pm4_decode.h"

#include <stdio.h>
#include <string.h>

// Length rules of the opcodes redline builds: total dwords including the
// header, |max_dwords| 0 = no upper bound beyond COUNT.
typedef struct rl_pm4_opcode_info_s {
  uint32_t opcode;
  const char* name;
  uint32_t min_dwords;
  uint32_t max_dwords;
} rl_pm4_opcode_info_t;

// Sizes: pm4_reference.md §1.3 (PAL PM4_MEC_* *_SIZEDW__CORE).
static const rl_pm4_opcode_info_t rl_pm4_opcodes[] = {
    {RL_PM4_NOP, "NOP", 1, 0},
    {RL_PM4_DISPATCH_DIRECT, "DISPATCH_DIRECT", 5, 5},
    {RL_PM4_WRITE_DATA, "WRITE_DATA", 5, 0},
    {RL_PM4_WAIT_REG_MEM, "WAIT_REG_MEM", 7, 7},
    {RL_PM4_INDIRECT_BUFFER, "INDIRECT_BUFFER", 4, 4},
    {RL_PM4_COPY_DATA, "COPY_DATA", 6, 6},
    {RL_PM4_EVENT_WRITE, "EVENT_WRITE", 2, 4},
    {RL_PM4_RELEASE_MEM, "RELEASE_MEM", 8, 8},
    {RL_PM4_ACQUIRE_MEM, "ACQUIRE_MEM", 8, 8},
    {RL_PM4_SET_SH_REG, "SET_SH_REG", 3, 0},
};
#define RL_PM4_OPCODE_COUNT (sizeof(rl_pm4_opcodes) / sizeof(rl_pm4_opcodes[0]))

typedef struct rl_pm4_field_info_s {
  uint32_t opcode;
  uint32_t dword;
  const char* name;
  uint32_t shift;
  uint32_t width;
} rl_pm4_field_info_t;

#define RL_PM4_FIELD_INFO_(op, dw, field, shift, width) \
  {RL_PM4_##op, (dw), #field, (shift), (width)},
static const rl_pm4_field_info_t rl_pm4_field_infos[] = {
    RL_PM4_PACKET_FIELDS(RL_PM4_FIELD_INFO_)};
#undef RL_PM4_FIELD_INFO_
#define RL_PM4_FIELD_INFO_COUNT \
  (sizeof(rl_pm4_field_infos) / sizeof(rl_pm4_field_infos[0]))

// VGT_EVENT_TYPE names (soc21_enum.h / soc24_enum.h) of the events redline
// emits or expects to read.
static const struct {
  uint32_t type;
  const char* name;
} rl_pm4_events[] = {
    {RL_PM4_EVENT_CACHE_FLUSH_TS, "CACHE_FLUSH_TS"},
    {RL_PM4_EVENT_CACHE_FLUSH, "CACHE_FLUSH"},
    {RL_PM4_EVENT_CS_PARTIAL_FLUSH, "CS_PARTIAL_FLUSH"},
    {RL_PM4_EVENT_CACHE_FLUSH_AND_INV_TS, "CACHE_FLUSH_AND_INV_TS_EVENT"},
    {RL_PM4_EVENT_BOTTOM_OF_PIPE_TS, "BOTTOM_OF_PIPE_TS"},
    {RL_PM4_EVENT_CS_DONE, "CS_DONE"},
};

// MEC type-3 header bits that must be zero: PREDICATE (bit 0) and the
// reserved bits 7:2; SHADER_TYPE (bit 1) may be either.
#define RL_PM4_HEADER_MEC_ZERO_MASK 0xFDu

static const rl_pm4_opcode_info_t* rl_pm4_opcode_info(uint32_t opcode) {
  for (size_t i = 0; i < RL_PM4_OPCODE_COUNT; ++i) {
    if (rl_pm4_opcodes[i].opcode == opcode) return &rl_pm4_opcodes[i];
  }
  return NULL;
}

const char* rl_pm4_opcode_name(uint32_t opcode) {
  const rl_pm4_opcode_info_t* info = rl_pm4_opcode_info(opcode);
  return info ? info->name : NULL;
}

const char* rl_pm4_event_name(uint32_t event_type) {
  for (size_t i = 0; i < sizeof(rl_pm4_events) / sizeof(rl_pm4_events[0]);
       ++i) {
    if (rl_pm4_events[i].type == event_type) return rl_pm4_events[i].name;
  }
  return NULL;
}

uint32_t rl_pm4_packet_fields(const rl_pm4_packet_t* packet,
                              rl_pm4_named_value_t* out_fields,
                              uint32_t capacity) {
  uint32_t found = 0;
  if (!packet || packet->type != RL_PM4_TYPE3 || !packet->name) return 0;
  for (size_t i = 0; i < RL_PM4_FIELD_INFO_COUNT; ++i) {
    const rl_pm4_field_info_t* info = &rl_pm4_field_infos[i];
    if (info->opcode != packet->opcode || info->dword >= packet->dwords) {
      continue;
    }
    if (out_fields && found < capacity) {
      out_fields[found].name = info->name;
      out_fields[found].dword = info->dword;
      out_fields[found].value = rl_pm4_bits_get(packet->body[info->dword - 1],
                                                info->shift, info->width);
    }
    ++found;
  }
  return found;
}

static rl_status_t rl_pm4_check_length(const rl_pm4_opcode_info_t* info,
                                       const rl_pm4_packet_t* packet) {
  uint32_t n = packet->dwords;
  if (info->opcode == RL_PM4_EVENT_WRITE) {
    // Sample events (EVENT_INDEX 1..3) carry an address: 4 dwords.
    uint32_t index = RL_PM4_GET(EVENT_WRITE, EVENT_INDEX, packet->body[0]);
    uint32_t expected = (index >= 1 && index <= 3) ? 4 : 2;
    if (n == expected) return RL_OK;
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "dword %u: EVENT_WRITE with EVENT_INDEX %u has %u "
                     "dwords, expected %u",
                     packet->offset, index, n, expected);
  }
  if (info->max_dwords && info->min_dwords == info->max_dwords &&
      n != info->min_dwords) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "dword %u: %s has %u dwords, expected %u", packet->offset,
                     info->name, n, info->min_dwords);
  }
  if (n < info->min_dwords) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "dword %u: %s has %u dwords, expected at least %u",
                     packet->offset, info->name, n, info->min_dwords);
  }
  return RL_OK;
}

static rl_status_t rl_pm4_check_sh_window(const rl_pm4_packet_t* packet) {
  uint32_t first =
      RL_PM4_SH_REG_BASE + RL_PM4_GET(SET_SH_REG, REG_OFFSET, packet->body[0]);
  uint32_t values = packet->dwords - 2;
  if (first < RL_PM4_SH_REG_END && values <= RL_PM4_SH_REG_END - first) {
    return RL_OK;
  }
  return RL_STATUS(RL_STATUS_INVALID_INPUT,
                   "dword %u: SET_SH_REG writes %u registers from 0x%04X, "
                   "expected them inside the SH window 0x%04X..0x%04X",
                   packet->offset, values, first, RL_PM4_SH_REG_BASE,
                   RL_PM4_SH_REG_END - 1);
}

// Frames the type-3 packet whose header is at |offset|.
static rl_status_t rl_pm4_decode_type3(const uint32_t* dwords, uint32_t count,
                                       uint32_t offset,
                                       rl_pm4_packet_t* packet) {
  uint32_t header = packet->header;
  if (header & RL_PM4_HEADER_MEC_ZERO_MASK) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "dword %u: type-3 header 0x%08X has PREDICATE or "
                     "reserved bits 7:2 set (0x%02X), expected 0 on the "
                     "compute engine",
                     offset, header, header & RL_PM4_HEADER_MEC_ZERO_MASK);
  }
  packet->opcode = rl_pm4_header_opcode(header);
  bool header_only_nop =
      packet->opcode == RL_PM4_NOP &&
      ((header >> RL_PM4_COUNT_SHIFT) & RL_PM4_COUNT_MASK) == RL_PM4_COUNT_MASK;
  packet->dwords = header_only_nop ? 1 : rl_pm4_header_dwords(header);
  const rl_pm4_opcode_info_t* info = rl_pm4_opcode_info(packet->opcode);
  if (packet->dwords > count - offset) {
    char label[24];
    if (info) {
      snprintf(label, sizeof(label), "%s", info->name);
    } else {
      snprintf(label, sizeof(label), "UNKNOWN(0x%02X)", packet->opcode);
    }
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "dword %u: %s packet of %u dwords (COUNT %u) runs past "
                     "the end of the stream, %u dwords left",
                     offset, label, packet->dwords, packet->dwords - 2,
                     count - offset);
  }
  packet->body = dwords + offset + 1;
  if (!info) return RL_OK;  // unknown opcode: framed, name NULL
  packet->name = info->name;
  RL_RETURN_IF_ERROR(rl_pm4_check_length(info, packet));
  if (packet->opcode == RL_PM4_SET_SH_REG) {
    RL_RETURN_IF_ERROR(rl_pm4_check_sh_window(packet));
  }
  return RL_OK;
}

rl_status_t rl_pm4_decode_next(const rl_pm4_family_t* family,
                               const uint32_t* dwords, uint32_t count,
                               uint32_t offset, rl_pm4_packet_t* out_packet) {
  (void)family;  // the framing rules are the same on gfx11 and gfx12
  memset(out_packet, 0, sizeof(*out_packet));
  out_packet->offset = offset;
  if (!dwords || offset >= count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "dword %u: no packet to decode, the stream has %u dwords",
                     offset, dwords ? count : 0);
  }
  uint32_t header = dwords[offset];
  out_packet->header = header;
  out_packet->type = rl_pm4_header_type(header);
  if (out_packet->type == 2) {
    out_packet->dwords = 1;
    out_packet->body = dwords + offset + 1;
    out_packet->name = "TYPE2_NOP";
    return RL_OK;
  }
  if (out_packet->type != RL_PM4_TYPE3) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "dword %u: header 0x%08X is a type-%u packet, expected "
                     "type 3 (or type-2 filler) on the compute engine",
                     offset, header, out_packet->type);
  }
  rl_status_t status = rl_pm4_decode_type3(dwords, count, offset, out_packet);
  if (status) {
    const uint32_t keep_offset = out_packet->offset;
    memset(out_packet, 0, sizeof(*out_packet));
    out_packet->offset = keep_offset;
  }
  return status;
}
