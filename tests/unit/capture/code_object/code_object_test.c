// Tests of capture/code_object/code_object.c on the code objects rl_kernels builds
// (kernels/vecchain.hip for gfx1100, gfx1151, gfx1201 and gfx1100 COV4) and
// on the relocation fixture code_object_reloc.hip, plus corrupted copies of
// them: every corruption must fail with INVALID_INPUT (or UNSUPPORTED) and a
// message naming the place.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redline/code_object.h"

typedef struct test_file_s {
  uint8_t* data;
  size_t size;
} test_file_t;

static test_file_t read_file(const char* path) {
  test_file_t file = {NULL, 0};
  FILE* stream = fopen(path, "rb");
  if (!stream) fail_msg("cannot open %s (was rl_kernels built?)", path);
  fseek(stream, 0, SEEK_END);
  long length = ftell(stream);
  fseek(stream, 0, SEEK_SET);
  file.data = malloc((size_t)length);
  assert_non_null(file.data);
  file.size = fread(file.data, 1, (size_t)length, stream);
  fclose(stream);
  assert_int_equal(file.size, (size_t)length);
  return file;
}

static test_file_t read_kernel_object(const char* suffix) {
  char path[512];
  snprintf(path, sizeof(path), "%s/vecchain-%s.co", RL_KERNELS_DIR, suffix);
  return read_file(path);
}

static rl_code_object_t* parse_ok(const test_file_t* file) {
  rl_code_object_t* co = NULL;
  rl_status_t status = rl_code_object_parse(file->data, file->size, &co);
  if (status) fail_msg("parse failed: %s", rl_status_message(status));
  assert_non_null(co);
  return co;
}

// Parses |size| bytes and expects |code| with every |needle| in the message.
static void expect_failure(const uint8_t* data, size_t size,
                           rl_status_code_t code, const char* needle1,
                           const char* needle2) {
  rl_code_object_t* co = (rl_code_object_t*)(uintptr_t)0xcc;  // poison
  rl_status_t status = rl_code_object_parse(data, size, &co);
  assert_null(co);
  if (rl_status_code(status) != code) {
    fail_msg("expected %s, got %s: %s", rl_status_code_name(code),
             rl_status_code_name(rl_status_code(status)),
             rl_status_message(status));
  }
  const char* message = rl_status_message(status);
  if ((needle1 && !strstr(message, needle1)) ||
      (needle2 && !strstr(message, needle2))) {
    fail_msg("message '%s' lacks '%s' / '%s'", message, needle1,
             needle2 ? needle2 : "");
  }
  rl_status_free(status);
}

// Returns the offset of the first |length| bytes equal to |needle| at or
// after |from|; fails the test when absent.
static size_t find_bytes(const test_file_t* file, size_t from,
                         const void* needle, size_t length) {
  for (size_t i = from; i + length <= file->size; ++i) {
    if (memcmp(file->data + i, needle, length) == 0) return i;
  }
  fail_msg("pattern not found");
  return 0;
}

static size_t find_text(const test_file_t* file, const char* text) {
  return find_bytes(file, 0, text, strlen(text));
}

static const char* const kernel_names[] = {
    "vc_fill", "vc_scale", "vc_add", "vc_axpy_pos",
    "vc_partial_sum", "vc_merge", "vc_copy_u32",
};

typedef struct expected_target_s {
  const char* suffix;
  const char* processor;
  uint32_t mach;
  uint32_t gfx_major;
  uint32_t version;
} expected_target_t;

static const expected_target_t targets[] = {
    {"gfx1100", "gfx1100", 0x41, 11, 5},
    {"gfx1151", "gfx1151", 0x4a, 11, 5},
    {"gfx1201", "gfx1201", 0x4e, 12, 5},
    {"gfx1100-v4", "gfx1100", 0x41, 11, 4},
};

static void check_header(const rl_code_object_t* co,
                         const expected_target_t* t) {
  char target[64];
  snprintf(target, sizeof(target), "amdgcn-amd-amdhsa--%s", t->processor);
  assert_string_equal(co->target, target);
  assert_string_equal(co->processor, t->processor);
  assert_int_equal(co->mach, t->mach);
  assert_int_equal(co->e_flags, t->mach);  // gfx11/12: no xnack/sramecc
  assert_int_equal(co->gfx_major, t->gfx_major);
  assert_int_equal(co->xnack, RL_TARGET_FEATURE_UNSUPPORTED);
  assert_int_equal(co->sramecc, RL_TARGET_FEATURE_UNSUPPORTED);
  assert_int_equal(co->code_object_version, t->version);
  assert_int_equal(co->abi_version, t->version - 2);
  assert_int_equal(co->metadata_version[0], 1);
  assert_int_equal(co->metadata_version[1], t->version - 3);
  assert_true(co->segment_count >= 2);
  assert_true(co->image_size > 0 && co->image_align >= 0x1000);
}

// Kernel descriptor, entry and metadata agree for every kernel.
static void check_kernel(const rl_code_object_t* co,
                         const rl_code_object_kernel_t* k) {
  assert_int_equal(k->wavefront_size, 32);
  assert_int_equal(k->kernarg_align, 8);
  assert_int_equal(k->max_flat_workgroup_size, 64);
  assert_int_equal(k->descriptor.kernarg_size, k->kernarg_size);
  assert_true(k->descriptor_info.enable_wavefront_size32);
  assert_true(k->descriptor_info.enable_sgpr_kernarg_segment_ptr);
  assert_true(k->descriptor_info.enable_sgpr_workgroup_id_x);
  assert_int_equal(k->entry_address % 256, 0);
  assert_int_equal(k->entry_address,
                   k->descriptor_address +
                       (uint64_t)k->descriptor.kernel_code_entry_byte_offset);
  bool in_code = false;
  for (uint32_t s = 0; s < co->segment_count; ++s) {
    const rl_code_object_segment_t* seg = &co->segments[s];
    if ((seg->flags & 1) && k->entry_address >= seg->virtual_address &&
        k->entry_address < seg->virtual_address + seg->file_size) {
      in_code = true;  // PF_X
    }
  }
  assert_true(in_code);
  for (uint32_t a = 1; a < k->arg_count; ++a) {
    assert_true(k->args[a - 1].offset + k->args[a - 1].size <= k->args[a].offset);
  }
}

static void check_args(const rl_code_object_t* co) {
  // vc_scale(const float* __restrict__ in, float* __restrict__ out, float, unsigned)
  const rl_code_object_kernel_t* k = rl_code_object_find_kernel(co, "vc_scale");
  assert_non_null(k);
  assert_int_equal(k->arg_count, 4);
  assert_int_equal(k->kernarg_size, 24);
  static const uint32_t offsets[] = {0, 8, 16, 20};
  static const uint32_t sizes[] = {8, 8, 4, 4};
  for (uint32_t a = 0; a < 4; ++a) {
    assert_int_equal(k->args[a].offset, offsets[a]);
    assert_int_equal(k->args[a].size, sizes[a]);
  }
  assert_int_equal(k->args[0].kind, RL_ARG_KIND_GLOBAL_BUFFER);
  assert_string_equal(k->args[0].address_space, "global");
  assert_int_equal(k->args[2].kind, RL_ARG_KIND_BY_VALUE);
  assert_string_equal(k->args[2].value_kind, "by_value");
  // LLVM 19 writes .actual_access and no .access, for COV4 as well as COV5.
  assert_null(k->args[0].access);
  assert_string_equal(k->args[0].actual_access, "read_only");
  assert_int_equal(k->args[0].effect, RL_EFFECT_READ);
  assert_true(k->args[0].effect_known);
  assert_string_equal(k->args[1].actual_access, "write_only");
  assert_int_equal(k->args[1].effect, RL_EFFECT_WRITE);
  assert_false(k->args[2].effect_known);
  // vc_axpy_pos reads and writes y: no qualifier, so unknown = read-write.
  k = rl_code_object_find_kernel(co, "vc_axpy_pos.kd");
  assert_non_null(k);
  assert_null(k->args[1].actual_access);
  assert_int_equal(k->args[1].effect, RL_EFFECT_READ_WRITE);
  assert_false(k->args[1].effect_known);
  // vc_fill's out is not __restrict__: LLVM vouches for nothing.
  k = rl_code_object_find_kernel(co, "vc_fill");
  assert_false(k->args[0].effect_known);
  k = rl_code_object_find_kernel(co, "vc_partial_sum");
  assert_int_equal(k->group_segment_size, 64 * sizeof(float));  // LDS tree
  assert_int_equal(k->private_segment_size, 0);
  assert_false(k->uses_dynamic_stack);
}

static void code_object_parse_reads_every_kernel_of_every_target(void** state) {
  (void)state;
  for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); ++t) {
    test_file_t file = read_kernel_object(targets[t].suffix);
    rl_code_object_t* co = parse_ok(&file);
    check_header(co, &targets[t]);
    assert_int_equal(co->kernel_count, 7);
    for (uint32_t i = 0; i < co->kernel_count; ++i) {
      char symbol[64];
      snprintf(symbol, sizeof(symbol), "%s.kd", kernel_names[i]);
      assert_string_equal(co->kernels[i].name, kernel_names[i]);
      assert_string_equal(co->kernels[i].symbol, symbol);
      assert_ptr_equal(rl_code_object_find_kernel(co, symbol), &co->kernels[i]);
      check_kernel(co, &co->kernels[i]);
    }
    assert_null(rl_code_object_find_kernel(co, "vc_nope"));
    check_args(co);
    rl_code_object_destroy(co);
    free(file.data);
  }
}

static void code_object_load_image_places_descriptors_at_their_addresses(void** state) {
  (void)state;
  test_file_t file = read_kernel_object("gfx1201");
  rl_code_object_t* co = parse_ok(&file);
  size_t size = (size_t)co->image_size;
  uint8_t* image = malloc(size + 16);
  memset(image, 0xcc, size + 16);
  rl_status_t status = rl_code_object_load_image(co, file.data, file.size,
                                                 0x7f0000000000ull, image, size);
  assert_int_equal(rl_status_code(status), RL_STATUS_OK);
  for (uint32_t i = 0; i < co->kernel_count; ++i) {
    const rl_code_object_kernel_t* k = &co->kernels[i];
    assert_memory_equal(image + k->descriptor_address, &k->descriptor, 64);
  }
  const rl_code_object_segment_t* last = &co->segments[co->segment_count - 1];
  assert_int_equal(image[last->virtual_address + last->memory_size - 1], 0);
  assert_int_equal(image[size], 0xcc);  // nothing written past image_size
  status = rl_code_object_load_image(co, file.data, file.size, 0, image,
                                     size - 1);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  status = rl_code_object_load_image(co, file.data, 100, 0, image, size);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  free(image);
  rl_code_object_destroy(co);
  free(file.data);
}

// code_object_reloc.hip: rl_reloc_ptr = &rl_reloc_data[2] needs one
// R_AMDGPU_RELATIVE64 in .rela.dyn.
static void code_object_load_image_applies_relative64_relocations(void** state) {
  (void)state;
  test_file_t file = read_file(RL_RELOC_FIXTURE);
  rl_code_object_t* co = parse_ok(&file);
  assert_int_equal(co->relocation_count, 1);
  rl_code_object_relocation_t reloc = co->relocations[0];
  assert_int_equal(reloc.type, 13);
  uint8_t* image = calloc(1, (size_t)co->image_size);
  const uint64_t base = 0x100000000ull;
  assert_null(rl_code_object_load_image(co, file.data, file.size, base, image,
                                        (size_t)co->image_size));
  uint64_t value;
  memcpy(&value, image + reloc.offset, 8);
  assert_int_equal(value, base + (uint64_t)reloc.addend);
  // Find the Elf64_Rela in the file (r_offset, r_info = 13, r_addend).
  uint64_t rela[3] = {reloc.offset, 13, (uint64_t)reloc.addend};
  size_t at = find_bytes(&file, 0, rela, sizeof(rela));
  rl_code_object_destroy(co);
  // As ABS64 against dynsym 4 (rl_reloc_data), addend 8: the same value.
  uint64_t abs64[3] = {reloc.offset, (4ull << 32) | 3, 8};
  memcpy(file.data + at, abs64, sizeof(abs64));
  co = parse_ok(&file);
  assert_true(co->relocations[0].symbol_defined);
  memset(image, 0, (size_t)co->image_size);
  assert_null(rl_code_object_load_image(co, file.data, file.size, base, image,
                                        (size_t)co->image_size));
  memcpy(&value, image + reloc.offset, 8);
  assert_int_equal(value, base + co->relocations[0].symbol_value + 8);
  rl_code_object_destroy(co);
  // R_AMDGPU_REL64 (5) parses but cannot be loaded.
  uint64_t rel64[3] = {reloc.offset, 5, 0};
  memcpy(file.data + at, rel64, sizeof(rel64));
  co = parse_ok(&file);
  rl_status_t status = rl_code_object_load_image(co, file.data, file.size, base,
                                                 image, (size_t)co->image_size);
  assert_int_equal(rl_status_code(status), RL_STATUS_UNSUPPORTED);
  assert_non_null(strstr(rl_status_message(status), "type 5"));
  rl_status_free(status);
  rl_code_object_destroy(co);
  // A symbol index past .dynsym and an r_offset outside every segment.
  uint64_t bad_symbol[3] = {reloc.offset, (999ull << 32) | 3, 0};
  memcpy(file.data + at, bad_symbol, sizeof(bad_symbol));
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "relocation 0", "symbol index 999");
  uint64_t bad_offset[3] = {0x7fffffff, 13, 0};
  memcpy(file.data + at, bad_offset, sizeof(bad_offset));
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT, "SHT_RELA",
                 "r_offset 0x7fffffff");
  free(image);
  free(file.data);
}

static void code_object_parse_refuses_every_truncation(void** state) {
  (void)state;
  test_file_t file = read_kernel_object("gfx1100");
  expect_failure(file.data, 0, RL_STATUS_INVALID_INPUT, "64-byte ELF header",
                 NULL);
  expect_failure(file.data, 63, RL_STATUS_INVALID_INPUT, "63 bytes", NULL);
  for (size_t size = 64; size < file.size; size += 7) {
    expect_failure(file.data, size, RL_STATUS_INVALID_INPUT, NULL, NULL);
  }
  expect_failure(file.data, file.size - 1, RL_STATUS_INVALID_INPUT, NULL, NULL);
  free(file.data);
}

static void code_object_parse_refuses_bad_elf_headers_naming_the_byte(void** state) {
  (void)state;
  test_file_t file = read_kernel_object("gfx1100");
  file.data[18] = 0x3e;  // EM_X86_64
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT, "byte 18",
                 "e_machine 62");
  file.data[18] = 224;
  file.data[4] = 1;  // ELFCLASS32
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT, "ELFCLASS64",
                 NULL);
  file.data[4] = 2;
  file.data[8] = 1;  // ABI version 1: code object v3
  expect_failure(file.data, file.size, RL_STATUS_UNSUPPORTED, "byte 8",
                 "code object v3");
  file.data[8] = 3;
  file.data[48] = 0x4a;  // e_flags says gfx1151, the metadata gfx1100
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "amdhsa.target 'amdgcn-amd-amdhsa--gfx1100'", "gfx1151");
  file.data[48] = 0x41 | 0x00;
  file.data[49] = 0x03;  // xnack on (0x300): target must then say :xnack+
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT, "e_flags 0x341",
                 "gfx1100:xnack+");
  file.data[49] = 0x10;  // a reserved e_flags bit
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT, "reserved bits",
                 NULL);
  file.data[49] = 0;
  file.data[48] = 0x01;  // r600: not in the table
  expect_failure(file.data, file.size, RL_STATUS_UNSUPPORTED, "EF_AMDGPU_MACH",
                 NULL);
  free(file.data);
}

// Replaces the first occurrence of |from| by |to| (same length).
static void patch_text(test_file_t* file, const char* from, const char* to) {
  assert_int_equal(strlen(from), strlen(to));
  memcpy(file->data + find_text(file, from), to, strlen(to));
}

static void code_object_parse_names_the_missing_metadata_key(void** state) {
  (void)state;
  test_file_t pristine = read_kernel_object("gfx1100");
  test_file_t file = {malloc(pristine.size), pristine.size};
#define RESET() memcpy(file.data, pristine.data, file.size)
  RESET();
  patch_text(&file, ".kernarg_segment_size", ".kernarg_segment_sizX");
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "kernel 0 'vc_fill'",
                 "required key .kernarg_segment_size is missing");
  RESET();
  patch_text(&file, ".value_kind", ".value_kinX");
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "kernel 0 'vc_fill': arg 0", ".value_kind is missing");
  RESET();  // the first arg's .offset value 0 (fixint) becomes nil
  file.data[find_text(&file, ".offset") + 7] = 0xc0;
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT, "arg 0",
                 "key .offset: expected an unsigned integer, found nil");
  RESET();  // vc_fill: .kernarg_segment_size 16 -> 8, args end at 16
  size_t at = find_text(&file, ".kernarg_segment_size") + 21;
  assert_int_equal(file.data[at], 16);
  file.data[at] = 8;
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "vc_fill': arg 1", "exceed .kernarg_segment_size 8");
  RESET();  // vc_fill arg 1 .offset 8 -> 4 overlaps arg 0 [0, 8)
  at = find_bytes(&file, find_text(&file, ".offset") + 8, ".offset", 7) + 7;
  assert_int_equal(file.data[at], 8);
  file.data[at] = 4;
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "vc_fill': arg 1", "overlap arg 0");
  RESET();  // the root map announces 15 pairs instead of 3
  at = find_text(&file, "amdhsa.kernels") - 2;
  assert_int_equal(file.data[at], 0x83);
  file.data[at] = 0x8f;
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "NT_AMDGPU_METADATA note: msgpack", NULL);
  RESET();
  patch_text(&file, "vc_fill.kd", "vc_fill.kX");
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "kernel 0 'vc_fill'", "'vc_fill.kX' is not in .symtab");
  RESET();
  patch_text(&file, "amdhsa.version", "amdhsa.versioX");
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "amdhsa.version is missing", NULL);
  free(file.data);
  free(pristine.data);
}

static void test_corrupt_descriptor(void** state) {
  (void)state;
  test_file_t file = read_kernel_object("gfx1100");
  rl_code_object_t* co = parse_ok(&file);
  const rl_code_object_kernel_t* k = rl_code_object_find_kernel(co, "vc_add");
  // Segment 0 maps file offset 0 at address 0, so address == file offset.
  assert_int_equal(co->segments[0].file_offset, co->segments[0].virtual_address);
  size_t kd = (size_t)k->descriptor_address;
  rl_code_object_destroy(co);
  file.data[kd + 12] = 1;
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "kernel 2 'vc_add'", "reserved bytes");
  file.data[kd + 12] = 0;
  file.data[kd + 16] += 4;  // entry offset no longer 256-byte aligned
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "kernel 2 'vc_add'", "256-byte aligned");
  file.data[kd + 16] -= 4;
  file.data[kd + 8] += 4;  // descriptor kernarg_size != metadata
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "kernel 2 'vc_add'", "disagrees with the metadata");
  file.data[kd + 8] -= 4;
  file.data[kd + 57] |= 0x10;  // a reserved kernel_code_properties bit
  expect_failure(file.data, file.size, RL_STATUS_INVALID_INPUT,
                 "kernel 2 'vc_add'", "kernel_code_properties");
  free(file.data);
}

static void code_object_api_refuses_null_arguments(void** state) {
  (void)state;
  rl_status_t status = rl_code_object_parse("x", 1, NULL);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  rl_status_free(status);
  assert_string_equal(rl_effect_name(RL_EFFECT_READ_WRITE), "read_write");
  assert_string_equal(rl_target_feature_name(RL_TARGET_FEATURE_ANY), "any");
  rl_code_object_destroy(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(code_object_parse_reads_every_kernel_of_every_target),
      cmocka_unit_test(code_object_load_image_places_descriptors_at_their_addresses),
      cmocka_unit_test(code_object_load_image_applies_relative64_relocations),
      cmocka_unit_test(code_object_parse_refuses_every_truncation),
      cmocka_unit_test(code_object_parse_refuses_bad_elf_headers_naming_the_byte),
      cmocka_unit_test(code_object_parse_names_the_missing_metadata_key),
      cmocka_unit_test(test_corrupt_descriptor),
      cmocka_unit_test(code_object_api_refuses_null_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
