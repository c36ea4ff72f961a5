// Tests of the isa executor's static check (sim/isa/isa_check.c):
// a kernel whose code holds an instruction the executor does not model is
// refused before anything runs, naming the kernel and the instruction's
// LLVM mnemonic and PC — through rl_isa_check_kernel(), through the
// simulated device's check_kernel (the replay contract's hook) and in the
// `redline kernels CODEOBJECT --isa` listing. The subject is vc_fill of
// vecchain-gfx1100.co with one 4-byte instruction replaced by v_sin_f32
// (llvm-mc-19's encoding), which the executor does not model.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/isa/isa_executor.h"
#include "sim/isa/isa_inst.h"
#include "sim/sim.h"
#include "tests/unit/sim/isa/isa_test_util.h"

typedef struct rl_ct_object_s {
  uint8_t* bytes;
  size_t size;
  rl_code_object_t* parsed;
  uint8_t* image;
  uint32_t patched_pc;  // the PC of the replaced instruction
} rl_ct_object_t;

static uint8_t* rl_ct_read(const char* path, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  assert_non_null(file);
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  uint8_t* bytes = malloc((size_t)size);
  assert_non_null(bytes);
  assert_int_equal(fread(bytes, 1, (size_t)size, file), (size_t)size);
  fclose(file);
  *out_size = (size_t)size;
  return bytes;
}

// The file offset of image address |address|.
static size_t rl_ct_file_offset(const rl_code_object_t* co, uint64_t address) {
  for (uint32_t i = 0; i < co->segment_count; ++i) {
    const rl_code_object_segment_t* s = &co->segments[i];
    if (address >= s->virtual_address &&
        address < s->virtual_address + s->file_size) {
      return (size_t)(s->file_offset + address - s->virtual_address);
    }
  }
  fail_msg("address 0x%llx is in no segment", (unsigned long long)address);
  return 0;
}

static void rl_ct_layout(rl_ct_object_t* o) {
  rl_code_object_destroy(o->parsed);
  free(o->image);
  assert_int_equal(rl_code_object_parse(o->bytes, o->size, &o->parsed), RL_OK);
  o->image = calloc(1, o->parsed->image_size);
  assert_non_null(o->image);
  assert_int_equal(rl_code_object_load_image(o->parsed, o->bytes, o->size, 0,
                                             o->image, o->parsed->image_size),
                   RL_OK);
}

// Loads vecchain; with |patch|, replaces vc_fill's first 4-byte VALU
// instruction by v_sin_f32.
static void rl_ct_load(rl_ct_object_t* o, bool patch) {
  memset(o, 0, sizeof(*o));
  o->bytes = rl_ct_read(RL_KERNELS_DIR "/vecchain-gfx1100.co", &o->size);
  rl_ct_layout(o);
  if (!patch) return;
  const rl_code_object_kernel_t* k =
      rl_code_object_find_kernel(o->parsed, "vc_fill");
  assert_non_null(k);
  uint32_t pc = 0;
  for (;;) {
    rl_isa_inst_t inst;
    const uint32_t* words = (const uint32_t*)(o->image + k->entry_address + pc);
    assert_true(rl_isa_decode(words, 3, 0, &inst));
    if (inst.size == 4 && (inst.encoding == RL_ISA_ENC_VOP1 ||
                           inst.encoding == RL_ISA_ENC_VOP2)) {
      break;
    }
    pc += inst.size;
    assert_true(pc < 256);
  }
  rl_isa_encoded_t sin;
  rl_isa_test_assemble("gfx1100", "v_sin_f32 v1, v2", &sin);
  memcpy(o->bytes + rl_ct_file_offset(o->parsed, k->entry_address + pc),
         sin.words, 4);
  o->patched_pc = pc;
  rl_ct_layout(o);
}

static void rl_ct_free(rl_ct_object_t* o) {
  rl_code_object_destroy(o->parsed);
  free(o->image);
  free(o->bytes);
}

static void rl_ct_expect_refusal(rl_status_t status, uint32_t pc) {
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  const char* message = rl_status_message(status);
  char where[64];
  snprintf(where, sizeof(where), "v_sin_f32 (VOP1 opcode 0x35) at PC +0x%x",
           pc);
  if (!strstr(message, "kernel vc_fill") || !strstr(message, where)) {
    fail_msg("refusal \"%s\" lacks the kernel or \"%s\"", message, where);
  }
  rl_status_free(status);
}

static void
isa_check_kernel_accepts_vecchain_and_names_kernel_and_place_of_refusal(
    void** state) {
  (void)state;
  rl_ct_object_t o;
  rl_ct_load(&o, false);  // control: every vecchain kernel is modelled
  for (uint32_t k = 0; k < o.parsed->kernel_count; ++k) {
    assert_int_equal(rl_isa_check_kernel("gfx1100", o.image,
                                         o.parsed->image_size,
                                         &o.parsed->kernels[k]),
                     RL_OK);
  }
  rl_ct_free(&o);
  rl_ct_load(&o, true);
  const rl_code_object_kernel_t* fill =
      rl_code_object_find_kernel(o.parsed, "vc_fill");
  rl_ct_expect_refusal(
      rl_isa_check_kernel("gfx1100", o.image, o.parsed->image_size, fill),
      o.patched_pc);
  uint32_t instructions = 0, unmodelled = 0;
  assert_int_equal(rl_isa_scan_kernel("gfx1100", o.image, o.parsed->image_size,
                                      fill->entry_address, NULL, NULL,
                                      &instructions, &unmodelled),
                   RL_OK);
  assert_int_equal(unmodelled, 1);
  assert_true(instructions > 4);
  rl_ct_free(&o);
}

// The simulated device asks its executor (the replay contract's hook); the
// other kernels of the same code object are still accepted.
static void test_device_check_kernel(void** state) {
  (void)state;
  rl_ct_object_t o;
  rl_ct_load(&o, true);
  rl_sim_options_t options = {.processor = "gfx1100",
                              .executor = rl_isa_executor()};
  rl_device_t* device = NULL;
  assert_int_equal(rl_sim_device_create(&options, &device), RL_OK);
  assert_non_null(device->vtable->check_kernel);
  for (uint32_t k = 0; k < o.parsed->kernel_count; ++k) {
    const rl_code_object_kernel_t* kernel = &o.parsed->kernels[k];
    rl_status_t status = device->vtable->check_kernel(device, o.bytes, o.size,
                                                      o.parsed, kernel);
    if (strcmp(kernel->name, "vc_fill") == 0) {
      rl_ct_expect_refusal(status, o.patched_pc);
    } else {
      assert_int_equal(status, RL_OK);
    }
  }
  device->vtable->destroy(device);
  rl_ct_free(&o);
}

// `redline kernels CODEOBJECT --isa` lists the instruction (exit 0).
static void test_cli_lists_unmodelled(void** state) {
  (void)state;
  rl_ct_object_t o;
  rl_ct_load(&o, true);
  char path[] = "/tmp/rl_isa_check_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, o.bytes, o.size), (ssize_t)o.size);
  close(fd);
  char command[512];
  snprintf(command, sizeof(command), "%s kernels %s --isa", RL_REDLINE_BIN,
           path);
  FILE* pipe = popen(command, "r");
  assert_non_null(pipe);
  char line[512], expected[64];
  snprintf(expected, sizeof(expected), "+0x%04x  v_sin_f32", o.patched_pc);
  bool listed = false, refused = false;
  while (fgets(line, sizeof(line), pipe)) {
    if (strstr(line, expected) && strstr(line, "VOP1 opcode 0x35")) listed = true;
    if (strstr(line, "1 of ") && strstr(line, "refuses this kernel")) refused = true;
  }
  assert_int_equal(pclose(pipe), 0);
  unlink(path);
  assert_true(listed);
  assert_true(refused);
  rl_ct_free(&o);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(
          isa_check_kernel_accepts_vecchain_and_names_kernel_and_place_of_refusal),
      cmocka_unit_test(test_device_check_kernel),
      cmocka_unit_test(test_cli_lists_unmodelled),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
