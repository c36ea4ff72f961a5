// pm4/pm4_decode.h — the one PM4 decoder: the simulator's command processor,
// prepare's census, `redline lower --route pm4` and `redline disasm --pm4`
// all read streams through it.
//
// rl_pm4_decode_next() splits a dword stream into packets and reports
// malformed input precisely (RL_STATUS_INVALID_INPUT, message starting
// "dword N: " with the header's dword offset, then expected vs found):
//   - a type-0 or type-1 header (type-2 filler decodes as a one-dword
//     packet named "TYPE2_NOP");
//   - type-3 header bits 7:2 or 0 set (MEC: PREDICATE must be 0 and bits
//     7:2 are reserved; PAL PM4_MEC_TYPE_3_HEADER; SHADER_TYPE bit 1 is
//     accepted either way);
//   - a COUNT running past the end of the stream;
//   - a length that does not match the opcode's fixed length (DISPATCH_
//     DIRECT 5, EVENT_WRITE 2 or 4 for sample events (index 1..3),
//     ACQUIRE_MEM 8, RELEASE_MEM 8, WAIT_REG_MEM 7, COPY_DATA 6,
//     INDIRECT_BUFFER 4; SET_SH_REG at least 3, WRITE_DATA at least 5);
//   - a SET_SH_REG whose registers leave the SH window 0x2C00..0x2FFF.
// An opcode redline does not know is NOT an error here: the packet is
// returned with name NULL and its COUNT-derived length, the formatter
// prints UNKNOWN(0xNN), and a consumer that must execute it (the
// simulator's command processor) faults on name == NULL. A NOP whose COUNT
// is 0x3FFF is the one-dword header-only NOP (sid.h PKT3_NOP_PAD).
// It never reads past |count|.
// rl_pm4_packet_format() prints one packet with register names and decoded
// fields using the family's tables.
#ifndef REDLINE_PM4_PM4_DECODE_H_
#define REDLINE_PM4_PM4_DECODE_H_

#include <stddef.h>
#include <stdint.h>

#include "pm4/pm4_family.h"
#include "pm4/pm4_packet.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_pm4_packet_s {
  uint32_t offset;   // dword offset of the header in the stream
  uint32_t header;
  uint32_t type;     // 2 or 3
  uint32_t opcode;   // type 3 only
  uint32_t dwords;   // total, header included
  const uint32_t* body;  // dwords - 1 payload dwords
  const char* name;  // "SET_SH_REG", or NULL for unknown opcodes
} rl_pm4_packet_t;

// Decodes the packet at dword |offset| of |dwords| (|count| dwords).
// RL_STATUS_INVALID_INPUT naming the offset on malformed input.
rl_status_t rl_pm4_decode_next(const rl_pm4_family_t* family,
                               const uint32_t* dwords, uint32_t count,
                               uint32_t offset, rl_pm4_packet_t* out_packet);

// The opcode's name ("DISPATCH_DIRECT") or NULL for opcodes redline does
// not build (only those have validated layouts).
const char* rl_pm4_opcode_name(uint32_t opcode);

// The VGT_EVENT_TYPE name of |event_type| ("CS_PARTIAL_FLUSH") or NULL.
const char* rl_pm4_event_name(uint32_t event_type);

// One fixed payload field of a decoded packet (RL_PM4_PACKET_FIELDS).
typedef struct rl_pm4_named_value_s {
  const char* name;  // "DATA_SEL"
  uint32_t dword;    // dword of the packet, header = 0
  uint32_t value;
} rl_pm4_named_value_t;

// Writes up to |capacity| fields of |packet| (known opcodes other than
// NOP; SET_SH_REG gives its dword-1 fields) in table order into
// |out_fields| and returns how many the packet has (which may exceed
// |capacity|). Fields whose dword lies beyond the packet are skipped.
uint32_t rl_pm4_packet_fields(const rl_pm4_packet_t* packet,
                              rl_pm4_named_value_t* out_fields,
                              uint32_t capacity);

// One line: "0x0010 SET_SH_REG COMPUTE_PGM_RSRC2=0x0000008c (USER_SGPR=6
// TGID_X_EN=1 ...)" etc. Unknown opcodes print as UNKNOWN(0xNN). Values
// print in decimal below 10 and in hex otherwise; _LO/_HI pairs print as
// one 64-bit value; multi-field registers and GCR_CNTL / INITIATOR words
// list their nonzero fields in parentheses. |family| may be NULL (register
// names then print as SH_REG_0xNNNN). Always NUL-terminates when
// |out_size| > 0, truncating long packets.
void rl_pm4_packet_format(const rl_pm4_family_t* family,
                          const rl_pm4_packet_t* packet, char* out,
                          size_t out_size);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_PM4_PM4_DECODE_H_
