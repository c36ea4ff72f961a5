// capture/code_object/offload_bundle_file.c — every code object in a file
// (rl_offload_bundle_list of redline/offload_bundle.h): a bare clang
// offload bundle, or the .hip_fatbin section of a host ELF64.
//
// ELF64 layout read here (little-endian only, as every HIP host is):
// e_shoff at byte 40 (u64), e_shentsize at 58, e_shnum at 60, e_shstrndx at
// 62 (u16); each section header has sh_name at 0 (u32), sh_type at 4 (u32),
// sh_offset at 24 and sh_size at 32 (u64). SHT_NOBITS (8) sections have no
// bytes in the file. Sources: the System V ABI, "Object Files" (ELF header
// and section header tables); clang's HIP host code generation names the
// section .hip_fatbin (clang/lib/CodeGen/CGCUDANV.cpp).
#include <string.h>

#include "base/byte_order.h"
#include "redline/offload_bundle.h"

#define RL_OFFLOAD_FILE_MAX_ENTRIES 4096u
#define RL_OFFLOAD_FILE_MAX_TRIPLE 1024u
#define RL_OFFLOAD_MAGIC_LENGTH (sizeof(RL_OFFLOAD_BUNDLE_MAGIC) - 1)

// True when |triple| names an AMDGPU entry (hip-/hipv4-amdgcn-…).
static bool rl_offload_is_amdgpu(const char* triple, uint64_t length) {
  static const char* const kinds[] = {"hipv4-amdgcn-", "hip-amdgcn-"};
  for (size_t k = 0; k < 2; ++k) {
    size_t prefix = strlen(kinds[k]);
    if (length >= prefix && memcmp(triple, kinds[k], prefix) == 0) return true;
  }
  return false;
}

// Visits the AMDGPU entries of the bundle at |bundle| (|size| bytes left in
// its container); *|out_end| is the end of its last entry, from |bundle|.
static rl_status_t rl_offload_bundle_walk(const uint8_t* bundle, uint64_t size,
                                          uint32_t number,
                                          rl_offload_visit_fn visit,
                                          void* context, uint32_t* count,
                                          uint64_t* out_end) {
  *out_end = RL_OFFLOAD_MAGIC_LENGTH + 8;
  if (size < *out_end) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "offload bundle %u: header truncated", number);
  }
  uint64_t entries = rl_load_le64(bundle + RL_OFFLOAD_MAGIC_LENGTH);
  if (entries > RL_OFFLOAD_FILE_MAX_ENTRIES) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "offload bundle %u: %llu entries, at most %u expected",
                     number, (unsigned long long)entries,
                     RL_OFFLOAD_FILE_MAX_ENTRIES);
  }
  uint64_t at = *out_end;
  for (uint64_t i = 0; i < entries; ++i) {
    if (size - at < 24) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "offload bundle %u entry %llu: header truncated",
                       number, (unsigned long long)i);
    }
    uint64_t offset = rl_load_le64(bundle + at);
    uint64_t bytes = rl_load_le64(bundle + at + 8);
    uint64_t length = rl_load_le64(bundle + at + 16);
    if (length > RL_OFFLOAD_FILE_MAX_TRIPLE || size - at - 24 < length ||
        offset > size || bytes > size - offset) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "offload bundle %u entry %llu: triple of %llu bytes or "
                       "code [%llu, +%llu) outside the %llu bytes there",
                       number, (unsigned long long)i,
                       (unsigned long long)length, (unsigned long long)offset,
                       (unsigned long long)bytes, (unsigned long long)size);
    }
    const char* triple = (const char*)bundle + at + 24;
    at += 24 + length;
    if (offset + bytes > *out_end) *out_end = offset + bytes;
    if (bytes == 0 || !rl_offload_is_amdgpu(triple, length)) continue;
    const rl_offload_entry_t entry = {
        .bundle = number, .index = (uint32_t)i, .triple = triple,
        .triple_length = (uint32_t)length, .code = bundle + offset,
        .size = bytes};
    visit(context, &entry);
    ++*count;
  }
  if (at > *out_end) *out_end = at;
  return RL_OK;
}

// Finds the .hip_fatbin section of the host ELF64 |elf|.
static rl_status_t rl_offload_elf_section(const uint8_t* elf, size_t size,
                                          uint64_t* out_offset,
                                          uint64_t* out_size) {
  if (size < 64 || elf[4] != 2 || elf[5] != 1) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "ELF: expected a little-endian ELF64 header");
  }
  uint64_t shoff = rl_load_le64(elf + 40);
  uint16_t entsize = rl_load_le16(elf + 58), shnum = rl_load_le16(elf + 60),
           strndx = rl_load_le16(elf + 62);
  if (entsize < 64 || shoff > size || (uint64_t)shnum * entsize > size - shoff ||
      strndx >= shnum) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "ELF: section headers (%u of %u bytes at %llu) or their "
                     "name table (%u) outside the %zu-byte file",
                     shnum, entsize, (unsigned long long)shoff, strndx, size);
  }
  const uint8_t* names = elf + shoff + (uint64_t)strndx * entsize;
  uint64_t names_at = rl_load_le64(names + 24),
           names_size = rl_load_le64(names + 32);
  if (names_at > size || names_size > size - names_at) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "ELF: section name table outside the file");
  }
  static const char wanted[] = ".hip_fatbin";
  for (uint16_t i = 0; i < shnum; ++i) {
    const uint8_t* sh = elf + shoff + (uint64_t)i * entsize;
    uint32_t name = rl_load_le32(sh);
    if (name >= names_size || names_size - name < sizeof(wanted) ||
        memcmp(elf + names_at + name, wanted, sizeof(wanted)) != 0) {
      continue;
    }
    uint64_t at = rl_load_le64(sh + 24), bytes = rl_load_le64(sh + 32);
    if (rl_load_le32(sh + 4) == 8 || at > size || bytes > size - at) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "ELF: section .hip_fatbin [%llu, +%llu) has no bytes "
                       "in the %zu-byte file",
                       (unsigned long long)at, (unsigned long long)bytes,
                       size);
    }
    *out_offset = at;
    *out_size = bytes;
    return RL_OK;
  }
  return RL_STATUS(RL_STATUS_NOT_FOUND,
                   "no code objects: the ELF has no .hip_fatbin section "
                   "(not a HIP program, or built without device code)");
}

rl_status_t rl_offload_bundle_list(const void* data, size_t size,
                                   rl_offload_visit_fn visit, void* context,
                                   uint32_t* out_count) {
  if (out_count) *out_count = 0;
  if (!data || !visit || !out_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "rl_offload_bundle_list: NULL argument");
  }
  const uint8_t* bytes = data;
  uint64_t start = 0, length = size;
  if (size >= 4 && memcmp(bytes, "\x7f" "ELF", 4) == 0) {
    RL_RETURN_IF_ERROR(rl_offload_elf_section(bytes, size, &start, &length));
  }
  uint32_t bundles = 0;
  for (uint64_t at = 0; length - at >= RL_OFFLOAD_MAGIC_LENGTH;) {
    if (memcmp(bytes + start + at, RL_OFFLOAD_BUNDLE_MAGIC,
               RL_OFFLOAD_MAGIC_LENGTH) != 0) {
      if (bundles == 0 && start == 0) break;  // a bare file must start so
      at += 8;
      continue;
    }
    uint64_t end = 0;
    RL_RETURN_IF_ERROR(rl_offload_bundle_walk(bytes + start + at, length - at,
                                              bundles, visit, context,
                                              out_count, &end));
    ++bundles;
    at += (end + 7) & ~(uint64_t)7;
  }
  if (*out_count > 0) return RL_OK;
  return RL_STATUS(RL_STATUS_NOT_FOUND,
                   "no code objects: %u offload bundle%s with no AMDGPU entry%s",
                   bundles, bundles == 1 ? "" : "s",
                   start == 0 && bundles == 0
                       ? " (neither an AMDGPU code object, a clang offload "
                         "bundle nor an ELF with a .hip_fatbin section)"
                       : "");
}
