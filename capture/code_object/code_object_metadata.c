// The NT_AMDGPU_METADATA note of a code object: a msgpack map (LLVM
// AMDGPUUsage, "Code Object V4 Metadata" and "Code Object V5 Metadata")
// read with msgpack-c's C API.
//
// The bytes are first walked by rl_md_scan(), which proves the encoding is
// complete and that no container announces more elements than there are
// bytes left. msgpack-c allocates a container's element array before reading
// the elements, so without this a 5-byte input announcing 2^32 elements
// would ask for 64 GiB. After the scan the unpacker's allocations are bounded
// by a small multiple of the note size.
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "capture/code_object/code_object_internal.h"
#include "base/array.h"

// Reads a big-endian unsigned integer of |width| bytes at |p| (msgpack
// stores every multi-byte length and value big-endian).
static uint64_t rl_md_read_be(const uint8_t* p, uint32_t width) {
  uint64_t value = 0;
  for (uint32_t i = 0; i < width; ++i) value = (value << 8) | p[i];
  return value;
}

// One msgpack header: how many bytes follow it as payload and how many
// child objects it opens. Returns false for the never-used byte 0xc1.
// Byte values from the msgpack specification ("Formats" table).
static bool rl_md_header(uint8_t byte, uint32_t* out_length_width,
                         uint64_t* out_fixed, uint32_t* out_children_per) {
  *out_length_width = 0;  // bytes of a length/count field after the byte
  *out_fixed = 0;         // fixed payload bytes (or fix-length)
  *out_children_per = 0;  // 1 for arrays, 2 for maps (per counted element)
  if (byte <= 0x7f || byte >= 0xe0 || byte == 0xc0 || byte == 0xc2 ||
      byte == 0xc3) {
    return true;  // fixint, nil, bool
  }
  if (byte <= 0x8f) { *out_fixed = byte & 0x0f; *out_children_per = 2; return true; }
  if (byte <= 0x9f) { *out_fixed = byte & 0x0f; *out_children_per = 1; return true; }
  if (byte <= 0xbf) { *out_fixed = byte & 0x1f; return true; }  // fixstr
  switch (byte) {
    case 0xc4: case 0xd9: *out_length_width = 1; return true;  // bin8, str8
    case 0xc5: case 0xda: *out_length_width = 2; return true;
    case 0xc6: case 0xdb: *out_length_width = 4; return true;
    case 0xc7: *out_length_width = 1; *out_fixed = 1; return true;  // ext8
    case 0xc8: *out_length_width = 2; *out_fixed = 1; return true;
    case 0xc9: *out_length_width = 4; *out_fixed = 1; return true;
    case 0xca: *out_fixed = 4; return true;  // float32
    case 0xcb: *out_fixed = 8; return true;  // float64
    case 0xcc: case 0xd0: *out_fixed = 1; return true;
    case 0xcd: case 0xd1: *out_fixed = 2; return true;
    case 0xce: case 0xd2: *out_fixed = 4; return true;
    case 0xcf: case 0xd3: *out_fixed = 8; return true;
    case 0xd4: *out_fixed = 2; return true;  // fixext1..16: type + data
    case 0xd5: *out_fixed = 3; return true;
    case 0xd6: *out_fixed = 5; return true;
    case 0xd7: *out_fixed = 9; return true;
    case 0xd8: *out_fixed = 17; return true;
    case 0xdc: *out_length_width = 2; *out_children_per = 1; return true;
    case 0xdd: *out_length_width = 4; *out_children_per = 1; return true;
    case 0xde: *out_length_width = 2; *out_children_per = 2; return true;
    case 0xdf: *out_length_width = 4; *out_children_per = 2; return true;
    default: return false;  // 0xc1
  }
}

// Proves that |size| bytes at |data| hold exactly one complete msgpack
// object whose containers never announce more elements than bytes remain.
static rl_status_t rl_md_scan(const uint8_t* data, size_t size) {
  size_t position = 0;
  uint64_t pending = 1;  // objects still to read; each needs >= 1 byte
  while (pending > 0) {
    if (position >= size) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "msgpack ends at byte %zu with %llu object(s) missing",
                       size, (unsigned long long)pending);
    }
    uint8_t byte = data[position];
    uint32_t width, children_per;
    uint64_t fixed;
    if (!rl_md_header(byte, &width, &fixed, &children_per)) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "msgpack byte %zu: invalid type byte 0x%02x", position,
                       byte);
    }
    ++position;
    --pending;
    if (size - position < width) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "msgpack byte %zu: truncated length field", position);
    }
    uint64_t counted = rl_md_read_be(data + position, width);
    position += width;
    uint64_t remaining = size - position;
    if (children_per) {
      uint64_t children = (width ? counted : fixed) * children_per;
      if (children > remaining || pending + children > remaining) {
        return RL_STATUS(RL_STATUS_INVALID_INPUT,
                         "msgpack byte %zu: container of %llu objects in "
                         "%llu remaining bytes",
                         position, (unsigned long long)children,
                         (unsigned long long)remaining);
      }
      pending += children;
      continue;
    }
    uint64_t payload = (width ? counted : 0) + fixed;
    if (payload > remaining) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "msgpack byte %zu: %llu payload bytes, %llu remain",
                       position, (unsigned long long)payload,
                       (unsigned long long)remaining);
    }
    position += (size_t)payload;
  }
  if (position != size) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "msgpack: %zu trailing bytes after the metadata map",
                     size - position);
  }
  return RL_OK;
}

static const char* rl_md_type_name(msgpack_object_type type) {
  switch (type) {
    case MSGPACK_OBJECT_NIL: return "nil";
    case MSGPACK_OBJECT_BOOLEAN: return "bool";
    case MSGPACK_OBJECT_POSITIVE_INTEGER: return "unsigned integer";
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: return "negative integer";
    case MSGPACK_OBJECT_FLOAT32: case MSGPACK_OBJECT_FLOAT64: return "float";
    case MSGPACK_OBJECT_STR: return "string";
    case MSGPACK_OBJECT_ARRAY: return "array";
    case MSGPACK_OBJECT_MAP: return "map";
    case MSGPACK_OBJECT_BIN: return "bin";
    case MSGPACK_OBJECT_EXT: return "ext";
    default: return "unknown";
  }
}

// Returns the value of string key |key| in |map| (a map object), or NULL.
static const msgpack_object* rl_md_find(const msgpack_object* map,
                                        const char* key) {
  size_t length = strlen(key);
  for (uint32_t i = 0; i < map->via.map.size; ++i) {
    const msgpack_object* k = &map->via.map.ptr[i].key;
    if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == length &&
        memcmp(k->via.str.ptr, key, length) == 0) {
      return &map->via.map.ptr[i].val;
    }
  }
  return NULL;
}

static rl_status_t rl_md_wrong_type(const char* key, const char* expected,
                                    const msgpack_object* value) {
  return RL_STATUS(RL_STATUS_INVALID_INPUT, "key %s: expected %s, found %s",
                   key, expected, rl_md_type_name(value->type));
}

// Looks up |key|; a missing required key is an error, a missing optional
// one leaves *out_value NULL.
static rl_status_t rl_md_lookup(const msgpack_object* map, const char* key,
                                bool required, msgpack_object_type type,
                                const char* type_name,
                                const msgpack_object** out_value) {
  *out_value = rl_md_find(map, key);
  if (!*out_value) {
    return required ? RL_STATUS(RL_STATUS_INVALID_INPUT,
                                "required key %s is missing", key)
                    : RL_OK;
  }
  if ((*out_value)->type != type) {
    rl_status_t status = rl_md_wrong_type(key, type_name, *out_value);
    *out_value = NULL;
    return status;
  }
  return RL_OK;
}

// Reads an unsigned 32-bit value; an absent optional key gives 0.
static rl_status_t rl_md_get_u32(const msgpack_object* map, const char* key,
                                 bool required, uint32_t* out_value) {
  const msgpack_object* value;
  *out_value = 0;
  RL_RETURN_IF_ERROR(rl_md_lookup(map, key, required,
                                  MSGPACK_OBJECT_POSITIVE_INTEGER,
                                  "an unsigned integer", &value));
  if (value && value->via.u64 > UINT32_MAX) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "key %s: value %llu does not fit in 32 bits", key,
                     (unsigned long long)value->via.u64);
  }
  if (value) *out_value = (uint32_t)value->via.u64;
  return RL_OK;
}

// Reads a boolean (LLVM writes true/false; 0 and 1 are accepted too).
static rl_status_t rl_md_get_bool(const msgpack_object* map, const char* key,
                                  bool* out_value) {
  const msgpack_object* value = rl_md_find(map, key);
  *out_value = false;
  if (!value) return RL_OK;
  if (value->type == MSGPACK_OBJECT_BOOLEAN) {
    *out_value = value->via.boolean;
  } else if (value->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
             value->via.u64 <= 1) {
    *out_value = value->via.u64 == 1;
  } else {
    return rl_md_wrong_type(key, "a boolean", value);
  }
  return RL_OK;
}

// Copies string key |key| into a new NUL-terminated string (NULL when an
// optional key is absent). Strings holding a NUL byte are rejected.
static rl_status_t rl_md_get_string(const msgpack_object* map, const char* key,
                                    bool required, const char** out_text) {
  const msgpack_object* value;
  *out_text = NULL;
  RL_RETURN_IF_ERROR(rl_md_lookup(map, key, required, MSGPACK_OBJECT_STR,
                                  "a string", &value));
  if (!value) return RL_OK;
  uint32_t length = value->via.str.size;
  if (memchr(value->via.str.ptr, '\0', length)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "key %s: string contains a NUL byte", key);
  }
  char* text = malloc((size_t)length + 1);
  if (!text) return rl_status_out_of_memory();
  memcpy(text, value->via.str.ptr, length);
  text[length] = '\0';
  *out_text = text;
  return RL_OK;
}

// Maps an access qualifier spelling onto an effect (AMDGPUUsage lists
// read_only, write_only and read_write for .access and .actual_access).
static rl_status_t rl_md_effect(const char* key, const char* spelling,
                                rl_effect_t* out_effect) {
  if (strcmp(spelling, "read_only") == 0) {
    *out_effect = RL_EFFECT_READ;
  } else if (strcmp(spelling, "write_only") == 0) {
    *out_effect = RL_EFFECT_WRITE;
  } else if (strcmp(spelling, "read_write") == 0) {
    *out_effect = RL_EFFECT_READ_WRITE;
  } else {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "key %s: unknown access '%s' (expected read_only, "
                     "write_only or read_write)",
                     key, spelling);
  }
  return RL_OK;
}

static rl_arg_kind_t rl_md_arg_kind(const char* value_kind) {
  if (strcmp(value_kind, "by_value") == 0) return RL_ARG_KIND_BY_VALUE;
  if (strcmp(value_kind, "global_buffer") == 0) return RL_ARG_KIND_GLOBAL_BUFFER;
  if (strcmp(value_kind, "dynamic_shared_pointer") == 0) {
    return RL_ARG_KIND_DYNAMIC_SHARED_POINTER;
  }
  if (strncmp(value_kind, "hidden_", 7) == 0) return RL_ARG_KIND_HIDDEN;
  return RL_ARG_KIND_OTHER;
}

// Fills the effect of |arg|: .actual_access (what the compiler proved) wins
// over .access (what the source declared); neither means unknown.
static rl_status_t rl_md_arg_effect(rl_kernel_arg_t* arg) {
  arg->effect = RL_EFFECT_READ_WRITE;
  arg->effect_known = false;
  if (arg->access) {
    RL_RETURN_IF_ERROR(rl_md_effect(".access", arg->access, &arg->effect));
    arg->effect_known = true;
  }
  if (arg->actual_access) {
    RL_RETURN_IF_ERROR(
        rl_md_effect(".actual_access", arg->actual_access, &arg->effect));
    arg->effect_known = true;
  }
  return RL_OK;
}

static rl_status_t rl_md_parse_arg(const msgpack_object* object,
                                   uint32_t kernarg_size,
                                   rl_kernel_arg_t* arg) {
  if (object->type != MSGPACK_OBJECT_MAP) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "expected a map, found %s",
                     rl_md_type_name(object->type));
  }
  RL_RETURN_IF_ERROR(rl_md_get_u32(object, ".offset", true, &arg->offset));
  RL_RETURN_IF_ERROR(rl_md_get_u32(object, ".size", true, &arg->size));
  RL_RETURN_IF_ERROR(
      rl_md_get_string(object, ".value_kind", true, &arg->value_kind));
  RL_RETURN_IF_ERROR(rl_md_get_string(object, ".name", false, &arg->name));
  RL_RETURN_IF_ERROR(rl_md_get_string(object, ".address_space", false,
                                      &arg->address_space));
  RL_RETURN_IF_ERROR(rl_md_get_string(object, ".access", false, &arg->access));
  RL_RETURN_IF_ERROR(rl_md_get_string(object, ".actual_access", false,
                                      &arg->actual_access));
  arg->kind = rl_md_arg_kind(arg->value_kind);
  RL_RETURN_IF_ERROR(rl_md_arg_effect(arg));
  if ((uint64_t)arg->offset + arg->size > kernarg_size) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "key .offset/.size: bytes [%u, %llu) exceed "
                     ".kernarg_segment_size %u",
                     arg->offset, (unsigned long long)arg->offset + arg->size,
                     kernarg_size);
  }
  return RL_OK;
}

// Sort key of one argument: its offset, then its metadata index.
typedef struct rl_md_arg_order_s {
  uint32_t offset;
  uint32_t index;
} rl_md_arg_order_t;

static int rl_md_arg_order_compare(const void* a, const void* b) {
  const rl_md_arg_order_t* x = a;
  const rl_md_arg_order_t* y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return x->index < y->index ? -1 : (x->index > y->index);
}

// Reorders |args| by offset and rejects overlapping byte ranges, naming
// the metadata indices of the two arguments.
static rl_status_t rl_md_sort_args(rl_kernel_arg_t* args, uint32_t count) {
  if (count < 2) return RL_OK;
  rl_md_arg_order_t* order = calloc(count, sizeof(*order));
  rl_kernel_arg_t* sorted = calloc(count, sizeof(*sorted));
  rl_status_t status = (order && sorted) ? RL_OK : rl_status_out_of_memory();
  for (uint32_t i = 0; !status && i < count; ++i) {
    order[i] = (rl_md_arg_order_t){args[i].offset, i};
  }
  if (!status) qsort(order, count, sizeof(*order), rl_md_arg_order_compare);
  for (uint32_t i = 1; !status && i < count; ++i) {
    const rl_kernel_arg_t* previous = &args[order[i - 1].index];
    if ((uint64_t)previous->offset + previous->size > order[i].offset) {
      status = RL_STATUS(RL_STATUS_INVALID_INPUT,
                         "arg %u: key .offset: bytes at %u overlap arg %u "
                         "(offset %u, size %u)",
                         order[i].index, order[i].offset, order[i - 1].index,
                         previous->offset, previous->size);
    }
  }
  for (uint32_t i = 0; !status && i < count; ++i) sorted[i] = args[order[i].index];
  if (!status) memcpy(args, sorted, count * sizeof(*args));
  free(order);
  free(sorted);
  return status;
}

static rl_status_t rl_md_parse_args(const msgpack_object* kernel_map,
                                    rl_code_object_kernel_t* kernel) {
  const msgpack_object* list;
  RL_RETURN_IF_ERROR(rl_md_lookup(kernel_map, ".args", false,
                                  MSGPACK_OBJECT_ARRAY, "an array", &list));
  if (!list || list->via.array.size == 0) return RL_OK;
  kernel->args = calloc(list->via.array.size, sizeof(*kernel->args));
  if (!kernel->args) return rl_status_out_of_memory();
  for (uint32_t i = 0; i < list->via.array.size; ++i) {
    kernel->arg_count = i + 1;  // so destroy frees what was parsed
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_md_parse_arg(&list->via.array.ptr[i], kernel->kernarg_size,
                        &kernel->args[i]),
        "arg %u", i));
  }
  return rl_md_sort_args(kernel->args, kernel->arg_count);
}

static rl_status_t rl_md_check_kernel(const rl_code_object_kernel_t* kernel) {
  uint32_t align = kernel->kernarg_align;
  if (align == 0 || (align & (align - 1)) != 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "key .kernarg_segment_align: %u is not a power of two",
                     align);
  }
  if (kernel->wavefront_size != 32 && kernel->wavefront_size != 64) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "key .wavefront_size: %u, expected 32 or 64",
                     kernel->wavefront_size);
  }
  return RL_OK;
}

// Reads the keys of one kernel map (AMDGPUUsage "AMDHSA Code Object V3
// Kernel Metadata Map", unchanged in v4/v5 for the keys redline reads).
static rl_status_t rl_md_parse_kernel_keys(const msgpack_object* map,
                                           rl_code_object_kernel_t* kernel) {
  RL_RETURN_IF_ERROR(rl_md_get_string(map, ".name", true, &kernel->name));
  RL_RETURN_IF_ERROR(rl_md_get_string(map, ".symbol", true, &kernel->symbol));
  RL_RETURN_IF_ERROR(rl_md_get_u32(map, ".kernarg_segment_size", true,
                                   &kernel->kernarg_size));
  RL_RETURN_IF_ERROR(rl_md_get_u32(map, ".kernarg_segment_align", true,
                                   &kernel->kernarg_align));
  RL_RETURN_IF_ERROR(rl_md_get_u32(map, ".group_segment_fixed_size", true,
                                   &kernel->group_segment_size));
  RL_RETURN_IF_ERROR(rl_md_get_u32(map, ".private_segment_fixed_size", true,
                                   &kernel->private_segment_size));
  RL_RETURN_IF_ERROR(rl_md_get_u32(map, ".wavefront_size", true,
                                   &kernel->wavefront_size));
  RL_RETURN_IF_ERROR(
      rl_md_get_u32(map, ".sgpr_count", true, &kernel->sgpr_count));
  RL_RETURN_IF_ERROR(
      rl_md_get_u32(map, ".vgpr_count", true, &kernel->vgpr_count));
  RL_RETURN_IF_ERROR(rl_md_get_u32(map, ".max_flat_workgroup_size", false,
                                   &kernel->max_flat_workgroup_size));
  RL_RETURN_IF_ERROR(rl_md_get_bool(map, ".uses_dynamic_stack",
                                    &kernel->uses_dynamic_stack));
  return rl_md_check_kernel(kernel);
}

static rl_status_t rl_md_parse_kernel(const msgpack_object* object,
                                      rl_code_object_kernel_t* kernel) {
  if (object->type != MSGPACK_OBJECT_MAP) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "expected a map, found %s",
                     rl_md_type_name(object->type));
  }
  RL_RETURN_IF_ERROR(rl_md_parse_kernel_keys(object, kernel));
  return rl_md_parse_args(object, kernel);
}

// Rejects two kernels with the same .name or .symbol.
static rl_status_t rl_md_check_unique(const rl_code_object_t* code_object) {
  const rl_code_object_kernel_t* kernels = code_object->kernels;
  for (uint32_t i = 0; i < code_object->kernel_count; ++i) {
    for (uint32_t j = 0; j < i; ++j) {
      if (strcmp(kernels[i].name, kernels[j].name) == 0 ||
          strcmp(kernels[i].symbol, kernels[j].symbol) == 0) {
        return RL_STATUS(RL_STATUS_INVALID_INPUT,
                         "kernel %u '%s': same .name or .symbol as kernel %u",
                         i, kernels[i].name, j);
      }
    }
  }
  return RL_OK;
}

static rl_status_t rl_md_parse_kernels(const msgpack_object* root,
                                       rl_code_object_t* code_object) {
  const msgpack_object* list;
  RL_RETURN_IF_ERROR(rl_md_lookup(root, "amdhsa.kernels", true,
                                  MSGPACK_OBJECT_ARRAY, "an array", &list));
  if (list->via.array.size == 0) return RL_OK;
  code_object->kernels = calloc(list->via.array.size,
                                sizeof(*code_object->kernels));
  if (!code_object->kernels) return rl_status_out_of_memory();
  for (uint32_t i = 0; i < list->via.array.size; ++i) {
    code_object->kernel_count = i + 1;
    rl_code_object_kernel_t* kernel = &code_object->kernels[i];
    rl_status_t status = rl_md_parse_kernel(&list->via.array.ptr[i], kernel);
    if (status && kernel->name) {
      return rl_status_annotate(status, "amdhsa.kernels: kernel %u '%s'", i,
                                kernel->name);
    }
    RL_RETURN_IF_ERROR(
        rl_status_annotate(status, "amdhsa.kernels: kernel %u", i));
  }
  return rl_md_check_unique(code_object);
}

static rl_status_t rl_md_parse_version(const msgpack_object* root,
                                       rl_code_object_t* code_object) {
  const msgpack_object* version;
  RL_RETURN_IF_ERROR(rl_md_lookup(root, "amdhsa.version", true,
                                  MSGPACK_OBJECT_ARRAY, "an array", &version));
  if (version->via.array.size != 2) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "key amdhsa.version: %u elements, expected 2",
                     version->via.array.size);
  }
  for (uint32_t i = 0; i < 2; ++i) {
    const msgpack_object* part = &version->via.array.ptr[i];
    if (part->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
        part->via.u64 > UINT32_MAX) {
      return rl_md_wrong_type("amdhsa.version", "unsigned integers", part);
    }
    code_object->metadata_version[i] = (uint32_t)part->via.u64;
  }
  return RL_OK;
}

static rl_status_t rl_md_parse_root(const msgpack_object* root,
                                    rl_code_object_t* code_object) {
  if (root->type != MSGPACK_OBJECT_MAP) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "the metadata is a %s, expected a map",
                     rl_md_type_name(root->type));
  }
  RL_RETURN_IF_ERROR(rl_md_parse_version(root, code_object));
  RL_RETURN_IF_ERROR(
      rl_md_get_string(root, "amdhsa.target", true, &code_object->target));
  return rl_md_parse_kernels(root, code_object);
}

rl_status_t rl_code_object_metadata_parse(const uint8_t* data, size_t size,
                                          rl_code_object_t* code_object) {
  RL_RETURN_IF_ERROR(rl_md_scan(data, size));
  msgpack_unpacked unpacked;
  msgpack_unpacked_init(&unpacked);
  size_t offset = 0;
  msgpack_unpack_return result =
      msgpack_unpack_next(&unpacked, (const char*)data, size, &offset);
  rl_status_t status;
  if (result == MSGPACK_UNPACK_SUCCESS) {
    status = rl_md_parse_root(&unpacked.data, code_object);
  } else if (result == MSGPACK_UNPACK_NOMEM_ERROR) {
    status = rl_status_out_of_memory();
  } else {
    status = RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "msgpack-c rejected the metadata (code %d)", (int)result);
  }
  msgpack_unpacked_destroy(&unpacked);
  return status;
}

void rl_code_object_kernel_deinit(rl_code_object_kernel_t* kernel) {
  free((char*)kernel->name);
  free((char*)kernel->symbol);
  for (uint32_t i = 0; i < kernel->arg_count; ++i) {
    rl_kernel_arg_t* arg = &kernel->args[i];
    free((char*)arg->name);
    free((char*)arg->value_kind);
    free((char*)arg->address_space);
    free((char*)arg->access);
    free((char*)arg->actual_access);
  }
  free(kernel->args);
  memset(kernel, 0, sizeof(*kernel));
}
