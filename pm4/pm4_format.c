// pm4/pm4_format.c — one-line text for a decoded PM4 packet
// (rl_pm4_packet_format in pm4_decode.h), from the family's register and
// GCR tables and the packet field table.
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pm4/pm4_decode.h"

// Most fixed fields any packet has (RELEASE_MEM: 14).
#define RL_PM4_FORMAT_MAX_FIELDS 24
// Data dwords of a WRITE_DATA shown before "...".
#define RL_PM4_FORMAT_MAX_DATA 8

// Appends to a fixed buffer; once full, further text is dropped and the
// buffer stays NUL-terminated.
typedef struct rl_pm4_text_s {
  char* out;
  size_t size;
  size_t length;
} rl_pm4_text_t;

__attribute__((format(printf, 2, 3))) static void rl_pm4_text_add(
    rl_pm4_text_t* text, const char* format, ...) {
  if (text->size == 0 || text->length >= text->size - 1) return;
  va_list args;
  va_start(args, format);
  int n = vsnprintf(text->out + text->length, text->size - text->length, format,
                    args);
  va_end(args);
  if (n < 0) return;
  text->length += (size_t)n;
  if (text->length > text->size - 1) text->length = text->size - 1;
}

static void rl_pm4_text_value(rl_pm4_text_t* text, uint64_t value) {
  if (value < 10) {
    rl_pm4_text_add(text, "%" PRIu64, value);
  } else {
    rl_pm4_text_add(text, "0x%" PRIx64, value);
  }
}

// " (FIELD=v ...)" with the nonzero fields of |value| under |reg|; nothing
// when none is nonzero or the register is one full-width field.
static void rl_pm4_text_fields(rl_pm4_text_t* text,
                               const rl_pm4_register_t* reg, uint32_t value) {
  if (!reg || reg->field_count == 0 ||
      (reg->field_count == 1 && reg->fields[0].shift == 0 &&
       reg->fields[0].width == 32)) {
    return;
  }
  bool open = false;
  for (uint32_t i = 0; i < reg->field_count; ++i) {
    const rl_pm4_field_t* field = &reg->fields[i];
    uint32_t v = rl_pm4_bits_get(value, field->shift, field->width);
    if (v == 0) continue;
    rl_pm4_text_add(text, "%s%s=", open ? " " : " (", field->name);
    rl_pm4_text_value(text, v);
    open = true;
  }
  if (open) rl_pm4_text_add(text, ")");
}

static void rl_pm4_format_set_sh_reg(const rl_pm4_family_t* family,
                                     const rl_pm4_packet_t* packet,
                                     rl_pm4_text_t* text) {
  uint32_t first =
      RL_PM4_SH_REG_BASE + RL_PM4_GET(SET_SH_REG, REG_OFFSET, packet->body[0]);
  for (uint32_t i = 0; i + 2 < packet->dwords; ++i) {
    uint32_t value = packet->body[1 + i];
    const rl_pm4_register_t* reg = rl_pm4_family_register(family, first + i);
    if (reg) {
      rl_pm4_text_add(text, " %s=0x%08x", reg->name, value);
    } else {
      rl_pm4_text_add(text, " SH_REG_0x%04X=0x%08x", first + i, value);
    }
    rl_pm4_text_fields(text, reg, value);
  }
}

// The register-like table that breaks down field |name| of |packet|, if any.
static const rl_pm4_register_t* rl_pm4_breakdown(const rl_pm4_family_t* family,
                                                 const rl_pm4_packet_t* packet,
                                                 const char* name) {
  if (!family) return NULL;
  if (strcmp(name, "GCR_CNTL") == 0) {
    return packet->opcode == RL_PM4_ACQUIRE_MEM ? family->acquire_gcr_cntl
                                                : family->release_gcr_cntl;
  }
  if (strcmp(name, "INITIATOR") == 0) {
    return rl_pm4_family_register(family, family->regs.dispatch_initiator);
  }
  return NULL;
}

// True when |lo| is "<P>_LO" and |hi| is "<P>_HI"; |prefix_length| is the
// length of <P>.
static bool rl_pm4_is_pair(const char* lo, const char* hi,
                           size_t* prefix_length) {
  size_t n = strlen(lo);
  if (n < 3 || strcmp(lo + n - 3, "_LO") != 0 || strlen(hi) != n ||
      strncmp(lo, hi, n - 3) != 0 || strcmp(hi + n - 3, "_HI") != 0) {
    return false;
  }
  *prefix_length = n - 3;
  return true;
}

static void rl_pm4_format_fields(const rl_pm4_family_t* family,
                                 const rl_pm4_packet_t* packet,
                                 rl_pm4_text_t* text) {
  rl_pm4_named_value_t fields[RL_PM4_FORMAT_MAX_FIELDS];
  uint32_t n = rl_pm4_packet_fields(packet, fields, RL_PM4_FORMAT_MAX_FIELDS);
  if (n > RL_PM4_FORMAT_MAX_FIELDS) n = RL_PM4_FORMAT_MAX_FIELDS;
  for (uint32_t i = 0; i < n; ++i) {
    size_t prefix = 0;
    if (i + 1 < n &&
        rl_pm4_is_pair(fields[i].name, fields[i + 1].name, &prefix)) {
      uint64_t v = ((uint64_t)fields[i + 1].value << 32) | fields[i].value;
      rl_pm4_text_add(text, " %.*s=0x%" PRIx64, (int)prefix, fields[i].name, v);
      ++i;
      continue;
    }
    rl_pm4_text_add(text, " %s=", fields[i].name);
    rl_pm4_text_value(text, fields[i].value);
    if (strcmp(fields[i].name, "EVENT_TYPE") == 0) {
      const char* event = rl_pm4_event_name(fields[i].value);
      if (event) rl_pm4_text_add(text, "(%s)", event);
    }
    rl_pm4_text_fields(text, rl_pm4_breakdown(family, packet, fields[i].name),
                       fields[i].value);
  }
}

static void rl_pm4_format_write_data(const rl_pm4_packet_t* packet,
                                     rl_pm4_text_t* text) {
  uint32_t count = packet->dwords - 4;
  rl_pm4_text_add(text, " DATA=[");
  for (uint32_t i = 0; i < count && i < RL_PM4_FORMAT_MAX_DATA; ++i) {
    rl_pm4_text_add(text, "%s0x%08x", i ? " " : "", packet->body[3 + i]);
  }
  rl_pm4_text_add(text, "%s]", count > RL_PM4_FORMAT_MAX_DATA ? " ..." : "");
}

void rl_pm4_packet_format(const rl_pm4_family_t* family,
                          const rl_pm4_packet_t* packet, char* out,
                          size_t out_size) {
  rl_pm4_text_t text = {out, out_size, 0};
  if (out_size > 0) out[0] = '\0';
  if (!packet) return;
  rl_pm4_text_add(&text, "0x%04x ", packet->offset);
  if (!packet->name) {
    rl_pm4_text_add(&text, "UNKNOWN(0x%02X) dwords=%u", packet->opcode,
                    packet->dwords);
    return;
  }
  rl_pm4_text_add(&text, "%s", packet->name);
  if (packet->type != RL_PM4_TYPE3) return;
  switch (packet->opcode) {
    case RL_PM4_NOP:
      rl_pm4_text_add(&text, " dwords=%u", packet->dwords);
      return;
    case RL_PM4_SET_SH_REG:
      rl_pm4_format_set_sh_reg(family, packet, &text);
      return;
    default:
      break;
  }
  rl_pm4_format_fields(family, packet, &text);
  if (packet->opcode == RL_PM4_WRITE_DATA) {
    rl_pm4_format_write_data(packet, &text);
  }
}
