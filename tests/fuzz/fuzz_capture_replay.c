// libFuzzer target for what lies behind the capture reader: a capture that
// decodes and validates (as a re-signed file would, so the integrity checks
// are off here) goes through the replay contract (binding checks), the
// hazard plan, both lowerings (route aql: packets and patch table; route
// pm4: the IB, register retention, census) and bound runs on the simulated
// GPU with the executor that runs no kernel code, at the ends of every
// parameter's admitted range.
//
// Properties:
//   - no crash, leak, hang or sanitizer report on any input;
//   - every failure carries a status code a caller can act on and a
//     non-empty message: contract (4), prepare (5), poisoned (6),
//     quarantined (7), input (3), unsupported, out of memory;
//   - a run whose bounded wait expires (a grid of 2^32 work-groups, say)
//     quarantines, and destroying the replay afterwards frees nothing the
//     command processor still uses (ASan sees every such access).
//
// Inputs whose buffers add up to more than RL_FUZZ_MEMORY_LIMIT bytes are
// skipped: the simulator backs device memory with host memory, and the
// fuzzer's RSS limit is not what is under test here.
//
// Seeds: captures of vecchain and decode written by the CLI
// (tests/fuzz/fuzzers.cmake).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "capture/format/capture_file_internal.h"
#include "redline/capture_file.h"
#include "redline/replay.h"
#include "sim/sim.h"

#define RL_FUZZ_MEMORY_LIMIT (64ull << 20)
#define RL_FUZZ_WAIT_NS 20000000ull  // 20 ms per run

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void rl_fuzz_expect_failure(rl_status_t status) {
  if (!status) return;
  switch (rl_status_code(status)) {
    case RL_STATUS_CONTRACT:
    case RL_STATUS_PREPARE:
    case RL_STATUS_POISONED:
    case RL_STATUS_QUARANTINED:
    case RL_STATUS_INVALID_INPUT:
    case RL_STATUS_UNSUPPORTED:
    case RL_STATUS_OUT_OF_MEMORY:
      break;
    default:
      __builtin_trap();
  }
  if (!rl_status_message(status)[0]) __builtin_trap();
  rl_status_free(status);
}

static bool rl_fuzz_small_enough(const rl_capture_t* capture) {
  uint64_t total = 0;
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    uint64_t size = capture->buffers[b].size;
    if (size > RL_FUZZ_MEMORY_LIMIT - total) return false;
    total += size;
  }
  return true;
}

// Runs |replay| at the lower and the upper end of every admitted range (all
// parameters at once), then at the captured values.
static void rl_fuzz_runs(rl_replay_t* replay, const rl_capture_t* capture) {
  uint32_t count = capture->param_count;
  int64_t* values = calloc(3 * (size_t)count + 1, sizeof(int64_t));
  if (!values) return;
  for (uint32_t p = 0; p < count; ++p) {
    values[p] = capture->params[p].min;
    values[count + p] = capture->params[p].max - 1;
    values[2 * count + p] = capture->params[p].capture_value;
  }
  for (int v = 0; v < 3; ++v) {
    const int64_t* set = values + (size_t)v * count;
    rl_admission_t admission;
    if (rl_replay_admit(replay, set, count, &admission)) __builtin_trap();
    rl_status_t status = rl_replay_run(replay, set, count);
    if (!admission.admitted && status == RL_OK) __builtin_trap();
    if (status) {
      rl_fuzz_expect_failure(status);
      if (rl_replay_state(replay) == RL_REPLAY_QUARANTINED) break;
    }
  }
  free(values);
}

static void rl_fuzz_route(rl_device_t* device, const rl_capture_t* capture,
                          rl_route_t route) {
  const rl_replay_options_t options = {.wait_timeout_ns = RL_FUZZ_WAIT_NS,
                                       .queue_packets = 0};
  rl_replay_t* replay = NULL;
  rl_status_t status = rl_replay_create(device, capture, &options, &replay);
  if (status) {
    rl_fuzz_expect_failure(status);
    return;
  }
  status = rl_replay_contract(replay);
  if (!status) status = rl_replay_prepare(replay, route);
  if (status) {
    rl_fuzz_expect_failure(status);
  } else {
    rl_fuzz_runs(replay, capture);
  }
  rl_replay_destroy(replay);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rl_capture_t* capture = NULL;
  rl_status_t status =
      rl_capture_file_decode_memory(data, size, false, NULL, &capture, NULL);
  if (status) {
    rl_status_free(status);
    return 0;
  }
  if (!rl_fuzz_small_enough(capture)) {
    rl_capture_destroy(capture);
    return 0;
  }
  // A fresh device per input: its processor must match the capture's
  // target (a mismatch is a contract failure, also worth reaching).
  const rl_sim_options_t sim_options = {.executor = rl_sim_noop_executor()};
  rl_device_t* device = NULL;
  if (rl_sim_device_create(&sim_options, &device)) __builtin_trap();
  rl_fuzz_route(device, capture, RL_ROUTE_AQL);
  rl_fuzz_route(device, capture, RL_ROUTE_PM4);
  rl_device_close(device);
  rl_capture_destroy(capture);
  return 0;
}
