// The window walk of a shadow run (shadow/shadow_run_internal.h): after
// every window each arm's regions are read and compared with the
// reference arm's, and the reference with the program's recorded state;
// the negative control corrupts its arm after the first window.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shadow/shadow_arm.h"
#include "shadow/shadow_compare.h"
#include "shadow/shadow_program.h"
#include "shadow/shadow_run_internal.h"

static void rl_shadow_note_divergence(rl_shadow_run_t* run, uint32_t w,
                                      uint32_t r, uint32_t a,
                                      const rl_shadow_cell_t* cell) {
  rl_shadow_result_t* result = run->result;
  if (result->diverged) return;
  result->diverged = true;
  result->first_window = w;
  result->first_region = r;
  result->first_arm = a;
  result->first_offset = cell->first_difference;
  // Both values of the element holding the first differing byte, for the
  // report (the region bytes are not kept).
  const rl_capture_region_t* region = &run->capture->regions[r];
  uint32_t size = region->type == RL_REGION_BYTES ? 1
                  : region->type == RL_REGION_F16 ||
                          region->type == RL_REGION_BF16
                      ? 2
                      : 4;
  uint64_t offset = cell->first_difference - cell->first_difference % size;
  if (offset + size > region->size) {  // a trailing partial element
    size = 1;
    offset = cell->first_difference;
  }
  result->first_element_size = size;
  result->first_element_offset = offset;
  memcpy(result->first_reference_value, run->reference_bytes + offset, size);
  memcpy(result->first_arm_value, run->candidate_bytes + offset, size);
}

// Reads region |r| of arm |a| into |bytes| and fills its cell's digest;
// a read failure fails the arm.
static bool rl_shadow_read(rl_shadow_run_t* run, uint32_t w, uint32_t r,
                           uint32_t a, uint8_t* bytes) {
  const rl_capture_region_t* region = &run->capture->regions[r];
  rl_shadow_cell_t* cell =
      (rl_shadow_cell_t*)rl_shadow_result_cell(run->result, w, r, a);
  rl_status_t status =
      run->arms[a]->vtable->read_region(run->arms[a], r, bytes, region->size);
  if (status) {
    rl_shadow_fail_arm(run, a, rl_status_annotate(status, "reading region %s",
                                                  region->name),
                       NULL, w, rl_shadow_window_value(&run->result->window, w));
    return false;
  }
  cell->present = true;
  cell->digest = rl_digest128_of(bytes, (size_t)region->size);
  if (region->size <= RL_SHADOW_CELL_SMALL) {
    memcpy(cell->small, bytes, (size_t)region->size);
    cell->small_size = (uint32_t)region->size;
  }
  return true;
}

static void rl_shadow_compare_region(rl_shadow_run_t* run, uint32_t w,
                                     uint32_t r) {
  rl_shadow_result_t* result = run->result;
  const rl_capture_region_t* region = &run->capture->regions[r];
  uint32_t ref = result->reference;
  if (!run->arms[ref] || !rl_shadow_read(run, w, r, ref, run->reference_bytes)) {
    return;
  }
  ((rl_shadow_cell_t*)rl_shadow_result_cell(result, w, r, ref))->equal = true;
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    if (a == ref || !run->arms[a]) continue;
    if (!rl_shadow_read(run, w, r, a, run->candidate_bytes)) continue;
    rl_shadow_cell_t* cell =
        (rl_shadow_cell_t*)rl_shadow_result_cell(result, w, r, a);
    rl_shadow_diff_t diff;
    rl_shadow_compare(region->type, run->reference_bytes, run->candidate_bytes,
                      region->size, &diff);
    cell->equal = diff.equal;
    cell->first_difference = diff.first_difference;
    cell->differing_bytes = diff.differing_bytes;
    cell->has_max_abs = diff.has_max_abs;
    cell->max_abs_difference = diff.max_abs_difference;
    if (!diff.equal) {
      result->arms[a].diverged = true;
      rl_shadow_note_divergence(run, w, r, a, cell);
    }
  }
}

// The reference arm's region |r| after window |w| against the program's
// recorded state at that position (shadow/shadow_program.h).
static bool rl_shadow_program_check(rl_shadow_run_t* run, uint32_t w,
                                    uint32_t r) {
  rl_shadow_result_t* result = run->result;
  rl_digest128_t expected;
  if (result->param == UINT32_MAX ||
      !rl_shadow_program_digest(
          run->capture, rl_shadow_window_value(&result->window, w), r,
          &expected)) {
    return false;
  }
  const rl_shadow_cell_t* cell =
      rl_shadow_result_cell(result, w, r, result->reference);
  if (!cell->present) return false;
  ++result->program_checked;
  if (!rl_digest128_equal(cell->digest, expected) &&
      !result->program_mismatch) {
    result->program_mismatch = true;
    result->program_window = w;
    result->program_region = r;
    result->program_expected = expected;
    result->program_got = cell->digest;
  }
  return true;
}

// The negative control, after the first window ran and before it is read.
static void rl_shadow_apply_flip(rl_shadow_run_t* run) {
  rl_shadow_result_t* result = run->result;
  uint32_t a = result->flip_arm;
  if (!run->arms[a]) return;
  rl_status_t status = rl_shadow_arm_corrupt(
      run->arms[a], run->options->flip_region, run->options->flip_offset);
  if (status) {
    rl_shadow_fail_arm(run, a, status, "negative control: ", -1, 0);
    return;
  }
  result->flip = true;
  result->flip_region = run->options->flip_region;
  result->flip_offset = run->options->flip_offset;
}

void rl_shadow_walk(rl_shadow_run_t* run) {
  rl_shadow_result_t* result = run->result;
  for (uint32_t w = 0; w < result->window.count; ++w) {
    rl_shadow_step_arms(run, w);
    if (w == 0 && run->options->flip) rl_shadow_apply_flip(run);
    bool program = false;
    for (uint32_t r = 0; r < result->region_count; ++r) {
      rl_shadow_compare_region(run, w, r);
      program |= rl_shadow_program_check(run, w, r);
    }
    if (program) ++result->program_windows;
    result->window_count = w + 1;
  }
}
