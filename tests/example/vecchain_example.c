// vecchain_example: the replay API from a product's point of view, using
// only the public headers (redline/replay.h, funnel.h, capture.h) and the
// sample workload's registry.
//
//   1. open the simulated device;
//   2. record one decode step of vecchain at pos = 7 through the funnel on
//      that device (an ordinary eager run that also yields the capture);
//   3. contract and prepare the capture for route aql;
//   4. walk positions 1..12 and a few out-of-range ones: admit each, replay
//      the admitted ones, fall back (here: print) for the others;
//   5. print the route proof.
// Exits 0 when every admitted replay succeeded and every out-of-range
// position was refused without poisoning the replay.
//
// Usage: vecchain_example PATH/vecchain-gfx1100.co
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels/workloads/workload.h"
#include "redline/funnel.h"
#include "redline/replay.h"

static uint8_t* rl_example_read(const char* path, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  rewind(file);
  uint8_t* bytes = size > 0 ? malloc((size_t)size) : NULL;
  if (bytes && fread(bytes, 1, (size_t)size, file) != (size_t)size) {
    free(bytes);
    bytes = NULL;
  }
  fclose(file);
  *out_size = bytes ? (size_t)size : 0;
  return bytes;
}

// Step 2: the capture comes from the funnel, in process.
static rl_status_t rl_example_capture(rl_device_t* device, const uint8_t* code,
                                      size_t code_size,
                                      rl_capture_t** out_capture) {
  rl_funnel_device_t funnel_device;
  RL_RETURN_IF_ERROR(rl_device_funnel_device_create(device, &funnel_device));
  rl_workload_param_value_t pos = {"pos", 7};
  rl_workload_options_t options = {.code_object = code,
                                   .code_object_size = code_size,
                                   .seed = 1,
                                   .params = &pos,
                                   .param_count = 1};
  rl_funnel_t* funnel = NULL;
  rl_status_t status = rl_funnel_create("vecchain", &funnel_device, &funnel);
  if (!status) status = rl_workload_vecchain.record(funnel, &options);
  if (!status) status = rl_funnel_finish(funnel, out_capture);
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&funnel_device);
  return status;
}

// Reads the scalar result "out" (the sum over the context) of the replay.
static float rl_example_out(rl_replay_t* replay, const rl_capture_t* capture) {
  float value = 0.0f;
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    if (capture->regions[r].size == sizeof(value) &&
        capture->regions[r].type == RL_REGION_F32) {
      rl_status_free(
          rl_replay_read_region(replay, r, &value, sizeof(value), NULL));
    }
  }
  return value;
}

// Step 4: one decode step. Returns false when something failed that
// should not have.
static bool rl_example_step(rl_replay_t* replay, const rl_capture_t* capture,
                            int64_t pos) {
  rl_admission_t admission;
  rl_status_t status = rl_replay_admit(replay, &pos, 1, &admission);
  if (status || !admission.admitted) {
    printf("pos %5" PRId64 ": not admitted (%s): fall back to HIP\n", pos,
           status ? rl_status_message(status) : admission.reason);
    rl_status_free(status);
    return pos < 1 || pos >= 4096;
  }
  status = rl_replay_run(replay, &pos, 1);
  if (status) {
    printf("pos %5" PRId64 ": replay failed (%s): re-capture\n", pos,
           rl_status_message(status));
    rl_status_free(status);
    return false;
  }
  printf("pos %5" PRId64 ": replayed, out = %g\n", pos,
         (double)rl_example_out(replay, capture));
  return true;
}

static bool rl_example_replay(rl_device_t* device,
                              const rl_capture_t* capture) {
  rl_replay_t* replay = NULL;
  rl_status_t status = rl_replay_create(device, capture, NULL, &replay);
  if (!status) status = rl_replay_contract(replay);
  if (!status) status = rl_replay_prepare(replay, RL_ROUTE_AQL);
  bool ok = !status;
  if (status) fprintf(stderr, "example: %s\n", rl_status_message(status));
  rl_status_free(status);
  static const int64_t positions[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                      0, 4096, 100000};
  for (size_t i = 0; ok && i < sizeof(positions) / sizeof(positions[0]); ++i) {
    ok = rl_example_step(replay, capture, positions[i]);
  }
  rl_route_proof_t proof;
  rl_replay_proof(replay, &proof);
  printf("proof: device=%s route=%s state=%s replays=%" PRIu64
         " dispatches=%u packets=%u waits=%u queue=%u bytes=%" PRIu64 "\n",
         proof.device, rl_route_name(proof.route),
         rl_replay_state_name(proof.state), proof.replay_count,
         proof.dispatches, proof.packets, proof.waits, proof.queue_id,
         proof.stream_bytes);
  ok = ok && proof.replay_count == 12 && proof.state == RL_REPLAY_REPLAYING;
  rl_replay_destroy(replay);
  return ok;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: vecchain_example PATH/vecchain-gfx1100.co\n");
    return 2;
  }
  size_t code_size = 0;
  uint8_t* code = rl_example_read(argv[1], &code_size);
  if (!code) {
    fprintf(stderr, "example: cannot read %s\n", argv[1]);
    return 3;
  }
  rl_device_t* device = NULL;
  rl_capture_t* capture = NULL;
  rl_status_t status = rl_device_open(NULL, &device);
  if (!status) status = rl_example_capture(device, code, code_size, &capture);
  bool ok = !status && rl_example_replay(device, capture);
  if (status) fprintf(stderr, "example: %s\n", rl_status_message(status));
  // An error exits 2, a replay that did not match 1 (this example's own
  // choice: the library says what failed, the program picks its exit code).
  int exit_code = status ? 2 : (ok ? 0 : 1);
  rl_status_free(status);
  rl_capture_destroy(capture);
  rl_device_close(device);
  free(code);
  return exit_code;
}
