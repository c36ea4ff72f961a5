// The capture file reader (redline/capture_file.h): header, section frames
// (bounds, checksums, padding, order), dispatch to the section decoders
// (capture_file_decode.c), whole-model validation and the identity check.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "capture/format/capture_file_internal.h"
#include "capture/model/capture_internal.h"
#include "base/file.h"

typedef rl_status_t (*rl_capture_section_decoder_t)(
    rl_capture_decoder_t* decoder, rl_codec_reader_t* reader);

// The data sections of format 1.0 in the order they must appear; kind
// RL_CAPTURE_SECTION_META + i is at index i.
static const struct {
  const char* name;
  rl_capture_section_decoder_t decode;
} rl_capture_section_table[] = {
    {"META", rl_capture_decode_meta},
    {"CODE_OBJECTS", rl_capture_decode_code_objects},
    {"KERNELS", rl_capture_decode_kernels},
    {"BUFFERS", rl_capture_decode_buffers},
    {"BUFFER_DATA", rl_capture_decode_buffer_data},
    {"PARAMS", rl_capture_decode_params},
    {"LAUNCHES", rl_capture_decode_launches},
    {"REGIONS", rl_capture_decode_regions},
    {"WINDOWS", rl_capture_decode_windows},
};
#define RL_CAPTURE_DATA_KIND_COUNT \
  (uint32_t)(sizeof(rl_capture_section_table) / sizeof(rl_capture_section_table[0]))

static bool rl_capture_section_is_data(uint32_t kind) {
  return kind >= RL_CAPTURE_SECTION_META &&
         kind < RL_CAPTURE_SECTION_META + RL_CAPTURE_DATA_KIND_COUNT;
}

const char* rl_capture_section_kind_name(uint32_t kind) {
  if (rl_capture_section_is_data(kind)) {
    return rl_capture_section_table[kind - RL_CAPTURE_SECTION_META].name;
  }
  if (kind == RL_CAPTURE_SECTION_INCOMPLETE) return "INCOMPLETE";
  if (kind == RL_CAPTURE_SECTION_ISSUED) return "ISSUED";
  if (kind == RL_CAPTURE_SECTION_COOPERATIVE) return "COOPERATIVE";
  if (kind == RL_CAPTURE_SECTION_DESCRIPTORS) return "DESCRIPTORS";
  if (kind == RL_CAPTURE_SECTION_PROGRAM_STATE) return "PROGRAM_STATE";
  if (kind == RL_CAPTURE_SECTION_BINDING_EXT) return "BINDING_EXT";
  return kind == RL_CAPTURE_SECTION_END ? "END" : "UNKNOWN";
}

// The reader's state over the whole file.
typedef struct rl_capture_file_reader_s {
  const uint8_t* file;
  size_t size;
  rl_capture_decoder_t decoder;
  uint32_t section_count;     // from the header
  uint32_t next_data_kind;    // the data section required next
  bool ended;                 // END was read
  char section_name[32];      // name of the section being read
} rl_capture_file_reader_t;

//===----------------------------------------------------------------------===//
// Header
//===----------------------------------------------------------------------===//

// Checks magic, version and header size: what must hold before the header
// checksum can even be located.
static rl_status_t rl_capture_file_check_preamble(rl_codec_reader_t* header,
                                                  rl_capture_file_info_t* info) {
  size_t size = header->size;
  if (size < RL_CAPTURE_FILE_MAGIC_SIZE ||
      memcmp(header->data, RL_CAPTURE_FILE_MAGIC,
             RL_CAPTURE_FILE_MAGIC_SIZE) != 0) {
    return rl_codec_reader_fail_at(
        header, RL_STATUS_INVALID_INPUT, 0,
        "not a redline capture file (%zu bytes, no \\x89RLC magic)", size);
  }
  header->position = RL_CAPTURE_FILE_MAGIC_SIZE;
  RL_RETURN_IF_ERROR(
      rl_codec_read_u16(header, "major version", &info->version_major));
  RL_RETURN_IF_ERROR(
      rl_codec_read_u16(header, "minor version", &info->version_minor));
  if (info->version_major != RL_CAPTURE_FILE_VERSION_MAJOR) {
    return rl_codec_reader_fail_at(
        header,
        info->version_major > RL_CAPTURE_FILE_VERSION_MAJOR
            ? RL_STATUS_UNSUPPORTED
            : RL_STATUS_INVALID_INPUT,
        8, "format version %u.%u; this reader reads %u.x",
        info->version_major, info->version_minor,
        RL_CAPTURE_FILE_VERSION_MAJOR);
  }
  RL_RETURN_IF_ERROR(
      rl_codec_read_u32(header, "header size", &info->header_size));
  uint32_t header_size = info->header_size;
  if (header_size < RL_CAPTURE_FILE_HEADER_SIZE ||
      header_size > RL_CAPTURE_FILE_HEADER_MAX ||
      header_size % RL_CAPTURE_FILE_ALIGNMENT != 0) {
    return rl_codec_reader_fail_at(
        header, RL_STATUS_INVALID_INPUT, 12,
        "header size %u (expected a multiple of 8 in %u..%u)", header_size,
        RL_CAPTURE_FILE_HEADER_SIZE, RL_CAPTURE_FILE_HEADER_MAX);
  }
  if (header_size > size) {
    return rl_codec_reader_fail_at(
        header, RL_STATUS_INVALID_INPUT, size,
        "the file ends after %zu bytes, inside its %u-byte header", size,
        header_size);
  }
  return RL_OK;
}

static rl_status_t rl_capture_file_check_header_checksum(
    const rl_codec_reader_t* header, uint32_t header_size,
    bool check_integrity) {
  uint64_t stored = rl_codec_load_u64(header->data + header_size - 8);
  uint64_t actual = XXH3_64bits(header->data, header_size - 8);
  if (!check_integrity || stored == actual) return RL_OK;
  return rl_codec_reader_fail_at(
      header, RL_STATUS_INVALID_INPUT, header_size - 8,
      "header checksum mismatch: stored 0x%016llx, computed 0x%016llx",
      (unsigned long long)stored, (unsigned long long)actual);
}

// Reads the checksummed fields: flags, section count, file size, identity.
static rl_status_t rl_capture_file_read_header_fields(
    rl_codec_reader_t* header, rl_capture_file_info_t* info,
    uint32_t* out_section_count) {
  uint64_t reserved = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_u32(header, "flags", &info->flags));
  RL_RETURN_IF_ERROR(
      rl_codec_read_u32(header, "section count", out_section_count));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(header, "file size", &info->file_size));
  RL_RETURN_IF_ERROR(rl_codec_read_digest(header, "identity", &info->identity));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(header, "reserved", &reserved));
  if (info->flags != 0) {
    return rl_codec_reader_fail_at(header, RL_STATUS_UNSUPPORTED, 16,
                                   "unknown header flags 0x%x", info->flags);
  }
  if (*out_section_count == 0 ||
      *out_section_count > RL_CAPTURE_FILE_MAX_SECTIONS) {
    return rl_codec_reader_fail_at(
        header, RL_STATUS_INVALID_INPUT, 20,
        "section count %u (expected 1..%u)", *out_section_count,
        RL_CAPTURE_FILE_MAX_SECTIONS);
  }
  if (info->file_size != header->size) {
    return rl_codec_reader_fail_at(
        header, RL_STATUS_INVALID_INPUT, 24,
        "the header records %llu file bytes, but there are %zu",
        (unsigned long long)info->file_size, header->size);
  }
  if (reserved != 0) {
    return rl_codec_reader_fail_at(header, RL_STATUS_INVALID_INPUT, 48,
                                   "reserved bytes are not zero");
  }
  return RL_OK;
}

static rl_status_t rl_capture_file_read_header(rl_capture_file_reader_t* reader) {
  rl_capture_file_info_t* info = reader->decoder.info;
  rl_codec_reader_t header;
  rl_codec_reader_init(&header, reader->file, reader->size, 0, "header");
  RL_RETURN_IF_ERROR(rl_capture_file_check_preamble(&header, info));
  RL_RETURN_IF_ERROR(rl_capture_file_check_header_checksum(
      &header, info->header_size, reader->decoder.check_integrity));
  return rl_capture_file_read_header_fields(&header, info,
                                            &reader->section_count);
}

//===----------------------------------------------------------------------===//
// Section frames
//===----------------------------------------------------------------------===//

static void rl_capture_file_name_section(rl_capture_file_reader_t* reader,
                                         uint32_t index, uint32_t kind,
                                         bool kind_known) {
  if (!kind_known) {
    snprintf(reader->section_name, sizeof(reader->section_name),
             "section #%u", index);
  } else if (rl_capture_section_is_data(kind) ||
             kind == RL_CAPTURE_SECTION_END) {
    snprintf(reader->section_name, sizeof(reader->section_name),
             "section %s", rl_capture_section_kind_name(kind));
  } else {
    snprintf(reader->section_name, sizeof(reader->section_name),
             "section 0x%x", kind);
  }
}

// Checks the payload checksum and the zero padding of |section|.
static rl_status_t rl_capture_file_check_frame(
    const rl_capture_file_reader_t* reader, const rl_codec_reader_t* frame,
    const rl_capture_file_section_t* section, uint64_t padding) {
  const uint8_t* header = reader->file + section->offset;
  const uint8_t* payload = reader->file + section->payload_offset;
  uint64_t seed = XXH3_64bits(header, 16);
  uint64_t actual =
      XXH3_64bits_withSeed(payload, (size_t)section->payload_length, seed);
  if (reader->decoder.check_integrity && actual != section->checksum) {
    return rl_codec_reader_fail_at(
        frame, RL_STATUS_INVALID_INPUT, section->offset + 16,
        "checksum mismatch over the frame and payload bytes %llu..%llu: "
        "stored 0x%016llx, computed 0x%016llx",
        (unsigned long long)section->payload_offset,
        (unsigned long long)(section->payload_offset +
                             section->payload_length),
        (unsigned long long)section->checksum, (unsigned long long)actual);
  }
  if (section->flags & ~RL_CAPTURE_SECTION_FLAG_REQUIRED) {
    return rl_codec_reader_fail_at(frame, RL_STATUS_INVALID_INPUT,
                                   section->offset + 4,
                                   "flags 0x%x set reserved bits",
                                   section->flags);
  }
  uint64_t end = section->payload_offset + section->payload_length;
  for (uint64_t i = 0; i < padding; ++i) {
    if (reader->file[end + i] != 0) {
      return rl_codec_reader_fail_at(frame, RL_STATUS_INVALID_INPUT, end + i,
                                     "padding byte is not zero");
    }
  }
  return RL_OK;
}

// Reads the frame of section |index| at |offset| into |section|.
static rl_status_t rl_capture_file_read_frame(rl_capture_file_reader_t* reader,
                                              uint32_t index, uint64_t offset,
                                              rl_capture_file_section_t* section) {
  rl_codec_reader_t frame;
  rl_capture_file_name_section(reader, index, 0, false);
  rl_codec_reader_init(&frame, reader->file + offset, reader->size - offset,
                       offset, reader->section_name);
  memset(section, 0, sizeof(*section));
  section->offset = offset;
  RL_RETURN_IF_ERROR(rl_codec_read_u32(&frame, "section kind", &section->kind));
  rl_capture_file_name_section(reader, index, section->kind, true);
  RL_RETURN_IF_ERROR(rl_codec_read_u32(&frame, "section flags",
                                       &section->flags));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(&frame, "payload length",
                                       &section->payload_length));
  RL_RETURN_IF_ERROR(rl_codec_read_u64(&frame, "checksum", &section->checksum));
  section->payload_offset = rl_codec_reader_offset(&frame);
  uint64_t length = section->payload_length;
  uint64_t padding = (RL_CAPTURE_FILE_ALIGNMENT -
                      length % RL_CAPTURE_FILE_ALIGNMENT) %
                     RL_CAPTURE_FILE_ALIGNMENT;
  if (length > rl_codec_reader_left(&frame) ||
      padding > rl_codec_reader_left(&frame) - length) {
    return rl_codec_reader_fail_at(
        &frame, RL_STATUS_INVALID_INPUT, offset + 8,
        "payload of %llu bytes and %llu of padding, but %zu bytes are left",
        (unsigned long long)length, (unsigned long long)padding,
        rl_codec_reader_left(&frame));
  }
  return rl_capture_file_check_frame(reader, &frame, section, padding);
}

//===----------------------------------------------------------------------===//
// Section order and dispatch
//===----------------------------------------------------------------------===//

static rl_status_t rl_capture_file_read_end(rl_capture_file_reader_t* reader,
                                            const rl_codec_reader_t* payload,
                                            uint32_t index) {
  if (reader->next_data_kind < RL_CAPTURE_SECTION_META +
                                   RL_CAPTURE_DATA_KIND_COUNT) {
    return rl_codec_reader_fail_at(
        payload, RL_STATUS_INVALID_INPUT, payload->base_offset,
        "required section %s is missing",
        rl_capture_section_kind_name(reader->next_data_kind));
  }
  if (index + 1 != reader->section_count || payload->size != 0) {
    return rl_codec_reader_fail_at(
        payload, RL_STATUS_INVALID_INPUT, payload->base_offset,
        "END is section %u of %u and has %zu payload bytes (expected the "
        "last, empty)",
        index, reader->section_count, payload->size);
  }
  reader->ended = true;
  return RL_OK;
}

static rl_status_t rl_capture_file_read_data(rl_capture_file_reader_t* reader,
                                             rl_codec_reader_t* payload,
                                             uint32_t kind) {
  if (kind != reader->next_data_kind) {
    return rl_codec_reader_fail_at(
        payload, RL_STATUS_INVALID_INPUT, payload->base_offset - 24,
        kind < reader->next_data_kind
            ? "duplicate section (it must appear once, before %s)"
            : "out of order: required section %s must come first",
        rl_capture_section_kind_name(reader->next_data_kind));
  }
  reader->next_data_kind++;
  return rl_capture_section_table[kind - RL_CAPTURE_SECTION_META].decode(
      &reader->decoder, payload);
}

// Checks that |count| records of |entry| bytes fit what is left of
// |payload| (exactly when |exact|).
static rl_status_t rl_capture_program_fits(rl_codec_reader_t* payload,
                                           uint64_t offset, uint32_t count,
                                           uint64_t entry, bool exact) {
  const uint64_t need = (uint64_t)count * entry;
  const uint64_t left = payload->size - payload->position;
  if (exact ? need == left : need <= left) return RL_OK;
  return rl_codec_reader_fail_at(
      payload, RL_STATUS_INVALID_INPUT, offset,
      "%u entries need %llu bytes, %llu are left", count,
      (unsigned long long)need, (unsigned long long)left);
}

// One PROGRAM_STATE hash record.
static rl_status_t rl_capture_read_program_state_entry(
    rl_codec_reader_t* payload, uint64_t offset, uint32_t i,
    rl_capture_t* capture) {
  rl_capture_program_state_t state = {0};
  uint32_t zero = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_i64(payload, "pos", &state.pos));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "region", &state.region));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "reserved", &zero));
  RL_RETURN_IF_ERROR(rl_codec_read_digest(payload, "digest", &state.digest));
  if (zero) {
    return rl_codec_reader_fail_at(payload, RL_STATUS_INVALID_INPUT, offset,
                                   "state %u: reserved word is %u, not 0", i,
                                   zero);
  }
  return rl_status_annotate(rl_capture_add_program_state(capture, &state),
                            "section PROGRAM_STATE, byte %llu",
                            (unsigned long long)offset);
}

// One PROGRAM_STATE parameter-value record.
static rl_status_t rl_capture_read_program_param_entry(
    rl_codec_reader_t* payload, uint64_t offset, uint32_t i,
    rl_capture_t* capture) {
  rl_capture_program_param_t value = {0};
  uint32_t zero = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_i64(payload, "pos", &value.pos));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "param", &value.param));
  RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "reserved", &zero));
  RL_RETURN_IF_ERROR(rl_codec_read_i64(payload, "value", &value.value));
  if (zero) {
    return rl_codec_reader_fail_at(payload, RL_STATUS_INVALID_INPUT, offset,
                                   "value %u: reserved word is %u, not 0", i,
                                   zero);
  }
  return rl_status_annotate(rl_capture_add_program_param(capture, &value),
                            "section PROGRAM_STATE, byte %llu",
                            (unsigned long long)offset);
}

// PROGRAM_STATE (capture_file.h): after WINDOWS, once.
static rl_status_t rl_capture_file_read_program_state(
    rl_capture_file_reader_t* reader, rl_codec_reader_t* payload,
    const rl_capture_file_section_t* section) {
  rl_capture_t* capture = reader->decoder.capture;
  const uint64_t offset = section->offset;
  if (reader->next_data_kind !=
          RL_CAPTURE_SECTION_META + RL_CAPTURE_DATA_KIND_COUNT ||
      capture->program_state_count || capture->program_param_count) {
    return rl_codec_reader_fail_at(payload, RL_STATUS_INVALID_INPUT, offset,
                                   "PROGRAM_STATE must follow WINDOWS, once");
  }
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "state count", &count));
  RL_RETURN_IF_ERROR(rl_capture_program_fits(
      payload, offset, count, 8 + 4 + 4 + RL_CODEC_DIGEST_SIZE, false));
  for (uint32_t i = 0; i < count; ++i) {
    RL_RETURN_IF_ERROR(
        rl_capture_read_program_state_entry(payload, offset, i, capture));
  }
  RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "value count", &count));
  RL_RETURN_IF_ERROR(
      rl_capture_program_fits(payload, offset, count, 8 + 4 + 4 + 8, true));
  for (uint32_t i = 0; i < count; ++i) {
    RL_RETURN_IF_ERROR(
        rl_capture_read_program_param_entry(payload, offset, i, capture));
  }
  return rl_codec_reader_expect_end(payload);
}

// COOPERATIVE: u32 count, then the indices of the cooperative launches,
// each below the launch count and above the one before; once, after
// WINDOWS.
static rl_status_t rl_capture_file_read_cooperative(
    rl_capture_file_reader_t* reader, rl_codec_reader_t* payload,
    const rl_capture_file_section_t* section) {
  rl_capture_t* capture = reader->decoder.capture;
  if (reader->next_data_kind !=
          RL_CAPTURE_SECTION_META + RL_CAPTURE_DATA_KIND_COUNT ||
      rl_capture_first_cooperative(capture) != UINT32_MAX) {
    return rl_codec_reader_fail_at(payload, RL_STATUS_INVALID_INPUT,
                                   section->offset,
                                   "COOPERATIVE must follow WINDOWS, once");
  }
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_count(payload, "cooperative launch count",
                                         RL_CAPTURE_RECORD_COOPERATIVE,
                                         &count));
  if (count == 0) {
    return rl_codec_reader_fail_at(payload, RL_STATUS_INVALID_INPUT,
                                   section->offset,
                                   "COOPERATIVE names no launch");
  }
  uint32_t previous = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t launch = 0;
    RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "cooperative launch",
                                         &launch));
    if (launch >= capture->launch_count || (i > 0 && launch <= previous)) {
      return rl_codec_reader_fail_at(
          payload, RL_STATUS_INVALID_INPUT, section->offset,
          "COOPERATIVE record %u names launch %u of %u (records in "
          "increasing launch order)",
          i, launch, capture->launch_count);
    }
    capture->launches[launch].cooperative = true;
    previous = launch;
  }
  return rl_codec_reader_expect_end(payload);
}

// DESCRIPTORS: u32 count, then 32-byte records (buffer, layout, offset,
// image, reserved 0, image offset), each checked by
// rl_capture_add_descriptor; once, after WINDOWS.
static rl_status_t rl_capture_file_read_descriptors(
    rl_capture_file_reader_t* reader, rl_codec_reader_t* payload,
    const rl_capture_file_section_t* section) {
  rl_capture_t* capture = reader->decoder.capture;
  if (reader->next_data_kind !=
          RL_CAPTURE_SECTION_META + RL_CAPTURE_DATA_KIND_COUNT ||
      capture->descriptor_count) {
    return rl_codec_reader_fail_at(payload, RL_STATUS_INVALID_INPUT,
                                   section->offset,
                                   "DESCRIPTORS must follow WINDOWS, once");
  }
  uint32_t count = 0;
  RL_RETURN_IF_ERROR(rl_codec_read_count(payload, "descriptor count",
                                         RL_CAPTURE_RECORD_DESCRIPTOR,
                                         &count));
  if (count == 0) {
    return rl_codec_reader_fail_at(payload, RL_STATUS_INVALID_INPUT,
                                   section->offset,
                                   "DESCRIPTORS names no descriptor");
  }
  for (uint32_t i = 0; i < count; ++i) {
    rl_capture_descriptor_t d = {0};
    uint32_t layout = 0, reserved = 0;
    RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "descriptor buffer",
                                         &d.buffer));
    RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "descriptor layout",
                                         &layout));
    RL_RETURN_IF_ERROR(rl_codec_read_u64(payload, "descriptor offset",
                                         &d.offset));
    RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "descriptor image",
                                         &d.image));
    RL_RETURN_IF_ERROR(rl_codec_read_u32(payload, "descriptor reserved",
                                         &reserved));
    RL_RETURN_IF_ERROR(rl_codec_read_u64(payload, "descriptor image offset",
                                         &d.image_offset));
    if (reserved != 0 || layout >= RL_DESCRIPTOR_LAYOUT_COUNT_) {
      return rl_codec_reader_fail_at(
          payload, RL_STATUS_INVALID_INPUT, section->offset,
          "DESCRIPTORS record %u: layout %u (0 = gfx11 image), reserved %u "
          "(must be 0)",
          i, layout, reserved);
    }
    d.layout = (rl_descriptor_layout_t)layout;
    rl_status_t status = rl_capture_add_descriptor(capture, &d);
    if (status) {
      rl_status_t failed = rl_codec_reader_fail_at(
          payload, RL_STATUS_INVALID_INPUT, section->offset,
          "DESCRIPTORS record %u: %s", i, rl_status_message(status));
      rl_status_free(status);
      return failed;
    }
  }
  return rl_codec_reader_expect_end(payload);
}

static rl_status_t rl_capture_file_dispatch(
    rl_capture_file_reader_t* reader, uint32_t index,
    rl_capture_file_section_t* section) {
  rl_codec_reader_t payload;
  rl_codec_reader_init(&payload, reader->file + section->payload_offset,
                       (size_t)section->payload_length,
                       section->payload_offset, reader->section_name);
  if (section->kind == RL_CAPTURE_SECTION_END) {
    section->known = true;
    return rl_capture_file_read_end(reader, &payload, index);
  }
  if (rl_capture_section_is_data(section->kind)) {
    section->known = true;
    return rl_capture_file_read_data(reader, &payload, section->kind);
  }
  if (section->kind == RL_CAPTURE_SECTION_BINDING_EXT) {
    section->known = true;
    if (reader->next_data_kind != RL_CAPTURE_SECTION_LAUNCHES ||
        reader->decoder.ext_where) {
      return rl_codec_reader_fail_at(
          &payload, RL_STATUS_INVALID_INPUT, section->offset,
          "BINDING_EXT must appear once, between PARAMS and LAUNCHES");
    }
    return rl_capture_decode_binding_ext(&reader->decoder, &payload);
  }
  if (section->kind == RL_CAPTURE_SECTION_INCOMPLETE) {
    section->known = true;
    if (reader->next_data_kind !=
        RL_CAPTURE_SECTION_META + RL_CAPTURE_DATA_KIND_COUNT) {
      return rl_codec_reader_fail_at(
          &payload, RL_STATUS_INVALID_INPUT, section->offset,
          "INCOMPLETE must follow WINDOWS");
    }
    uint32_t bypassed = 0;
    char reason[512];
    RL_RETURN_IF_ERROR(rl_codec_read_u32(&payload, "bypassed", &bypassed));
    RL_RETURN_IF_ERROR(
        rl_codec_read_string(&payload, "reason", reason, sizeof(reason)));
    RL_RETURN_IF_ERROR(rl_codec_reader_expect_end(&payload));
    return rl_capture_mark_incomplete(reader->decoder.capture, bypassed,
                                      reason);
  }
  if (section->kind == RL_CAPTURE_SECTION_ISSUED) {
    section->known = true;
    if (reader->next_data_kind !=
            RL_CAPTURE_SECTION_META + RL_CAPTURE_DATA_KIND_COUNT ||
        reader->decoder.capture->issued_count) {
      return rl_codec_reader_fail_at(
          &payload, RL_STATUS_INVALID_INPUT, section->offset,
          "ISSUED must follow WINDOWS, once");
    }
    return rl_capture_decode_issued(reader->decoder.capture, &payload);
  }
  if (section->kind == RL_CAPTURE_SECTION_COOPERATIVE) {
    section->known = true;
    return rl_capture_file_read_cooperative(reader, &payload, section);
  }
  if (section->kind == RL_CAPTURE_SECTION_DESCRIPTORS) {
    section->known = true;
    return rl_capture_file_read_descriptors(reader, &payload, section);
  }
  if (section->kind == RL_CAPTURE_SECTION_PROGRAM_STATE) {
    section->known = true;
    return rl_capture_file_read_program_state(reader, &payload, section);
  }
  if (section->flags & RL_CAPTURE_SECTION_FLAG_REQUIRED) {
    return rl_codec_reader_fail_at(
        &payload, RL_STATUS_UNSUPPORTED, section->offset,
        "unknown section kind 0x%x is marked required", section->kind);
  }
  return RL_OK;  // An unknown optional section: skipped.
}

static rl_status_t rl_capture_file_read_sections(
    rl_capture_file_reader_t* reader) {
  rl_capture_file_info_t* info = reader->decoder.info;
  uint64_t offset = info->header_size;
  for (uint32_t i = 0; i < reader->section_count; ++i) {
    rl_capture_file_section_t* section = &info->sections[i];
    RL_RETURN_IF_ERROR(rl_capture_file_read_frame(reader, i, offset, section));
    info->section_count = i + 1;
    RL_RETURN_IF_ERROR(rl_capture_file_dispatch(reader, i, section));
    uint64_t end = section->payload_offset + section->payload_length;
    offset = end + (RL_CAPTURE_FILE_ALIGNMENT - end % RL_CAPTURE_FILE_ALIGNMENT) %
                       RL_CAPTURE_FILE_ALIGNMENT;
  }
  if (!reader->ended || offset != reader->size) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "section END, byte %llu: %s",
                     (unsigned long long)offset,
                     reader->ended ? "bytes follow the END section"
                                   : "no END section");
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Whole file
//===----------------------------------------------------------------------===//

// Validates the decoded model and compares its identity with the header's.
static rl_status_t rl_capture_file_check_model(
    const rl_capture_file_reader_t* reader) {
  const rl_capture_t* capture = reader->decoder.capture;
  RL_RETURN_IF_ERROR(rl_status_annotate(rl_capture_validate(capture),
                                        "decoded capture"));
  rl_digest128_t identity;
  RL_RETURN_IF_ERROR(rl_capture_identity(capture, &identity));
  const rl_capture_file_info_t* info = reader->decoder.info;
  if (reader->decoder.check_integrity &&
      !rl_digest128_equal(identity, info->identity)) {
    char stored_hex[RL_DIGEST128_HEX_LENGTH + 1];
    char actual_hex[RL_DIGEST128_HEX_LENGTH + 1];
    rl_digest128_format(info->identity, stored_hex);
    rl_digest128_format(identity, actual_hex);
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "header, byte 32: identity mismatch: stored %s, the "
                     "decoded capture's is %s",
                     stored_hex, actual_hex);
  }
  return RL_OK;
}

rl_status_t rl_capture_file_read_memory(const void* data, size_t size,
                                        rl_capture_t** out_capture,
                                        rl_capture_file_info_t* out_info) {
  return rl_capture_file_decode_memory(data, size, true, NULL, out_capture,
                                       out_info);
}

rl_status_t rl_capture_file_read_memory_limited(
    const void* data, size_t size, const rl_limits_t* limits,
    rl_capture_t** out_capture, rl_capture_file_info_t* out_info) {
  return rl_capture_file_decode_memory(data, size, true, limits, out_capture,
                                       out_info);
}

rl_status_t rl_capture_file_decode_memory(const void* data, size_t size,
                                          bool check_integrity,
                                          const rl_limits_t* limits,
                                          rl_capture_t** out_capture,
                                          rl_capture_file_info_t* out_info) {
  if (!out_capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "capture file read: no "
                     "output");
  }
  *out_capture = NULL;
  rl_capture_file_info_t local_info;
  rl_capture_file_info_t* info = out_info ? out_info : &local_info;
  memset(info, 0, sizeof(*info));
  if (!data && size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "no capture bytes");
  }
  rl_capture_file_reader_t reader;
  memset(&reader, 0, sizeof(reader));
  reader.file = data ? data : (const uint8_t*)"";
  reader.size = size;
  reader.decoder.info = info;
  reader.decoder.check_integrity = check_integrity;
  const rl_limits_t resolved = rl_limits_resolve(limits);
  reader.decoder.max_decompressed_bytes = resolved.max_decompressed_bytes;
  reader.decoder.max_windows = resolved.max_windows;
  reader.decoder.max_regions = resolved.max_regions;
  reader.decoder.max_bindings = resolved.max_bindings;
  reader.next_data_kind = RL_CAPTURE_SECTION_META;
  rl_status_t status = rl_capture_file_read_header(&reader);
  if (!status) status = rl_capture_file_read_sections(&reader);
  if (!status) status = rl_capture_file_check_model(&reader);
  if (!status) rl_capture_fault_effects(reader.decoder.capture);
  free(reader.decoder.has_contents);
  free(reader.decoder.ext_where);
  free(reader.decoder.ext_scale);
  if (status) {
    rl_capture_destroy(reader.decoder.capture);
    return status;
  }
  *out_capture = reader.decoder.capture;
  return RL_OK;
}

rl_status_t rl_capture_file_read(const char* path, rl_capture_t** out_capture,
                                 rl_capture_file_info_t* out_info) {
  return rl_capture_file_read_limited(path, NULL, out_capture, out_info);
}

rl_status_t rl_capture_file_read_limited(const char* path,
                                         const rl_limits_t* limits,
                                         rl_capture_t** out_capture,
                                         rl_capture_file_info_t* out_info) {
  if (out_info) memset(out_info, 0, sizeof(*out_info));
  if (!out_capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "capture file read: no "
                     "output");
  }
  *out_capture = NULL;
  if (!path || !path[0]) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "capture file path is empty");
  }
  uint8_t* data = NULL;
  size_t size = 0;
  // The reader names the path in its own errors; decode errors get it here.
  RL_RETURN_IF_ERROR(rl_file_read_regular(path, &data, &size));
  rl_status_t status = rl_capture_file_read_memory_limited(
      data, size, limits, out_capture, out_info);
  free(data);
  return rl_status_annotate(status, "%s", path);
}
