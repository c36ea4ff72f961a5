// sim/hip_sim/hip_sim_printf.c — device printf, the buffered form
// clang emits with -mprintf-kind=buffered (hip_sim.h "Device printf"): the
// format strings come from the code object's amdhsa.printf metadata, the
// records from the runtime's printf buffer after each launch.
#include <elf.h>
#include <inttypes.h>
#include <msgpack.h>

#include "sim/hip_sim/hip_sim_internal.h"

// NT_AMDGPU_METADATA (LLVM AMDGPUUsage, "Code Object V3 and Above Note
// Records"), owner "AMDGPU".
#define RL_HIP_NT_AMDGPU_METADATA 32u

// Adds one "...:HASH,FORMAT" entry to |m|.
static void rl_hip_add_format(struct ihipModule_t* m, const char* text,
                              size_t length) {
  const char* comma = memchr(text, ',', length);
  if (!comma) return;
  const char* colon = comma;
  while (colon > text && colon[-1] != ':') --colon;
  char hex[32];
  size_t hex_length = (size_t)(comma - colon);
  if (hex_length == 0 || hex_length >= sizeof(hex)) return;
  memcpy(hex, colon, hex_length);
  hex[hex_length] = '\0';
  char* end = NULL;
  uint64_t hash = strtoull(hex, &end, 16);
  if (*end) return;
  void* grown = realloc(m->formats, (m->format_count + 1) * sizeof(*m->formats));
  if (!grown) return;
  m->formats = grown;
  size_t format_length = length - (size_t)(comma + 1 - text);
  char* format = malloc(format_length + 1);
  if (!format) return;
  memcpy(format, comma + 1, format_length);
  format[format_length] = '\0';
  m->formats[m->format_count++] = (rl_hip_format_t){hash, format};
}

static void rl_hip_formats_from_metadata(struct ihipModule_t* m,
                                         const char* data, size_t size) {
  msgpack_unpacked unpacked;
  msgpack_unpacked_init(&unpacked);
  size_t offset = 0;
  if (msgpack_unpack_next(&unpacked, data, size, &offset) ==
          MSGPACK_UNPACK_SUCCESS &&
      unpacked.data.type == MSGPACK_OBJECT_MAP) {
    const msgpack_object_map* map = &unpacked.data.via.map;
    for (uint32_t i = 0; i < map->size; ++i) {
      const msgpack_object* key = &map->ptr[i].key;
      const msgpack_object* value = &map->ptr[i].val;
      if (key->type != MSGPACK_OBJECT_STR || key->via.str.size != 13 ||
          memcmp(key->via.str.ptr, "amdhsa.printf", 13) != 0 ||
          value->type != MSGPACK_OBJECT_ARRAY) {
        continue;
      }
      for (uint32_t e = 0; e < value->via.array.size; ++e) {
        const msgpack_object* entry = &value->via.array.ptr[e];
        if (entry->type == MSGPACK_OBJECT_STR) {
          rl_hip_add_format(m, entry->via.str.ptr, entry->via.str.size);
        }
      }
    }
  }
  msgpack_unpacked_destroy(&unpacked);
}

void rl_hip_printf_formats(struct ihipModule_t* m) {
  const uint8_t* image = m->image;
  size_t size = m->image_size;
  Elf64_Ehdr eh;
  if (size < sizeof(eh)) return;
  memcpy(&eh, image, sizeof(eh));
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
      (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > size - eh.e_shoff) {
    return;
  }
  for (uint32_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    memcpy(&sh, image + eh.e_shoff + i * sizeof(sh), sizeof(sh));
    if (sh.sh_type != SHT_NOTE || sh.sh_offset > size ||
        sh.sh_size > size - sh.sh_offset) {
      continue;
    }
    const uint8_t* note = image + sh.sh_offset;
    uint64_t at = 0;
    while (at + 12 <= sh.sh_size) {
      uint32_t namesz, descsz, type;
      memcpy(&namesz, note + at, 4);
      memcpy(&descsz, note + at + 4, 4);
      memcpy(&type, note + at + 8, 4);
      uint64_t name_at = at + 12;
      uint64_t desc_at = name_at + ((namesz + 3u) & ~3u);
      if (desc_at + descsz > sh.sh_size) break;
      if (type == RL_HIP_NT_AMDGPU_METADATA && namesz >= 6 &&
          memcmp(note + name_at, "AMDGPU", 6) == 0) {
        rl_hip_formats_from_metadata(m, (const char*)note + desc_at, descsz);
      }
      at = desc_at + ((descsz + 3u) & ~3u);
    }
  }
}

static const char* rl_hip_find_format(uint64_t hash) {
  for (uint32_t i = 0; i < rl_hip.module_count; ++i) {
    const struct ihipModule_t* m = rl_hip.modules[i];
    for (uint32_t f = 0; f < m->format_count; ++f) {
      if (m->formats[f].hash == hash) return m->formats[f].text;
    }
  }
  return NULL;
}

// Formats one record's arguments |args| (|size| bytes) by |format| to
// |out|.
static void rl_hip_print_record(FILE* out, const char* format,
                                const uint8_t* args, size_t size) {
  size_t at = 0;
  for (const char* p = format; *p;) {
    if (*p != '%') {
      fputc(*p++, out);
      continue;
    }
    if (p[1] == '%') {
      fputc('%', out);
      p += 2;
      continue;
    }
    // One conversion: %[flags][width][.precision][length]conversion.
    char spec[32];
    size_t n = 0;
    int stars[2];
    int star_count = 0;
    spec[n++] = *p++;
    while (*p && strchr("-+ #0", *p) && n < 20) spec[n++] = *p++;
    for (int part = 0; part < 2; ++part) {
      if (part == 1) {
        if (*p != '.') break;
        spec[n++] = *p++;
      }
      if (*p == '*') {
        int64_t value = 0;
        if (at + 8 <= size) memcpy(&value, args + at, 8);
        at += 8;
        stars[star_count++] = (int)value;
        spec[n++] = *p++;
      } else {
        while (*p >= '0' && *p <= '9' && n < 24) spec[n++] = *p++;
      }
    }
    while (*p && strchr("hlzjtL", *p)) ++p;  // every argument is 8 bytes
    char conversion = *p ? *p++ : '\0';
    if (!conversion) break;
    uint64_t raw = 0;
    const char* text = NULL;
    if (conversion == 's') {
      text = at < size ? (const char*)args + at : "";
      size_t length = at < size ? strnlen(text, size - at) : 0;
      at += (length + 1 + 7) & ~(size_t)7;
    } else {
      if (at + 8 <= size) memcpy(&raw, args + at, 8);
      at += 8;
    }
    switch (conversion) {
      case 'd': case 'i':
        spec[n++] = 'l'; spec[n++] = 'l'; spec[n++] = conversion; break;
      case 'u': case 'x': case 'X': case 'o': case 'c':
        if (conversion != 'c') { spec[n++] = 'l'; spec[n++] = 'l'; }
        spec[n++] = conversion; break;
      default:
        spec[n++] = conversion;
    }
    spec[n] = '\0';
    double real;
    memcpy(&real, &raw, 8);
#define RL_HIP_PRINT(value)                                                  \
  (star_count == 2   ? fprintf(out, spec, stars[0], stars[1], value)         \
   : star_count == 1 ? fprintf(out, spec, stars[0], value)                   \
                     : fprintf(out, spec, value))
    switch (conversion) {
      case 'd': case 'i': RL_HIP_PRINT((long long)raw); break;
      case 'u': case 'x': case 'X': case 'o':
        RL_HIP_PRINT((unsigned long long)raw); break;
      case 'c': RL_HIP_PRINT((int)(unsigned char)raw); break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
      case 'a': case 'A':
        RL_HIP_PRINT(real); break;
      case 'p': RL_HIP_PRINT((void*)(uintptr_t)raw); break;
      case 's': RL_HIP_PRINT(text); break;
      default: fputs(spec, out);
    }
#undef RL_HIP_PRINT
  }
}

// Device lock held.
static void rl_hip_printf_flush_device_locked(void) {
  uint32_t header[2];
  const rl_device_vtable_t* vt = rl_hip.sim->vtable;
  rl_status_t status = vt->read(rl_hip.sim, rl_hip.printf_buffer, header, 8);
  if (status || header[0] == 0) {
    rl_status_free(status);
    return;
  }
  uint32_t used = header[0] < header[1] ? header[0] : header[1];
  uint8_t* records = malloc(used);
  if (!records) return;
  status = vt->read(rl_hip.sim, rl_hip.printf_buffer + 8, records, used);
  for (uint32_t at = 0; !status && at + 12 <= used;) {
    uint32_t control;
    uint64_t hash;
    memcpy(&control, records + at, 4);
    memcpy(&hash, records + at + 4, 8);
    uint32_t bytes = control >> 2;
    if (bytes < 12 || bytes > used - at) break;
    const char* format = rl_hip_find_format(hash);
    if (format) {
      rl_hip_print_record(stdout, format, records + at + 12, bytes - 12);
    } else {
      printf("[redline hip: printf record with unknown format %016" PRIx64
             "]\n", hash);
    }
    at += bytes;
  }
  fflush(stdout);
  free(records);
  rl_status_free(status);
  header[0] = 0;
  rl_status_free(vt->write(rl_hip.sim, rl_hip.printf_buffer, header, 4));
}

void rl_hip_printf_flush(void) {
  pthread_mutex_lock(&rl_hip.device_lock);
  rl_hip_printf_flush_device_locked();
  pthread_mutex_unlock(&rl_hip.device_lock);
}
