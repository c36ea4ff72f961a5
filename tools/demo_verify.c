// The verify part of `redline demo` (tools/demo_verify.h).
#include "tools/demo_verify.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include <stdlib.h>

#include "kernels/workloads/verify.h"
#include "kernels/workloads/verify_route.h"
#include "redline/funnel.h"
#include "redline/replay.h"
#include "tools/cli.h"

uint32_t rl_demo_verify_config(uint64_t layers,
                               rl_workload_param_value_t* out) {
  out[0] = (rl_workload_param_value_t){"layers", (int64_t)layers};
  out[1] = (rl_workload_param_value_t){"max_context",
                                       RL_DEMO_VERIFY_MAX_CONTEXT};
  out[2] = (rl_workload_param_value_t){"crossover", RL_DEMO_VERIFY_CROSSOVER};
  return 3;
}

// The eager path of a step outside the envelope: the step recorded at |pos|
// on a fresh simulated device, which executes every launch as it is
// issued (the program the eager arm replays, without a retained route).
// Writes the number of launches that ran.
static rl_status_t rl_demo_verify_eager(const rl_capture_t* capture,
                                        const rl_verify_envelope_t* envelope,
                                        const char* processor,
                                        const char* executor, int64_t pos,
                                        uint32_t* out_launches) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/verify-%s.co", rl_cli_kernels_dir(),
           processor);
  uint8_t* code = NULL;
  size_t code_size = 0;
  RL_RETURN_IF_ERROR(rl_cli_read_file(path, &code, &code_size));
  rl_verify_dims_t dims = RL_VERIFY_DIMS_DEFAULT;
  dims.layers = (capture->launch_count - RL_VERIFY_LAUNCHES_FIXED) /
                RL_VERIFY_LAUNCHES_PER_LAYER;
  dims.batch = envelope->batch;
  dims.max_context = envelope->max_context;
  dims.crossover = 0;
  const rl_workload_param_value_t param = {"pos", pos};
  const rl_workload_options_t options = {.code_object = code,
                                         .code_object_size = code_size,
                                         .seed = 1,
                                         .params = &param,
                                         .param_count = 1};
  const rl_device_options_t device_options = {
      .kind = "sim", .processor = processor, .executor = executor};
  rl_device_t* device = NULL;
  rl_funnel_device_t funnel_device = {0};
  rl_funnel_t* funnel = NULL;
  rl_capture_t* eager = NULL;
  rl_status_t status = rl_device_open(&device_options, &device);
  if (!status) status = rl_device_funnel_device_create(device, &funnel_device);
  if (!status) status = rl_funnel_create("verify", &funnel_device, &funnel);
  if (!status) status = rl_verify_record(funnel, &options, &dims);
  if (!status) status = rl_funnel_finish(funnel, &eager);
  if (!status) *out_launches = eager->launch_count;
  rl_capture_destroy(eager);
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&funnel_device);
  rl_device_close(device);
  free(code);
  return status;
}

rl_status_t rl_demo_verify_route(const rl_capture_t* capture,
                                 const char* processor, const char* executor) {
  rl_verify_envelope_t envelope;
  RL_RETURN_IF_ERROR(rl_verify_envelope_of(capture, &envelope));
  printf("envelope   %s, B=%u, S=%u, live context in (%u, %u], partials "
         ">= %" PRIu64 " bytes\n",
         envelope.target, envelope.batch, envelope.chunks, envelope.crossover,
         envelope.max_context, envelope.workspace_bytes);
  const uint32_t B = envelope.batch;
  const struct {
    uint32_t batch;
    int64_t pos;
    bool route_off;
    bool retained;
  } steps[] = {
      {B, (int64_t)envelope.crossover - B + 1, false, true},
      {B, (int64_t)envelope.crossover - B, false, false},
      {B, (int64_t)envelope.max_context - B + 1, false, false},
      {B / 2 < 4 ? 33 : B / 2, (int64_t)envelope.crossover + 64, false, false},
      {3, (int64_t)envelope.crossover + 64, false, false},
      {B, (int64_t)envelope.crossover + 64, true, false},
  };
  for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); ++i) {
    const rl_verify_route_options_t options = {steps[i].route_off, 0};
    const rl_verify_step_t step = {envelope.target, steps[i].batch,
                                   steps[i].pos, envelope.workspace_bytes};
    rl_verify_decision_t decision;
    RL_RETURN_IF_ERROR(rl_verify_decide(&envelope, &options, &step,
                                        &decision));
    printf("step       B=%-2u pos=%-5" PRId64 "%s -> %s%s%s\n", step.batch,
           step.pos, steps[i].route_off ? " route=off" : "",
           decision.retained ? "retained" : "eager",
           decision.retained ? "" : ": ", decision.reason);
    if (decision.retained != steps[i].retained) {
      return RL_STATUS(RL_STATUS_MISMATCH,
                       "route decision for B=%u pos=%" PRId64 " is %s",
                       step.batch, step.pos,
                       decision.retained ? "retained" : "eager");
    }
    if (i == 1) {  // below the crossover: run it on the eager path
      uint32_t launches = 0;
      RL_RETURN_IF_ERROR(rl_demo_verify_eager(capture, &envelope, processor,
                                              executor, step.pos, &launches));
      printf("           ran on the eager path: %u launches executed one by "
             "one on the simulator\n", launches);
    }
  }
  const rl_verify_step_t small = {envelope.target, B,
                                  (int64_t)envelope.crossover + 64,
                                  envelope.workspace_bytes - 4};
  rl_verify_decision_t decision;
  rl_status_t status = rl_verify_decide(&envelope, NULL, &small, &decision);
  if (!status) {
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "an undersized workspace was not refused");
  }
  printf("step       workspace %" PRIu64 " bytes -> contract: %s\n",
         small.workspace_bytes, rl_status_message(status));
  rl_status_free(status);
  return RL_OK;
}
