// Tests of binding inference over step captures (capture/recording/step_infer.c):
// synthetic steps of two vc_scale launches (vecchain code object) built
// with rl_capture_add_*, whose kernarg words, grid and pointer offsets
// move with the position or with a token. The independent side is
// rl_launch_bind of the merged capture at new parameter values, compared
// with values computed here from the generating formulas; the file
// round trip and the bind table (the patch table every route applies) are
// checked on the inferred capture.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <xxhash.h>

#include "tests/support/test_support.h"

#include "aql/aql_lower.h"
#include "aql/aql_patch.h"
#include "tests/unit/aql/aql_program_apply.h"
#include "capture/bind/bind_table.h"
#include "capture/bind/launch_bind.h"
#include "capture/recording/step_infer.h"
#include "redline/capture_file.h"
#include "redline/hazard.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"
#define RL_TEST_ROW 256u        // bytes per KV / embedding row
#define RL_TEST_KV_SIZE 65536u  // the KV buffer: 256 rows
#define RL_TEST_EMB_SIZE 4096u  // the embedding table: 16 rows

enum { RL_TEST_IN, RL_TEST_KV, RL_TEST_EMB, RL_TEST_OUT, RL_TEST_BUFFERS };

static const uint64_t rl_test_address[RL_TEST_BUFFERS] = {
    0x100000, 0x200000, 0x300000, 0x400000};
static const uint64_t rl_test_size[RL_TEST_BUFFERS] = {
    4096, RL_TEST_KV_SIZE, RL_TEST_EMB_SIZE, 4096};

// What one step records.
typedef struct rl_test_step_s {
  uint32_t scale_word;  // launch 0 kernarg byte 16
  uint32_t n_word;      // launch 0 kernarg byte 20
  uint32_t grid;        // launch 0 grid x
  uint32_t block;       // launch 0 block x
  uint64_t kv_offset;   // launch 0 slot 1 (out) offset in kv
  uint64_t emb_offset;  // launch 1 slot 0 (in) offset in emb
  uint32_t launches;    // 2, or 1 for a structure difference
} rl_test_step_t;

static void* rl_test_code;
static size_t rl_test_code_size;

static int rl_test_group_setup(void** state) {
  (void)state;
  rl_test_code = rl_test_read_file(RL_TEST_CODE_OBJECT, &rl_test_code_size);
  return rl_test_code ? 0 : -1;
}

static int rl_test_group_teardown(void** state) {
  (void)state;
  free(rl_test_code);
  return 0;
}

static void rl_test_launch(rl_capture_t* capture, uint32_t kernel,
                           uint32_t in, uint64_t in_offset, uint32_t out,
                           uint64_t out_offset, uint32_t scale_word,
                           uint32_t n_word, uint32_t grid, uint32_t block) {
  uint8_t kernarg[24];
  rl_store_le(kernarg + 0, 8, rl_test_address[in] + in_offset);
  rl_store_le(kernarg + 8, 8, rl_test_address[out] + out_offset);
  rl_store_le(kernarg + 16, 4, scale_word);
  rl_store_le(kernarg + 20, 4, n_word);
  rl_pointer_slot_t slots[2] = {
      {.kernarg_offset = 0, .buffer = in, .offset = in_offset,
       .effect = RL_EFFECT_READ, .source = RL_EFFECT_SOURCE_DECLARED,
       // launch 0 reads n = pos + 1 floats of |in|: its whole buffer.
       .extent_offset = in == RL_TEST_IN ? 0 : in_offset,
       .extent_size = in == RL_TEST_IN ? rl_test_size[in] : RL_TEST_ROW},
      {.kernarg_offset = 8, .buffer = out, .offset = out_offset,
       .effect = RL_EFFECT_WRITE, .source = RL_EFFECT_SOURCE_DECLARED,
       .extent_offset = out_offset, .extent_size = RL_TEST_ROW}};
  rl_capture_launch_t launch = {
      .kernel = kernel, .grid = {grid, 1, 1}, .block = {block, 1, 1},
      .kernarg_size = 24, .kernarg = kernarg, .slot_count = 2,
      .slots = slots};
  uint32_t index = 0;
  assert_null(rl_capture_add_launch(capture, &launch, &index));
}

static rl_capture_t* rl_test_make_step(const rl_test_step_t* step) {
  rl_capture_t* capture = NULL;
  assert_null(rl_capture_create("steps", &capture));
  uint32_t index = 0, kernel = 0;
  assert_null(rl_capture_add_code_object(capture, rl_test_code,
                                         rl_test_code_size, &index));
  assert_null(rl_capture_add_kernel(capture, 0, "vc_scale", &kernel));
  const char* names[RL_TEST_BUFFERS] = {"in", "kv", "emb", "out"};
  // Inputs hold distinct floats (1, 2, 3, ...), so a row written at the
  // wrong place shows in the regions.
  float contents[RL_TEST_EMB_SIZE / 4];
  for (uint32_t i = 0; i < RL_TEST_EMB_SIZE / 4; ++i) contents[i] = 1.0f + i;
  for (uint32_t b = 0; b < RL_TEST_BUFFERS; ++b) {
    rl_capture_buffer_t buffer = {
        .name = (char*)names[b], .size = rl_test_size[b], .alignment = 256,
        .capture_address = rl_test_address[b],
        .role = b == RL_TEST_KV || b == RL_TEST_OUT ? RL_BUFFER_ROLE_STATE
                                                    : RL_BUFFER_ROLE_WEIGHTS,
        .initial = b == RL_TEST_IN || b == RL_TEST_EMB ? (uint8_t*)contents
                                                        : NULL};
    assert_null(rl_capture_add_buffer(capture, &buffer, &index));
  }
  rl_capture_region_t regions[2] = {
      {.name = "kv", .buffer = RL_TEST_KV, .size = RL_TEST_KV_SIZE,
       .type = RL_REGION_F32},
      {.name = "out", .buffer = RL_TEST_OUT, .size = 4096,
       .type = RL_REGION_F32}};
  for (uint32_t r = 0; r < 2; ++r) {
    assert_null(rl_capture_add_region(capture, &regions[r], &index));
  }
  rl_test_launch(capture, kernel, RL_TEST_IN, 0, RL_TEST_KV, step->kv_offset,
                 step->scale_word, step->n_word, step->grid,
                 step->block ? step->block : 64);
  if (step->launches != 1) {
    rl_test_launch(capture, kernel, RL_TEST_EMB, step->emb_offset,
                   RL_TEST_OUT, 0, 0x3F800000u, 64, 1, 64);
  }
  return capture;
}

// The position-driven step: n = pos + 1, scale word 3·pos + 100, grid
// ceil((pos + 1) / 64), KV destination pos × row, embedding row |token|.
static rl_test_step_t rl_test_pos_step(int64_t pos, uint64_t token) {
  return (rl_test_step_t){
      .scale_word = (uint32_t)(3 * pos + 100), .n_word = (uint32_t)(pos + 1),
      .grid = (uint32_t)((pos + 1 + 63) / 64),
      .kv_offset = (uint64_t)pos * RL_TEST_ROW,
      .emb_offset = token * RL_TEST_ROW};
}

typedef struct rl_test_steps_s {
  rl_capture_t* steps[8];
  uint32_t count;
} rl_test_steps_t;

static void rl_test_steps_free(rl_test_steps_t* steps) {
  for (uint32_t k = 0; k < steps->count; ++k) {
    rl_capture_destroy(steps->steps[k]);
  }
}

static rl_status_t rl_test_infer(rl_test_steps_t* steps,
                                 const int64_t* positions,
                                 bool allow_miss,
                                 rl_step_infer_result_t* result) {
  rl_step_infer_options_t options = {.positions = positions,
                                     .allow_holdout_miss = allow_miss};
  return rl_step_infer(steps->steps, steps->count, &options, result);
}

static void rl_test_expect(rl_status_t status, rl_status_code_t code,
                           const char* a, const char* b) {
  assert_non_null(status);
  if (rl_status_code(status) != code || !strstr(rl_status_message(status), a) ||
      (b && !strstr(rl_status_message(status), b))) {
    fail_msg("status %d \"%s\" lacks \"%s\" / \"%s\"",
             (int)rl_status_code(status), rl_status_message(status), a,
             b ? b : "");
  }
  rl_status_free(status);
}

// The binding of |launch| with |target| at |offset| (fails when absent).
static const rl_scalar_binding_t* rl_test_binding(const rl_capture_t* capture,
                                                  uint32_t launch,
                                                  rl_binding_target_t target,
                                                  uint32_t offset) {
  const rl_capture_launch_t* l = &capture->launches[launch];
  for (uint32_t b = 0; b < l->binding_count; ++b) {
    if (l->bindings[b].target == target && l->bindings[b].offset == offset) {
      return &l->bindings[b];
    }
  }
  fail_msg("launch %u has no binding of target %d at %u", launch, (int)target,
           offset);
  return NULL;
}

static void rl_test_expr_text(const rl_capture_t* capture, uint32_t launch,
                              rl_binding_target_t target, uint32_t offset,
                              const char* expected) {
  char text[128];
  rl_expr_format(capture, &rl_test_binding(capture, launch, target, offset)
                                 ->expr,
                 text, sizeof(text));
  assert_string_equal(text, expected);
}

static void rl_test_capture_addresses(const rl_capture_t* capture,
                                      uint64_t* out) {
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    out[b] = capture->buffers[b].capture_address;
  }
}

// K = 4 steps at pos 62..65 (the grid crosses 64 there): every position
// form is found, the held-out step is predicted, the admitted range
// follows from the KV buffer, and a new position binds as the formulas say.
static void test_position_bindings_predict_new_positions(void** state) {
  (void)state;
  rl_test_steps_t steps = {.count = 4};
  int64_t positions[4];
  for (uint32_t k = 0; k < 4; ++k) {
    positions[k] = 62 + k;
    rl_test_step_t step = rl_test_pos_step(positions[k], 3);
    steps.steps[k] = rl_test_make_step(&step);
  }
  rl_step_infer_result_t result;
  assert_null(rl_test_infer(&steps, positions, false, &result));
  const rl_capture_t* c = result.capture;
  rl_test_expr_text(c, 0, RL_BINDING_KERNARG, 20, "pos+1");
  rl_test_expr_text(c, 0, RL_BINDING_KERNARG, 16, "3*pos+100");
  rl_test_expr_text(c, 0, RL_BINDING_GRID, 0, "ceil((pos+1)/64)");
  rl_test_expr_text(c, 0, RL_BINDING_POINTER_OFFSET, 1, "256*pos");
  assert_int_equal(result.binding_count, 4);
  assert_int_equal(result.free_param_count, 0);
  assert_true(result.holdout_checked);
  assert_true(result.holdout_ok);
  assert_non_null(strstr(result.holdout_line, "predicted exactly"));
  // pos × 256 + 256 ≤ 65536: pos ≤ 255.
  const rl_capture_param_t* pos = &c->params[result.position_param];
  assert_string_equal(pos->name, "pos");
  assert_int_equal(pos->min, 0);
  assert_int_equal(pos->max, 256);
  assert_int_equal(pos->capture_value, 62);
  // The bound slot's extent is the union over the admitted range.
  assert_int_equal(c->launches[0].slots[1].extent_offset, 0);
  assert_int_equal(c->launches[0].slots[1].extent_size, RL_TEST_KV_SIZE);
  // A new position through the one evaluator.
  uint64_t addresses[RL_TEST_BUFFERS];
  rl_test_capture_addresses(c, addresses);
  int64_t values[1] = {200};
  uint8_t kernarg[24];
  uint32_t grid[3];
  assert_null(rl_launch_bind(c, 0, values, addresses, kernarg, grid));
  assert_int_equal(rl_load_le(kernarg + 20, 4), 201);
  assert_int_equal(rl_load_le(kernarg + 16, 4), 700);
  assert_int_equal(grid[0], 4);
  assert_int_equal(rl_load_le(kernarg + 8, 8),
                   rl_test_address[RL_TEST_KV] + 200 * RL_TEST_ROW);
  assert_int_equal(rl_load_le(kernarg + 0, 8), rl_test_address[RL_TEST_IN]);
  // Past the buffer: the pointer-offset binding refuses (pos 256 → 65536
  // is the buffer's end, still a valid pointer; 257 is not).
  values[0] = 257;
  rl_test_expect(rl_launch_bind(c, 0, values, addresses, kernarg, grid),
                 RL_STATUS_CONTRACT, "offset of pointer slot 1",
                 "outside its buffer");
  // The replay contract's admitted check agrees with the range.
  for (uint32_t b = 0; b < c->launches[0].binding_count; ++b) {
    assert_null(rl_bind_check_admitted(c, 0, b));
  }
  // Negative control: a bound slot whose extent misses admitted offsets.
  rl_pointer_slot_t* kv = &result.capture->launches[0].slots[1];
  kv->extent_offset += 256;
  kv->extent_size -= 256;
  const rl_scalar_binding_t* bound =
      rl_test_binding(c, 0, RL_BINDING_POINTER_OFFSET, 1);
  rl_test_expect(
      rl_bind_check_admitted(c, 0, (uint32_t)(bound - c->launches[0].bindings)),
      RL_STATUS_CONTRACT, "pointer slot 1's offset reaches [0, 65280]",
      "outside its extent");
  kv->extent_offset -= 256;
  kv->extent_size += 256;
  rl_step_infer_result_free(&result);
  // A position limit narrows it further; one below a captured position is
  // refused, naming it.
  rl_step_infer_options_t options = {.positions = positions,
                                     .position_limit = 100};
  assert_null(rl_step_infer(steps.steps, 4, &options, &result));
  assert_int_equal(result.capture->params[result.position_param].max, 100);
  rl_step_infer_result_free(&result);
  options.position_limit = 64;
  rl_test_expect(rl_step_infer(steps.steps, 4, &options, &result),
                 RL_STATUS_CONTRACT, "pos=64 at step 2", "[0, 63]");
  rl_test_steps_free(&steps);
}

// The token: an embedding row offset token × 256 and a kernarg word equal
// to the token share one free parameter, whose per-step values are
// recorded; the held-out step is predicted from its own token.
static void test_free_token_parameter(void** state) {
  (void)state;
  const uint64_t tokens[4] = {5, 9, 2, 7};
  rl_test_steps_t steps = {.count = 4};
  for (uint32_t k = 0; k < 4; ++k) {
    rl_test_step_t step = rl_test_pos_step(10 + k, tokens[k]);
    step.scale_word = (uint32_t)tokens[k];
    steps.steps[k] = rl_test_make_step(&step);
  }
  int64_t positions[4] = {10, 11, 12, 13};
  rl_step_infer_result_t result;
  assert_null(rl_test_infer(&steps, positions, false, &result));
  const rl_capture_t* c = result.capture;
  assert_int_equal(result.free_param_count, 1);
  rl_test_expr_text(c, 0, RL_BINDING_KERNARG, 16, "free0");
  rl_test_expr_text(c, 1, RL_BINDING_POINTER_OFFSET, 0, "256*free0");
  uint32_t free0 = 0;
  assert_true(rl_capture_find_param(c, "free0", &free0));
  for (uint32_t k = 0; k < 4; ++k) {
    assert_int_equal(result.values[k * result.param_count + free0],
                     tokens[k]);
    assert_int_equal(result.values[k * result.param_count +
                                   result.position_param],
                     10 + k);
  }
  // 16 rows of 256 bytes: token ≤ 15.
  assert_int_equal(c->params[free0].max, 16);
  assert_true(result.holdout_ok);
  uint64_t addresses[RL_TEST_BUFFERS];
  rl_test_capture_addresses(c, addresses);
  int64_t values[2];
  values[result.position_param] = 40;
  values[free0] = 11;
  uint8_t kernarg[24];
  uint32_t grid[3];
  assert_null(rl_launch_bind(c, 1, values, addresses, kernarg, grid));
  assert_int_equal(rl_load_le(kernarg + 0, 8),
                   rl_test_address[RL_TEST_EMB] + 11 * RL_TEST_ROW);
  rl_step_infer_result_free(&result);
  rl_test_steps_free(&steps);
}

// Negative control of the held-out check: n follows pos + 1 on steps
// 0..2 and breaks at step 3. Refused by default, naming the target and
// both values; with allow_holdout_miss the verdict says NOT predicted.
static void test_holdout_miss_is_refused(void** state) {
  (void)state;
  rl_test_steps_t steps = {.count = 4};
  int64_t positions[4] = {10, 11, 12, 13};
  for (uint32_t k = 0; k < 4; ++k) {
    rl_test_step_t step = rl_test_pos_step(positions[k], 1);
    if (k == 3) step.n_word += 1;
    steps.steps[k] = rl_test_make_step(&step);
  }
  rl_step_infer_result_t result;
  rl_status_t status = rl_test_infer(&steps, positions, false, &result);
  assert_null(result.capture);
  assert_true(result.holdout_checked);
  assert_false(result.holdout_ok);
  assert_non_null(strstr(result.holdout_line, "NOT predicted"));
  rl_test_expect(status, RL_STATUS_CONTRACT, "held-out step 3",
                 "kernarg byte 20: predicted 14, recorded 15");
  assert_null(rl_test_infer(&steps, positions, true, &result));
  assert_false(result.holdout_ok);
  // All four steps still reproduce: n became a free parameter.
  rl_test_expr_text(result.capture, 0, RL_BINDING_KERNARG, 20, "free0");
  rl_step_infer_result_free(&result);
  // The control: the unbroken steps pass (test above), and so does K = 3
  // here without a held-out step.
  steps.count = 3;
  assert_null(rl_test_infer(&steps, positions, false, &result));
  assert_false(result.holdout_checked);
  assert_false(rl_capture_incomplete(result.capture));
  rl_step_infer_result_free(&result);
  // A step that missed work makes the merged capture incomplete.
  assert_null(rl_capture_mark_incomplete(steps.steps[1], 2, "hipFoo"));
  assert_null(rl_test_infer(&steps, positions, false, &result));
  assert_true(rl_capture_incomplete(result.capture));
  assert_string_equal(result.capture->incomplete_reason, "step 1: hipFoo");
  rl_step_infer_result_free(&result);
  steps.count = 4;
  rl_test_steps_free(&steps);
}

// A grid that fits no form, a block that changes, and steps of unequal
// structure are refused, naming what differs.
static void test_unexplained_variation_is_refused(void** state) {
  (void)state;
  int64_t positions[4] = {0, 1, 2, 3};
  const uint32_t grids[4] = {3, 7, 4, 9};
  rl_test_steps_t steps = {.count = 4};
  for (uint32_t k = 0; k < 4; ++k) {
    rl_test_step_t step = rl_test_pos_step(positions[k], 1);
    step.grid = grids[k];
    steps.steps[k] = rl_test_make_step(&step);
  }
  rl_step_infer_result_t result;
  rl_test_expect(rl_test_infer(&steps, positions, false, &result),
                 RL_STATUS_CONTRACT, "launch 0 (vc_scale) grid x",
                 "3, 7, 4, 9");
  assert_null(result.capture);
  rl_test_steps_free(&steps);

  for (uint32_t k = 0; k < 4; ++k) {
    rl_test_step_t step = rl_test_pos_step(positions[k], 1);
    step.block = k == 2 ? 32 : 64;
    steps.steps[k] = rl_test_make_step(&step);
  }
  rl_test_expect(rl_test_infer(&steps, positions, false, &result),
                 RL_STATUS_CONTRACT, "unexplained variation: launch 0",
                 "block 32x1x1");
  rl_test_steps_free(&steps);

  for (uint32_t k = 0; k < 4; ++k) {
    rl_test_step_t step = rl_test_pos_step(positions[k], 1);
    step.launches = k == 2 ? 1 : 2;
    steps.steps[k] = rl_test_make_step(&step);
  }
  rl_test_expect(rl_test_infer(&steps, positions, false, &result),
                 RL_STATUS_CONTRACT, "unequal structure: step 2",
                 "1 launches, step 0 has 2");
  rl_test_steps_free(&steps);
}

// The four steps at positions 62..65 of rl_test_pos_step (mode 3), and
// their inference, which must succeed.
static void rl_test_infer_pos_steps(rl_test_steps_t* steps,
                                    rl_step_infer_result_t* result) {
  static const int64_t positions[4] = {62, 63, 64, 65};
  for (uint32_t k = 0; k < 4; ++k) {
    rl_test_step_t step = rl_test_pos_step(positions[k], 3);
    steps->steps[k] = rl_test_make_step(&step);
  }
  assert_null(rl_test_infer(steps, positions, false, result));
}

// The scaled expressions and pointer-offset bindings survive the file:
// BINDING_EXT is written only when needed, the identity covers it, and
// a capture without them keeps the 1.0 layout.
static void test_file_round_trip(void** state) {
  (void)state;
  rl_test_steps_t steps = {.count = 4};
  rl_step_infer_result_t result;
  rl_test_infer_pos_steps(&steps, &result);
  uint8_t* bytes = NULL;
  size_t size = 0;
  assert_null(rl_capture_file_encode(result.capture, NULL, &bytes, &size));
  rl_capture_t* back = NULL;
  rl_capture_file_info_t info;
  assert_null(rl_capture_file_read_memory(bytes, size, &back, &info));
  bool ext = false;
  for (uint32_t i = 0; i < info.section_count; ++i) {
    ext |= info.sections[i].kind == RL_CAPTURE_SECTION_BINDING_EXT;
  }
  assert_true(ext);
  rl_test_expr_text(back, 0, RL_BINDING_KERNARG, 16, "3*pos+100");
  rl_test_expr_text(back, 0, RL_BINDING_POINTER_OFFSET, 1, "256*pos");
  rl_digest128_t a, b;
  assert_null(rl_capture_identity(result.capture, &a));
  assert_null(rl_capture_identity(back, &b));
  assert_true(rl_digest128_equal(a, b));
  // The scale is part of the identity (negative control of the above).
  rl_scalar_binding_t* scaled = (rl_scalar_binding_t*)rl_test_binding(
      back, 0, RL_BINDING_KERNARG, 16);
  scaled->expr.scale = 4;
  assert_null(rl_capture_identity(back, &b));
  assert_false(rl_digest128_equal(a, b));
  rl_capture_destroy(back);
  free(bytes);
  // A step capture (no bindings) has no BINDING_EXT.
  assert_null(rl_capture_file_encode(steps.steps[0], NULL, &bytes, &size));
  assert_null(rl_capture_file_read_memory(bytes, size, &back, &info));
  for (uint32_t i = 0; i < info.section_count; ++i) {
    assert_int_not_equal(info.sections[i].kind,
                         RL_CAPTURE_SECTION_BINDING_EXT);
  }
  rl_capture_destroy(back);
  free(bytes);
  rl_step_infer_result_free(&result);
  rl_test_steps_free(&steps);
}

// Re-seals the checksum of the section whose header is at |offset|, so a
// changed payload reaches the decoder.
static void rl_test_reseal(uint8_t* bytes, uint64_t offset) {
  uint64_t length = rl_load_le(bytes + offset + 8, 8);
  uint64_t seed = XXH3_64bits(bytes + offset, 16);
  rl_store_le(bytes + offset + 16, 8,
              XXH3_64bits_withSeed(bytes + offset + 24, length, seed));
}

// A malformed BINDING_EXT is refused: a scale of 1 (not canonical) naming
// the record, and a record moved off its binding naming the binding.
static void test_binding_ext_refusals(void** state) {
  (void)state;
  rl_test_steps_t steps = {.count = 4};
  rl_step_infer_result_t result;
  rl_test_infer_pos_steps(&steps, &result);
  uint8_t* bytes = NULL;
  size_t size = 0;
  assert_null(rl_capture_file_encode(result.capture, NULL, &bytes, &size));
  rl_capture_t* back = NULL;
  rl_capture_file_info_t info;
  assert_null(rl_capture_file_read_memory(bytes, size, &back, &info));
  rl_capture_destroy(back);
  const rl_capture_file_section_t* ext = NULL;
  for (uint32_t i = 0; i < info.section_count; ++i) {
    if (info.sections[i].kind == RL_CAPTURE_SECTION_BINDING_EXT) {
      ext = &info.sections[i];
    }
  }
  assert_non_null(ext);
  assert_true(ext->flags & 1u);  // required
  uint8_t* record = bytes + ext->payload_offset + 4;  // launch, binding, scale
  assert_int_equal(rl_load_le(record + 8, 8), 3);     // 3*pos+100
  rl_store_le(record + 8, 8, 1);
  rl_test_reseal(bytes, ext->offset);
  rl_test_expect(rl_capture_file_read_memory(bytes, size, &back, NULL),
                 RL_STATUS_INVALID_INPUT, "BINDING_EXT record 0",
                 "scale other than 0 and 1");
  rl_store_le(record + 8, 8, 3);
  // The last record (the KV offset's 256, still in order) moved to a
  // launch that does not exist: the binding it scaled no longer holds its
  // recorded value, and the reader says which.
  uint32_t count = (uint32_t)rl_load_le(bytes + ext->payload_offset, 4);
  assert_int_equal(count, 2);
  rl_store_le(record + 16, 4, 9);
  rl_test_reseal(bytes, ext->offset);
  rl_test_expect(rl_capture_file_read_memory(bytes, size, &back, NULL),
                 RL_STATUS_INVALID_INPUT, "launch 0: binding 3",
                 "recorded value 15872 differs from pos = 62");
  free(bytes);
  rl_step_infer_result_free(&result);
  rl_test_steps_free(&steps);
}

// The compiled patch table rewrites a bound pointer site at apply, equal
// to rl_launch_bind, and refuses a position past the buffer before
// writing anything.
static void test_bind_table_applies_pointer_offset(void** state) {
  (void)state;
  rl_test_steps_t steps = {.count = 4};
  rl_step_infer_result_t result;
  rl_test_infer_pos_steps(&steps, &result);
  const rl_capture_t* c = result.capture;
  // Replay addresses other than the capture's.
  uint64_t addresses[RL_TEST_BUFFERS];
  for (uint32_t b = 0; b < RL_TEST_BUFFERS; ++b) {
    addresses[b] = 0x7000000000ull + 0x100000ull * b;
  }
  uint8_t image[2 * 24];
  uint32_t grids[6];
  int64_t pos = 62;
  rl_bind_table_t* table = NULL;
  assert_null(rl_bind_table_create(c, &table));
  for (uint32_t l = 0; l < c->launch_count; ++l) {
    const rl_capture_launch_t* launch = &c->launches[l];
    assert_null(rl_launch_bind(c, l, &pos, addresses, image + 24 * l,
                               grids + 3 * l));
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      uint32_t at = 24 * l + launch->slots[s].kernarg_offset;
      assert_null(rl_bind_table_add(table, RL_BIND_SITE_POINTER, l, s, 0, at,
                                    8, 1, rl_load_le(image + at, 8)));
    }
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      const rl_scalar_binding_t* binding = &launch->bindings[b];
      if (binding->target == RL_BINDING_GRID) {
        assert_null(rl_bind_table_add(table, RL_BIND_SITE_GRID, l, b, 1,
                                      4 * (3 * l + binding->offset), 4, 1,
                                      grids[3 * l + binding->offset]));
      } else if (binding->target == RL_BINDING_KERNARG) {
        uint32_t at = 24 * l + binding->offset;
        assert_null(rl_bind_table_add(table, RL_BIND_SITE_KERNARG, l, b, 0,
                                      at, (uint8_t)binding->size, 1,
                                      rl_load_le(image + at, binding->size)));
      }
    }
  }
  assert_null(rl_bind_table_finish(table, &pos));
  assert_int_equal(table->bound_count, 1);
  rl_bind_dest_t dests[RL_BIND_MAX_DESTS] = {
      {.base = image, .size = sizeof(image)},
      {.base = (uint8_t*)grids, .size = sizeof(grids)}};
  const int64_t walk[4] = {100, 255, 63, 0};
  for (int i = 0; i < 4; ++i) {
    uint32_t changed = 0;
    assert_null(rl_bind_table_apply(table, &walk[i], 1, dests, &changed));
    assert_true(changed > 0);
    uint8_t expected[24];
    uint32_t grid[3];
    for (uint32_t l = 0; l < c->launch_count; ++l) {
      assert_null(rl_launch_bind(c, l, &walk[i], addresses, expected, grid));
      assert_memory_equal(image + 24 * l, expected, 24);
      assert_memory_equal(grids + 3 * l, grid, sizeof(grid));
    }
    assert_int_equal(rl_load_le(image + 8, 8),
                     addresses[RL_TEST_KV] + walk[i] * RL_TEST_ROW);
  }
  // Past the buffer: refused, nothing written.
  uint8_t before[sizeof(image)];
  memcpy(before, image, sizeof(image));
  uint32_t changed = 0;
  const int64_t past = 300;
  rl_test_expect(rl_bind_table_apply(table, &past, 1, dests, &changed),
                 RL_STATUS_CONTRACT, "offset of pointer slot 1",
                 "outside its buffer");
  assert_memory_equal(image, before, sizeof(image));
  // Rebase to new addresses moves the bound site with its buffer.
  addresses[RL_TEST_KV] += 0x10000000ull;
  assert_null(rl_bind_table_rebase(table, addresses, dests, &changed));
  assert_int_equal(rl_load_le(image + 8, 8),
                   addresses[RL_TEST_KV] + 0 * RL_TEST_ROW);
  const int64_t again = 7;
  assert_null(rl_bind_table_apply(table, &again, 1, dests, &changed));
  assert_int_equal(rl_load_le(image + 8, 8),
                   addresses[RL_TEST_KV] + 7 * RL_TEST_ROW);
  rl_bind_table_destroy(table);
  rl_step_infer_result_free(&result);
  rl_test_steps_free(&steps);
}

// `step_infer_test --write-steps DIR`: writes DIR/step0.rlc .. step3.rlc
// (pos 62..65, token 3) and DIR/step3_broken.rlc (n off by one) for the
// CLI test (tests/integration/infer_cli_test.sh), instead of testing.
static int rl_test_write_steps(const char* dir) {
  if (rl_test_group_setup(NULL) != 0) return 1;
  for (uint32_t k = 0; k < 5; ++k) {
    rl_test_step_t step = rl_test_pos_step(62 + (k < 4 ? k : 3), 3);
    step.scale_word = 0x40000000u;  // 2.0f: the rows hold 2 × in
    if (k == 4) step.n_word += 1;
    rl_capture_t* capture = rl_test_make_step(&step);
    char path[4096];
    if (k < 4) {
      snprintf(path, sizeof(path), "%s/step%u.rlc", dir, k);
    } else {
      snprintf(path, sizeof(path), "%s/step3_broken.rlc", dir);
    }
    rl_status_t status = rl_capture_file_write(capture, path, NULL);
    rl_capture_destroy(capture);
    if (status) {
      fprintf(stderr, "%s\n", rl_status_message(status));
      rl_status_free(status);
      return 1;
    }
  }
  rl_test_group_teardown(NULL);
  return 0;
}

// Route aql: the lowered program's patch table moves the KV pointer with
// pos (a bound pointer site), equal to rl_launch_bind, and the census
// (which decodes the packets and kernargs back) agrees at every step.
static void test_aql_route_applies_pointer_offset(void** state) {
  (void)state;
  rl_test_steps_t steps = {.count = 4};
  rl_step_infer_result_t result;
  rl_test_infer_pos_steps(&steps, &result);
  const rl_capture_t* c = result.capture;
  rl_hazard_plan_t* plan = NULL;
  assert_null(rl_hazard_plan_create(c, &plan));
  uint64_t buffers[RL_TEST_BUFFERS], kernels[1] = {0x0000a00000001000ull};
  for (uint32_t b = 0; b < RL_TEST_BUFFERS; ++b) {
    buffers[b] = 0x0000900000000000ull + 0x100000ull * b;
  }
  int64_t pos = 62;
  rl_aql_lower_inputs_t inputs = {
      .capture = c, .plan = plan, .buffer_addresses = buffers,
      .kernel_objects = kernels, .kernarg_address = 0x0000b00000000000ull,
      .completion_signal = 0x0000c00000000040ull, .param_values = &pos};
  rl_aql_program_t* program = NULL;
  assert_null(rl_aql_lower(&inputs, &program));
  assert_null(rl_aql_program_check(program, &inputs));
  const int64_t walk[3] = {200, 0, 255};
  for (int i = 0; i < 3; ++i) {
    pos = walk[i];
    uint32_t changed = 0;
    assert_null(rl_aql_program_apply(program, c, &pos, 1, buffers, NULL,
                                     &changed));
    assert_true(changed > 0);
    for (uint32_t l = 0; l < c->launch_count; ++l) {
      uint8_t bound[24];
      uint32_t grid[3];
      assert_null(rl_launch_bind(c, l, &pos, buffers, bound, grid));
      assert_memory_equal(program->kernarg + program->kernarg_offsets[l],
                          bound, 24);
    }
    assert_int_equal(
        rl_load_le(program->kernarg + program->kernarg_offsets[0] + 8, 8),
        buffers[RL_TEST_KV] + (uint64_t)pos * RL_TEST_ROW);
    assert_null(rl_aql_program_check(program, &inputs));
  }
  rl_aql_program_destroy(program);
  rl_hazard_plan_destroy(plan);
  rl_step_infer_result_free(&result);
  rl_test_steps_free(&steps);
}

int main(int argc, char** argv) {
  if (argc == 3 && strcmp(argv[1], "--write-steps") == 0) {
    return rl_test_write_steps(argv[2]);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_position_bindings_predict_new_positions),
      cmocka_unit_test(test_free_token_parameter),
      cmocka_unit_test(test_holdout_miss_is_refused),
      cmocka_unit_test(test_unexplained_variation_is_refused),
      cmocka_unit_test(test_file_round_trip),
      cmocka_unit_test(test_binding_ext_refusals),
      cmocka_unit_test(test_bind_table_applies_pointer_offset),
      cmocka_unit_test(test_aql_route_applies_pointer_offset),
  };
  return cmocka_run_group_tests(tests, rl_test_group_setup,
                                rl_test_group_teardown);
}
