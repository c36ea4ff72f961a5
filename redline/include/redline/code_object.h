// redline/code_object.h — a faithful reader of AMDGPU code objects (HSA ELF).
//
// rl_code_object_parse() reads one code object (an ELF64 EM_AMDGPU shared
// object as produced by clang/ld.lld for amdgcn-amd-amdhsa) with libelf and
// returns an immutable model of it:
//   - the exact target: processor from e_flags (EF_AMDGPU_MACH), the xnack and
//     sramecc feature settings (EF_AMDGPU_FEATURE_*), the code-object version
//     from EI_ABIVERSION, cross-checked against the metadata's amdhsa.target;
//   - every kernel: its `<name>.kd` symbol, the 64-byte kernel descriptor
//     (redline/kernel_descriptor.h) decoded field by field, and the metadata
//     from the NT_AMDGPU_METADATA note (msgpack): args with offset, size,
//     value kind, address space, access / actual_access; kernarg segment size
//     and alignment; group/private segment sizes; sgpr/vgpr counts; wavefront
//     size;
//   - the loaded-image view a device needs: PT_LOAD segments and the size of
//     the image they span;
//   - every variable: a defined, non-empty STT_OBJECT symbol other than a
//     kernel descriptor (`__device__` and `__constant__` variables), with
//     its image address and size, inside the memory of a PT_LOAD segment.
// Code-object v4 (ABI version 2, LLVM 15 default) and v5 (ABI version 3,
// LLVM 19 default) are supported; v6 (ABI version 4) is read when its layout
// is the same. Sources: LLVM AMDGPUUsage ("ELF Code Object", "Code Object V4
// Metadata", "Code Object V5 Metadata", "Kernel Descriptor") and
// llvm/include/llvm/BinaryFormat/ELF.h (EF_AMDGPU_*, ELFABIVERSION_AMDGPU_HSA_*).
//
// Checks beyond the ELF structure: the metadata's amdhsa.target must equal
// the target derived from e_flags and amdhsa.version must be the one the ABI
// version implies; every kernel's .symbol must be a 64-byte STT_OBJECT inside
// the file bytes of a PT_LOAD segment, with zero reserved bytes and bits,
// whose kernarg size, group segment size and wave32 bit agree with the
// metadata and whose entry lands in an executable segment; args must lie
// inside the kernarg segment and must not overlap.
//
// Validation: every offset, size and index read from the file is checked
// before use. Any violation returns RL_STATUS_INVALID_INPUT with the byte
// offset or section and the symbol concerned; well-formed objects using
// something redline does not handle return RL_STATUS_UNSUPPORTED.
//
// Ownership: the returned object owns copies of all strings; it does not keep
// a pointer to the input bytes. It is immutable after parse and may be read
// from any number of threads.
#ifndef REDLINE_CODE_OBJECT_H_
#define REDLINE_CODE_OBJECT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/kernel_descriptor.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Target feature setting as encoded in e_flags for code-object v4+.
typedef enum rl_target_feature_e {
  RL_TARGET_FEATURE_UNSUPPORTED = 0,
  RL_TARGET_FEATURE_ANY = 1,
  RL_TARGET_FEATURE_OFF = 2,
  RL_TARGET_FEATURE_ON = 3,
} rl_target_feature_t;

// How a kernel touches the memory behind a pointer argument. A bit set.
typedef enum rl_effect_e {
  RL_EFFECT_NONE = 0,
  RL_EFFECT_READ = 1,
  RL_EFFECT_WRITE = 2,
  RL_EFFECT_READ_WRITE = 3,
} rl_effect_t;

// Argument value kinds redline reasons about; anything else is OTHER (the
// original spelling is always kept in rl_kernel_arg_t.value_kind).
typedef enum rl_arg_kind_e {
  RL_ARG_KIND_BY_VALUE = 0,
  RL_ARG_KIND_GLOBAL_BUFFER,
  RL_ARG_KIND_DYNAMIC_SHARED_POINTER,
  RL_ARG_KIND_HIDDEN,  // any hidden_* kind: filled by the runtime, not the user
  RL_ARG_KIND_OTHER,   // image, sampler, pipe, queue...: unsupported for replay
} rl_arg_kind_t;

typedef struct rl_kernel_arg_s {
  uint32_t offset;
  uint32_t size;
  rl_arg_kind_t kind;
  // Metadata spellings; NULL when the key is absent.
  const char* name;           // .name
  const char* value_kind;     // .value_kind, always present
  const char* address_space;  // .address_space
  const char* access;         // .access (LLVM 15 style)
  const char* actual_access;  // .actual_access (LLVM 19 style)
  // The effect the compiler vouches for: actual_access if present, else
  // access; RL_EFFECT_READ_WRITE when neither is present (unknown).
  rl_effect_t effect;
  bool effect_known;  // false when neither access key is present
} rl_kernel_arg_t;

// The kernarg read slack: how many bytes past the end of a kernarg segment
// a dispatch must keep mapped. The compiler may read a kernel's arguments
// with a scalar load wider than the bytes it needs (LLVM widens a 3-dword
// kernarg read to S_LOAD_B128 on gfx11, which has no 96-bit scalar load:
// the corpus GEMM's s_load_b128 at offset 24 of its 36-byte segment reads
// bytes 36..39). The widest scalar load is S_LOAD_B512, 64 bytes (RDNA3
// ISA reference, "Scalar Memory Operations"), and every such load starts
// inside the segment, so 64 bytes past its end are always enough. Hardware
// never faults there because the runtime suballocates kernargs from larger
// pools; a replay route that allocates exactly kernarg_segment_size bytes
// would. Every route (aql, pm4, drm, the eager/hip device funnel) keeps
// this many zero bytes mapped after the last kernarg it places.
#define RL_KERNARG_READ_SLACK 64u

// |end| (the byte just past the last kernarg placed in an allocation) plus
// the read slack, rounded up to 16 bytes: the allocation size the kernarg
// read rule above needs.
static inline uint64_t rl_kernarg_mapped_end(uint64_t end) {
  return (end + RL_KERNARG_READ_SLACK + 15u) & ~(uint64_t)15u;
}

typedef struct rl_code_object_kernel_s {
  const char* name;    // .name
  const char* symbol;  // .symbol, "<name>.kd"
  // Virtual address (in the loaded image, base 0) of the .kd descriptor and
  // of the first instruction (descriptor address + entry byte offset).
  uint64_t descriptor_address;
  uint64_t entry_address;
  rl_kernel_descriptor_t descriptor;         // the raw 64 bytes
  rl_kernel_descriptor_info_t descriptor_info;  // decoded for gfx_major
  // From the metadata note.
  uint32_t kernarg_size;   // .kernarg_segment_size
  uint32_t kernarg_align;  // .kernarg_segment_align
  uint32_t group_segment_size;    // .group_segment_fixed_size
  uint32_t private_segment_size;  // .private_segment_fixed_size
  uint32_t wavefront_size;        // .wavefront_size
  uint32_t sgpr_count;            // .sgpr_count
  uint32_t vgpr_count;            // .vgpr_count
  uint32_t max_flat_workgroup_size;  // .max_flat_workgroup_size (0 if absent)
  bool uses_dynamic_stack;           // .uses_dynamic_stack
  uint32_t arg_count;
  rl_kernel_arg_t* args;  // sorted by offset, as in the metadata
} rl_code_object_kernel_t;

// One PT_LOAD program header.
typedef struct rl_code_object_segment_s {
  uint64_t virtual_address;  // p_vaddr
  uint64_t memory_size;      // p_memsz
  uint64_t file_offset;      // p_offset
  uint64_t file_size;        // p_filesz
  uint32_t flags;            // p_flags (PF_R/PF_W/PF_X)
} rl_code_object_segment_t;

// One dynamic relocation (an Elf64_Rela of an SHF_ALLOC SHT_RELA section,
// i.e. .rela.dyn). Offsets were checked at parse time: 8 bytes at |offset|
// lie inside a PT_LOAD segment. The type is only checked by
// rl_code_object_load_image().
typedef struct rl_code_object_relocation_s {
  uint64_t offset;        // r_offset: image address of the 8 patched bytes
  uint32_t type;          // ELF64_R_TYPE(r_info), R_AMDGPU_*
  uint32_t symbol_index;  // ELF64_R_SYM(r_info), 0 for none
  bool symbol_defined;    // the symbol has a section (not SHN_UNDEF)
  uint64_t symbol_value;  // its st_value (an image address) when defined
  int64_t addend;         // r_addend
} rl_code_object_relocation_t;

// A variable of the code object (a `__device__` or `__constant__` global):
// it lives in the loaded image at load base + |address|.
typedef struct rl_code_object_variable_s {
  const char* name;   // the symbol name
  uint64_t address;   // st_value: image address
  uint64_t size;      // st_size, > 0
} rl_code_object_variable_t;

// Largest loaded image redline accepts (bytes); larger objects are
// RL_STATUS_UNSUPPORTED. Real code objects are a few MiB at most.
#define RL_CODE_OBJECT_MAX_IMAGE_SIZE ((uint64_t)1 << 30)

typedef struct rl_code_object_s {
  // "amdgcn-amd-amdhsa--gfx1100" plus ":xnack+"-style suffixes when a feature
  // is ON or OFF, exactly as the metadata's amdhsa.target spells it.
  const char* target;
  const char* processor;  // "gfx1100"
  uint32_t e_flags;
  uint32_t mach;  // EF_AMDGPU_MACH value
  uint32_t gfx_major;  // 9, 10, 11 or 12: the generation of |processor|
  rl_target_feature_t xnack;
  rl_target_feature_t sramecc;
  uint32_t abi_version;          // EI_ABIVERSION
  uint32_t code_object_version;  // 4, 5 or 6
  uint32_t metadata_version[2];  // amdhsa.version
  uint32_t kernel_count;
  rl_code_object_kernel_t* kernels;  // in metadata order
  uint32_t segment_count;
  rl_code_object_segment_t* segments;
  // Bytes of device memory the loaded image needs: the highest
  // p_vaddr + p_memsz over all PT_LOAD segments.
  uint64_t image_size;
  uint64_t image_align;  // the largest p_align of the PT_LOAD segments
  uint32_t relocation_count;
  rl_code_object_relocation_t* relocations;  // in file order
  uint32_t variable_count;
  rl_code_object_variable_t* variables;  // sorted by name
} rl_code_object_t;

// Parses |size| bytes at |data|. On success *|out_code_object| owns the model;
// on failure it is NULL. Safe on any input (fuzzed).
rl_status_t rl_code_object_parse(const void* data, size_t size,
                                 rl_code_object_t** out_code_object);

void rl_code_object_destroy(rl_code_object_t* code_object);

// Returns the kernel named |name| (with or without the ".kd" suffix) or NULL.
const rl_code_object_kernel_t* rl_code_object_find_kernel(
    const rl_code_object_t* code_object, const char* name);

// Returns the variable named |name| or NULL.
const rl_code_object_variable_t* rl_code_object_find_variable(
    const rl_code_object_t* code_object, const char* name);

// Lays the loaded image out into |image| (|image_size| >= image_size bytes)
// for a device that places it at device address |load_base|: zero-fills it,
// copies every PT_LOAD segment's file bytes to its p_vaddr and applies the
// dynamic relocations (R_AMDGPU_RELATIVE64, R_AMDGPU_ABS64 against defined
// symbols; R_AMDGPU_NONE is skipped). Fails with RL_STATUS_UNSUPPORTED on any
// other relocation type or an ABS64 against an undefined symbol, and with
// RL_STATUS_INVALID_ARGUMENT when |image_size| is too small or |data|/|size|
// do not hold the segments. |data|/|size| must be the bytes the object was
// parsed from. On failure the contents of |image| are unspecified.
rl_status_t rl_code_object_load_image(const rl_code_object_t* code_object,
                                      const void* data, size_t size,
                                      uint64_t load_base, void* image,
                                      size_t image_size);

// A target, typed: what a target string ("amdgcn-amd-amdhsa--gfx1100:xnack-",
// as in a code object's amdhsa.target and a capture's target) or a bare
// processor ("gfx1201", as a user types it) names.
typedef struct rl_target_s {
  char processor[32];           // "gfx1100"
  uint32_t gfx_major;           // 9, 10, 11 or 12
  rl_target_feature_t xnack;    // ANY when the string does not say
  rl_target_feature_t sramecc;  // ANY when the string does not say
} rl_target_t;

// Parses |text| into *|out_target| (cleared on entry): the processor after
// "--" (or all of |text| when it has no "--"), then ":xnack+/-" and
// ":sramecc+/-" in any order. Fails with RL_STATUS_INVALID_ARGUMENT naming
// |text| when it is NULL or empty, names a processor no code object can
// have (LLVM's EF_AMDGPU_MACH table), or carries an unknown feature. The
// one parser of target strings: every module that needs the processor of a
// capture, a device or a flag calls it. On failure *|out_target| is zero.
rl_status_t rl_target_parse(const char* text, rl_target_t* out_target);

// The typed target of a parsed code object (its processor, generation and
// features, as rl_code_object_parse read them from e_flags): no string is
// parsed again.
void rl_code_object_target(const rl_code_object_t* code_object,
                           rl_target_t* out_target);

// Spelling helpers for reports.
const char* rl_target_feature_name(rl_target_feature_t feature);
const char* rl_effect_name(rl_effect_t effect);  // "none", "read", ...

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_CODE_OBJECT_H_
