// Implementation of redline/code_object.h: the ELF side (header, program
// headers, the metadata note, symbols and kernel descriptors). e_flags and
// the target cross-check live in code_object_target.c, the msgpack metadata
// in code_object_metadata.c, relocations and image loading in
// code_object_load.c.
//
// The ELF header is checked on the raw bytes first so that every error can
// name its byte offset; libelf then reads the rest from a private copy of
// the input (elf_memory() takes a non-const pointer).
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "redline/code_object.h"
#include "capture/code_object/code_object_internal.h"
#include "base/array.h"
#include "base/byte_order.h"

// The descriptor and every multi-byte field are copied from the file as-is.
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "capture/code_object/code_object.c reads little-endian ELF fields in place"
#endif

// AMDGPU ELF constants. Source: llvm/include/llvm/BinaryFormat/ELF.h
// (EM_AMDGPU, ELFOSABI_AMDGPU_HSA, ELFABIVERSION_AMDGPU_HSA_V4..V6,
// NT_AMDGPU_METADATA) and AMDGPUUsage "ELF Header" / "Note Records".
// e_flags are decoded in code_object_target.c.
#define RL_EM_AMDGPU 224
#define RL_ELFOSABI_AMDGPU_HSA 64
#define RL_ELFABIVERSION_AMDGPU_HSA_V4 2
#define RL_ELFABIVERSION_AMDGPU_HSA_V6 4
#define RL_NT_AMDGPU_METADATA 32
// AMDGPUUsage "Kernel Descriptor": kernel code must be 256-byte aligned
// (COMPUTE_PGM_LO holds the address shifted right by 8).
#define RL_KERNEL_CODE_ALIGN 256u

// A named symbol of the symbol table, sorted by name for lookups.
typedef struct rl_code_object_symbol_s {
  const char* name;  // points into libelf's copy
  uint32_t index;
  GElf_Sym sym;
} rl_code_object_symbol_t;

// Parse state; everything here dies at the end of rl_code_object_parse().
typedef struct rl_code_object_parser_s {
  const uint8_t* data;
  size_t size;
  uint8_t* copy;
  Elf* elf;
  rl_code_object_t* code_object;
  const char* symtab_name;  // ".symtab" or ".dynsym"
  uint32_t segment_capacity;
  rl_code_object_symbol_t* symbols;
  uint32_t symbol_count;
  uint32_t symbol_capacity;
} rl_code_object_parser_t;

static rl_status_t rl_co_libelf_error(const char* what) {
  return RL_STATUS(RL_STATUS_INVALID_INPUT, "%s: %s", what, elf_errmsg(-1));
}

// Checks e_ident, e_type, e_machine and e_version on the raw bytes. Field
// offsets are those of Elf64_Ehdr (System V gABI).
static rl_status_t rl_co_check_ident(const uint8_t* d, size_t size) {
  if (size < sizeof(Elf64_Ehdr)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "file is %zu bytes, shorter than the 64-byte ELF header",
                     size);
  }
  if (memcmp(d, ELFMAG, SELFMAG) != 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "byte 0: no ELF magic");
  }
  if (d[EI_CLASS] != ELFCLASS64 || d[EI_DATA] != ELFDATA2LSB ||
      d[EI_VERSION] != EV_CURRENT) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "bytes 4-6: class %u, data %u, version %u; expected "
                     "ELFCLASS64, ELFDATA2LSB, EV_CURRENT",
                     d[EI_CLASS], d[EI_DATA], d[EI_VERSION]);
  }
  if (rl_load_le16(d + 18) != RL_EM_AMDGPU) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "byte 18: e_machine %u, expected EM_AMDGPU (224)",
                     rl_load_le16(d + 18));
  }
  if (rl_load_le32(d + 20) != EV_CURRENT) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "byte 20: e_version %u, expected 1",
                     rl_load_le32(d + 20));
  }
  if (d[EI_OSABI] != RL_ELFOSABI_AMDGPU_HSA) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "byte 7: OS/ABI %u, expected ELFOSABI_AMDGPU_HSA (64)",
                     d[EI_OSABI]);
  }
  if (d[EI_ABIVERSION] < RL_ELFABIVERSION_AMDGPU_HSA_V4 ||
      d[EI_ABIVERSION] > RL_ELFABIVERSION_AMDGPU_HSA_V6) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "byte 8: ABI version %u (code object v%u); redline reads "
                     "ABI versions 2-4 (code object v4-v6)",
                     d[EI_ABIVERSION], d[EI_ABIVERSION] + 2u);
  }
  if (rl_load_le16(d + 16) != ET_DYN) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "byte 16: e_type %u, expected ET_DYN (3): not a linked "
                     "code object",
                     rl_load_le16(d + 16));
  }
  return RL_OK;
}

// Validates one PT_LOAD header and appends it to the segment list.
static rl_status_t rl_co_add_segment(rl_code_object_parser_t* parser,
                                     size_t index, const GElf_Phdr* phdr) {
  rl_code_object_t* co = parser->code_object;
  if (phdr->p_offset > parser->size ||
      phdr->p_filesz > parser->size - phdr->p_offset ||
      phdr->p_filesz > phdr->p_memsz ||
      phdr->p_memsz > RL_CODE_OBJECT_MAX_IMAGE_SIZE ||
      phdr->p_vaddr > RL_CODE_OBJECT_MAX_IMAGE_SIZE - phdr->p_memsz) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "program header %zu (PT_LOAD): offset 0x%llx, filesz "
                     "0x%llx, vaddr 0x%llx, memsz 0x%llx do not fit the %zu-byte "
                     "file or a %llu-byte image",
                     index, (unsigned long long)phdr->p_offset,
                     (unsigned long long)phdr->p_filesz,
                     (unsigned long long)phdr->p_vaddr,
                     (unsigned long long)phdr->p_memsz, parser->size,
                     (unsigned long long)RL_CODE_OBJECT_MAX_IMAGE_SIZE);
  }
  if (phdr->p_align & (phdr->p_align - 1)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "program header %zu: p_align 0x%llx is not a power of two",
                     index, (unsigned long long)phdr->p_align);
  }
  // gABI: loadable segments appear in ascending p_vaddr order; overlapping
  // ones would make the image depend on copy order.
  if (co->image_size > phdr->p_vaddr) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "program header %zu: PT_LOAD at 0x%llx overlaps or "
                     "precedes the previous one (ending at 0x%llx)",
                     index, (unsigned long long)phdr->p_vaddr,
                     (unsigned long long)co->image_size);
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&co->segments, &parser->segment_capacity,
                                      co->segment_count + 1));
  co->segments[co->segment_count++] = (rl_code_object_segment_t){
      phdr->p_vaddr, phdr->p_memsz, phdr->p_offset, phdr->p_filesz,
      phdr->p_flags};
  co->image_size = phdr->p_vaddr + phdr->p_memsz;
  if (phdr->p_align > co->image_align) co->image_align = phdr->p_align;
  return RL_OK;
}

static rl_status_t rl_co_parse_segments(rl_code_object_parser_t* parser) {
  size_t count = 0;
  if (elf_getphdrnum(parser->elf, &count) != 0) {
    return rl_co_libelf_error("program headers");
  }
  for (size_t i = 0; i < count && i <= INT32_MAX; ++i) {
    GElf_Phdr phdr;
    if (!gelf_getphdr(parser->elf, (int)i, &phdr)) {
      return rl_co_libelf_error("program header");
    }
    if (phdr.p_type == PT_LOAD) RL_RETURN_IF_ERROR(rl_co_add_segment(parser, i, &phdr));
  }
  if (parser->code_object->segment_count == 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "no PT_LOAD program header");
  }
  if (parser->code_object->image_align == 0) parser->code_object->image_align = 1;
  return RL_OK;
}

// Walks the notes of one SHT_NOTE section; records the AMDGPU metadata
// note's descriptor in *|out_desc| and counts them in *|count|.
static rl_status_t rl_co_scan_notes(Elf_Scn* scn, size_t section_index,
                                    const uint8_t** out_desc,
                                    size_t* out_desc_size, uint32_t* count) {
  Elf_Data* data = elf_getdata(scn, NULL);
  if (!data) return rl_co_libelf_error("SHT_NOTE section data");
  size_t offset = 0;
  GElf_Nhdr nhdr;
  size_t name_offset, desc_offset;
  while (offset < data->d_size) {
    size_t next = gelf_getnote(data, offset, &nhdr, &name_offset, &desc_offset);
    if (next == 0) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "section %zu (SHT_NOTE), note at byte %zu is truncated",
                       section_index, offset);
    }
    const char* name = (const char*)data->d_buf + name_offset;
    if (nhdr.n_type == RL_NT_AMDGPU_METADATA && nhdr.n_namesz == 7 &&
        memcmp(name, "AMDGPU", 7) == 0) {
      *out_desc = (const uint8_t*)data->d_buf + desc_offset;
      *out_desc_size = nhdr.n_descsz;
      ++*count;
    }
    offset = next;
  }
  return RL_OK;
}

// Finds the single NT_AMDGPU_METADATA note and parses it.
static rl_status_t rl_co_parse_metadata(rl_code_object_parser_t* parser) {
  const uint8_t* desc = NULL;
  size_t desc_size = 0;
  uint32_t count = 0;
  for (Elf_Scn* scn = elf_nextscn(parser->elf, NULL); scn;
       scn = elf_nextscn(parser->elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr)) return rl_co_libelf_error("section header");
    if (shdr.sh_type != SHT_NOTE) continue;
    RL_RETURN_IF_ERROR(rl_co_scan_notes(scn, elf_ndxscn(scn), &desc,
                                        &desc_size, &count));
  }
  if (count != 1) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "%u NT_AMDGPU_METADATA notes (owner AMDGPU), expected 1",
                     count);
  }
  return rl_status_annotate(
      rl_code_object_metadata_parse(desc, desc_size, parser->code_object),
      "NT_AMDGPU_METADATA note");
}

static int rl_co_symbol_compare(const void* a, const void* b) {
  const rl_code_object_symbol_t* x = a;
  const rl_code_object_symbol_t* y = b;
  int order = strcmp(x->name, y->name);
  if (order) return order;
  return x->index < y->index ? -1 : (x->index > y->index);
}

// Returns the first section of |type|, or NULL.
static Elf_Scn* rl_co_find_section(Elf* elf, uint32_t type, GElf_Shdr* shdr) {
  for (Elf_Scn* scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
    if (gelf_getshdr(scn, shdr) && shdr->sh_type == type) return scn;
  }
  return NULL;
}

// Loads the named symbols of .symtab (or .dynsym when stripped), sorted.
static rl_status_t rl_co_load_symbols(rl_code_object_parser_t* parser) {
  GElf_Shdr shdr;
  parser->symtab_name = ".symtab";
  Elf_Scn* scn = rl_co_find_section(parser->elf, SHT_SYMTAB, &shdr);
  if (!scn) {
    parser->symtab_name = ".dynsym";
    scn = rl_co_find_section(parser->elf, SHT_DYNSYM, &shdr);
  }
  if (!scn) return RL_STATUS(RL_STATUS_INVALID_INPUT, "no symbol table");
  Elf_Data* data = elf_getdata(scn, NULL);
  if (!data) return rl_co_libelf_error(parser->symtab_name);
  size_t count = data->d_size / sizeof(Elf64_Sym);
  for (size_t i = 1; i < count && i <= INT32_MAX; ++i) {
    GElf_Sym sym;
    if (!gelf_getsym(data, (int)i, &sym)) return rl_co_libelf_error("symbol");
    const char* name = elf_strptr(parser->elf, shdr.sh_link, sym.st_name);
    if (!name || !name[0]) continue;
    RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&parser->symbols,
                                        &parser->symbol_capacity,
                                        parser->symbol_count + 1));
    parser->symbols[parser->symbol_count++] =
        (rl_code_object_symbol_t){name, (uint32_t)i, sym};
  }
  if (parser->symbol_count > 1) {
    qsort(parser->symbols, parser->symbol_count, sizeof(*parser->symbols),
          rl_co_symbol_compare);
  }
  return RL_OK;
}

// Binary search for the first symbol named |name|.
static const rl_code_object_symbol_t* rl_co_find_symbol(
    const rl_code_object_parser_t* parser, const char* name) {
  uint32_t low = 0, high = parser->symbol_count;
  while (low < high) {
    uint32_t middle = low + (high - low) / 2;
    if (strcmp(parser->symbols[middle].name, name) < 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  if (low < parser->symbol_count && strcmp(parser->symbols[low].name, name) == 0) {
    return &parser->symbols[low];
  }
  return NULL;
}

const rl_code_object_segment_t* rl_code_object_find_segment(
    const rl_code_object_t* co, uint64_t address, uint64_t length,
    bool file_backed) {
  for (uint32_t i = 0; i < co->segment_count; ++i) {
    const rl_code_object_segment_t* segment = &co->segments[i];
    uint64_t extent = file_backed ? segment->file_size : segment->memory_size;
    if (address >= segment->virtual_address &&
        address - segment->virtual_address <= extent &&
        length <= extent - (address - segment->virtual_address)) {
      return segment;
    }
  }
  return NULL;
}

// Finds the kernel's .kd symbol and checks it is a defined 64-byte object
// inside the file bytes of a PT_LOAD segment; returns its file offset.
static rl_status_t rl_co_locate_descriptor(const rl_code_object_parser_t* parser,
                                           rl_code_object_kernel_t* kernel,
                                           uint64_t* out_file_offset) {
  const rl_code_object_symbol_t* symbol = rl_co_find_symbol(parser, kernel->symbol);
  if (!symbol) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor symbol '%s' is not in %s", kernel->symbol,
                     parser->symtab_name);
  }
  const GElf_Sym* sym = &symbol->sym;
  if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT || sym->st_size != 64 ||
      sym->st_shndx == SHN_UNDEF) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "%s symbol %u '%s': type %u, size %llu, section %u; "
                     "expected a defined 64-byte STT_OBJECT",
                     parser->symtab_name, symbol->index, kernel->symbol,
                     GELF_ST_TYPE(sym->st_info), (unsigned long long)sym->st_size,
                     sym->st_shndx);
  }
  const rl_code_object_segment_t* segment = rl_code_object_find_segment(
      parser->code_object, sym->st_value, 64, true);
  if (!segment) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "symbol '%s' at 0x%llx is not inside the file bytes of a "
                     "PT_LOAD segment",
                     kernel->symbol, (unsigned long long)sym->st_value);
  }
  kernel->descriptor_address = sym->st_value;
  *out_file_offset = segment->file_offset + (sym->st_value - segment->virtual_address);
  return RL_OK;
}

static bool rl_co_all_zero(const uint8_t* bytes, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (bytes[i]) return false;
  }
  return true;
}

static rl_status_t rl_co_check_reserved(const rl_kernel_descriptor_t* kd,
                                        uint64_t file_offset) {
  if (!rl_co_all_zero(kd->reserved0, sizeof(kd->reserved0)) ||
      !rl_co_all_zero(kd->reserved1, sizeof(kd->reserved1)) ||
      !rl_co_all_zero(kd->reserved2, sizeof(kd->reserved2))) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor at file offset 0x%llx: reserved bytes "
                     "(12-15, 24-43, 60-63) are not zero",
                     (unsigned long long)file_offset);
  }
  if (kd->kernel_code_properties & RL_KERNEL_CODE_PROPERTIES_RESERVED_MASK) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor at file offset 0x%llx: kernel_code_properties "
                     "0x%x has reserved bits set",
                     (unsigned long long)file_offset, kd->kernel_code_properties);
  }
  return RL_OK;
}

// The descriptor must agree with the metadata on the sizes both carry.
static rl_status_t rl_co_check_descriptor(const rl_code_object_t* co,
                                          const rl_code_object_kernel_t* k) {
  const rl_kernel_descriptor_t* kd = &k->descriptor;
  bool wave32 = k->descriptor_info.enable_wavefront_size32;
  if (kd->kernarg_size != k->kernarg_size ||
      kd->group_segment_fixed_size != k->group_segment_size ||
      kd->private_segment_fixed_size != k->private_segment_size ||
      (co->gfx_major >= 10 && wave32 != (k->wavefront_size == 32))) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "descriptor (kernarg %u, group %u, private %u, wave32 %d) "
                     "disagrees with the metadata (kernarg %u, group %u, "
                     "private %u, wavefront %u)",
                     kd->kernarg_size, kd->group_segment_fixed_size,
                     kd->private_segment_fixed_size, wave32, k->kernarg_size,
                     k->group_segment_size, k->private_segment_size,
                     k->wavefront_size);
  }
  return RL_OK;
}

// The entry must be 256-byte aligned file-backed code in a PF_X segment.
static rl_status_t rl_co_check_entry(const rl_code_object_t* co,
                                     rl_code_object_kernel_t* k) {
  k->entry_address = k->descriptor_address +
                     (uint64_t)k->descriptor.kernel_code_entry_byte_offset;
  const rl_code_object_segment_t* segment =
      rl_code_object_find_segment(co, k->entry_address, 4, true);
  if (!segment || !(segment->flags & PF_X) ||
      k->entry_address % RL_KERNEL_CODE_ALIGN != 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "entry 0x%llx (descriptor 0x%llx + offset %lld) is not "
                     "256-byte aligned code in an executable PT_LOAD segment",
                     (unsigned long long)k->entry_address,
                     (unsigned long long)k->descriptor_address,
                     (long long)k->descriptor.kernel_code_entry_byte_offset);
  }
  return RL_OK;
}

static rl_status_t rl_co_resolve_kernel(const rl_code_object_parser_t* parser,
                                        rl_code_object_kernel_t* kernel) {
  uint64_t file_offset = 0;
  RL_RETURN_IF_ERROR(rl_co_locate_descriptor(parser, kernel, &file_offset));
  memcpy(&kernel->descriptor, parser->data + file_offset, 64);
  RL_RETURN_IF_ERROR(rl_co_check_reserved(&kernel->descriptor, file_offset));
  rl_kernel_descriptor_decode(&kernel->descriptor, parser->code_object->gfx_major,
                              &kernel->descriptor_info);
  RL_RETURN_IF_ERROR(rl_co_check_descriptor(parser->code_object, kernel));
  return rl_co_check_entry(parser->code_object, kernel);
}

static bool rl_co_is_descriptor_name(const char* name) {
  size_t length = strlen(name);
  return length >= 3 && strcmp(name + length - 3, ".kd") == 0;
}

// Collects the variables: defined, non-empty STT_OBJECT symbols that are
// not kernel descriptors, lying inside a PT_LOAD segment's memory (the
// symbol table is sorted by name, so the list is too; a name defined twice
// keeps its first definition).
static rl_status_t rl_co_collect_variables(rl_code_object_parser_t* parser) {
  rl_code_object_t* co = parser->code_object;
  uint32_t capacity = 0;
  for (uint32_t i = 0; i < parser->symbol_count; ++i) {
    const rl_code_object_symbol_t* symbol = &parser->symbols[i];
    const GElf_Sym* sym = &symbol->sym;
    if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT || sym->st_size == 0 ||
        sym->st_shndx == SHN_UNDEF || rl_co_is_descriptor_name(symbol->name) ||
        (co->variable_count &&
         strcmp(co->variables[co->variable_count - 1].name, symbol->name) ==
             0)) {
      continue;
    }
    // Symbols in no loaded memory (absolute, or in a section no PT_LOAD
    // covers) are not variables a kernel can address.
    if (sym->st_shndx >= SHN_LORESERVE ||
        !rl_code_object_find_segment(co, sym->st_value, sym->st_size, false)) {
      continue;
    }
    RL_RETURN_IF_ERROR(
        RL_ARRAY_RESERVE(&co->variables, &capacity, co->variable_count + 1));
    char* name = strdup(symbol->name);
    if (!name) return rl_status_out_of_memory();
    co->variables[co->variable_count++] =
        (rl_code_object_variable_t){name, sym->st_value, sym->st_size};
  }
  return RL_OK;
}

static rl_status_t rl_co_resolve_kernels(rl_code_object_parser_t* parser) {
  RL_RETURN_IF_ERROR(rl_co_load_symbols(parser));
  RL_RETURN_IF_ERROR(rl_co_collect_variables(parser));
  rl_code_object_t* co = parser->code_object;
  for (uint32_t i = 0; i < co->kernel_count; ++i) {
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_co_resolve_kernel(parser, &co->kernels[i]), "kernel %u '%s'", i,
        co->kernels[i].name));
  }
  return RL_OK;
}

static rl_status_t rl_co_parse_elf(rl_code_object_parser_t* parser) {
  rl_code_object_t* co = parser->code_object;
  co->abi_version = parser->data[EI_ABIVERSION];
  co->code_object_version = co->abi_version + 2;  // ELFABIVERSION_AMDGPU_HSA_V4 = 2
  RL_RETURN_IF_ERROR(
      rl_code_object_parse_flags(co, rl_load_le32(parser->data + 48)));
  parser->copy = malloc(parser->size);
  if (!parser->copy) return rl_status_out_of_memory();
  memcpy(parser->copy, parser->data, parser->size);
  elf_version(EV_CURRENT);
  parser->elf = elf_memory((char*)parser->copy, parser->size);
  if (!parser->elf || elf_kind(parser->elf) != ELF_K_ELF) {
    return rl_co_libelf_error("libelf");
  }
  RL_RETURN_IF_ERROR(rl_co_parse_segments(parser));
  RL_RETURN_IF_ERROR(rl_co_parse_metadata(parser));
  RL_RETURN_IF_ERROR(rl_code_object_check_target(co));
  RL_RETURN_IF_ERROR(rl_co_resolve_kernels(parser));
  return rl_code_object_collect_relocations(parser->elf, co);
}

rl_status_t rl_code_object_parse(const void* data, size_t size,
                                 rl_code_object_t** out_code_object) {
  if (!out_code_object) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "out_code_object is NULL");
  }
  *out_code_object = NULL;
  if (!data && size) return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "data is NULL");
  RL_RETURN_IF_ERROR(rl_co_check_ident(data, size));
  rl_code_object_parser_t parser = {.data = data, .size = size};
  parser.code_object = calloc(1, sizeof(*parser.code_object));
  if (!parser.code_object) return rl_status_out_of_memory();
  rl_status_t status = rl_co_parse_elf(&parser);
  if (parser.elf) elf_end(parser.elf);
  free(parser.copy);
  free(parser.symbols);
  if (status) {
    rl_code_object_destroy(parser.code_object);
    return status;
  }
  *out_code_object = parser.code_object;
  return RL_OK;
}

void rl_code_object_destroy(rl_code_object_t* code_object) {
  if (!code_object) return;
  for (uint32_t i = 0; i < code_object->kernel_count; ++i) {
    rl_code_object_kernel_deinit(&code_object->kernels[i]);
  }
  free(code_object->kernels);
  free(code_object->segments);
  free(code_object->relocations);
  for (uint32_t i = 0; i < code_object->variable_count; ++i) {
    free((char*)code_object->variables[i].name);
  }
  free(code_object->variables);
  free((char*)code_object->target);
  free((char*)code_object->processor);
  free(code_object);
}

const rl_code_object_kernel_t* rl_code_object_find_kernel(
    const rl_code_object_t* code_object, const char* name) {
  if (!code_object || !name) return NULL;
  for (uint32_t i = 0; i < code_object->kernel_count; ++i) {
    const rl_code_object_kernel_t* kernel = &code_object->kernels[i];
    if (strcmp(kernel->name, name) == 0 || strcmp(kernel->symbol, name) == 0) {
      return kernel;
    }
  }
  return NULL;
}

const rl_code_object_variable_t* rl_code_object_find_variable(
    const rl_code_object_t* code_object, const char* name) {
  if (!code_object || !name) return NULL;
  uint32_t low = 0, high = code_object->variable_count;
  while (low < high) {
    uint32_t middle = low + (high - low) / 2;
    if (strcmp(code_object->variables[middle].name, name) < 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < code_object->variable_count &&
                 strcmp(code_object->variables[low].name, name) == 0
             ? &code_object->variables[low]
             : NULL;
}

const char* rl_target_feature_name(rl_target_feature_t feature) {
  switch (feature) {
    case RL_TARGET_FEATURE_UNSUPPORTED: return "unsupported";
    case RL_TARGET_FEATURE_ANY: return "any";
    case RL_TARGET_FEATURE_OFF: return "off";
    case RL_TARGET_FEATURE_ON: return "on";
  }
  return "invalid";
}

const char* rl_effect_name(rl_effect_t effect) {
  switch (effect) {
    case RL_EFFECT_NONE: return "none";
    case RL_EFFECT_READ: return "read";
    case RL_EFFECT_WRITE: return "write";
    case RL_EFFECT_READ_WRITE: return "read_write";
  }
  return "invalid";
}
