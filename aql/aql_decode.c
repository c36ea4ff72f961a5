// aql/aql_decode.c — AQL packet classification, validation and formatting.
// The rules and their sources are on aql/aql_decode.h.
#include "aql/aql_decode.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// Records the first violation found; later ones are ignored so the reason
// names the earliest field in packet order.
__attribute__((format(printf, 3, 4))) static rl_aql_error_t rl_aql_fail(
    rl_aql_decoded_t* decoded, rl_aql_error_t error, const char* format, ...) {
  decoded->error = error;
  va_list args;
  va_start(args, format);
  vsnprintf(decoded->reason, sizeof(decoded->reason), format, args);
  va_end(args);
  return error;
}

static rl_aql_error_t rl_aql_decode_header(uint16_t header,
                                           rl_aql_decoded_t* decoded) {
  decoded->header = header;
  decoded->type =
      (header >> RL_AQL_HEADER_TYPE_SHIFT) & RL_AQL_HEADER_TYPE_MASK;
  decoded->barrier = ((header >> RL_AQL_HEADER_BARRIER_SHIFT) & 1u) != 0;
  decoded->acquire_scope =
      (header >> RL_AQL_HEADER_ACQUIRE_SHIFT) & RL_AQL_HEADER_SCOPE_MASK;
  decoded->release_scope =
      (header >> RL_AQL_HEADER_RELEASE_SHIFT) & RL_AQL_HEADER_SCOPE_MASK;
  if (decoded->type == RL_AQL_PACKET_TYPE_INVALID) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_NOT_READY,
                       "Header type is INVALID: the packet is not published.");
  }
  if (decoded->type > RL_AQL_PACKET_TYPE_BARRIER_OR ||
      decoded->type == RL_AQL_PACKET_TYPE_AGENT_DISPATCH) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_TYPE,
                       "Header type %u is not one a GPU queue consumes "
                       "(expected 0, 2, 3 or 5).",
                       decoded->type);
  }
  if (header & RL_AQL_HEADER_RESERVED_MASK) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_HEADER_RESERVED,
                       "Header 0x%04x has reserved bits 15:13 set.", header);
  }
  if (decoded->acquire_scope == 3 || decoded->release_scope == 3) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_FENCE_SCOPE,
                       "Fence scope 3 is undefined (acquire %u, release %u).",
                       decoded->acquire_scope, decoded->release_scope);
  }
  return RL_AQL_OK;
}

// Checks one axis of workgroup or grid size against the dimension count.
static rl_aql_error_t rl_aql_check_axis(rl_aql_decoded_t* decoded,
                                        rl_aql_error_t error, const char* what,
                                        const uint32_t* sizes) {
  static const char axes[3] = {'x', 'y', 'z'};
  for (uint32_t axis = 0; axis < 3; ++axis) {
    bool used = axis < decoded->dimensions;
    if (used && sizes[axis] == 0) {
      return rl_aql_fail(decoded, error, "%s size %c is 0 (expected >= 1).",
                         what, axes[axis]);
    }
    if (!used && sizes[axis] != 1) {
      return rl_aql_fail(decoded, error,
                         "%s size %c is %u but dimensions is %u (an unused "
                         "dimension must be 1).",
                         what, axes[axis], sizes[axis], decoded->dimensions);
    }
  }
  return RL_AQL_OK;
}

static rl_aql_error_t rl_aql_decode_dispatch(const uint8_t* bytes,
                                             rl_aql_decoded_t* decoded) {
  rl_aql_dispatch_packet_t packet;
  memcpy(&packet, bytes, sizeof(packet));
  decoded->dimensions = packet.setup & RL_AQL_SETUP_DIMENSIONS_MASK;
  decoded->workgroup_size[0] = packet.workgroup_size_x;
  decoded->workgroup_size[1] = packet.workgroup_size_y;
  decoded->workgroup_size[2] = packet.workgroup_size_z;
  decoded->grid_size[0] = packet.grid_size_x;
  decoded->grid_size[1] = packet.grid_size_y;
  decoded->grid_size[2] = packet.grid_size_z;
  decoded->private_segment_size = packet.private_segment_size;
  decoded->group_segment_size = packet.group_segment_size;
  decoded->kernel_object = packet.kernel_object;
  decoded->kernarg_address = packet.kernarg_address;
  decoded->reserved2 = packet.reserved2;
  decoded->completion_signal = packet.completion_signal;
  if (decoded->dimensions == 0) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_DIMENSIONS,
                       "Setup dimensions is 0 (expected 1..3).");
  }
  if (packet.setup & ~RL_AQL_SETUP_DIMENSIONS_MASK) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_SETUP_RESERVED,
                       "Setup 0x%04x has reserved bits 15:2 set.",
                       packet.setup);
  }
  rl_aql_error_t error =
      rl_aql_check_axis(decoded, RL_AQL_ERROR_WORKGROUP_SIZE, "Workgroup",
                        decoded->workgroup_size);
  if (error) return error;
  uint64_t items = (uint64_t)packet.workgroup_size_x * packet.workgroup_size_y *
                   packet.workgroup_size_z;
  if (items > RL_AQL_MAX_WORKGROUP_ITEMS) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_WORKGROUP_SIZE,
                       "Workgroup has %" PRIu64 " work-items (at most %u).",
                       items, RL_AQL_MAX_WORKGROUP_ITEMS);
  }
  error = rl_aql_check_axis(decoded, RL_AQL_ERROR_GRID_SIZE, "Grid",
                            decoded->grid_size);
  if (error) return error;
  if (packet.reserved0 != 0) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_RESERVED_FIELD,
                       "Dispatch reserved0 (byte 10) is 0x%04x (expected 0).",
                       packet.reserved0);
  }
  return RL_AQL_OK;
}

static rl_aql_error_t rl_aql_decode_barrier(const uint8_t* bytes,
                                            rl_aql_decoded_t* decoded) {
  rl_aql_barrier_packet_t packet;
  memcpy(&packet, bytes, sizeof(packet));
  memcpy(decoded->dep_signal, packet.dep_signal, sizeof(decoded->dep_signal));
  decoded->completion_signal = packet.completion_signal;
  if (packet.reserved0 != 0 || packet.reserved1 != 0 || packet.reserved2 != 0) {
    return rl_aql_fail(
        decoded, RL_AQL_ERROR_RESERVED_FIELD,
        "Barrier reserved fields are 0x%04x, 0x%08x, 0x%016" PRIx64
        " (expected 0).",
        packet.reserved0, packet.reserved1, packet.reserved2);
  }
  return RL_AQL_OK;
}

// The INDIRECT_BUFFER packet inside ROCr's amd_aql_pm4_ib (pm4_reference.md
// §1.3: DW1 IB_BASE_LO bits 31:2, DW2 IB_BASE_HI, DW3 size | CHAIN | VALID).
static rl_aql_error_t rl_aql_decode_pm4_ib(const rl_aql_pm4_ib_packet_t* packet,
                                           rl_aql_decoded_t* decoded) {
  const uint32_t* ib = packet->ib_jump_cmd;
  decoded->ib_address = ((uint64_t)ib[2] << 32) | (ib[1] & ~3u);
  decoded->ib_size_dw = ib[3] & RL_AQL_PM4_IB_SIZE_MASK;
  decoded->ib_chain = (ib[3] & RL_AQL_PM4_IB_CHAIN_BIT) != 0;
  if (ib[0] != RL_AQL_PM4_IB_HEADER) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_PM4_IB,
                       "PM4_IB dword 0 is 0x%08x (expected INDIRECT_BUFFER "
                       "header 0x%08x).",
                       ib[0], RL_AQL_PM4_IB_HEADER);
  }
  if ((ib[1] & 3u) != 0 || (ib[2] & 0xFFFF0000u) != 0) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_PM4_IB,
                       "PM4_IB address dwords 0x%08x 0x%08x are not a "
                       "dword-aligned 48-bit address.",
                       ib[1], ib[2]);
  }
  if (!(ib[3] & RL_AQL_PM4_IB_VALID_BIT) || decoded->ib_size_dw == 0) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_PM4_IB,
                       "PM4_IB control dword 0x%08x needs VALID (bit 23) and a "
                       "nonzero size.",
                       ib[3]);
  }
  if (packet->dw_cnt_remain != RL_AQL_PM4_IB_DW_REMAIN) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_PM4_IB,
                       "PM4_IB dw_cnt_remain is %u (expected %u).",
                       packet->dw_cnt_remain, RL_AQL_PM4_IB_DW_REMAIN);
  }
  for (uint32_t i = 0; i < 8; ++i) {
    if (packet->reserved[i] != 0) {
      return rl_aql_fail(decoded, RL_AQL_ERROR_RESERVED_FIELD,
                         "PM4_IB reserved dword %u is 0x%08x (expected 0).", i,
                         packet->reserved[i]);
    }
  }
  return RL_AQL_OK;
}

static rl_aql_error_t rl_aql_decode_vendor(const uint8_t* bytes,
                                           rl_aql_decoded_t* decoded) {
  rl_aql_pm4_ib_packet_t packet;
  memcpy(&packet, bytes, sizeof(packet));
  decoded->vendor_format = packet.vendor_format & 0xFFu;
  decoded->completion_signal = packet.completion_signal;
  if (decoded->vendor_format != RL_AQL_VENDOR_FORMAT_PM4_IB) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_VENDOR_FORMAT,
                       "Vendor format %u is not supported (only 1, PM4_IB).",
                       decoded->vendor_format);
  }
  if ((packet.vendor_format >> 8) != 0) {
    return rl_aql_fail(decoded, RL_AQL_ERROR_RESERVED_FIELD,
                       "Vendor header reserved byte 3 is 0x%02x (expected 0).",
                       packet.vendor_format >> 8);
  }
  return rl_aql_decode_pm4_ib(&packet, decoded);
}

rl_aql_error_t rl_aql_packet_decode(const void* packet,
                                    rl_aql_decoded_t* out_decoded) {
  memset(out_decoded, 0, sizeof(*out_decoded));
  const uint8_t* bytes = (const uint8_t*)packet;
  uint16_t header = (uint16_t)(bytes[0] | (bytes[1] << 8));
  rl_aql_error_t error = rl_aql_decode_header(header, out_decoded);
  if (error) return error;
  switch (out_decoded->type) {
    case RL_AQL_PACKET_TYPE_KERNEL_DISPATCH:
      return rl_aql_decode_dispatch(bytes, out_decoded);
    case RL_AQL_PACKET_TYPE_BARRIER_AND:
    case RL_AQL_PACKET_TYPE_BARRIER_OR:
      return rl_aql_decode_barrier(bytes, out_decoded);
    default:  // RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC; others rejected above.
      return rl_aql_decode_vendor(bytes, out_decoded);
  }
}

const char* rl_aql_packet_type_name(uint32_t type) {
  static const char* const names[] = {"vendor",         "invalid",
                                      "dispatch",       "barrier_and",
                                      "agent_dispatch", "barrier_or"};
  return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

const char* rl_aql_fence_scope_name(uint32_t scope) {
  static const char* const names[] = {"none", "agent", "system", "scope3"};
  return names[scope & RL_AQL_HEADER_SCOPE_MASK];
}

const char* rl_aql_error_name(rl_aql_error_t error) {
  static const char* const names[] = {
      "OK",          "NOT_READY",      "TYPE",           "HEADER_RESERVED",
      "FENCE_SCOPE", "DIMENSIONS",     "SETUP_RESERVED", "WORKGROUP_SIZE",
      "GRID_SIZE",   "RESERVED_FIELD", "VENDOR_FORMAT",  "PM4_IB"};
  if ((unsigned)error < sizeof(names) / sizeof(names[0])) return names[error];
  return "UNKNOWN";
}

static int rl_aql_format_dispatch(const rl_aql_decoded_t* d, const char* head,
                                  char* out, size_t size) {
  return snprintf(out, size,
                  "%s dim=%u wg=%ux%ux%u grid=%ux%ux%u lds=%u priv=%u "
                  "kobj=0x%" PRIx64 " kernarg=0x%" PRIx64 " signal=0x%" PRIx64
                  "%s",
                  head, d->dimensions, d->workgroup_size[0],
                  d->workgroup_size[1], d->workgroup_size[2], d->grid_size[0],
                  d->grid_size[1], d->grid_size[2], d->group_segment_size,
                  d->private_segment_size, d->kernel_object, d->kernarg_address,
                  d->completion_signal, d->reserved2 ? " reserved2!=0" : "");
}

static int rl_aql_format_barrier(const rl_aql_decoded_t* d, const char* head,
                                 char* out, size_t size) {
  return snprintf(out, size,
                  "%s dep=[0x%" PRIx64 ",0x%" PRIx64 ",0x%" PRIx64 ",0x%" PRIx64
                  ",0x%" PRIx64 "] signal=0x%" PRIx64,
                  head, d->dep_signal[0], d->dep_signal[1], d->dep_signal[2],
                  d->dep_signal[3], d->dep_signal[4], d->completion_signal);
}

int rl_aql_packet_format(const void* packet, char* out, size_t size) {
  rl_aql_decoded_t d;
  rl_aql_error_t error = rl_aql_packet_decode(packet, &d);
  const char* type_name = rl_aql_packet_type_name(d.type);
  char head[96];
  if (type_name == NULL) {
    snprintf(head, sizeof(head), "UNKNOWN(0x%02x)", d.type);
  } else if (d.type == RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC &&
             d.vendor_format == RL_AQL_VENDOR_FORMAT_PM4_IB) {
    snprintf(head, sizeof(head), "pm4_ib");
  } else if (d.type == RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC) {
    snprintf(head, sizeof(head), "vendor(format=%u)", d.vendor_format);
  } else {
    snprintf(head, sizeof(head), "%s", type_name);
  }
  if (error != RL_AQL_OK) {
    return snprintf(out, size, "%s header=0x%04x INVALID(%s): %s", head,
                    d.header, rl_aql_error_name(error), d.reason);
  }
  size_t used = strlen(head);
  snprintf(head + used, sizeof(head) - used, " barrier=%d acq=%s rel=%s",
           d.barrier ? 1 : 0, rl_aql_fence_scope_name(d.acquire_scope),
           rl_aql_fence_scope_name(d.release_scope));
  if (d.type == RL_AQL_PACKET_TYPE_KERNEL_DISPATCH) {
    return rl_aql_format_dispatch(&d, head, out, size);
  }
  if (d.type == RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC) {
    return snprintf(out, size,
                    "%s ib=0x%" PRIx64 " ib_dw=%u chain=%d signal=0x%" PRIx64,
                    head, d.ib_address, d.ib_size_dw, d.ib_chain ? 1 : 0,
                    d.completion_signal);
  }
  return rl_aql_format_barrier(&d, head, out, size);
}
