// redline/offload_bundle.h — the HIP fat binary that clang's host code
// registers at startup: a wrapper pointing at a clang offload bundle, and
// the lookup of the code object for one GPU processor inside the bundle.
//
// The wrapper (what clang emits in .hipFatBinSegment and passes to
// __hipRegisterFatBinary) is rl_hip_fatbin_wrapper_t: magic "HIPF"
// (0x48495046), version 1, a pointer to the bundle, one unused pointer.
// Sources: ROCm/clr hipamd/src/hip_platform.cpp (__CudaFatBinaryWrapper,
// __hipFatMAGIC2, __hipRegisterFatBinary checks magic and version 1).
//
// The bundle (clang-offload-bundler's binary format): the 24-byte magic
// "__CLANG_OFFLOAD_BUNDLE__" without a terminator, a u64 entry count, then
// per entry a u64 offset (from the start of the bundle), a u64 size, a u64
// triple length and the triple bytes (no terminator); all little-endian.
// Sources: LLVM clang/lib/Driver/OffloadBundler.cpp
// (BinaryFileHandler::ReadHeader) and clang/docs/ClangOffloadBundler.rst.
//
// Trust: the bundle carries no total size (the runtime is handed only a
// pointer), so the reader trusts the entry table the program's own image
// holds; it bounds the entry count and triple lengths so a corrupt header
// fails rather than wanders.
#ifndef REDLINE_OFFLOAD_BUNDLE_H_
#define REDLINE_OFFLOAD_BUNDLE_H_

#include <stddef.h>
#include <stdint.h>

#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_HIP_FATBIN_MAGIC 0x48495046u  // "HIPF"
#define RL_HIP_FATBIN_VERSION 1u
#define RL_OFFLOAD_BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"

// The wrapper passed to __hipRegisterFatBinary (layout of HIP's
// __CudaFatBinaryWrapper).
typedef struct rl_hip_fatbin_wrapper_s {
  uint32_t magic;    // RL_HIP_FATBIN_MAGIC
  uint32_t version;  // RL_HIP_FATBIN_VERSION
  const void* binary;  // the clang offload bundle
  void* unused;
} rl_hip_fatbin_wrapper_t;
_Static_assert(sizeof(rl_hip_fatbin_wrapper_t) == 8 + 2 * sizeof(void*),
               "rl_hip_fatbin_wrapper_t must mirror __CudaFatBinaryWrapper");

// Finds in the fat binary |wrapper| the code object for |processor| (e.g.
// "gfx1100"): the entry whose triple is "hipv4-amdgcn-amd-amdhsa--<processor>"
// or "hip-amdgcn-amd-amdhsa--<processor>", optionally followed by target-id
// features (":xnack+"). Returns its bytes (inside the bundle, not copied) in
// |out_code| and its size in |out_size|, both cleared on entry.
// RL_STATUS_INVALID_INPUT for a bad wrapper or bundle header,
// RL_STATUS_NOT_FOUND when no entry matches |processor|.
rl_status_t rl_hip_fatbin_find(const void* wrapper, const char* processor,
                               const void** out_code, uint64_t* out_size);

// One entry of a bundle read from a file (rl_offload_bundle_list).
typedef struct rl_offload_entry_s {
  uint32_t bundle;       // which bundle of the file, from 0
  uint32_t index;        // the entry's index in its bundle
  const char* triple;    // not terminated: |triple_length| bytes
  uint32_t triple_length;
  const void* code;      // inside the caller's data, not copied
  uint64_t size;
} rl_offload_entry_t;

typedef void (*rl_offload_visit_fn)(void* context,
                                    const rl_offload_entry_t* entry);

// Calls |visit| for every AMDGPU entry (triple "hip…-amdgcn-…", size above
// zero) of every offload bundle in |data| (|size| bytes, a whole file): a
// bare bundle (what `hipcc --genco` writes for several processors), or a
// host ELF64 (an executable or shared library) whose .hip_fatbin section
// holds one bundle per translation unit, each starting at a multiple of 8
// bytes from the section's start (clang aligns each to 4096). Unlike
// rl_hip_fatbin_find every offset is checked against |size|.
// *|out_count| (cleared on entry) is the number of entries visited.
// RL_STATUS_INVALID_INPUT for a truncated or corrupt ELF or bundle header,
// RL_STATUS_NOT_FOUND for an ELF with no .hip_fatbin section or a file
// that holds no AMDGPU entry (message naming which).
rl_status_t rl_offload_bundle_list(const void* data, size_t size,
                                   rl_offload_visit_fn visit, void* context,
                                   uint32_t* out_count);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_OFFLOAD_BUNDLE_H_
