// capture/code_object/offload_bundle.c — the HIP fat-binary lookup of
// redline/offload_bundle.h.
#include "redline/offload_bundle.h"

#include <string.h>

#include "base/byte_order.h"

// Bounds on a header the reader trusts (see the header's "Trust").
#define RL_OFFLOAD_BUNDLE_MAX_ENTRIES 4096u
#define RL_OFFLOAD_BUNDLE_MAX_TRIPLE 1024u

// True when |triple| (|length| bytes) names the HIP entry for |processor|.
static bool rl_offload_bundle_matches(const char* triple, uint64_t length,
                                      const char* processor) {
  static const char* const kinds[] = {"hipv4-amdgcn-amd-amdhsa--",
                                      "hip-amdgcn-amd-amdhsa--"};
  size_t processor_length = strlen(processor);
  for (size_t k = 0; k < 2; ++k) {
    size_t prefix = strlen(kinds[k]);
    if (length < prefix + processor_length) continue;
    if (memcmp(triple, kinds[k], prefix) != 0) continue;
    if (memcmp(triple + prefix, processor, processor_length) != 0) continue;
    uint64_t rest = prefix + processor_length;
    if (rest == length || triple[rest] == ':') return true;
  }
  return false;
}

rl_status_t rl_hip_fatbin_find(const void* wrapper, const char* processor,
                               const void** out_code, uint64_t* out_size) {
  if (out_code) *out_code = NULL;
  if (out_size) *out_size = 0;
  if (!wrapper || !processor || !out_code || !out_size) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "rl_hip_fatbin_find: NULL argument");
  }
  rl_hip_fatbin_wrapper_t w;
  memcpy(&w, wrapper, sizeof(w));
  if (w.magic != RL_HIP_FATBIN_MAGIC || w.version != RL_HIP_FATBIN_VERSION ||
      !w.binary) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "HIP fat binary wrapper: expected magic 0x%08x version "
                     "%u and a bundle, found magic 0x%08x version %u",
                     RL_HIP_FATBIN_MAGIC, RL_HIP_FATBIN_VERSION, w.magic,
                     w.version);
  }
  const uint8_t* bundle = w.binary;
  size_t magic_length = sizeof(RL_OFFLOAD_BUNDLE_MAGIC) - 1;
  if (memcmp(bundle, RL_OFFLOAD_BUNDLE_MAGIC, magic_length) != 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "HIP fat binary: the bundle does not start with %s",
                     RL_OFFLOAD_BUNDLE_MAGIC);
  }
  uint64_t count = rl_load_le64(bundle + magic_length);
  if (count > RL_OFFLOAD_BUNDLE_MAX_ENTRIES) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "offload bundle: %llu entries, at most %u expected",
                     (unsigned long long)count, RL_OFFLOAD_BUNDLE_MAX_ENTRIES);
  }
  const uint8_t* entry = bundle + magic_length + 8;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t offset = rl_load_le64(entry);
    uint64_t size = rl_load_le64(entry + 8);
    uint64_t length = rl_load_le64(entry + 16);
    if (length > RL_OFFLOAD_BUNDLE_MAX_TRIPLE) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "offload bundle entry %llu: triple of %llu bytes",
                       (unsigned long long)i, (unsigned long long)length);
    }
    const char* triple = (const char*)entry + 24;
    if (size && rl_offload_bundle_matches(triple, length, processor)) {
      *out_code = bundle + offset;
      *out_size = size;
      return RL_OK;
    }
    entry += 24 + length;
  }
  return RL_STATUS(RL_STATUS_NOT_FOUND,
                   "offload bundle: no hipv4-/hip-amdgcn-amd-amdhsa--%s entry "
                   "among %llu", processor, (unsigned long long)count);
}
