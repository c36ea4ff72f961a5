// The gfx11 decoder (sim/isa/) against llvm-objdump-19 on every
// kernel we build: for every gfx1100, gfx1151 and gfx1201 code object in the kernels
// directory (code object v5 and the gfx1100 v4 variant), every instruction
// objdump prints — all kernels, their padding and s_code_end tail — must
// decode at the same PC to the same mnemonic (objdump's _e32/_e64 suffix
// aside; both halves of a VOPD) with the same length, decoding from the
// instruction stream (so the decoder, not objdump, decides where the next
// instruction starts). Each kernel's entry must be one of those PCs.
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redline/code_object.h"
#include "sim/isa/isa_inst.h"
#include "tests/support/test_support.h"
#include "tests/unit/sim/isa/isa_test_util.h"

// objdump's mnemonic without the _dpp and _e32/_e64 encoding suffixes;
// *|dpp| says whether _dpp was there.
static void rl_od_strip(const char* mnemonic, char* out, size_t capacity,
                        bool* dpp) {
  snprintf(out, capacity, "%s", mnemonic);
  size_t n = strlen(out);
  *dpp = n > 4 && strcmp(out + n - 4, "_dpp") == 0;
  if (*dpp) out[n -= 4] = '\0';
  if (n > 4 && (strcmp(out + n - 4, "_e32") == 0 ||
                strcmp(out + n - 4, "_e64") == 0)) {
    out[n - 4] = '\0';
  }
}

static bool rl_od_has_entry(const rl_isa_listed_t* list, uint32_t count,
                            uint64_t address) {
  for (uint32_t i = 0; i < count; ++i) {
    if (list[i].address == address) return true;
  }
  return false;
}

// Checks one code object; returns the instructions checked. With
// |strict| the first disagreement fails the test, otherwise
// *|out_mismatches| counts them (the negative control).
static uint32_t rl_od_check(const char* path, const char* cpu,
                            uint32_t features, bool strict,
                            uint32_t* out_mismatches) {
  *out_mismatches = 0;
  uint32_t count = 0;
  rl_isa_listed_t* list = rl_isa_test_disassemble(cpu, path, &count);
  assert_true(count > 0);
  uint32_t total = 0;
  for (uint32_t i = 0; i < count; ++i) total += list[i].count;
  uint32_t* stream = malloc(total * sizeof(uint32_t));
  assert_non_null(stream);
  uint32_t at = 0;
  for (uint32_t i = 0; i < count; ++i) {
    memcpy(stream + at, list[i].words, list[i].count * sizeof(uint32_t));
    at += list[i].count;
  }
  at = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const rl_isa_listed_t* listed = &list[i];
    rl_isa_inst_t inst;
    bool known = rl_isa_decode(stream + at, total - at, features, &inst);
    char want[64], want_y[64];
    bool dpp = false, dpp_y = false;
    rl_od_strip(listed->mnemonic, want, sizeof(want), &dpp);
    rl_od_strip(listed->mnemonic_y, want_y, sizeof(want_y), &dpp_y);
    if (!known || inst.size != 4 * listed->count ||
        (inst.dpp != 0) != dpp ||
        strcmp(rl_isa_inst_name(&inst), want) != 0 ||
        (want_y[0] && strcmp(inst.op_y ? inst.op_y->name : "", want_y) != 0)) {
      ++*out_mismatches;
      if (!strict) {
        at += listed->count;
        continue;
      }
      fail_msg("%s (%s): at 0x%llx objdump has %s%s%s (%u bytes), the "
               "decoder %s%s%s (%u bytes)",
               path, cpu, (unsigned long long)listed->address,
               listed->mnemonic, want_y[0] ? " :: " : "", want_y,
               4 * listed->count, rl_isa_inst_name(&inst),
               inst.op_y ? " :: " : "", inst.op_y ? inst.op_y->name : "",
               inst.size);
    }
    at += listed->count;
  }
  // Every kernel's entry is an instruction boundary of the listing.
  size_t size = 0;
  void* bytes = rl_test_read_file(path, &size);
  rl_code_object_t* object = NULL;
  assert_null(rl_code_object_parse(bytes, size, &object));
  for (uint32_t k = 0; k < object->kernel_count; ++k) {
    assert_true(rl_od_has_entry(list, count, object->kernels[k].entry_address));
  }
  rl_code_object_destroy(object);
  free(bytes);
  free(stream);
  free(list);
  return count;
}

// Checks every gfx1100/gfx1151 code object in |path|; false when the
// directory does not exist.
static bool rl_od_check_dir(const char* path_dir, uint32_t* objects,
                            uint32_t* instructions) {
  DIR* dir = opendir(path_dir);
  if (dir == NULL) return false;
  struct dirent* entry = NULL;
  while ((entry = readdir(dir)) != NULL) {
    const char* name = entry->d_name;
    size_t n = strlen(name);
    if (n < 4 || strcmp(name + n - 3, ".co") != 0) continue;
    const char* cpu = strstr(name, "-gfx1100")   ? "gfx1100"
                      : strstr(name, "-gfx1151") ? "gfx1151"
                      : strstr(name, "-gfx1201") ? "gfx1201"
                                                 : NULL;
    if (cpu == NULL) continue;
    uint32_t features = strcmp(cpu, "gfx1151") == 0
                            ? RL_ISA_FEATURE_SALU_FLOAT : 0;
    if (strcmp(cpu, "gfx1201") == 0) {
      features = RL_ISA_FEATURE_SALU_FLOAT | RL_ISA_FEATURE_GFX12;
    }
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", path_dir, name);
    uint32_t mismatches = 0;
    *instructions += rl_od_check(path, cpu, features, true, &mismatches);
    ++*objects;
  }
  closedir(dir);
  return true;
}

static void test_kernels_agree_with_objdump(void** state) {
  (void)state;
  uint32_t objects = 0, instructions = 0;
  assert_true(rl_od_check_dir(RL_KERNELS_DIR, &objects, &instructions));
  assert_true(objects >= 3);  // vecchain gfx1100, gfx1100-v4, gfx1151
#ifdef RL_HIP_PROGRAMS_DIR
  // The HIP corpus (tests/hip_programs.cmake): DPP, op_sel, s_denorm_mode
  // and the rest of what clang emits for ordinary programs.
  uint32_t kernels_objects = objects;
  assert_true(rl_od_check_dir(RL_HIP_PROGRAMS_DIR, &objects, &instructions));
  assert_true(objects >= kernels_objects + 20);
#endif
  // RL_ISA_OBJDUMP_DIR: one more directory of NAME-ARCH.co files (the HIP
  // corpus's code objects, extracted by tests/hip_corpus/corpus_objdump.sh).
  const char* extra = getenv("RL_ISA_OBJDUMP_DIR");
  if (extra != NULL && *extra != '\0') {
    uint32_t before = objects;
    assert_true(rl_od_check_dir(extra, &objects, &instructions));
    assert_true(objects > before);
  }
  print_message("%u code objects, %u instructions agree with "
                "llvm-objdump-19\n", objects, instructions);
}

// Negative control: without the gfx1150 SALU float feature the gfx1151
// vecchain code (s_add_f32, s_cvt_f32_u32) must disagree with objdump.
static void test_objdump_check_can_fail(void** state) {
  (void)state;
  uint32_t mismatches = 0;
  rl_od_check(RL_KERNELS_DIR "/vecchain-gfx1151.co", "gfx1151", 0, false,
              &mismatches);
  assert_true(mismatches > 0);
  // ... and the gfx1201 code read with the gfx11 tables (SMEM and VGLOBAL
  // layouts, s_wait_*) must too.
  mismatches = 0;
  rl_od_check(RL_KERNELS_DIR "/vecchain-gfx1201.co", "gfx1201",
              RL_ISA_FEATURE_SALU_FLOAT, false, &mismatches);
  assert_true(mismatches > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernels_agree_with_objdump),
      cmocka_unit_test(test_objdump_check_can_fail),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
