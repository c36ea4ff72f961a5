// decode_product: the product path of a step capture (docs/real-engines.md,
// "From a step capture to a product replay"), using only the public API
// (redline/capture_file.h, capture.h, replay.h, digest.h) and linked
// against libredline.so.
//
// The capture comes from `redline run --steps K --verify-steps N` of an
// unmodified program (the CI corpus program decode): one step with its
// parameter pos, its free parameters (the token) and the program's own
// state after each step (the PROGRAM_STATE section: per position the
// XXH3-128 of every state region and the free parameters' values).
//
//   1. read the capture (rl_capture_file_read);
//   2. open the simulated device for the capture's processor, with the ISA
//      executor (the capture's kernels are the program's machine code);
//   3. create, contract and prepare one replay (route aql);
//   4. walk the recorded positions in order: per position feed pos and the
//      values the program had for the free parameters there, admit, run,
//      read back every state region's XXH3-128 and compare it with the
//      program's; one line per position;
//   5. print a verdict: PASS when every region matched at every position
//      and at least |min_new| positions other than the captured one were
//      compared.
//
// Usage: decode_product CAPTURE [--min-new N] [--wrong-token POS]
//   --min-new N        positions besides the captured one (default 8)
//   --wrong-token POS  negative control: feed each free parameter + 1 at
//                      POS (the replay must then differ there)
// Exit: 0 PASS; 1 a mismatch (or fewer positions than --min-new);
// 2 usage; 3 an error of the library (unreadable capture, refused replay).
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/capture.h"
#include "redline/capture_file.h"
#include "redline/digest.h"
#include "redline/replay.h"

enum { RL_EXAMPLE_MAX_PARAMS = 16 };

typedef struct rl_example_s {
  const rl_capture_t* capture;
  rl_replay_t* replay;
  uint32_t pos_param;
  int64_t wrong_token_pos;  // INT64_MIN: none
  bool has_wrong_token;
} rl_example_t;

// The parameter named "pos", or UINT32_MAX.
static uint32_t rl_example_find_pos(const rl_capture_t* capture) {
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    if (strcmp(capture->params[i].name, "pos") == 0) return i;
  }
  return UINT32_MAX;
}

// The values of every parameter at |pos|: pos itself, the program's
// recorded value of each other one. False (naming it) when the capture
// does not record a parameter's value there.
static bool rl_example_values(const rl_example_t* example, int64_t pos,
                              int64_t* values) {
  const rl_capture_t* capture = example->capture;
  bool set[RL_EXAMPLE_MAX_PARAMS] = {false};
  values[example->pos_param] = pos;
  set[example->pos_param] = true;
  for (uint32_t i = 0; i < capture->program_param_count; ++i) {
    const rl_capture_program_param_t* value = &capture->program_params[i];
    if (value->pos != pos || value->param >= capture->param_count) continue;
    values[value->param] = value->value;
    if (example->has_wrong_token && pos == example->wrong_token_pos) {
      values[value->param] += 1;
    }
    set[value->param] = true;
  }
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    if (!set[i]) {
      printf("pos %3" PRId64 ": the capture records no value of %s here\n",
             pos, capture->params[i].name);
      return false;
    }
  }
  return true;
}

// Replays the step at |pos| and compares the state regions the program
// recorded there. Returns 0 (equal), 1 (mismatch) or 3 (library error).
static int rl_example_step(rl_example_t* example, int64_t pos) {
  const rl_capture_t* capture = example->capture;
  int64_t values[RL_EXAMPLE_MAX_PARAMS];
  if (!rl_example_values(example, pos, values)) return 1;
  rl_admission_t admission;
  rl_status_t status =
      rl_replay_admit(example->replay, values, capture->param_count, &admission);
  if (!status && !admission.admitted) {
    printf("pos %3" PRId64 ": not admitted (%s)\n", pos, admission.reason);
    return 1;
  }
  if (!status) status = rl_replay_run(example->replay, values, capture->param_count);
  if (status) {
    printf("pos %3" PRId64 ": replay failed: %s\n", pos,
           rl_status_message(status));
    rl_status_free(status);
    return 3;
  }
  uint32_t compared = 0, differing = 0;
  const char* first = NULL;
  for (uint32_t i = 0; i < capture->program_state_count; ++i) {
    const rl_capture_program_state_t* state = &capture->program_states[i];
    if (state->pos != pos) continue;
    rl_digest128_t digest;
    status = rl_replay_read_region(example->replay, state->region, NULL, 0,
                                   &digest);
    if (status) {
      printf("pos %3" PRId64 ": reading region %u failed: %s\n", pos,
             state->region, rl_status_message(status));
      rl_status_free(status);
      return 3;
    }
    ++compared;
    if (!rl_digest128_equal(digest, state->digest)) {
      if (!first) first = capture->regions[state->region].name;
      ++differing;
    }
  }
  printf("pos %3" PRId64 ":", pos);
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    printf(" %s=%" PRId64, capture->params[i].name, values[i]);
  }
  if (differing) {
    printf("  %u of %u regions DIFFER from the program's (first %s)\n",
           differing, compared, first);
    return 1;
  }
  printf("  %u regions equal to the program's\n", compared);
  return 0;
}

// The recorded positions in increasing order (program_states is ordered by
// (pos, region)); returns how many, at most |capacity|.
static uint32_t rl_example_positions(const rl_capture_t* capture,
                                     int64_t* positions, uint32_t capacity) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < capture->program_state_count && count < capacity;
       ++i) {
    int64_t pos = capture->program_states[i].pos;
    if (count == 0 || positions[count - 1] != pos) positions[count++] = pos;
  }
  return count;
}

static int rl_example_walk(rl_example_t* example, uint32_t min_new) {
  const rl_capture_t* capture = example->capture;
  const int64_t captured = capture->params[example->pos_param].capture_value;
  int64_t positions[256];
  const uint32_t count = rl_example_positions(capture, positions, 256);
  uint32_t new_positions = 0, matched_new = 0;
  int64_t first_bad = 0;
  bool bad = false;
  for (uint32_t i = 0; i < count; ++i) {
    int result = rl_example_step(example, positions[i]);
    if (result == 3) return 3;
    if (result == 1 && !bad) {
      bad = true;
      first_bad = positions[i];
    }
    if (positions[i] != captured) {
      ++new_positions;
      if (result == 0) ++matched_new;
    }
  }
  if (bad) {
    printf("FAIL: the replay differs from the program at pos %" PRId64 "\n",
           first_bad);
    return 1;
  }
  if (new_positions < min_new) {
    printf("FAIL: %u positions besides the captured pos %" PRId64
           " recorded, %u wanted\n",
           new_positions, captured, min_new);
    return 1;
  }
  printf("PASS: %u positions besides the captured pos %" PRId64
         " replayed, every state region equal to the program's\n",
         matched_new, captured);
  return 0;
}

static int rl_example_run(const char* path, uint32_t min_new,
                          rl_example_t* example) {
  rl_capture_t* capture = NULL;
  rl_status_t status = rl_capture_file_read(path, &capture, NULL);
  if (status) {
    fprintf(stderr, "decode_product: %s\n", rl_status_message(status));
    rl_status_free(status);
    return 3;
  }
  example->capture = capture;
  example->pos_param = rl_example_find_pos(capture);
  if (example->pos_param == UINT32_MAX ||
      capture->param_count > RL_EXAMPLE_MAX_PARAMS ||
      capture->program_state_count == 0) {
    fprintf(stderr,
            "decode_product: %s: not a step capture with program state "
            "(no parameter pos, or no PROGRAM_STATE section)\n",
            path);
    rl_capture_destroy(capture);
    return 3;
  }
  rl_device_options_t device_options = {
      .processor = rl_capture_processor_or(capture, "gfx1100"),
      .executor = "isa"};
  rl_device_t* device = NULL;
  status = rl_device_open(&device_options, &device);
  if (!status) status = rl_replay_create(device, capture, NULL, &example->replay);
  if (!status) status = rl_replay_contract(example->replay);
  if (!status) status = rl_replay_prepare(example->replay, RL_ROUTE_AQL);
  int result = 3;
  if (status) {
    fprintf(stderr, "decode_product: %s\n", rl_status_message(status));
    rl_status_free(status);
  } else {
    printf("capture %s: %u launches, %u parameters, %u program states\n", path,
           capture->launch_count, capture->param_count,
           capture->program_state_count);
    result = rl_example_walk(example, min_new);
  }
  rl_replay_destroy(example->replay);
  rl_device_close(device);
  rl_capture_destroy(capture);
  return result;
}

int main(int argc, char** argv) {
  const char* usage =
      "usage: decode_product CAPTURE [--min-new N] [--wrong-token POS]\n";
  if (argc < 2) {
    fputs(usage, stderr);
    return 2;
  }
  rl_example_t example = {0};
  uint32_t min_new = 8;
  for (int i = 2; i < argc; i += 2) {
    char* end = NULL;
    long long value = i + 1 < argc ? strtoll(argv[i + 1], &end, 10) : 0;
    if (i + 1 >= argc || !end || *end || end == argv[i + 1]) {
      fprintf(stderr, "decode_product: %s needs an integer\n%s", argv[i],
              usage);
      return 2;
    }
    if (strcmp(argv[i], "--min-new") == 0 && value >= 0) {
      min_new = (uint32_t)value;
    } else if (strcmp(argv[i], "--wrong-token") == 0) {
      example.has_wrong_token = true;
      example.wrong_token_pos = value;
    } else {
      fprintf(stderr, "decode_product: bad option %s\n%s", argv[i], usage);
      return 2;
    }
  }
  return rl_example_run(argv[1], min_new, &example);
}
