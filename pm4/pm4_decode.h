// pm4/pm4_decode.h — the one PM4 decoder: the simulator's command processor,
// prepare's census, `redline lower --route pm4` and `redline disasm --pm4`
// all read streams through it.
//
// rl_pm4_decode_next() splits a dword stream into packets and reports
// malformed input precisely (dword offset, expected vs found): a type other
// than 3 (type-2 filler excepted), a COUNT running past the end, an unknown
// opcode (decoded as UNKNOWN(0xNN) by the formatter; the simulator faults on
// it), a length that does not match the opcode's fixed length, a SET_SH_REG
// outside the SH window. It never reads past |count|.
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

// The opcode's name ("DISPATCH_DIRECT") or NULL.
const char* rl_pm4_opcode_name(uint32_t opcode);

// One line: "0x0010 SET_SH_REG COMPUTE_PGM_RSRC2=0x0000008c (USER_SGPR=6
// TGID_X_EN=1 ...)" etc. Unknown opcodes print as UNKNOWN(0xNN).
void rl_pm4_packet_format(const rl_pm4_family_t* family,
                          const rl_pm4_packet_t* packet, char* out,
                          size_t out_size);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_PM4_PM4_DECODE_H_
