// Dynamic relocations and the loaded image of a code object
// (redline/code_object.h: rl_code_object_load_image()).
//
// A code object is loaded like a shared library: each PT_LOAD segment's
// file bytes go to |load_base| + p_vaddr, the rest of p_memsz is zero, and
// the .rela.dyn entries are applied (AMDGPUUsage "Loading" and
// "Relocation Records"). Relocation numbers are those of
// llvm/include/llvm/BinaryFormat/ELFRelocs/AMDGPU.def:
//   R_AMDGPU_NONE       0   nothing
//   R_AMDGPU_ABS64      3   S + A (64-bit)
//   R_AMDGPU_RELATIVE64 13  B + A (64-bit)
// where S is the symbol's loaded address, B the load base, A the addend.
#include <stdlib.h>
#include <string.h>

#include "capture/code_object/code_object_internal.h"
#include "base/array.h"

#define RL_R_AMDGPU_NONE 0
#define RL_R_AMDGPU_ABS64 3
#define RL_R_AMDGPU_RELATIVE64 13

static rl_status_t rl_co_rela_error(const char* what) {
  return RL_STATUS(RL_STATUS_INVALID_INPUT, "%s: %s", what, elf_errmsg(-1));
}

// Resolves the symbol of |rela| in the symbol table section |link|.
static rl_status_t rl_co_rela_symbol(Elf* elf, size_t link,
                                     rl_code_object_relocation_t* reloc) {
  if (reloc->symbol_index == 0) return RL_OK;
  Elf_Scn* scn = elf_getscn(elf, link);
  GElf_Shdr shdr;
  if (!scn || !gelf_getshdr(scn, &shdr) ||
      (shdr.sh_type != SHT_DYNSYM && shdr.sh_type != SHT_SYMTAB)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "sh_link %zu is not a symbol table", link);
  }
  Elf_Data* data = elf_getdata(scn, NULL);
  GElf_Sym sym;
  if (!data || reloc->symbol_index > INT32_MAX ||
      !gelf_getsym(data, (int)reloc->symbol_index, &sym)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "symbol index %u is outside section %zu",
                     reloc->symbol_index, link);
  }
  reloc->symbol_defined = sym.st_shndx != SHN_UNDEF;
  reloc->symbol_value = sym.st_value;
  return RL_OK;
}

// Reads relocation |index| of |data| and checks where it writes.
static rl_status_t rl_co_read_rela(Elf* elf, const GElf_Shdr* shdr,
                                   Elf_Data* data, size_t index,
                                   rl_code_object_t* co) {
  GElf_Rela rela;
  if (!gelf_getrela(data, (int)index, &rela)) return rl_co_rela_error("rela");
  rl_code_object_relocation_t reloc = {
      .offset = rela.r_offset,
      .type = (uint32_t)GELF_R_TYPE(rela.r_info),
      .symbol_index = (uint32_t)GELF_R_SYM(rela.r_info),
      .addend = rela.r_addend,
  };
  if (!rl_code_object_find_segment(co, reloc.offset, 8, false)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "r_offset 0x%llx: 8 bytes not inside a PT_LOAD segment",
                     (unsigned long long)reloc.offset);
  }
  RL_RETURN_IF_ERROR(rl_co_rela_symbol(elf, shdr->sh_link, &reloc));
  co->relocations[co->relocation_count++] = reloc;
  return RL_OK;
}

static rl_status_t rl_co_collect_section(Elf* elf, Elf_Scn* scn,
                                         const GElf_Shdr* shdr,
                                         uint32_t* capacity,
                                         rl_code_object_t* co) {
  Elf_Data* data = elf_getdata(scn, NULL);
  if (!data) return rl_co_rela_error("SHT_RELA data");
  size_t count = data->d_size / sizeof(Elf64_Rela);
  if (count > INT32_MAX || count > UINT32_MAX - co->relocation_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "%zu relocations", count);
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&co->relocations, capacity,
                                      co->relocation_count + (uint32_t)count));
  for (size_t i = 0; i < count; ++i) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_co_read_rela(elf, shdr, data, i, co), "relocation %zu", i));
  }
  return RL_OK;
}

rl_status_t rl_code_object_collect_relocations(Elf* elf,
                                               rl_code_object_t* co) {
  uint32_t capacity = 0;
  for (Elf_Scn* scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr)) return rl_co_rela_error("section header");
    if (!(shdr.sh_flags & SHF_ALLOC)) continue;
    if (shdr.sh_type == SHT_REL) {
      return RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "section %zu: SHT_REL dynamic relocations (AMDGPU uses "
                       "SHT_RELA)",
                       elf_ndxscn(scn));
    }
    if (shdr.sh_type != SHT_RELA) continue;
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_co_collect_section(elf, scn, &shdr, &capacity, co),
        "section %zu (SHT_RELA)", elf_ndxscn(scn)));
  }
  return RL_OK;
}

// Every relocation must be one redline can apply; checked before the image
// is touched.
static rl_status_t rl_co_check_relocations(const rl_code_object_t* co) {
  for (uint32_t i = 0; i < co->relocation_count; ++i) {
    const rl_code_object_relocation_t* reloc = &co->relocations[i];
    bool known = reloc->type == RL_R_AMDGPU_NONE ||
                 reloc->type == RL_R_AMDGPU_RELATIVE64 ||
                 reloc->type == RL_R_AMDGPU_ABS64;
    if (!known) {
      return RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "relocation %u at 0x%llx: type %u is not supported "
                       "(only R_AMDGPU_ABS64 and R_AMDGPU_RELATIVE64)",
                       i, (unsigned long long)reloc->offset, reloc->type);
    }
    if (reloc->type == RL_R_AMDGPU_ABS64 && !reloc->symbol_defined) {
      return RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "relocation %u at 0x%llx: R_AMDGPU_ABS64 against "
                       "undefined symbol %u",
                       i, (unsigned long long)reloc->offset, reloc->symbol_index);
    }
  }
  return RL_OK;
}

// The segments must lie in |size| bytes of input: the caller may pass other
// bytes than it parsed.
static rl_status_t rl_co_check_source(const rl_code_object_t* co,
                                      const void* data, size_t size) {
  if (!data && size) return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "data is NULL");
  for (uint32_t i = 0; i < co->segment_count; ++i) {
    const rl_code_object_segment_t* segment = &co->segments[i];
    if (segment->file_offset > size ||
        segment->file_size > size - segment->file_offset) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "segment %u needs file bytes up to 0x%llx; data is %zu "
                       "bytes (not the parsed object?)",
                       i,
                       (unsigned long long)(segment->file_offset +
                                            segment->file_size),
                       size);
    }
  }
  return RL_OK;
}

static void rl_co_apply_relocation(const rl_code_object_relocation_t* reloc,
                                   uint64_t load_base, uint8_t* image) {
  uint64_t value;
  switch (reloc->type) {
    case RL_R_AMDGPU_RELATIVE64:
      value = load_base + (uint64_t)reloc->addend;
      break;
    case RL_R_AMDGPU_ABS64:
      value = load_base + reloc->symbol_value + (uint64_t)reloc->addend;
      break;
    default:
      return;  // R_AMDGPU_NONE
  }
  memcpy(image + reloc->offset, &value, sizeof(value));  // little-endian host
}

rl_status_t rl_code_object_load_image(const rl_code_object_t* code_object,
                                      const void* data, size_t size,
                                      uint64_t load_base, void* image,
                                      size_t image_size) {
  if (!code_object || !image) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "code_object or image is NULL");
  }
  if (image_size < code_object->image_size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "image buffer is %zu bytes, the code object needs %llu",
                     image_size, (unsigned long long)code_object->image_size);
  }
  RL_RETURN_IF_ERROR(rl_co_check_source(code_object, data, size));
  RL_RETURN_IF_ERROR(rl_co_check_relocations(code_object));
  uint8_t* bytes = image;
  memset(bytes, 0, (size_t)code_object->image_size);
  for (uint32_t i = 0; i < code_object->segment_count; ++i) {
    const rl_code_object_segment_t* segment = &code_object->segments[i];
    if (segment->file_size == 0) continue;
    memcpy(bytes + segment->virtual_address,
           (const uint8_t*)data + segment->file_offset,
           (size_t)segment->file_size);
  }
  for (uint32_t i = 0; i < code_object->relocation_count; ++i) {
    rl_co_apply_relocation(&code_object->relocations[i], load_base, bytes);
  }
  return RL_OK;
}
