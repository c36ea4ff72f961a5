// tests/unit/sim/isa/isa_private_test.c — the private segment, the flat
// apertures and jumps through registers (docs/isa-scratch.md): the faults
// and refusals, each beside the passing form of the same program (its
// negative control), and FLAT through the shared aperture.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_program.h"
#include "sim/sim_executor.h"
#include "tests/unit/sim/isa/isa_snippet.h"
#include "tests/unit/sim/isa/isa_test_util.h"

// A private segment of 16 bytes per lane: offset 12 is the last dword in
// range (loads what lane 0's segment holds there), offset 16 faults and
// the message names the lane, the offset and the size.
static void test_private_access_past_the_segment_faults(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  uint8_t segments[32 * 16];
  for (uint32_t i = 0; i < sizeof(segments); ++i) segments[i] = (uint8_t)i;
  wave->private_mem = segments;
  wave->private_size = 16;
  const char* ok[] = {"scratch_load_b32 v1, off, off offset:12"};
  rl_isa_snippet_exec(s, ok, 1);
  uint32_t want;
  memcpy(&want, segments + 5 * 16 + 12, 4);
  assert_int_equal(wave->vgpr[1][5], want);  // lane 5's own segment
  const char* bad[] = {"scratch_load_b32 v1, off, off offset:16"};
  rl_isa_snippet_load(s, bad, 1);
  rl_status_t status = rl_isa_snippet_run(s);
  assert_int_equal(rl_status_code(status), RL_STATUS_POISONED);
  const char* message = rl_status_message(status);
  assert_non_null(strstr(message, "private segment fault"));
  assert_non_null(strstr(message, "lane 0"));
  assert_non_null(strstr(message, "0x10"));
  assert_non_null(strstr(message, "16-byte private segment"));
  rl_status_free(status);
  // No private segment at all (the kernel does not enable one): every
  // scratch access faults.
  wave->private_size = 0;
  wave->private_mem = NULL;
  rl_isa_snippet_load(s, ok, 1);
  status = rl_isa_snippet_run(s);
  assert_int_equal(rl_status_code(status), RL_STATUS_POISONED);
  rl_status_free(status);
  rl_isa_snippet_destroy(s);
}

// FLAT with an address in the shared aperture reaches LDS at address -
// src_shared_base; the same store with the aperture's high half cleared is
// a global access to an unmapped address and faults (the control).
static void test_flat_in_the_shared_aperture_reaches_lds(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    wave->vgpr[0][l] = 0x100 + 4 * l;       // LDS offset
    wave->vgpr[2][l] = 0xc0de0000u + l;     // data
  }
  const char* lines[] = {
      "s_mov_b64 s[0:1], src_shared_base",
      "v_mov_b32 v1, s1",
      "flat_store_b32 v[0:1], v2",
      "s_mov_b64 s[2:3], src_shared_limit",
  };
  rl_isa_snippet_exec(s, lines, 4);
  const uint8_t* lds = rl_isa_snippet_lds(s);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t got;
    memcpy(&got, lds + 0x100 + 4 * l, 4);
    assert_int_equal(got, 0xc0de0000u + l);
  }
  assert_int_equal(wave->sgpr[0], 0);
  assert_int_equal(wave->sgpr[1], RL_SIM_APERTURE_SHARED_BASE >> 32);
  uint64_t limit = wave->sgpr[2] | (uint64_t)wave->sgpr[3] << 32;
  assert_true(limit == RL_SIM_APERTURE_SHARED_BASE + RL_SIM_APERTURE_SIZE - 1);
  const char* global[] = {"v_mov_b32 v1, 0", "flat_store_b32 v[0:1], v2"};
  rl_isa_snippet_load(s, global, 2);
  rl_status_t status = rl_isa_snippet_run(s);
  assert_int_not_equal(rl_status_code(status), RL_STATUS_OK);
  rl_status_free(status);
  rl_isa_snippet_destroy(s);
}

// s_setpc_b64 to an address the scan cannot know (read from a VGPR) runs
// when it is an instruction start and faults, naming the address, when it
// is not.
static void test_jump_target_must_be_an_instruction_start(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  const char* lines[] = {
      "v_readfirstlane_b32 s0, v5",   // 0: the target's low half
      "s_mov_b32 s1, 0",              // 4
      "s_cbranch_execz 2",            // 8: not taken; makes the linear
                                      // sweep reach past s_setpc_b64
      "s_setpc_b64 s[0:1]",           // 12
      "v_mov_b32 v6, 1",              // 16: skipped
      "v_mov_b32 v7, 2",              // 20: the target
  };
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) wave->vgpr[5][l] = 20;
  rl_isa_snippet_exec(s, lines, 6);
  assert_int_equal(wave->vgpr[6][0], 0);
  assert_int_equal(wave->vgpr[7][0], 2);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) wave->vgpr[5][l] = 22;
  rl_isa_snippet_load(s, lines, 6);
  rl_status_t status = rl_isa_snippet_run(s);
  assert_int_not_equal(rl_status_code(status), RL_STATUS_OK);
  assert_non_null(strstr(rl_status_message(status), "jump to 0x16"));
  rl_status_free(status);
  rl_isa_snippet_destroy(s);
}

// Code for rl_isa_program_build from assembled lines at address 0.
typedef struct {
  uint32_t words[64];
  uint32_t bytes;
} rl_code_t;

static rl_status_t rl_code_fetch(void* context, uint64_t address,
                                 void* out_data, uint32_t size) {
  const rl_code_t* code = context;
  if (address + size > code->bytes) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "past the code");
  }
  memcpy(out_data, (const uint8_t*)code->words + address, size);
  return RL_OK;
}

static void rl_code_assemble(rl_code_t* code, const char* const* lines,
                             uint32_t count) {
  rl_isa_encoded_t encoded[16];
  rl_isa_test_assemble_batch("gfx1100", lines, count, encoded);
  code->bytes = 0;
  for (uint32_t i = 0; i < count; ++i) {
    memcpy((uint8_t*)code->words + code->bytes, encoded[i].words,
           encoded[i].count * 4);
    code->bytes += encoded[i].count * 4;
  }
}

// The predecoder follows a direct call into a callee after s_endpgm (its
// instructions are predecoded and checked), and refuses a call target that
// lies inside an instruction; a 32-bit read of src_private_base is left
// unmodelled (refused statically).
static void test_predecode_follows_calls_and_checks_targets(void** state) {
  (void)state;
  const char* call[] = {
      "s_getpc_b64 s[0:1]",             // 0 (its value: 4)
      "s_add_u32 s0, s0, 24",           // 4 (an inline constant)
      "s_addc_u32 s1, s1, 0",           // 8
      "s_swappc_b64 s[30:31], s[0:1]",  // 12
      "s_endpgm",                       // 16
      "s_nop 0",                        // 20: not swept
      "v_mov_b32 v1, 1",                // 24: not swept
      "v_mov_b32 v2, 2",                // 28: the callee (4 + 24)
      "s_setpc_b64 s[30:31]",           // 32
  };
  rl_code_t code;
  rl_code_assemble(&code, call, 9);
  rl_isa_program_t* program = NULL;
  assert_int_equal(rl_isa_program_build(0, 0, rl_code_fetch, &code, &program),
                   RL_OK);
  // 5 kernel instructions, a sentinel, the callee's 2, a sentinel.
  assert_int_equal(rl_isa_program_index(program, 28), 6);
  assert_int_equal(rl_isa_program_index(program, 24), -1);
  assert_int_equal(rl_isa_program_index(program, 30), -1);
  assert_int_equal(program->instructions, 7);
  assert_int_equal(program->count, 9);
  assert_int_equal(program->unmodelled, 0);
  rl_isa_program_release(program);
  // A call whose target (getpc value 4 + literal) is byte 8, inside the
  // 8-byte s_add_u32 with its literal at 4..11: refused when predecoding.
  const char* inside[] = {
      "s_getpc_b64 s[0:1]",             // 0
      "s_add_u32 s0, s0, 0x1000",       // 4..11, literal dword at 8
      "s_addc_u32 s1, s1, 0",           // 12
      "s_swappc_b64 s[30:31], s[0:1]",  // 16
      "s_endpgm",                       // 20
  };
  rl_code_assemble(&code, inside, 5);
  code.words[2] = 8 - 4;
  program = NULL;
  rl_status_t status = rl_isa_program_build(0, 0, rl_code_fetch, &code,
                                            &program);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  assert_non_null(strstr(rl_status_message(status),
                         "not an instruction boundary"));
  rl_status_free(status);
  // Control: aimed at s_addc_u32 (byte 12), an instruction start, it builds.
  code.words[2] = 12 - 4;
  assert_int_equal(rl_isa_program_build(0, 0, rl_code_fetch, &code, &program),
                   RL_OK);
  rl_isa_program_release(program);

  const char* narrow[] = {"s_mov_b32 s0, src_private_base", "s_endpgm"};
  rl_code_assemble(&code, narrow, 2);
  assert_int_equal(rl_isa_program_build(0, 0, rl_code_fetch, &code, &program),
                   RL_OK);
  assert_int_equal(program->unmodelled, 1);
  rl_isa_program_release(program);
  const char* wide[] = {"s_mov_b64 s[0:1], src_private_base", "s_endpgm"};
  rl_code_assemble(&code, wide, 2);
  assert_int_equal(rl_isa_program_build(0, 0, rl_code_fetch, &code, &program),
                   RL_OK);
  assert_int_equal(program->unmodelled, 0);
  assert_int_equal(program->insts[0].src[0].value,
                   RL_SIM_APERTURE_PRIVATE_BASE);
  rl_isa_program_release(program);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_private_access_past_the_segment_faults),
      cmocka_unit_test(test_flat_in_the_shared_aperture_reaches_lds),
      cmocka_unit_test(test_jump_target_must_be_an_instruction_start),
      cmocka_unit_test(test_predecode_follows_calls_and_checks_targets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
