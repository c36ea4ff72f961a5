// capture/interposer/interposer_steps.c — step capture and the survey
// (capture/interposer/interposer_internal.h; docs/capture-interposer.md,
// "Step capture").
//
// REDLINE_CAPTURE_STEPS=K records K steps after REDLINE_CAPTURE_SKIP_STEPS
// (default 0). A step starts at each launch of REDLINE_CAPTURE_STEP_START
// (the window is then that kernel's launches M .. M+K-1 and what follows
// each), or every REDLINE_CAPTURE_STEP_PERIOD items of an items: window
// that `redline run` computed from a survey. With
// REDLINE_CAPTURE_VERIFY_STEPS=N the program's state after each of the K
// steps and N more (every buffer step 0 writes, XXH3-128) goes into the
// capture's PROGRAM_STATE (rl_ip_steps_item). REDLINE_CAPTURE_SURVEY=PATH
// records nothing and writes, one per line in call order, the signature
// (capture/recording/step_split.h) of every item an items: window counts.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "capture/recording/step_infer.h"
#include "capture/recording/step_split.h"
#include "base/array.h"
#include "base/number.h"
#include "base/output_file.h"
#include "redline/digest.h"

// A number variable of the environment in [min, max]; |fallback| unset.
static bool rl_ip_env_u64(const char* name, uint64_t min, uint64_t max,
                          uint64_t fallback, uint64_t* out) {
  const char* text = getenv(name);
  *out = fallback;
  if (!text || !text[0]) return true;
  rl_status_t status = rl_number_parse_u64(text, out);
  if (!status && *out >= min && *out <= max) return true;
  rl_status_free(status);
  fprintf(stderr, "redline_capture: %s='%s' is not a number in [%llu, %llu] "
          "(not capturing)\n", name, text, (unsigned long long)min,
          (unsigned long long)max);
  return false;
}

bool rl_ip_steps_setup(rl_interposer_t* ip) {
  const char* survey = getenv("REDLINE_CAPTURE_SURVEY");
  if (survey && survey[0]) {
    snprintf(ip->survey, sizeof(ip->survey), "%s", survey);
    ip->marker = ip->items = false;
    ip->first = UINT64_MAX;  // the window never opens
    return true;
  }
  uint64_t steps = 0, period = 0;
  if (!rl_ip_env_u64("REDLINE_CAPTURE_STEPS", 2, 4096, 0, &steps) ||
      !rl_ip_env_u64("REDLINE_CAPTURE_SKIP_STEPS", 0, UINT32_MAX, 0,
                     &ip->skip_steps) ||
      !rl_ip_env_u64("REDLINE_CAPTURE_STEP_PERIOD", 1, UINT32_MAX, 0,
                     &period)) {
    rl_ip_report(ip, "failed bad step variables (see stderr)");
    return false;
  }
  ip->steps = (uint32_t)steps;
  ip->step_period = (uint32_t)period;
  const char* verify = getenv("REDLINE_CAPTURE_VERIFY_STEPS");
  uint64_t more = 0;
  if (verify && verify[0]) {
    if (!rl_ip_env_u64("REDLINE_CAPTURE_VERIFY_STEPS", 0, 4096, 0, &more) ||
        !steps) {
      rl_ip_report(ip, "failed REDLINE_CAPTURE_VERIFY_STEPS='%s' (a number "
                   "up to 4096, with REDLINE_CAPTURE_STEPS)", verify);
      return false;
    }
    ip->verify = true;
    ip->verify_steps = (uint32_t)more;
  }
  if (!steps) return true;
  const char* start = getenv("REDLINE_CAPTURE_STEP_START");
  if (start && start[0]) {
    snprintf(ip->step_start, sizeof(ip->step_start), "%s", start);
    ip->marker = true;
    ip->items = false;
    snprintf(ip->marker_name, sizeof(ip->marker_name), "%s", start);
    ip->first = ip->skip_steps;
    ip->marker_count = steps + ip->verify_steps;
    return true;
  }
  if (!period || !ip->items) {
    fprintf(stderr, "redline_capture: REDLINE_CAPTURE_STEPS needs "
            "REDLINE_CAPTURE_STEP_START, or REDLINE_CAPTURE_STEP_PERIOD with "
            "an items: window (not capturing)\n");
    rl_ip_report(ip, "failed REDLINE_CAPTURE_STEPS without a step start");
    return false;
  }
  return true;
}

void rl_ip_survey_add(rl_interposer_t* ip, uint64_t signature) {
  if (!ip->survey[0] || !rl_ip_recording(ip)) return;
  if (RL_ARRAY_RESERVE(&ip->survey_items, &ip->survey_capacity,
                       ip->survey_count + 1)) {
    ip->survey[0] = '\0';  // said at write-out: the survey is lost
    return;
  }
  ip->survey_items[ip->survey_count++] = signature;
}

void rl_ip_survey_begin(rl_interposer_t* ip) {
  if (!ip->survey[0]) return;
  if (RL_ARRAY_RESERVE(&ip->survey_begins, &ip->survey_begin_capacity,
                       ip->survey_begin_count + 1)) {
    return;  // the begins after it are lost: the plan sees fewer steps
  }
  ip->survey_begins[ip->survey_begin_count++] = ip->survey_count;
}

void rl_ip_survey_write(rl_interposer_t* ip) {
  ip->written = true;
  size_t size = (size_t)ip->survey_count * 17u +
                (size_t)ip->survey_begin_count * 5u + 1;
  char* text = malloc(size);
  rl_status_t status = RL_OK;
  if (!text) {
    status = RL_STATUS(RL_STATUS_OUT_OF_MEMORY, "survey of %u items",
                       ip->survey_count);
  } else {
    size_t length = 0;
    uint32_t begin = 0;
    for (uint32_t i = 0; i <= ip->survey_count; ++i) {
      while (begin < ip->survey_begin_count &&
             ip->survey_begins[begin] == i) {
        length += (size_t)snprintf(text + length, size - length, "step\n");
        ++begin;
      }
      if (i == ip->survey_count) break;
      length += (size_t)snprintf(text + length, size - length, "%016llx\n",
                                 (unsigned long long)ip->survey_items[i]);
    }
    status = rl_output_file_write(ip->survey, text, length);
  }
  free(text);
  free(ip->survey_items);
  free(ip->survey_begins);
  ip->survey_items = NULL;
  ip->survey_begins = NULL;
  if (status) {
    rl_ip_report(ip, "failed survey: %s", rl_status_message(status));
    rl_ip_fail(status, "writing the survey");
    return;
  }
  rl_ip_report(ip, "survey %u", ip->survey_count);
}

// The steps recorded: K, and N more with --verify-steps N (they are
// recorded too, so inference gives their free parameters' values).
static uint32_t rl_ip_steps_total(const rl_interposer_t* ip) {
  return ip->steps + (ip->verify ? ip->verify_steps : 0);
}

// Where each step starts in |whole|'s launches; a refusal when the window
// did not hold K whole steps.
static rl_status_t rl_ip_step_starts(const rl_interposer_t* ip,
                                     const rl_capture_t* whole,
                                     uint32_t* starts) {
  const uint32_t total = rl_ip_steps_total(ip);
  uint32_t found = 0;
  if (ip->step_period) {
    for (; found < total; ++found) starts[found] = found * ip->step_period;
    uint64_t expected = (uint64_t)total * ip->step_period;
    if (whole->launch_count != expected) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "the window holds %u launches, copies and fills, "
                       "not %u steps of %u (the program ended early, or "
                       "ran differently than in the survey)",
                       whole->launch_count, total, ip->step_period);
    }
    return RL_OK;
  }
  for (uint32_t l = 0; l < whole->launch_count; ++l) {
    const char* name = whole->kernels[whole->launches[l].kernel].name;
    if (strcmp(name, ip->step_start) != 0) continue;
    if (found == total) break;
    starts[found++] = l;
  }
  if (found < total || starts[0] != 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "%u of %u steps recorded: the program launched %s "
                     "fewer than %llu times",
                     found, total, ip->step_start,
                     (unsigned long long)(ip->skip_steps + total));
  }
  return RL_OK;
}

// Declares a window walking parameter |param| over |count| positions from
// the first step's.
static rl_status_t rl_ip_steps_window(const rl_interposer_t* ip,
                                      rl_capture_t* capture, uint32_t param,
                                      uint32_t count) {
  uint32_t window = 0;
  const rl_capture_window_t walk = {.param = param,
                                    .start = (int64_t)ip->skip_steps,
                                    .count = count,
                                    .stride = 1};
  return rl_capture_add_window(capture, &walk, &window);
}

// Without bindings: the first step with parameter "pos" (its ordinal in
// the program's run) admitted and walked at that value only.
static rl_status_t rl_ip_steps_first(const rl_interposer_t* ip,
                                     rl_capture_t* step) {
  const int64_t pos = (int64_t)ip->skip_steps;
  const rl_capture_param_t param = {
      .name = "pos", .min = pos, .max = pos + 1, .capture_value = pos};
  uint32_t index = 0;
  RL_RETURN_IF_ERROR(rl_capture_add_param(step, &param, &index));
  return rl_ip_steps_window(ip, step, index, 1);
}

// The free parameters' value at each captured step, one line each
// ("free0 per step: 40 8 25 42").
static void rl_ip_steps_print_values(const rl_step_infer_result_t* result) {
  for (uint32_t p = 0; p < result->param_count; ++p) {
    if (p == result->position_param) continue;
    fprintf(stderr, "redline_capture: %s per step:",
            result->capture->params[p].name);
    for (uint32_t k = 0; k < result->step_count; ++k) {
      fprintf(stderr, " %lld",
              (long long)result->values[(size_t)k * result->param_count + p]);
    }
    fprintf(stderr, "\n");
  }
}

// Binding inference over the K steps (capture/recording/step_infer.h): the merged
// capture, walked over the captured positions it admits, into *|out|.
// When no expression explains some variation, *|out| stays NULL and |why|
// says what (the caller writes the first step, marked incomplete).
static rl_status_t rl_ip_steps_infer(const rl_interposer_t* ip,
                                     rl_capture_t** steps, rl_capture_t** out,
                                     char* why, size_t why_size) {
  *out = NULL;
  int64_t* positions = calloc(ip->steps, sizeof(*positions));
  if (!positions) return rl_status_out_of_memory();
  for (uint32_t k = 0; k < ip->steps; ++k) {
    positions[k] = (int64_t)ip->skip_steps + k;
  }
  const rl_step_infer_options_t options = {.positions = positions};
  rl_step_infer_result_t result = {0};
  rl_status_t status = rl_step_infer(steps, ip->steps, &options, &result);
  free(positions);
  if (status) {
    snprintf(why, why_size, "binding inference: %s",
             rl_status_message(status));
    rl_status_free(status);
    return RL_OK;
  }
  if (!rl_ip_annotate_apply(ip->skip_steps, &result, false, why,
                            why_size)) {
    rl_step_infer_result_free(&result);
    return RL_OK;  // incomplete: |why| names the declared parameter
  }
  // The window: inference's own (the next positions, never captured)
  // unless the program's state was recorded; then the recorded positions
  // from the first, which the shadow compares with the program's.
  const rl_capture_param_t* pos =
      &result.capture->params[result.position_param];
  const int64_t first = (int64_t)ip->skip_steps;
  const int64_t end = first + rl_ip_steps_total(ip);
  const rl_capture_window_t walk = {
      .param = result.position_param, .start = first,
      .count = (uint32_t)((end < pos->max ? end : pos->max) - first),
      .stride = 1};
  if (ip->verify && result.capture->window_count) {
    result.capture->windows[0] = walk;
  } else if (!result.capture->window_count) {
    status = rl_ip_steps_window(ip, result.capture, walk.param, walk.count);
  }
  if (!status) {
    fprintf(stderr, "redline_capture: %s\nredline_capture: %s\n",
            result.message, result.holdout_line);
    rl_ip_steps_print_values(&result);
    *out = result.capture;
    result.capture = NULL;
  }
  rl_step_infer_result_free(&result);
  return status;
}

// With --verify-steps: the free parameters' values at every recorded step
// (inference over all K + N steps) into |merged|'s program parameters, by
// name. Nothing when that inference fails (said on stderr).
static rl_status_t rl_ip_steps_values(const rl_interposer_t* ip,
                                      rl_capture_t** steps,
                                      rl_capture_t* merged) {
  const uint32_t total = rl_ip_steps_total(ip);
  int64_t* positions = calloc(total, sizeof(*positions));
  if (!positions) return rl_status_out_of_memory();
  for (uint32_t k = 0; k < total; ++k) {
    positions[k] = (int64_t)ip->skip_steps + k;
  }
  const rl_step_infer_options_t options = {.positions = positions,
                                           .allow_holdout_miss = true};
  rl_step_infer_result_t all = {0};
  rl_status_t status = rl_step_infer(steps, total, &options, &all);
  free(positions);
  if (status) {
    fprintf(stderr, "redline_capture: no parameter values for the verified "
            "steps: %s\n", rl_status_message(status));
    rl_status_free(status);
    return RL_OK;
  }
  char why[256];
  (void)rl_ip_annotate_apply(ip->skip_steps, &all, true, why, sizeof(why));
  for (uint32_t k = 0; !status && k < total; ++k) {
    for (uint32_t q = 0; !status && q < merged->param_count; ++q) {
      uint32_t p = 0;
      if (!rl_capture_find_param(all.capture, merged->params[q].name, &p) ||
          p == all.position_param) {
        continue;
      }
      const rl_capture_program_param_t value = {
          .pos = (int64_t)ip->skip_steps + k, .param = q,
          .value = all.values[(size_t)k * all.param_count + p]};
      status = rl_capture_add_program_param(merged, &value);
    }
  }
  rl_step_infer_result_free(&all);
  return status;
}

rl_status_t rl_ip_steps_finish(rl_interposer_t* ip, rl_capture_t** capture) {
  const uint32_t total = rl_ip_steps_total(ip);
  uint32_t* starts = calloc(total, sizeof(*starts));
  rl_capture_t** steps = calloc(total, sizeof(*steps));
  rl_status_t status =
      starts && steps ? RL_OK
                      : RL_STATUS(RL_STATUS_OUT_OF_MEMORY, "%u steps",
                                  total);
  if (!status) status = rl_ip_step_starts(ip, *capture, starts);
  if (!status) status = rl_step_split(*capture, starts, total, steps);
  if (!status) status = rl_step_compare(steps, total);
  rl_capture_t* merged = NULL;
  char why[1024] = "";
  if (!status) status = rl_ip_steps_infer(ip, steps, &merged, why, sizeof(why));
  if (!status && merged && ip->verify && total >= 2) {
    status = rl_ip_steps_values(ip, steps, merged);
  }
  if (!status && !merged) {  // inference refused: step 0, incomplete
    status = rl_ip_steps_first(ip, steps[0]);
    if (!status) status = rl_capture_mark_incomplete(steps[0], 0, why);
    merged = steps[0];
    steps[0] = NULL;
  }
  if (!status && rl_capture_incomplete(*capture)) {
    status = rl_capture_mark_incomplete(merged, (*capture)->bypassed_launches,
                                        (*capture)->incomplete_reason);
  }
  if (!status) {
    rl_capture_destroy(*capture);
    *capture = merged;
    merged = NULL;
  }
  rl_capture_destroy(merged);
  if (steps) rl_step_destroy(steps, total);
  free(steps);
  free(starts);
  return status;
}

//===----------------------------------------------------------------------===//
// The program's state after each step (--verify-steps)
//===----------------------------------------------------------------------===//

// The buffers step 0 writes (a pointer slot with a write effect), from the
// launches recorded so far: at the end of step 0 they are its launches.
static bool rl_ip_steps_writes(rl_interposer_t* ip) {
  if (ip->writes) return true;
  const rl_capture_t* c = rl_funnel_capture(ip->funnel);
  ip->writes = calloc(c->buffer_count ? c->buffer_count : 1, 1);
  if (!ip->writes) return false;
  ip->writes_count = c->buffer_count;
  for (uint32_t l = 0; l < c->launch_count; ++l) {
    for (uint32_t s = 0; s < c->launches[l].slot_count; ++s) {
      const rl_pointer_slot_t* slot = &c->launches[l].slots[s];
      if (slot->effect & RL_EFFECT_WRITE) ip->writes[slot->buffer] = 1;
    }
  }
  return true;
}

// Hashes every buffer step 0 writes as the program left it after the step
// at |pos| (the device synchronised first).
static rl_status_t rl_ip_steps_hash(rl_interposer_t* ip, int64_t pos) {
  RL_IP_REAL(hipDeviceSynchronize);
  RL_IP_REAL(hipMemcpy);
  if (!rl_ip_steps_writes(ip)) return rl_status_out_of_memory();
  if (!real_hipDeviceSynchronize || !real_hipMemcpy ||
      real_hipDeviceSynchronize() != hipSuccess) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "the device did not synchronise after step %lld",
                     (long long)pos);
  }
  const rl_capture_t* c = rl_funnel_capture(ip->funnel);
  for (uint32_t b = 0; b < ip->writes_count; ++b) {
    const rl_capture_buffer_t* buffer = &c->buffers[b];
    if (!ip->writes[b] || rl_capture_buffer_is_variable(buffer)) continue;
    uint8_t* bytes = malloc(buffer->size ? buffer->size : 1);
    if (!bytes) return rl_status_out_of_memory();
    hipError_t error = real_hipMemcpy(
        bytes, (const void*)(uintptr_t)buffer->capture_address, buffer->size,
        hipMemcpyDeviceToHost);
    rl_capture_program_state_t state = {
        .pos = pos, .region = b,
        .digest = rl_digest128_of(bytes, buffer->size)};
    free(bytes);
    if (error != hipSuccess) {
      return RL_STATUS(RL_STATUS_UNAVAILABLE, "reading %s after step %lld: "
                       "error %d", buffer->name, (long long)pos, (int)error);
    }
    RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&ip->states, &ip->state_capacity,
                                        ip->state_count + 1));
    ip->states[ip->state_count++] = state;
  }
  return RL_OK;
}

// The number of steps that ended with this item (0: not a step start, or
// the first), counted from step M.
static uint64_t rl_ip_steps_boundary(rl_interposer_t* ip,
                                     const rl_ip_function_t* f) {
  if (ip->step_period) {
    uint64_t index = ip->items_seen++;
    if (index <= ip->first || (index - ip->first) % ip->step_period) return 0;
    return (index - ip->first) / ip->step_period;
  }
  if (!f || strcmp(f->info->name, ip->step_start) != 0) return 0;
  uint64_t hit = ip->starts_seen++;
  return hit > ip->skip_steps ? hit - ip->skip_steps : 0;
}

void rl_ip_steps_item(rl_interposer_t* ip, const rl_ip_function_t* f) {
  if (!ip->steps || !ip->funnel || ip->survey[0]) return;
  uint64_t ended = rl_ip_steps_boundary(ip, f);
  const uint64_t total = (uint64_t)ip->steps + ip->verify_steps;
  if (!ip->verify || !ended || ended != (uint64_t)ip->steps_ended + 1 ||
      ip->steps_ended >= total) {
    return;
  }
  rl_status_t status =
      rl_ip_steps_hash(ip, (int64_t)(ip->skip_steps + ip->steps_ended));
  if (status) {
    rl_ip_fail(status, "hashing the program's state");
    ip->verify = false;  // the hashes so far are kept
    if (ip->holding) rl_ip_write_capture_locked(ip);
    return;
  }
  if (++ip->steps_ended == total && ip->holding) {
    rl_ip_write_capture_locked(ip);
  }
}

bool rl_ip_steps_hold(rl_interposer_t* ip) {
  ip->holding = ip->steps && ip->verify &&
                ip->steps_ended < (uint64_t)ip->steps + ip->verify_steps;
  return ip->holding;
}

rl_status_t rl_ip_steps_states(rl_interposer_t* ip, rl_capture_t* capture) {
  rl_status_t status = RL_OK;
  for (uint32_t i = 0; !status && i < ip->state_count; ++i) {
    rl_capture_program_state_t state = ip->states[i];
    uint32_t buffer = state.region;
    state.region = UINT32_MAX;
    for (uint32_t r = 0; r < capture->region_count; ++r) {
      const rl_capture_region_t* region = &capture->regions[r];
      if (region->buffer == buffer && region->offset == 0 &&
          region->size == capture->buffers[buffer].size) {
        state.region = r;
        break;
      }
    }
    if (state.region != UINT32_MAX) {
      status = rl_capture_add_program_state(capture, &state);
    }
  }
  free(ip->states);
  free(ip->writes);
  ip->states = NULL;
  ip->writes = NULL;
  ip->state_count = ip->state_capacity = ip->writes_count = 0;
  return status;
}
