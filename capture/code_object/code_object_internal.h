// capture/code_object/code_object_internal.h — the pieces code_object.c,
// code_object_metadata.c and code_object_load.c share. Private to rl_capture.
#ifndef REDLINE_CAPTURE_CODE_OBJECT_INTERNAL_H_
#define REDLINE_CAPTURE_CODE_OBJECT_INTERNAL_H_

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/code_object.h"
#include "redline/status.h"

// Decodes |e_flags| into |code_object|'s e_flags, mach, gfx_major,
// processor, xnack and sramecc (code_object_version must be set). Unknown
// processors are RL_STATUS_UNSUPPORTED, reserved bits RL_STATUS_INVALID_INPUT.
rl_status_t rl_code_object_parse_flags(rl_code_object_t* code_object,
                                       uint32_t e_flags);

// Checks that the metadata's amdhsa.version fits the code-object version and
// that amdhsa.target spells the target e_flags encode.
rl_status_t rl_code_object_check_target(const rl_code_object_t* code_object);

// Parses the msgpack descriptor of the NT_AMDGPU_METADATA note (|size|
// bytes at |data|) into |code_object|: target, metadata_version and the
// metadata half of every kernel (names, sizes, counts, args sorted by
// offset). Descriptor fields, addresses and cross-checks against the ELF are
// left to the caller. On failure |code_object| may hold partial results that
// rl_code_object_destroy() releases.
rl_status_t rl_code_object_metadata_parse(const uint8_t* data, size_t size,
                                          rl_code_object_t* code_object);

// Releases everything |kernel| owns (not the struct itself).
void rl_code_object_kernel_deinit(rl_code_object_kernel_t* kernel);

// Returns the PT_LOAD segment of |code_object| holding all of
// [|address|, |address| + |length|), in its file bytes when |file_backed|,
// else anywhere in its memory size; NULL when there is none.
const rl_code_object_segment_t* rl_code_object_find_segment(
    const rl_code_object_t* code_object, uint64_t address, uint64_t length,
    bool file_backed);

// Collects the dynamic relocations of |elf| (every SHF_ALLOC SHT_RELA
// section) into |code_object|->relocations, checking that each patched
// range lies in a PT_LOAD segment and each symbol index is in range.
rl_status_t rl_code_object_collect_relocations(Elf* elf,
                                               rl_code_object_t* code_object);

#endif  // REDLINE_CAPTURE_CODE_OBJECT_INTERNAL_H_
