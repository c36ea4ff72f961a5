// The exact target of a code object: e_flags (EF_AMDGPU_MACH and the
// xnack/sramecc feature fields) decoded against a table of processors, and
// the cross-check with the metadata's amdhsa.target / amdhsa.version.
#include <stdio.h>
#include <string.h>

#include "capture/code_object/code_object_internal.h"
#include "base/array.h"

// e_flags fields. Source: llvm/include/llvm/BinaryFormat/ELF.h
// (EF_AMDGPU_MACH, EF_AMDGPU_FEATURE_XNACK_V4, EF_AMDGPU_FEATURE_SRAMECC_V4,
// EF_AMDGPU_GENERIC_VERSION) and AMDGPUUsage "AMDGPU ELF Header e_flags for
// Code Object V4 and After".
#define RL_EF_AMDGPU_MACH 0xffu
#define RL_EF_AMDGPU_FEATURE_XNACK_V4 0x300u
#define RL_EF_AMDGPU_FEATURE_SRAMECC_V4 0xc00u
#define RL_EF_AMDGPU_GENERIC_VERSION 0xff000000u  // code object v6+ only

// One EF_AMDGPU_MACH value. Source: llvm/include/llvm/BinaryFormat/ELF.h
// (EF_AMDGPU_MACH_AMDGCN_*) and AMDGPUUsage "AMDGPU EF_AMDGPU_MACH Values".
// gfx940 (0x40) and gfx941 (0x4b) are as in LLVM 19; later LLVM releases
// retired them and mark the values reserved.
typedef struct rl_code_object_mach_s {
  uint32_t mach;
  uint32_t gfx_major;
  const char* name;
} rl_code_object_mach_t;

static const rl_code_object_mach_t rl_code_object_machs[] = {
    {0x02c, 9, "gfx900"},   {0x02d, 9, "gfx902"},   {0x02e, 9, "gfx904"},
    {0x02f, 9, "gfx906"},   {0x030, 9, "gfx908"},   {0x031, 9, "gfx909"},
    {0x032, 9, "gfx90c"},   {0x03f, 9, "gfx90a"},   {0x040, 9, "gfx940"},
    {0x04b, 9, "gfx941"},   {0x04c, 9, "gfx942"},   {0x04f, 9, "gfx950"},
    {0x051, 9, "gfx9-generic"},   {0x05f, 9, "gfx9-4-generic"},
    {0x033, 10, "gfx1010"}, {0x034, 10, "gfx1011"}, {0x035, 10, "gfx1012"},
    {0x042, 10, "gfx1013"}, {0x036, 10, "gfx1030"}, {0x037, 10, "gfx1031"},
    {0x038, 10, "gfx1032"}, {0x039, 10, "gfx1033"}, {0x03e, 10, "gfx1034"},
    {0x03d, 10, "gfx1035"}, {0x045, 10, "gfx1036"},
    {0x052, 10, "gfx10-1-generic"}, {0x053, 10, "gfx10-3-generic"},
    {0x041, 11, "gfx1100"}, {0x046, 11, "gfx1101"}, {0x047, 11, "gfx1102"},
    {0x044, 11, "gfx1103"}, {0x043, 11, "gfx1150"}, {0x04a, 11, "gfx1151"},
    {0x055, 11, "gfx1152"}, {0x058, 11, "gfx1153"},
    {0x054, 11, "gfx11-generic"},
    {0x048, 12, "gfx1200"}, {0x04e, 12, "gfx1201"},
    {0x059, 12, "gfx12-generic"},
};

static rl_target_feature_t rl_co_feature(uint32_t field) {
  // EF_AMDGPU_FEATURE_*_V4: 0 unsupported, 1 any, 2 off, 3 on.
  return (rl_target_feature_t)field;
}

// Decodes e_flags (byte 48 of the header) into processor and features.
rl_status_t rl_code_object_parse_flags(rl_code_object_t* co, uint32_t e_flags) {
  co->e_flags = e_flags;
  co->mach = e_flags & RL_EF_AMDGPU_MACH;
  uint32_t known = RL_EF_AMDGPU_MACH | RL_EF_AMDGPU_FEATURE_XNACK_V4 |
                   RL_EF_AMDGPU_FEATURE_SRAMECC_V4;
  if (co->code_object_version >= 6) known |= RL_EF_AMDGPU_GENERIC_VERSION;
  if (e_flags & ~known) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "byte 48: e_flags 0x%x has reserved bits 0x%x set",
                     e_flags, e_flags & ~known);
  }
  co->xnack = rl_co_feature((e_flags & RL_EF_AMDGPU_FEATURE_XNACK_V4) >> 8);
  co->sramecc = rl_co_feature((e_flags & RL_EF_AMDGPU_FEATURE_SRAMECC_V4) >> 10);
  size_t count = sizeof(rl_code_object_machs) / sizeof(rl_code_object_machs[0]);
  for (size_t i = 0; i < count; ++i) {
    if (rl_code_object_machs[i].mach == co->mach) {
      co->gfx_major = rl_code_object_machs[i].gfx_major;
      co->processor = rl_strdup(rl_code_object_machs[i].name);
      return co->processor ? RL_OK : rl_status_out_of_memory();
    }
  }
  return RL_STATUS(RL_STATUS_UNSUPPORTED,
                   "byte 48: e_flags 0x%x: unknown EF_AMDGPU_MACH 0x%x",
                   e_flags, co->mach);
}

// Cross-checks the metadata against the ELF header: amdhsa.version must be
// 1.(version - 3) (AMDGPUUsage: v4 -> 1.1, v5 -> 1.2, v6 -> 1.3), and
// amdhsa.target must spell the e_flags target as a target ID
// ("<triple>--<processor>[:sramecc+|-][:xnack+|-]", features in that order).
rl_status_t rl_code_object_check_target(const rl_code_object_t* co) {
  if (co->metadata_version[0] != 1 ||
      co->metadata_version[1] != co->code_object_version - 3) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "NT_AMDGPU_METADATA note: amdhsa.version [%u, %u] does not "
                     "match code object v%u (ABI version %u), expected [1, %u]",
                     co->metadata_version[0], co->metadata_version[1],
                     co->code_object_version, co->abi_version,
                     co->code_object_version - 3);
  }
  char expected[96];
  snprintf(expected, sizeof(expected), "amdgcn-amd-amdhsa--%s%s%s",
           co->processor,
           co->sramecc == RL_TARGET_FEATURE_ON    ? ":sramecc+"
           : co->sramecc == RL_TARGET_FEATURE_OFF ? ":sramecc-" : "",
           co->xnack == RL_TARGET_FEATURE_ON    ? ":xnack+"
           : co->xnack == RL_TARGET_FEATURE_OFF ? ":xnack-" : "");
  if (strcmp(expected, co->target) != 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "NT_AMDGPU_METADATA note: amdhsa.target '%s' does not "
                     "match the target of e_flags 0x%x ('%s')",
                     co->target, co->e_flags, expected);
  }
  return RL_OK;
}

// One ":feature+" / ":feature-" item of a target string.
static bool rl_target_parse_feature(const char* item, size_t length,
                                    rl_target_t* target) {
  if (length < 2) return false;
  char sign = item[length - 1];
  if (sign != '+' && sign != '-') return false;
  rl_target_feature_t value =
      sign == '+' ? RL_TARGET_FEATURE_ON : RL_TARGET_FEATURE_OFF;
  if (length - 1 == 5 && memcmp(item, "xnack", 5) == 0) {
    target->xnack = value;
  } else if (length - 1 == 7 && memcmp(item, "sramecc", 7) == 0) {
    target->sramecc = value;
  } else {
    return false;
  }
  return true;
}

rl_status_t rl_target_parse(const char* text, rl_target_t* out_target) {
  if (!out_target) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "target parse: no output");
  }
  memset(out_target, 0, sizeof(*out_target));
  out_target->xnack = RL_TARGET_FEATURE_ANY;
  out_target->sramecc = RL_TARGET_FEATURE_ANY;
  if (!text || !*text) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "target: expected amdgcn-amd-amdhsa--<processor> or a "
                     "processor such as gfx1100, got nothing");
  }
  const char* dashes = strstr(text, "--");
  const char* start = dashes ? dashes + 2 : text;
  size_t length = strcspn(start, ":");
  for (size_t i = 0; i < sizeof(rl_code_object_machs) / sizeof(rl_code_object_machs[0]); ++i) {
    const rl_code_object_mach_t* mach = &rl_code_object_machs[i];
    if (strlen(mach->name) != length ||
        memcmp(mach->name, start, length) != 0) {
      continue;
    }
    memcpy(out_target->processor, start, length);
    out_target->gfx_major = mach->gfx_major;
    for (const char* item = start + length; *item == ':';) {
      ++item;
      size_t item_length = strcspn(item, ":");
      if (!rl_target_parse_feature(item, item_length, out_target)) {
        memset(out_target, 0, sizeof(*out_target));
        return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                         "target '%s': unknown feature '%.*s' (expected "
                         "xnack+/- or sramecc+/-)",
                         text, (int)item_length, item);
      }
      item += item_length;
    }
    return RL_OK;
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "target '%s': unknown processor '%.*s'", text, (int)length,
                   start);
}

void rl_code_object_target(const rl_code_object_t* co, rl_target_t* out_target) {
  if (!out_target) return;
  memset(out_target, 0, sizeof(*out_target));
  if (!co) return;
  snprintf(out_target->processor, sizeof(out_target->processor), "%s",
           co->processor ? co->processor : "");
  out_target->gfx_major = co->gfx_major;
  out_target->xnack = co->xnack;
  out_target->sramecc = co->sramecc;
}
