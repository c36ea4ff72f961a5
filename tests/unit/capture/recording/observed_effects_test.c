// Tests of observed pointer effects (capture/recording/observed_effects.h): what a
// launch was observed to touch becomes the effect and extent of its
// UNKNOWN slots, by buffer, conservatively when two slots share a buffer,
// and the result survives the file format. Launches use vc_scale from the
// vecchain code object that rl_kernels builds.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_support.h"

#include "capture/recording/observed_effects.h"
#include "redline/capture.h"
#include "redline/capture_file.h"

#define RL_TEST_CODE_OBJECT RL_KERNELS_DIR "/vecchain-gfx1100.co"
#define RL_TEST_IN 0x10000ull   // buffer "in", 4096 bytes
#define RL_TEST_OUT 0x20000ull  // buffer "out", 4096 bytes

static void rl_test_store_u64(uint8_t* bytes, uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes[i] = (uint8_t)(value >> (8 * i));
}

// A capture with one launch of vc_scale(in_ptr, out_ptr, 2.0, 7) whose two
// pointer slots have |sources|.
static rl_capture_t* rl_test_capture(uint64_t in_ptr, uint64_t out_ptr,
                                     const rl_effect_source_t sources[2]) {
  rl_capture_t* capture = NULL;
  assert_null(rl_capture_create("observed", &capture));
  size_t size = 0;
  void* bytes = rl_test_read_file(RL_TEST_CODE_OBJECT, &size);
  uint32_t index = 0;
  assert_null(rl_capture_add_code_object(capture, bytes, size, &index));
  free(bytes);
  uint32_t kernel = 0;
  assert_null(rl_capture_add_kernel(capture, 0, "vc_scale", &kernel));
  const char* names[2] = {"in", "out"};
  const uint64_t bases[2] = {RL_TEST_IN, RL_TEST_OUT};
  for (uint32_t b = 0; b < 2; ++b) {
    rl_capture_buffer_t buffer = {.name = (char*)names[b], .size = 4096,
                                  .alignment = 256,
                                  .capture_address = bases[b]};
    assert_null(rl_capture_add_buffer(capture, &buffer, &index));
  }
  uint8_t kernarg[24] = {0};
  const uint64_t pointers[2] = {in_ptr, out_ptr};
  rl_pointer_slot_t slots[2];
  for (uint32_t s = 0; s < 2; ++s) {
    rl_test_store_u64(kernarg + 8 * s, pointers[s]);
    uint32_t buffer = pointers[s] >= RL_TEST_OUT ? 1 : 0;
    slots[s] = (rl_pointer_slot_t){
        .kernarg_offset = 8 * s, .buffer = buffer,
        .offset = pointers[s] - bases[buffer],
        .effect = sources[s] == RL_EFFECT_SOURCE_UNKNOWN
                      ? RL_EFFECT_READ_WRITE
                      : (s ? RL_EFFECT_WRITE : RL_EFFECT_READ),
        .source = sources[s], .extent_size = 4096};
  }
  kernarg[19] = 0x40;  // 2.0f
  kernarg[20] = 7;
  const rl_capture_launch_t launch = {
      .kernel = kernel, .grid = {16, 1, 1}, .block = {64, 1, 1},
      .kernarg_size = 24, .kernarg = kernarg, .slot_count = 2,
      .slots = slots};
  assert_null(rl_capture_add_launch(capture, &launch, &index));
  return capture;
}

static const rl_effect_source_t rl_test_unknown[2] = {
    RL_EFFECT_SOURCE_UNKNOWN, RL_EFFECT_SOURCE_UNKNOWN};

static void rl_test_expect_slot(const rl_pointer_slot_t* slot,
                                rl_effect_t effect, uint64_t offset,
                                uint64_t size) {
  assert_int_equal(slot->source, RL_EFFECT_SOURCE_OBSERVED);
  assert_int_equal(slot->effect, effect);
  assert_int_equal(slot->extent_offset, offset);
  assert_int_equal(slot->extent_size, size);
}

// Reads and writes become the slots' effects; each extent is the hull of
// the touched bytes of its buffer, clipped to it; bytes outside every
// buffer change nothing.
static void test_observed_ranges_become_effects(void** state) {
  (void)state;
  rl_capture_t* capture = rl_test_capture(RL_TEST_IN, RL_TEST_OUT,
                                          rl_test_unknown);
  const rl_hip_observed_range_t reads[] = {
      {RL_TEST_IN + 0x10, RL_TEST_IN + 0x20},
      {RL_TEST_IN + 0x100, RL_TEST_IN + 0x110},
      {0x5000, 0x6000}};  // no buffer: the kernarg segment, say
  const rl_hip_observed_range_t writes[] = {
      {RL_TEST_OUT + 4000, RL_TEST_OUT + 8192}};  // runs past "out"
  const rl_hip_observed_t observed = {3, 1, reads, writes, NULL};
  uint32_t changed = 0;
  assert_null(rl_observed_effects_apply(capture, 0, &observed, &changed));
  assert_int_equal(changed, 2);
  rl_test_expect_slot(&capture->launches[0].slots[0], RL_EFFECT_READ, 0x10,
                      0x100);
  rl_test_expect_slot(&capture->launches[0].slots[1], RL_EFFECT_WRITE, 4000,
                      96);
  assert_null(rl_capture_validate(capture));
  rl_capture_destroy(capture);
}

// Two slots into one buffer cannot be told apart: both get everything
// observed there, both directions and the one hull.
static void test_shared_buffer_is_conservative(void** state) {
  (void)state;
  rl_capture_t* capture = rl_test_capture(RL_TEST_IN, RL_TEST_IN + 0x800,
                                          rl_test_unknown);
  const rl_hip_observed_range_t reads[] = {{RL_TEST_IN, RL_TEST_IN + 16}};
  const rl_hip_observed_range_t writes[] = {
      {RL_TEST_IN + 0x800, RL_TEST_IN + 0x810}};
  const rl_hip_observed_t observed = {1, 1, reads, writes, NULL};
  assert_null(rl_observed_effects_apply(capture, 0, &observed, NULL));
  for (uint32_t s = 0; s < 2; ++s) {
    rl_test_expect_slot(&capture->launches[0].slots[s], RL_EFFECT_READ_WRITE,
                        0, 0x810);
  }
  rl_capture_destroy(capture);
}

// A slot whose buffer was not touched has no effect and an empty extent at
// its pointer; a slot the metadata typed is left alone.
static void test_untouched_and_typed_slots(void** state) {
  (void)state;
  const rl_effect_source_t sources[2] = {RL_EFFECT_SOURCE_METADATA,
                                         RL_EFFECT_SOURCE_UNKNOWN};
  rl_capture_t* capture = rl_test_capture(RL_TEST_IN, RL_TEST_OUT + 64,
                                          sources);
  const rl_hip_observed_range_t reads[] = {{RL_TEST_IN, RL_TEST_IN + 64}};
  const rl_hip_observed_t observed = {1, 0, reads, NULL, NULL};
  uint32_t changed = 0;
  assert_null(rl_observed_effects_apply(capture, 0, &observed, &changed));
  assert_int_equal(changed, 1);
  const rl_pointer_slot_t* typed = &capture->launches[0].slots[0];
  assert_int_equal(typed->source, RL_EFFECT_SOURCE_METADATA);
  assert_int_equal(typed->extent_size, 4096);
  rl_test_expect_slot(&capture->launches[0].slots[1], RL_EFFECT_NONE, 64, 0);
  assert_null(rl_capture_validate(capture));
  rl_capture_destroy(capture);
}

// Bad input fails and changes nothing.
static void test_bad_input_changes_nothing(void** state) {
  (void)state;
  rl_capture_t* capture = rl_test_capture(RL_TEST_IN, RL_TEST_OUT,
                                          rl_test_unknown);
  const rl_hip_observed_range_t bad[] = {{RL_TEST_IN + 8, RL_TEST_IN + 0},
                                         {RL_TEST_IN, RL_TEST_IN + 8}};
  const rl_hip_observed_t observed = {0, 2, NULL, bad, NULL};
  rl_status_t status = rl_observed_effects_apply(capture, 0, &observed, NULL);
  assert_non_null(status);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_non_null(strstr(rl_status_message(status), "ends before it begins"));
  rl_status_free(status);
  status = rl_observed_effects_apply(capture, 1, &observed, NULL);
  assert_non_null(status);
  assert_non_null(strstr(rl_status_message(status), "launch 1 of 1"));
  rl_status_free(status);
  for (uint32_t s = 0; s < 2; ++s) {
    assert_int_equal(capture->launches[0].slots[s].source,
                     RL_EFFECT_SOURCE_UNKNOWN);
  }
  rl_capture_destroy(capture);
}

// The source and the narrowed extents survive a write and a read, and the
// source is spelled "observed".
static void test_observed_survives_the_file(void** state) {
  (void)state;
  rl_capture_t* capture = rl_test_capture(RL_TEST_IN, RL_TEST_OUT,
                                          rl_test_unknown);
  const rl_hip_observed_range_t reads[] = {{RL_TEST_IN + 8, RL_TEST_IN + 24}};
  const rl_hip_observed_t observed = {1, 0, reads, NULL, NULL};
  assert_null(rl_observed_effects_apply(capture, 0, &observed, NULL));
  uint8_t* bytes = NULL;
  size_t size = 0;
  assert_null(rl_capture_file_encode(capture, NULL, &bytes, &size));
  rl_capture_t* read = NULL;
  assert_null(rl_capture_file_read_memory(bytes, size, &read, NULL));
  rl_test_expect_slot(&read->launches[0].slots[0], RL_EFFECT_READ, 8, 16);
  rl_test_expect_slot(&read->launches[0].slots[1], RL_EFFECT_NONE, 0, 0);
  assert_string_equal(rl_effect_source_name(RL_EFFECT_SOURCE_OBSERVED),
                      "observed");
  free(bytes);
  rl_capture_destroy(read);
  rl_capture_destroy(capture);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_observed_ranges_become_effects),
      cmocka_unit_test(test_shared_buffer_is_conservative),
      cmocka_unit_test(test_untouched_and_typed_slots),
      cmocka_unit_test(test_bad_input_changes_nothing),
      cmocka_unit_test(test_observed_survives_the_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
